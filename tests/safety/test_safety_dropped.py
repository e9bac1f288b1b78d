"""`list`, `doctor` and `test` agree on a hook that Claude Code drops because of an invalid
entry beside it (Claude skips every hook of that event in the file, and says nothing)."""

from __future__ import annotations

import json
from pathlib import Path

from support.cli import CLAUDE, hw
from support.projects import init_project


def test_list_doctor_and_test_agree_on_a_dropped_hook(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    assert hw(root, "add", "after_tool", "log", "--template", "audit").code == 0
    path = root / CLAUDE
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [{"type": "command"}]})
    path.write_text(json.dumps(data, indent=2) + "\n")

    rows = {row["name"]: row for row in json.loads(hw(root, "list", "--json").out)}
    assert rows["guard"]["platforms"]["claude"]["status"] == "dropped"
    assert rows["guard"]["platforms"]["gemini"]["status"] == "current"
    assert rows["log"]["platforms"]["claude"]["status"] == "current"  # another event: it runs
    table = hw(root, "list").out
    assert "hint: dropped: an invalid entry beside it" in table

    doctor = hw(root, "doctor")
    assert doctor.code == 1
    assert "fail registration: guard in .claude/settings.json is dropped" in doctor.out

    test = hw(root, "test", "guard", "--platform", "claude")
    assert test.code == 1 and "not run: Claude Code drops every PreToolUse hook" in test.out


def test_a_file_level_error_drops_every_hook_of_the_file(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "after_tool", "log", "--template", "audit").code == 0
    path = root / CLAUDE
    data = json.loads(path.read_text())
    data["permissions"] = "all"  # Claude Code rejects the whole file
    path.write_text(json.dumps(data, indent=2) + "\n")
    rows = json.loads(hw(root, "list", "--json").out)
    assert rows[0]["platforms"]["claude"]["status"] == "dropped"
    assert "not run: Claude Code drops every PostToolUse hook" in hw(root, "test", "log").out
