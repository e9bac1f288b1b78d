"""Helpers of the trust tests: a project with a hook on every CLI, in a throwaway HOME."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from hookwrap.console.app import main

ALL_CLIS = ("claude", "gemini", "codex", "qwen", "copilot", "opencode", "droid")
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


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def out_lines(self) -> list[str]:
        return self.out.splitlines()


def hw(root: Path, *args: str) -> Result:
    """``hookwrap -C root ARGS`` in this process, its output captured."""
    with CliRunner().isolation() as (out, err, _mixed):
        code = main(["-C", str(root), *args])
        return Result(code, out.getvalue().decode(), err.getvalue().decode())


def make_project(root: Path, clis: tuple[str, ...] = ALL_CLIS, *, git: bool = True) -> Path:
    """A git repository (``git``) at ``root`` with hookwrap set up for ``clis`` and one guard hook."""
    root.mkdir(parents=True, exist_ok=True)
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert hookwrap(root, "init", *(a for cli in clis for a in ("--platform", cli))) == 0
    assert hookwrap(root, "add", "before_tool", "guard") == 0
    return root


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
