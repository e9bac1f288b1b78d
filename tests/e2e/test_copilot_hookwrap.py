"""hookwrap on GitHub Copilot CLI 1.0.102 (the real binary, offline): generated hooks, end to end.

Copilot also runs the hooks of the repo's ``.claude/settings.json``. These tests prove that every
hookwrap hook runs exactly once under Copilot whether the repo lists copilot, claude, or both.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwrap.clis.copilot import COPILOT

ASK_NOTE = COPILOT.ask_note

from .chat_harness import ChatAgent, make_project
from .mockmodel import Reply
from .qwen_copilot_support import (
    CHECK_FAILS,
    CONTEXT_MARKER,
    FORCED_PUSH,
    add_guard_audit_context,
    add_rewrite_or_ask,
    hookwrap_repo,
)

pytestmark = pytest.mark.e2e


def _steps(copilot: ChatAgent) -> list:
    return [copilot.shell(FORCED_PUSH), copilot.write_file(".env", "SECRET=1\n"),
            copilot.shell("echo ok > harmless.txt"), Reply("Finished.")]


def _assert_guarded(result, project: Path) -> None:
    assert result.rc == 0, result.describe()
    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert not (project / ".env").exists(), result.describe()
    results = result.tool_results()
    assert results[0]["text"].startswith("Denied by preToolUse hook: "), results
    assert "force" in results[0]["text"].lower(), results
    assert ".env" in results[1]["text"], results
    assert CONTEXT_MARKER in result.user_messages(0)[0], result.describe()
    assert result.conversation().count(CONTEXT_MARKER) == 1, result.describe()
    assert not result.failed_hooks(), result.describe()


@pytest.mark.parametrize("platforms", [("claude", "copilot"), ("claude",)], ids=["both", "claude-only"])
def test_each_hook_runs_once_under_copilot(copilot: ChatAgent, tmp_path: Path,
                                           platforms: tuple[str, ...]) -> None:
    project = make_project(tmp_path, "proj with space")
    repo = hookwrap_repo(copilot, project, *platforms)
    add_guard_audit_context(repo)
    result = copilot.run(project, _steps(copilot))

    _assert_guarded(result, project)
    # One audit line for the shell call that ran (Copilot runs no further PreToolUse hook
    # after a deny), answered as Copilot, whichever file registered it: never two.
    lines = repo.log_lines("audit")
    assert [line["platform"] for line in lines] == ["copilot"], lines
    assert "harmless.txt" in json.dumps(lines[0]), lines
    if "copilot" in platforms:
        # The .claude/settings.json copies start too (Copilot runs that file) and answer {}.
        assert ("guard", "claude") in result.hooks and ("guard", "copilot") in result.hooks


def test_stop_gate_stops_after_max_retries_with_claude_and_copilot(copilot: ChatAgent,
                                                                   git_project: Path) -> None:
    repo = hookwrap_repo(copilot, git_project, "claude", "copilot")
    repo.add("after_agent", "stop_gate")
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    result = copilot.run(git_project, [Reply("One."), Reply("Two."), Reply("Three."), Reply("Four.")])

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 3, result.describe()  # the answer and two retries, not 8
    assert "attempt 2 of 2" in result.conversation(2), result.describe()
    assert sorted(result.hooks) == [("stop_gate", "claude")] * 3 + [("stop_gate", "copilot")] * 3
    assert not result.failed_hooks(), result.describe()


def test_trust_records_the_folder_and_the_users_settings_survive(copilot: ChatAgent,
                                                                 git_project: Path) -> None:
    copilot.trusted = False  # COPILOT_ALLOW_ALL=1: tools approved, the folder not trusted
    other = git_project / ".github" / "hooks" / "mine.json"
    other.parent.mkdir(parents=True)
    other.write_text(json.dumps({"version": 1, "hooks": {}}), encoding="utf-8")
    repo = hookwrap_repo(copilot, git_project, "copilot")
    repo.add("before_tool", "guard")
    assert "hookwrap trust --platform copilot" in repo.hookwrap("doctor", check=False).stdout
    # The sandbox HOME is hookwrap's HOME too: ~/.copilot is the CLI's COPILOT_HOME.
    repo.hookwrap("trust", "--platform", "copilot")
    result = copilot.run(git_project, [copilot.shell(FORCED_PUSH), Reply("Finished.")])

    assert result.tool_results()[0]["text"].startswith("Denied by preToolUse hook: "), result.describe()
    repo.hookwrap("remove", "guard")
    assert not (git_project / ".github" / "hooks" / "hookwrap.json").exists()
    assert json.loads(other.read_text()) == {"version": 1, "hooks": {}}


def test_updated_input_runs_and_ask_is_a_deny(copilot: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(copilot, git_project, "copilot")
    add_rewrite_or_ask(repo)
    steps = [copilot.shell("echo x > original.txt"), copilot.shell("echo risky > risky.txt"),
             Reply("Finished.")]
    result = copilot.run(git_project, steps)

    assert (git_project / "rewritten.txt").exists() and not (git_project / "original.txt").exists()
    assert not (git_project / "risky.txt").exists(), result.describe()
    denied = result.tool_results()[1]["text"]
    assert denied.startswith("Denied by preToolUse hook: E2E-ASK-REASON"), denied
    assert ASK_NOTE in denied
    assert not result.failed_hooks(), result.describe()
