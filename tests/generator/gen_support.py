"""Old home of ``hookwrap(*args, cwd=...)``, kept for branches that still import it: use
``support.cli.hw_module``."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.cli import hw_module


def hookwrap(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m hookwrap ARGS` in ``cwd``, output captured as text."""
    return hw_module(cwd, *args)
