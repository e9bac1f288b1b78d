"""REQ-006.1-2: the Platform and NormalizedEvent enums and the event maps in both directions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from enum import StrEnum

import pytest
from support import SRC

from hookwrap import EVENT_TO_NORMALIZED, NORMALIZED_TO_EVENT, NormalizedEvent, Platform
from hookwrap.platforms import detect_platform, runtime_of

E = NormalizedEvent
CLAUDE = Platform.CLAUDE
GEMINI = Platform.GEMINI


# REQ-006.1: platforms


def test_req_006_1_1_platform_members_and_values() -> None:
    assert {p.name: p.value for p in Platform} == {"CLAUDE": "claude", "GEMINI": "gemini",
                                                       "CODEX": "codex", "QWEN": "qwen",
                                                       "COPILOT": "copilot", "OPENCODE": "opencode",
                                                       "DROID": "droid", "PI": "pi",
                                                       "KILO": "kilo", "CLINE": "cline"}


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
    assert runtime_of(CLAUDE).normalize_event(raw) is expected


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
    assert runtime_of(GEMINI).normalize_event(raw) is expected


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
    assert runtime_of(platform).normalize_event(raw) is E.AFTER_AGENT


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
    assert runtime_of(platform).canonical_event_name(raw) == canonical
    assert runtime_of(platform).normalize_event(raw) is event


def test_kebab_case_of_the_other_platform_is_not_borrowed() -> None:
    # Gemini has no PreToolUse; its kebab-case form must not map through Claude's table.
    assert runtime_of(GEMINI).normalize_event("pre-tool-use") is E.AFTER_AGENT
    assert runtime_of(GEMINI).canonical_event_name("pre-tool-use") == "pre-tool-use"


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


# Platform and NormalizedEvent are built by enum's quick constructor on 3.11+ (platforms.py):
# on every interpreter found here, they must be what a plain `class X(StrEnum)` statement makes.
PARITY = r'''
import enum, json, pickle, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2:] == ["raises"]:  # a Python whose private constructor fails: the public API serves
    def _broken(*args, **kwargs):
        raise TypeError("changed signature")
    enum._simple_enum = _broken
elif sys.argv[2:] == ["drops"]:  # ... or builds something else
    enum._simple_enum = lambda etype: (lambda cls: etype(cls.__name__, {"ONLY": "only"}))
from hookwrap.platforms import NormalizedEvent, Platform
base = enum.StrEnum if sys.version_info >= (3, 11) else None
def reference(real):
    body = {m.name: m.value for m in real}
    if base is None:
        class _Ref(str, enum.Enum):
            __str__ = str.__str__
            __format__ = str.__format__
        return _Ref(real.__name__, body)
    return base(real.__name__, body)
def facts(cls):
    members = list(cls)
    m = members[1]
    try:
        cls("no such value")
        bad = None
    except ValueError as error:
        bad = str(error).replace(cls.__name__, "X")
    return {
        "meta": type(cls).__name__, "is_str": issubclass(cls, str), "is_enum": issubclass(cls, enum.Enum),
        "members": [(x.name, x.value) for x in members], "keys": list(cls.__members__),
        "str": str(m), "format": f"{m}", "repr": repr(m).replace(cls.__name__, "X"),
        "eq": m == m.value, "hash": hash(m) == hash(m.value), "lookup": cls(m.value) is m,
        "by_name": cls[m.name] is m, "bad": bad, "len": len(cls), "in": m in cls,
        "type": type(m) is cls, "value_map": sorted(cls._value2member_map_),
        "json": json.dumps({m: m}), "upper": m.upper(),
    }
assert [m.value for m in Platform] == ["claude", "gemini", "codex", "qwen", "copilot", "opencode", "droid",
                                      "pi", "kilo", "cline"]
assert NormalizedEvent.BEFORE_TOOL == "before_tool" and len(NormalizedEvent) == 18
out = {}
for real in (Platform, NormalizedEvent):
    assert pickle.loads(pickle.dumps(list(real))) == list(real)
    assert real.__module__ == "hookwrap.names" and real.__doc__
    out[real.__name__] = [facts(real), facts(reference(real))]
print(json.dumps(out))
'''


def _parity_pythons() -> dict[str, str]:
    from test_old_pythons import _interpreters

    return {"this": sys.executable, **_interpreters(("3.9", "3.10", "3.12", "3.13"))}


@pytest.mark.parametrize("version, damage", [*((v, "") for v in sorted(_parity_pythons())),
                                             ("this", "raises"), ("this", "drops")])
def test_the_enums_equal_a_class_statement_s_on_every_python(version: str, damage: str) -> None:
    python = _parity_pythons()[version]
    ran = subprocess.run([python, "-c", PARITY, str(SRC), *([damage] if damage else [])],
                         capture_output=True, text=True, timeout=60,
                         env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")})
    assert ran.returncode == 0, ran.stderr
    for name, (real, reference) in json.loads(ran.stdout).items():
        assert real == reference, name
        assert real["meta"] in ("EnumType", "EnumMeta") and real["is_str"] and real["lookup"]
