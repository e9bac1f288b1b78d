"""`hookwrap doctor`'s Windows checks (checks/windows.py), run here with ``windows=True`` against
a fake Windows PATH (support/windows.py): the Store alias is named, and every hookwrap command
whose CLI's Windows shell cannot run it is, while Codex CLI's and Copilot CLI's Windows fields
pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli import hw
from support.projects import initialised
from support.windows import PYORG, STORE, stock_windows, windows_env

from hookwrap.checks.doctor import diagnose
from hookwrap.generator import interpreter


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = initialised(tmp_path / "p", *(f"--platform={cli}" for cli in
                                         ("claude", "codex", "copilot", "qwen")))
    assert hw(root, "add", "before_tool", "guard").code == 0
    return root


def _windows_findings(root: Path, home: Path, env: dict[str, str]) -> dict[str, list]:
    found = diagnose(root, home=home, env=env, run_hooks=False, windows=True)
    out: dict[str, list] = {}
    for finding in found:
        if finding.check.startswith("windows-"):
            out.setdefault(finding.check, []).append(finding)
    return out


def test_store_alias_and_unrunnable_commands_are_named(project: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    machine = stock_windows(tmp_path / "machine")
    monkeypatch.setattr(interpreter, "size_of", machine.size_of)
    monkeypatch.setattr(interpreter, "run", machine.run)
    found = _windows_findings(project, tmp_path / "home", windows_env(STORE))
    [python] = found["windows-python"]
    assert python.status == "fail"
    assert "python.exe is the Microsoft Store alias" in python.message
    assert "python.org" in python.fix
    commands = found["windows-commands"]
    # Claude Code's guard is registered twice (PreToolUse, and its skills' shell commands).
    assert sorted({f.message.split(":")[0] for f in commands}) == [".claude/settings.json",
                                                                   ".qwen/settings.json"]
    assert all(f.status == "fail" and "docs/windows.md" in f.fix for f in commands)
    assert "runs it with bash or powershell on Windows" in commands[0].message

    machine.interpreter(PYORG + r"\python.exe", 3, 12)
    found = _windows_findings(project, tmp_path / "home", windows_env(PYORG, STORE))
    assert [(f.status, f.message) for f in found["windows-python"]] == [
        ("ok", "Windows-bound commands run with 'python'")]


def test_not_on_windows_nothing_is_said(project: Path, tmp_path: Path) -> None:
    found = diagnose(project, home=tmp_path / "home", env={}, run_hooks=False, windows=False)
    assert not [f for f in found if f.check.startswith("windows-")]
