"""Gemini CLI's hook protocol (0.61.0): a top-level ``decision`` (``deny``/``block``, ``ask`` on
BeforeTool), ``reason``, ``continue``/``stopReason``, ``systemMessage``, and
``hookSpecificOutput`` with ``additionalContext`` and the rewritten ``tool_input``; Claude Code's
``permissionDecision`` and ``updatedInput`` are not read."""

from __future__ import annotations

from ..names import NormalizedEvent
from ._base import TYPE_CHECKING, AgentCLI, answer_fields, json_object

if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent


# Where Gemini CLI 0.61.0 reads hookSpecificOutput.additionalContext (gemini-cli.md §2.5).
_READS_CONTEXT = frozenset({_E.AFTER_TOOL, _E.BEFORE_PROMPT, _E.SESSION_START})
# The events whose outputs are not consumed but for systemMessage and SessionStart's context.
_NO_FLOW = frozenset({_E.SESSION_START, _E.SESSION_END, _E.PRE_COMPACT, _E.NOTIFICATION,
                      _E.BEFORE_TOOL_SELECTION})


class GeminiProtocol(AgentCLI):
    """Answers in Gemini CLI's words."""

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Gemini CLI's reading (gemini-cli.md §2.3 and §3): stdout, else stderr; a JSON object
        (double-encoded too) is the answer whatever the exit code; plain text is a system
        message at exit 0, a warning at exit 1, and a deny with the text as reason at any other
        exit code. ``decision`` blocks as ``deny`` or ``block``; ``ask`` only on BeforeTool;
        context and the new tool input are in ``hookSpecificOutput`` (``additionalContext``,
        ``tool_input``); Claude's ``permissionDecision`` and ``updatedInput`` are ignored.
        Context is read after a tool, before the agent and at session start only; SessionStart,
        SessionEnd, PreCompress, Notification and BeforeToolSelection act on no decision and
        no ``continue`` (§2.4, §2.5)."""
        import json

        text = stdout.strip() or stderr.strip()
        if not text:
            return {}
        try:
            json.loads(text)
        except ValueError:  # plain text
            if exit_code == 0:
                return {"system_message": text}
            if exit_code == 1:
                return {"system_message": f"Warning: {text}"}
            return {} if event in _NO_FLOW else {"decision": "deny", "reason": text}
        data = json_object(text)
        if data is None:  # a number, null, a list: no output (§3)
            return {}
        fields: dict[str, Any] = {}
        if event in _NO_FLOW:
            data = {key: data[key] for key in ("systemMessage", "suppressOutput",
                                               "hookSpecificOutput") if key in data}
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
        fields.update(answer_fields({key: data[key] for key in ("systemMessage", "suppressOutput")
                                     if key in data}))
        specific = data.get("hookSpecificOutput")
        if isinstance(specific, dict):
            context = specific.get("additionalContext")
            if isinstance(context, str) and context and event in _READS_CONTEXT:
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
