"""Exit codes scripts rely on: 0 ok, 1 user error or drift, 2 usage, through the real entry point."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli import hw_module


@pytest.mark.parametrize(("args", "message"), [
    (("add",), "Missing argument"),
    (("bogus",), "No such command"),
    (("add", "before_tool", "x", "--platform", "foo"), "Invalid value for '--platform'"),
    (("add", "before_tool", "x", "--timeout", "soon"), "Invalid value for '--timeout'"),
])
def test_usage_errors_exit_2_without_a_traceback(project: Path, args, message):
    result = hw_module(project, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_argument_value_of_hookwrap_own_is_a_usage_error_too(project: Path):
    result = hw_module(project, "add", "pre_tool", "x")
    assert result.returncode == 2
    assert 'error: "pre_tool" is not an event' in result.stderr
    assert "hint: valid events: after_agent, before_tool" in result.stderr


def test_user_errors_exit_1_with_a_hint(project: Path):
    assert hw_module(project, "add", "before_tool", "guard").returncode == 0
    result = hw_module(project, "add", "before_tool", "guard")
    assert result.returncode == 1
    assert "error: a hook named 'guard' is already in hookwrap.toml" in result.stderr
    assert "hint: choose another name, or `hookwrap remove guard` first" in result.stderr


def test_drift_exits_1_and_sync_repairs_it(project: Path):
    assert hw_module(project, "add", "before_tool", "guard").returncode == 0
    (project / ".claude" / "settings.json").write_text("{}\n")
    check = hw_module(project, "sync", "--check")
    assert check.returncode == 1
    assert "would update  .claude/settings.json: create guard (PreToolUse)" in check.stdout
    assert hw_module(project, "sync").returncode == 0
    assert hw_module(project, "sync", "--check").returncode == 0


def test_outside_a_project_is_a_user_error(tmp_path: Path):
    result = hw_module(tmp_path, "list")
    assert result.returncode == 1
    assert "no hookwrap.toml" in result.stderr and "hookwrap init" in result.stderr
