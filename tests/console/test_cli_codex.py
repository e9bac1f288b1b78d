"""Codex CLI 0.169.0 in the generator: `.codex/hooks.json`, the registered command, trust, doctor, test.

Regenerate the golden file with `pytest tests/console --update-golden` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from support import GOLDEN
from support.cli import ALL_ADDS, hw
from support.projects import from_template

from hookwrap.checks.doctor import diagnose
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.codex import SETUP as CODEX_CLI
from hookwrap.generator.clis.codex import trusted_hash
from hookwrap.generator.clis.kit import TrustEntry, set_toml_values
from hookwrap.generator.errors import SettingsError

CODEX = ".codex/hooks.json"
GOLDEN_FILE = GOLDEN / "settings" / "codex.hooks.json"


def codex_project(root: Path, *platforms: str) -> Path:
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)
    args = [a for p in platforms or ("claude", "gemini", "codex") for a in ("--platform", p)]
    assert hw(root, "init", *args).code == 0
    return root


def _full_codex(root: Path) -> None:
    assert hw(root, "init").code == 0
    codex_project(root)
    for args in ALL_ADDS:
        result = hw(root, "add", *args)
        assert result.code == 0, result.err


@pytest.fixture
def full_codex(empty_dir: Path) -> Path:
    """A git repo initialised for three CLIs with every template added (a copy of one template)."""
    return from_template(empty_dir, _full_codex)


def test_hooks_json_matches_the_golden_file(full_codex: Path, update_golden: bool) -> None:
    data = (full_codex / CODEX).read_bytes()
    if update_golden:
        GOLDEN_FILE.write_bytes(data)
        return
    assert data == GOLDEN_FILE.read_bytes(), "run pytest --update-golden and review"
    hooks = json.loads(data)["hooks"]
    assert list(hooks) == ["PreToolUse", "SessionStart", "Stop", "PostToolUse"]  # no before_model
    assert [g["matcher"] for g in hooks["PreToolUse"]] == ["Bash|apply_patch|read_file", "Bash"]
    assert hooks["PostToolUse"][0]["matcher"] == "apply_patch"
    assert "matcher" not in hooks["Stop"][0]
    assert hooks["Stop"][0]["hooks"][0]["timeout"] == 300  # seconds
    assert hw(full_codex, "sync", "--check").code == 0


def test_manifest_platforms_decide_where_hooks_go(empty_dir: Path) -> None:
    project = codex_project(empty_dir, "codex")  # (on an existing project, -p adds a CLI)
    text = (project / "hookwrap.toml").read_text()
    assert 'platforms = ["codex"]' in text
    assert hw(project, "add", "before_tool", "guard").code == 0
    assert 'platforms = ["codex"]' in text.split("[hooks.guard]")[0]
    assert (project / CODEX).is_file() and not (project / ".claude").exists()
    assert hw(project, "add", "after_tool", "audit", "-p", "claude", "-p", "codex").code == 0
    assert '"PostToolUse"' in (project / ".claude/settings.json").read_text()


def test_init_without_a_flag_picks_the_folders_the_repo_has(empty_dir: Path) -> None:
    (empty_dir / ".codex").mkdir()
    (empty_dir / ".claude").mkdir()
    assert hw(empty_dir, "init").code == 0
    assert 'platforms = ["claude", "codex"]' in (empty_dir / "hookwrap.toml").read_text()


def test_a_bad_top_level_platforms_names_the_key_and_line(project: Path) -> None:
    (project / "hookwrap.toml").write_text('version = 1\nplatforms = ["codex", "cursor"]\n')
    result = hw(project, "sync")
    assert result.code == 1
    assert 'hookwrap.toml: platforms: "cursor" is not a platform (line 2)' in result.err


def test_user_entries_survive_add_and_remove(project: Path) -> None:
    codex_project(project, "codex")
    mine = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "my-check", "statusMessage": "mine"}]}],
        "Interrupt": [{"hooks": [{"type": "command", "command": "bye"}]}]}}
    (project / ".codex").mkdir()
    (project / CODEX).write_text(json.dumps(mine, indent=2) + "\n")
    hw(project, "add", "before_tool", "guard")
    data = json.loads((project / CODEX).read_text())
    assert data["hooks"]["PreToolUse"][0] == mine["hooks"]["PreToolUse"][0]
    assert setup_of("codex").owned_handler(data["hooks"]["PreToolUse"][1]["hooks"][0]) == "guard"
    hw(project, "remove", "guard")
    assert json.loads((project / CODEX).read_text()) == mine


def _run_command(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, check=False,
                          timeout=60, env={**os.environ, "PWD": str(cwd)},
                          input=json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                                            "tool_input": {"command": "git push --force"},
                                            "cwd": str(cwd)}))


def test_the_command_finds_the_project_from_a_subdirectory_with_a_space(tmp_path: Path) -> None:
    root = codex_project(tmp_path / "my project", "codex")
    hw(root, "add", "before_tool", "guard")
    command = json.loads((root / CODEX).read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert str(root) not in command and '"$d/.hookwrap/lib/run.py" guard ' in command  # nothing absolute
    deep = root / "sub dir" / "deeper"
    deep.mkdir(parents=True)
    done = _run_command(command, deep)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_command_fails_closed_and_says_why_without_a_project(tmp_path: Path) -> None:
    command = CODEX_CLI.registration.handler(CODEX_CLI, CODEX_CLI.command("guard", "python3"),
                                             name="guard", timeout_s=10, fail_closed=True,
                                             event="before_tool", description="")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _run_command(command["command"], elsewhere)
    assert done.returncode == 2  # Codex reads exit 2 with stderr as a block
    assert "no hookwrap.toml in" in done.stderr and "hook guard cannot run" in done.stderr
    audit = CODEX_CLI.command("audit", "python3")
    assert _run_command(audit, elsewhere).returncode == 1  # fails open: Codex goes on
    assert setup_of("codex").owned_handler({"command": audit}) == "audit"


def test_set_toml_values_keeps_every_other_line() -> None:
    text = ('# my settings\nmodel = "gpt-5.5"\n\n[projects."/p"]\ntrust_level = "untrusted"  # hm\n\n'
            '[hooks.state."/x:stop:0:0"]\nenabled = false\n')
    entries = [TrustEntry(("projects", "/p", "trust_level"), "trusted", "the project"),
               TrustEntry(("hooks", "state", "/p/.codex/hooks.json:stop:0:0", "trusted_hash"), "sha256:ab",
                          "hook s (Stop)", "s"),
               TrustEntry(("model",), "gpt-5.5", "unchanged")]
    new, changes = set_toml_values(text, entries, label="config.toml")
    assert [c.action for c in changes] == ["update", "create", "unchanged"]
    assert new.startswith('# my settings\nmodel = "gpt-5.5"\n\n[projects."/p"]\ntrust_level = "trusted"')
    assert '[hooks.state."/x:stop:0:0"]\nenabled = false\n' in new
    assert new.endswith('[hooks.state."/p/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:ab"\n')
    assert set_toml_values(new, entries, label="c")[0] == new
    with pytest.raises(SettingsError, match="projects is an integer, not a table"):
        set_toml_values('projects = 1\n', entries, label="c")
    with pytest.raises(SettingsError, match="line 1"):
        set_toml_values('x = [\n', entries, label="c")


def test_trusted_hash_reproduces_what_codex_lists() -> None:
    # currentHash values of `codex app-server` hooks/list (tests/e2e/test_codex_smoke.py).
    assert trusted_hash("PreToolUse", {"type": "command", "command": "python3 /x/hook.py a", "timeout": 30},
                        "Bash") == "sha256:7d803114b0d9465fe4c2194995c25cc4771c8289ca3ea8f8184c65ddd6641269"
    assert trusted_hash("SessionEnd", {"type": "command", "command": "echo end", "timeout": 10}) == \
        "sha256:84be7971dba2dbb128add226e0537c753853bf675df8efb85a5dcbb611374b4f"
    assert trusted_hash("Stop", {"type": "command", "command": "echo stop"}, "ignored") == \
        "sha256:236335e9e512004a0f5f42af65a07ea9059bd9a23dbb68286ed57fecf2b69ddf"


def test_trust_doctor_and_sync_agree_on_untrusted_hooks(project: Path, isolated_home: Path) -> None:
    codex_project(project, "codex")
    added = hw(project, "add", "before_tool", "guard")
    assert "Codex CLI skips guard without a word until you run `hookwrap trust --platform codex`" in added.out
    failing = [f for f in diagnose(project) if f.check == "codex-trust"]
    assert {f.status for f in failing} == {"fail"} and len(failing) == 2  # the project, the hook
    assert all(f.fix == "run `hookwrap trust --platform codex`" for f in failing)

    dry = hw(project, "trust", "--platform", "codex", "--dry-run")
    assert dry.out.count("would create") == 2 and not (isolated_home / ".codex").exists()
    assert hw(project, "trust", "--platform", "codex").code == 0
    config = (isolated_home / ".codex" / "config.toml").read_text()
    assert f'[projects."{project.resolve()}"]' in config and "trusted_hash" in config
    assert [f.status for f in diagnose(project) if f.check == "codex-trust"] == ["ok"]
    assert "nothing to trust" in hw(project, "trust", "--platform", "codex").out

    (project / "hookwrap.toml").write_text((project / "hookwrap.toml").read_text().replace(
        "timeout = 10", "timeout = 20"))
    synced = hw(project, "sync")
    assert "Codex CLI skips guard without a word" in synced.out
    [changed] = [f for f in diagnose(project) if f.check == "codex-trust"]
    assert "changed since it was trusted" in changed.message


def test_hookwrap_test_runs_the_codex_registration(full_codex: Path) -> None:
    shell = hw(full_codex, "test", "guard", "--platform", "codex", "--tool", "shell",
               "--input", '{"command": "git push --force origin main"}')
    assert shell.code == 0, shell.out
    assert shell.out.startswith("codex: blocked: Blocked by the guard hook: git push --force"), shell.out
    patch = "*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch\n"
    env_patch = hw(full_codex, "test", "guard", "--platform", "codex", "--tool", "edit_file",
                   "--input", json.dumps({"command": patch}))
    assert "blocked: Blocked by the guard hook: writing a .env file" in env_patch.out, env_patch.out
    stop = hw(full_codex, "test", "stop_gate", "--platform", "codex", "--json")
    assert json.loads(stop.out)["tests"][0]["event"] == "Stop"
