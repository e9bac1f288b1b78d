"""Platforms, normalized events, and the event-name maps between them (REQ-006.1-2)."""

from __future__ import annotations

from enum import StrEnum


class Platform(StrEnum):
    """The agent CLIs a hook can run under."""

    CLAUDE = "claude"
    GEMINI = "gemini"


class NormalizedEvent(StrEnum):
    """Platform-neutral event names; the value is the lower-case member name.

    The first eight are REQ-006's; the rest cover events that only one CLI (or both, under
    different names) fires, so a hook for them is written once too.
    """

    AFTER_AGENT = "after_agent"
    BEFORE_TOOL = "before_tool"
    BEFORE_PROMPT = "before_prompt"
    SESSION_START = "session_start"
    SESSION_END = "session_end"
    AFTER_TOOL = "after_tool"
    BEFORE_MODEL = "before_model"
    AFTER_MODEL = "after_model"
    AFTER_TOOL_FAILURE = "after_tool_failure"
    AFTER_TOOL_BATCH = "after_tool_batch"
    PERMISSION_REQUEST = "permission_request"
    PERMISSION_DENIED = "permission_denied"
    NOTIFICATION = "notification"
    PRE_COMPACT = "pre_compact"
    POST_COMPACT = "post_compact"
    SUBAGENT_START = "subagent_start"
    STOP_FAILURE = "stop_failure"
    BEFORE_TOOL_SELECTION = "before_tool_selection"


_E = NormalizedEvent

EVENT_TO_NORMALIZED: dict[Platform, dict[str, NormalizedEvent]] = {
    Platform.CLAUDE: {
        "Stop": _E.AFTER_AGENT,
        "SubagentStop": _E.AFTER_AGENT,
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "PostToolUseFailure": _E.AFTER_TOOL_FAILURE,
        "PostToolBatch": _E.AFTER_TOOL_BATCH,
        "PermissionRequest": _E.PERMISSION_REQUEST,
        "PermissionDenied": _E.PERMISSION_DENIED,
        "Notification": _E.NOTIFICATION,
        "PreCompact": _E.PRE_COMPACT,
        "PostCompact": _E.POST_COMPACT,
        "SubagentStart": _E.SUBAGENT_START,
        "StopFailure": _E.STOP_FAILURE,
    },
    Platform.GEMINI: {
        "AfterAgent": _E.AFTER_AGENT,
        "BeforeTool": _E.BEFORE_TOOL,
        "AfterTool": _E.AFTER_TOOL,
        "BeforeAgent": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "BeforeModel": _E.BEFORE_MODEL,
        "AfterModel": _E.AFTER_MODEL,
        "BeforeToolSelection": _E.BEFORE_TOOL_SELECTION,
        "Notification": _E.NOTIFICATION,
        "PreCompress": _E.PRE_COMPACT,
    },
}

# Where several platform events share one normalized event (Stop and SubagentStop), the
# reverse map names the main one: registrations go to it.
_PREFERRED = {(Platform.CLAUDE, _E.AFTER_AGENT): "Stop"}


def _reverse(platform: Platform) -> dict[NormalizedEvent, str]:
    reverse: dict[NormalizedEvent, str] = {}
    for name, event in EVENT_TO_NORMALIZED[platform].items():
        reverse.setdefault(event, _PREFERRED.get((platform, event), name))
    return reverse


NORMALIZED_TO_EVENT: dict[Platform, dict[NormalizedEvent, str]] = {
    platform: _reverse(platform) for platform in Platform
}

# Payloads sometimes carry kebab-case names (`pre-tool-use`, the multi-CLI daemon seed); they
# are folded to the platform's own spelling before the lookup.
_FOLDED: dict[Platform, dict[str, str]] = {
    platform: {name.lower(): name for name in names}
    for platform, names in EVENT_TO_NORMALIZED.items()
}


def canonical_event_name(raw: str, platform: Platform) -> str:
    """Return the platform's spelling of ``raw`` (``pre-tool-use`` -> ``PreToolUse``), or ``raw``."""
    if raw in EVENT_TO_NORMALIZED[platform]:
        return raw
    folded = raw.replace("-", "").replace("_", "").lower()
    return _FOLDED[platform].get(folded, raw)


def normalize_event(raw: str, platform: Platform) -> NormalizedEvent:
    """Map a platform event name to a NormalizedEvent; unknown names give AFTER_AGENT (REQ-006.4.4)."""
    return EVENT_TO_NORMALIZED[platform].get(
        canonical_event_name(raw, platform), NormalizedEvent.AFTER_AGENT
    )


def detect_platform(raw_event: str) -> Platform | None:
    """Guess the platform from an event name alone; None when both CLIs use that name."""
    claude = canonical_event_name(raw_event, Platform.CLAUDE) in EVENT_TO_NORMALIZED[Platform.CLAUDE]
    gemini = canonical_event_name(raw_event, Platform.GEMINI) in EVENT_TO_NORMALIZED[Platform.GEMINI]
    if claude == gemini:
        return None
    return Platform.CLAUDE if claude else Platform.GEMINI
