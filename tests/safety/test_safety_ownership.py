"""hookwrap owns exactly the command forms it writes: look-alikes are reported, never changed;
the manifest's `python` is quoted, and shell syntax in it is refused."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from support.cli import CLAUDE, GEMINI, hw
from support.projects import init_project

LOOKALIKES = [
    "echo .hookwrap/hooks/guard.py",
    "python3 /home/someone/other-project/.hookwrap/hooks/guard.py --platform claude",
    'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/guard.py --platform claude --verbose',
    'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/guard.py --platform claude 2>/dev/null',
    'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/guard.py',
    'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/gone.py --platform claude; echo done',
    "echo .hookwrap/lib/run.py guard",
    'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py guard --platform claude --verbose',
    'python3 /home/someone/other-project/.hookwrap/lib/run.py guard --platform claude',
]


@pytest.mark.parametrize("command", LOOKALIKES)
def test_sync_never_removes_or_rewrites_a_look_alike(tmp_path: Path, command: str) -> None:
    root = init_project(tmp_path)
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}}
    path = root / CLAUDE
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(settings, indent=2) + "\n")
    before = path.read_bytes()
    for args in (["sync"], ["sync", "--dry-run"]):
        result = hw(root, *args)
        assert result.code == 0, result.err
        assert "is not a command hookwrap writes: left as it is" in result.err
        assert path.read_bytes() == before
    # Adding a real hook keeps the look-alike where it was, and adds hookwrap's own entry.
    assert hw(root, "add", "before_tool", "guard").code == 0
    groups = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert groups[0] == settings["hooks"]["PreToolUse"][0]
    assert [h["command"] for g in groups[1:] for h in g["hooks"]] == [
        'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py guard --fail-closed=7 --platform claude']
    assert hw(root, "remove", "guard").code == 0
    assert json.loads(path.read_text()) == settings


def test_doctor_lists_look_alikes(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    (root / GEMINI).parent.mkdir(exist_ok=True)
    (root / GEMINI).write_text(json.dumps({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "bash -c 'python3 .hookwrap/hooks/guard.py'"}]}]}}))
    result = hw(root, "doctor")
    assert "warn lookalikes: .gemini/settings.json: hooks.BeforeTool[0].hooks[0] runs" in result.out


def test_a_python_path_with_a_space_is_quoted_and_runs(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    bindir = tmp_path / "my python" / "bin"
    bindir.mkdir(parents=True)
    fake = bindir / "python3"
    fake.write_text(f"#!/bin/sh\nexec {os.environ.get('PYTHON', 'python3')} \"$@\"\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('# python = "python3"',
                                                     f'python = "\'{fake}\' -I"'))
    assert hw(root, "add", "before_tool", "guard").code == 0
    command = json.loads((root / CLAUDE).read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert command == (f"'{fake}' -I \"$CLAUDE_PROJECT_DIR\"/.hookwrap/lib/run.py guard "
                       "--fail-closed=7 --platform claude")
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "git push --force origin main"}})
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(root)}
    proc = subprocess.run(["bash", "-c", command], input=payload, capture_output=True, text=True,
                          env=env, cwd=root, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # And hookwrap still recognises the quoted form as its own: a second sync changes nothing.
    assert "nothing to change" in hw(root, "sync").out


@pytest.mark.parametrize("value", ["python3; touch pwned", "$(touch pwned)", "`id`", "py | sh",
                                   "python3 > x", "~/bin/python3", "python3 'unbalanced",
                                   "./tools/python3", "", "  "])
def test_shell_syntax_in_python_is_refused(tmp_path: Path, value: str) -> None:
    root = init_project(tmp_path)
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('# python = "python3"',
                                                     f"python = {json.dumps(value)}"))
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = hw(root, "sync")
    assert result.code == 1
    assert result.err.startswith("error: hookwrap.toml: python: ")
    assert "\nhint: " in result.err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert not (root / "pwned").exists()


@pytest.mark.parametrize("value, words", [
    ("python3 -I", "python3 -I"), ("uv run python", "uv run python"),
    ("'/opt/my py/bin/python3'", "'/opt/my py/bin/python3'"), ("/usr/bin/python3.12", "/usr/bin/python3.12"),
])
def test_an_interpreter_with_arguments_keeps_its_words(tmp_path: Path, value: str, words: str) -> None:
    """Arguments stay arguments (`python3 -I` was written unquoted before, and still is, so an
    upgraded repo keeps owning its entries); a path with a space is one quoted word."""
    from hookwrap.generator.clis import all_setups
    from hookwrap.generator.registrations import command_for
    from hookwrap.platforms import Platform

    for agent in all_setups():
        command = command_for("guard", agent.platform, value)
        assert command.startswith(words + " ") or f"exec {words} " in command
        assert agent.owned_name(command) == "guard"
    assert Platform.CLAUDE
