"""Codex CLI's hook protocol (0.169.0): answers shaped to its strict output schemas.

One unknown key, a missing hookEventName, a deny without a reason or an ``ask`` makes Codex
ignore the answer and run the tool, so every answer is filtered to the keys the event's schema
takes (the record's ``output_schemas`` knob), and what Codex cannot express is mapped to the
safe side. Codex's apply_patch reads, for an external hook, as Claude Code's Write or Edit.
"""

from __future__ import annotations

from ..names import NormalizedEvent
from ._base import ALLOWING, BLOCKING, TYPE_CHECKING, AgentCLI, answer_fields, json_object
from ._patch import claude_shape, patch_for

if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent
# An empty block reason makes Codex ignore a block (status Failed): one always goes with it.
DEFAULT_BLOCK_REASON = "Blocked by a hookwrap hook (it gave no reason)."
_NO_SCHEMA: Any = (frozenset({"systemMessage"}), frozenset())


class CodexProtocol(AgentCLI):
    """Answers in Codex CLI's words, fitted to its schemas."""

    def common_tool_input(self, tool: str, tool_input: Any) -> dict[str, Any]:
        """An ``apply_patch`` that touches exactly one file reads as Claude's Write
        (``file_path``, ``content``: a file it adds) or Edit (``file_path``, ``old_string``,
        ``new_string``: one hunk of a file it updates in place); paths stay as the patch wrote
        them (relative to the session cwd, or absolute). Any other patch stays a patch."""
        if tool in ("write_file", "edit_file") and isinstance(tool_input, dict) \
                and set(tool_input) == {"command"}:
            shaped = claude_shape(self.patch_text(tool_input))
            if shaped is not None:
                return shaped
        return super().common_tool_input(tool, tool_input)

    def own_tool_name(self, tool: str, raw_tool: str) -> str:
        # Codex writes a new file with apply_patch too (a write_file call arrives as a patch).
        return "apply_patch" if tool == "write_file" else super().own_tool_name(tool, raw_tool)

    def own_tool_input(self, tool: str, common: Any) -> dict[str, Any]:
        """The inverse: Claude's Write or Edit input (an external hook's ``updatedInput``)
        back to the one-file patch Codex applies."""
        if tool in ("write_file", "edit_file") and isinstance(common, dict):
            patch = patch_for(common)
            if patch is not None:
                return {"command": patch}
        return super().own_tool_input(tool, common)

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Codex CLI's reading (codex-cli.md §4): exit 2 blocks with stderr where the record's
        ``exit2_blocks`` says (an empty stderr fails open); any other non-zero exit fails open;
        at exit 0 plain text is context on SessionStart and UserPromptSubmit, and a JSON object
        counts only when it fits the event's schema (``answer_problems``): otherwise the run is
        Failed and the call goes on."""
        if exit_code == 2:
            reason = stderr.strip()
            return {"decision": "block", "reason": reason} \
                if reason and event in self.exit2_blocks else {}
        if exit_code != 0 or not stdout.strip().startswith("{"):
            return super().read_answer(event, exit_code, stdout, stderr)
        data, name = json_object(stdout), self.event_names().get(event, "")
        if data is None or self.output_schemas.get(name, _NO_SCHEMA) is None or \
                self.answer_problems(name, data):
            return {}  # SessionEnd has no output schema (nothing read), or Codex rejects it
        return answer_fields(data)

    def answer_problems(self, name: str, data: dict[str, Any]) -> list[str]:
        """Why Codex CLI 0.169.0 would reject ``data`` as the answer to event ``name`` (empty:
        it reads it): a key the event's schema does not take, no ``hookEventName``, a
        ``decision`` other than ``block``, a block or deny without a reason, an ``ask``..."""
        schema = self.output_schemas.get(name, _NO_SCHEMA)
        if schema is None:
            return []
        top, inner_keys = schema
        problems = [f"unknown key {k!r}" for k in data if k not in top]
        inner = data.get("hookSpecificOutput")
        if isinstance(inner, dict):
            problems += [f"unknown key hookSpecificOutput.{k!r}" for k in inner
                         if k not in inner_keys]
            if "hookEventName" not in inner:
                problems.append("hookSpecificOutput has no hookEventName")
        elif inner is not None:
            problems.append("hookSpecificOutput is not an object")
        inner = inner if isinstance(inner, dict) else {}
        decision = data.get("decision")
        if decision not in (None, "block"):
            problems.append(f"decision {decision!r} is not supported (only \"block\")")
        if decision == "block" and not str(data.get("reason") or "").strip():
            problems.append("a block without a reason")
        if "reason" in data and decision is None:
            problems.append("reason without decision")
        verdict = inner.get("permissionDecision") if name == "PreToolUse" else None
        if verdict == "ask":
            problems.append("permissionDecision \"ask\" is not supported")
        elif verdict == "deny" and not str(inner.get("permissionDecisionReason") or "").strip():
            problems.append("a deny without a permissionDecisionReason")
        elif verdict == "allow" and "updatedInput" not in inner:
            problems.append("permissionDecision \"allow\" without updatedInput is not supported")
        if name == "PreToolUse" and "updatedInput" in inner and verdict != "allow":
            problems.append("updatedInput without permissionDecision \"allow\"")
        if name == "PermissionRequest":
            verdict = inner.get("decision")
            if isinstance(verdict, dict) and ({"updatedInput", "updatedPermissions"} & set(verdict)
                                              or verdict.get("interrupt")):
                problems.append("updatedInput, updatedPermissions and interrupt are not supported")
        if name in self.never_sent and data.get("continue") is False:
            problems.append(f"continue: false is not supported on {name}")
        if data.get("suppressOutput") and name in self.never_sent:
            problems.append(f"suppressOutput is not supported on {name}")
        return problems

    def reply_event_name(self, event: NormalizedEvent, raw_event: str | None) -> str:
        if raw_event and raw_event not in self.events:
            return raw_event if raw_event in self.output_schemas else ""
        return super().reply_event_name(event, raw_event)

    def top_decision(self, decision: str) -> str:
        # The only top-level value Codex acts on is "block"; "approve" voids the answer.
        return "block" if decision in BLOCKING else ""

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        schema = self.output_schemas.get(name)
        specific: dict[str, Any] = {}
        if schema is None:
            return specific
        if output.context and "additionalContext" in schema[1]:
            specific["additionalContext"] = output.context
        if name == "PreToolUse":
            if decision in BLOCKING:
                specific["permissionDecision"] = "deny"
            elif decision == "ask":
                specific["permissionDecision"] = "ask"  # made a deny by finish_output
            elif output.updated_input is not None:
                specific.update(permissionDecision="allow", updatedInput=output.updated_input)
            if output.reason and "permissionDecision" in specific:
                specific["permissionDecisionReason"] = output.reason
        elif name == "PermissionRequest":
            verdict = _permission_request(output, decision)
            if verdict:
                specific["decision"] = verdict
        return specific

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        """``result`` fitted to Codex 0.169.0's schema for event ``name`` (the knobs
        ``output_schemas``: each event's top-level and hookSpecificOutput keys; ``never_sent``:
        keys read but not acted on).

        Safe mappings: on PreToolUse an ``ask``, a ``continue: false`` or a legacy block becomes a
        deny with a reason (the call must not run), an ``allow`` without updatedInput is dropped
        (it would void the answer; the call runs anyway); on every event a block gets a reason
        when it has none; keys the schema does not take are dropped.
        """
        schema = self.output_schemas.get(name, _NO_SCHEMA)
        if schema is None:
            return {}
        top_keys, inner_keys = schema
        out = dict(result)
        out.pop("suppressOutput", None)
        inner = out.get("hookSpecificOutput")
        inner = dict(inner) if isinstance(inner, dict) else None
        if name == "PreToolUse":
            inner = _pre_tool_use(out, inner or {}, self.ask_note) or None
        for key in self.never_sent.get(name, ()):
            out.pop(key, None)
        if out.get("decision") == "block":
            out["reason"] = _reason(out.get("reason"))
        elif "decision" in out:
            del out["decision"]
        if "decision" not in out:
            out.pop("reason", None)  # a reason without a decision voids the answer
        kept = {k: v for k, v in (inner or {}).items() if k in inner_keys and k != "hookEventName"}
        if kept:  # hookEventName is required, and first, as Codex writes it
            out["hookSpecificOutput"] = {"hookEventName": name, **kept}
        else:
            out.pop("hookSpecificOutput", None)
        return {k: v for k, v in out.items() if k in top_keys}

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        # A PermissionRequest answer takes no top-level decision: a crash there must still deny
        # in the event's own words, or Codex reads it as Failed and runs the call.
        if event is _E.PERMISSION_REQUEST and document.get("decision") == "block":
            reason = str(document.get("reason") or "the hook failed")
            return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
                "behavior": "deny", "message": reason}}}
        return document


def _permission_request(output: OutputView, decision: str) -> dict[str, Any] | None:
    """The PermissionRequest verdict, or None to leave the approval to Codex's normal flow.

    Codex 0.169.0 rejects updatedInput here (the answer fails closed), so an allow that rewrites
    the input is not granted: the user decides, as with "ask" or no decision.
    """
    if decision in BLOCKING or not output.continue_loop:
        return {"behavior": "deny", "message": _reason(output.reason or output.stop_reason)}
    if decision in ALLOWING and output.updated_input is None:
        return {"behavior": "allow"}
    return None


def _reason(value: Any) -> str:
    """A block's reason; Codex ignores a block whose reason is empty, so never an empty one."""
    text = value if isinstance(value, str) else ""
    return text if text.strip() else DEFAULT_BLOCK_REASON


def _pre_tool_use(out: dict[str, Any], inner: dict[str, Any], ask_note: str) -> dict[str, Any]:
    """PreToolUse's decision, all in hookSpecificOutput, with the top-level keys it replaces
    removed from ``out``."""
    verdict = inner.get("permissionDecision")
    stopped = out.get("continue") is False
    deny = verdict in ("deny", "ask") or out.get("decision") == "block" or stopped
    asked = verdict == "ask" and out.get("decision") != "block" and not stopped
    reason = str(inner.get("permissionDecisionReason") or out.get("reason") or
                 (out.get("stopReason") if stopped else "") or "")
    for key in ("decision", "reason", "continue", "stopReason"):
        out.pop(key, None)
    if deny:
        if asked:
            reason = f"{reason} ({ask_note})" if reason else ask_note
        inner.pop("updatedInput", None)
        inner.update(permissionDecision="deny", permissionDecisionReason=_reason(reason))
    elif verdict == "allow" and "updatedInput" not in inner:
        inner.pop("permissionDecision")
        inner.pop("permissionDecisionReason", None)
    elif verdict is None:
        inner.pop("updatedInput", None)  # without an allow it voids the answer
        inner.pop("permissionDecisionReason", None)
    return inner
