"""From a manifest entry to the exact entry each CLI's settings file must hold."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import UsageError
from .platforms import NORMALIZED_TO_EVENT, NormalizedEvent, Platform
from .tools import NORMALIZED_TO_TOOL, TOOL_TO_NORMALIZED, platform_tool_names

_E = NormalizedEvent

SETTINGS_FILES = {Platform.CLAUDE: ".claude/settings.json", Platform.GEMINI: ".gemini/settings.json"}
PLATFORM_LABELS = {Platform.CLAUDE: "Claude Code", Platform.GEMINI: "Gemini CLI"}
DEFAULT_TIMEOUT = 60

# Events whose matcher is a tool name, per platform.
TOOL_EVENTS = {
    Platform.CLAUDE: frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE,
                                _E.PERMISSION_REQUEST, _E.PERMISSION_DENIED}),
    Platform.GEMINI: frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL}),
}
# Events matched by an exact lifecycle value, and the values each platform sends.
LIFECYCLE_VALUES = {
    Platform.CLAUDE: {
        _E.SESSION_START: ("startup", "resume", "clear", "compact", "fork"),
        _E.SESSION_END: ("clear", "resume", "logout", "prompt_input_exit", "other"),
        _E.PRE_COMPACT: ("manual", "auto"),
        _E.POST_COMPACT: ("manual", "auto"),
    },
    Platform.GEMINI: {
        _E.SESSION_START: ("startup", "resume", "clear"),
        _E.SESSION_END: ("exit", "clear"),
        _E.PRE_COMPACT: ("manual", "auto"),
    },
}
# A hook name: it becomes a file name and part of a shell command, so it stays plain.
NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
_SIMPLE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
# One matcher part: a tool name (MCP names may hold "." and ":") or a simple regex of one.
_PART = r"[A-Za-z0-9_.:*+?\-\[\]]+"
_MATCHER_PART = re.compile(rf"^{_PART}$")
# A whole matcher as hookwrap.toml and --matcher take it: parts joined by "|".
MATCHER_RE = re.compile(rf"^{_PART}(\|{_PART})*$")


@dataclass(frozen=True)
class Registration:
    """One hook as one settings file must contain it (see settings.reconcile)."""

    name: str
    platform: Platform
    event: str
    matcher: str | None
    handler: dict


def script_path(name: str) -> str:
    """The hook script's path, relative to the project root."""
    return f".hookwrap/hooks/{name}.py"


def command_for(name: str, platform: Platform, python: str = "python3") -> str:
    """The registered command. Gemini substitutes `$GEMINI_PROJECT_DIR` textually, already
    shell-quoted, so its form uses braces, which Gemini leaves for bash to expand."""
    if platform is Platform.CLAUDE:
        return f'{python} "$CLAUDE_PROJECT_DIR"/{script_path(name)} --platform claude'
    return f'{python} "${{GEMINI_PROJECT_DIR}}/{script_path(name)}" --platform gemini'


def split_matcher(matcher: str | None) -> list[str]:
    """``"shell|write_file"`` -> ``["shell", "write_file"]``; None, "" or "*" -> [] (every tool)."""
    if not matcher or matcher.strip() == "*":
        return []
    parts = [part.strip() for part in matcher.split("|")]
    if any(not part for part in parts):
        raise UsageError(f"matcher {matcher!r} has an empty name",
                         hint="separate tool names with a single |, e.g. shell|write_file")
    bad = [part for part in parts if not _MATCHER_PART.match(part)]
    if bad:
        raise UsageError(f"matcher {matcher!r}: {bad[0]!r} is not a tool name",
                         hint="use normalized tool names such as shell, write_file, edit_file")
    for part in parts:
        if not _SIMPLE_NAME.match(part):
            # Both CLIs silently match nothing with an invalid regex: refuse it here instead.
            try:
                re.compile(f"^(?:{part})$")
            except re.error as error:
                raise UsageError(f"matcher {matcher!r}: {part!r} is not a valid regex ({error})",
                                 hint="e.g. mcp__github__.* for every tool of one MCP server"
                                 ) from None
    return parts


