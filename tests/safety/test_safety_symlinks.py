"""Nothing is written or deleted through a symlink under .hookwrap/, nor created by a dangling
settings link; a .hookwrap that is a file is named. A symlinked settings file still works."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support.cli import CLAUDE, GEMINI, hw, hw_module as hw_process
from support.projects import init_project

COMMANDS = [("sync",), ("sync", "--check"), ("sync", "--dry-run"), ("add", "after_tool", "audit"),
            ("remove", "guard"), ("init",)]


def tree(root: Path) -> dict[str, object]:
    found: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            found[rel] = "dir"
        else:
            found[rel] = path.read_bytes()
    return found


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    return root, outside


def _link_runtime(root: Path, outside: Path) -> str:
    runtime = root / ".hookwrap/lib/hookwrap"
    shared = outside / "shared-runtime"
    shutil.copytree(runtime, shared)
    (shared / "runner.py").write_text("# someone else's runner\n")
    (shared / "extra.py").write_text("# someone else's module\n")
    shutil.rmtree(runtime)
    runtime.symlink_to(shared)
    return ".hookwrap/lib/hookwrap"


def _link_gitignore(root: Path, outside: Path) -> str:
    target = outside / "gitignore"
    target.write_text("someone else's file\n")
    (root / ".hookwrap/.gitignore").unlink()
    (root / ".hookwrap/.gitignore").symlink_to(target)
    return ".hookwrap/.gitignore"


def _link_script(root: Path, outside: Path) -> str:
    script = root / ".hookwrap/hooks/guard.py"
    target = outside / "guard.py"
    target.write_bytes(script.read_bytes())
    script.unlink()
    script.symlink_to(target)
    return ".hookwrap/hooks/guard.py"


def _dangling_script(root: Path, outside: Path) -> str:
    script = root / ".hookwrap/hooks/guard.py"
    script.unlink()
    script.symlink_to(outside / "elsewhere" / "guard.py")
    return ".hookwrap/hooks/guard.py"


def _link_hooks_dir(root: Path, outside: Path) -> str:
    hooks = root / ".hookwrap/hooks"
    shutil.move(str(hooks), str(outside / "hooks"))
    hooks.symlink_to(outside / "hooks")
    return ".hookwrap/hooks"


def _link_lock(root: Path, outside: Path) -> str:
    lock = root / ".hookwrap/.lock"
    lock.unlink(missing_ok=True)
    lock.symlink_to(outside / "lockfile")
    return ".hookwrap/.lock"


LINKS = [_link_runtime, _link_gitignore, _link_script, _dangling_script, _link_hooks_dir]
SYNCS = {("sync",), ("sync", "--check"), ("sync", "--dry-run"), ("init",)}
# The commands that would write or delete through each link, and so must refuse.
MUST_REFUSE = {
    _link_runtime: SYNCS | {("add", "after_tool", "audit")},
    _link_gitignore: SYNCS | {("add", "after_tool", "audit")},
    _link_script: {("remove", "guard")},
    _dangling_script: SYNCS | {("remove", "guard")},
    _link_hooks_dir: {("add", "after_tool", "audit"), ("remove", "guard")},
}


@pytest.mark.parametrize("make_link", LINKS)
@pytest.mark.parametrize("args", COMMANDS)
def test_links_under_hookwrap_are_refused(setup: tuple[Path, Path], make_link,
                                          args: tuple[str, ...]) -> None:
    root, outside = setup
    link = make_link(root, outside)
    before, before_root = tree(outside), tree(root)
    result = hw(root, *args)
    assert tree(outside) == before
    if args not in MUST_REFUSE[make_link]:
        assert result.code == 0, result.err  # the link is not in this command's way
        return
    assert result.code == 1, (result.out, result.err)
    assert f"error: {link}: is a symlink" in result.err
    assert "hint: replace the link with a real" in result.err
    assert tree(root) == before_root


@pytest.mark.parametrize("args", [("sync",), ("add", "after_tool", "audit"), ("remove", "guard")])
def test_a_linked_lock_file_is_refused(setup: tuple[Path, Path], args: tuple[str, ...]) -> None:
    root, outside = setup
    _link_lock(root, outside)
    result = hw(root, *args)
    assert result.code == 1, result.err
    assert "error: .hookwrap/.lock: is a symlink" in result.err
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("args", [("sync",), ("sync", "--check"), ("add", "after_tool", "audit"),
                                  ("init",), ("remove", "guard")])
def test_hookwrap_as_a_plain_file_is_named(tmp_path: Path, args: tuple[str, ...]) -> None:
    root = init_project(tmp_path)
    if args[0] == "remove":
        assert hw(root, "add", "before_tool", "guard").code == 0
    shutil.rmtree(root / ".hookwrap")
    (root / ".hookwrap").write_text("not a folder\n")
    result = hw_process(root, *args)
    assert result.returncode == 1, result.stderr
    assert "error: .hookwrap: is a file, not a folder" in result.stderr
    assert "Traceback" not in result.stderr
    assert (root / ".hookwrap").read_text() == "not a folder\n"


@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
def test_a_dangling_settings_link_creates_nothing_elsewhere(setup: tuple[Path, Path],
                                                            rel: str) -> None:
    root, outside = setup
    path = root / rel
    path.unlink()
    path.symlink_to(outside / "missing-dir" / "settings.json")
    for args in (("sync",), ("add", "after_tool", "audit")):
        result = hw(root, *args)
        assert result.code == 1, result.err
        assert f"error: {rel}: is a symlink to {outside / 'missing-dir' / 'settings.json'}, " \
               "which does not exist" in result.err
        assert list(outside.iterdir()) == []
        assert path.is_symlink()


@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
def test_a_settings_link_is_still_written_through(setup: tuple[Path, Path], rel: str) -> None:
    root, outside = setup
    path = root / rel
    target = outside / "settings.json"
    target.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(target)
    result = hw(root, "add", "after_tool", "audit")
    assert result.code == 0, result.err
    assert path.is_symlink() and b"run.py audit " in target.read_bytes().replace(b"\\\"", b"")
