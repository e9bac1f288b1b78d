"""Plan.apply writes all or nothing; Plan.add can keep a symlinked file instead of deleting it."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from hookwrap.console.app import main
from hookwrap.generator import fsutil
from hookwrap.generator.errors import HookwrapError, ProjectError, WriteError
from hookwrap.generator.plan import Plan
from hookwrap.generator.registrations import Registration, command_for
from hookwrap.generator.settings import reconcile
from hookwrap.platforms import Platform

CLAUDE = ".claude/settings.json"
GEMINI = ".gemini/settings.json"


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under root with its bytes (None for a directory), symlinks as `-> target`."""
    found: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            found[rel] = f"-> {os.readlink(path)}".encode()
        else:
            found[rel] = path.read_bytes() if path.is_file() else None
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / "hookwrap.toml").write_bytes(b"old manifest\n")
    (root / CLAUDE).write_bytes(b'{"old": true}\n')
    (root / ".hookwrap" / "hooks").mkdir(parents=True)
    (root / ".hookwrap" / "hooks" / "gone.py").write_bytes(b"print()\n")
    return root


def full_plan(root: Path) -> Plan:
    """Two updates, two creates (one in a new directory) and one removal."""
    plan = Plan(root)
    plan.add("hookwrap.toml", b"new manifest\n")
    plan.add(CLAUDE, b'{"new": true}\n')
    plan.add(".hookwrap/hooks/guard.py", b"print('guard')\n")
    plan.add(GEMINI, b'{"hooks": {}}\n')
    plan.add(".hookwrap/hooks/gone.py", None)
    return plan


def test_apply_writes_every_change_and_removes_last(project: Path) -> None:
    full_plan(project).apply()
    assert (project / "hookwrap.toml").read_bytes() == b"new manifest\n"
    assert (project / CLAUDE).read_bytes() == b'{"new": true}\n'
    assert (project / GEMINI).read_bytes() == b'{"hooks": {}}\n'
    assert not (project / ".hookwrap" / "hooks" / "gone.py").exists()
    assert not [p for p in project.rglob("*.tmp")]


def test_a_write_that_cannot_start_changes_nothing(project: Path) -> None:
    (project / ".gemini").write_bytes(b"a file where a directory belongs\n")
    before = tree(project)
    with pytest.raises(WriteError) as info:
        full_plan(project).apply()
    assert str(info.value).startswith(f"{GEMINI}: cannot write it (")
    assert str(info.value).endswith("); nothing was changed")
    assert info.value.hint == ("check the permissions of .gemini/ and the free space, then run the "
                               "command again")
    assert isinstance(info.value, OSError) and isinstance(info.value, HookwrapError)
    assert tree(project) == before  # no file replaced, no temp file, no directory left


