"""The protocol of hookwrap's generated plugins (OpenCode 1.18.33, and the CLIs that load
OpenCode's plugin API): the plugin runs the hook's command and reads flat JSON on stdout at
exit 0, as clis/opencode.py's docstring says key by key. The plugin knows no ask and no allow:
an ask is sent as a block whose reason ends with the record's ``ask_note``.
"""

from __future__ import annotations

from ..names import NormalizedEvent
from ._base import BLOCKING, TYPE_CHECKING, AgentCLI, answer_fields, json_object

if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent


# Where the plugin acts on a block: the call, the tool's result (pi: a failed tool's too), the
# prompt; Stop only where the CLI can keep the agent working (knobs.keep_working).
_BLOCKABLE = frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE, _E.BEFORE_PROMPT})


class PluginProtocol(AgentCLI):
    """Answers in the words of hookwrap's generated plugin."""

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str,
                    stderr: str) -> dict[str, Any]:
        """The plugin's reading (``answerOf`` and ``runHooks`` in hook_runner.js): at exit 0 a
        JSON object on stdout, of which only ``systemMessage``, ``additionalContext``,
        ``decision`` (``"block"`` or ``"deny"``) with ``reason``, and ``updatedInput`` (before a
        tool) count; anything else is no answer (a failed run: the plugin reports it and the call
        goes on; fail-closed is the bridge's). A block counts before and after a tool and on a
        prompt, and on Stop only where the CLI can keep the agent working."""
        data = json_object(stdout) if exit_code == 0 else None
        if data is None or not stdout.strip().startswith("{"):  # parsed once, not double-encoded
            return {}
        read = ("systemMessage", *(() if event is _E.AFTER_AGENT else ("additionalContext",)))
        fields = answer_fields({key: data[key] for key in read if key in data})  # Stop: no context
        decision = data.get("decision")  # any JSON value: the plugin compares it with strings
        if isinstance(decision, str) and decision in BLOCKING and (event in _BLOCKABLE or (
                event is _E.AFTER_AGENT and self.keep_working)):
            reason = data.get("reason")
            fields.update(decision="block", reason=reason if isinstance(reason, str) and reason
                          else "Blocked by a hookwrap hook.")
        elif isinstance(data.get("updatedInput"), dict) and event is _E.BEFORE_TOOL:
            fields["updated_input"] = data["updatedInput"]
        return fields

    def top_decision(self, decision: str) -> str:
        # The plugin knows one decision: block. An ask is sent as a block (finish_output), an
        # allow has nothing to skip (the CLI's own permission rules still apply).
        return "block" if decision in BLOCKING or decision == "ask" else ""

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        if decision == "ask" and event is _E.BEFORE_TOOL:
            result["reason"] = "\n\n".join(t for t in (output.reason, self.ask_note) if t)
        elif decision == "ask" and result.get("decision") == "block":
            # An ask means nothing outside a tool call; a raw_output decision fills the gap, as
            # raw_output fills every key the answer lacks.
            raw = output.raw_output
            if isinstance(raw, dict) and "decision" in raw:
                result["decision"] = raw["decision"]
            else:
                del result["decision"]
        if output.context and "additionalContext" not in result:
            result["additionalContext"] = output.context
        if output.system_message and "systemMessage" not in result:
            result["systemMessage"] = output.system_message
        if output.updated_input is not None and event is _E.BEFORE_TOOL \
                and result.get("decision") != "block":
            result["updatedInput"] = output.updated_input
        return result
