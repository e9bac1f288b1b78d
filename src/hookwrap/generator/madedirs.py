"""The folders hookwrap made outside the scope's own folder (at user scope: ``~/.codex/`` when
``hookwrap --user init`` wrote the first ``~/.codex/hooks.json``), so that removing the file
again removes them too, and never a folder hookwrap did not make.

The record is a JSON list of absolute paths in ``.hookwrap/made-folders.json`` beside the user
manifest. A folder goes only when it is a real folder (a symlink is never followed or removed)
and empty (``os.rmdir`` refuses anything else: a file the user put there since keeps it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from . import fsutil

RECORD = ".hookwrap/made-folders.json"


def missing(paths: Iterable[Path]) -> list[str]:
    """The folders that writing ``paths`` will make: each path's missing parents."""
    made: list[str] = []
    for path in paths:
        folder = path.parent
        while not folder.exists() and not folder.is_symlink() and folder.parent != folder:
            if str(folder) not in made:
                made.append(str(folder))
            folder = folder.parent
    return made


def _read(root: Path) -> list[str]:
    try:
        data = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [item for item in data if isinstance(item, str)] if isinstance(data, list) else []


def _write(root: Path, folders: list[str]) -> None:
    path = root / RECORD
    if not folders:
        fsutil.remove_file(path)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fsutil.atomic_write(path, (json.dumps(folders, indent=2) + "\n").encode())


def record(root: Path, folders: list[str]) -> None:
    """Note ``folders`` (made by a write just done) in the record."""
    if folders:
        known = _read(root)
        _write(root, known + [f for f in folders if f not in known])


def remove_emptied(root: Path, removed: Iterable[Path]) -> None:
    """After ``removed`` files went: each recorded folder above them, deepest first, that is an
    empty real folder; the record keeps the others."""
    known = _read(root)
    if not known:
        return
    gone = {str(folder) for path in removed
            for folder in fsutil.remove_empty_dirs(path.parent, path.parent, lambda f: str(f) in known)}
    left = [folder for folder in known if folder not in gone]
    if left != known:
        _write(root, left)
