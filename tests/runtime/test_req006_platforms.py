"""REQ-006.1-2: the Platform and NormalizedEvent enums and the event maps in both directions."""

from __future__ import annotations

from enum import StrEnum

import pytest

from hookwrap import EVENT_TO_NORMALIZED, NORMALIZED_TO_EVENT, NormalizedEvent, Platform
from hookwrap.platforms import canonical_event_name, detect_platform, normalize_event

E = NormalizedEvent
CLAUDE = Platform.CLAUDE
GEMINI = Platform.GEMINI


# REQ-006.1: platforms


def test_req_006_1_1_platform_members_and_values() -> None:
    assert {p.name: p.value for p in Platform} == {"CLAUDE": "claude", "GEMINI": "gemini",
                                                       "CODEX": "codex", "QWEN": "qwen",
                                                       "COPILOT": "copilot", "OPENCODE": "opencode"}


def test_req_006_1_2_platform_is_a_str_enum() -> None:
    assert issubclass(Platform, StrEnum)
    assert Platform.CLAUDE == "claude"
    assert f"{Platform.GEMINI}" == "gemini"
    assert Platform("gemini") is Platform.GEMINI


# REQ-006.2.1-2: the NormalizedEvent enum

SEED_EVENTS = {
    "AFTER_AGENT", "BEFORE_TOOL", "BEFORE_PROMPT", "SESSION_START",
    "SESSION_END", "AFTER_TOOL", "BEFORE_MODEL", "AFTER_MODEL",
}


def test_req_006_2_1_normalized_event_has_the_seed_members() -> None:
    assert SEED_EVENTS <= {e.name for e in NormalizedEvent}


def test_req_006_2_1_values_are_the_lower_case_member_names() -> None:
    for event in NormalizedEvent:
        assert event.value == event.name.lower()


def test_req_006_2_2_normalized_event_is_a_str_enum() -> None:
    assert issubclass(NormalizedEvent, StrEnum)
    assert NormalizedEvent.BEFORE_TOOL == "before_tool"
    assert NormalizedEvent("after_agent") is NormalizedEvent.AFTER_AGENT


# REQ-006.2.3-17: one clause per mapping


@pytest.mark.parametrize(
    ("clause", "raw", "expected"),
    [
        ("3", "Stop", E.AFTER_AGENT),
        ("4", "SubagentStop", E.AFTER_AGENT),
        ("5", "PreToolUse", E.BEFORE_TOOL),
        ("6", "PostToolUse", E.AFTER_TOOL),
        ("7", "UserPromptSubmit", E.BEFORE_PROMPT),
        ("8", "SessionStart", E.SESSION_START),
        ("9", "SessionEnd", E.SESSION_END),
    ],
)
def test_req_006_2_3_to_9_claude_event_mapping(clause: str, raw: str, expected: E) -> None:
    assert EVENT_TO_NORMALIZED[CLAUDE][raw] is expected
    assert normalize_event(raw, CLAUDE) is expected


@pytest.mark.parametrize(
    ("clause", "raw", "expected"),
    [
        ("10", "AfterAgent", E.AFTER_AGENT),
        ("11", "BeforeTool", E.BEFORE_TOOL),
        ("12", "AfterTool", E.AFTER_TOOL),
        ("13", "BeforeAgent", E.BEFORE_PROMPT),
        ("14", "SessionStart", E.SESSION_START),
        ("15", "SessionEnd", E.SESSION_END),
        ("16", "BeforeModel", E.BEFORE_MODEL),
        ("17", "AfterModel", E.AFTER_MODEL),
    ],
)
def test_req_006_2_10_to_17_gemini_event_mapping(clause: str, raw: str, expected: E) -> None:
    assert EVENT_TO_NORMALIZED[GEMINI][raw] is expected
    assert normalize_event(raw, GEMINI) is expected


def test_req_006_2_gemini_map_covers_exactly_the_eleven_gemini_events() -> None:
    # reference/gemini-cli.md §2.1: these are the only valid Gemini event names.
    assert set(EVENT_TO_NORMALIZED[GEMINI]) == {
        "BeforeTool", "AfterTool", "BeforeAgent", "Notification", "AfterAgent", "SessionStart",
        "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection",
    }


def test_req_006_2_claude_events_of_real_runs_are_mapped() -> None:
    # reference/claude-code.md §1: events that fired in real -p runs, besides the seed's.
    claude = EVENT_TO_NORMALIZED[CLAUDE]
    assert claude["PostToolUseFailure"] is E.AFTER_TOOL_FAILURE
    assert claude["PostToolBatch"] is E.AFTER_TOOL_BATCH
    assert claude["PermissionRequest"] is E.PERMISSION_REQUEST
    assert claude["Notification"] is E.NOTIFICATION
    assert claude["PreCompact"] is E.PRE_COMPACT


def test_req_006_2_same_concept_shares_one_event_across_platforms() -> None:
    assert EVENT_TO_NORMALIZED[CLAUDE]["PreCompact"] is EVENT_TO_NORMALIZED[GEMINI]["PreCompress"]
    assert EVENT_TO_NORMALIZED[CLAUDE]["Notification"] is EVENT_TO_NORMALIZED[GEMINI]["Notification"]


