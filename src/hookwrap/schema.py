"""Settings-file validation: the value checks, and the walk over a `hooks` object.

What each CLI accepts is its module's business (``hookwrap/clis/<platform>.py``: its events,
its handler keys, what voids a file); this module holds the checks they are built from and the
generic walk. Each check returns `Problem`s instead of raising, so `doctor` can list them all and
the writer can refuse an entry it is about to write. Severity "error" means the CLI drops the
entry, event or file (or the hook can never run); "warning" means it loads but something is
ignored or odd.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard
from urllib.parse import urlparse

from .agents import cli
from .platforms import Platform

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One finding: where (`hooks.PreToolUse[2].hooks[0].timeout`), what, and how bad."""

    path: str
    message: str
    severity: str = ERROR

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def errors_only(problems: list[Problem]) -> list[Problem]:
    """The problems that make a CLI drop something."""
    return [problem for problem in problems if problem.severity == ERROR]


# --- value checks: each returns a message, or None when the value is fine --------------------

Check = Callable[[Any], "str | None"]


def is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def string(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a string"


def nonempty_string(value: Any) -> str | None:
    return None if isinstance(value, str) and value.strip() else "must be a non-empty string"


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def positive_number(value: Any) -> str | None:
    return None if is_number(value) and value > 0 else "must be a positive number"


def string_list(value: Any) -> str | None:
    ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
    return None if ok else "must be a list of strings"


def string_map(value: Any) -> str | None:
    ok = isinstance(value, dict) and all(isinstance(item, str) for item in value.values())
    return None if ok else "must be an object of strings"


def object_(value: Any) -> str | None:
    return None if isinstance(value, dict) else "must be an object"


def url(value: Any) -> str | None:
    parsed = urlparse(value) if isinstance(value, str) else None
    ok = parsed is not None and parsed.scheme in ("http", "https") and bool(parsed.netloc)
    return None if ok else "must be an http(s) URL"


def one_of(*choices: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in choices else "must be one of " + ", ".join(map(repr, choices))

    return check


def check_keys(handler: dict, spec: dict[str, Check], required: tuple[str, ...],
                path: str, severity: str) -> list[Problem]:
    problems = [Problem(f"{path}.{key}", "is required", severity)
                for key in required if key not in handler]
    for key, value in handler.items():
        check = spec.get(key)
        if check is None:
            continue
        message = check(value)
        if message:
            problems.append(Problem(f"{path}.{key}", message, severity))
    return problems


def unknown_keys(obj: dict, known: frozenset[str] | set[str], path: str, label: str) -> list[Problem]:
    return [Problem(f"{path}.{key}", f"unknown key; {label} ignores it", WARNING)
            for key in obj if key not in known]


# --- entry points -----------------------------------------------------------------------------

def validate_handler(handler: Any, platform: Platform | str, event: str, *, path: str) -> list[Problem]:
    """Check one handler (`{"type": "command", ...}`) as it would sit under `event`."""
    return cli(platform).validate_handler(handler, event, path)


def validate_group(group: Any, platform: Platform | str, event: str, *, path: str) -> list[Problem]:
    """Check one matcher group (`{"matcher": ..., "hooks": [...]}`) under `event`."""
    return cli(platform).validate_group(group, event, path)


def known_events(platform: Platform | str) -> tuple[str, ...]:
    """The event names the platform's settings accept."""
    return cli(platform).known_settings_events


def validate_event(event: str, groups: Any, platform: Platform | str, *,
                   path: str = "hooks") -> list[Problem]:
    """Check the value of one event key under `hooks`."""
    where = f"{path}.{event}"
    unread = cli(platform).validate_event(event, groups, where)
    if unread is not None:
        return unread
    if not isinstance(groups, list):
        return [Problem(where, "must be a list of matcher groups")]
    problems: list[Problem] = []
    for index, group in enumerate(groups):
        problems += validate_group(group, platform, event, path=f"{where}[{index}]")
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
    problems = cli(platform).validate_file(data)
    if "hooks" in data:
        problems += validate_hooks(data["hooks"], platform)
    return problems


def dropping_errors(data: Any, platform: Platform | str, event: str) -> list[Problem]:
    """Errors that make the CLI drop every hook of ``event`` in this file: an invalid entry of
    that event, or a file-level error that voids the whole file. [] for a CLI that skips an
    invalid entry on its own and runs the others (most do; Claude Code does not)."""
    if not cli(platform).invalid_entry_drops_event:
        return []
    prefix = f"hooks.{event}"
    return [p for p in validate_settings(data, platform) if p.severity == ERROR and (
        p.path == prefix or p.path.startswith(prefix + "[")
        or p.path == "hooks" or not p.path.startswith("hooks."))]
