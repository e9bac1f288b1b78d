"""What add/sync and test tell the user beyond their own changes (the command in-process:
support.cli.hw; its exit codes as a process are tests/generator/test_cli_exit_codes.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import hw


def test_sync_warns_about_a_foreign_entry_that_makes_claude_drop_the_event(project: Path):
    (project / ".claude").mkdir()
    foreign = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./lint.sh", "timeout": "10"}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(foreign))
    result = hw(project, "add", "before_tool", "guard")
    assert result.code == 0  # hookwrap's part is done; the foreign entry is reported
    assert ("problem: .claude/settings.json: hooks.PreToolUse[0].hooks[0].timeout: "
            "must be a positive number; Claude Code drops every PreToolUse hook of this file, "
            "guard included") in result.err
    check = hw(project, "sync", "--check")
    assert check.code == 1
    assert check.out == "nothing of hookwrap's to change, but the problems above need fixing\n"
    # The foreign entry is reported, never repaired: it is not hookwrap's to change.
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] == "10"


def test_sync_is_quiet_about_valid_files(project: Path):
    result = hw(project, "add", "before_tool", "guard")
    assert "warning" not in result.err and "problem" not in result.err


def test_test_says_claude_drops_the_event_instead_of_running_the_hook(project: Path):
    assert hw(project, "add", "before_tool", "guard").code == 0
    path = project / ".claude" / "settings.json"
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"].insert(0, {"matcher": "Bash", "hooks": "oops"})
    path.write_text(json.dumps(data))
    result = hw(project, "test", "guard", "-p", "claude", "--tool", "shell",
                       "--input", '{"command": "rm -rf /"}')
    assert result.code == 1
    assert result.out.splitlines()[0] == (
        "claude (PreToolUse): not run: Claude Code drops every PreToolUse hook of "
        ".claude/settings.json (hooks.PreToolUse[0].hooks: must be a list)")
    # Its entry on PreSkillShellCommand (Claude Code 2.1.332) is in another event: it runs.
    assert any(line.startswith("claude (PreSkillShellCommand): blocked: ")
               for line in result.out.splitlines())


def _write_hook(project: Path, name: str, body: str) -> None:
    script = project / ".hookwrap" / "hooks" / f"{name}.py"
    script.write_text("import os, sys\n"
                      "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "
                      "os.pardir, 'lib'))\n"
                      "from hookwrap import HookOutput, main\n"
                      f"def hook(event):\n    {body}\n"
                      "raise SystemExit(main(hook))\n")


def test_test_reports_a_crashing_hook_as_a_problem(project: Path):
    assert hw(project, "add", "before_tool", "boom").code == 0
    _write_hook(project, "boom", "raise RuntimeError('kaboom')")
    result = hw(project, "test", "boom", "--tool", "shell", "--input", '{"command": "ls"}')
    assert result.code == 1
    assert "claude (PreToolUse): blocked: Hook Script Error" in result.out
    assert "claude (PreSkillShellCommand): blocked: Hook Script Error" in result.out
    assert "problem: the hook raised an exception" in result.out


def test_test_mentions_a_rewritten_tool_input(project: Path):
    assert hw(project, "add", "before_tool", "rewrite").code == 0
    _write_hook(project, "rewrite",
                "return HookOutput(updated_input={**event.tool_input, 'command': 'ls -la'})")
    result = hw(project, "test", "rewrite", "--tool", "shell", "--input", '{"command": "ls"}')
    assert result.code == 0, result.out + result.err
    lines = result.out.splitlines()
    assert 'claude (PreToolUse): allowed; tool input rewritten to {"command": "ls -la"}' in lines
    # Claude Code cannot run a skill's inline command rewritten: the rewrite blocks it.
    assert ("claude (PreSkillShellCommand): blocked: Claude Code cannot rewrite a skill's inline "
            'shell command: the hook\'s rewrite blocks it; the rewritten input was '
            '{"command": "ls -la"}') in lines
    assert 'gemini: allowed; tool input rewritten to {"command": "ls -la"}' in lines


def test_remove_keeps_a_symlinked_settings_file_and_empties_it(project: Path, tmp_path_factory):
    shared = tmp_path_factory.mktemp("shared") / "claude.json"
    shared.write_text("{}\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").symlink_to(shared)
    assert hw(project, "add", "before_tool", "guard").code == 0
    assert "run.py guard" in shared.read_text()
    assert hw(project, "remove", "guard").code == 0
    link = project / ".claude" / "settings.json"
    assert link.is_symlink() and link.resolve() == shared.resolve()
    assert shared.read_text() == "{}\n"  # no stale entry left behind for a deleted script


def _put(project: Path, rel: str, data: dict) -> None:
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_hooks_claude_loads_but_skips_are_no_problem_for_hookwrap(project: Path):
    # An http hook on SessionStart is valid; Claude Code only skips it when the event fires.
    _put(project, ".claude/settings.json", {"hooks": {"SessionStart": [
        {"hooks": [{"type": "http", "url": "https://example.com/h"}]}]}})
    assert hw(project, "add", "session_start", "context", "-p", "claude").code == 0
    check = hw(project, "sync", "--check")
    assert (check.code, "problem" in check.err) == (0, False)
    doctor = hw(project, "doctor", "--json")
    schema = [f for f in json.loads(doctor.out) if f["check"] == "schema"]
    assert [f["status"] for f in schema] == ["warn"]  # the foreign hook itself never runs


def test_gemini_settings_problems_and_files_without_hookwrap_hooks_are_not_reported(project: Path):
    _put(project, ".gemini/settings.json", {"hooksConfig": []})   # Gemini only warns about it
    _put(project, ".claude/settings.json", {"hooks": None})       # no hookwrap hook lives here
    assert hw(project, "add", "before_model", "m").code == 0  # Gemini only
    check = hw(project, "sync", "--check")
    assert (check.code, check.err) == (0, "")


@pytest.mark.parametrize(("matcher", "message"), [
    ("shell[", "'shell[' is not a valid regex"),
    ("?", "'?' is not a valid regex"),
])
def test_a_matcher_that_is_no_valid_regex_is_refused(project: Path, matcher, message):
    result = hw(project, "add", "before_tool", "x", "--matcher", matcher)
    assert result.code == 2 and message in result.err
    assert not (project / ".claude").exists()


def test_a_star_matcher_means_every_tool(project: Path):
    assert hw(project, "add", "before_tool", "x", "--matcher", "*").code == 0
    entry = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]["PreToolUse"][0]
    assert "matcher" not in entry
    assert "matcher" not in (project / "hookwrap.toml").read_text().split("[hooks.x]")[1]


def test_a_matcher_with_spaces_is_stored_normalized(project: Path):
    assert hw(project, "add", "before_tool", "x", "--matcher", "shell | write_file").code == 0
    assert 'matcher = "shell|write_file"' in (project / "hookwrap.toml").read_text()


def test_list_blames_hookwrap_toml_for_a_matcher_a_platform_cannot_take(project: Path):
    manifest = project / "hookwrap.toml"
    manifest.write_text(manifest.read_text() + '\n[hooks.ctx]\nevent = "session_start"\n'
                        'template = "context"\nmatcher = "startup|resume"\n'
                        'platforms = ["claude", "gemini"]\n')
    for command in (["list"], ["sync"]):
        result = hw(project, *command)
        assert result.code == 1
        assert "error: hookwrap.toml: hooks.ctx.matcher: Gemini CLI matches session_start by one" \
            in result.err


def test_test_says_claude_asks_when_a_permission_hook_decides_nothing(project: Path):
    assert hw(project, "add", "permission_request", "perm").code == 0
    quiet = hw(project, "test", "perm")
    assert (quiet.code, quiet.out) == (0, "claude: asks the user\n")
    _write_hook(project, "perm", "return HookOutput.allow()")
    assert hw(project, "test", "perm").out == "claude: allowed\n"
    _write_hook(project, "perm", "return HookOutput.block('not here')")
    assert hw(project, "test", "perm").out == "claude: blocked: not here\n"


def test_sync_exits_1_while_a_problem_it_cannot_fix_remains(project: Path):
    (project / ".claude").mkdir()
    foreign = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./lint.sh", "timeout": "10"}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(foreign))
    assert hw(project, "add", "before_tool", "guard").code == 0  # the hook is added
    synced = hw(project, "sync")
    assert synced.code == 1
    assert synced.out == "nothing of hookwrap's to change, but the problems above need fixing\n"
    assert "problem: .claude/settings.json: hooks.PreToolUse[0].hooks[0].timeout" in synced.err
    assert hw(project, "sync", "--dry-run").code == 0  # a dry run only shows
