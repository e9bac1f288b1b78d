"""One hook entry, and the one check of it: for `hookwrap add`'s flags and for hookwrap.toml alike.

Every value of an entry (name, event, template, matcher, platforms, timeout, template options)
is checked here, so a bad value gets the same message and hint whether it came from a flag or
was typed into hookwrap.toml by hand. Each check raises EntryError, which names the entry's key;
the manifest adds the file, key and line, `add` shows it as is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..names import NormalizedEvent, Platform
from . import registrations as regs
from .catalogue import EXTERNAL, TEMPLATES, choose_template, close_template
from .clis import all_setups, setup_of
from .clis.kit import boolean, nonempty_string
from .errors import EntryError, UsageError

ALL_PLATFORMS: tuple[Platform, ...] = (Platform.CLAUDE, Platform.GEMINI)
# Node timers (every CLI's) fire at once past 2**31-1 ms: a longer timeout is an instant one,
# and so a hook that never runs (fail open).
MAX_TIMEOUT = (2**31 - 1) // 1000
NAME_HINT = "use 1-64 characters: a lower-case letter, then a-z, 0-9, '_' or '-'"
MATCHER_HINT = 'use tool names joined by "|" such as "shell|write_file", or leave it out'


@dataclass(frozen=True)
class HookSpec:
    """One hook as the manifest records it (see docs/internals.md)."""

    name: str
    event: NormalizedEvent
    template: str
    matcher: str | None
    platforms: tuple[Platform, ...]
    timeout: int | None
    options: dict[str, object]
    resident: bool = False           # answered by `hookwrap serve` where the CLI can post to it
    commands: tuple[str, ...] = ()   # shell commands the hook cares about (docs/resident.md)


def show(value: object) -> str:
    """A value as TOML would spell it, for messages: strings in double quotes."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def check_name(name: object) -> str:
    """``name`` when it can name a hook (it becomes a file name and part of a command)."""
    if not isinstance(name, str) or not regs.NAME_RE.match(name):
        raise EntryError("name", f"{name!r} is not a valid hook name", hint=NAME_HINT)
    return name


def check_template(value: object) -> str:
    """A template's name."""
    if not isinstance(value, str) or value not in TEMPLATES:
        raise EntryError("template", f"{show(value)} is not a template",
                         hint=f"templates: {', '.join(TEMPLATES)}")
    return value


def check_event(template: str | None, value: object) -> NormalizedEvent:
    """A normalized event (one the template handles, when a template is given)."""
    events = [e.value for e in NormalizedEvent]
    if not isinstance(value, str) or value not in events:
        raise EntryError("event", f"{show(value)} is not an event", hint=_event_hint(value))
    allowed = TEMPLATES[template].events if template is not None else None
    if allowed is not None and value not in allowed:
        raise EntryError("event", f"the {template} template does not handle {value}",
                         hint=f"valid events for {template}: {', '.join(allowed)}")
    return NormalizedEvent(value)


def _event_hint(value: object) -> str:
    """What an unknown event name likely meant: a CLI's own name for an event (PreToolUse,
    BeforeTool, pre_tool_use), or a close normalized name (before_tol); else every event."""
    import difflib

    events = [e.value for e in NormalizedEvent]
    every = f"valid events: {', '.join(events)}"
    if not isinstance(value, str):
        return every
    squashed = re.sub(r"[^a-z]", "", value.lower())
    for agent in all_setups():
        for raw, event in agent.runtime.events.items():
            if squashed == re.sub(r"[^a-z]", "", raw.lower()):
                return (f"{raw} is {agent.label}'s name for {event.value}: hookwrap names an "
                        f"event the same way for every CLI, so use {event.value}")
    by_squashed = {e.replace("_", ""): e for e in events}
    close = difflib.get_close_matches(squashed, list(by_squashed), n=1, cutoff=0.75)
    return f"did you mean {by_squashed[close[0]]}? {every}" if close else every


def check_platforms(value: object) -> tuple[Platform, ...]:
    """A non-empty list of platform names, each once."""
    names = ", ".join(p.value for p in Platform)
    if not isinstance(value, (list, tuple)) or not value:
        raise EntryError("platforms", "must be a non-empty list",
                         hint=f'e.g. platforms = ["claude", "gemini"] (platforms: {names})')
    for item in value:
        if not isinstance(item, str) or item not in {p.value for p in Platform}:
            raise EntryError("platforms", f"{show(item)} is not a platform",
                             hint=f"use one or more of: {names}")
    if len(set(value)) != len(value):
        raise EntryError("platforms", "lists a platform twice")
    return tuple(Platform(item) for item in value)


