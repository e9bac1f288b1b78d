"""Old home of the safety-test helpers, kept for branches that still import it: use
``support.cli`` and ``support.projects``."""

from __future__ import annotations

from pathlib import Path

from support.cli import CLAUDE, GEMINI, Result, hw_module, strict_json  # noqa: F401
from support.cli import hw as _hw
from support.projects import init_project  # noqa: F401

hw_process = hw_module


def hw(root: Path, *args: str) -> Result:
    """``hookwrap -C root ARGS`` in-process, streams captured (bad bytes replaced)."""
    return _hw(root, *args, errors="replace")
