"""The host rules `hookwrap test` emulates for Factory Droid 0.225.2 (docs/droid-notes.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwrap.checks import host
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import HookCommand, RunResult, Verdict

DROID = "droid"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "my project"
    root.mkdir()
    return root


def run(event: str, command: str, project: Path, *, timeout: float | None = None) -> tuple[RunResult, Verdict]:
    cmd = HookCommand(DROID, event, command, timeout_s=timeout)
    payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": event,
               "tool_name": "Execute"}
    result = host.run_command(cmd, payload, project_dir=project)
    return result, setup_of(DROID).interpret(event, result, None)


def test_env_and_cwd(project: Path) -> None:
    r, _ = run("PreToolUse", 'printf "%s|%s|%s|%s|%s" "$PWD" "$FACTORY_PROJECT_DIR" '
               '"$DROID_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" "$tool_name"', project)
    assert r.stdout == "|".join([str(project)] * 4 + ["Execute"])


def test_json_deny_blocks_and_a_top_level_block_does_not(project: Path) -> None:
    _, deny = run("PreToolUse", "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", "
                  "\"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"no\"}}'", project)
    assert (deny.outcome, deny.reason) == ("blocked", "no")
    _, legacy = run("PreToolUse", "echo '{\"decision\": \"block\", \"reason\": \"no\"}'", project)
    assert legacy.outcome == "allowed"
    assert any("does not block PreToolUse" in n for n in legacy.notes)


def test_exit_2_blocks_with_stderr_and_exit_1_goes_on(project: Path) -> None:
    _, blocked = run("PreToolUse", "echo nope >&2; exit 2", project)
    assert (blocked.outcome, blocked.reason) == ("blocked", "nope")
    _, kept = run("Stop", "echo more >&2; exit 2", project)
    assert (kept.outcome, kept.reason) == ("kept_working", "more")
    _, going = run("PreToolUse", "echo oops >&2; exit 1", project)
    assert going.outcome == "allowed" and not going.clean
    assert any("only exit 2 blocks" in p for p in going.problems)


def test_a_timeout_lets_the_call_run(project: Path) -> None:
    _, verdict = run("PreToolUse", "sleep 5", project, timeout=0.5)
    assert verdict.outcome == "allowed" and not verdict.success


def test_context_is_read_on_session_start_and_post_tool_use_only(project: Path) -> None:
    for event, read in (("SessionStart", True), ("PostToolUse", True), ("PreToolUse", False)):
        answer = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": "CTX"}}
        _, verdict = run(event, f"echo '{json.dumps(answer)}'", project)
        assert (verdict.context == "CTX") is read, (event, verdict)
    _, text = run("SessionStart", "echo plain words", project)
    assert (text.outcome, text.context) == ("context", "plain words")


def test_updated_input_is_applied_and_ask_runs(project: Path) -> None:
    _, verdict = run("PreToolUse", "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", "
                     "\"permissionDecision\": \"allow\", \"updatedInput\": {\"command\": \"ls\"}}}'", project)
    assert verdict.updated_input == {"command": "ls"}
    _, ask = run("PreToolUse", "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", "
                 "\"permissionDecision\": \"ask\"}}'", project)
    assert ask.outcome == "allowed" and any("without asking" in n for n in ask.notes)


@pytest.mark.parametrize("matcher, name, hit", [
    ("^(Execute|Create)$", "Execute", True), ("^(Execute|Create)$", "Create", True),
    ("Exec", "Execute", True), ("execute", "Execute", False), ("Bash|Write", "Execute", False),
    ("*", "Read", True), ("", "Read", True), ("^Execute$", "ExecuteX", False),
])
def test_matchers_are_case_sensitive_regexes_searched_in_the_name(matcher: str, name: str,
                                                                  hit: bool) -> None:
    assert setup_of(DROID).matchers.matcher_matches(setup_of(DROID), "PreToolUse", matcher, name) is hit


def test_the_registered_matcher_is_anchored() -> None:
    agent = setup_of(DROID)
    assert agent.registration.tool_matcher(agent, ["Execute"]) == "^Execute$"
    assert agent.registration.tool_matcher(agent, ["Execute", "Create"]) == "^(Execute|Create)$"
