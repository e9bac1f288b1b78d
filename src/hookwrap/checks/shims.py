"""Is the `python3` the CLIs run a version manager's shim, and what does it cost per hook call?

pyenv, asdf, mise (formerly rtx) and others put a `shims` folder on PATH whose `python3` is not
an interpreter but a program that works out which one to run and then runs it: a bash script
(pyenv, asdf) or the manager's own binary (mise). Every hook call pays that on top of the
interpreter's start-up; under pyenv about 50 ms, more than the interpreter itself.

The fix is per machine, never in a shared file: the manifest's `python` and the CLIs' project
settings are committed, and an interpreter's path is one machine's. So the advice is PATH order
(the interpreter's own folder before the shims, where the CLI is started) or the manager's
PATH-based mode (`mise activate`), which puts real folders on PATH instead of shims.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# The managers whose shims we know, by the words that give them away: a folder name in the
# shim's path, or the program a shim script or symlink hands over to.
MANAGERS = ("pyenv", "asdf", "mise", "rtx", "pyenv-win", "anyenv", "nodenv")
_FIX = {
    "mise": "use `mise activate` (PATH mode) in your shell profile instead of mise's shims",
    "rtx": "use `rtx activate` (PATH mode) in your shell profile instead of rtx's shims",
}


@dataclass(frozen=True)
class Shim:
    """A `python3` on PATH that is a version manager's shim, and what it resolves to."""

    manager: str
    path: str  # the shim, as PATH finds it
    target: str  # the interpreter it runs (sys.executable), "" if it did not say
    shim_ms: float = 0.0  # median wall time of `<shim> -c pass`
    target_ms: float = 0.0  # median wall time of `<target> -c pass`, same rounds
    shim_cpu_ms: float = 0.0  # median CPU time (user + sys, the shim and its children)
    target_cpu_ms: float = 0.0

    @property
    def cost_ms(self) -> float:
        return self.shim_ms - self.target_ms

    def advice(self) -> str:
        """How to avoid the shim on this machine, without writing a path into a shared file."""
        folder = os.path.dirname(self.target) if self.target else "<the interpreter's folder>"
        generic = (f"put {folder} before {os.path.dirname(self.path)} on PATH where you start the "
                   f"CLI (your shell profile: export PATH=\"{folder}:$PATH\")")
        special = _FIX.get(self.manager)
        head = f"{special}, or {generic}" if special else generic
        return (f"{head}; not in hookwrap.toml's `python` nor in the CLIs' project settings, "
                "which are shared: the path is this machine's")


def _manager_of(path: str) -> str:
    """The manager a `python3` at ``path`` belongs to, or "" when it looks like an interpreter."""
    parts = Path(path).parts
    real = os.path.realpath(path)
    name = os.path.basename(real)
    if name in MANAGERS:  # mise's shims are symlinks to the mise binary
        return name
    in_shims = len(parts) >= 2 and parts[-2] == "shims"
    try:
        with open(real, "rb") as file:
            head = file.read(4096)
    except OSError:
        return ""
    if head.startswith(b"#!"):  # a script: an interpreter is a binary
        text = head.decode("utf-8", "replace")
        found = [m for m in MANAGERS if m in text or f"/.{m}/" in path or f"/{m}/" in path]
        if found:
            return found[0]
        if in_shims:
            return "a version manager"
    elif in_shims:
        found = [m for m in MANAGERS if f"/.{m}/" in path or f"/{m}/" in path]
        return found[0] if found else "a version manager"
    return ""


def find_shim(python: str, env: Mapping[str, str] | None = None) -> Shim | None:
    """The shim ``python`` (a command word such as `python3`) resolves to on PATH, else None."""
    path = shutil.which(python, path=(env or os.environ).get("PATH"))
    if path is None:
        return None
    manager = _manager_of(path)
    if not manager:
        return None
    return Shim(manager, path, _target(path, env))


def _target(shim: str, env: Mapping[str, str] | None) -> str:
    try:
        done = subprocess.run([shim, "-c", "import sys; print(sys.executable)"], capture_output=True,
                              text=True, timeout=30, env=dict(env) if env is not None else None,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    target = done.stdout.strip()
    return target if done.returncode == 0 and os.path.isfile(target) else ""


def measure(shim: Shim, env: Mapping[str, str] | None = None, runs: int = 5) -> Shim:
    """``shim`` with the medians of ``runs`` alternated starts of the shim and of its target."""
    if not shim.target:
        return shim
    samples: dict[str, list[tuple[float, float]]] = {shim.path: [], shim.target: []}
    environ = dict(env) if env is not None else None
    for _ in range(runs):
        for argv0, taken in samples.items():
            before = _children_cpu()
            start = time.perf_counter()
            subprocess.run([argv0, "-c", "pass"], capture_output=True, timeout=30, env=environ, check=False)
            wall = (time.perf_counter() - start) * 1000
            taken.append((wall, _children_cpu() - before))

    def med(argv0: str, i: int) -> float:
        return statistics.median(s[i] for s in samples[argv0])

    return Shim(shim.manager, shim.path, shim.target, med(shim.path, 0), med(shim.target, 0),
                med(shim.path, 1), med(shim.target, 1))


def _children_cpu() -> float:
    """User + system CPU ms of this process's finished children (0 where not measurable)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (used.ru_utime + used.ru_stime) * 1000
