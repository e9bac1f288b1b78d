"""Plan, then apply: the list of file changes a command would make, and applying it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import fsutil

ACTIONS = ("create", "update", "remove", "unchanged", "conflict")


@dataclass
class FileChange:
    """One file a command creates, rewrites, removes or leaves alone.

    ``data`` holds the new bytes for create/update; ``detail`` says why, one line each.
    """

    rel: str
    action: str
    data: bytes | None = None
    detail: list[str] = field(default_factory=list)


@dataclass
class Plan:
    """Everything a command would do to the project, computed before anything is written."""

    root: Path
    changes: list[FileChange] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, rel: str, new: bytes | None, *, detail: list[str] | None = None) -> FileChange:
        """Record that ``rel`` should hold ``new`` (None = should not exist); the action follows."""
        path = self.root / rel
        old = path.read_bytes() if path.is_file() else None
        if new is None:
            action = "remove" if old is not None else "unchanged"
        elif old is None:
            action = "create"
        else:
            action = "unchanged" if old == new else "update"
        change = FileChange(rel, action, new, list(detail or []))
        self.changes.append(change)
        return change

    @property
    def pending(self) -> list[FileChange]:
        """The changes that would write or remove something."""
        return [c for c in self.changes if c.action in ("create", "update", "remove")]

    def apply(self) -> None:
        """Write every pending change: atomic writes, removals last."""
        for change in self.pending:
            if change.action != "remove":
                fsutil.atomic_write(self.root / change.rel, change.data or b"")
        for change in self.pending:
            if change.action == "remove":
                fsutil.remove_file(self.root / change.rel)
