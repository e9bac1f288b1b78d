"""hookwrap on Cline 3.0.65 (the real Bun binary, offline): generated hook files, end to end.

Cline runs every file named after an event in ``.clinerules/hooks/`` and reads its own answer;
hookwrap writes one file per event that runs the hooks through its dispatcher. These runs prove
that the guard blocks a forced push (``run_commands``) and a ``.env`` write (``editor``) with the
reason shown to the model and the task going on, that context reaches the model, that the
user's own hook files keep running, that each hook runs once although Claude Code is registered
too, that a hook that crashes, hangs or cannot start still blocks, and that ``remove`` turns
hookwrap's hook off.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .chat_harness import make_project
from .cline_harness import Cline
from .mockmodel import Reply
from .qwen_copilot_support import FORCED_PUSH, hookwrap_repo

pytestmark = pytest.mark.e2e

CONTEXT_MARKER = "E2E-CLINE-CONTEXT-4d2"
USER_MARKER = "E2E-CLINE-USER-HOOK-9a1"
# A hook file of the user's own, for an event hookwrap also writes (PostToolUse): it logs each
# call beside itself and gives context.
USER_HOOK = f'''\
import json, os, sys
payload = json.load(sys.stdin)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "user.log"), "a") as log:
    log.write(payload["tool_result"]["name"] + "\\n")
print(json.dumps({{"contextModification": "{USER_MARKER}"}}))
'''
CONTEXT_HOOK = f'''\
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402


def hook(event: HookInput) -> HookOutput | None:
    return HookOutput(context="{CONTEXT_MARKER} after " + event.tool_name)


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''
HANGING_HOOK = "import time\ntime.sleep(600)\n"
CRASHING_HOOK = "raise SystemExit(3)\n"


def _model_saw(result, text: str) -> bool:
    return any(text in message for message in result.user_messages())


def test_guard_context_user_files_and_once_per_cli(cline: Cline, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    user_hook = project / ".clinerules" / "hooks" / "PostToolUse.py"
    user_hook.parent.mkdir(parents=True)
    user_hook.write_text(USER_HOOK, encoding="utf-8")
    repo = hookwrap_repo(cline, project, "claude", "cline")
    repo.add("before_tool", "guard")
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("after_tool", "ctx", "--template", "skeleton")
    repo.script("ctx").write_text(CONTEXT_HOOK, encoding="utf-8")
    steps = [cline.shell(FORCED_PUSH + "; touch pushed"), cline.write_file(".env", "SECRET=1\n"),
             cline.shell("echo ok > harmless.txt"), Reply("Finished.")]
    result = cline.run(project, steps, prompt="run it")

    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert not (project / "pushed").exists(), result.describe()
    assert not (project / ".env").exists(), result.describe()
    # The task went on to the end: the blocks were no cancel.
    assert result.finish_reason == "completed", result.describe()
    assert len(result.requests) == 4, result.describe()
    # Each reason reached the model, as hook context after the failed call.
    assert any("rule git.push-force" in m for m in result.user_messages(1)), result.describe()
    assert any("rule secrets.env-write" in m for m in result.user_messages(2)), result.describe()
    # Context of an after_tool hook reached the model (PostToolUse of the harmless call).
    assert _model_saw(result, f"{CONTEXT_MARKER} after shell"), result.describe()
    # The user's own PostToolUse file ran for every call, and its context arrived too.
    assert (user_hook.parent / "user.log").read_text().split() == \
        ["run_commands", "editor", "run_commands"], result.describe()
    assert _model_saw(result, USER_MARKER), result.describe()
    # Once per CLI: .claude/settings.json holds the same hooks, and Cline reads none of it.
    assert "guard" in json.dumps(repo.settings(".claude/settings.json")), "claude not registered"
    lines = repo.log_lines("audit")
    assert [line["platform"] for line in lines] == ["cline", "cline"], lines
    assert "harmless.txt" in json.dumps(lines[1]), lines
    assert repo.hookwrap("sync", "--check").returncode == 0


@pytest.mark.parametrize("broken", ["hangs", "crashes", "no python", "typo in the policy"])
def test_a_guard_that_cannot_answer_still_blocks(cline: Cline, tmp_path: Path, broken: str) -> None:
    project = make_project(tmp_path)
    repo = hookwrap_repo(cline, project, "cline")
    repo.add("before_tool", "guard", "--timeout", "3")
    if broken == "hangs":
        repo.script("guard").write_text(HANGING_HOOK, encoding="utf-8")
    elif broken == "crashes":
        repo.script("guard").write_text(CRASHING_HOOK, encoding="utf-8")
    elif broken == "typo in the policy":  # the launcher blocks: exit 2, the cause on stderr
        script = repo.script("guard")
        script.write_text(script.read_text(encoding="utf-8").replace(
            "ALLOW_SECRET_READS = False\n", "ALLOW_SECRET_READS = False,,\n"), encoding="utf-8")
    else:  # the interpreter of the hook file and of every command is missing
        manifest = project / "hookwrap.toml"
        manifest.write_text('python = "/nonexistent/python3"\n' + manifest.read_text(), encoding="utf-8")
        synced = repo.hookwrap("sync", check=False)  # writes the files, then says what it cannot fix
        assert synced.returncode == 1, synced
        assert "python: /nonexistent/python3 is not on PATH: no hook can start" in synced.stderr
    steps = [cline.shell("touch should-not-exist"), cline.shell("echo ok > after.txt"),
             Reply("Finished.")]
    result = cline.run(project, steps, prompt="run it")

    assert not (project / "should-not-exist").exists(), result.describe()
    assert _model_saw(result, "hookwrap: "), result.describe()
    assert result.finish_reason == "completed", result.describe()
    # Every call is blocked: the second one too (nothing let the tool run).
    assert not (project / "after.txt").exists(), result.describe()


def test_remove_turns_the_guard_off(cline: Cline, tmp_path: Path) -> None:
    project = make_project(tmp_path)
    repo = hookwrap_repo(cline, project, "cline")
    repo.add("before_tool", "guard")
    hook_file = project / ".clinerules" / "hooks" / "PreToolUse"
    assert hook_file.is_file() and not hook_file.is_symlink()
    repo.hookwrap("remove", "guard")
    assert not hook_file.exists()
    result = cline.run(project, [cline.shell(FORCED_PUSH + "; touch pushed"), Reply("Finished.")],
                       prompt="run it")

    assert (project / "pushed").exists(), result.describe()


@pytest.mark.parametrize("broken", [False, True], ids=["guard", "dispatcher missing"])
def test_the_python_form_blocks_on_the_real_cline(cline: Cline, tmp_path: Path,
                                                  broken: bool) -> None:
    """python_windows named: the hook file is the Python form (what a Windows machine runs
    without sh); Cline runs it here as ``python3 FILE`` and the guard blocks, or, with the
    dispatcher gone, the file blocks itself."""
    project = make_project(tmp_path)
    repo = hookwrap_repo(cline, project, "cline")
    repo.add("before_tool", "guard")
    manifest = project / "hookwrap.toml"
    manifest.write_text('python_windows = "python"\n' + manifest.read_text(), encoding="utf-8")
    repo.hookwrap("sync")
    hook_file = project / ".clinerules" / "hooks" / "PreToolUse"
    assert hook_file.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")
    if broken:
        (project / ".hookwrap/lib/hookwrap/clis/_cline_hooks.py").unlink()
    steps = [cline.shell(FORCED_PUSH + "; touch pushed"), cline.shell("echo ok > after.txt"),
             Reply("Finished.")]
    result = cline.run(project, steps, prompt="run it")

    assert not (project / "pushed").exists(), result.describe()
    assert result.finish_reason == "completed", result.describe()
    if broken:  # every call blocked: nothing lets the tool run
        assert not (project / "after.txt").exists(), result.describe()
        assert _model_saw(result, "hookwrap: the fail-closed hooks"), result.describe()
    else:
        assert (project / "after.txt").read_text() == "ok\n", result.describe()
        assert any("rule git.push-force" in m for m in result.user_messages(1)), result.describe()
