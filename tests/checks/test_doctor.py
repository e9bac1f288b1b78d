"""hookwrap.checks.doctor: each check, shown on the broken situation it exists to find."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.projects import from_template

from hookwrap.checks import doctor
from hookwrap.generator.clis.kit import FAIL, OK, WARN, Finding
from hookwrap.generator.project import add_plan, init_plan

CLAUDE_FILE, GEMINI_FILE = ".claude/settings.json", ".gemini/settings.json"


@pytest.fixture
def home(isolated_home: Path) -> Path:
    return isolated_home


def _guarded(project: Path) -> None:
    init_plan(project).apply()
    add_plan(project, event="before_tool", name="guard", matcher="shell").apply()


@pytest.fixture
def root(tmp_path: Path, home: Path) -> Path:
    """A healthy project: one guard hook on both CLIs, and the folder trusted by Gemini."""
    project = from_template(tmp_path / "repo", _guarded)
    trust(home, {str(project.resolve()): "TRUST_FOLDER"})
    return project


def trust(home: Path, rules: dict) -> None:
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(rules))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def save(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))


def handler(root: Path, rel: str, event: str) -> dict:
    return load(root / rel)["hooks"][event][0]["hooks"][0]


def edit(root: Path, rel: str, change) -> None:
    data = load(root / rel)
    change(data)
    save(root / rel, data)


def run(root: Path, **kw) -> list[Finding]:
    return doctor.diagnose(root, **kw)


def problems(findings: list[Finding], check: str) -> list[Finding]:
    return [f for f in findings if f.check == check and f.status != OK]


def only(findings: list[Finding], check: str, status: str = FAIL) -> Finding:
    found = problems(findings, check)
    assert len(found) == 1, found
    assert found[0].status == status and found[0].fix
    return found[0]


def test_a_healthy_project_is_all_ok(root: Path) -> None:
    findings = run(root)
    assert [f for f in findings if f.status != OK] == []
    assert doctor.exit_code(findings) == 0
    assert {f.check for f in findings} >= {"settings-parse", "registration", "python", "gemini-trust"}
    assert json.loads(json.dumps(doctor.findings_to_json(findings)))[0]["status"] == OK


def test_settings_that_do_not_parse(root: Path) -> None:
    (root / CLAUDE_FILE).write_text('{"hooks": {},}')
    finding = only(run(root), "settings-parse")
    assert CLAUDE_FILE in finding.message
    assert doctor.exit_code(run(root)) == 1


def test_a_check_that_could_not_read_a_file_says_so(root: Path) -> None:
    """With .claude/settings.json broken, the checks that read it cannot say "ok": each says
    which file it could not check (the others it did check)."""
    (root / CLAUDE_FILE).write_text('{"hooks": {')
    findings = run(root)
    assert only(findings, "settings-parse").status == FAIL
    for check in ("registration", "orphans", "lookalikes", "scripts", "schema", "hooks-enabled",
                  "dead-keys", "duplicates", "commands", "hook-runs"):
        said = [f for f in findings if f.check == check]
        assert said and OK not in {f.status for f in said}, (check, said)
        assert any(f.status == WARN and CLAUDE_FILE in f.message and "not" in f.message
                   and "settings-parse" in f.message for f in said), (check, said)
    registration = [f.message for f in findings if f.check == "registration"]
    assert registration == [f"{CLAUDE_FILE} was not checked: it does not parse (settings-parse); in "
                            "the other files: every hook is registered and current"]


def test_claude_settings_with_comments_do_not_parse(root: Path) -> None:
    (root / CLAUDE_FILE).write_text('// a comment\n{}')
    only(run(root), "settings-parse")


def test_missing_registration(root: Path) -> None:
    save(root / CLAUDE_FILE, {"hooks": {}})
    finding = only(run(root), "registration")
    assert "missing from .claude/settings.json" in finding.message and "sync" in finding.fix


def test_drifted_registration(root: Path) -> None:
    edit(root, GEMINI_FILE, lambda d: d["hooks"]["BeforeTool"][0]["hooks"][0].update(timeout=5000))
    assert "differs" in only(run(root), "registration").message


def test_registration_on_a_platform_the_manifest_does_not_list(root: Path) -> None:
    add_plan(root, event="session_start", name="ctx", template="context", platforms="claude").apply()
    entry = {"name": "ctx", "type": "command",
             "command": 'python3 "${GEMINI_PROJECT_DIR}/.hookwrap/hooks/ctx.py" --platform gemini'}
    edit(root, GEMINI_FILE, lambda d: d["hooks"].setdefault("SessionStart", []).append({"hooks": [entry]}))
    assert "does not list gemini" in only(run(root), "registration").message


def test_orphaned_entry_and_script(root: Path) -> None:
    entry = {"type": "command",
             "command": 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/ghost.py --platform claude'}
    edit(root, CLAUDE_FILE, lambda d: d["hooks"].update(Stop=[{"hooks": [entry]}]))
    (root / ".hookwrap/hooks/old.py").write_text("")
    (root / ".hookwrap/hooks/ghost.py").write_text("")
    found = problems(run(root), "orphans")
    assert sorted(f.status for f in found) == [FAIL, WARN, WARN]
    assert any("ghost is registered" in f.message for f in found)
    assert any(".hookwrap/hooks/old.py" in f.message for f in found)


def test_missing_script(root: Path) -> None:
    (root / ".hookwrap/hooks/guard.py").unlink()
    found = problems(run(root), "scripts")
    assert len(found) == 2 and all(".hookwrap/hooks/guard.py" in f.message for f in found)


def test_python_missing_or_too_old(root: Path, tmp_path: Path) -> None:
    assert "no-such-python3 is not on PATH" in only(run(root, python="no-such-python3"), "python").message
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    old = bin_dir / "python3"
    old.write_text("#!/bin/sh\necho 3.8\n")
    old.chmod(0o755)
    env = {**os.environ, "PATH": str(bin_dir)}
    assert "is Python 3.8; the hooks need 3.9 or newer" in only(run(root, env=env), "python").message
    old.write_text("#!/bin/sh\necho 3.9\n")  # the floor: macOS's own python3
    assert not problems(run(root, env=env), "python")


def test_schema_errors(root: Path) -> None:
    edit(root, CLAUDE_FILE, lambda d: d["hooks"]["PreToolUse"][0]["hooks"][0].update(timeout="10"))
    found = problems(run(root), "schema")
    assert all(f.status == FAIL and f.fix for f in found)
    assert any("hooks.PreToolUse[0].hooks[0].timeout" in f.message for f in found)
    assert any("skip the permissions" in f.message for f in found)
    # the changed entry also drifted from the manifest
    assert problems(run(root), "registration")


@pytest.mark.parametrize("setup, status", [
    ("none", FAIL), ("env-true", OK), ("env-false", FAIL), ("restricted", FAIL),
    ("trust-off", OK), ("parent", OK), ("do-not-trust", FAIL), ("ancestor", OK),
])
def test_gemini_trust(root: Path, home: Path, setup: str, status: str) -> None:
    env = dict(os.environ)
    resolved = root.resolve()
    rules = {
        "none": {}, "parent": {str(resolved / "x"): "TRUST_PARENT"},
        "do-not-trust": {str(resolved.parent): "TRUST_FOLDER", str(resolved): "DO_NOT_TRUST"},
        "ancestor": {str(resolved.parent): "TRUST_FOLDER"},
    }.get(setup, {})
    trust(home, rules)
    if setup == "env-true":
        env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    if setup == "env-false":
        env["GEMINI_CLI_TRUST_WORKSPACE"] = "false"
        trust(home, {str(resolved): "TRUST_FOLDER"})
    if setup == "restricted":
        env["GEMINI_RESTRICTED_MODE"] = "true"
    if setup == "trust-off":
        save(home / ".gemini/settings.json", {"security": {"folderTrust": {"enabled": False}}})
    found = problems(run(root, env=env), "gemini-trust")
    assert (found[0].status if found else OK) == status


def test_gemini_trust_is_not_checked_without_gemini_hooks(root: Path, home: Path) -> None:
    trust(home, {})
    save(root / GEMINI_FILE, {})
    assert not problems(run(root), "gemini-trust")


def test_hooks_turned_off(root: Path, home: Path) -> None:
    edit(root, GEMINI_FILE, lambda d: d.update(hooksConfig={"enabled": False}))
    assert "hooksConfig.enabled is false" in only(run(root), "hooks-enabled").message
    # the project file overrides the user file
    save(home / ".gemini/settings.json", {"hooksConfig": {"enabled": False}})
    edit(root, GEMINI_FILE, lambda d: d.update(hooksConfig={"enabled": True}))
    assert not problems(run(root), "hooks-enabled")


def test_hook_named_in_hooks_config_disabled(root: Path, home: Path) -> None:
    save(home / ".gemini/settings.json", {"hooksConfig": {"disabled": ["guard"]}})
    assert "guard" in only(run(root), "hooks-enabled").fix


def test_claude_disable_all_hooks(root: Path) -> None:
    edit(root, CLAUDE_FILE, lambda d: d.update(disableAllHooks=True))
    assert "disableAllHooks" in only(run(root), "hooks-enabled").message


def test_dead_keys(root: Path, home: Path) -> None:
    save(home / ".gemini/settings.json", {"tools": {"enableHooks": True}})
    edit(root, GEMINI_FILE, lambda d: d["hooks"].update(enabled=True))
    found = problems(run(root), "dead-keys")
    assert sorted(f.message.split(": ")[1] for f in found) == ["hooks.enabled has no effect",
                                                               "tools.enableHooks has no effect"]
    assert all(f.status == WARN for f in found)


def test_duplicates_across_scopes(root: Path, home: Path) -> None:
    group = load(root / CLAUDE_FILE)["hooks"]["PreToolUse"][0]
    save(home / ".claude/settings.json", {"hooks": {"PreToolUse": [group]}})
    assert "runs it once" in only(run(root), "duplicates", WARN).message
    other = json.loads(json.dumps(group))
    other["hooks"][0]["command"] = "python3 .hookwrap/hooks/guard.py --platform claude"
    save(root / ".claude/settings.local.json", {"hooks": {"PreToolUse": [other]}})
    found = problems(run(root), "duplicates")
    assert any(f.status == FAIL and "fires twice" in f.message for f in found)


def test_relative_script_path(root: Path) -> None:
    entry = {"type": "command", "command": "python3 scripts/check.py"}
    edit(root, CLAUDE_FILE, lambda d: d["hooks"].update(Stop=[{"hooks": [entry]}]))
    assert "scripts/check.py" in only(run(root), "commands").message


def test_gemini_substitution_inside_quotes(root: Path) -> None:
    broken = 'python3 "$GEMINI_PROJECT_DIR/.hookwrap/hooks/guard.py" --platform gemini'
    edit(root, GEMINI_FILE, lambda d: d["hooks"]["BeforeTool"][0]["hooks"][0].update(command=broken))
    assert '"${GEMINI_PROJECT_DIR}/..."' in only(run(root), "commands").fix
    claude_style = 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/guard.py --platform gemini'
    edit(root, GEMINI_FILE, lambda d: d["hooks"]["BeforeTool"][0]["hooks"][0].update(command=claude_style))
    only(run(root), "commands")
    unquoted = "python3 $GEMINI_PROJECT_DIR/.hookwrap/hooks/guard.py --platform gemini"
    edit(root, GEMINI_FILE, lambda d: d["hooks"]["BeforeTool"][0]["hooks"][0].update(command=unquoted))
    assert not problems(run(root), "commands")


def test_unanchored_gemini_tool_matcher(root: Path) -> None:
    edit(root, GEMINI_FILE, lambda d: d["hooks"]["BeforeTool"][0].update(matcher="run_shell_command"))
    assert only(run(root), "commands", WARN).fix == "anchor it: ^(run_shell_command)$"


def test_timeouts_in_the_wrong_unit(root: Path) -> None:
    edit(root, CLAUDE_FILE, lambda d: d["hooks"]["PreToolUse"][0]["hooks"][0].update(timeout=60000))
    finding = only(run(root), "commands", WARN)
    assert "looks like milliseconds" in finding.message and finding.fix == "use 60"
    save(root / CLAUDE_FILE, {})
    edit(root, GEMINI_FILE, lambda d: d["hooks"]["BeforeTool"][0]["hooks"][0].update(timeout=60))
    finding = only(run(root), "commands", WARN)
    assert "looks like seconds" in finding.message and finding.fix == "use 60000"


def test_missing_manifest(tmp_path: Path) -> None:
    finding = only(run(tmp_path), "manifest")
    assert "init" in finding.fix


def test_a_look_alike_of_a_hookwrap_command_is_reported_and_never_owned(root: Path) -> None:
    entry = {"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/ghost.py'}
    edit(root, CLAUDE_FILE, lambda d: d["hooks"].update(Stop=[{"hooks": [entry]}]))
    found = problems(run(root), "lookalikes")
    assert [f.status for f in found] == [WARN]
    assert "hooks.Stop[0].hooks[0]" in found[0].message and "not a command hookwrap writes" in found[0].message
    assert problems(run(root), "orphans") == []
