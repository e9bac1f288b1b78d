"""For the trust tests: a project with a hook on every CLI, and each CLI's trust file under HOME."""

from __future__ import annotations

import subprocess
from functools import partial
from pathlib import Path

from hookwrap.console.app import main

from .cli import Result, hw  # noqa: F401  (the trust tests import them from here)
from .projects import copied

ALL_CLIS = ("claude", "gemini", "codex", "qwen", "copilot", "opencode", "droid", "kilo")
# Each CLI's trust file under HOME (no CODEX_HOME, GEMINI_CLI_HOME = HOME, no overrides).
TRUST_FILES = {
    "codex": ".codex/config.toml",
    "copilot": ".copilot/config.json",
    "gemini": ".gemini/trustedFolders.json",
    "qwen": ".qwen/trustedFolders.json",
}


def hookwrap(root: Path, *args: str) -> int:
    """``hookwrap -C root ARGS`` in this process; its exit code (output goes to pytest's capture)."""
    return main(["-C", str(root), *args])


def make_project(root: Path, clis: tuple[str, ...] = ALL_CLIS, *, git: bool = True) -> Path:
    """A git repository (``git``) at ``root`` with hookwrap set up for ``clis`` and one guard hook.

    A git repository made in a new or empty ``root`` is a copy of one template per ``clis``; in a
    folder of another repository (``git=False``) the commands run there."""
    if git and not (root.exists() and any(root.iterdir())):
        return copied(root, ("trust-project", clis), partial(_make_project, clis=clis, git=True))
    root.mkdir(parents=True, exist_ok=True)
    _make_project(root, clis, git=git)
    return root


def _make_project(root: Path, clis: tuple[str, ...], *, git: bool) -> None:
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert hookwrap(root, "init", *(a for cli in clis for a in ("--platform", cli))) == 0
    assert hookwrap(root, "add", "before_tool", "guard") == 0


def qwen_folder_trust_on(home: Path) -> None:
    """Turn Qwen Code's folder trust on (it is off by default) in the user's settings."""
    (home / ".qwen").mkdir(exist_ok=True)
    (home / ".qwen" / "settings.json").write_text('{"security": {"folderTrust": {"enabled": true}}}\n')


def snapshot(*roots: Path) -> dict[str, tuple[str, bytes | str, int]]:
    """Every entry under ``roots``: (kind, bytes or link target, mode)."""
    import os
    import stat

    found: dict[str, tuple[str, bytes | str, int]] = {}
    for top in roots:
        for path in [top, *top.rglob("*")]:
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[str(path)] = ("link", os.readlink(path), 0)
            elif stat.S_ISDIR(info.st_mode):
                found[str(path)] = ("dir", "", stat.S_IMODE(info.st_mode))
            else:
                found[str(path)] = ("file", path.read_bytes(), stat.S_IMODE(info.st_mode))
    return found
