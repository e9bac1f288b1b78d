"""Helpers for the safety tests: run the CLI in a temp project, read JSON strictly."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from hookwrap.console.app import main

CLAUDE = ".claude/settings.json"
GEMINI = ".gemini/settings.json"


@dataclass
class Result:
    code: int
    out: str
    err: str


def hw(root: Path, *args: str) -> Result:
    """``hookwrap -C root ARGS`` in-process, streams captured."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _mixed):
        code = main(["-C", str(root), *args])
        return Result(code, out.getvalue().decode(errors="replace"),
                      err.getvalue().decode(errors="replace"))


def hw_process(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m hookwrap ARGS`` in a subprocess started in ``root``."""
    return subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=root,
                          capture_output=True, text=True, timeout=120)


def _refuse(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def strict_json(data: bytes) -> Any:
    """Parse bytes as RFC 8259 JSON: UTF-8, no NaN/Infinity (what the CLIs' JSON.parse takes)."""
    return json.loads(data.decode("utf-8"), parse_constant=_refuse)


def init_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    result = hw(root, "init")
    assert result.code == 0, result.err
    return root
