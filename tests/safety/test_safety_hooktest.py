"""`hookwrap test` says that it runs hooks for real, prints each command first, and never crashes:
an event without a built-in sample, a timeout no timer can hold, an unreadable user config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import CLAUDE, hw
from support.projects import init_project

from hookwrap.generator import fsutil


def test_help_and_output_say_the_hook_runs_for_real(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert "The hook runs for real" in hw(root, "test", "--help").out
    assert hw(root, "add", "after_tool", "audit").code == 0
    result = hw(root, "test", "audit", "--platform", "claude")
    assert result.code == 0
    command = json.loads((root / CLAUDE).read_text())["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert result.err.splitlines()[0] == f"claude: running {command}"
    assert (root / ".hookwrap/logs/audit.jsonl").is_file()  # it really ran


def test_an_event_without_a_built_in_sample(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "permission_denied", "pd").code == 0
    result = hw(root, "test", "pd")
    assert result.code == 0, result.err
    assert result.out.startswith("claude: ")


def test_a_timeout_no_timer_can_hold_in_a_settings_file(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "guard").code == 0
    data = json.loads((root / CLAUDE).read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 99999999999999999
    (root / CLAUDE).write_text(json.dumps(data))
    result = hw(root, "test", "guard", "--platform", "claude", "--tool", "shell",
                "--input", '{"command": "ls"}')
    assert "internal error" not in result.err and "Traceback" not in result.err
    assert result.out.startswith("claude (PreToolUse): ")


def test_doctor_survives_an_unreadable_user_config(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = init_project(tmp_path)
    home = Path.home()
    (home / ".claude").mkdir()
    user = home / ".claude" / "settings.json"
    user.write_text("{}")
    original = fsutil.read_capped

    def read_capped(path: Path | str) -> bytes:  # root reads any file: simulate `--user` containers
        if Path(path) == user:
            raise PermissionError(13, "Permission denied", str(path))
        return original(path)

    monkeypatch.setattr(fsutil, "read_capped", read_capped)
    result = hw(root, "doctor")
    assert "internal error" not in result.err
    assert "fail settings-parse: ~/.claude/settings.json: cannot read it (Permission denied)" in result.out


def test_a_deeply_nested_manifest_value_is_an_error_not_a_crash(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text() + "\n[hooks.f]\nevent = \"after_tool\"\n"
                        "template = \"format\"\ncommand = " + "[" * 3000 + "]" * 3000 + "\n")
    for args in (["sync"], ["sync", "--check"], ["list"]):
        result = hw(root, *args)
        assert result.code == 1 and "nested" in result.err and "Traceback" not in result.err, args


def test_doctor_survives_a_lone_surrogate_in_a_settings_key(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    (root / ".claude").mkdir(exist_ok=True)
    (root / CLAUDE).write_text('{"hooks": {"\\ud800": []}}')
    result = hw(root, "doctor")
    assert "internal error" not in result.err and "Traceback" not in result.err
