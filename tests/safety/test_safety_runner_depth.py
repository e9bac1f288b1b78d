"""A hook run by hand (no --platform) on deeply nested input still prints one JSON document."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import hw
from support.projects import init_project


@pytest.mark.parametrize("stdin", ["[" * 100_000, '{"a":' * 100_000, "[" * 100_000 + "]" * 100_000])
def test_deep_input_without_platform_gives_one_json_document(tmp_path: Path, stdin: str) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    done = subprocess.run([sys.executable, "-I", str(root / ".hookwrap/hooks/guard.py")],
                          input=stdin, capture_output=True, text=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1, done.stdout
    assert isinstance(json.loads(done.stdout), dict)
    assert "Traceback" not in done.stderr
