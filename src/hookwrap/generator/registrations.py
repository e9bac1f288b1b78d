"""From a manifest entry to the exact entry each CLI's settings file must hold."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..names import NormalizedEvent, Platform
from ..options import answer_limit
from .catalogue import EXTERNAL
from .clis import all_setups, setup_of
from .clis._base import with_deadline
from .errors import UsageError
from .interpreter import WINDOWS_DEFAULT
from .scope import current
from .winforms import windows_command, windows_registration

DEFAULT_TIMEOUT = 60
# The resident server's port when hookwrap.toml has no [serve] port (docs/resident.md).
DEFAULT_SERVE_PORT = 48620
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


# What a word of the manifest's `python` may not hold: it is quoted into every registered
# command, so variables, substitutions, globs, separators or a ~ would not do what they seem to.
_NOT_LITERAL = re.compile(r"[`$;&|<>()*?\n\r]|^~")


def python_words(python: str) -> list[str]:
    """The manifest's `python` as words (POSIX shell quoting: `python3 -I`, `uv run python`,
    `'/opt/my py/bin/python3'`); UsageError for anything but an interpreter and its arguments."""
    import shlex

    hint = 'e.g. python = "python3", "python3 -I", "uv run python" or "\'/opt/my py/bin/python3\'"'
    try:
        words = shlex.split(python)
    except ValueError as error:
        raise UsageError(f"{python!r} is not a command line ({error})", hint=hint) from None
    if not words:
        raise UsageError("is empty", hint=hint)
    bad = next((word for word in words if _NOT_LITERAL.search(word)), None)
    if bad is not None:
        raise UsageError(f"{bad!r} holds shell syntax; `python` names an interpreter and its "
                         "arguments, and goes into every registered command as plain words",
                         hint=hint)
    first = words[0]
    if "/" in first and not first.startswith("/"):
        # Hooks run from other directories than the root (Codex runs them in the session's).
        raise UsageError(f"{first!r} is a relative path; hooks run from other directories",
                         hint="name an interpreter on PATH (python3) or an absolute path")
    return words


def python_command(python: str) -> str:
    """The interpreter part of a registered command, each word shell-quoted when needed."""
    import shlex

    return " ".join(shlex.quote(word) for word in python_words(python))


def command_for(name: str, platform: Platform, python: str = "python3") -> str:
    """The registered command: the CLI's module decides how it finds the project."""
    return setup_of(platform).command(name, python_command(python))


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
    known = {tool for agent in all_setups() for tool in agent.runtime.tool_names()}
    warnings = []
    for part in split_matcher(matcher):
        if part in known:
            continue
        if part.startswith("mcp__") and "__" not in part[5:] and _SIMPLE_NAME.match(part):
            # A plain mcp__github names no tool on any CLI: it would match nothing.
            raise UsageError(f"{part!r} names an MCP server, not a tool",
                             hint=f"use {part}__.* for every tool of that server, or "
                                  f"{part}__<tool> for one")
        if part.startswith("mcp_") and not part.startswith("mcp__"):
            server, _, tool = part[4:].partition("_")
            raise UsageError(
                f"{part!r} is Gemini CLI's spelling of an MCP tool; matchers take "
                "mcp__<server>__<tool>, which hookwrap writes in each CLI's own spelling",
                hint=f"use mcp__{server or '<server>'}__{tool or '<tool>'}")
        for agent in all_setups():
            normalized = agent.runtime.tools.get(part)
            if normalized is not None:
                raise UsageError(
                    f"{part!r} is {agent.label}'s name for {normalized!r}; "
                    "matchers take normalized tool names",
                    hint=f"use {normalized} (hookwrap writes each CLI's own names)")
        if _SIMPLE_NAME.match(part) and not part.startswith("mcp"):
            warnings.append(f"{part!r} is not a tool hookwrap knows: it matches only a tool named "
                            f"exactly that (known: {', '.join(sorted(known))})")
    return warnings


