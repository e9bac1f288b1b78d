"""Claude Code: what a hook process needs to know about it, checked against Claude Code 2.1.328.

Event and tool names, and how a OutputView becomes Claude's JSON.

The hookwrap command's half (`.claude/settings.json` entries, their validation, `hookwrap test`'s
host rules, doctor) is in
``claude_setup.py``, whose class extends the one here.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._base import ALLOWING, BLOCKING, AgentCLI

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from ._views import OutputView

_E = NormalizedEvent

# Events whose hookSpecificOutput accepts additionalContext. Any other event has no such
# variant, and a hookSpecificOutput there makes Claude reject the whole output.
_CONTEXT_EVENTS = frozenset({
    "PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Setup",
    "PostModelSwitch", "SubagentStart", "PostToolUse", "PostToolUseFailure", "PostToolBatch",
    "Stop", "SubagentStop", "Notification",
})


class ClaudeCode(AgentCLI):
    """Claude Code 2.1.328."""

    platform = Platform.CLAUDE
    label = "Claude Code"
    version = "2.1.328"
    events = {
        "Stop": _E.AFTER_AGENT,
        "SubagentStop": _E.AFTER_AGENT,
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "PostToolUseFailure": _E.AFTER_TOOL_FAILURE,
        "PostToolBatch": _E.AFTER_TOOL_BATCH,
        "PermissionRequest": _E.PERMISSION_REQUEST,
        "PermissionDenied": _E.PERMISSION_DENIED,
        "Notification": _E.NOTIFICATION,
        "PreCompact": _E.PRE_COMPACT,
        "PostCompact": _E.POST_COMPACT,
        "SubagentStart": _E.SUBAGENT_START,
        "StopFailure": _E.STOP_FAILURE,
    }
    # Stop and SubagentStop share after_agent: registrations go to Stop.
    preferred_events = {_E.AFTER_AGENT: "Stop"}
    tools = {
        "Write": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "Bash": "shell",
        "Glob": "glob",
        "Grep": "grep",
        "WebFetch": "web_fetch",
        "WebSearch": "web_search",
        "Task": "task",
        "Agent": "task",  # the subagent tool's current name; Task is the legacy alias
        "NotebookEdit": "notebook_edit",
        "TodoWrite": "write_todos",
    }
    preferred_tools = {"task": "Task"}  # the name REQ-006 lists
    project_dir_vars = ("CLAUDE_PROJECT_DIR",)
    hook_process_env = {"CLAUDECODE": "1"}

    # Copilot CLI 1.0.102 also runs .claude/settings.json hooks.
    guest_clis: dict[str, str] = {"copilot": "COPILOT_PROJECT_DIR"}

    def surely_hosts(self, env: Mapping[str, str]) -> bool:
        return env.get("CLAUDECODE") == "1"  # set by Claude Code for its hook processes

    # --- runtime: answers ------------------------------------------------------------------
    def reply_event_name(self, event: NormalizedEvent, raw_event: str | None) -> str:
        # Claude rejects a hookEventName that differs from the running event; for an event
        # hookwrap does not map (MessageDisplay, Setup, ...) it names none.
        if raw_event and raw_event not in self.events:
            return ""
        return super().reply_event_name(event, raw_event)

    def top_decision(self, decision: str) -> str:
        # The top-level decision accepts only "block" and "approve"; any other value voids the
        # whole output, so allow becomes approve and ask lives in hookSpecificOutput.
        if decision in BLOCKING:
            return "block"
        return "approve" if decision in ALLOWING else ""

    def context_in_system_message(self, event: NormalizedEvent) -> bool:
        # REQ-006.6.2: context also goes to systemMessage (shown to the user), except at start.
        return event is not _E.SESSION_START

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        specific: dict[str, Any] = {}
        if output.context and name in _CONTEXT_EVENTS:
            specific["additionalContext"] = output.context
        if name == "PreToolUse":
            specific.update(_pre_tool_use(output, decision))
        elif name == "PermissionRequest":
            verdict = _permission_request(output, decision)
            if verdict:
                specific["decision"] = verdict
        return specific


# --- answers ---------------------------------------------------------------------------------

def _pre_tool_use(output: OutputView, decision: str) -> dict[str, Any]:
    specific: dict[str, Any] = {}
    if decision in BLOCKING:
        specific["permissionDecision"] = "deny"
    elif decision in ALLOWING or decision == "ask":
        specific["permissionDecision"] = "allow" if decision == "approve" else decision
    elif output.updated_input is not None:
        specific["permissionDecision"] = "allow"
    if output.reason and "permissionDecision" in specific:
        specific["permissionDecisionReason"] = output.reason
    if output.updated_input is not None and decision not in BLOCKING:
        specific["updatedInput"] = output.updated_input
    return specific


def _permission_request(output: OutputView, decision: str) -> dict[str, Any] | None:
    """The PermissionRequest verdict, or None to leave the permission dialog to the user.

    Only an explicit allow grants the permission, or no decision with an updated_input (as on
    PreToolUse, the rewrite implies an allow; it has no other way to reach Claude). "ask"
    decides nothing: Claude's verdict is allow or deny, and no verdict shows the dialog.
    """
    if decision in BLOCKING:
        verdict: dict[str, Any] = {"behavior": "deny"}
        if output.reason:
            verdict["message"] = output.reason
        return verdict
    granted = decision in ALLOWING or (not decision and output.updated_input is not None)
    if not granted:
        return None
    verdict = {"behavior": "allow"}
    if output.updated_input is not None:
        verdict["updatedInput"] = output.updated_input
    return verdict


CLI = ClaudeCode()
