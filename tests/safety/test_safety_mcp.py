"""One matcher covers an MCP tool on every CLI: the normalized form is mcp__<server>__<tool>,
written as Claude Code's mcp__server__tool and Gemini CLI's mcp_server_tool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import CLAUDE, GEMINI, hw
from support.projects import init_project

from hookwrap import Platform, normalize_input
from hookwrap.generator.clis import setup_of
from hookwrap.generator.registrations import tool_matcher


@pytest.mark.parametrize("platform, raw, extra, normalized", [
    ("claude", "mcp__github__create_issue", {}, "mcp__github__create_issue"),
    ("gemini", "mcp_github_create_issue", {}, "mcp__github__create_issue"),
    ("gemini", "mcp_my_srv_list", {"mcp_context": {"server_name": "my_srv", "tool_name": "list"}},
     "mcp__my_srv__list"),
])
def test_the_runtime_normalizes_mcp_tools(platform: str, raw: str, extra: dict, normalized: str) -> None:
    event = "PreToolUse" if platform == "claude" else "BeforeTool"
    payload = {"hook_event_name": event, "tool_name": raw, "tool_input": {}, **extra}
    hook_input = normalize_input(json.dumps(payload), Platform(platform))
    assert hook_input.tool_name == normalized and hook_input.raw_tool_name == raw


def test_one_matcher_is_written_in_each_cli_s_spelling(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw(root, "add", "before_tool", "gh", "--template", "audit",
              "--matcher", "mcp__github__.*|shell").code == 0
    claude = json.loads((root / CLAUDE).read_text())["hooks"]["PreToolUse"][0]["matcher"]
    gemini = json.loads((root / GEMINI).read_text())["hooks"]["BeforeTool"][0]["matcher"]
    assert claude == "^(mcp__github__.*|Bash|PowerShell)$"
    assert gemini == "^(mcp_github_.*|run_shell_command)$"
    # ...and each CLI's own rules select its own MCP names with it.
    assert setup_of("claude").matchers.matcher_matches(setup_of("claude"), "PreToolUse", claude, "mcp__github__create_issue")
    assert setup_of("gemini").matchers.matcher_matches(setup_of("gemini"), "BeforeTool", gemini, "mcp_github_create_issue")
    assert not setup_of("gemini").matchers.matcher_matches(setup_of("gemini"), "BeforeTool", gemini, "mcp_gitlab_create_issue")


def test_gemini_s_spelling_in_a_matcher_is_refused_with_the_normalized_one(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    result = hw(root, "add", "before_tool", "gh", "--template", "audit", "--matcher", "mcp_github_x")
    assert result.code == 2
    assert result.err.splitlines() == [
        "error: 'mcp_github_x' is Gemini CLI's spelling of an MCP tool; matchers take "
        "mcp__<server>__<tool>, which hookwrap writes in each CLI's own spelling",
        "hint: use mcp__github__x"]


def test_an_exact_mcp_tool() -> None:
    assert tool_matcher("mcp__fs__read_file", Platform.CLAUDE) == "mcp__fs__read_file"
    assert tool_matcher("mcp__fs__read_file", Platform.GEMINI) == "^mcp_fs_read_file$"
