"""REQ-006.3: tool names to snake_case and back, with the real CLIs' own names."""

from __future__ import annotations

import re

import pytest

from hookwrap import NORMALIZED_TO_TOOL, TOOL_TO_NORMALIZED, Platform, normalize_tool, platform_tool_names

CLAUDE = Platform.CLAUDE
GEMINI = Platform.GEMINI
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_3_1_every_normalized_tool_name_is_snake_case(platform: Platform) -> None:
    for name in TOOL_TO_NORMALIZED[platform].values():
        assert SNAKE.match(name), name


@pytest.mark.parametrize(
    ("clause", "raw", "expected"),
    [
        ("2", "Write", "write_file"),
        ("3", "Edit", "edit_file"),
        ("4", "Read", "read_file"),
        ("5", "Bash", "shell"),
        ("6", "Glob", "glob"),
        ("7", "Grep", "grep"),
        ("8", "WebFetch", "web_fetch"),
        ("9", "WebSearch", "web_search"),
        ("10", "Task", "task"),
    ],
)
def test_req_006_3_2_to_10_claude_tool_mapping(clause: str, raw: str, expected: str) -> None:
    assert TOOL_TO_NORMALIZED[CLAUDE][raw] == expected
    assert normalize_tool(raw, CLAUDE) == expected


def test_claude_agent_is_the_current_name_of_task() -> None:
    assert normalize_tool("Agent", CLAUDE) == "task"


@pytest.mark.parametrize(
    "name",
    ["write_file", "read_file", "glob", "web_fetch", "list_directory", "write_todos", "read_many_files"],
)
def test_req_006_3_11_gemini_snake_case_names_map_to_themselves(name: str) -> None:
    assert TOOL_TO_NORMALIZED[GEMINI][name] == name
    assert normalize_tool(name, GEMINI) == name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("run_shell_command", "shell"),
        ("replace", "edit_file"),
        ("grep_search", "grep"),
        ("search_file_content", "grep"),
        ("google_web_search", "web_search"),
        ("invoke_agent", "task"),
    ],
)
def test_gemini_real_tool_names_map_to_the_shared_normalized_name(raw: str, expected: str) -> None:
    assert normalize_tool(raw, GEMINI) == expected


@pytest.mark.parametrize(
    "tool", ["shell", "edit_file", "write_file", "read_file", "glob", "grep", "web_fetch", "web_search", "task"]
)
def test_the_nine_seed_tools_exist_on_both_platforms(tool: str) -> None:
    assert tool in NORMALIZED_TO_TOOL[CLAUDE]
    assert tool in NORMALIZED_TO_TOOL[GEMINI]


@pytest.mark.parametrize(
    ("platform", "raw", "expected"),
    [
        (CLAUDE, "NotebookRead", "notebookread"),
        (CLAUDE, "mcp__github__create_issue", "mcp__github__create_issue"),
        (CLAUDE, "MCP__Srv__DoThing", "mcp__srv__dothing"),
        (GEMINI, "mcp_myserver_do_thing", "mcp__myserver__do_thing"),  # MCP: mcp__server__tool
        (GEMINI, "Discovered_Tool_X", "discovered_tool_x"),
        (GEMINI, "Bash", "bash"),  # Claude's name means nothing on Gemini
        (CLAUDE, "run_shell_command", "run_shell_command"),  # and vice versa
    ],
)
def test_req_006_3_12_unknown_tool_names_are_lowercased(platform: Platform, raw: str, expected: str) -> None:
    assert raw not in TOOL_TO_NORMALIZED[platform]
    assert normalize_tool(raw, platform) == expected


@pytest.mark.parametrize(
    ("tool", "claude", "gemini"),
    [
        ("write_file", "Write", "write_file"),
        ("edit_file", "Edit", "replace"),
        ("read_file", "Read", "read_file"),
        ("shell", "Bash", "run_shell_command"),
        ("glob", "Glob", "glob"),
        ("grep", "Grep", "grep_search"),
        ("web_fetch", "WebFetch", "web_fetch"),
        ("web_search", "WebSearch", "google_web_search"),
        ("task", "Task", "invoke_agent"),
    ],
)
def test_req_006_3_13_reverse_maps(tool: str, claude: str, gemini: str) -> None:
    assert NORMALIZED_TO_TOOL[CLAUDE][tool] == claude
    assert NORMALIZED_TO_TOOL[GEMINI][tool] == gemini


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_3_13_reverse_then_forward_is_identity(platform: Platform) -> None:
    for tool, name in NORMALIZED_TO_TOOL[platform].items():
        assert TOOL_TO_NORMALIZED[platform][name] == tool
    assert set(NORMALIZED_TO_TOOL[platform]) == set(TOOL_TO_NORMALIZED[platform].values())


@pytest.mark.parametrize(
    ("tool", "platform", "expected"),
    [
        ("task", CLAUDE, ["Task", "Agent"]),
        ("grep", GEMINI, ["grep_search", "search_file_content"]),
        ("shell", CLAUDE, ["Bash", "PowerShell"]),  # PowerShell: Windows
        ("shell", GEMINI, ["run_shell_command"]),
        ("edit_file", GEMINI, ["replace"]),
        ("task", GEMINI, ["invoke_agent"]),
        ("mcp__github__create_issue", CLAUDE, ["mcp__github__create_issue"]),
        ("not_a_tool", GEMINI, ["not_a_tool"]),
    ],
)
def test_platform_tool_names_offers_every_platform_name(tool: str, platform: Platform, expected: list[str]) -> None:
    assert platform_tool_names(tool, platform) == expected


@pytest.mark.parametrize("platform", list(Platform))
def test_platform_tool_names_all_normalize_back(platform: Platform) -> None:
    for tool in NORMALIZED_TO_TOOL[platform]:
        names = platform_tool_names(tool, platform)
        assert names[0] == NORMALIZED_TO_TOOL[platform][tool]
        assert len(names) == len(set(names))
        # A name that does several jobs (OpenCode's apply_patch writes and edits) is listed for
        # each of them, and normalizes by its table to one that also lists it.
        assert normalize_tool(names[0], platform) == tool
        for name in names[1:]:
            own = normalize_tool(name, platform)
            assert own == tool or name in platform_tool_names(own, platform), (tool, name)
