"""GitHub Copilot CLI: what a hook process needs to know about it, checked against Copilot CLI 1.0.102.

Copilot reads two hook formats in ``.github/hooks/*.json``, chosen by the case of the event
names. hookwrap writes the PascalCase one (Claude's nested groups): its payloads carry
``hook_event_name`` and Claude's tool names (``Bash``, ``Write``), it honours Claude's
``hookSpecificOutput.permissionDecision`` and ``updatedInput``, and it is the dialect in which
Copilot also runs the hooks of the repo's ``.claude/settings.json``, so a hook sees one dialect
under Copilot whichever file registered it. The camelCase format's payloads name no event at all.

What differs from Claude Code, and how answers are fitted (1.0.102):

- Context is read only at the top level (``additionalContext``); the Claude-style
  ``hookSpecificOutput.additionalContext`` is dropped on UserPromptSubmit and PostToolUse.
- A top-level ``decision: "block"`` does not block PreToolUse: a deny also goes out as the
  top-level ``permissionDecision``, and so does the error document of a crashed hook.
- No ``ask``: it is sent as a deny whose reason tells the model to ask the user.
- A Write carries Copilot's own keys (``path``, ``file_text``), read by ``InputView.files``.
- Copilot runs ``.claude/settings.json`` hooks too (no de-duplication). A command hookwrap
  registered for Claude Code therefore answers ``{}`` under Copilot without calling the hook
  when ``.github/hooks/hookwrap.json`` exists (the hook runs from there, once), and is answered
  as Copilot otherwise. Copilot is recognised by ``COPILOT_PROJECT_DIR``, which it sets only for
  hook processes (not for its shell tool), while Claude Code sets ``CLAUDECODE``.

The hookwrap command's half (its hooks file, validation, `hookwrap
test`'s host rules, doctor, trust) is in ``copilot_setup.py``,
whose class extends the one here.
"""

from __future__ import annotations

import os

from ..names import NormalizedEvent, Platform
from ._base import answer_fields, json_object
from .claude import ClaudeCode

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from ._views import OutputView

_E = NormalizedEvent

# --- runtime facts (Copilot CLI 1.0.102) -----------------------------------------------------

HOOKS_FILE = ".github/hooks/hookwrap.json"
# Copilot hooks cannot ask the user in -p mode (autopilot denies an ask): ask -> deny.
ASK_NOTE = ("This call needs the user's confirmation, and Copilot CLI hooks cannot ask for it, "
            "so it was blocked: ask the user, and run it only if they agree.")