def check_tool_names(matcher: str | None) -> list[str]:
    """Reject a platform's own tool name where a normalized one belongs; warn on unknown names.

    ``Bash`` would be written to Gemini as ``^Bash$`` and never fire there, so it is an error
    that names the normalized name. Returns warnings for names no platform map knows.
    """
    known = {tool for names in NORMALIZED_TO_TOOL.values() for tool in names}
    warnings = []
    for part in split_matcher(matcher):
        if part in known:
            continue
        for platform in Platform:
            normalized = TOOL_TO_NORMALIZED[platform].get(part)
            if normalized is not None:
                raise UsageError(
                    f"{part!r} is {PLATFORM_LABELS[platform]}'s name for {normalized!r}; "
                    "matchers take normalized tool names",
                    hint=f"use --matcher {normalized} (hookwrap writes each CLI's own names)")
        if _SIMPLE_NAME.match(part) and not part.startswith("mcp"):
            warnings.append(f"{part!r} is not a tool hookwrap knows: it matches only a tool named "
                            f"exactly that (known: {', '.join(sorted(known))})")
    return warnings


def tool_matcher(matcher: str | None, platform: Platform) -> str | None:
    """Translate normalized tool names into ``platform``'s matcher string.

    Claude Code treats ``A|B`` made of plain names as an exact list; Gemini CLI tests every
    matcher as an unanchored regex, so its list is anchored: ``^(run_shell_command|replace)$``.
    """
    names: list[str] = []
    for tool in split_matcher(matcher):
        for name in platform_tool_names(tool, platform):
            if name not in names:
                names.append(name)
    if not names:
        return None
    if platform is Platform.CLAUDE and all(_SIMPLE_NAME.match(n) for n in names):
        return "|".join(names)
    body = "|".join(names)
    return f"^{body}$" if len(names) == 1 else f"^({body})$"


def lifecycle_matcher(matcher: str | None, event: NormalizedEvent, platform: Platform) -> str | None:
    """An exact lifecycle value (``startup``); Gemini compares with ``==``, so only one value."""
    values = split_matcher(matcher)
    if not values:
        return None
    allowed = LIFECYCLE_VALUES[platform].get(event)
    if allowed is None:
        return None  # the platform ignores matchers on this event
    unknown = [v for v in values if v not in allowed]
    if unknown:
        raise UsageError(
            f"{PLATFORM_LABELS[platform]} never sends {event.value} with {unknown[0]!r}",
            hint=f"use one of: {', '.join(allowed)}")
    if platform is Platform.GEMINI and len(values) > 1:
        raise UsageError(
            f"Gemini CLI matches {event.value} by one exact value; {matcher!r} would match nothing",
            hint="give one value, or add a separate hook per value")
    return "|".join(values)


def matcher_for(matcher: str | None, event: NormalizedEvent, platform: Platform) -> str | None:
    """The platform matcher for ``event``, or None for events whose matcher is ignored."""
    if event in TOOL_EVENTS[platform]:
        return tool_matcher(matcher, platform)
    return lifecycle_matcher(matcher, event, platform)


def handler_for(name: str, platform: Platform, *, timeout: int, fail_closed: bool,
                event: NormalizedEvent, description: str, python: str = "python3") -> dict:
    """The handler object; timeouts are seconds on Claude Code, milliseconds on Gemini CLI."""
    command = command_for(name, platform, python)
    if platform is Platform.CLAUDE:
        handler: dict = {"type": "command", "command": command, "timeout": timeout}
        # onFailure is ignored on Stop; elsewhere it makes a crash or timeout block.
        if fail_closed and event is not _E.AFTER_AGENT:
            handler["onFailure"] = "block"
        return handler
    return {"name": name, "type": "command", "command": command,
            "timeout": timeout * 1000, "description": description}


def registrations_for(spec, *, fail_closed: bool = False, summary: str = "",
                      python: str = "python3") -> tuple[list[Registration], list[str]]:
    """Every Registration a manifest HookSpec needs, and warnings for skipped platforms."""
    registrations: list[Registration] = []
    warnings: list[str] = []
    event = NormalizedEvent(spec.event)
    for platform in spec.platforms:
        platform = Platform(platform)
        event_name = NORMALIZED_TO_EVENT[platform].get(event)
        if event_name is None:
            warnings.append(f"{spec.name}: {PLATFORM_LABELS[platform]} has no {event.value} "
                            f"event; not registered there")
            continue
        description = f"hookwrap {spec.template}: {summary}" if summary else f"hookwrap {spec.template}"
        handler = handler_for(spec.name, platform, timeout=spec.timeout or DEFAULT_TIMEOUT,
                              fail_closed=fail_closed, event=event,
                              description=description, python=python)
        registrations.append(Registration(spec.name, platform, event_name,
                                          matcher_for(spec.matcher, event, platform), handler))
    return registrations, warnings
