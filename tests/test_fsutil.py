"""Tests for fsutil: atomic writes, symlink following, mode keeping and the project lock."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
import time
from pathlib import Path

import pytest

from hookwrap.errors import LockError
from hookwrap.fsutil import LOCK_RELPATH, atomic_write, project_lock, remove_file


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_atomic_write_creates_parents_and_file_with_default_mode(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "settings.json"
    atomic_write(target, b"{}\n")
    assert target.read_bytes() == b"{}\n"
    assert _mode(target) == 0o644


def test_atomic_write_keeps_existing_mode(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_bytes(b"old")
    target.chmod(0o600)
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert _mode(target) == 0o600


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    atomic_write(target, b"1")
    atomic_write(target, b"2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_atomic_write_follows_symlink_and_keeps_link(tmp_path: Path) -> None:
    shared = tmp_path / "dotfiles" / "claude.json"
    shared.parent.mkdir()
    shared.write_bytes(b"old")
    shared.chmod(0o640)
    link = tmp_path / "proj" / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(shared)

    atomic_write(link, b"new")

    assert link.is_symlink()
    assert os.readlink(link) == str(shared)
    assert shared.read_bytes() == b"new"
    assert _mode(shared) == 0o640
    assert sorted(p.name for p in link.parent.iterdir()) == ["settings.json"]


def test_atomic_write_follows_relative_symlink_chain(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_bytes(b"x")
    (tmp_path / "mid.json").symlink_to("real.json")
    (tmp_path / "top.json").symlink_to("mid.json")
    atomic_write(tmp_path / "top.json", b"y")
    assert real.read_bytes() == b"y"
    assert (tmp_path / "top.json").is_symlink() and (tmp_path / "mid.json").is_symlink()


def test_atomic_write_through_dangling_symlink_creates_target(tmp_path: Path) -> None:
    link = tmp_path / "settings.json"
    link.symlink_to(tmp_path / "store" / "settings.json")
    atomic_write(link, b"z")
    assert link.is_symlink()
    assert (tmp_path / "store" / "settings.json").read_bytes() == b"z"


def test_remove_file(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"1")
    assert remove_file(target) is True
    assert not target.exists()
    assert remove_file(target) is False


def test_remove_file_removes_link_not_target(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.write_bytes(b"1")
    link = tmp_path / "link"
    link.symlink_to(real)
    assert remove_file(link) is True
    assert not link.is_symlink()
    assert real.read_bytes() == b"1"


def test_project_lock_creates_lock_file(tmp_path: Path) -> None:
    with project_lock(tmp_path) as lock_path:
        assert lock_path == tmp_path / LOCK_RELPATH
        assert lock_path.exists()


def _hold_lock(root: str, ready: multiprocessing.synchronize.Event, release: multiprocessing.synchronize.Event) -> None:
    with project_lock(Path(root)):
        ready.set()
        release.wait(20)


def test_project_lock_times_out_with_hint(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(tmp_path), ready, release))
    holder.start()
    try:
        assert ready.wait(20)
        started = time.monotonic()
        with pytest.raises(LockError) as info:
            with project_lock(tmp_path, timeout=0.3):
                pass
        assert time.monotonic() - started >= 0.3
        assert ".hookwrap/.lock" in str(info.value)
        assert info.value.hint
    finally:
        release.set()
        holder.join(20)
    # Once the holder is gone the lock is free again.
    with project_lock(tmp_path, timeout=1):
        pass


def _increment_many(root: str, times: int) -> None:
    counter = Path(root) / "counter.json"
    for _ in range(times):
        with project_lock(Path(root), timeout=30):
            value = json.loads(counter.read_text())["n"]
            # Widen the race window: without the lock, updates would be lost here.
            time.sleep(0.001)
            atomic_write(counter, json.dumps({"n": value + 1}).encode())


def test_project_lock_serialises_read_modify_write_across_processes(tmp_path: Path) -> None:
    counter = tmp_path / "counter.json"
    counter.write_text('{"n": 0}')
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_increment_many, args=(str(tmp_path), 40)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert json.loads(counter.read_text()) == {"n": 120}