def check_timeout(value: object) -> int | None:
    """Seconds: a positive whole number that every CLI's timer can hold, or None."""
    if value is None:
        return None
    if type(value) is not int or value <= 0:
        raise EntryError("timeout", f"{show(value)} is not a positive whole number of seconds",
                         hint="e.g. timeout = 30, or leave it out for the default (60 seconds)")
    if value > MAX_TIMEOUT:
        raise EntryError("timeout", f"{value} seconds is longer than the CLIs' timers can hold "
                         f"(at most {MAX_TIMEOUT}, about 24 days): the hook would time out at "
                         "once and never run", hint="e.g. timeout = 600")
    return value


def check_matcher(value: object, event: NormalizedEvent,
                  platforms: tuple[Platform, ...]) -> list[str]:
    """Check a matcher against the event and every platform; returns warnings (unknown tool
    names). The same rules as the registrations that will be written from it."""
    if value is None:
        return []
    if not isinstance(value, str) or not regs.MATCHER_RE.match(value):
        raise EntryError("matcher", f"{show(value)} is not a matcher", hint=MATCHER_HINT)
    agents = [setup_of(p) for p in platforms]
    try:
        regs.split_matcher(value)
        if not any(event in a.facts.tool_events or event in a.facts.lifecycle_values for a in agents):
            raise EntryError("matcher", f"{event.value} has no matcher on these platforms: it "
                             "runs every time", hint="drop the matcher")
        warnings = regs.check_tool_names(value) if any(event in a.facts.tool_events for a in agents) else []
        warnings += [f"{a.label} has no matcher on {event.value}: the hook runs on every "
                     f"{event.value} there" for a in agents
                     if event in a.runtime.events.values() and event not in a.facts.tool_events
                     and event not in a.facts.lifecycle_values]
        for agent in agents:
            regs.matcher_for(value, event, agent.platform)
    except EntryError:
        raise
    except UsageError as error:  # registrations' word on the matcher: keep it, name the key
        raise EntryError("matcher", error.message, hint=error.hint) from None
    return warnings


def check_options(template: str, entry: dict[str, Any]) -> dict[str, object]:
    """The template options of an entry (every key that is not a common one)."""
    allowed = (*TEMPLATES[template].default_options, *TEMPLATES[template].settings)
    options: dict[str, object] = {}
    for key, value in entry.items():
        if key in COMMON_KEYS:
            continue
        if key not in allowed:
            valid = ", ".join((*COMMON_KEYS, *allowed))
            raise EntryError(key, "unknown key", hint=f"valid keys here: {valid}")
        problem = _OPTION_CHECKS[key](value)
        if isinstance(problem, tuple):  # (what is wrong, a hint)
            raise EntryError(key, f"{show(value)} {problem[0]}", hint=problem[1])
        if problem:
            raise EntryError(key, f"{show(value)} {problem}")
        options[key] = value
    return options


