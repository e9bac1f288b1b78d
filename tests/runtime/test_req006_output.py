"""REQ-006.5-7: HookOutput and denormalize_output, on both platforms, plus what the real CLIs need.

Claude rules (reference/claude-code-schema.md §2.1): top-level decision is only "approve" or
"block"; hookSpecificOutput.hookEventName must equal the running event; only some events have a
hookSpecificOutput variant. Gemini rules (reference/gemini-cli.md §2.3-2.5): "deny"/"block" block,
context is hookSpecificOutput.additionalContext, a tool rewrite is hookSpecificOutput.tool_input.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

import pytest

from hookwrap import NORMALIZED_TO_EVENT, HookOutput, NormalizedEvent, Platform, denormalize_output

E = NormalizedEvent
CLAUDE = Platform.CLAUDE
GEMINI = Platform.GEMINI

CLAUDE_EVENTS = list(NORMALIZED_TO_EVENT[CLAUDE])
GEMINI_EVENTS = list(NORMALIZED_TO_EVENT[GEMINI])
ALL_PAIRS = [(CLAUDE, e) for e in CLAUDE_EVENTS] + [(GEMINI, e) for e in GEMINI_EVENTS]


def out(output: HookOutput, platform: Platform, event: E, raw_event: str | None = None) -> dict[str, Any]:
    text = denormalize_output(output, platform, event, raw_event)
    assert isinstance(text, str)
    document = json.loads(text)
    assert isinstance(document, dict)
    return document


# REQ-006.5.1


def test_req_006_5_1_hook_output_fields_and_defaults() -> None:
    assert dataclasses.is_dataclass(HookOutput)
    names = [f.name for f in dataclasses.fields(HookOutput)]
    assert names[:7] == [
        "decision", "reason", "context", "continue_loop", "stop_reason", "suppress_output", "raw_output",
    ]
    o = HookOutput()
    assert (o.decision, o.reason, o.context, o.continue_loop, o.stop_reason, o.suppress_output, o.raw_output) == (
        "", "", "", True, "", False, {},
    )
    assert o.updated_input is None
    assert o.system_message == ""


def test_req_006_5_1_raw_output_default_is_not_shared() -> None:
    a, b = HookOutput(), HookOutput()
    a.raw_output["x"] = 1
    assert b.raw_output == {}


def test_hook_output_constructors() -> None:
    assert HookOutput.block("no", context="c") == HookOutput(decision="block", reason="no", context="c")
    assert HookOutput.allow(reason="fine") == HookOutput(decision="allow", reason="fine")
    assert HookOutput.ask("sure?") == HookOutput(decision="ask", reason="sure?")


# REQ-006.5.2-8


@pytest.mark.parametrize(("platform", "event"), ALL_PAIRS)
def test_req_006_5_2_no_decision_key_when_decision_is_empty(platform: Platform, event: E) -> None:
    document = out(HookOutput(reason="why", suppress_output=True), platform, event)
    assert "decision" not in document
    assert document["reason"] == "why"


@pytest.mark.parametrize("event", GEMINI_EVENTS)
@pytest.mark.parametrize("decision", ["block", "BLOCK", " Block "])
def test_req_006_5_3_block_becomes_deny_on_gemini(event: E, decision: str) -> None:
    assert out(HookOutput(decision=decision), GEMINI, event)["decision"] == "deny"


@pytest.mark.parametrize("event", CLAUDE_EVENTS)
def test_req_006_5_4_block_stays_block_on_claude(event: E) -> None:
    assert out(HookOutput(decision="block"), CLAUDE, event)["decision"] == "block"


def test_req_006_5_4_deny_is_spelled_block_on_claude() -> None:
    # Claude's top-level decision accepts only approve|block.
    assert out(HookOutput(decision="deny"), CLAUDE, E.AFTER_TOOL) == {"decision": "block"}


@pytest.mark.parametrize(("platform", "event"), ALL_PAIRS)
def test_req_006_5_5_reason_is_included(platform: Platform, event: E) -> None:
    assert out(HookOutput(decision="block", reason="because"), platform, event)["reason"] == "because"


# Cline 3.0.65 reads its own keys beside the seed's (which it ignores): a stop is its cancel.
CLINE_OWN = ("cancel", "errorMessage", "overrideInput", "contextModification")


def seed_part(document: dict[str, Any], platform: Platform) -> dict[str, Any]:
    """The seed's fields of an answer: Cline's own keys left out."""
    own = CLINE_OWN if platform is Platform.CLINE else ()
    return {key: value for key, value in document.items() if key not in own}


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_5_6_continue_false(platform: Platform) -> None:
    document = out(HookOutput(continue_loop=False), platform, E.AFTER_TOOL)
    assert seed_part(document, platform) == {"continue": False}


# Codex CLI 0.169.0 voids a PreToolUse answer with `continue` (the call would run) and shows
# suppressOutput nowhere: its module maps them (tests/runtime/test_codex_runtime.py).
SEED_SHAPED = [p for p in Platform if p is not Platform.CODEX]


@pytest.mark.parametrize("platform", SEED_SHAPED)
def test_req_006_5_7_stop_reason_with_continue_false(platform: Platform) -> None:
    document = out(HookOutput(continue_loop=False, stop_reason="enough"), platform, E.BEFORE_TOOL)
    assert seed_part(document, platform) == {"continue": False, "stopReason": "enough"}


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_5_7_no_stop_reason_while_continuing(platform: Platform) -> None:
    assert denormalize_output(HookOutput(stop_reason="ignored"), platform, E.BEFORE_TOOL) == "{}"


@pytest.mark.parametrize("platform", SEED_SHAPED)
def test_req_006_5_8_suppress_output(platform: Platform) -> None:
    assert out(HookOutput(suppress_output=True), platform, E.SESSION_END) == {"suppressOutput": True}


# REQ-006.6: context placement


def test_req_006_6_1_claude_session_start_context_goes_to_additional_context() -> None:
    assert out(HookOutput(context="ctx"), CLAUDE, E.SESSION_START) == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"},
    }


@pytest.mark.parametrize("event", [e for e in CLAUDE_EVENTS if e is not E.SESSION_START])
def test_req_006_6_2_claude_other_events_context_goes_to_system_message(event: E) -> None:
    assert out(HookOutput(context="ctx"), CLAUDE, event)["systemMessage"] == "ctx"


@pytest.mark.parametrize("event", GEMINI_EVENTS)
def test_req_006_6_3_gemini_context_goes_to_additional_context(event: E) -> None:
    assert out(HookOutput(context="ctx"), GEMINI, event) == {
        "hookSpecificOutput": {"hookEventName": NORMALIZED_TO_EVENT[GEMINI][event], "additionalContext": "ctx"},
    }


# The context also reaches the model on Claude (reference/claude-code.md §4): every Claude
# event whose hookSpecificOutput variant has additionalContext gets it, under its own name.
CLAUDE_CONTEXT_EVENTS = [
    ("PreToolUse", E.BEFORE_TOOL),
    ("PostToolUse", E.AFTER_TOOL),
    ("PostToolUseFailure", E.AFTER_TOOL_FAILURE),
    ("PostToolBatch", E.AFTER_TOOL_BATCH),
    ("UserPromptSubmit", E.BEFORE_PROMPT),
    ("Stop", E.AFTER_AGENT),
    ("SubagentStop", E.AFTER_AGENT),
    ("SubagentStart", E.SUBAGENT_START),
    ("Notification", E.NOTIFICATION),
]
# Events with no hookSpecificOutput variant, or one without additionalContext.
CLAUDE_NO_CONTEXT_EVENTS = [
    ("SessionEnd", E.SESSION_END),
    ("PreCompact", E.PRE_COMPACT),
    ("PostCompact", E.POST_COMPACT),
    ("StopFailure", E.STOP_FAILURE),
    ("PermissionRequest", E.PERMISSION_REQUEST),
    ("PermissionDenied", E.PERMISSION_DENIED),
]


@pytest.mark.parametrize(("raw_event", "event"), CLAUDE_CONTEXT_EVENTS)
def test_claude_context_also_goes_to_additional_context(raw_event: str, event: E) -> None:
    assert out(HookOutput(context="ctx"), CLAUDE, event, raw_event) == {
        "systemMessage": "ctx",
        "hookSpecificOutput": {"hookEventName": raw_event, "additionalContext": "ctx"},
    }


@pytest.mark.parametrize(("raw_event", "event"), CLAUDE_NO_CONTEXT_EVENTS)
def test_claude_context_has_no_hook_specific_output_where_the_event_has_none(raw_event: str, event: E) -> None:
    assert out(HookOutput(context="ctx"), CLAUDE, event, raw_event) == {"systemMessage": "ctx"}


def test_claude_subagent_stop_keeps_its_own_event_name() -> None:
    document = out(HookOutput.block("go on", context="c"), CLAUDE, E.AFTER_AGENT, "SubagentStop")
    assert document["hookSpecificOutput"]["hookEventName"] == "SubagentStop"


def test_claude_without_raw_event_uses_the_reverse_map() -> None:
    document = out(HookOutput(context="c"), CLAUDE, E.AFTER_AGENT)
    assert document["hookSpecificOutput"]["hookEventName"] == "Stop"


def test_claude_raw_event_of_another_event_is_not_trusted() -> None:
    # A raw name that does not belong to the event answered cannot be the running event.
    document = out(HookOutput(context="c"), CLAUDE, E.BEFORE_TOOL, "Stop")
    assert document["hookSpecificOutput"]["hookEventName"] == "PreToolUse"


@pytest.mark.parametrize("raw_event", ["MessageDisplay", "UserPromptExpansion", "PreModelSwitch", "Setup", "CwdChanged"])
def test_claude_unmapped_event_never_gets_a_foreign_hook_event_name(raw_event: str) -> None:
    document = out(HookOutput(context="ctx"), CLAUDE, E.AFTER_AGENT, raw_event)
    specific = document.get("hookSpecificOutput")
    assert specific is None or specific["hookEventName"] == raw_event
    assert document["systemMessage"] == "ctx"


# REQ-006.7: serialization


@pytest.mark.parametrize(("platform", "event"), ALL_PAIRS)
def test_req_006_7_1_result_is_a_json_object_string(platform: Platform, event: E) -> None:
    text = denormalize_output(HookOutput.block("r"), platform, event)
    assert isinstance(text, str)
    assert isinstance(json.loads(text), dict)


@pytest.mark.parametrize(("platform", "event"), ALL_PAIRS)
def test_req_006_7_2_empty_output_is_empty_object(platform: Platform, event: E) -> None:
    assert denormalize_output(HookOutput(), platform, event) == "{}"


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_7_2_update_outside_before_tool_is_dropped(platform: Platform) -> None:
    assert denormalize_output(HookOutput(updated_input={"a": 1}), platform, E.AFTER_TOOL) == "{}"


@pytest.mark.parametrize(("platform", "decision"), [(CLAUDE, "block"), (GEMINI, "deny")])
def test_req_006_7_3_raw_output_merged_without_overwriting(platform: Platform, decision: str) -> None:
    output = HookOutput.block("mine", raw_output={"decision": "allow", "reason": "raw", "extra": [1, 2]})
    assert out(output, platform, E.AFTER_TOOL) == {"decision": decision, "reason": "mine", "extra": [1, 2]}


def test_req_006_7_3_raw_output_alone_is_passed_through() -> None:
    raw = {"terminalSequence": "\u0007", "systemMessage": "hi"}
    assert out(HookOutput(raw_output=raw), CLAUDE, E.AFTER_AGENT) == raw


def test_req_006_7_3_raw_continue_does_not_override_continue_false() -> None:
    output = HookOutput(continue_loop=False, raw_output={"continue": True, "stopReason": "raw"})
    assert out(output, GEMINI, E.AFTER_AGENT) == {"continue": False, "stopReason": "raw"}


def test_req_006_7_3_raw_hook_specific_output_fills_gaps_only() -> None:
    raw = {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "raw", "updatedToolOutput": "new"}}
    before = copy.deepcopy(raw)
    document = out(HookOutput(context="mine", raw_output=raw), CLAUDE, E.AFTER_TOOL)
    assert document["hookSpecificOutput"] == {
        "hookEventName": "PostToolUse", "additionalContext": "mine", "updatedToolOutput": "new",
    }
    assert raw == before


def test_req_006_7_3_raw_hook_specific_output_alone_is_kept() -> None:
    raw = {"hookSpecificOutput": {"hookEventName": "BeforeToolSelection", "toolConfig": {"mode": "NONE"}}}
    assert out(HookOutput(raw_output=raw), GEMINI, E.BEFORE_TOOL_SELECTION) == raw


# Blocking, rewriting and allowing a tool call (reference: claude-code.md §2, gemini-cli.md §2.5)


def test_block_before_tool_on_claude_also_denies_permission() -> None:
    assert out(HookOutput.block("rm -rf"), CLAUDE, E.BEFORE_TOOL) == {
        "decision": "block",
        "reason": "rm -rf",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "rm -rf",
        },
    }


def test_block_before_tool_on_gemini_is_deny() -> None:
    assert out(HookOutput.block("rm -rf"), GEMINI, E.BEFORE_TOOL) == {"decision": "deny", "reason": "rm -rf"}


def test_updated_input_on_claude_is_allow_with_updated_input() -> None:
    new = {"command": "echo safe", "description": "d"}
    assert out(HookOutput(updated_input=new), CLAUDE, E.BEFORE_TOOL) == {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": new},
    }


def test_updated_input_on_gemini_is_tool_input() -> None:
    new = {"file_path": "a.txt", "content": "REWRITTEN"}
    assert out(HookOutput(updated_input=new), GEMINI, E.BEFORE_TOOL) == {
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new},
    }


def test_updated_input_with_ask_keeps_ask_on_claude() -> None:
    document = out(HookOutput.ask("check", updated_input={"command": "ls"}), CLAUDE, E.BEFORE_TOOL)
    assert document["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "ask",
        "permissionDecisionReason": "check",
        "updatedInput": {"command": "ls"},
    }


def test_updated_input_is_dropped_by_a_block_on_claude() -> None:
    document = out(HookOutput.block("no", updated_input={"command": "ls"}), CLAUDE, E.BEFORE_TOOL)
    assert "updatedInput" not in document["hookSpecificOutput"]
    assert document["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_allow_on_claude_is_approve_and_permission_allow() -> None:
    assert out(HookOutput.allow(reason="trusted"), CLAUDE, E.BEFORE_TOOL) == {
        "decision": "approve",
        "reason": "trusted",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "trusted",
        },
    }


def test_allow_on_gemini() -> None:
    assert out(HookOutput.allow(), GEMINI, E.BEFORE_TOOL) == {"decision": "allow"}


def test_ask_on_claude_lives_in_hook_specific_output_only() -> None:
    assert out(HookOutput.ask("sure?"), CLAUDE, E.BEFORE_TOOL) == {
        "reason": "sure?",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "sure?",
        },
    }


def test_ask_on_gemini() -> None:
    assert out(HookOutput.ask("sure?"), GEMINI, E.BEFORE_TOOL) == {"decision": "ask", "reason": "sure?"}


@pytest.mark.parametrize("event", CLAUDE_EVENTS)
@pytest.mark.parametrize("decision", ["", "ask", "allow", "approve", "deny", "block", " ASK ", "Approve"])
def test_claude_top_level_decision_is_only_approve_or_block(event: E, decision: str) -> None:
    document = out(HookOutput(decision=decision), CLAUDE, event)
    assert document.get("decision", "approve") in ("approve", "block")


# HookOutput.decision accepts only the documented values, on every event of both CLIs.

UNKNOWN_DECISIONS = ["reject", "maybe", "yes", "allowed", "denied", "block it", "a sk", None, 1, True]


@pytest.mark.parametrize(("platform", "event"), ALL_PAIRS)
@pytest.mark.parametrize("decision", UNKNOWN_DECISIONS)
def test_unknown_decision_raises_instead_of_passing_through(platform: Platform, event: E, decision: Any) -> None:
    with pytest.raises(ValueError, match="HookOutput.decision is .*; expected one of '', 'block', 'deny', "
                                         "'allow', 'approve', 'ask'"):
        denormalize_output(HookOutput(decision=decision), platform, event)


def test_unknown_decision_message_names_the_value() -> None:
    with pytest.raises(ValueError) as raised:
        denormalize_output(HookOutput(decision="reject"), GEMINI, E.BEFORE_TOOL)
    assert str(raised.value).startswith("HookOutput.decision is 'reject';")


@pytest.mark.parametrize(("platform", "event"), ALL_PAIRS)
@pytest.mark.parametrize("decision", ["", "block", "deny", "allow", "approve", "ask"])
def test_known_decisions_are_read_case_insensitively_and_stripped(
    platform: Platform, event: E, decision: str
) -> None:
    output = HookOutput(decision=decision, reason="r", updated_input={"command": "ls"})
    variant = dataclasses.replace(output, decision=f"  {decision.upper()}\t")
    assert out(variant, platform, event) == out(output, platform, event)


# Claude's PermissionRequest: only an explicit allow grants the permission (§2.2).

def test_permission_request_ask_leaves_the_dialog_to_the_user() -> None:
    assert out(HookOutput.ask("confirm?"), CLAUDE, E.PERMISSION_REQUEST) == {"reason": "confirm?"}
    document = out(HookOutput.ask("confirm?", updated_input={"command": "ls"}), CLAUDE, E.PERMISSION_REQUEST)
    assert document == {"reason": "confirm?"}


@pytest.mark.parametrize("decision", ["allow", "approve", " Approve "])
def test_permission_request_allow_and_approve_grant(decision: str) -> None:
    document = out(HookOutput(decision=decision), CLAUDE, E.PERMISSION_REQUEST)
    assert document == {
        "decision": "approve",
        "hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}},
    }


def test_permission_request_without_a_decision_decides_nothing() -> None:
    assert out(HookOutput(), CLAUDE, E.PERMISSION_REQUEST) == {}
    assert out(HookOutput(reason="r", context="c"), CLAUDE, E.PERMISSION_REQUEST) == {
        "reason": "r", "systemMessage": "c",
    }


def test_permission_request_updated_input_alone_allows_the_rewrite() -> None:
    # As on PreToolUse: a rewrite with no decision runs; on PermissionRequest only an allow carries it.
    document = out(HookOutput(updated_input={"command": "ls"}), CLAUDE, E.PERMISSION_REQUEST)
    assert document["hookSpecificOutput"]["decision"] == {"behavior": "allow", "updatedInput": {"command": "ls"}}


@pytest.mark.parametrize("decision", ["reject", "maybe", "no"])
def test_permission_request_typo_does_not_grant(decision: str) -> None:
    with pytest.raises(ValueError):
        denormalize_output(HookOutput(decision=decision), CLAUDE, E.PERMISSION_REQUEST, "PermissionRequest")


def test_block_and_context_before_tool_on_claude() -> None:
    document = out(HookOutput.block("no", context="see docs"), CLAUDE, E.BEFORE_TOOL)
    assert document["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse",
        "additionalContext": "see docs",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no",
    }
    assert document["systemMessage"] == "see docs"


def test_system_message_on_claude_and_gemini() -> None:
    assert out(HookOutput(system_message="note"), CLAUDE, E.AFTER_TOOL) == {"systemMessage": "note"}
    assert out(HookOutput(system_message="note"), GEMINI, E.AFTER_TOOL) == {"systemMessage": "note"}


def test_system_message_next_to_context() -> None:
    claude = out(HookOutput(context="ctx", system_message="note"), CLAUDE, E.AFTER_TOOL)
    assert claude["systemMessage"] == "ctx\n\nnote"
    assert claude["hookSpecificOutput"]["additionalContext"] == "ctx"
    gemini = out(HookOutput(context="ctx", system_message="note"), GEMINI, E.AFTER_TOOL)
    assert gemini["systemMessage"] == "note"
    assert gemini["hookSpecificOutput"]["additionalContext"] == "ctx"
    session = out(HookOutput(context="ctx", system_message="note"), CLAUDE, E.SESSION_START)
    assert session["systemMessage"] == "note"


def test_block_after_agent_on_claude_is_stop_block() -> None:
    assert out(HookOutput.block("add a summary"), CLAUDE, E.AFTER_AGENT) == {
        "decision": "block", "reason": "add a summary",
    }


def test_block_after_agent_on_gemini_is_deny() -> None:
    assert out(HookOutput.block("add a summary"), GEMINI, E.AFTER_AGENT) == {
        "decision": "deny", "reason": "add a summary",
    }


def test_permission_request_allow_and_deny_on_claude() -> None:
    allow = out(HookOutput.allow(updated_input={"command": "ls"}), CLAUDE, E.PERMISSION_REQUEST)
    assert allow["hookSpecificOutput"] == {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"command": "ls"}},
    }
    deny = out(HookOutput.block("not here"), CLAUDE, E.PERMISSION_REQUEST)
    assert deny["hookSpecificOutput"] == {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "not here"},
    }
    assert deny["decision"] == "block"


def test_raw_output_that_is_not_a_dict_is_ignored() -> None:
    output = HookOutput(reason="r", raw_output=["not", "a", "dict"])  # type: ignore[arg-type]
    assert out(output, GEMINI, E.AFTER_TOOL) == {"reason": "r"}


def test_denormalize_accepts_plain_strings_for_platform_and_event() -> None:
    assert out(HookOutput.block("x"), "gemini", "before_tool") == {"decision": "deny", "reason": "x"}  # type: ignore[arg-type]
