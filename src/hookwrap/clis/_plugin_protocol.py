"""The protocol of hookwrap's generated plugins (OpenCode 1.18.33, and the CLIs that load
OpenCode's plugin API): the plugin runs the hook's command and reads flat JSON on stdout at
exit 0. ``decision: "block"`` with ``reason`` stops the tool call, replaces a tool's output or
refuses a prompt; ``updatedInput`` changes a call's arguments in place; ``additionalContext`` and
``systemMessage`` reach the model and the user. The plugin knows no ask and no allow: an ask
is sent as a block whose reason ends with the record's ``ask_note``.
"""

from __future__ import annotations

from ..names import NormalizedEvent
from ._base import BLOCKING, AgentCLI

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent


class PluginProtocol(AgentCLI):
    """Answers in the words of hookwrap's generated plugin."""

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str,
                    stderr: str) -> dict[str, Any]:
        if exit_code != 0:  # the plugin reports it and the call goes on (fail-closed: bridge)
            return {}
        return super().read_answer(event, exit_code, stdout, stderr)

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
