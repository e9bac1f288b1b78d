"""Running the real `python -m hookwrap` entry point in a project, for the generator tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def hookwrap(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m hookwrap ARGS` in ``cwd``, output captured as text."""
    return subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
