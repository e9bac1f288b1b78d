"""Cline's hook protocol (Cline 3.0.65, /work/shared/reference/cline.md): its own payload and its
own answer, read by hookwrap's generated hook files (``generator/clis/cline.py``).

The payload is not Claude-shaped: ``hookName`` (``tool_call``, ``tool_result``, ``agent_start``,
...), ``tool_call: {id, name, input}`` / ``tool_result: {id, name, input, output, error}``,
``taskId`` and ``sessionContext.rootSessionId``, ``workspaceRoots``. ``payload_fields`` reads it
into the keys HookInput reads (a key a payload already carries in Claude's spelling wins: that
is how `hookwrap test --tool/--input` speaks to it).

The answer is ``{cancel, contextModification, errorMessage, overrideInput}`` (the seed's fields,
``decision``, ``reason``, ``continue``..., are sent too: Cline ignores them); exit codes are
ignored. ``cancel`` ends the whole task and the model never sees why, so a block is sent as
``{"overrideInput": null, "contextModification": reason}``: the tool fails its input check
(nothing runs), the reason reaches the model as hook context, and the task goes on. Context is
``contextModification``; a rewrite is ``overrideInput`` (the whole input); ``continue_loop=False``
is ``cancel`` (the task stops). Cline cannot ask the user: an ask is a block whose reason ends
with the record's ``ask_note``.
"""

from __future__ import annotations

import os

from ..names import NormalizedEvent
from ._base import BLOCKING, TYPE_CHECKING, AgentCLI, json_kind, json_object

if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent

# overrideInput that no tool's input check accepts: null is no object, so the tool fails with
# "Invalid input" and runs nothing (3.0.65 replaces the input with any value but undefined).
BLOCK_INPUT = None


def block_answer(reason: str) -> dict[str, Any]:
    """Cline's answer that blocks a tool call, the reason shown to the model, the task going on."""
    return {"overrideInput": BLOCK_INPUT, "contextModification": reason}


