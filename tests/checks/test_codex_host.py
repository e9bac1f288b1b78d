"""The rules `hookwrap test` emulates for Codex CLI 0.169.0: matchers, timeouts, reading a run."""

from __future__ import annotations

import json

import pytest

from hookwrap.checks.host import effective_timeout, matcher_matches
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import HookCommand, RunResult

CODEX = "codex"


def run(code: int = 0, out: str | dict = "", err: str = "") -> RunResult:
    return RunResult(code, out if isinstance(out, str) else json.dumps(out), err, 5)


@pytest.mark.parametrize(("event", "matcher", "target", "expected"), [
    ("PreToolUse", "Bash", "Bash", True),
    ("PreToolUse", "Ba", "Bash", False),            # plain names are an exact list
    ("PreToolUse", "^Ba", "Bash", True),            # anything else is an unanchored regex
    ("PreToolUse", "exec_command|shell", "Bash", False),
    ("PreToolUse", "Edit|Write", "apply_patch", True),  # apply_patch's aliases
    ("PreToolUse", "apply_patch", "apply_patch", True),
    ("PreToolUse", "[", "Bash", False),             # an invalid regex drops the group
    ("PreToolUse", "*", "anything", True),
    ("Stop", "whatever", None, True),               # matcher dropped on Stop
    ("SessionStart", "startup", "startup", True),
    ("SessionStart", "startup", "resume", False),
])
def test_matchers(event: str, matcher: str, target: str | None, expected: bool) -> None:
    assert matcher_matches(CODEX, event, matcher, target) is expected


def test_timeouts() -> None:
    assert effective_timeout(HookCommand(CODEX, "PreToolUse", "x")) == 600
    assert effective_timeout(HookCommand(CODEX, "PreToolUse", "x", 0)) == 1
    assert effective_timeout(HookCommand(CODEX, "SessionEnd", "x")) == 1
    assert effective_timeout(HookCommand(CODEX, "SessionEnd", "x", 60)) == 3


DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "R"}}


@pytest.mark.parametrize(("result", "outcome", "clean"), [
    (run(out=DENY), "blocked", True),
    (run(out={"decision": "block", "reason": "R"}), "blocked", True),
    (run(2, err="R"), "blocked", True),
    (run(2), "allowed", False),                                      # no stderr: fails open
    (run(1, err="boom"), "allowed", False),
    (run(out={**DENY, "debug": 1}), "allowed", False),               # an unknown key
    (run(out={"hookSpecificOutput": {**DENY["hookSpecificOutput"], "permissionDecision": "ask"}}),
     "allowed", False),
    (run(out={"hookSpecificOutput": {**DENY["hookSpecificOutput"], "permissionDecisionReason": ""}}),
     "allowed", False),
    (run(out={"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "R"}}),
     "allowed", False),                                              # no hookEventName
    (run(out="not json"), "allowed", True),
])
def test_pre_tool_use_runs(result: RunResult, outcome: str, clean: bool) -> None:
    verdict = setup_of(CODEX).interpret("PreToolUse", result)
    assert (verdict.outcome, verdict.clean) == (outcome, clean), verdict


def test_the_interpreters_own_exit_2_blocks_and_is_flagged() -> None:
    verdict = setup_of(CODEX).interpret("PreToolUse", run(2, err="python3: can't open file '/x/guard.py': "
                                                       "[Errno 2] No such file or directory"))
    assert verdict.outcome == "blocked" and not verdict.clean
    assert "reads this exit 2 as a block" in verdict.problems[0]


def test_other_events() -> None:
    assert setup_of(CODEX).interpret("Stop", run(out={"decision": "block", "reason": "again"})).outcome == "kept_working"
    assert setup_of(CODEX).interpret("Stop", run(out="plain")).clean is False
    assert setup_of(CODEX).interpret("SessionStart", run(out="ctx")).context == "ctx"
    assert setup_of(CODEX).interpret("SessionStart", run(2, err="x")).outcome == "allowed"
    post = setup_of(CODEX).interpret("PostToolUse", run(out={"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "updatedToolOutput": "x"}}))
    assert not post.clean  # not in 0.169.0
