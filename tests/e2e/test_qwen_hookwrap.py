"""hookwrap on Qwen Code 0.24.4 (the real binary, offline): generated hooks, end to end.

Qwen runs are slow (5-9 s each): two runs cover the guard, context, audit, a path with a space,
the user's own settings and Qwen's own rewrite of them, and the stop gate's cap.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from hookwrap.clis.qwen import QWEN

REWRITE_NOTE = QWEN.rewrite_note

from .chat_harness import ChatAgent, make_project
from .mockmodel import Reply, ToolCall
from .qwen_copilot_support import (
    CHECK_FAILS,
    CONTEXT_MARKER,
    FORCED_PUSH,
    add_guard_audit_context,
    add_rewrite_or_ask,
    hookwrap_repo,
)

pytestmark = pytest.mark.e2e

USER_SETTINGS = {"model": {"name": "user-model"}, "ui": {"theme": "Default"},
                 "hooks": {"Notification": [{"hooks": [{"type": "command", "command": "true"}]}]}}


def test_guard_context_and_the_users_settings(qwen: ChatAgent, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    (project / ".qwen").mkdir()
    (project / ".qwen" / "settings.json").write_text(json.dumps(USER_SETTINGS), encoding="utf-8")
    repo = hookwrap_repo(qwen, project, "qwen")
    add_guard_audit_context(repo)
    steps = [qwen.shell(FORCED_PUSH), qwen.write_file(".env", "SECRET=1\n"),
             qwen.shell("echo ok > harmless.txt"), Reply("Finished.")]
    result = qwen.run(project, steps)

    assert result.rc == 0, result.describe()
    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert not (project / ".env").exists(), result.describe()
    results = result.tool_results()
    assert "force" in results[0]["text"].lower() and "blocked" in results[0]["text"].lower(), results
    assert ".env" in results[1]["text"], results
    # The context reaches the model once: the empty UserPromptSubmit after each tool result
    # (Qwen fires it before every model request) calls no hook.
    assert CONTEXT_MARKER in result.user_messages(0)[0], result.describe()
    assert result.conversation().count(CONTEXT_MARKER) == 1, result.describe()
    context_runs = [h for h in result.hooks if h[0] == "context"]
    assert len(context_runs) == len(result.requests), result.describe()
    # One audit line per shell call, read as Qwen's.
    lines = repo.log_lines("audit")
    assert [line["platform"] for line in lines] == ["qwen", "qwen"], lines
    assert not result.failed_hooks(), result.describe()

    # Qwen rewrote the file it loaded ("$version"): every key kept, and no drift for hookwrap.
    data = repo.settings(".qwen/settings.json")
    assert "$version" in data and data["model"] == USER_SETTINGS["model"], data
    assert repo.hookwrap("sync", "--check").returncode == 0
    repo.hookwrap("remove", "context")
    repo.hookwrap("remove", "audit")
    repo.hookwrap("remove", "guard")
    left = repo.settings(".qwen/settings.json")
    assert left == {**USER_SETTINGS, "$version": data["$version"]}, left


def test_stop_gate_stops_after_max_retries(qwen: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(qwen, git_project, "qwen")
    repo.add("after_agent", "stop_gate")
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    result = qwen.run(git_project, [Reply("One."), Reply("Two."), Reply("Three."), Reply("Four.")])

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 3, result.describe()  # the answer and two retries
    assert "attempt 2 of 2" in result.conversation(2), result.describe()
    assert result.hooks == [("stop_gate", "qwen")] * 3, result.describe()
    assert not result.failed_hooks(), result.describe()


def test_updated_input_is_a_deny_that_gives_the_new_input(qwen: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(qwen, git_project, "qwen")
    add_rewrite_or_ask(repo)
    result = qwen.run(git_project, [qwen.shell("echo x > original.txt"), Reply("Finished.")])

    # Qwen ignores updatedInput: rather than run the original, the call is refused and the
    # model told what to run instead.
    assert not (git_project / "original.txt").exists(), result.describe()
    [denied] = result.tool_results()
    assert REWRITE_NOTE in denied["text"] and "rewritten.txt" in denied["text"], denied
    assert not result.failed_hooks(), result.describe()


def test_guard_sees_the_monitor_tool(qwen: ChatAgent, git_project: Path) -> None:
    """Qwen Code 0.24.4's ``monitor`` tool runs ``{"command"}`` in a shell, and PreToolUse sees
    it as tool_name ``monitor``: the guard is registered for it as a shell tool."""
    repo = hookwrap_repo(qwen, git_project, "qwen")
    repo.add("before_tool", "guard")
    steps = [ToolCall("monitor", {"command": f"touch marker && {FORCED_PUSH}",
                                  "description": "push"}),
             ToolCall("monitor", {"command": "touch harmless.txt", "description": "touch"}),
             Reply("Finished.")]
    result = qwen.run(git_project, steps)

    assert not (git_project / "marker").exists(), result.describe()
    blocked, ran = result.tool_results()
    assert "force" in blocked["text"].lower() and "blocked" in blocked["text"].lower(), blocked
    assert "blocked" not in ran["text"].lower(), ran
    deadline = time.monotonic() + 10
    while not (git_project / "harmless.txt").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert (git_project / "harmless.txt").exists(), result.describe()
    assert not result.failed_hooks(), result.describe()
    matcher = repo.settings(".qwen/settings.json")["hooks"]["PreToolUse"][0]["matcher"]
    assert re.fullmatch(matcher, "monitor"), matcher
