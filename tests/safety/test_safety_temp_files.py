"""Temp files a killed hookwrap left behind are recognisable and swept by the next write."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from support.cli import CLAUDE, hw, hw_module as hw_process
from support.projects import init_project

from hookwrap.generator import fsutil

DEAD_PID = 2**22 + 12345  # above Linux's largest pid_max: no process has it
HOUR_AGO = time.time() - 3600


def _temp(directory: Path, target: str, pid: int, *, mtime: float | None = None) -> Path:
    tag = "old_1234" if mtime is not None else "k3x9q2ab"
    path = directory / f".{target}.hookwrap-{pid}-{tag}.tmp"
    path.write_bytes(b"x" * 4096)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_temp_names_say_whose_they_are(tmp_path: Path) -> None:
    staged = fsutil.stage_write(tmp_path / "settings.json", b"{}\n")
    try:
        assert re.fullmatch(rf"\.settings\.json\.hookwrap-{os.getpid()}-\w+\.tmp", staged.temp.name)
    finally:
        fsutil.discard_staged([staged])


def test_a_write_sweeps_stale_temp_files_of_its_directory(tmp_path: Path) -> None:
    dead = _temp(tmp_path, "a.json", DEAD_PID)
    old = _temp(tmp_path, "a.json", os.getppid(), mtime=HOUR_AGO)
    live = _temp(tmp_path, "b.json", os.getppid())
    foreign = tmp_path / ".a.json.k3x9q2ab.tmp"
    foreign.write_bytes(b"not ours")
    fsutil.atomic_write(tmp_path / "a.json", b"{}\n")
    assert not dead.exists() and not old.exists()
    assert live.exists() and foreign.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["a.json", live.name, foreign.name])


@pytest.mark.parametrize("folder, target", [(".claude", "settings.json"),
                                            (".hookwrap/lib/hookwrap", "runner.py"),
                                            (".", "hookwrap.toml")])
def test_sync_removes_what_a_killed_sync_left(tmp_path: Path, folder: str, target: str) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    directory = root / folder
    dead = _temp(directory, target, DEAD_PID)
    old = _temp(directory, target, os.getpid(), mtime=HOUR_AGO)
    live = _temp(directory, target, os.getpid())
    result = hw_process(root, "sync")
    assert result.returncode == 0, result.stderr
    assert "nothing to change" in result.stdout
    assert not dead.exists() and not old.exists()
    assert live.exists(), "a fresh temp file of a running process is left alone"


def test_check_and_dry_run_sweep_nothing(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    dead = _temp(root / ".claude" if (root / ".claude").is_dir() else root, "x", DEAD_PID)
    for args in (("sync", "--check"), ("sync", "--dry-run")):
        hw(root, *args)
        assert dead.exists(), args
    assert hw(root, "add", "before_tool", "guard").code == 0
    assert not dead.exists()
    assert (root / CLAUDE).is_file()
