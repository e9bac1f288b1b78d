"""Gemini CLI: what a hook process needs to know about it, checked against Gemini CLI 0.61.0.

Event and tool names, and how a OutputView becomes Gemini's JSON.

The hookwrap command's half (`.gemini/settings.json` entries, their validation, `hookwrap test`'s
host rules, doctor and folder trust) is in
``gemini_setup.py``, whose class extends the one here.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._base import AgentCLI, json_object

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent


class GeminiCLI(AgentCLI):
    """Gemini CLI 0.61.0."""

    platform = Platform.GEMINI
    label = "Gemini CLI"
    version = "0.61.0"
    events = {
        "AfterAgent": _E.AFTER_AGENT,
        "BeforeTool": _E.BEFORE_TOOL,
        "AfterTool": _E.AFTER_TOOL,
        "BeforeAgent": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "BeforeModel": _E.BEFORE_MODEL,
        "AfterModel": _E.AFTER_MODEL,
        "BeforeToolSelection": _E.BEFORE_TOOL_SELECTION,
        "Notification": _E.NOTIFICATION,
        "PreCompress": _E.PRE_COMPACT,
    }
    tools = {
        # The real names of the five tools whose names differ from the normalized ones.
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
    }
    preferred_tools = {"grep": "grep_search"}  # the current canonical name
    project_dir_vars = ("GEMINI_PROJECT_DIR",)
    marker_env = "GEMINI_PROJECT_DIR"  # Gemini sets it for its hooks; Claude Code never does

    def mcp_split(self, name: str) -> tuple[str, str] | None:
        # `mcp_<server>_<tool>`, split at the first "_" after "mcp_" as Gemini itself does (a
        # server name with "_" in it is ambiguous; the payload's mcp_context is preferred).
        if not name.startswith("mcp_") or name.startswith("mcp__"):
            return None
        server, sep, tool = name[4:].partition("_")
        return (server, tool) if sep and server and tool else None

    mcp_prefix, mcp_separator = "mcp_", "_"

    # --- runtime: answers ------------------------------------------------------------------
    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Gemini CLI's reading (gemini-cli.md §2.3 and §3): stdout, else stderr; a JSON object
        (double-encoded too) is the answer whatever the exit code; plain text is a system
        message at exit 0, a warning at exit 1, and a deny with the text as reason at any other
        exit code. ``decision`` blocks as ``deny`` or ``block``; ``ask`` only on BeforeTool;
        context and the new tool input are in ``hookSpecificOutput`` (``additionalContext``,
        ``tool_input``); Claude's ``permissionDecision`` and ``updatedInput`` are ignored."""
        text = stdout.strip() or stderr.strip()
        if not text:
            return {}
        data = json_object(text)
        if data is None:
            if exit_code == 0:
                return {"system_message": text}
            if exit_code == 1:
                return {"system_message": f"Warning: {text}"}
            return {"decision": "deny", "reason": text}
        fields: dict[str, Any] = {}
        decision = data.get("decision")
        reason = data.get("reason")
        if decision in ("deny", "block") or (decision == "ask"
                                              and event is NormalizedEvent.BEFORE_TOOL):
            fields["decision"] = decision
        if isinstance(reason, str) and reason:
            fields["reason"] = reason
        if data.get("continue") is False:
            fields["continue_loop"] = False
            stop = data.get("stopReason") or reason or "No reason provided"
            fields["stop_reason"] = stop if isinstance(stop, str) else "No reason provided"
        if isinstance(data.get("systemMessage"), str) and data["systemMessage"]:
            fields["system_message"] = data["systemMessage"]
        if data.get("suppressOutput") is True:
            fields["suppress_output"] = True
        specific = data.get("hookSpecificOutput")
        if isinstance(specific, dict):
            if isinstance(specific.get("additionalContext"), str) and specific["additionalContext"]:
                fields["context"] = specific["additionalContext"]
            if event is NormalizedEvent.BEFORE_TOOL and isinstance(specific.get("tool_input"), dict):
                fields["updated_input"] = specific["tool_input"]
        return fields

    def top_decision(self, decision: str) -> str:
        return "deny" if decision == "block" else decision

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        specific: dict[str, Any] = {}
        if output.context:
            specific["additionalContext"] = output.context
        if output.updated_input is not None and event is _E.BEFORE_TOOL:
            specific["tool_input"] = output.updated_input
        return specific


CLI = GeminiCLI()
