"""The generator on Factory Droid: the golden file, the user's keys and comments kept, add's
warnings, test, doctor (no trust prompt, commands that break in a subfolder), no trust step."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support import GOLDEN
from support.cli import hw
from support.projects import from_template

DROID = ".factory/settings.json"
ADDS = [["before_tool", "guard"], ["session_start", "context"], ["after_agent", "stop_gate"],
        ["after_tool", "format"], ["before_tool", "audit", "--matcher", "shell"],
        ["session_start", "skeleton_start", "--template", "skeleton", "--timeout", "1200"]]
USER = {"enableCompletionBell": False, "model": "custom:mine",
        "hooks": {"Notification": [{"hooks": [{"type": "command", "command": "true"}]}]}}


def _droid_project(root: Path) -> None:
    (root / ".factory").mkdir()
    (root / DROID).write_text(json.dumps(USER, indent=4) + "\n")
    assert hw(root, "init", "--platform", "droid").code == 0
    for args in ADDS:
        result = hw(root, "add", *args)
        assert result.code == 0, result.err


@pytest.fixture
def droid(empty_dir: Path) -> Path:
    """The user's settings, then `init --platform droid` and every ADDS (a copy of one template)."""
    return from_template(empty_dir, _droid_project)


def test_settings_match_the_golden_file(droid: Path, update_golden: bool) -> None:
    golden = GOLDEN / "settings" / "droid.settings.json"
    data = (droid / DROID).read_bytes()
    if update_golden:
        golden.write_bytes(data)
        return
    assert data == golden.read_bytes(), f"{DROID} differs from {golden.name}: run pytest --update-golden"


def test_registrations_use_droids_names_and_keep_the_users_keys(droid: Path) -> None:
    data = json.loads((droid / DROID).read_text())
    assert data["enableCompletionBell"] is False and data["model"] == "custom:mine"
    assert data["hooks"]["Notification"] == USER["hooks"]["Notification"]
    guard = data["hooks"]["PreToolUse"][0]
    assert guard["matcher"] == "^(Execute|Create|Edit|Read)$"
    assert data["hooks"]["PreToolUse"][1]["matcher"] == "^Execute$"
    command = guard["hooks"][0]["command"]
    assert command.endswith('"$d/.hookwrap/lib/run.py" guard --fail-closed=7 --platform droid')
    assert "exit 2; }" in command  # the guard fails closed when no hookwrap.toml is found
    assert "exit 1; }" in data["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert data["hooks"]["SessionStart"][1]["hooks"][0]["timeout"] == 1200  # seconds


def test_comments_survive_add_and_remove(empty_dir: Path) -> None:
    (empty_dir / ".factory").mkdir()
    (empty_dir / DROID).write_text('{\n  // mine\n  "model": "custom:mine"\n}\n')
    assert hw(empty_dir, "init", "--platform", "droid").code == 0
    assert hw(empty_dir, "add", "before_tool", "guard").code == 0
    assert "// mine" in (empty_dir / DROID).read_text()
    assert hw(empty_dir, "remove", "guard").code == 0
    assert "// mine" in (empty_dir / DROID).read_text()


def test_remove_restores_the_users_file(droid: Path) -> None:
    for name in ("guard", "context", "stop_gate", "format", "audit", "skeleton_start"):
        assert hw(droid, "remove", name).code == 0
    assert json.loads((droid / DROID).read_text()) == USER


@pytest.mark.parametrize("where", [".", "src/deep", "dir with space"])
def test_the_registered_command_finds_the_project_from_a_subfolder(droid: Path, where: str) -> None:
    command = json.loads((droid / DROID).read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    cwd = droid / where
    cwd.mkdir(parents=True, exist_ok=True)
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Execute",
               "tool_input": {"command": "git push --force origin main", "riskLevel": "low",
                              "riskLevelReason": "r"}, "cwd": str(cwd)}
    done = subprocess.run(["bash", "-c", command], check=False, cwd=cwd, input=json.dumps(payload),
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "FACTORY_PROJECT_DIR": str(cwd)})
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", done
    assert done.returncode == 0


def test_without_hookwrap_toml_the_guard_blocks_and_the_stop_gate_goes_on(droid: Path,
                                                                          tmp_path: Path) -> None:
    data = json.loads((droid / DROID).read_text())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for event, code in (("PreToolUse", 2), ("Stop", 1)):
        command = data["hooks"][event][0]["hooks"][0]["command"]
        done = subprocess.run(["bash", "-c", command], check=False, cwd=elsewhere, input="{}", capture_output=True,
                              text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
        assert done.returncode == code and "no hookwrap.toml" in done.stderr, (event, done)


def test_add_warns_what_droid_cannot_do(empty_dir: Path) -> None:
    assert hw(empty_dir, "init", "--platform", "droid").code == 0
    said = hw(empty_dir, "add", "before_tool", "mine")  # a skeleton may answer anything
    assert "Factory Droid: runs an ask without asking" in said.err + said.out
    said = hw(empty_dir, "add", "before_tool", "guard")  # it only blocks
    assert said.code == 0 and "warning" not in said.err + said.out
    said = hw(empty_dir, "add", "before_prompt", "context")
    assert "never fires UserPromptSubmit in droid exec" in said.err + said.out
    said = hw(empty_dir, "add", "after_tool", "after")
    assert "ignores a block after a tool" in said.err + said.out
    said = hw(empty_dir, "add", "after_tool", "format")  # it never blocks
    assert said.code == 0 and "warning" not in said.err + said.out
    said = hw(empty_dir, "add", "after_agent", "stop_gate")
    assert "has no cap on Stop blocks" in said.err + said.out


def test_hookwrap_test_blocks_a_forced_push_as_droid(droid: Path) -> None:
    result = hw(droid, "test", "guard", "--platform", "droid", "--tool", "shell",
                "--input", json.dumps({"command": "git push --force origin main"}))
    assert result.code == 0, result.err
    assert "droid" in result.out and "blocked" in result.out, result.out
    harmless = hw(droid, "test", "guard", "--platform", "droid", "--tool", "shell",
                  "--input", json.dumps({"command": "ls"}))
    assert "allowed" in harmless.out, harmless.out


def test_doctor_says_droid_has_no_trust_prompt(droid: Path) -> None:
    doctor = hw(droid, "doctor")
    assert "ok   droid-trust: Factory Droid runs the hooks in .factory/settings.json with no trust " \
        "prompt at all" in doctor.out, doctor.out
    assert "warn droid-trust" not in doctor.out and "fail droid-trust" not in doctor.out
    trust = hw(droid, "trust", "--platform", "droid", "--dry-run")
    assert trust.code == 0 and "nothing to trust" in trust.out, trust.out


def test_doctor_reports_commands_that_break_in_a_subfolder(droid: Path) -> None:
    data = json.loads((droid / DROID).read_text())
    data["hooks"]["PreToolUse"].append({"matcher": "Bash|Write", "hooks": [
        {"type": "command", "command": 'python3 "$FACTORY_PROJECT_DIR/x.py"', "timeout": 5000}]})
    (droid / DROID).write_text(json.dumps(data, indent=2) + "\n")
    out = hw(droid, "doctor").out
    assert "subfolder" in out and "Claude Code tools" in out and "looks like milliseconds" in out, out


def test_a_broken_settings_file_is_left_as_it_was(droid: Path) -> None:
    # A broken file is reported and left byte for byte.
    (droid / DROID).write_text("{ not json")
    before = (droid / DROID).read_bytes()
    result = hw(droid, "sync")
    assert result.code != 0 and DROID in result.err + result.out
    assert (droid / DROID).read_bytes() == before