def tool_matcher(matcher: str | None, platform: Platform) -> str | None:
    """Translate normalized tool names into ``platform``'s matcher string.

    Claude Code treats ``A|B`` made of plain names as an exact list; Gemini CLI tests every
    matcher as an unanchored regex, so its list is anchored: ``^(run_shell_command|replace)$``.
    """
    agent = setup_of(platform)
    names: list[str] = []
    for tool in split_matcher(matcher):
        for name in agent.runtime.platform_tool_names(tool):
            if name not in names:
                names.append(name)
    return agent.registration.tool_matcher(agent, names) if names else None


def lifecycle_matcher(matcher: str | None, event: NormalizedEvent, platform: Platform) -> str | None:
    """An exact lifecycle value (``startup``); Gemini compares with ``==``, so only one value."""
    values = split_matcher(matcher)
    if not values:
        return None
    agent = setup_of(platform)
    allowed = agent.facts.lifecycle_values.get(event)
    if allowed is None:
        return None  # the platform ignores matchers on this event
    unknown = [v for v in values if v not in allowed]
    if unknown:
        raise UsageError(
            f"{agent.label} never sends {event.value} with {unknown[0]!r}",
            hint=f"use one of: {', '.join(allowed)}")
    return agent.registration.lifecycle_matcher(agent, values, event)


def matcher_for(matcher: str | None, event: NormalizedEvent, platform: Platform) -> str | None:
    """The platform matcher for ``event``, or None for events whose matcher is ignored."""
    if event in setup_of(platform).facts.tool_events:
        return tool_matcher(matcher, platform)
    return lifecycle_matcher(matcher, event, platform)


def handler_for(name: str, platform: Platform, *, timeout: int, fail_closed: bool,
                event: NormalizedEvent, description: str, python: str = "python3") -> dict:
    """The handler object, in the CLI's own form and timeout unit. A fail-closed before_tool
    hook's command carries the seconds it has to answer (``with_deadline``): within its timeout,
    less the margin an external hook's command gets (``options.answer_limit``). A timeout past
    the longest the CLI gives a hook (``max_timeout_s``) is cut to it."""
    agent = setup_of(platform)
    longest = agent.facts.max_timeout_s
    timeout = min(timeout, longest) if longest else timeout
    command = _with_deadline_if(command_for(name, platform, python), name, timeout=timeout,
                                fail_closed=fail_closed, event=event)
    return agent.registration.handler(agent, command, name=name, timeout_s=timeout,
                                      fail_closed=fail_closed, event=event, description=description)


def _with_deadline_if(command: str, name: str, *, timeout: int, fail_closed: bool,
                      event: NormalizedEvent) -> str:
    """``command`` with the seconds a fail-closed before_tool hook has to answer."""
    if fail_closed and event is NormalizedEvent.BEFORE_TOOL:
        return with_deadline(command, name, round(answer_limit({"timeout": timeout}), 1))
    return command


def resident_url(name: str, platform: Platform, port: int) -> str:
    """The URL a resident hook is registered with: ``http://127.0.0.1:<port>/hookwrap/<cli>/<name>``
    (the form server.py answers and settings.py recognizes as hookwrap's)."""
    return f"http://127.0.0.1:{port}/hookwrap/{platform.value}/{name}"


def _with_filter(handler: dict, spec, platform: Platform) -> dict:
    commands = getattr(spec, "commands", ())
    if not commands:
        return handler
    agent = setup_of(platform)
    names = agent.runtime.platform_tool_names("shell")
    return {**handler, **agent.registration.command_filter(agent, list(commands), names)}


