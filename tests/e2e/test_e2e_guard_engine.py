"""The guard's engine inside real binaries: new categories blocked on Claude Code, Codex CLI and
OpenCode (a plugin CLI), with the rule id in the reason the model sees.

Every shell call runs in a temp git project with the sandbox's HOME (tests/e2e/conftest.py).
Each blocked call starts with a `touch` of a marker file, so a missing marker proves the call
never ran: the guard read the line and stopped it. The calls are harmless there even if they
ran (a hard reset of an empty temp repo, a read of a fake .env, a stash clear with no stash,
a push without a remote).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from hookwrap.shell import MAX_BODIES

from .chat_harness import make_project
from .codex_harness import Codex
from .hwrepo import HookwrapRepo
from .mockmodel import Reply
from .qwen_copilot_support import hookwrap_repo
from .test_codex_hookwrap import codex_repo

pytestmark = pytest.mark.e2e

def _nested_shells(command: str, levels: int) -> str:
    for _ in range(levels):
        command = "bash -c " + shlex.quote(command)
    return command


# (command, the rule that blocks it, the marker its `touch` would leave)
BLOCKED = [
    ("touch m1 && git reset --hard", "git.reset-hard", "m1"),  # local git data loss
    ("echo x >$(touch m2; git checkout -- .)", "git.checkout-discard", "m2"),  # the old bypass
    ("touch m3 && cat .env", "secrets.read", "m3"),  # reading a secret
    ("touch m4 && echo 'git clean -fdx' | sh", "git.clean-force", "m4"),  # a script fed to sh
    # code handed to an interpreter (an empty stash list: harmless had it run)
    ("touch m5 && python3 -c \"import os; os.system('git stash clear')\"", "git.stash-drop", "m5"),
    ("touch m6 && git push --force origin main", "git.push-force", "m6"),  # no remote: harmless
    # shells nested deeper than the guard reads: it fails closed
    ("touch m7 && " + _nested_shells("git stash clear", MAX_BODIES + 1), "code.unreadable", "m7"),
]
HARMLESS = "echo ok > harmless.txt"


def _prepare(root: Path) -> None:
    (root / ".env").write_text("FAKE_SECRET=e2e\n", encoding="utf-8")


def _check(root: Path, texts: list[str]) -> None:
    assert len(texts) == len(BLOCKED) + 1, texts
    for (command, rule, marker), text in zip(BLOCKED, texts):
        assert "Blocked by the guard hook" in text and f"rule {rule}" in text, (command, text)
        assert not (root / marker).exists(), command
    assert (root / "harmless.txt").read_text() == "ok\n"
    assert (root / ".env").read_text() == "FAKE_SECRET=e2e\n"


def test_claude_code_blocks_the_new_categories(claude, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "guard")
    _prepare(repo.root)
    steps = [claude.shell(command) for command, _, _ in BLOCKED]
    result = claude.run(repo.root, [*steps, claude.shell(HARMLESS), Reply("Finished.")])
    assert result.rc == 0, result.describe()
    results = result.tool_results()
    assert [r["is_error"] for r in results] == [True] * len(BLOCKED) + [False], result.describe()
    _check(repo.root, [r["text"] for r in results])
    assert not result.failed_hooks(), result.describe()


def test_codex_cli_blocks_the_new_categories(codex: Codex, tmp_path: Path) -> None:
    repo = codex_repo(tmp_path / "proj", codex.sandbox, ["before_tool", "guard"])
    _prepare(repo.root)
    steps = [codex.shell(command) for command, _, _ in BLOCKED]
    result = codex.run(repo.root, [*steps, codex.shell(HARMLESS), Reply("Finished.")])
    assert result.rc == 0, result.describe()
    assert result.hook_outcomes("PreToolUse") == ["Blocked"] * len(BLOCKED) + ["Completed"], \
        result.describe()
    _check(repo.root, [r["text"] for r in result.tool_results()])


def test_opencode_blocks_the_new_categories(opencode, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj")
    repo = hookwrap_repo(opencode, project, "opencode")
    repo.add("before_tool", "guard")
    _prepare(project)
    steps = [opencode.shell(command) for command, _, _ in BLOCKED]
    result = opencode.run(project, [*steps, opencode.shell(HARMLESS), Reply("Finished.")],
                          prompt="do it")
    assert result.rc == 0, result.describe()
    _check(project, [r["text"] for r in result.tool_results()])
