"""Reconcile hookwrap's registrations into one settings file: text in, text out, nothing written.

A handler is hookwrap's when its `command` runs `.hookwrap/hooks/<name>.py` through the launcher
(`.hookwrap/lib/run.py <name>`, or directly as before the launcher; or, for a resident
hook, its `url` is `http://127.0.0.1:<port>/hookwrap/<cli>/<name>`); nothing else marks
it, because Claude Code drops unknown keys when it rewrites its own settings file. Everything
that is not hookwrap's (other keys, events, groups, handlers, and their order) is left as it was.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookwrap.generator import jsonc
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import OwnedEntry, errors_only, iter_handlers, iter_owned
from hookwrap.generator.errors import SettingsError
from hookwrap.generator.fsutil import read_text
from hookwrap.generator.registrations import NAME_RE, Registration
from hookwrap.names import Platform

FIX_HINT = "fix or remove it, then run hookwrap sync"
BUG_HINT = "this is a bug in hookwrap; please report it"
# A command that mentions a hookwrap script, .hookwrap/hooks/<name>.py or the launcher and a
# name (.hookwrap/lib/run.py <name>): the path may follow a quote, a slash or a space, never a
# longer directory name. Only the exact forms each CLI's module writes are hookwrap's
# (owned_name); the others that match this are look-alikes, reported and left alone.
OWNED_COMMAND_RE = re.compile(
    r"(?<![^/\\\s\"'])\.hookwrap[/\\](?:hooks[/\\](?P<script>)|lib[/\\]run\.py[\"']?[ \t]+[\"']?)"
    r"(?P<name>[a-z][a-z0-9_-]{0,63})(?(script)\.py(?![\w.])|(?![\w.\-/\\]))"
)

__all__ = [
    "OWNED_COMMAND_RE", "Change", "OwnedEntry", "Reconciled", "Registration", "load_settings",
    "lookalikes", "parse_settings", "project_settings", "read_text", "reconcile",
    "same_handler",
]


@dataclass(frozen=True)
class Change:
    """What reconcile did to one registration: action is create, update, unchanged or remove."""

    name: str
    platform: Platform
    action: str
    detail: str = ""


@dataclass(frozen=True)
class Reconciled:
    """The new file text (None: the file should not exist), the changes, and whether bytes differ."""

    new_text: str | None
    changes: list[Change]
    changed: bool


@dataclass
class _Slot:
    # Live references into the document being edited: positions shift while editing, objects don't.
    name: str
    event: str
    group: dict
    handler: dict


def _canonical(value: Any) -> str:
    # Key order and int/float/bool distinctions count, which == on dicts would ignore.
    return json.dumps(value, ensure_ascii=False)


def same_handler(a: Any, b: Any) -> bool:
    """Whether two handlers are written identically: the test `reconcile` and `list` share."""
    return _canonical(a) == _canonical(b)


def user_scope_name(command: str, platform: Platform | str) -> str | None:
    """The hook's name when ``command`` is exactly one hookwrap writes at user scope (`hookwrap
    --user`), whatever the scope in force: hookwrap's, and a hook that steps aside for a
    project's hook of the same name (so never a look-alike, nor a second run)."""
    from hookwrap.generator.scope import Scope, current, using

    with using(Scope(user=True, home=current().home, env=current().env)):
        return setup_of(platform).owned_name(command)


def lookalikes(data: Any, platform: Platform | str) -> list[str]:
    """Handlers that mention a hookwrap script without being hookwrap's: left alone, reported."""
    found, agent = [], setup_of(platform)
    for event, gi, hi, _, handler in iter_handlers(data.get("hooks") if isinstance(data, dict) else None):
        command = handler.get("command") if isinstance(handler, dict) else None
        if isinstance(command, str) and OWNED_COMMAND_RE.search(command) \
                and agent.owned_handler(handler) is None \
                and user_scope_name(command, platform) is None:
            found.append(f"hooks.{event}[{gi}].hooks[{hi}] runs {command!r}, which is not "
                         "a command hookwrap writes: left as it is")
    return found


def parse_settings(text: str, platform: Platform | str, *, label: str) -> dict[str, Any]:
    """Parse settings text: JSONC where the CLI allows comments, else plain JSON (a generated
    file, such as OpenCode's plugin, is read by its CLI's module)."""
    agent = setup_of(platform)
    return agent.registration.parse_settings_text(agent, text, label)


def load_settings(path: Path | str, platform: Platform | str,
                  label: str) -> tuple[str | None, dict[str, Any]]:
    """Read and parse a settings file; a missing file is `(None, {})`."""
    text = read_text(path, label)
    return (None, {}) if text is None else (text, parse_settings(text, platform, label=label))


def project_settings(root: Path, platform: Platform | str) -> tuple[str | None, dict[str, Any]]:
    """The settings file of ``platform`` hookwrap keeps in the scope in force (the project's,
    or at user scope the CLI's user-level one), read and parsed; a CLI the scope has no file
    for reads as missing."""
    from hookwrap.generator.scopefiles import settings_rel, supports

    if not supports(Platform(platform)):
        return None, {}
    rel = settings_rel(Platform(platform))
    return load_settings(Path(root) / rel, platform, rel)


# --- what hookwrap is asked to write --------------------------------------------------------

def _new_group(registration: Registration) -> dict[str, Any]:
    group: dict[str, Any] = {}
    if registration.matcher is not None:
        group["matcher"] = registration.matcher
    group["hooks"] = [copy.deepcopy(registration.handler)]
    return group


def _check_registration(registration: Registration, platform: Platform, label: str) -> None:
    name, event, agent = registration.name, registration.event, setup_of(platform)
    where = f"{label}: hooks.{event}: entry for {name!r}"
    if not NAME_RE.match(name) or agent.owned_handler(registration.handler) != name:
        raise SettingsError(f"{where} does not run .hookwrap/lib/run.py {name}", hint=BUG_HINT)
    if event not in agent.facts.known_settings_events:
        raise SettingsError(f"{where}: {event} is not a {agent.label} event", hint=BUG_HINT)
    problems = agent.handlers.validate_group(agent, _new_group(registration), event,
                                             f"hooks.{event}[new]")
    errors = errors_only(problems)
    if errors:
        raise SettingsError(f"{where} would be invalid: {errors[0]}", hint=BUG_HINT)


def _wanted(platform: Platform, desired: list[Registration], label: str) -> list[Registration]:
    wanted = [reg for reg in desired if reg.platform == platform]
    seen: set[tuple[str, str]] = set()
    for registration in wanted:
        if (registration.name, registration.event) in seen:
            raise SettingsError(f"{label}: {registration.name!r} is registered twice on "
                                f"{registration.event}", hint=BUG_HINT)
        seen.add((registration.name, registration.event))
        _check_registration(registration, platform, label)
    return wanted


# --- the plan: which owned handler to keep, update, move or drop ----------------------------

def _same_matcher(group: dict, matcher: str | None) -> bool:
    # No "matcher" key is what None means; a stored null is different (and invalid for Claude).
    if matcher is None:
        return "matcher" not in group
    return group.get("matcher") == matcher


def _matches(slot: _Slot, registration: Registration) -> bool:
    return (slot.event == registration.event
            and _same_matcher(slot.group, registration.matcher)
            and same_handler(slot.handler, registration.handler))


def _pick(found: list[_Slot], registration: Registration) -> _Slot | None:
    for slot in found:
        if _matches(slot, registration):
            return slot
    return next((slot for slot in found if slot.event == registration.event), None)


def _update_detail(keep: _Slot | None, found: list[_Slot], registration: Registration) -> str:
    parts = []
    if keep is None:
        parts.append(f"moved from {found[0].event} to {registration.event}")
    else:
        if not _same_matcher(keep.group, registration.matcher):
            parts.append(f"matcher {keep.group.get('matcher')!r} -> {registration.matcher!r}")
        keys = [key for key in {**keep.handler, **registration.handler}
                if _canonical(keep.handler.get(key)) != _canonical(registration.handler.get(key))]
        if keys:
            parts.append("changed " + ", ".join(keys))
        elif _canonical(keep.handler) != _canonical(registration.handler):
            parts.append("key order")
        extra = len(found) - 1
        if extra:
            parts.append(f"removed {extra} duplicate{'s' if extra > 1 else ''}")
    return "; ".join(parts)


def _found(by_name: dict[str, list[_Slot]], registration: Registration, *,
           several: bool) -> list[_Slot]:
    """The slots of ``registration``'s hook it takes (out of ``by_name``): all of them, or,
    where the hook is registered on ``several`` events (before_tool on Claude Code's
    PreToolUse and PreSkillShellCommand), those of its own event."""
    pool = by_name.get(registration.name, [])
    found = [slot for slot in pool if slot.event == registration.event] if several else pool
    rest = [slot for slot in pool if all(slot is not taken for taken in found)]
    if rest:
        by_name[registration.name] = rest
    else:
        by_name.pop(registration.name, None)
    return found


def _plan(slots: list[_Slot], wanted: list[Registration], platform: Platform):
    by_name: dict[str, list[_Slot]] = {}
    for slot in slots:
        by_name.setdefault(slot.name, []).append(slot)
    counts: dict[str, int] = {}
    for registration in wanted:
        counts[registration.name] = counts.get(registration.name, 0) + 1
    changes, keeps, appends, drops = [], [], [], []
    for registration in wanted:
        found = _found(by_name, registration, several=counts[registration.name] > 1)
        keep = _pick(found, registration)
        drops += [slot for slot in found if slot is not keep]
        if keep is None:
            appends.append(registration)
        else:
            keeps.append((registration, keep))
        if not found:
            action, detail = "create", registration.event
        elif keep is not None and _matches(keep, registration) and len(found) == 1:
            action, detail = "unchanged", ""
        else:
            action, detail = "update", _update_detail(keep, found, registration)
        changes.append(Change(registration.name, platform, action, detail))
    for name, orphans in by_name.items():
        drops += orphans
        events = ", ".join(dict.fromkeys(slot.event for slot in orphans))
        changes.append(Change(name, platform, "remove", events))
    return changes, keeps, appends, drops


# --- edits on the parsed document -----------------------------------------------------------

def _index(items: list, item: Any) -> int:
    return next(i for i, candidate in enumerate(items) if candidate is item)


def _drop(slot: _Slot) -> None:
    handlers = slot.group["hooks"]
    del handlers[_index(handlers, slot.handler)]


def _set_matcher(group: dict, matcher: str | None) -> None:
    if matcher is None:
        group.pop("matcher", None)
    elif "matcher" in group:
        group["matcher"] = matcher
    else:
        rest = dict(group)
        group.clear()
        group.update({"matcher": matcher, **rest})


def _update(hooks: dict, registration: Registration, slot: _Slot) -> None:
    handlers = slot.group["hooks"]
    position = _index(handlers, slot.handler)
    if _same_matcher(slot.group, registration.matcher) or len(handlers) == 1:
        _set_matcher(slot.group, registration.matcher)
        handlers[position] = copy.deepcopy(registration.handler)
        return
    # Shared with other handlers: only ours may change, so it leaves for a group of its own.
    del handlers[position]
    groups = hooks[slot.event]
    groups.insert(_index(groups, slot.group) + 1, _new_group(registration))


def _if_null(value: Any) -> str:
    # A present null is easily read as "not set"; saying it makes the message point at the fix.
    return " (null)" if value is None else ""


def _append(data: dict, registration: Registration, label: str) -> None:
    hooks = data.setdefault("hooks", {})
    groups = hooks.setdefault(registration.event, [])
    if not isinstance(groups, list):
        raise SettingsError(f"{label}: hooks.{registration.event} is not a list"
                            f"{_if_null(groups)}", hint=FIX_HINT)
    groups.append(_new_group(registration))


def _prune(data: dict, drops: list[_Slot]) -> None:
    """Remove what hookwrap's removals left empty: groups, then events, then `hooks` itself."""
    hooks = data["hooks"]
    emptied_events = []
    for slot in drops:
        groups = hooks.get(slot.event)
        if slot.group.get("hooks") == [] and isinstance(groups, list) and any(
                g is slot.group for g in groups):
            del groups[_index(groups, slot.group)]
            emptied_events.append(slot.event)
    emptied = False
    for event in dict.fromkeys(emptied_events):
        if hooks.get(event) == []:
            del hooks[event]
            emptied = True
    if emptied and not hooks:
        del data["hooks"]


def _places(hooks: Any, places: Mapping[tuple[str, str], Sequence[tuple[int, int]]], label: str
            ) -> dict[tuple[str, str], list[_Slot]]:
    """The hand-made handlers ``places`` names, as slots of the hooks that take their place."""
    found: dict[tuple[str, str], list[_Slot]] = {}
    for (name, event), spots in places.items():
        for gi, hi in spots:
            try:
                group = hooks[event][gi]
                handler = group["hooks"][hi]
            except (KeyError, IndexError, TypeError):
                raise SettingsError(f"{label}: hooks.{event}[{gi}].hooks[{hi}]: no handler there "
                                    f"to replace with {name!r}", hint=BUG_HINT) from None
            found.setdefault((name, event), []).append(_Slot(name, event, group, handler))
    return found


def _edit(data: dict, platform: Platform, wanted: list[Registration], label: str,
          places: Mapping[tuple[str, str], Sequence[tuple[int, int]]]) -> list[Change]:
    # A present `"hooks": null` is as malformed as a list: only a missing key means "none yet".
    hooks: Any = data.get("hooks")  # any JSON value, or None when the key is missing
    if "hooks" in data and not isinstance(hooks, dict):
        if wanted:
            raise SettingsError(f"{label}: hooks is not an object{_if_null(hooks)}",
                                hint=FIX_HINT)
        return []
    slots = [_Slot(name, event, group, handler)
             for name, event, _, _, group, handler in iter_owned(hooks, setup_of(platform).owned_handler)]
    found = _places(hooks, places, label)
    anchors = {key: spots[0] for key, spots in found.items()}
    changes, keeps, appends, drops = _plan(slots, wanted, platform)
    drops += [slot for spots in found.values() for slot in spots[1:]]  # the place's duplicates
    for slot in drops:
        _drop(slot)
    for registration, slot in keeps:
        _update(hooks, registration, slot)
    for registration in appends:
        anchor = anchors.pop((registration.name, registration.event), None)
        if anchor is None:
            _append(data, registration, label)
        else:  # in the hand-made handler's place, as an update of hookwrap's own would be
            _update(hooks, registration, anchor)
    for slot in anchors.values():  # its hook's registration is elsewhere already
        _drop(slot)
        drops.append(slot)
    if drops:
        _prune(data, drops)
    return changes


def render_settings_file(text: str | None, old: dict, new: dict, platform: Platform, label: str) -> str | None:
    agent = setup_of(platform)
    if agent.facts.settings_generated:
        return agent.registration.render_settings(agent, new)
    if text is not None and _canonical(old) == _canonical(new):
        return text
    if text is not None and agent.facts.settings_comments and jsonc.has_comments(text, label=label):
        # A commented file is never deleted: its comments would go with it.
        return jsonc.rewrite_member(text, "hooks", new.get("hooks", jsonc.REMOVE), label=label)
    return jsonc.dumps(new) if new else None


def reconcile(text: str | None, platform: Platform | str, desired: list[Registration], *,
              label: str, places: Mapping[tuple[str, str], Sequence[tuple[int, int]]] | None = None
              ) -> Reconciled:
    """Make the settings text hold exactly the `desired` hookwrap registrations of `platform`.

    `text` None means the file does not exist; `new_text` None means it should not exist.
    Registrations of other platforms are ignored. Nothing is written here.

    `places` (`adopt`): (hook name, event) -> the (group index, handler index) in
    `hooks.<event>` of `text` of each hand-made handler the hook takes over. The hook's new
    registration replaces the first where it stands (the group's matcher kept for the handlers
    beside it) instead of joining the end of the list; the others are removed, and so is the
    first when the hook is registered elsewhere already.

    Raises:
        SettingsError: the text does not parse, a part hookwrap must edit is malformed, a
            comment would be lost, or a desired entry is invalid (a bug: never written).
    """
    platform = Platform(platform)
    wanted = _wanted(platform, desired, label)
    old = {} if text is None else parse_settings(text, platform, label=label)
    new = copy.deepcopy(old)
    changes = _edit(new, platform, wanted, label, places or {})
    new_text = render_settings_file(text, old, new, platform, label)
    if text is not None and new_text is not None and new_text != text \
            and all(change.action == "unchanged" for change in changes):
        # A generated file whose registrations are current but whose other bytes are not.
        changes.append(Change(Path(label).name, platform, "update",
                              "the file differs from what this hookwrap writes"))
    return Reconciled(new_text, changes, new_text != text)