class ClineProtocol(AgentCLI):
    """Cline's payloads and answers."""

    def payload_fields(self, data: dict[str, Any]) -> dict[str, Any]:
        hook = data.get("hookName")
        if not isinstance(hook, str) or "hook_event_name" in data:
            return data
        names: dict[str, str] = self.hook_names
        call = data.get("tool_call") if hook == "tool_call" else data.get("tool_result")
        fields: dict[str, Any] = {"hook_event_name": names.get(hook, hook)}
        session = data.get("sessionContext")
        root = session.get("rootSessionId") if isinstance(session, dict) else None
        fields["session_id"] = root if isinstance(root, str) and root else data.get("taskId", "")
        # run_commands runs its commands from the workspace root (the git root), cline.md §2.
        roots = data.get("workspaceRoots")
        root = roots[0] if isinstance(roots, list) and roots else None
        fields["cwd"] = root if isinstance(root, str) and root else os.getcwd()
        if isinstance(call, dict):
            fields["tool_name"] = call.get("name", "")
            fields["tool_input"] = call.get("input", {})
            fields["tool_use_id"] = call.get("id", "")
            if hook == "tool_result":
                fields["tool_response"] = call.get("output")
                error = call.get("error")
                if error is not None:
                    fields["error"] = _tool_error(error, call, data)
        if hook == "agent_end":
            turn = data.get("turn")
            if isinstance(turn, dict) and isinstance(turn.get("outputText"), str):
                fields["last_assistant_message"] = turn["outputText"]
        fields.update(data)  # Claude's spelling, where the payload has it, wins
        return fields

    def shell_lines(self, tool_input: Any) -> list[str]:
        """run_commands carries a list, ``commands``: every entry runs (cline.md §2)."""
        lines = tool_input.get("commands") if isinstance(tool_input, dict) else None
        if isinstance(lines, str):
            return [lines]
        return [line for line in lines if isinstance(line, str)] if isinstance(lines, list) \
            else super().shell_lines(tool_input)

    def unreadable_shell_input(self, tool_input: dict[str, Any]) -> str:
        """run_commands' ``commands``: a string, or a non-empty list of strings."""
        if "commands" not in tool_input:
            return super().unreadable_shell_input(tool_input)
        lines = tool_input["commands"]
        if isinstance(lines, list):
            return "" if lines and all(isinstance(line, str) for line in lines) else \
                "its commands are not a list of strings"
        return "" if isinstance(lines, str) else f"its commands are {json_kind(lines)}, not a list"

    def own_tool_name(self, tool: str, raw_tool: str) -> str:
        """editor writes whole files too (NORMALIZED_TO_TOOL keeps it edit_file's name)."""
        return "editor" if tool == "write_file" else super().own_tool_name(tool, raw_tool)

    def common_tool_input(self, tool: str, tool_input: Any) -> dict[str, Any]:
        """Claude Code's keys; run_commands' list becomes one ``command``, a line each."""
        common = super().common_tool_input(tool, tool_input)
        if tool == "shell" and "commands" in common:
            del common["commands"]
            common["command"] = "\n".join(self.shell_lines(tool_input))
        return common

    def own_tool_input(self, tool: str, common: Any) -> dict[str, Any]:
        """Cline's keys; Claude's one ``command`` becomes run_commands' list."""
        own = super().own_tool_input(tool, common)
        if tool == "shell" and isinstance(own.get("command"), str):
            own["commands"] = [own.pop("command")]
            own.pop("description", None)
        return own

    def normalize_call(self, name: str, tool_input: Any) -> str:
        """editor without old_text or insert_line writes a whole file (it creates a missing one)."""
        if name == "editor" and isinstance(tool_input, dict) \
                and "old_text" not in tool_input and "insert_line" not in tool_input:
            return "write_file"
        return super().normalize_call(name, tool_input)

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        # The seed's fields stay (Cline ignores them: "emit both"); Cline's own keys are
        # hookwrap's, and raw_output filled the gaps already.
        parts = [output.context]
        blocking = decision in BLOCKING or decision == "ask"
        if blocking and event in (_E.BEFORE_TOOL, _E.AFTER_TOOL):
            reason = output.reason or "blocked by a hookwrap hook"
            if decision == "ask":
                reason = "\n\n".join(t for t in (output.reason, self.ask_note) if t)
            parts.insert(0, reason)  # after the tool it has run: the reason is context
            if event is _E.BEFORE_TOOL:
                result["overrideInput"] = BLOCK_INPUT
        elif output.updated_input is not None and event is _E.BEFORE_TOOL:
            result["overrideInput"] = output.updated_input
        context = "\n\n".join(part for part in parts if part)
        if context:
            result["contextModification"] = context
        if not output.continue_loop:
            result["cancel"] = True
            result["errorMessage"] = output.stop_reason or output.reason or "stopped by a hook"
        return result

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        reason = str(document.get("reason", "")) or "the hook failed"
        if event is _E.BEFORE_TOOL:
            return {**document, **block_answer(reason)}
        if event is _E.AFTER_TOOL:  # the only other answer Cline reads
            return {**document, "contextModification": reason}
        return document

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str,
                    stderr: str) -> dict[str, Any]:
        """A Cline hook file's answer: JSON on stdout (or after the last ``HOOK_CONTROL\\t``),
        whatever the exit code; anything else is no answer (the tool runs). Cline 3.0.65 reads
        only PreToolUse's and PostToolUse's: every other hook runs detached, its stdout ignored
        (cline.md §4: cancel and context had no effect on TaskStart)."""
        if event not in (_E.BEFORE_TOOL, _E.AFTER_TOOL):
            return {}
        control = stdout.rpartition("HOOK_CONTROL\t")  # the line after the last marker, if any
        data = json_object(control[2].split("\n", 1)[0] if control[1] else stdout)
        if data is None:
            return {}
        fields: dict[str, Any] = {}
        context = data.get("context") if isinstance(data.get("context"), str) \
            else data.get("contextModification")
        error = data.get("errorMessage")
        if data.get("cancel") is True:
            fields["continue_loop"] = False
            fields["stop_reason"] = error if isinstance(error, str) else ""
        elif not isinstance(context, str) and isinstance(error, str):
            context = error
        if "overrideInput" in data and event is _E.BEFORE_TOOL:
            if isinstance(data["overrideInput"], dict) and data["overrideInput"]:
                fields["updated_input"] = data["overrideInput"]
            else:  # {} or null: the tool fails its input check
                fields["decision"] = "block"
                fields["reason"] = context if isinstance(context, str) else ""
                return fields
        if isinstance(context, str) and context:
            fields["context"] = context
        return fields


def _tool_error(error: Any, call: dict[str, Any], data: dict[str, Any]) -> Any:
    """A failed tool's error: Cline 3.0.65 sends the useless ``"[object Object]"``; the text is
    in the output's ``error`` or in ``postToolUse.result``."""
    if error != "[object Object]":
        return error
    output = call.get("output")
    if isinstance(output, dict) and isinstance(output.get("error"), str):
        return output["error"]
    legacy = data.get("postToolUse")
    if isinstance(legacy, dict) and isinstance(legacy.get("result"), str):
        return legacy["result"]
    return error
