"""The Windows command forms (generator/winforms.py): linted for every shell their CLI may use
on Windows, and run for real through bash and dash with the real launcher and guard, from a
subfolder of a project whose path holds a space and a quote.

Every payload here is harmless text (`git reset --hard` is only read by the guard, never run),
and no command string is built from a payload.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support.cli import hw
from support.projects import initialised

from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis._base import with_deadline
from hookwrap.generator.registrations import command_for
from hookwrap.generator.winforms import SHELLS, lint, windows_command
from hookwrap.names import NormalizedEvent, Platform

CLIS = sorted(SHELLS)
# A Bash-tool call in Claude Code's shape, which the guard blocks; the other CLIs' runtimes read
# other tool names and allow it, which is as good a check of equivalence.
BLOCKED = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
           "tool_input": {"command": "git push --force origin main"}, "cwd": "/tmp"}
ALLOWED = {**BLOCKED, "tool_input": {"command": "ls"}}


@pytest.mark.parametrize("cli", CLIS)
def test_every_windows_form_passes_the_lint_for_its_shells(cli: str) -> None:
    for fail_closed in (False, True):
        assert lint(windows_command(cli, "guard", "py -3", fail_closed=fail_closed),
                    SHELLS[cli]) == []


@pytest.mark.parametrize("cli", CLIS)
def test_todays_posix_commands_fail_the_lint(cli: str) -> None:
    # What each CLI gets in its shared `command` today does not run on its Windows shells.
    assert lint(command_for("guard", Platform(cli), "python3"), SHELLS[cli]) != []


@pytest.mark.parametrize("command,says", [
    ('"python" run.py', "starts with a quote"),
    ('python "$CLAUDE_PROJECT_DIR"/x.py', "holds $"),
    ("python %CD%\\x.py", "holds %"),
    ("python x.py || true", "holds && or ||"),
    ("python3 x.py", "Microsoft Store stub"),
    ("python /x.py", "starts with /"),
    ("python x.py 2>/dev/null", "POSIX shell syntax"),
    ('python -c "a"', "double quote, which Node or Rust"),
])
def test_lint_names_what_breaks(command: str, says: str) -> None:
    assert any(says in problem for problem in lint(command, ("cmd-quoted", "powershell")))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("win") / "it's a dir" / "my proj"
    root.mkdir(parents=True)
    options = [f"--platform={cli}" for cli in CLIS]
    initialised(root, *options)
    assert hw(root, "add", "before_tool", "guard").code == 0
    (root / "src" / "deep").mkdir(parents=True)
    return root


def _env(home: Path) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8"}


def _run(argv: list[str], cwd: Path, payload: dict, env: dict[str, str]
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, cwd=cwd, input=json.dumps(payload).encode(), env=env,
                          capture_output=True, timeout=60, check=False)


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize("cli", CLIS)
def test_windows_form_runs_the_guard_as_the_launcher_does(project: Path, tmp_path: Path,
                                                          shell: str, cli: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"no {shell}")
    # As registered: with the fail-closed guard's deadline (what the launcher reads).
    command = with_deadline(windows_command(cli, "guard", "python3", fail_closed=True), "guard", 7)
    # Qwen Code runs hooks in the project (its form is the relative one); the others from a
    # subfolder, where only Python finding the project can make it work.
    cwd = project if cli == "qwen" else project / "src" / "deep"
    env = _env(tmp_path)
    direct = ["python3", ".hookwrap/lib/run.py", "guard", "--fail-closed=7", "--platform", cli]
    for payload in (BLOCKED, ALLOWED):
        got = _run([shell, "-c", command], cwd, payload, env)
        want = _run(direct, project, payload, env)
        assert (got.returncode, got.stdout) == (want.returncode, want.stdout), got.stderr
        assert b"Traceback" not in got.stderr
    if cli in ("claude", "codex"):  # read as a shell call there: the guard must block it
        blocked = json.loads(_run([shell, "-c", command], cwd, BLOCKED, env).stdout)
        assert blocked["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("fail_closed,code", [(True, 2), (False, 1)])
def test_no_project_above_is_said_and_exits_by_policy(tmp_path: Path, fail_closed: bool,
                                                      code: int) -> None:
    command = windows_command("codex", "guard", "python3", fail_closed=fail_closed)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    got = _run(["dash", "-c", command], elsewhere, ALLOWED, _env(tmp_path))
    assert got.returncode == code
    assert got.stderr.decode() == (f"hookwrap: no hookwrap.toml in {elsewhere} or above, so "
                                   "hook guard cannot run\n")


def test_claude_form_prefers_the_project_variable(project: Path, tmp_path: Path) -> None:
    command = windows_command("claude", "guard", "python3", fail_closed=True)
    env = {**_env(tmp_path), "CLAUDE_PROJECT_DIR": str(project)}
    outside = tmp_path / "outside"  # Claude Code's cwd may leave the project; the variable not
    outside.mkdir()
    got = _run(["bash", "-c", command], outside, BLOCKED, env)
    assert json.loads(got.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_per_os_fields_are_written_and_nothing_else_changes(tmp_path: Path) -> None:
    from hookwrap.generator.project import load_manifest, spec_registrations

    root = initialised(tmp_path / "p", *[f"--platform={cli}" for cli in CLIS])
    assert hw(root, "add", "before_tool", "guard").code == 0
    manifest = root / "hookwrap.toml"
    manifest.write_text('python_windows = "python"\n' + manifest.read_text())
    assert hw(root, "sync").code == 0
    assert hw(root, "sync", "--check").code == 0
    spec = load_manifest(root).hooks[0]
    found, _ = spec_registrations(spec, "python3", python_windows="python")
    other, _ = spec_registrations(spec, "python3", python_windows="py -3")
    for mine, theirs in zip(found, other):
        field = {"codex": "commandWindows", "copilot": "powershell"}.get(mine.platform.value)
        differing = [k for k in mine.handler if mine.handler[k] != theirs.handler.get(k)]
        # Only the Windows field follows python_windows; the POSIX command is the same.
        assert differing == ([field] if field else [])
        if field:
            assert list(mine.handler)[-1] == field
            # The fail-closed guard's deadline, as its POSIX command carries it.
            assert mine.handler[field] == with_deadline(
                windows_command(mine.platform.value, "guard", "python", fail_closed=True),
                "guard", 7)
            assert " guard --fail-closed=7 --platform " in mine.handler["command"]
    codex = json.loads((root / ".codex/hooks.json").read_text())
    handler = codex["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["commandWindows"].startswith('python -c "import os,runpy,sys;')


def test_one_command_clis_carry_the_windows_form_only_when_python_windows_is_named(
        tmp_path: Path) -> None:
    clis = ["claude", "droid", "gemini", "qwen"]
    files = {"claude": ".claude/settings.json", "droid": ".factory/settings.json",
             "gemini": ".gemini/settings.json", "qwen": ".qwen/settings.json"}
    root = initialised(tmp_path / "p", *[f"--platform={cli}" for cli in clis])
    assert hw(root, "add", "before_tool", "guard").code == 0
    posix = {cli: (root / rel).read_bytes() for cli, rel in files.items()}
    manifest = root / "hookwrap.toml"
    text = manifest.read_text()
    manifest.write_text('python_windows = "python"\n' + text)
    assert hw(root, "sync").code == 0
    assert hw(root, "sync", "--check").code == 0
    for cli, rel in files.items():
        event = setup_of(Platform(cli)).runtime.event_names()[NormalizedEvent.BEFORE_TOOL]
        handlers = json.loads((root / rel).read_text())["hooks"][event][0]["hooks"]
        # The Windows form replaced the command: recognised as hookwrap's, not added beside it.
        assert [h["command"] for h in handlers] == [with_deadline(
            windows_command(cli, "guard", "python", fail_closed=True), "guard", 7)]
    # Without python_windows the POSIX files come back byte for byte.
    manifest.write_text(text)
    assert hw(root, "sync").code == 0
    assert {cli: (root / rel).read_bytes() for cli, rel in files.items()} == posix
    # `py` exists only on Windows: said, since these CLIs run the same command everywhere.
    manifest.write_text('python_windows = "py -3"\n' + text)
    result = hw(root, "sync")
    said = result.out + result.err
    assert "`py` is only on Windows" in said
    assert "Claude Code" in said and "Factory Droid" in said
