"""`hookwrap test` says what each CLI would really do: --input in that CLI's own words, the
hook's event and name checked against hookwrap.toml, an external command that cannot start,
and Cline's TaskStart answer that Cline drops."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwrap.checks.hooktest import run_hook_test
from hookwrap.generator.adopt import add_external_plan
from hookwrap.generator.errors import ProjectError, UsageError
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.names import Platform


def _project(tmp_path: Path, *platforms: Platform) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    init_plan(root, platforms).apply()
    return root


def test_a_claude_shaped_input_reaches_codex_and_pi_in_their_own_words(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLAUDE, Platform.CODEX, Platform.PI)
    add_plan(root, event="before_tool", name="guard").apply()
    report = run_hook_test(root, "guard", tool="write_file",
                           tool_input='{"file_path": ".env", "content": "A=1"}')
    by = {t.platform: t for t in report.tests}
    assert all(t.summary.startswith("blocked: ") for t in report.tests), \
        [t.summary for t in report.tests]
    assert by["pi"].payload["tool_input"] == {"path": ".env", "content": "A=1"}
    assert by["codex"].payload["tool_input"]["command"].startswith(
        "*** Begin Patch\n*** Add File: .env\n")
    assert by["claude"].notes == []  # already in Claude Code's words
    assert by["pi"].notes == ["--input read as Claude Code's write_file input and sent in pi's "
                              'words: {"path": ".env", "content": "A=1"}']


def test_an_input_in_one_cli_words_reaches_the_others_in_theirs(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLAUDE, Platform.PI)
    add_plan(root, event="before_tool", name="guard").apply()
    report = run_hook_test(root, "guard", tool="write_file",
                           tool_input={"path": ".env", "content": "A=1"})
    by = {t.platform: t for t in report.tests}
    assert by["claude"].payload["tool_input"] == {"file_path": ".env", "content": "A=1"}
    assert by["pi"].notes == [] and by["pi"].payload["tool_input"] == {"path": ".env",
                                                                       "content": "A=1"}
    assert all(t.summary.startswith("blocked: ") for t in report.tests)


def test_an_input_no_cli_sends_is_a_problem_not_an_allow(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLAUDE, Platform.PI)
    add_plan(root, event="before_tool", name="guard").apply()
    report = run_hook_test(root, "guard", tool="shell", tool_input={"cmd": "rm -rf ~"})
    assert report.exit_code == 1
    by = {t.platform: t for t in report.tests}
    assert by["pi"].problems == ["pi's bash input carries command, timeout, not cmd: --input "
                                 "was sent as written, a call pi never makes"]
    assert by["claude"].problems[0].startswith("Claude Code's Bash input carries command")


def test_event_that_is_not_the_hooks_says_so(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLAUDE)
    add_plan(root, event="before_tool", name="guard").apply()
    with pytest.raises(UsageError) as caught:
        run_hook_test(root, "guard", event="after_tool")
    assert caught.value.message == "guard is a before_tool hook: --event after_tool does not apply"
    assert caught.value.hint == "leave --event out, or give --event before_tool"


def test_a_name_that_is_no_hook_says_so(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLAUDE)
    with pytest.raises(ProjectError) as caught:
        run_hook_test(root, "nosuch")
    assert caught.value.message == "no hook named 'nosuch' in hookwrap.toml"
    assert caught.value.hint == "`hookwrap list` shows the hooks"


def test_an_external_command_that_cannot_start_fails_on_the_bridged_cli(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLAUDE, Platform.GEMINI)
    plan = add_external_plan(root, event="before_tool", name="nf", command=".claude/hooks/no.sh",
                             speaks=None, matcher="shell", platforms=None, timeout=None)
    assert plan.warnings[0] == (
        "--command: .claude/hooks/no.sh does not exist; nf cannot start on any CLI until that "
        "is fixed (`hookwrap test nf` and `hookwrap doctor` check it)")
    plan.apply()
    report = run_hook_test(root, "nf", platform="gemini", tool="shell", tool_input={"command": "ls"})
    (gemini,) = report.tests
    assert report.exit_code == 1 and not gemini.clean
    assert "hooks.nf.command cannot start: .claude/hooks/no.sh does not exist" in gemini.problems[-1]


def test_cline_drops_a_task_start_context_and_the_summary_says_so(tmp_path: Path) -> None:
    root = _project(tmp_path, Platform.CLINE)
    add_plan(root, event="session_start", name="context").apply()
    (cline,) = run_hook_test(root, "context").tests
    assert cline.summary == "allowed", cline.summary
    assert cline.notes == ["Cline runs TaskStart detached and ignores its answer: the context "
                           "it gave is dropped"]