def test_a_write_failing_halfway_deletes_every_temp_file(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real_fill = fsutil._fill

    def fill(fd: int, data: bytes, mode: int) -> None:
        calls.append(data)
        if len(calls) == 3:
            os.write(fd, data[:2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fill(fd, data, mode)

    monkeypatch.setattr(fsutil, "_fill", fill)
    before = tree(project)
    with pytest.raises(WriteError, match=r"^\.hookwrap/hooks/guard\.py: cannot write it "
                                         r"\(No space left on device\); nothing was changed$"):
        full_plan(project).apply()
    assert len(calls) == 3
    assert tree(project) == before


def test_a_file_in_the_project_directory_gets_a_hint_naming_it(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fill(fd: int, data: bytes, mode: int) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(fsutil, "_fill", fill)
    with pytest.raises(WriteError) as info:
        full_plan(project).apply()
    assert str(info.value) == ("hookwrap.toml: cannot write it (Permission denied); "
                               "nothing was changed")
    assert info.value.hint.startswith("check the permissions of the project directory and")


def test_an_interrupt_while_staging_deletes_every_temp_file(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_fill = fsutil._fill
    calls = []

    def fill(fd: int, data: bytes, mode: int) -> None:
        calls.append(data)
        real_fill(fd, data, mode)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(fsutil, "_fill", fill)
    before = tree(project)
    with pytest.raises(KeyboardInterrupt):
        full_plan(project).apply()
    assert tree(project) == before


def test_a_failed_rename_says_what_was_and_was_not_changed(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_replace = os.replace
    renames = []

    def replace(src: str, dst: str) -> None:
        renames.append(dst)
        if len(renames) == 2:
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), dst)
        real_replace(src, dst)

    monkeypatch.setattr(fsutil.os, "replace", replace)
    with pytest.raises(WriteError) as info:
        full_plan(project).apply()
    monkeypatch.undo()
    assert str(info.value) == (
        f"{CLAUDE}: cannot replace it (Operation not permitted); changed: hookwrap.toml; "
        f"not changed: {CLAUDE}, .hookwrap/hooks/guard.py, {GEMINI}, .hookwrap/hooks/gone.py")
    assert "hookwrap sync" in info.value.hint
    assert (project / "hookwrap.toml").read_bytes() == b"new manifest\n"
    assert (project / CLAUDE).read_bytes() == b'{"old": true}\n'
    assert not (project / ".gemini").exists()
    assert (project / ".hookwrap" / "hooks" / "gone.py").exists()
    assert not [p for p in project.rglob("*.tmp")]


def test_a_failed_removal_says_what_was_and_was_not_changed(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: Path | str) -> bool:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr(fsutil, "remove_file", refuse)
    with pytest.raises(WriteError, match=r"^\.hookwrap/hooks/gone\.py: cannot remove it "
                                         r"\(Permission denied\); changed: hookwrap\.toml, "
                                         r".*settings\.json; not changed: "
                                         r"\.hookwrap/hooks/gone\.py$"):
        full_plan(project).apply()


def test_a_file_that_cannot_be_read_while_planning_is_a_project_error(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Path) -> bytes:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(ProjectError,
                       match=r"^hookwrap\.toml: cannot read it \(Permission denied\)$"):
        Plan(project).add("hookwrap.toml", b"x")


def _chattr(flag: str, path: Path) -> bool:
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    return done.returncode == 0


def test_an_immutable_settings_directory_changes_nothing(project: Path) -> None:
    (project / ".gemini").mkdir()
    if not _chattr("+i", project / ".gemini"):
        pytest.skip("chattr +i is not available here")
    try:
        before = tree(project)
        with pytest.raises(WriteError,
                           match=rf"^{GEMINI}: cannot write it \(.+\); nothing was changed$"):
            full_plan(project).apply()
        assert tree(project) == before
    finally:
        _chattr("-i", project / ".gemini")


class _TempfileRefusingIn:
    """Stands in for fsutil's `tempfile`: creating a temp file in `directory` is refused."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    def mkstemp(self, **kwargs: str) -> tuple[int, str]:
        if Path(kwargs["dir"]).name == self.directory:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), kwargs["dir"])
        return tempfile.mkstemp(**kwargs)


def test_cli_add_refused_by_a_read_only_directory_exits_1_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-C", str(tmp_path), "init"]) == 0
    (tmp_path / ".claude").mkdir()
    (tmp_path / CLAUDE).write_bytes(b'{"model": "x"}\n')
    before = tree(tmp_path)
    capsys.readouterr()
    monkeypatch.setattr(fsutil, "tempfile", _TempfileRefusingIn(".gemini"))

    code = main(["-C", str(tmp_path), "add", "before_tool", "guard"])

    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert f"error: {GEMINI}: cannot write it (Permission denied); nothing was changed" in err
    assert "hint: check the permissions of .gemini/" in err
    assert tree(tmp_path) == before


# --- a symlinked file that should no longer exist ------------------------------------------------

def _linked_settings(tmp_path: Path, text: bytes) -> tuple[Path, Path]:
    shared = tmp_path / "dotfiles" / "claude-settings.json"
    shared.parent.mkdir()
    shared.write_bytes(text)
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / CLAUDE).symlink_to(shared)
    return root, shared


def test_keep_link_as_writes_through_a_symlink_instead_of_removing_it(tmp_path: Path) -> None:
    root, shared = _linked_settings(tmp_path, b'{"hooks": {"Stop": []}}\n')
    plan = Plan(root)
    change = plan.add(CLAUDE, None, detail=["remove guard (Stop)"], keep_link_as=b"{}\n")
    assert change.action == "update" and change.data == b"{}\n"
    assert change.detail[0] == "remove guard (Stop)"
    assert change.detail[1] == f"a symlink: kept, its target {shared} rewritten"
    plan.apply()
    assert (root / CLAUDE).is_symlink() and os.readlink(root / CLAUDE) == str(shared)
    assert shared.read_bytes() == b"{}\n"


def test_keep_link_as_is_unchanged_when_the_target_already_holds_it(tmp_path: Path) -> None:
    root, _ = _linked_settings(tmp_path, b"{}\n")
    assert Plan(root).add(CLAUDE, None, keep_link_as=b"{}\n").action == "unchanged"


def test_keep_link_as_leaves_regular_files_and_dangling_links_to_the_usual_rules(
        tmp_path: Path) -> None:
    root, shared = _linked_settings(tmp_path, b"{}\n")
    (root / "plain.json").write_bytes(b"{}\n")
    plan = Plan(root)
    assert plan.add("plain.json", None, keep_link_as=b"{}\n").action == "remove"
    shared.unlink()
    assert plan.add(CLAUDE, None, keep_link_as=b"{}\n").action == "unchanged"


def test_without_keep_link_as_a_symlink_is_removed_as_a_link(tmp_path: Path) -> None:
    root, shared = _linked_settings(tmp_path, b"{}\n")
    plan = Plan(root)
    assert plan.add(CLAUDE, None).action == "remove"
    plan.apply()
    assert not (root / CLAUDE).exists() and shared.read_bytes() == b"{}\n"


def test_removing_the_last_hook_from_symlinked_settings_empties_the_target(tmp_path: Path) -> None:
    handler = {"type": "command", "command": command_for("guard", Platform.CLAUDE), "timeout": 60}
    registration = Registration("guard", Platform.CLAUDE, "PreToolUse", "Bash", handler)
    written = reconcile(None, Platform.CLAUDE, [registration], label=CLAUDE).new_text
    root, shared = _linked_settings(tmp_path, written.encode())
    result = reconcile(written, Platform.CLAUDE, [], label=CLAUDE)
    assert result.new_text is None  # the file would be deleted: the link must survive instead
    plan = Plan(root)
    plan.add(CLAUDE, None, keep_link_as=b"{}\n")
    plan.apply()
    assert (root / CLAUDE).is_symlink()
    assert shared.read_bytes() == b"{}\n"
    assert ".hookwrap/hooks/guard.py" not in shared.read_text()