def check_resident(value: object) -> bool:
    """``resident = true``: answered by the resident server (docs/resident.md)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise EntryError("resident", f"{show(value)} is not true or false",
                         hint="resident = true, or leave it out to run a process per call")
    return value


COMMANDS_HINT = 'e.g. commands = ["git *"]: shell command globs, * matches anything'
_PATTERN_RE = re.compile(r"^[^\s*?()\[\]][^()\n\r]*$")


def check_commands(value: object, template: str, event: NormalizedEvent,
                   matcher: object) -> tuple[str, ...]:
    """The shell-command globs of a hook that ignores every other shell call."""
    if value is None:
        return ()
    if not isinstance(value, list) or not value or \
            not all(isinstance(item, str) and _PATTERN_RE.match(item.strip()) for item in value):
        raise EntryError("commands", f"{show(value)} is not a non-empty list of command "
                         "patterns that start with a word and hold no parentheses",
                         hint=COMMANDS_HINT)
    if not any(event in agent.facts.tool_events for agent in all_setups()) or matcher != "shell":
        raise EntryError("commands", "filters shell commands: it needs a tool event and "
                         'matcher = "shell"', hint='set matcher = "shell", or drop commands')
    if TEMPLATES[template].fail_closed:
        raise EntryError("commands", f"a {template} hook must see every shell command: a "
                         "filter can be passed by `bash -c '...'` or `/usr/bin/git` on Claude "
                         "Code", hint="drop commands; filters are for hooks that only watch")
    return tuple(item.strip() for item in value)


# Keys every hook table may hold, in the order `add` writes them; template options follow.
COMMON_KEYS = ("event", "template", "matcher", "platforms", "timeout", "resident", "commands")


def check_entry(name: str, entry: Any, *, default_platforms: tuple[Platform, ...] = ALL_PLATFORMS
                ) -> tuple[HookSpec, list[str]]:
    """The HookSpec of a ``[hooks.<name>]`` table, and warnings; EntryError names a bad key.

    ``default_platforms`` is the manifest's top-level ``platforms`` (for an entry without its own).
    """
    check_name(name)
    if not isinstance(entry, dict):
        raise EntryError("", "must be a table")
    external = "command" in entry and "template" not in entry
    options = _external_options(entry) if external else None
    template = EXTERNAL if external else check_template(entry.get("template", "skeleton"))
    if "event" not in entry:
        raise EntryError("", "has no event", hint="add e.g. event = \"before_tool\"")
    event = check_event(None if external else template, entry["event"])
    speaker = setup_of(str(options["speaks"])) if options else None
    if speaker is not None and event not in speaker.runtime.event_names():
        raise EntryError("event", f"{speaker.label} has no {event.value} event, so a command "
                         f"speaking its protocol cannot read it",
                         hint="set speaks to the CLI the command was written for")
    platforms = check_platforms(entry.get("platforms", list(default_platforms)))
    timeout = check_timeout(entry.get("timeout"))
    warnings = check_matcher(entry.get("matcher"), event, platforms)
    resident = check_resident(entry.get("resident"))
    commands = check_commands(entry.get("commands"), template, event, entry.get("matcher"))
    spec = HookSpec(name=name, event=event, template=template, matcher=entry.get("matcher"),
                    platforms=platforms, timeout=timeout,
                    options=check_options(template, entry) if options is None else options,
                    resident=resident, commands=commands)
    return spec, warnings


# Keys of an external hook's table (`command` instead of a template), in the order written.
EXTERNAL_KEYS = ("event", "matcher", "platforms", "timeout", "command", "speaks", "fail_closed")


def _external_options(entry: dict[str, Any]) -> dict[str, object]:
    """The options of an external hook (a shell command speaking one CLI's protocol, bridged
    on the others): its command, the CLI it speaks, and fail_closed when set."""
    for key in entry:
        if key not in EXTERNAL_KEYS:
            raise EntryError(key, "unknown key for an external hook (one with a command)",
                             hint=f"valid keys here: {', '.join(EXTERNAL_KEYS)}")
    command = entry["command"]
    if not isinstance(command, str) or not command.strip():
        raise EntryError("command", f"{show(command)} is not a command",
                         hint='a shell command line, e.g. command = ".claude/hooks/check.sh"')
    speaks = entry.get("speaks", "claude")
    names = ", ".join(p.value for p in Platform)
    if not isinstance(speaks, str) or speaks not in {p.value for p in Platform}:
        raise EntryError("speaks", f"{show(speaks)} is not a platform",
                         hint=f"the CLI whose hook protocol the command speaks: one of {names}")
    fail_closed = entry.get("fail_closed", False)
    if not isinstance(fail_closed, bool):
        raise EntryError("fail_closed", f"{show(fail_closed)} must be true or false")
    return {"command": command, "speaks": speaks, **({"fail_closed": True} if fail_closed else {})}


def new_external_entry(*, name: str, event: str, command: str, speaks: str | None,
                       matcher: str | None, platforms: tuple[Platform, ...], timeout: int | None,
                       fail_closed: bool = False) -> tuple[HookSpec, list[str]]:
    """The entry `hookwrap add --command` and `hookwrap adopt` create."""
    check_name(name)
    normalized = check_event(None, event)
    if matcher is not None:
        matcher = "|".join(regs.split_matcher(matcher)) or None
    entry = {"event": normalized.value,
             "platforms": [p.value for p in _with_event(platforms, normalized)],
             "command": command, "speaks": speaks or "claude", "matcher": matcher,
             "timeout": timeout, "fail_closed": fail_closed or None}
    return check_entry(name, {k: v for k, v in entry.items() if v is not None})


def new_entry(*, name: str, event: str, template: str | None, matcher: str | None,
              platforms: tuple[Platform, ...], timeout: int | None, resident: bool = False,
              commands: tuple[str, ...] = ()) -> tuple[HookSpec, list[str]]:
    """The entry `hookwrap add` creates from its flags, with the template's defaults."""
    check_name(name)
    chosen = choose_template(name, template)
    close = close_template(name) if template is None else None
    if close is not None:
        raise UsageError(f"{name!r} is not a template, but close to {close!r}: add would render "
                         f"an empty {event} skeleton named {name}",
                         hint=f"for the {close} template: `hookwrap add {event} {close}` (or "
                              f"`--template {close}`); for a skeleton: `hookwrap add {event} "
                              f"{name} --template skeleton`")
    normalized = check_event(chosen, event)
    info = TEMPLATES[chosen]
    if matcher is not None:
        # "shell | write_file" -> "shell|write_file"; the checks below see the stored form.
        matcher = "|".join(regs.split_matcher(matcher)) or None
    elif any(normalized in agent.facts.tool_events for agent in all_setups()):
        matcher = info.default_matcher
    entry = {"event": normalized.value, "template": chosen,
             "platforms": [p.value for p in _with_event(platforms, normalized)],
             "timeout": timeout if timeout is not None else info.default_timeout,
             "matcher": matcher, "resident": resident or None, "commands": list(commands) or None,
             **info.default_options}
    return check_entry(name, {k: v for k, v in entry.items() if v is not None})


