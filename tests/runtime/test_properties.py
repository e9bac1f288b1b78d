"""Property tests: whatever arrives on stdin and whatever the hook does, one valid JSON object comes out."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support.runtime import run_in_process, single_json_object

from hookwrap import (
    EVENT_TO_NORMALIZED,
    NORMALIZED_TO_EVENT,
    TOOL_TO_NORMALIZED,
    HookInput,
    HookOutput,
    Platform,
    denormalize_output,
    normalize_input,
    normalize_tool,
)
from hookwrap.hookinput import normalize_input
from hookwrap.hookoutput import build_output
from hookwrap.platforms import runtime_of

SETTINGS = settings(max_examples=150, deadline=None)


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("cannot print me")


class _CustomBase(BaseException):
    pass


_EXCEPTION_TYPES = [
    ValueError, TypeError, KeyError, OSError, RuntimeError, ZeroDivisionError, RecursionError,
    UnicodeError, AssertionError, MemoryError, KeyboardInterrupt, SystemExit, GeneratorExit,
    _Unprintable, _CustomBase,
]
_ARGS = st.lists(
    st.one_of(st.text(), st.text(alphabet=st.characters(codec=None, categories=["Cs"])), st.integers(),
              st.none(), st.binary(max_size=20)),
    max_size=3,
)
exceptions = st.builds(lambda kind, args: kind(*args), st.sampled_from(_EXCEPTION_TYPES), _ARGS)

ALL_EVENT_NAMES = sorted({n for names in EVENT_TO_NORMALIZED.values() for n in names} | {"MessageDisplay", "pre-tool-use"})
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=10,
)
payloads = st.fixed_dictionaries(
    {"hook_event_name": st.one_of(st.sampled_from(ALL_EVENT_NAMES), _JSON)},
    optional={
        "tool_name": st.one_of(st.sampled_from(sorted(TOOL_TO_NORMALIZED[Platform.CLAUDE])), st.text(), _JSON),
        "tool_input": _JSON,
        "stop_hook_active": _JSON,
        "session_id": _JSON,
        "prompt": _JSON,
        "input_data": _JSON,
        "hook_type": _JSON,
    },
)
stdin_bytes = st.one_of(
    st.binary(max_size=300),
    payloads.map(lambda d: json.dumps(d).encode("utf-8")),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
)
platforms = st.sampled_from(list(Platform))


@SETTINGS
@given(stdin=stdin_bytes, error=exceptions, platform=platforms)
def test_any_stdin_and_any_exception_give_zero_and_one_json_object(
    stdin: bytes, error: BaseException, platform: Platform
) -> None:
    def hook(_: HookInput) -> HookOutput:
        raise error

    run = run_in_process(hook, platform, stdin)
    assert run.rc == 0
    document = single_json_object(run.stdout)
    exit_without_opinion = isinstance(error, SystemExit) and error.code in (None, 0)
    # A payload that is not the hook's event (Qwen's empty UserPromptSubmit) calls no hook.
    not_called = runtime_of(platform).answers_without_hook(
        normalize_input(stdin.decode("utf-8", errors="replace"), platform))
    if exit_without_opinion or not_called:
        assert document == {}
    else:
        # A crash denies in the event's own words where a top-level block means nothing (Codex's
        # PermissionRequest: hookSpecificOutput.decision.message).
        specific = document.get("hookSpecificOutput", {}).get("decision", {})
        message = document.get("reason") or document.get("systemMessage") \
            or (specific.get("message") if isinstance(specific, dict) else None)
        assert message.startswith("Hook Script Error\n")
        assert f"Error Type: {type(error).__name__}" in message


decisions = st.sampled_from(["", "block", "deny", "allow", "approve", "ask", "BLOCK", " Allow "])
texts = st.one_of(st.just(""), st.text(max_size=30))
outputs = st.builds(
    HookOutput,
    decision=decisions,
    reason=texts,
    context=texts,
    continue_loop=st.booleans(),
    stop_reason=texts,
    suppress_output=st.booleans(),
    updated_input=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), _JSON, max_size=3)),
    system_message=texts,
)


@SETTINGS
@given(stdin=stdin_bytes, output=outputs, platform=platforms)
def test_any_stdin_and_any_output_give_zero_and_one_json_object(
    stdin: bytes, output: HookOutput, platform: Platform
) -> None:
    run = run_in_process(lambda _: output, platform, stdin)
    assert run.rc == 0
    single_json_object(run.stdout)


# Claude validation rules (reference/claude-code-schema.md §2.1-2.2) for every mapped event.

CLAUDE_TOP_LEVEL = {"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"}
CLAUDE_HSO_KEYS: dict[str, set[str] | None] = {
    "PreToolUse": {"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"},
    "PostToolUse": {"additionalContext", "updatedToolOutput", "updatedMCPToolOutput", "classifierContext"},
    "PostToolUseFailure": {"additionalContext"},
    "PostToolBatch": {"additionalContext"},
    "UserPromptSubmit": {"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
    "SessionStart": {"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"},
    "Stop": {"additionalContext"},
    "SubagentStop": {"additionalContext"},
    "SubagentStart": {"additionalContext"},
    "Notification": {"additionalContext"},
    "PermissionRequest": {"decision"},
    "PermissionDenied": {"retry"},
    # Claude Code 2.1.332 (its output schema; no additionalContext).
    "PreSkillShellCommand": {"permissionDecision", "permissionDecisionReason", "updatedInput"},
    "SessionEnd": None,
    "StopFailure": None,
    "PreCompact": None,
    "PostCompact": None,
}


def test_claude_schema_table_covers_every_mapped_event() -> None:
    assert set(CLAUDE_HSO_KEYS) == set(EVENT_TO_NORMALIZED[Platform.CLAUDE])


@SETTINGS
@given(output=outputs, raw_event=st.sampled_from(sorted(EVENT_TO_NORMALIZED[Platform.CLAUDE])))
def test_claude_output_passes_claude_validation(output: HookOutput, raw_event: str) -> None:
    event = EVENT_TO_NORMALIZED[Platform.CLAUDE][raw_event]
    document = json.loads(denormalize_output(output, Platform.CLAUDE, event, raw_event))
    assert set(document) <= CLAUDE_TOP_LEVEL
    assert document.get("decision", "approve") in ("approve", "block")
    if "hookSpecificOutput" in document:
        specific = dict(document["hookSpecificOutput"])
        assert specific.pop("hookEventName") == raw_event
        allowed = CLAUDE_HSO_KEYS[raw_event]
        assert allowed is not None, f"{raw_event} has no hookSpecificOutput variant"
        assert set(specific) <= allowed
    if output.decision.strip().lower() in ("block", "deny"):
        assert document["decision"] == "block"


GEMINI_TOP_LEVEL = CLAUDE_TOP_LEVEL


@SETTINGS
@given(output=outputs, event=st.sampled_from(list(NORMALIZED_TO_EVENT[Platform.GEMINI])))
def test_gemini_output_uses_gemini_fields(output: HookOutput, event: Any) -> None:
    document = json.loads(denormalize_output(output, Platform.GEMINI, event))
    assert set(document) <= GEMINI_TOP_LEVEL
    decision = output.decision.strip().lower()
    if decision:
        assert document["decision"] == ("deny" if decision == "block" else decision)
    else:
        assert "decision" not in document
    if "hookSpecificOutput" in document:
        specific = document["hookSpecificOutput"]
        assert specific["hookEventName"] == NORMALIZED_TO_EVENT[Platform.GEMINI][event]
        assert set(specific) <= {"hookEventName", "additionalContext", "tool_input"}
    if output.context:
        assert document["hookSpecificOutput"]["additionalContext"] == output.context


@SETTINGS
@given(
    output=outputs,
    raw=st.dictionaries(st.sampled_from(["decision", "reason", "continue", "systemMessage", "x", "y"]), _JSON, max_size=4),
    # Codex CLI rejects any key outside its schema (the answer would fail open), so its module
    # drops them: tests/runtime/test_codex_runtime.py has its own properties.
    platform=st.sampled_from([p for p in Platform if p is not Platform.CODEX]),
    event=st.sampled_from(["before_tool", "after_tool", "after_agent", "session_start"]),
)
def test_raw_output_never_overrides_and_always_fills(
    output: HookOutput, raw: dict[str, Any], platform: Platform, event: str
) -> None:
    base = build_output(output, platform, event)
    output.raw_output = raw
    merged = build_output(output, platform, event)
    for key, value in base.items():
        assert merged[key] == value
    for key, value in raw.items():
        if key not in base:
            assert merged[key] == value
    assert set(merged) == set(base) | set(raw)


@SETTINGS
@given(raw=st.text(max_size=300), platform=platforms)
def test_normalize_input_never_raises(raw: str, platform: Platform) -> None:
    hi = normalize_input(raw, platform)
    assert isinstance(hi.raw_input, dict)
    assert hi.platform is platform


@SETTINGS
@given(name=st.text(max_size=30), platform=platforms)
def test_tool_names_are_mapped_or_lowercased(name: str, platform: Platform) -> None:
    expected = TOOL_TO_NORMALIZED[platform].get(name, name.lower())
    assert normalize_tool(name, platform) == expected
