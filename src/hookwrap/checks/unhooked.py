"""Doctor's check of shell commands a CLI runs from the project's own files without calling any
hook (Gemini CLI's `!{...}` in a custom command): no guard can stop them, so doctor names them.

The facts are each CLI record's ``unhooked_shell``; docs/guard.md has the whole table, with the
paths no file shows (a user's `!cmd` in the prompt).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ..generator.clis import all_setups
from ..generator.clis.kit import WARN, Finding
from ..names import Platform

FIX = ("the guard cannot stop these commands: review them, or let the model run them as a tool "
       "call, which the guard sees (docs/guard.md lists every such path)")


def check_unhooked_shell(root: Path, platforms: Iterable[Platform] | None) -> list[Finding]:
    """One warning per file of the project that makes one of ``platforms`` (every CLI when
    None) run a shell command no hook sees; nothing when there is none."""
    wanted = None if platforms is None else set(platforms)
    found = []
    for agent in all_setups():
        if wanted is not None and agent.platform not in wanted:
            continue
        for pattern, marker, what in agent.unhooked_shell:
            for path in _holding(root, pattern, marker):
                rel = path.relative_to(root).as_posix()
                found.append(Finding("unhooked-shell", WARN,
                                     f"{rel}: {agent.label} {agent.version} {what}", FIX))
    return found


def _holding(root: Path, pattern: str, marker: str) -> list[Path]:
    """The files under ``root`` matching ``pattern`` whose text holds ``marker``."""
    out = []
    for path in sorted(set(root.glob(pattern))):  # a pattern with ** may yield a file twice
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if re.search(marker, text):
            out.append(path)
    return out