class CopilotCLI(ClaudeCode):
    """GitHub Copilot CLI 1.0.102, in its Claude-compatible (PascalCase) hook format."""

    platform = Platform.COPILOT
    label = "Copilot CLI"
    version = "1.0.102"
    events = {
        "Stop": _E.AFTER_AGENT,
        "SubagentStop": _E.AFTER_AGENT,
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "PostToolUseFailure": _E.AFTER_TOOL_FAILURE,
        "PreCompact": _E.PRE_COMPACT,
        "SubagentStart": _E.SUBAGENT_START,
        "Notification": _E.NOTIFICATION,
    }
    preferred_events = {_E.AFTER_AGENT: "Stop"}
    # The PascalCase format translates Copilot's tools to Claude's names (bash -> Bash,
    # create -> Write, edit -> Edit, view -> Read).
    tools = {
        "Bash": "shell",
        "Write": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "Grep": "grep",
        "Glob": "glob",
        "Task": "task",
    }
    preferred_tools: dict[str, str] = {}
    # Copilot's create/edit arguments, kept in the PascalCase format (1.0.102).
    tool_input_keys = {
        "write_file": {"path": "file_path", "file_text": "content"},
        "edit_file": {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
    }
    project_dir_vars = ("COPILOT_PROJECT_DIR",)
    marker_env = "COPILOT_PROJECT_DIR"  # set for hook processes only (not for the shell tool)
    guest_clis: dict[str, str] = {}

    # --- runtime: which runs call the hook ---------------------------------------------------
    def hosts_this_process(self, env: Mapping[str, str]) -> bool:
        # Claude Code sets CLAUDECODE for its hooks; Copilot sets COPILOT_PROJECT_DIR for its
        # hooks only, so a Claude Code started from Copilot's shell tool is not mistaken.
        return bool(env.get("COPILOT_PROJECT_DIR")) and not env.get("CLAUDECODE")

    def runs_own_registration(self, env: Mapping[str, str]) -> bool:
        return os.path.isfile(os.path.join(env.get("COPILOT_PROJECT_DIR", ""), HOOKS_FILE))

    def tool_files(self, tool: str, raw_tool: str, tool_input: Any) -> list[dict[str, Any]]:
        """Copilot's Write and Edit carry ``path`` (Claude's name ``file_path`` is read too)."""
        if not isinstance(tool_input, dict) or tool not in ("write_file", "edit_file"):
            return []
        path = tool_input.get("path", tool_input.get("file_path"))
        if not isinstance(path, str) or not path:
            return []
        return [{"path": path, "action": "write" if tool == "write_file" else "update",
                 "move_to": None}]

    # --- runtime: answers ------------------------------------------------------------------
    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Copilot CLI's reading of a PascalCase-dialect hook (copilot-cli.md §4 and §7): on
        PreToolUse any non-zero exit denies (exit 2's stderr is not passed on; other codes are
        "hook errored"); a top-level ``decision`` blocks only as ``"block"`` and not on
        PreToolUse (``"deny"`` is ignored everywhere); a top-level ``permissionDecision``
        counts; ``hookSpecificOutput.additionalContext`` is ignored on UserPromptSubmit and
        PostToolUse (only the top-level one is read)."""
        if exit_code != 0:
            if event is NormalizedEvent.BEFORE_TOOL:
                return {"decision": "deny",
                        "reason": stderr.strip() or f"hook exited with code {exit_code}"}
            return super().read_answer(event, exit_code, stdout, stderr)
        data = json_object(stdout)
        if data is None:
            return super().read_answer(event, exit_code, stdout, stderr)
        data = dict(data)
        top = data.get("decision")
        if not (isinstance(top, str) and top.lower() == "block"
                and event is not NormalizedEvent.BEFORE_TOOL):
            data.pop("decision", None)
        specific = data.get("hookSpecificOutput")
        specific = dict(specific) if isinstance(specific, dict) else {}
        for key in ("permissionDecision", "permissionDecisionReason"):
            if key in data and key not in specific:
                specific[key] = data[key]
        if event in (NormalizedEvent.BEFORE_PROMPT, NormalizedEvent.AFTER_TOOL):
            specific.pop("additionalContext", None)
        data["hookSpecificOutput"] = specific
        return answer_fields(data)

    def context_in_system_message(self, event: NormalizedEvent) -> bool:
        return False  # top-level additionalContext reaches the model on every event

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        if decision == "ask" and name == "PreToolUse":
            decision = "deny"
        specific = super().specific_output(output, event, name, decision)
        specific.pop("additionalContext", None)  # sent top-level, the one place Copilot reads
        return specific

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        if output.context and "additionalContext" not in result:
            result["additionalContext"] = output.context
        hso = result.get("hookSpecificOutput")
        if name == "PreToolUse" and isinstance(hso, dict):
            if decision == "ask":
                reason = "\n\n".join(t for t in (output.reason, ASK_NOTE) if t)
                hso["permissionDecisionReason"] = reason
                result["decision"], result["reason"] = "block", reason
            # Copilot's own words for a verdict, read in both formats (1.0.102). A deny is
            # hookwrap's and wins over anything raw_output put at the top level.
            for key in ("permissionDecision", "permissionDecisionReason"):
                if key in hso:
                    if hso.get("permissionDecision") == "deny":
                        result[key] = hso[key]
                    else:
                        result.setdefault(key, hso[key])
        return result

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        if event is _E.BEFORE_TOOL and document.get("decision") == "block":
            # A top-level decision does not block PreToolUse on Copilot: fail closed in its words.
            return {**document, "permissionDecision": "deny",
                    "permissionDecisionReason": document.get("reason", "")}
        return document

    def output_limits(self, event: NormalizedEvent) -> list[tuple[str, str]]:
        if event is _E.BEFORE_TOOL:
            return [("ask", "has no ask: an ask is sent as a deny whose reason tells the model to "
                            "ask the user")]
        return []


CLI = CopilotCLI()
