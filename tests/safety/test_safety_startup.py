"""A hook that cannot start (syntax error, missing runtime, interpreter missing) fails `sync
--check` and `doctor`, so CI and pre-commit catch it before any CLI silently does; an interpreter
below the floor fails `doctor` (sync never runs the interpreter the manifest names)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from support.cli import hw
from support.projects import init_project


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    assert hw(root, "sync", "--check").code == 0
    return root


def _doctor_fails(root: Path, text: str) -> None:
    result = hw(root, "doctor")
    assert result.code == 1
    assert any(line.startswith("fail startup:") and text in line or
               line.startswith("fail python:") and text in line
               for line in result.out.splitlines()), result.out


@pytest.mark.parametrize("source, text", [
    ("def hook(:\n", "line 1"),
    ("match x:\n    case 1:\n        pass\n", "line 3: Pattern matching is only supported"),  # 3.10+
])
def test_a_script_that_does_not_compile(root: Path, source: str, text: str) -> None:
    script = root / ".hookwrap/hooks/guard.py"
    script.write_text(source)
    check = hw(root, "sync", "--check")
    assert check.code == 1
    assert f"problem: .hookwrap/hooks/guard.py: {text}" in check.err
    assert "the hook cannot start" in check.err
    _doctor_fails(root, ".hookwrap/hooks/guard.py")
    assert script.read_text() == source  # the user's file: reported, never rewritten


def test_a_statement_only_the_compiler_refuses(root: Path) -> None:
    """A script the parser takes but the compiler does not (`return` outside a function) is
    found in hookwrap's own process, named by file and line like a syntax error."""
    script = root / ".hookwrap/hooks/guard.py"
    script.write_text("import sys\nreturn 1\n")
    check = hw(root, "sync", "--check")
    assert check.code == 1
    assert "problem: .hookwrap/hooks/guard.py: line 2: 'return' outside function: the hook " \
        "cannot start" in check.err, check.err


def test_sync_and_add_never_run_the_interpreter_the_manifest_names(root: Path, tmp_path: Path) -> None:
    """`python` is the repo's to choose (a path into the repo, `uv run python`): sync, sync
    --check and add check the scripts in their own process and only look the interpreter up."""
    ran = tmp_path / "ran"
    fake = tmp_path / "bin" / "python3"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\necho \"$@\" >> '{ran}'\necho 3.11\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('# python = "python3"', f'python = "{fake}"'))
    assert hw(root, "sync").code == 0
    assert hw(root, "sync", "--check").code == 0
    assert hw(root, "add", "after_tool", "audit").code == 0
    assert not ran.exists(), ran.read_text()


def test_a_missing_runtime(root: Path) -> None:
    import shutil

    shutil.rmtree(root / ".hookwrap/lib")
    assert hw(root, "sync", "--check").code == 1
    _doctor_fails(root, "the runtime is missing")


def test_an_interpreter_below_the_floor(root: Path, tmp_path: Path) -> None:
    old = tmp_path / "bin" / "python3.8"
    old.parent.mkdir()
    old.write_text("#!/bin/sh\necho 3.8\n")
    old.chmod(old.stat().st_mode | stat.S_IXUSR)
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('# python = "python3"', f'python = "{old}"'))
    # The commands now name it. sync runs no interpreter the repo names, so it cannot know
    # the version (test_sync_and_add_never_run_the_interpreter_the_manifest_names): doctor says.
    synced = hw(root, "sync")
    assert synced.code == 0 and str(old) in (root / ".claude/settings.json").read_text()
    assert hw(root, "sync", "--check").code == 0
    env_path = os.environ["PATH"]
    try:
        os.environ["PATH"] = f"{old.parent}:{env_path}"
        _doctor_fails(root, "is Python 3.8")
    finally:
        os.environ["PATH"] = env_path


def test_an_interpreter_that_is_not_there(root: Path) -> None:
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('# python = "python3"',
                                                     'python = "python3-not-installed"'))
    check = hw(root, "sync", "--check")
    assert check.code == 1 and "python3-not-installed is not on PATH" in check.err