def test_req_006_2_claude_has_no_gemini_only_event_names() -> None:
    for name in ("BeforeTool", "AfterAgent", "BeforeModel", "PreCompress"):
        assert name not in EVENT_TO_NORMALIZED[CLAUDE]
    for name in ("PreToolUse", "Stop", "SubagentStop", "UserPromptSubmit", "PreCompact"):
        assert name not in EVENT_TO_NORMALIZED[GEMINI]


# REQ-006.2.18: reverse maps


def test_req_006_2_18_reverse_map_claude_seed_events() -> None:
    assert {e: NORMALIZED_TO_EVENT[CLAUDE][e] for e in (
        E.AFTER_AGENT, E.BEFORE_TOOL, E.AFTER_TOOL, E.BEFORE_PROMPT, E.SESSION_START, E.SESSION_END,
    )} == {
        E.AFTER_AGENT: "Stop",
        E.BEFORE_TOOL: "PreToolUse",
        E.AFTER_TOOL: "PostToolUse",
        E.BEFORE_PROMPT: "UserPromptSubmit",
        E.SESSION_START: "SessionStart",
        E.SESSION_END: "SessionEnd",
    }


def test_req_006_2_18_claude_after_agent_reverses_to_stop_not_subagent_stop() -> None:
    assert NORMALIZED_TO_EVENT[CLAUDE][E.AFTER_AGENT] == "Stop"


def test_req_006_2_18_reverse_map_gemini_seed_events() -> None:
    assert {e: NORMALIZED_TO_EVENT[GEMINI][e] for e in (
        E.AFTER_AGENT, E.BEFORE_TOOL, E.AFTER_TOOL, E.BEFORE_PROMPT, E.SESSION_START,
        E.SESSION_END, E.BEFORE_MODEL, E.AFTER_MODEL,
    )} == {
        E.AFTER_AGENT: "AfterAgent",
        E.BEFORE_TOOL: "BeforeTool",
        E.AFTER_TOOL: "AfterTool",
        E.BEFORE_PROMPT: "BeforeAgent",
        E.SESSION_START: "SessionStart",
        E.SESSION_END: "SessionEnd",
        E.BEFORE_MODEL: "BeforeModel",
        E.AFTER_MODEL: "AfterModel",
    }


def test_req_006_2_18_claude_has_no_model_events() -> None:
    assert E.BEFORE_MODEL not in NORMALIZED_TO_EVENT[CLAUDE]
    assert E.AFTER_MODEL not in NORMALIZED_TO_EVENT[CLAUDE]


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_2_18_reverse_then_forward_is_identity(platform: Platform) -> None:
    for event, name in NORMALIZED_TO_EVENT[platform].items():
        assert EVENT_TO_NORMALIZED[platform][name] is event
    assert set(NORMALIZED_TO_EVENT[platform]) == set(EVENT_TO_NORMALIZED[platform].values())


# REQ-006.4.4 at the map level, and kebab-case spellings


@pytest.mark.parametrize("platform", list(Platform))
@pytest.mark.parametrize("raw", ["", "NoSuchEvent", "MessageDisplay", "stop!"])
def test_req_006_4_4_unknown_event_normalizes_to_after_agent(platform: Platform, raw: str) -> None:
    assert normalize_event(raw, platform) is E.AFTER_AGENT


@pytest.mark.parametrize(
    ("platform", "raw", "canonical", "event"),
    [
        (CLAUDE, "pre-tool-use", "PreToolUse", E.BEFORE_TOOL),
        (CLAUDE, "post-tool-use", "PostToolUse", E.AFTER_TOOL),
        (CLAUDE, "user-prompt-submit", "UserPromptSubmit", E.BEFORE_PROMPT),
        (CLAUDE, "subagent-stop", "SubagentStop", E.AFTER_AGENT),
        (CLAUDE, "session_start", "SessionStart", E.SESSION_START),
        (GEMINI, "before-tool", "BeforeTool", E.BEFORE_TOOL),
        (GEMINI, "after-model", "AfterModel", E.AFTER_MODEL),
        (GEMINI, "before-agent", "BeforeAgent", E.BEFORE_PROMPT),
    ],
)
def test_kebab_case_event_names_normalize(
    platform: Platform, raw: str, canonical: str, event: E
) -> None:
    assert canonical_event_name(raw, platform) == canonical
    assert normalize_event(raw, platform) is event


def test_kebab_case_of_the_other_platform_is_not_borrowed() -> None:
    # Gemini has no PreToolUse; its kebab-case form must not map through Claude's table.
    assert normalize_event("pre-tool-use", GEMINI) is E.AFTER_AGENT
    assert canonical_event_name("pre-tool-use", GEMINI) == "pre-tool-use"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("PostToolUseFailure", None),  # Claude Code's names are Qwen Code's and Copilot's too
        ("PreCompact", None),
        ("PreToolUse", None),  # and Codex CLI's
        ("Stop", None),
        ("BeforeTool", GEMINI),
        ("AfterAgent", GEMINI),
        ("SessionStart", None),
        ("Notification", None),
        ("Unknown", None),
    ],
)
def test_detect_platform_from_event_name(raw: str, expected: Platform | None) -> None:
    assert detect_platform(raw) == expected
