"""`hookwrap list`: each manifest hook and the state of its registration on each platform."""

from __future__ import annotations

from pathlib import Path

from ..names import Platform
from . import registrations as regs

# Per-platform status words, from best to worst.
CURRENT, DRIFTED, MISSING, NOT_SELECTED, NO_EVENT, DROPPED = (
    "current", "drifted", "missing", "not selected", "no such event", "dropped")
# A current registration whose command cannot start: the runtime or the hook's script is gone.
NO_RUNTIME, NO_SCRIPT = "no runtime", "no script"
# A user hook that the project's hook of the same name replaces on that CLI.
REPLACED = "project's"


def dropped_status(registration, data: dict) -> str | None:
    """DROPPED when the CLI drops every hook of the registration's event in this file (an
    invalid entry beside it), as `hookwrap test` reports it; else None."""
    from .schema import dropping_errors

    return DROPPED if dropping_errors(data, registration.platform, registration.event) else None


def registration_status(registration, entries, events=()) -> str:
    """current, drifted or missing: how ``entries`` (a file's owned entries) hold it;
    ``events``: every event the hook is registered on in that file (its own by default)."""
    from .settings import same_handler

    mine = [e for e in entries if e.name == registration.name]
    if not mine:
        return MISSING
    events = set(events) | {registration.event}
    here = [e for e in mine if e.event == registration.event]
    if len(here) != 1 or any(e.event not in events for e in mine):
        return DRIFTED
    entry = here[0]
    same = entry.matcher == registration.matcher and same_handler(entry.handler,
                                                                  registration.handler)
    return CURRENT if same else DRIFTED


def _platform_row(spec, platform: Platform, registrations: list, entries, data: dict,
                  cannot_start: str | None = None) -> dict:
    if platform not in spec.platforms:
        return {"status": NOT_SELECTED, "registered": False, "current": False}
    if not registrations:
        return {"status": NO_EVENT, "registered": False, "current": False}
    events = [r.event for r in registrations]
    statuses = {registration_status(r, entries, events) for r in registrations}
    status = statuses.pop() if len(statuses) == 1 else DRIFTED
    registration = registrations[0]  # the event's own (before_tool: PreToolUse)
    if status == CURRENT:
        dropped = next(filter(None, (dropped_status(r, data) for r in registrations)), None)
        status = dropped or cannot_start or status
    return {"status": status, "registered": status != MISSING, "current": status == CURRENT,
            "event": registration.event, "matcher": registration.matcher}


def list_hooks(root: Path) -> list[dict]:
    """One object per manifest hook (name, event, template, matcher, platforms, script),
    then one per orphaned hookwrap registration (``"orphan": true``)."""
    from .clis import setup_of
    from .project import load_manifest, manifest_registrations
    from .settings import project_settings
    from .startup import runtime_gaps

    manifest = load_manifest(root)
    data = {platform: project_settings(root, platform)[1] for platform in Platform}
    owned = {platform: setup_of(platform).owned_entries(data[platform]) for platform in Platform}
    no_runtime = bool(runtime_gaps(root))
    rows: list[dict] = []
    for spec in manifest.hooks:
        found, _ = manifest_registrations(spec, manifest)
        by_platform: dict[Platform, list] = {}
        for registration in found:
            by_platform.setdefault(registration.platform, []).append(registration)
        script = (root / regs.script_path(spec.name)).is_file()
        cannot_start = NO_RUNTIME if no_runtime else None if script else NO_SCRIPT
        rows.append({
            "name": spec.name,
            "event": spec.event.value,
            "template": spec.template,
            "matcher": spec.matcher,
            "timeout": spec.timeout,
            "script": script,
            "platforms": {p.value: _platform_row(spec, p, by_platform.get(p, []), owned[p],
                                                  data[p], cannot_start)
                          for p in Platform},
        })
        if "speaks" in spec.options:  # an external hook: its command and protocol
            rows[-1].update(command=spec.options["command"], speaks=spec.options["speaks"])
    known = {spec.name for spec in manifest.hooks}
    for platform, entries in owned.items():
        for entry in entries:
            if entry.name not in known:
                rows.append({"name": entry.name, "event": entry.event, "orphan": True,
                             "matcher": entry.matcher,
                             "platforms": {platform.value: {"status": "orphan",
                                                            "registered": True,
                                                            "current": False}}})
    return rows


