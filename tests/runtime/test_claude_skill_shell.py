"""Claude Code 2.1.332's PreSkillShellCommand in the runtime: its payload (the one observed
live: tool_name, tool_input.command, a tool_use_id that names no transcript call, command_name,
command_source, invoked_by) is read as before_tool on the shell, and answers are written in its
words: a deny passes, an ask or a rewrite becomes a deny that says why (Claude Code would block
either), no additionalContext; ``hookwrap test`` and the bridge read its answers the same way."""

from __future__ import annotations

import json

import pytest

from hookwrap import HookOutput, NormalizedEvent, Platform, denormalize_output, normalize_input
from hookwrap.clis._claude_protocol import SKILL_SHELL_ASK_NOTE, SKILL_SHELL_REWRITE_NOTE
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import RunResult
from hookwrap.platforms import runtime_of

EVENT = "PreSkillShellCommand"
PAYLOAD = {
    "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/p", "prompt_id": "p1",
    "permission_mode": "default", "hook_event_name": EVENT, "tool_name": "Bash",
    "tool_input": {"command": "touch marker && git push --force origin main"},
    "tool_use_id": "0b5e7c2a-1111-4c0d-9d55-2f0b7a6c9e01:inner:preamble-0",
    "command_name": "probe", "command_source": "projectSettings", "invoked_by": "user",
}


def _answer(output: HookOutput) -> dict:
    return json.loads(denormalize_output(output, Platform.CLAUDE, NormalizedEvent.BEFORE_TOOL,
                                         EVENT))


def test_the_payload_is_a_shell_call_before_it_runs() -> None:
    hook_input = normalize_input(json.dumps(PAYLOAD), Platform.CLAUDE)
    assert (hook_input.event, hook_input.raw_event) == (NormalizedEvent.BEFORE_TOOL, EVENT)
    assert hook_input.tool_name == "shell"
    assert hook_input.tool_input["command"] == PAYLOAD["tool_input"]["command"]
    powershell = normalize_input(json.dumps({**PAYLOAD, "tool_name": "PowerShell"}),
                                 Platform.CLAUDE)
    assert powershell.tool_name == "shell"  # Windows' shell tool is a shell too


def test_a_deny_passes_in_the_events_own_words() -> None:
    answer = _answer(HookOutput(decision="deny", reason="no force push"))
    assert answer["hookSpecificOutput"] == {"hookEventName": EVENT, "permissionDecision": "deny",
                                            "permissionDecisionReason": "no force push"}


@pytest.mark.parametrize(("output", "note"), [
    (HookOutput(decision="ask", reason="sure?"), SKILL_SHELL_ASK_NOTE),
    (HookOutput(decision="allow", reason="safer", updated_input={"command": "git push"}),
     SKILL_SHELL_REWRITE_NOTE + '{"command": "git push"}'),
])
def test_an_ask_or_a_rewrite_can_only_block_and_says_so(output: HookOutput, note: str) -> None:
    specific = _answer(output)["hookSpecificOutput"]
    assert specific == {"hookEventName": EVENT, "permissionDecision": "deny",
                        "permissionDecisionReason": f"{output.reason}\n\n{note}"}
    assert "updatedInput" not in specific


def test_context_is_not_sent_where_it_is_not_read() -> None:
    answer = _answer(HookOutput(context="remember the branch rules"))
    assert "additionalContext" not in answer.get("hookSpecificOutput", {})
    assert "additionalContext" not in answer
    allow = _answer(HookOutput(decision="allow"))
    assert allow["hookSpecificOutput"] == {"hookEventName": EVENT, "permissionDecision": "allow"}


def _verdict(code: int, out: object = "", err: str = "", on_failure: str | None = None):
    text = out if isinstance(out, str) else json.dumps(out)
    return setup_of(Platform.CLAUDE).interpret(EVENT, RunResult(code, text, err, 5), on_failure)


def _specific(**fields: object) -> dict:
    return {"hookSpecificOutput": {"hookEventName": EVENT, **fields}}


def test_hookwrap_test_reads_answers_as_claude_code_2_1_332_does() -> None:
    assert _verdict(0, _specific(permissionDecision="deny", permissionDecisionReason="no")
                    ).outcome == "blocked"
    asked = _verdict(0, _specific(permissionDecision="ask", permissionDecisionReason="sure?"))
    assert (asked.outcome, asked.reason) == (
        "blocked", "sure?; the hook asked for approval, which a skill can't wait for")
    rewrite = _verdict(0, _specific(permissionDecision="allow", updatedInput={"command": "ls"}))
    assert (rewrite.outcome, rewrite.reason) == (
        "blocked", "the hook changed the command, which isn't supported here")
    assert _verdict(0, _specific(permissionDecision="allow")).outcome == "allowed"
    context = _verdict(0, _specific(additionalContext="x"))
    assert (context.outcome, context.context) == ("allowed", "")
    assert "additionalContext is not read on PreSkillShellCommand" in context.notes
    # An answer written for PreToolUse is read here too.
    pre_tool = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
    assert _verdict(0, pre_tool).outcome == "blocked"
    # Exit 2 blocks with stderr; another exit code runs the command, unless onFailure blocks.
    assert (_verdict(2, err="nope").outcome, _verdict(2, err="nope").reason) == ("blocked", "nope")
    assert _verdict(1, err="crash").outcome == "allowed"
    assert _verdict(1, err="crash", on_failure="block").outcome == "blocked"


def test_hookwraps_own_answers_read_back_as_what_they_mean() -> None:
    for output, outcome in ((HookOutput(decision="deny", reason="r"), "blocked"),
                            (HookOutput(decision="ask", reason="r"), "blocked"),
                            (HookOutput(decision="allow"), "allowed")):
        assert _verdict(0, _answer(output)).outcome == outcome, output


def test_the_bridge_reads_an_external_hooks_answer_on_the_event() -> None:
    claude = runtime_of(Platform.CLAUDE)
    fields = claude.read_answer(NormalizedEvent.BEFORE_TOOL, 0, json.dumps(
        _specific(permissionDecision="ask", permissionDecisionReason="sure?")), "")
    assert _answer(HookOutput(**fields))["hookSpecificOutput"]["permissionDecision"] == "deny"
    blocked = claude.read_answer(NormalizedEvent.BEFORE_TOOL, 2, "", "no")
    assert _answer(HookOutput(**blocked))["hookSpecificOutput"]["permissionDecision"] == "deny"