def _handler(spec, platform: Platform, event: NormalizedEvent, *, fail_closed: bool,
             description: str, python: str, port: int, python_windows: str = WINDOWS_DEFAULT
             ) -> tuple[dict, str]:
    """The handler (before ``_with_filter``), and a warning when a resident hook stays a
    command on this CLI."""
    timeout = spec.timeout or DEFAULT_TIMEOUT
    if getattr(spec, "resident", False):
        agent = setup_of(platform)
        handler = agent.registration.http_handler(agent, resident_url(spec.name, platform, port), timeout_s=timeout,
                                     fail_closed=fail_closed, event=event)
        if handler is not None:
            return handler, ""
        warning = (f"{spec.name}: resident has no effect: {agent.label} runs only command "
                   f"hooks on {event.value} (see docs/resident.md)")
    else:
        warning = ""
    handler = handler_for(spec.name, platform, timeout=timeout, fail_closed=fail_closed,
                          event=event, description=description, python=python)
    # A CLI with a field for Windows (Codex CLI's commandWindows, Copilot CLI's powershell, the
    # plugins' argvWindows) gets the Windows form there; its POSIX command stays as it is. A CLI
    # with one command for every OS gets it there when hookwrap.toml names python_windows.
    if current().user:  # the Windows forms find a project's runtime: none at user scope yet
        return handler, warning
    windows = windows_command(platform.value, spec.name, python_windows, fail_closed=fail_closed)
    handler = windows_registration(platform.value, handler, _with_deadline_if(
        windows, spec.name, timeout=timeout, fail_closed=fail_closed, event=event),
        everywhere=getattr(python_windows, "named", False))
    return handler, warning


def selects_shell(matcher: str | None) -> bool:
    """True when a tool matcher (normalized names, each a name or a regex) selects the shell
    tool; no matcher selects every tool."""
    parts = split_matcher(matcher)
    return not parts or any(re.fullmatch(f"(?:{part})", "shell") for part in parts)


def _skill_shell_registrations(spec, platform: Platform, event: NormalizedEvent,
                               handler: dict) -> list[Registration]:
    """A before_tool hook that selects the shell, registered again on each event the CLI asks
    before a skill's inline shell command (``skill_shell_events``), for the shell's tool names.
    An external hook is not: it was written for the CLI's tool events, and sees the payload
    as is. The `if` filter is left out of ``handler``: the runtime's filter does its work there."""
    agent = setup_of(platform)
    if event is not NormalizedEvent.BEFORE_TOOL or spec.template == EXTERNAL \
            or not selects_shell(spec.matcher):
        return []
    return [Registration(spec.name, platform, name, tool_matcher("shell", platform), handler)
            for name in agent.runtime.skill_shell_events if name in agent.runtime.events]


def registrations_for(spec, *, fail_closed: bool = False, summary: str = "",
                      python: str = "python3", port: int = DEFAULT_SERVE_PORT,
                      python_windows: str = WINDOWS_DEFAULT
                      ) -> tuple[list[Registration], list[str]]:
    """Every Registration a manifest HookSpec needs, and warnings for skipped platforms."""
    registrations: list[Registration] = []
    warnings: list[str] = []
    commands_only: list[str] = []
    event = NormalizedEvent(spec.event)
    for value in spec.platforms:
        platform = Platform(value)
        event_name = setup_of(platform).runtime.event_names().get(event)
        if event_name is None:
            warnings.append(f"{spec.name}: {setup_of(platform).label} has no {event.value} "
                            f"event; not registered there")
            continue
        description = f"hookwrap {spec.template}: {summary}" if summary else f"hookwrap {spec.template}"
        handler, warning = _handler(spec, platform, event, fail_closed=fail_closed,
                                    description=description, python=python, port=port,
                                    python_windows=python_windows)
        if warning:
            commands_only.append(warning)
        registrations.append(Registration(spec.name, platform, event_name,
                                          matcher_for(spec.matcher, event, platform),
                                          _with_filter(handler, spec, platform)))
        registrations += _skill_shell_registrations(spec, platform, event, handler)
    if commands_only and not any(r.handler.get("type") == "http" for r in registrations):
        warnings.extend(commands_only)  # resident = true changes nothing anywhere: say so
    return registrations, warnings