def list_scopes(project: Path | None, user: Path | None) -> list[dict]:
    """``list_hooks`` of the project and of the user scope (each when given), every row with
    its ``scope``; a user hook that a project hook of the same name replaces on a CLI (the
    launcher steps aside there: launcher.py, project_wins) is ``"project's"`` there, and
    ``"runs": false``."""
    from .scope import Scope, using

    rows = []
    if project is not None:
        with using(Scope()):
            rows += [{**row, "scope": "project"} for row in list_hooks(project)]
    if user is None:
        return rows
    mine = {row["name"]: row["platforms"] for row in rows if not row.get("orphan")}
    with using(Scope(user=True)):
        for row in list_hooks(user):
            theirs = mine.get(row["name"], {})
            for name, cell in row["platforms"].items():
                if theirs.get(name, {}).get("status", NOT_SELECTED) != NOT_SELECTED \
                        and cell.get("status", NOT_SELECTED) != NOT_SELECTED:
                    cell.update(status=REPLACED, runs=False)
            rows.append({**row, "scope": "user"})
    return rows


def format_table(rows: list[dict]) -> str:
    """A plain-text table for people; `--json` is the one for scripts."""
    if not rows:
        return "no hooks yet: try `hookwrap add before_tool guard`"
    from .hookentry import ALL_PLATFORMS

    # The default CLIs always have a column; any other CLI once a hook uses it.
    shown = [p.value for p in Platform if p in ALL_PLATFORMS or any(
        row["platforms"].get(p.value, {}).get("status", NOT_SELECTED) != NOT_SELECTED for row in rows)]
    scoped = any(row.get("scope") == "user" for row in rows)  # a column once the user's show
    header = ("NAME", *(("SCOPE",) if scoped else ()), "EVENT", "MATCHER",
              *(name.upper() for name in shown))
    lines = [header]
    for row in rows:
        platforms = row["platforms"]
        lines.append((row["name"], *((row.get("scope", "project"),) if scoped else ()),
                      row["event"], row.get("matcher") or "*",
                      *(platforms.get(name, {}).get("status", "-") for name in shown)))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
    text = "\n".join("  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip()
                     for line in lines)
    external = [row for row in rows if row.get("command")]
    if external:
        text += "\n\n" + "\n".join(f"{row['name']}: runs {row['command']} (speaks "
                                     f"{row['speaks']})" for row in external)
    if any(row.get("orphan") for row in rows):
        text += "\n\nhint: orphaned entries are removed by `hookwrap sync`"
    elif any(p.get("status") in (MISSING, DRIFTED) for row in rows for p in row["platforms"].values()):
        text += "\n\nhint: run `hookwrap sync` to repair missing or drifted registrations"
    statuses = {p.get("status") for row in rows for p in row["platforms"].values()}
    if NO_RUNTIME in statuses:
        text += ("\n\nhint: no runtime: .hookwrap/lib is missing or incomplete, so no hook can "
                 "start; `hookwrap sync` restores it")
    elif NO_SCRIPT in statuses:
        text += ("\n\nhint: no script: the hook's .hookwrap/hooks/NAME.py is missing, so it "
                 "cannot start; `hookwrap sync` restores it")
    if REPLACED in statuses:
        text += ("\n\nhint: project's: this repo's hook of the same name runs there instead of "
                 "the user's, once per call")
    if any(p.get("status") == DROPPED for row in rows for p in row["platforms"].values()):
        text += ("\n\nhint: dropped: an invalid entry beside it makes the CLI skip every hook of "
                 "that event; `hookwrap doctor` names the entry")
    return text

