"""Tests for fsutil: atomic writes, symlink following, mode keeping and the project lock."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
import time
from pathlib import Path

import pytest

from hookwrap.generator import fsutil
from hookwrap.generator.errors import LockError
from hookwrap.generator.fsutil import (
    LOCK_RELPATH,
    atomic_write,
    commit_staged,
    discard_staged,
    project_lock,
    remove_file,
    stage_write,
)


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


def _tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


def test_stage_write_leaves_the_target_alone_until_commit(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_bytes(b"old")
    target.chmod(0o600)
    staged = stage_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert staged.target == target and staged.temp.parent == tmp_path
    assert staged.temp.read_bytes() == b"new" and _mode(staged.temp) == 0o600
    commit_staged(staged)
    assert target.read_bytes() == b"new" and _mode(target) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_stage_write_through_symlink_stages_beside_the_real_file(tmp_path: Path) -> None:
    shared = tmp_path / "dotfiles" / "claude.json"
    shared.parent.mkdir()
    shared.write_bytes(b"old")
    link = tmp_path / "proj" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(shared)
    staged = stage_write(link, b"new")
    assert staged.target == shared and staged.temp.parent == shared.parent
    commit_staged(staged)
    assert link.is_symlink() and shared.read_bytes() == b"new"


def test_discard_staged_removes_temp_files_and_the_dirs_made_for_them(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_bytes(b"x")
    before = _tree(tmp_path)
    staged = [stage_write(tmp_path / "a" / "b" / "one.json", b"1"),
              stage_write(tmp_path / "a" / "two.json", b"2"),
              stage_write(tmp_path / "keep.txt", b"y")]
    assert staged[0].made_dirs == (tmp_path / "a", tmp_path / "a" / "b")
    discard_staged(staged)
    assert _tree(tmp_path) == before


def test_stage_write_onto_a_directory_fails_before_anything_is_left(tmp_path: Path) -> None:
    (tmp_path / "settings.json").mkdir()
    before = _tree(tmp_path)
    with pytest.raises(IsADirectoryError):
        stage_write(tmp_path / "settings.json", b"{}")
    assert _tree(tmp_path) == before


def test_stage_write_under_a_regular_file_fails_cleanly(tmp_path: Path) -> None:
    (tmp_path / ".gemini").write_bytes(b"not a directory")
    before = _tree(tmp_path)
    with pytest.raises(OSError):
        stage_write(tmp_path / ".gemini" / "sub" / "settings.json", b"{}")
    assert _tree(tmp_path) == before


def test_stage_write_whose_mkdir_fails_partway_removes_what_it_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_mkdir = Path.mkdir

    def mkdir_one_level(self: Path, mode: int = 0o777, parents: bool = False,
                        exist_ok: bool = False) -> None:
        if self.name == "b":
            real_mkdir(self.parent, exist_ok=True)
            raise OSError(28, "No space left on device")
        real_mkdir(self, mode, parents, exist_ok)

    monkeypatch.setattr(Path, "mkdir", mkdir_one_level)
    with pytest.raises(OSError, match="No space left"):
        stage_write(tmp_path / "a" / "b" / "settings.json", b"{}")
    assert list(tmp_path.iterdir()) == []


def test_stage_write_failing_mid_write_deletes_its_temp_file_and_dirs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: bytes, mode: int) -> None:
        os.write(fd, data[:1])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fsutil, "_fill", full)
    with pytest.raises(OSError, match="No space left"):
        stage_write(tmp_path / "new" / "settings.json", b"{}")
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_whose_rename_fails_leaves_no_temp_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "settings.json"
    target.write_bytes(b"old")

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(1, "Operation not permitted", dst)

    monkeypatch.setattr(fsutil.os, "replace", refuse)
    with pytest.raises(PermissionError):
        atomic_write(target, b"new")
    assert _tree(tmp_path) == {"settings.json": b"old"}


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


def test_remove_empty_dirs_stops_at_anything_left_the_root_and_links(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "a/b/c").mkdir(parents=True)
    (root / "a/keep.txt").write_text("mine\n")
    assert fsutil.remove_empty_dirs(root, root / "a/b/c") == [root / "a/b/c", root / "a/b"]
    assert (root / "a/keep.txt").is_file()
    (root / "empty").mkdir()
    assert fsutil.remove_empty_dirs(root, root / "empty") == [root / "empty"]
    assert root.is_dir()  # the project root itself never goes
    assert fsutil.remove_empty_dirs(root, root) == []
    target = tmp_path / "elsewhere"
    target.mkdir()
    (root / "link").symlink_to(target, target_is_directory=True)
    assert fsutil.remove_empty_dirs(root, root / "link") == []
    assert target.is_dir() and (root / "link").is_symlink()


def test_remove_bytecode_takes_only_the_removed_scripts_caches(tmp_path: Path) -> None:
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    names = ["guard.cpython-311.pyc", "guard.cpython-39.opt-1.pyc", "guard-two.cpython-311.pyc",
             "guardian.cpython-311.pyc", "guard.txt"]
    for name in names:
        (cache / name).write_bytes(b"")
    fsutil.remove_bytecode(tmp_path / "guard.py")
    assert sorted(p.name for p in cache.iterdir()) == ["guard-two.cpython-311.pyc", "guard.txt",
                                                         "guardian.cpython-311.pyc"]
