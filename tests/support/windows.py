"""A fake Windows machine for the interpreter probe: Windows paths (``C:\\...``) backed by real
files under a folder, so a zero-length ``WindowsApps\\python3.exe`` is a real empty file and
each stand-in interpreter a real script that prints a version."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

STORE = r"C:\Users\Ann Lee\AppData\Local\Microsoft\WindowsApps"
PYORG = r"C:\Users\Ann Lee\AppData\Local\Programs\Python\Python312"
OLD = r"C:\Python38"
SYSTEM = r"C:\Windows"


class FakeWindows:
    """Windows paths backed by files under ``base``."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.ran: list[list[str]] = []

    def real(self, win: str) -> Path:
        drive, rest = win.split(":", 1)
        return self.base / drive / rest.replace("\\", "/").lstrip("/")

    def empty(self, win: str) -> None:
        path = self.real(win)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")

    def interpreter(self, win: str, major: int, minor: int) -> None:
        path = self.real(win)
        path.parent.mkdir(parents=True, exist_ok=True)
        # A stand-in that answers the probe's version question as that Python would.
        path.write_text(f"#!/bin/sh\necho {major} {minor}\n")
        path.chmod(0o755)

    def size_of(self, win: str) -> int | None:
        path = self.real(win)
        return path.stat().st_size if path.is_file() else None

    def run(self, argv: Sequence[str]) -> str | None:
        self.ran.append(list(argv))
        real = self.real(argv[0])
        if real.stat().st_size == 0:  # the Store stub: no output, exit 49
            return None
        done = subprocess.run([str(real), *argv[1:]], capture_output=True, text=True,
                              check=False)
        return done.stdout if done.returncode == 0 else None


def windows_env(*folders: str) -> dict[str, str]:
    """An environment whose PATH (spelt Path, as Windows does) holds ``folders``."""
    return {"Path": ";".join(folders), "PATHEXT": ".COM;.EXE;.BAT;.CMD;.PY"}


def stock_windows(base: Path) -> FakeWindows:
    """A machine with only the Store's python.exe and python3.exe aliases."""
    machine = FakeWindows(base)
    machine.empty(STORE + r"\python3.exe")
    machine.empty(STORE + r"\python.exe")
    return machine
