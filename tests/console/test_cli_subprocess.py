"""`python -m hookwrap` in a subprocess, then every registered command run the way each CLI runs it:
`bash -c` with the command text from the settings file, from a project path with a space, with a
python3 on PATH that cannot import hookwrap, fed the captured payloads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.cli import ALL_ADDS as ADDS
from support.cli import CLAUDE, GEMINI, MANIFEST, hw_module, payload, read_json

from hookwrap.generator.clis import setup_of
from hookwrap.generator.manifest import Manifest
from hookwrap.generator.settings import OWNED_COMMAND_RE
from hookwrap.platforms import Platform

# A captured payload for each event the project registers.
PAYLOADS = {
    ("claude", "PreToolUse"): "PreToolUse",
    # Claude Code 2.1.332's PreSkillShellCommand: PreToolUse's fields (its own name is set below).
    ("claude", "PreSkillShellCommand"): "PreToolUse",
    ("claude", "SessionStart"): "SessionStart",
    ("claude", "Stop"): "Stop",
    ("claude", "PostToolUse"): "PostToolUse.Write",
    ("gemini", "BeforeTool"): "BeforeTool.run_shell_command",
    ("gemini", "SessionStart"): "SessionStart",
    ("gemini", "AfterAgent"): "AfterAgent",
    ("gemini", "AfterTool"): "AfterTool.write_file",
    ("gemini", "BeforeModel"): "BeforeModel",
}


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin directory of a venv without pip and without site packages: hookwrap is not there."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    return venv / "bin"


@pytest.fixture(scope="module")
def spaced_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli") / "team repo" / "my project"
    root.mkdir(parents=True)
    proc = hw_module(root, "init")
    assert proc.returncode == 0, proc.stderr
    assert "create  hookwrap.toml" in proc.stdout.splitlines()
    for args in ADDS:
        proc = hw_module(root, "add", *args)
        assert proc.returncode == 0, proc.stderr
    return root


def hook_env(root: Path, platform: str, bin_dir: Path) -> dict[str, str]:
    env = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": os.environ["HOME"],
           "LANG": "C.UTF-8"}
    if platform == "claude":
        env["CLAUDE_PROJECT_DIR"] = str(root)
    else:
        env.update(GEMINI_PROJECT_DIR=str(root), GEMINI_CWD=str(root), CLAUDE_PROJECT_DIR=str(root))
    return env


def run_shell(root: Path, platform: str, command: str, data: dict[str, Any], bin_dir: Path) -> subprocess.CompletedProcess:
    """Run one registered command as the CLI would: Gemini first substitutes $VARS textually."""
    env = hook_env(root, platform, bin_dir)
    if platform == "gemini":
        command = setup_of(Platform.GEMINI).host.expand_command(setup_of(Platform.GEMINI), command, env)
    return subprocess.run(["bash", "-c", command], input=json.dumps(data), cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def registered(root: Path) -> list[tuple[str, str, str, str]]:
    """(platform, event, hook name, command) for every handler in both settings files."""
    found = []
    for platform, rel in (("claude", CLAUDE), ("gemini", GEMINI)):
        for event, groups in read_json(root, rel)["hooks"].items():
            for group in groups:
                for handler in group["hooks"]:
                    name = OWNED_COMMAND_RE.search(handler["command"]).group("name")
                    found.append((platform, event, name, handler["command"]))
    return found


def command_of(root: Path, platform: str, name: str) -> str:
    return next(c for p, _, n, c in registered(root) if p == platform and n == name)


def one_json(proc: subprocess.CompletedProcess) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, f"expected one JSON document, got {proc.stdout!r} (stderr {proc.stderr!r})"
    return json.loads(lines[0])


def with_input(platform: str, name: str, root: Path, **tool_input: Any) -> dict[str, Any]:
    data = payload(platform, name)
    data["cwd"] = str(root)
    if tool_input:
        data["tool_input"] = {**data["tool_input"], **tool_input}
    return data


def test_the_bare_python_cannot_import_hookwrap(spaced_project: Path, bare_python: Path) -> None:
    env = hook_env(spaced_project, "claude", bare_python)
    which = subprocess.run(["bash", "-c", "command -v python3"], env=env, cwd=spaced_project,
                           capture_output=True, text=True)
    assert which.stdout.strip() == str(bare_python / "python3")
    proc = subprocess.run(["bash", "-c", 'python3 -c "import hookwrap"'], env=env, cwd=spaced_project,
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "No module named 'hookwrap'" in proc.stderr


def test_every_registered_command_is_there(spaced_project: Path) -> None:
    names = {(p, e, n) for p, e, n, _ in registered(spaced_project)}
    assert names == {
        ("claude", "PreToolUse", "guard"), ("claude", "PreToolUse", "audit"),
        ("claude", "PreSkillShellCommand", "guard"), ("claude", "PreSkillShellCommand", "audit"),
        ("claude", "SessionStart", "context"), ("claude", "Stop", "stop_gate"),
        ("claude", "PostToolUse", "format"),
        ("gemini", "BeforeTool", "guard"), ("gemini", "BeforeTool", "audit"),
        ("gemini", "SessionStart", "context"), ("gemini", "AfterAgent", "stop_gate"),
        ("gemini", "AfterTool", "format"), ("gemini", "BeforeModel", "m"),
    }
    assert " " in str(spaced_project)


def test_every_registered_command_runs_and_answers_one_json_document(spaced_project: Path,
                                                                     bare_python: Path) -> None:
    for platform, event, name, command in registered(spaced_project):
        data = {**with_input(platform, PAYLOADS[(platform, event)], spaced_project),
                "hook_event_name": event}
        proc = run_shell(spaced_project, platform, command, data, bare_python)
        assert proc.returncode == 0, f"{platform} {name}: {proc.stderr}"
        lines = proc.stdout.splitlines()
        assert len(lines) == 1, f"{platform} {name}: {proc.stdout!r} {proc.stderr!r}"
        assert isinstance(json.loads(lines[0]), dict)


@pytest.mark.parametrize("command", ["rm -rf /", "rm -rf ~"])
def test_guard_denies_on_claude(spaced_project: Path, bare_python: Path, command: str) -> None:
    data = with_input("claude", "PreToolUse", spaced_project, command=command)
    out = one_json(run_shell(spaced_project, "claude", command_of(spaced_project, "claude", "guard"),
                             data, bare_python))
    assert out["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "guard" in out["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("command", ["rm -rf /", "rm -rf ~"])
def test_guard_denies_on_gemini(spaced_project: Path, bare_python: Path, command: str) -> None:
    data = with_input("gemini", "BeforeTool.run_shell_command", spaced_project, command=command)
    out = one_json(run_shell(spaced_project, "gemini", command_of(spaced_project, "gemini", "guard"),
                             data, bare_python))
    assert out["decision"] == "deny"
    assert "guard" in out["reason"]


@pytest.mark.parametrize("platform, name", [("claude", "PreToolUse"), ("gemini", "BeforeTool.run_shell_command")])
def test_guard_allows_ls(spaced_project: Path, bare_python: Path, platform: str, name: str) -> None:
    data = with_input(platform, name, spaced_project, command="ls")
    out = one_json(run_shell(spaced_project, platform, command_of(spaced_project, platform, "guard"),
                             data, bare_python))
    assert out.get("decision") not in ("deny", "block")
    assert out.get("hookSpecificOutput", {}).get("permissionDecision") in (None, "allow")


def test_guard_protects_env_files_on_both(spaced_project: Path, bare_python: Path) -> None:
    claude = with_input("claude", "PreToolUse.Write", spaced_project,
                        file_path=str(spaced_project / ".env"))
    out = one_json(run_shell(spaced_project, "claude", command_of(spaced_project, "claude", "guard"),
                             claude, bare_python))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    gemini = with_input("gemini", "BeforeTool.write_file", spaced_project,
                        file_path=str(spaced_project / ".env"))
    out = one_json(run_shell(spaced_project, "gemini", command_of(spaced_project, "gemini", "guard"),
                             gemini, bare_python))
    assert out["decision"] == "deny"


@pytest.mark.parametrize("platform", ["claude", "gemini"])
def test_context_injects_the_markdown_file(spaced_project: Path, bare_python: Path, platform: str) -> None:
    (spaced_project / ".hookwrap/context.md").write_text("Use tabs, said nobody.\n")
    data = with_input(platform, "SessionStart", spaced_project)
    out = one_json(run_shell(spaced_project, platform, command_of(spaced_project, platform, "context"),
                             data, bare_python))
    assert "Use tabs, said nobody." in json.dumps(out)


def test_audit_appends_a_line_per_call_on_both(spaced_project: Path, bare_python: Path) -> None:
    log = spaced_project / ".hookwrap/logs/audit.jsonl"
    before = log.read_text().count("\n") if log.exists() else 0
    for platform, name in (("claude", "PreToolUse"), ("gemini", "BeforeTool.run_shell_command")):
        data = with_input(platform, name, spaced_project, command="echo audited")
        one_json(run_shell(spaced_project, platform, command_of(spaced_project, platform, "audit"),
                           data, bare_python))
    lines = log.read_text().splitlines()[before:]
    assert len(lines) == 2 and all("echo audited" in line for line in lines)


@pytest.mark.parametrize("platform, payload_name", [("claude", "Stop"), ("gemini", "AfterAgent")])
def test_stop_gate_keeps_the_agent_working_while_the_check_fails(spaced_project: Path, bare_python: Path,
                                                                   platform: str, payload_name: str) -> None:
    manifest = spaced_project / "hookwrap.toml"
    original = manifest.read_text()
    data = with_input(platform, payload_name, spaced_project)
    command = command_of(spaced_project, platform, "stop_gate")
    try:
        # A check that runs and fails keeps the agent working.
        manifest.write_text(original.replace('check = "python3 -m pytest -q"', 'check = "exit 3"'))
        data["session_id"] = f"stop-gate-fails-{platform}"
        out = one_json(run_shell(spaced_project, platform, command, data, bare_python))
        assert out["decision"] == ("block" if platform == "claude" else "deny")
    finally:
        manifest.write_text(original)
    # The default check, `python3 -m pytest -q`, cannot run on the bare python3 (no pytest):
    # the agent cannot fix that, so it may stop, and the user is told why.
    data["session_id"] = f"stop-gate-no-pytest-{platform}"
    out = one_json(run_shell(spaced_project, platform, command, data, bare_python))
    assert "decision" not in out and "pytest" in out["systemMessage"]


def test_a_quoted_dollar_form_would_break_on_this_path(spaced_project: Path, bare_python: Path) -> None:
    # The control that makes the tests above meaningful: Gemini's substitution of a quoted
    # "$GEMINI_PROJECT_DIR/..." breaks on a path with a space, and hookwrap's form is left alone.
    ours = command_of(spaced_project, "gemini", "guard")
    env = hook_env(spaced_project, "gemini", bare_python)
    assert setup_of(Platform.GEMINI).host.expand_command(setup_of(Platform.GEMINI), ours, env) == ours
    naive = 'python3 "$GEMINI_PROJECT_DIR/.hookwrap/hooks/guard.py" --platform gemini'
    data = with_input("gemini", "BeforeTool.run_shell_command", spaced_project, command="ls")
    assert run_shell(spaced_project, "gemini", naive, data, bare_python).returncode != 0


def test_python_m_hookwrap_list_and_sync_from_a_subdirectory(spaced_project: Path) -> None:
    sub = spaced_project / "docs dir"
    sub.mkdir(exist_ok=True)
    proc = hw_module(spaced_project, "sync", "--check", cwd=sub)
    assert (proc.returncode, proc.stdout.splitlines()) == (0, ["nothing to change: everything matches hookwrap.toml"])
    proc = hw_module(spaced_project, "list", "--json", cwd=sub)
    assert proc.returncode == 0
    rows = json.loads(proc.stdout)
    assert all({"name", "event", "matcher", "platforms"} <= set(row) for row in rows)
    assert [row["name"] for row in rows] == ["guard", "context", "stop_gate", "format", "audit", "m"]


def test_python_m_hookwrap_errors_go_to_stderr_with_exit_2(spaced_project: Path) -> None:
    proc = hw_module(spaced_project, "add", "nope", "x")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[0] == 'error: "nope" is not an event'
    assert proc.stderr.splitlines()[1].startswith("hint: valid events: after_agent, before_tool")


def test_two_adds_at_once_both_land(tmp_path: Path) -> None:
    root = tmp_path / "race project"
    root.mkdir()
    assert hw_module(root, "init").returncode == 0
    names = ["alpha", "bravo", "charlie", "delta"]
    procs = [subprocess.Popen([sys.executable, "-m", "hookwrap", "add", "before_tool", name],
                              cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in names]
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    assert sorted(s.name for s in Manifest.load(root / MANIFEST).hooks) == names
    from support.cli import owned_names

    assert sorted(set(owned_names(root, CLAUDE))) == names  # PreToolUse, PreSkillShellCommand
    assert len(owned_names(root, CLAUDE)) == 2 * len(names)
    assert sorted(owned_names(root, GEMINI)) == names
    assert hw_module(root, "sync", "--check").returncode == 0
