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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import all_clis, cli
from .errors import SettingsError
from .platforms import Platform

TRUST_HINT = "fix the file by hand (or move it away), then run `hookwrap trust` again"


@dataclass(frozen=True)
class TrustEntry:
    """One value a CLI needs: ``keys`` is its path of tables (the last one names the value),
    ``what`` says what it trusts ("the project", "hook guard (PreToolUse)")."""

    keys: tuple[str, ...]
    value: Any
    what: str
    hook: str = ""  # the hook's name; "" for the project


@dataclass(frozen=True)
class TrustChange:
    """What trusting does to one entry: action is create, update or unchanged."""

    action: str
    entry: TrustEntry
    shown: str  # the entry as the file spells it: [projects."/p"] trust_level = "trusted"


@dataclass(frozen=True)
class TrustEdit:
    """One file a CLI keeps its trust in, and what `hookwrap trust` would change there."""

    platform: Platform
    path: Path
    label: str
    new_text: str | None
    changes: list[TrustChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def pending(self) -> list[TrustChange]:
        """The changes that write something."""
        return [c for c in self.changes if c.action != "unchanged"]


def _quote(key: str) -> str:
    import json

    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key, ensure_ascii=False)


def show_entry(entry: TrustEntry) -> str:
    """``[projects."/p"] trust_level = "trusted"``: where the value sits and what it is."""
    import json

    table = ".".join(_quote(k) for k in entry.keys[:-1])
    return f"[{table}] {_quote(entry.keys[-1])} = {json.dumps(entry.value, ensure_ascii=False)}"


def set_toml_values(text: str | None, entries: list[TrustEntry], *,
                    label: str) -> tuple[str, list[TrustChange]]:
    """Set every entry in TOML ``text`` (None: no file yet); returns the new text and changes.

    Pure: nothing is written. Missing tables are created as ``[a."b"]`` headers; every other
    key, table, comment and blank line stays as it was.

    Raises:
        SettingsError: the text is not TOML, or a table on an entry's path is another value.
    """
    import tomlkit
    from tomlkit.exceptions import ParseError

    if text and text.startswith("\ufeff"):
        raise SettingsError(f"{label}: starts with a UTF-8 byte order mark (BOM)", hint=TRUST_HINT)
    try:
        document = tomlkit.parse(text or "")
    except ParseError as error:
        raise SettingsError(f"{label}: line {error.line}, column {error.col}: not valid TOML",
                            hint=TRUST_HINT) from None
    changes = []
    for entry in entries:
        table = document
        for depth, key in enumerate(entry.keys[:-1]):
            if key not in table:
                table.add(key, tomlkit.table(is_super_table=depth < len(entry.keys) - 2))
            table = table[key]
            if not isinstance(table, dict):
                where = ".".join(_quote(k) for k in entry.keys[:depth + 1])
                raise SettingsError(f"{label}: {where} is not a table", hint=TRUST_HINT)
        last = entry.keys[-1]
        current = table.get(last) if last in table else None
        action = "unchanged" if last in table and _plain(current) == entry.value else (
            "update" if last in table else "create")
        if action != "unchanged":
            table[last] = entry.value
        changes.append(TrustChange(action, entry, show_entry(entry)))
    return tomlkit.dumps(document), changes


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def trust_plan(root: Path, platforms: list[Platform] | None = None, *, home: Path | None = None,
               env: Mapping[str, str] | None = None) -> list[TrustEdit]:
    """What `hookwrap trust` would write for each CLI (every CLI when ``platforms`` is None)."""
    env = dict(os.environ if env is None else env)
    home = Path(home) if home is not None else Path.home()
    agents = [cli(p) for p in platforms] if platforms else all_clis()
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
    agent = cli(platform)
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
