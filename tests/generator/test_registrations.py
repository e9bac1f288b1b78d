"""registrations: manifest entries -> the exact settings entries each CLI needs."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from hookwrap import NormalizedEvent as E
from hookwrap import Platform
from hookwrap.generator.clis import setup_of
from hookwrap.generator.errors import UsageError
from hookwrap.generator.registrations import (
    command_for,
    matcher_for,
    registrations_for,
    split_matcher,
    tool_matcher,
)

C, G = Platform.CLAUDE, Platform.GEMINI


def spec(name="guard", event=E.BEFORE_TOOL, matcher="shell|write_file|edit_file",
         platforms=(C, G), timeout=None, template="guard"):
    return SimpleNamespace(name=name, event=event, matcher=matcher, platforms=platforms,
                           timeout=timeout, template=template, options={})


@pytest.mark.parametrize(("matcher", "claude", "gemini"), [
    # PowerShell: Claude Code's shell tool on Windows.
    ("shell|write_file|edit_file", "Bash|PowerShell|Write|Edit",
     "^(run_shell_command|write_file|replace)$"),
    ("shell", "Bash|PowerShell", "^run_shell_command$"),
    ("task", "Task|Agent", "^invoke_agent$"),
    ("grep", "Grep", "^(grep_search|search_file_content)$"),
    ("web_search|web_fetch", "WebSearch|WebFetch", "^(google_web_search|web_fetch)$"),
    ("mcp__github__create_issue", "mcp__github__create_issue", "^mcp_github_create_issue$"),
    ("mcp_github_.*", "^mcp_github_.*$", "^mcp_github_.*$"),
])
def test_tool_matchers_per_platform(matcher, claude, gemini):
    assert tool_matcher(matcher, C) == claude
    assert tool_matcher(matcher, G) == gemini


def test_gemini_matcher_is_anchored_so_substrings_do_not_match():
    pattern = tool_matcher("read_file", G)
    assert re.search(pattern, "read_file")
    # Gemini tests matchers with an unanchored RegExp: the anchors keep MCP look-alikes out.
    assert not re.search(pattern, "mcp_fs_read_file")
    assert not re.search(pattern, "read_many_files")


@pytest.mark.parametrize("bad", ["shell||write_file", "|shell", "rm -rf", "a;b", "$(x)"])
def test_bad_matchers_are_usage_errors(bad):
    with pytest.raises(UsageError):
        split_matcher(bad)


def test_no_matcher_means_every_tool():
    assert tool_matcher(None, C) is None
    assert tool_matcher("", G) is None


def test_lifecycle_matchers_are_exact_and_single_on_gemini():
    assert matcher_for("startup", E.SESSION_START, C) == "startup"
    assert matcher_for("startup", E.SESSION_START, G) == "startup"
    assert matcher_for("startup|resume", E.SESSION_START, C) == "startup|resume"
    with pytest.raises(UsageError, match="one exact value"):
        matcher_for("startup|resume", E.SESSION_START, G)
    with pytest.raises(UsageError, match="never sends"):
        matcher_for("bogus", E.SESSION_START, C)
    # Gemini calls the session end of a normal exit "exit"; Claude has no such value.
    assert matcher_for("exit", E.SESSION_END, G) == "exit"
    with pytest.raises(UsageError):
        matcher_for("exit", E.SESSION_END, C)


def test_matcher_is_dropped_on_events_that_ignore_it():
    assert matcher_for("shell", E.BEFORE_PROMPT, C) is None
    assert matcher_for("shell", E.AFTER_AGENT, G) is None


def test_commands_survive_a_project_path_with_spaces():
    claude = command_for("guard", C)
    gemini = command_for("guard", G)
    assert claude == 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py guard --platform claude'
    # Gemini replaces $GEMINI_PROJECT_DIR (no braces) with a shell-quoted value before bash runs,
    # so the braces form is the one that works inside double quotes.
    assert gemini == 'python3 "${GEMINI_PROJECT_DIR}/.hookwrap/lib/run.py" guard --platform gemini'
    assert '"$GEMINI_PROJECT_DIR/' not in gemini


def test_guard_registrations_on_both_platforms():
    found, warnings = registrations_for(spec(timeout=10), fail_closed=True, summary="blocks")
    assert warnings == []
    claude, skill_shell, gemini = found
    assert (claude.platform, claude.event, claude.matcher) == (
        C, "PreToolUse", "Bash|PowerShell|Write|Edit")
    # Claude Code 2.1.332 asks PreSkillShellCommand before a skill's inline shell command.
    assert (skill_shell.platform, skill_shell.event, skill_shell.matcher) == (
        C, "PreSkillShellCommand", "Bash|PowerShell")
    assert skill_shell.handler == claude.handler
    assert claude.handler == {
        "type": "command",
        "command": 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py guard --fail-closed=7 '
                   '--platform claude',
        "timeout": 10,
        "onFailure": "block",
    }
    assert (gemini.platform, gemini.event) == (G, "BeforeTool")
    # The seconds it has to answer: inside the timeout, less answer_limit's margin (30%).
    assert gemini.handler["command"] == ('python3 "${GEMINI_PROJECT_DIR}/.hookwrap/lib/run.py" '
                                         'guard --fail-closed=7 --platform gemini')
    assert gemini.matcher == "^(run_shell_command|write_file|replace)$"
    assert gemini.handler["timeout"] == 10_000  # milliseconds on Gemini
    assert gemini.handler["name"] == "guard"
    assert gemini.handler["description"] == "hookwrap guard: blocks"
    assert "onFailure" not in gemini.handler


def test_event_missing_on_a_platform_is_skipped_with_a_warning():
    found, warnings = registrations_for(spec(name="m", event=E.BEFORE_MODEL, matcher=None,
                                             template="skeleton"))
    assert [r.platform for r in found] == [G]
    assert found[0].event == "BeforeModel"
    assert len(warnings) == 1 and "Claude Code has no before_model" in warnings[0]


@pytest.mark.parametrize("platform", list(Platform))
def test_a_fail_closed_command_is_still_hookwraps_own(platform: Platform):
    """The command with --fail-closed is recognised as the same hook's (sync updates it)."""
    found, _ = registrations_for(spec(timeout=3, platforms=(platform,)), fail_closed=True)
    command = found[0].handler["command"]
    assert " guard --fail-closed=2.1 --platform " in command
    assert setup_of(platform).owned_name(command) == "guard"
    assert setup_of(platform).owned_name(command.replace("=2.1", "=x")) is None


def test_fail_closed_is_not_written_on_stop_where_claude_ignores_it():
    found, _ = registrations_for(spec(name="gate", event=E.AFTER_AGENT, matcher=None,
                                      platforms=(C,), template="stop_gate"), fail_closed=True)
    assert found[0].event == "Stop"
    assert "onFailure" not in found[0].handler


def test_default_timeout_is_written_in_each_unit():
    found, _ = registrations_for(spec(name="a", timeout=None, template="audit"))
    assert [r.event for r in found] == ["PreToolUse", "PreSkillShellCommand", "BeforeTool"]
    assert found[0].handler["timeout"] == found[1].handler["timeout"] == 60
    assert found[2].handler["timeout"] == 60_000
