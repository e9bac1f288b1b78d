"""Scenario 4: ``audit`` writes one line per event it is registered for, and none for the rest."""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e


def test_audit_logs_each_matching_tool_call_and_session_start(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("session_start", "session_audit", "--template", "audit")
    steps = [
        agent.shell("echo one > one.txt"),
        agent.write_file(str(repo.root / "skipped.txt"), "not a shell call\n"),
        agent.shell("echo two > two.txt"),
        Reply("Finished."),
    ]
    result = agent.run(repo.root, steps)

    assert result.rc == 0, result.describe()
    assert (repo.root / "skipped.txt").exists(), result.describe()  # the write ran, unaudited
    lines = repo.log_lines("audit")
    assert [(line["event"], line["tool_name"], line["tool_input"]["command"]) for line in lines] == [
        ("before_tool", "shell", "echo one > one.txt"),
        ("before_tool", "shell", "echo two > two.txt"),
    ], result.describe()
    assert {line["platform"] for line in lines} == {agent.name}
    assert {line["raw_event"] for line in lines} == {"PreToolUse" if agent.name == "claude" else "BeforeTool"}
    [session] = repo.log_lines("session_audit")
    assert (session["event"], session["raw_event"], session["platform"]) == (
        "session_start", "SessionStart", agent.name)
    expected = [("audit", agent.name)] * 2 + [("session_audit", agent.name)]
    assert sorted(result.hooks) == expected, result.describe()
    assert not result.failed_hooks(), result.describe()
