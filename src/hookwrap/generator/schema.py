"""Settings-file validation: the walk over a `hooks` object.

What each CLI accepts is its setup's business (``generator/clis/<platform>.py`` and its record:
its events, its handler shapes, what voids a file, built from the value checks in
``generator/clis/kit.py``); this module holds the generic walk. Each check returns `Problem`s
instead of raising, so `doctor` can list them all and the writer can refuse an entry it is about
to write. Severity "error" means the CLI drops the entry, event or file (or the hook can never
run); "warning" means it loads but something is ignored or odd.
"""

from __future__ import annotations

from typing import Any

from ..generator.clis import setup_of
from ..generator.clis.kit import ERROR, Problem
from ..names import Platform

# --- entry points -----------------------------------------------------------------------------

def validate_event(event: str, groups: Any, platform: Platform | str, *,
                   path: str = "hooks") -> list[Problem]:
    """Check the value of one event key under `hooks`."""
    where = f"{path}.{event}"
    agent = setup_of(platform)
    unread = agent.doctor.validate_event(agent, event, groups, where)
    if unread is not None:
        return unread
    if not isinstance(groups, list):
        return [Problem(where, "must be a list of matcher groups")]
    problems: list[Problem] = []
    for index, group in enumerate(groups):
        problems += agent.handlers.validate_group(agent, group, event, f"{where}[{index}]")
    return problems


def validate_hooks(hooks: Any, platform: Platform | str, *, path: str = "hooks") -> list[Problem]:
    """Check a whole `hooks` object of the given platform's settings file."""
    if not isinstance(hooks, dict):
        return [Problem(path, "must be an object mapping event names to lists")]
    problems: list[Problem] = []
    for event, groups in hooks.items():
        problems += validate_event(event, groups, platform, path=path)
    return problems


def validate_settings(data: Any, platform: Platform | str) -> list[Problem]:
    """Check a parsed settings file: its `hooks` plus the CLI's cheap whole-file checks."""
    if not isinstance(data, dict):
        return [Problem("(top level)", "must be a JSON object")]
    agent = setup_of(platform)
    problems = agent.doctor.validate_file(agent, data)
    if "hooks" in data:
        problems += validate_hooks(data["hooks"], platform)
    return problems


def dropping_errors(data: Any, platform: Platform | str, event: str) -> list[Problem]:
    """Errors that make the CLI drop every hook of ``event`` in this file: an invalid entry of
    that event, or a file-level error that voids the whole file. [] for a CLI that skips an
    invalid entry on its own and runs the others (most do; Claude Code does not)."""
    if not setup_of(platform).facts.invalid_entry_drops_event:
        return []
    prefix = f"hooks.{event}"
    return [p for p in validate_settings(data, platform) if p.severity == ERROR and (
        p.path == prefix or p.path.startswith(prefix + "[")
        or p.path == "hooks" or not p.path.startswith("hooks."))]
