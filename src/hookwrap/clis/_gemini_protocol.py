"""Gemini CLI's hook protocol (0.61.0): a top-level ``decision`` (``deny``/``block``, ``ask`` on
BeforeTool), ``reason``, ``continue``/``stopReason``, ``systemMessage``, and
``hookSpecificOutput`` with ``additionalContext`` and the rewritten ``tool_input``; Claude Code's
``permissionDecision`` and ``updatedInput`` are not read."""

from __future__ import annotations

from ..names import NormalizedEvent
from ._base import AgentCLI, json_object

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent


class GeminiProtocol(AgentCLI):
    """Answers in Gemini CLI's words."""

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
