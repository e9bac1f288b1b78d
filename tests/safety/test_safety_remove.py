"""`hookwrap remove` never deletes a hook script whose edits exist nowhere else."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.cli import CLAUDE, hw
from support.projects import init_project

SCRIPT = ".hookwrap/hooks/guard.py"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com",
                    *args], check=True, capture_output=True)


def _edited_project(tmp_path: Path) -> Path:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    (root / SCRIPT).write_text((root / SCRIPT).read_text() + "\n# our own rule\n")
    return root


def test_uncommitted_edits_keep_the_script(tmp_path: Path) -> None:
    root = _edited_project(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "hooks")
    (root / SCRIPT).write_text((root / SCRIPT).read_text() + "# not committed yet\n")
    result = hw(root, "remove", "guard")
    assert result.code == 0
    assert f"note: kept {SCRIPT}: it has edits that are not committed to git" in result.out
    assert (root / SCRIPT).read_text().endswith("# not committed yet\n")
    assert not (root / CLAUDE).exists()  # the hook itself is gone (its file held only it)


def test_edits_outside_any_repository_keep_the_script(tmp_path: Path) -> None:
    root = _edited_project(tmp_path)
    assert hw(root, "remove", "guard").code == 0
    assert (root / SCRIPT).read_text().endswith("# our own rule\n")


def test_committed_edits_are_removed_with_a_note(tmp_path: Path) -> None:
    root = _edited_project(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "hooks")
    result = hw(root, "remove", "guard")
    assert result.code == 0 and not (root / SCRIPT).exists()
    assert f"note: removed {SCRIPT}, which had your edits: git has them (committed)" in result.out


def test_an_unedited_script_is_removed(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    assert hw(root, "remove", "guard").code == 0
    assert not (root / SCRIPT).exists()
