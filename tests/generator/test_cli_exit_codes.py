"""Exit codes scripts rely on: 0 ok, 1 user error or drift, 2 usage, through the real entry point."""

from __future__ import annotations

from pathlib import Path

import pytest
from gen_support import hookwrap


@pytest.mark.parametrize(("args", "message"), [
    (("add",), "Missing argument"),
    (("bogus",), "No such command"),
    (("add", "before_tool", "x", "--platform", "foo"), "Invalid value for '--platform'"),
    (("add", "before_tool", "x", "--timeout", "soon"), "Invalid value for '--timeout'"),
])
def test_usage_errors_exit_2_without_a_traceback(project: Path, args, message):
    result = hookwrap(*args, cwd=project)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_argument_value_of_hookwrap_own_is_a_usage_error_too(project: Path):
    result = hookwrap("add", "pre_tool", "x", cwd=project)
    assert result.returncode == 2
    assert 'error: "pre_tool" is not an event' in result.stderr
    assert "hint: valid events: after_agent, before_tool" in result.stderr


def test_user_errors_exit_1_with_a_hint(project: Path):
    assert hookwrap("add", "before_tool", "guard", cwd=project).returncode == 0
    result = hookwrap("add", "before_tool", "guard", cwd=project)
    assert result.returncode == 1
    assert "error: a hook named 'guard' is already in hookwrap.toml" in result.stderr
    assert "hint: choose another name, or `hookwrap remove guard` first" in result.stderr


def test_drift_exits_1_and_sync_repairs_it(project: Path):
    assert hookwrap("add", "before_tool", "guard", cwd=project).returncode == 0
    (project / ".claude" / "settings.json").write_text("{}\n")
    check = hookwrap("sync", "--check", cwd=project)
    assert check.returncode == 1
    assert "would update  .claude/settings.json: create guard (PreToolUse)" in check.stdout
    assert hookwrap("sync", cwd=project).returncode == 0
    assert hookwrap("sync", "--check", cwd=project).returncode == 0


def test_outside_a_project_is_a_user_error(tmp_path: Path):
    result = hookwrap("list", cwd=tmp_path)
    assert result.returncode == 1
    assert "no hookwrap.toml" in result.stderr and "hookwrap init" in result.stderr
