"""`hookwrap trust`: record the project's trust where a CLI would otherwise skip its hooks silently.

Each CLI's setup module says what it needs (``AgentSetup.trust_edits``: the entries of which file);
this module holds the generic parts: the shapes of a plan, a pure editor of TOML files built
like ``settings.reconcile`` (text in, new text and the list of changes out, nothing written,
every other line kept), and applying a plan through the atomic writer. Only the entries a plan
names are ever touched.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ..names import Platform
from .clis import all_setups, setup_of
from .clis.kit import TrustEdit
from .errors import SettingsError


def trust_plan(root: Path, platforms: list[Platform] | None = None, *, home: Path | None = None,
               env: Mapping[str, str] | None = None) -> list[TrustEdit]:
    """What `hookwrap trust` would write for each CLI (every CLI when ``platforms`` is None)."""
    env = dict(os.environ if env is None else env)
    home = Path(home) if home is not None else Path.home()
    agents = [setup_of(p) for p in platforms] if platforms else all_setups()
    return [edit for agent in agents for edit in agent.trust_edits(root, home, env)]


def apply_trust(edits: list[TrustEdit]) -> None:
    """Write every edit that changes its file (atomic write: temp file, fsync, rename)."""
    from .fsutil import atomic_write

    for edit in edits:
        if edit.pending and edit.new_text is not None:
            atomic_write(edit.path, edit.new_text.encode("utf-8"))


def untrusted_note(platform: Platform, root: Path, settings_text: str | None) -> str | None:
    """A note for `sync` and `add` when the settings they are writing leave a hook untrusted
    (new, or changed: any edit of a command, matcher or timeout untrusts it again)."""
    agent = setup_of(platform)
    if settings_text is None:
        return None
    try:
        edits = agent.trust_edits(root, Path.home(), dict(os.environ), settings_text)
    except SettingsError:
        return None  # doctor and `hookwrap trust` report a broken file
    hooks = [c.entry.hook for e in edits for c in e.pending if c.entry.hook]
    project = any(not c.entry.hook for e in edits for c in e.pending)
    if not hooks and not project:
        return None
    what = ", ".join(dict.fromkeys(hooks)) if hooks else "its hooks"
    return (f"{agent.label} skips {what} without a word until you run "
            f"`hookwrap trust --platform {platform.value}`")
