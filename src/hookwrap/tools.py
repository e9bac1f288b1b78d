"""Tool names: each platform's names to normalized snake_case and back (REQ-006.3)."""

from __future__ import annotations

from .platforms import Platform

TOOL_TO_NORMALIZED: dict[Platform, dict[str, str]] = {
    Platform.CLAUDE: {
        "Write": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "Bash": "shell",
        "Glob": "glob",
        "Grep": "grep",
        "WebFetch": "web_fetch",
        "WebSearch": "web_search",
        "Task": "task",
        # Claude Code 2.1.328 calls its subagent tool Agent (Task is the legacy alias).
        "Agent": "task",
        "NotebookEdit": "notebook_edit",
        "TodoWrite": "write_todos",
    },
    Platform.GEMINI: {
        # Gemini CLI 0.61.0's real names for the five tools whose names differ.
        "run_shell_command": "shell",
        "replace": "edit_file",
        "grep_search": "grep",
        "search_file_content": "grep",
        "google_web_search": "web_search",
        "invoke_agent": "task",
        # Every other built-in tool is already snake_case and maps to itself.
        "write_file": "write_file",
        "read_file": "read_file",
        "glob": "glob",
        "web_fetch": "web_fetch",
        "list_directory": "list_directory",
        "read_many_files": "read_many_files",
        "write_todos": "write_todos",
        "ask_user": "ask_user",
        "activate_skill": "activate_skill",
        "enter_plan_mode": "enter_plan_mode",
        "exit_plan_mode": "exit_plan_mode",
        "update_topic": "update_topic",
        "list_background_processes": "list_background_processes",
        "read_background_output": "read_background_output",
        "read_mcp_resource": "read_mcp_resource",
        "list_mcp_resources": "list_mcp_resources",
    },
}

# The name each platform's reverse map gives; where several platform names share a normalized
# name, this is the one REQ-006 lists (Task) or the current canonical one (grep_search).
_PREFERRED: dict[Platform, dict[str, str]] = {
    Platform.CLAUDE: {"task": "Task"},
    Platform.GEMINI: {"grep": "grep_search"},
}


def _reverse(platform: Platform) -> dict[str, str]:
    reverse: dict[str, str] = {}
    for name, normalized in TOOL_TO_NORMALIZED[platform].items():
        reverse.setdefault(normalized, _PREFERRED[platform].get(normalized, name))
    return reverse


NORMALIZED_TO_TOOL: dict[Platform, dict[str, str]] = {
    platform: _reverse(platform) for platform in Platform
}


def normalize_tool(name: str, platform: Platform) -> str:
    """Map a platform tool name to its normalized name; unknown names are lower-cased."""
    return TOOL_TO_NORMALIZED[platform].get(name, name.lower())


def platform_tool_names(tool: str, platform: Platform) -> list[str]:
    """Every name ``platform`` uses for the normalized ``tool``, preferred name first.

    ``platform_tool_names("task", Platform.CLAUDE) == ["Task", "Agent"]``. A name the maps do
    not know is returned as given (MCP tools, tools newer than this table).
    """
    names = [n for n, normalized in TOOL_TO_NORMALIZED[platform].items() if normalized == tool]
    if not names:
        return [tool]
    preferred = NORMALIZED_TO_TOOL[platform][tool]
    return [preferred] + [n for n in names if n != preferred]