def _with_event(platforms: tuple[Platform, ...], event: NormalizedEvent) -> tuple[Platform, ...]:
    """Only the platforms that have ``event``, so the manifest says where the hook really runs
    (or all of them, to let the caller report that none has it)."""
    present = tuple(p for p in platforms if event in setup_of(p).runtime.event_names())
    return present or platforms


def _check_count(value: object) -> str:
    return "" if type(value) is int and value >= 0 else "must be a whole number, 0 or more"


def _check_command(value: object) -> str:
    if isinstance(value, str) and value.strip():
        return ""
    if isinstance(value, list) and value and all(isinstance(item, str) and item for item in value):
        return ""
    return "must be a command: a non-empty string or list of strings"


def _check_suffixes(value: object) -> str:
    if isinstance(value, list) and all(isinstance(item, str) and item.startswith(".") for item in value):
        return ""
    return 'must be a list of file suffixes such as [".py"]'


def _check_strings(value: object) -> str:
    if isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value):
        return ""
    return "must be a list of non-empty strings"


def _check_packs(value: object) -> str:
    from ..guard_rules import PACKS

    if isinstance(value, list) and all(isinstance(item, str) and item in PACKS for item in value):
        return ""
    return f"must be a list of rule packs: {', '.join(PACKS)}"


def _check_rule_ids(value: object) -> str | tuple[str, str]:
    """A list of the guard's rule ids (guard_rules.RULES): a typo would switch nothing off."""
    problem = _check_strings(value)
    if problem:
        return problem
    assert isinstance(value, list)
    from ..guard_rules import rule_ids

    return unknown_rule_ids(value, rule_ids()) or ""


def unknown_rule_ids(names: list[str], known: tuple[str, ...]) -> tuple[str, str] | None:
    """(what is wrong, a hint) when ``names`` holds a rule id that is not in ``known``."""
    import difflib

    unknown = [name for name in names if name not in known]
    if not unknown:
        return None
    guesses = [f"{name!r} -> {close[0]!r}" for name in unknown
               for close in [difflib.get_close_matches(name, known, n=1, cutoff=0.6)] if close]
    shown = ", ".join(repr(name) for name in unknown)
    hint = ("did you mean " + ", ".join(guesses) + "? " if guesses else "") + \
        "the rule ids are in docs/guard.md; a block names its rule, and `hookwrap test " \
        "<guard> --explain 'CMD'` shows which rule matches"
    return f"names no rule of the guard: {shown}", hint


# One check per template option name (the names come from catalogue.TEMPLATES).
_OPTION_CHECKS = {
    "check": nonempty_string,
    "max_retries": _check_count,
    "command": _check_command,
    "suffixes": _check_suffixes,
    "packs": _check_packs,
    "block_force_with_lease": boolean,
    "allow_secret_reads": boolean,
    "allowed_commands": _check_strings,
    "allowed_paths": _check_strings,
    "not_secrets": _check_strings,
    "disabled_rules": _check_rule_ids,
}
