"""What add/sync and test tell the user beyond their own changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def hookwrap(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert hookwrap("init", cwd=tmp_path).returncode == 0
    return tmp_path


def test_sync_warns_about_a_foreign_entry_that_makes_claude_drop_the_event(project: Path):
    (project / ".claude").mkdir()
    foreign = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./lint.sh", "timeout": "10"}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(foreign))
    result = hookwrap("add", "before_tool", "guard", cwd=project)
    assert result.returncode == 0  # hookwrap's part is done; the foreign entry is reported
    assert ("problem: .claude/settings.json: hooks.PreToolUse[0].hooks[0].timeout: "
            "must be a positive number; Claude Code drops every PreToolUse hook of this file, "
            "guard included") in result.stderr
    check = hookwrap("sync", "--check", cwd=project)
    assert check.returncode == 1 and "nothing to change" in check.stdout
    # The foreign entry is reported, never repaired: it is not hookwrap's to change.
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] == "10"


def test_sync_is_quiet_about_valid_files(project: Path):
    result = hookwrap("add", "before_tool", "guard", cwd=project)
    assert "warning" not in result.stderr and "problem" not in result.stderr


def test_test_says_claude_drops_the_event_instead_of_running_the_hook(project: Path):
    assert hookwrap("add", "before_tool", "guard", cwd=project).returncode == 0
    path = project / ".claude" / "settings.json"
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"].insert(0, {"matcher": "Bash", "hooks": "oops"})
    path.write_text(json.dumps(data))
    result = hookwrap("test", "guard", "-p", "claude", "--tool", "shell",
                      "--input", '{"command": "rm -rf /"}', cwd=project)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "claude: not run: Claude Code drops every PreToolUse hook of .claude/settings.json "
        "(hooks.PreToolUse[0].hooks: must be a list)")


def _write_hook(project: Path, name: str, body: str) -> None:
    script = project / ".hookwrap" / "hooks" / f"{name}.py"
    script.write_text("import os, sys\n"
                      "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "
                      "os.pardir, 'lib'))\n"
                      "from hookwrap import HookOutput, main\n"
                      f"def hook(event):\n    {body}\n"
                      "raise SystemExit(main(hook))\n")


def test_test_reports_a_crashing_hook_as_a_problem(project: Path):
    assert hookwrap("add", "before_tool", "boom", cwd=project).returncode == 0
    _write_hook(project, "boom", "raise RuntimeError('kaboom')")
    result = hookwrap("test", "boom", "--tool", "shell", "--input", '{"command": "ls"}', cwd=project)
    assert result.returncode == 1
    assert "claude: blocked: Hook Script Error" in result.stdout
    assert "problem: the hook raised an exception" in result.stdout


def test_test_mentions_a_rewritten_tool_input(project: Path):
    assert hookwrap("add", "before_tool", "rewrite", cwd=project).returncode == 0
    _write_hook(project, "rewrite",
                "return HookOutput(updated_input={**event.tool_input, 'command': 'ls -la'})")
    result = hookwrap("test", "rewrite", "--tool", "shell", "--input", '{"command": "ls"}',
                      cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert 'claude: allowed; tool input rewritten to {"command": "ls -la"}' in lines
    assert 'gemini: allowed; tool input rewritten to {"command": "ls -la"}' in lines


def test_remove_keeps_a_symlinked_settings_file_and_empties_it(project: Path, tmp_path_factory):
    shared = tmp_path_factory.mktemp("shared") / "claude.json"
    shared.write_text("{}\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").symlink_to(shared)
    assert hookwrap("add", "before_tool", "guard", cwd=project).returncode == 0
    assert "guard.py" in shared.read_text()
    assert hookwrap("remove", "guard", cwd=project).returncode == 0
    link = project / ".claude" / "settings.json"
    assert link.is_symlink() and link.resolve() == shared.resolve()
    assert shared.read_text() == "{}\n"  # no stale entry left behind for a deleted script
