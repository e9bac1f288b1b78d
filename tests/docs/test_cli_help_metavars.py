"""docs/cli.md shows the usage lines and option metavars that `hookwrap CMD --help` prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COMMANDS = ["", "init", "add", "remove", "list", "sync", "templates", "test", "doctor"]


def _help(command: str) -> str:
    args = [sys.executable, "-m", "hookwrap", *([command] if command else []), "--help"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60,
                          env={"COLUMNS": "200", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _section(page: str, command: str) -> str:
    title = f"## `hookwrap{' ' + command if command else ''}`\n"
    start = page.index(title)
    end = page.find("\n## `", start + len(title))
    return page[start:] if end < 0 else page[start:end]


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_page_matches_help(command: str) -> None:
    section = _section((REPO / "docs" / "cli.md").read_text(encoding="utf-8"), command)
    text = _help(command)
    usage = text.splitlines()[0].removeprefix("Usage: ")
    assert f"```\n{usage}\n```" in section
    for line in text.splitlines():
        match = re.match(r"\s+((?:-{1,2}[\w-]+(?:, )?)+)\s+(<[^>]+>|[A-Z]+)\s", line)
        if match:
            first = match.group(1).split(", ")[0]
            metavar = match.group(2).replace("|", "\\|")
            row = next(r for r in section.splitlines() if f"`{first}`" in r)
            assert f"| `{metavar}` |" in row, (line, row)
