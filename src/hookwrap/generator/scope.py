"""Where a command works: a project (its hookwrap.toml, at the repo's root) or the user (one
hookwrap.toml for every repo on this machine: `hookwrap --user ...`).

A scope names three places: the folder holding the manifest and everything hookwrap writes
beside it (``.hookwrap/``: the runtime, the hook scripts), each CLI's registration file, and
the command a registration runs. In a project the folder is the repo's root and each file sits
inside it (``.claude/settings.json``); at user scope the folder is the user's config folder
(``$XDG_CONFIG_HOME/hookwrap``, ``~/Library/Application Support/hookwrap`` on macOS,
``%APPDATA%\\hookwrap`` on Windows) and each file is the CLI's own user-level one
(``~/.claude/settings.json``): the only places outside a project hookwrap writes to.

The scope in force is set once per command (``using``) and read where a path or a command is
made (``current``), so the functions that plan a project's files serve both scopes unchanged.
Which file a scope gives each CLI is scopefiles.py's (it asks the CLIs' records, which ask this
module for the scope).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

# Beside the user's manifest: what each CLI's user file held before hookwrap first wrote it,
# so that removing the last user hook gives that file back byte for byte.
ORIGINALS_DIR = ".hookwrap/originals"
# The launcher's last argument in a user-scope command: run the hook only when the project the
# CLI works in registers no hook of the same name on that CLI (launcher.py, project_wins).
USER_FLAG = "--user"


@dataclass(frozen=True)
class Scope:
    """A project (``user`` False: paths relative to the project's root) or the user scope."""

    user: bool = False
    home: Path = field(default_factory=Path.home)
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))

    @property
    def label(self) -> str:
        return "user" if self.user else "project"


def user_root(env: Mapping[str, str] | None = None, home: Path | None = None,
              system: str = sys.platform) -> Path:
    """The user scope's folder: the platform's config folder, then ``hookwrap``."""
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    if system == "win32":
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    elif system == "darwin":
        base = home / "Library" / "Application Support"
    else:  # XDG: an unset, empty or relative XDG_CONFIG_HOME is ignored (the spec says so)
        value = env.get("XDG_CONFIG_HOME", "")
        base = Path(value) if os.path.isabs(value) else home / ".config"
    return base / "hookwrap"


PROJECT = Scope()
_CURRENT: ContextVar[Scope] = ContextVar("hookwrap_scope", default=PROJECT)


def current() -> Scope:
    """The scope of the command running (a project unless ``using`` says otherwise)."""
    return _CURRENT.get()


def set_current(scope: Scope) -> None:
    """Put ``scope`` in force (the CLI's root callback, inside ``using``, which undoes it)."""
    _CURRENT.set(scope)


@contextlib.contextmanager
def using(scope: Scope) -> Iterator[Scope]:
    token = _CURRENT.set(scope)
    try:
        yield scope
    finally:
        _CURRENT.reset(token)
