"""Codex CLI: what a hook process needs to know about it, checked against Codex CLI 0.169.0.

Event and tool names (the shell tool arrives as ``Bash``; ``apply_patch`` carries raw
patch text, read here into the files it adds, updates, deletes or moves), and answers shaped to
Codex's strict output schemas: one unknown key, a missing hookEventName, a deny without a
reason or an ``ask`` makes Codex ignore the answer and run the tool, so every answer is filtered
to the keys the event's schema takes, and what Codex cannot express is mapped to the safe side.

The hookwrap command's half (`.codex/hooks.json` entries, their validation, trust, `hookwrap
test`'s host rules, doctor) is in
``codex_setup.py``, whose class extends the one here.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._base import ALLOWING, BLOCKING, AgentCLI, json_object
from ._patch import parse_patch

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent

# --- runtime facts (Codex CLI 0.169.0) -------------------------------------------------------

# The keys each event's output schema takes (every schema has additionalProperties: false):
# (top-level keys, hookSpecificOutput keys). None: the event reads no output at all.
_COMMON = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage"})
_SCHEMAS: dict[str, tuple[frozenset[str], frozenset[str]] | None] = {
    "PreToolUse": (_COMMON | {"decision", "reason", "hookSpecificOutput"},
                   frozenset({"hookEventName", "permissionDecision", "permissionDecisionReason",
                              "updatedInput", "additionalContext"})),
    "PermissionRequest": (_COMMON | {"hookSpecificOutput"}, frozenset({"hookEventName", "decision"})),
    "PostToolUse": (_COMMON | {"decision", "reason", "hookSpecificOutput"},
                    frozenset({"hookEventName", "additionalContext", "updatedMCPToolOutput"})),
    "UserPromptSubmit": (_COMMON | {"decision", "reason", "hookSpecificOutput"},
                         frozenset({"hookEventName", "additionalContext"})),
    "SessionStart": (_COMMON | {"hookSpecificOutput"}, frozenset({"hookEventName", "additionalContext"})),
    "SubagentStart": (_COMMON | {"hookSpecificOutput"}, frozenset({"hookEventName", "additionalContext"})),
    "Stop": (_COMMON | {"decision", "reason"}, frozenset()),
    "SubagentStop": (_COMMON | {"decision", "reason"}, frozenset()),
    "PreCompact": (_COMMON, frozenset()),
    "PostCompact": (_COMMON, frozenset()),
    "Interrupt": (frozenset({"systemMessage"}), frozenset()),
    "SessionEnd": None,
}
# Read by the schema but not acted on: continue/stopReason/suppressOutput void a PreToolUse or
# PermissionRequest answer (status Failed, the call runs); suppressOutput has no observed effect
# anywhere in 0.169.0, so hookwrap never sends it.
_NEVER = {"PreToolUse": ("continue", "stopReason"), "PermissionRequest": ("continue", "stopReason")}
# An empty block reason makes Codex ignore a block (status Failed): one always goes with it.
DEFAULT_BLOCK_REASON = "Blocked by a hookwrap hook (it gave no reason)."
# Codex hooks cannot ask the user (an "ask" answer is ignored and the call runs): ask -> deny.
ASK_NOTE = ("This call needs the user's confirmation, and Codex CLI hooks cannot ask for it, so "
            "it was blocked: ask the user, and run it only if they agree.")
# Events whose answer has no additionalContext: context goes to systemMessage instead.
_NO_CONTEXT_EVENTS = frozenset({_E.AFTER_AGENT, _E.PERMISSION_REQUEST, _E.PRE_COMPACT,
                                _E.POST_COMPACT, _E.SESSION_END})

class CodexCLI(AgentCLI):
    """Codex CLI 0.169.0."""

    platform = Platform.CODEX
    label = "Codex CLI"
    version = "0.169.0"
    events = {
        "Stop": _E.AFTER_AGENT,
        "SubagentStop": _E.AFTER_AGENT,
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "PermissionRequest": _E.PERMISSION_REQUEST,
        "PreCompact": _E.PRE_COMPACT,
        "PostCompact": _E.POST_COMPACT,
        "SubagentStart": _E.SUBAGENT_START,
    }
    preferred_events = {_E.AFTER_AGENT: "Stop"}
    tools = {
        "Bash": "shell",  # the shell tool (exec_command), with {"command": str}
        "apply_patch": "edit_file",  # write_file for a patch that only adds files
    }
    # Set by hookwrap's own registered command (Codex sets no project-dir variable).
    project_dir_vars = ("HOOKWRAP_PROJECT_DIR",)

    def platform_tool_names(self, tool: str) -> list[str]:
        # apply_patch is also how Codex writes a new file: a write_file matcher selects it.
        return ["apply_patch"] if tool == "write_file" else super().platform_tool_names(tool)

    def normalize_call(self, name: str, tool_input: Any) -> str:
        """``apply_patch`` is write_file when the patch only adds files, else edit_file."""
        if name == "apply_patch":
            files = parse_patch(_patch_text(tool_input))
            if files and all(f["action"] == "add" for f in files):
                return "write_file"
        return self.normalize_tool(name)

    def tool_files(self, tool: str, raw_tool: str, tool_input: Any) -> list[dict[str, Any]]:
        """The files an ``apply_patch`` call touches (also one run through the shell tool as
        ``apply_patch <<'EOF'``); other calls as every CLI's."""
        text = _patch_text(tool_input)
        if raw_tool == "apply_patch" or (tool == "shell" and "apply_patch" in text):
            files = parse_patch(text)
            if files or raw_tool == "apply_patch":
                return files
        return super().tool_files(tool, raw_tool, tool_input)

    # --- runtime: speaking this CLI's protocol to an external hook (bridge.py) -------------
    def common_tool_input(self, tool: str, tool_input: Any) -> dict[str, Any]:
        """An ``apply_patch`` that touches exactly one file reads as Claude's Write
        (``file_path``, ``content``: a file it adds) or Edit (``file_path``, ``old_string``,
        ``new_string``: one hunk of a file it updates in place); paths stay as the patch wrote
        them (relative to the session cwd, or absolute). Any other patch stays a patch."""
        if tool in ("write_file", "edit_file") and isinstance(tool_input, dict) \
                and set(tool_input) == {"command"}:
            shaped = claude_shape(_patch_text(tool_input))
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

    # --- runtime: answers ------------------------------------------------------------------
    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Codex CLI's reading (codex-cli.md §4.1 and §4.2): as Claude Code's, except that exit 2
        with an empty stderr fails open, and that on PreToolUse an answer Codex does not accept
        is a failure, so the tool runs: a top-level ``decision`` other than ``block``, ``ask``,
        a deny without a reason, ``continue: false``, ``updatedInput`` without ``allow``."""
        if exit_code == 2 and not stderr.strip():
            return {}
        fields = super().read_answer(event, exit_code, stdout, stderr)
        if exit_code != 0 or event is not NormalizedEvent.BEFORE_TOOL:
            return fields
        data = json_object(stdout) or {}
        top = data.get("decision")
        specific = data.get("hookSpecificOutput")
        permission = specific.get("permissionDecision") if isinstance(specific, dict) else None
        if (top is not None and top != "block") or data.get("continue") is False \
                or permission == "ask" or fields.get("decision") == "ask":
            return {}
        if fields.get("decision") in ("deny", "block") and not fields.get("reason"):
            return {}
        if "updated_input" in fields and permission != "allow":
            del fields["updated_input"]
        return fields

    def reply_event_name(self, event: NormalizedEvent, raw_event: str | None) -> str:
        if raw_event and raw_event not in self.events:
            return raw_event if raw_event in _SCHEMAS else ""
        return super().reply_event_name(event, raw_event)

    def top_decision(self, decision: str) -> str:
        # The only top-level value Codex acts on is "block"; "approve" voids the answer.
        return "block" if decision in BLOCKING else ""

    def context_in_system_message(self, event: NormalizedEvent) -> bool:
        # Where the answer has no additionalContext, the text at least reaches the user.
        return event in _NO_CONTEXT_EVENTS

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        schema = _SCHEMAS.get(name)
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
        """Fit the answer to the event's schema, mapping what Codex cannot do to the safe side."""
        return shape_output(result, name)

    def output_limits(self, event: NormalizedEvent) -> list[tuple[str, str]]:
        if event is _E.BEFORE_TOOL:
            return [("ask", "has no ask: an ask is sent as a deny whose reason tells the model to "
                            "ask the user")]
        return []

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        # A PermissionRequest answer takes no top-level decision: a crash there must still deny
        # in the event's own words, or Codex reads it as Failed and runs the call.
        if event is _E.PERMISSION_REQUEST and document.get("decision") == "block":
            reason = str(document.get("reason") or "the hook failed")
            return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
                "behavior": "deny", "message": reason}}}
        return document


# --- runtime helpers -------------------------------------------------------------------------

def _patch_text(tool_input: Any) -> str:
    if isinstance(tool_input, dict):
        text = tool_input.get("command", tool_input.get("input"))
        return text if isinstance(text, str) else ""
    return tool_input if isinstance(tool_input, str) else ""


def claude_shape(text: str) -> dict[str, Any] | None:
    """Claude's Write/Edit input for a patch that adds one file or changes one hunk of one file
    (no move), else None."""
    files = parse_patch(text)
    if len(files) != 1 or files[0]["move_to"] is not None or files[0]["action"] == "delete":
        return None
    lines = text.splitlines()
    try:
        body = lines[lines.index("*** Begin Patch") + 2:lines.index("*** End Patch")]
    except ValueError:
        return None
    path = files[0]["path"]
    if files[0]["action"] == "add":
        if not all(line.startswith("+") for line in body):
            return None
        return {"file_path": path, "content": "".join(line[1:] + "\n" for line in body)}
    if body and body[0].startswith("@@"):
        body = body[1:]
    old: list[str] = []
    new: list[str] = []
    for line in body:
        if line.startswith(("-", " ")):
            old.append(line[1:])
        if line.startswith(("+", " ")):
            new.append(line[1:])
        if not line.startswith(("-", "+", " ")):
            return None  # a second hunk (@@), an end-of-file marker: not one Edit
    if not old:
        return None
    return {"file_path": path, "old_string": "\n".join(old), "new_string": "\n".join(new)}


def patch_for(common: dict[str, Any]) -> str | None:
    """The one-file patch for Claude's Write (add) or Edit (one hunk) input, else None."""
    path = common.get("file_path")
    if not isinstance(path, str) or not path or "command" in common:
        return None
    content, old, new = (common.get(key) for key in ("content", "old_string", "new_string"))
    if isinstance(content, str) and set(common) == {"file_path", "content"}:
        lines = [f"+{line}" for line in content.splitlines()]
        return "\n".join(["*** Begin Patch", f"*** Add File: {path}", *lines,
                          "*** End Patch", ""])
    if isinstance(old, str) and isinstance(new, str) and old \
            and set(common) <= {"file_path", "old_string", "new_string", "replace_all"}:
        lines = [f"-{line}" for line in old.split("\n")] + [f"+{line}" for line in new.split("\n")]
        return "\n".join(["*** Begin Patch", f"*** Update File: {path}", "@@", *lines,
                          "*** End Patch", ""])
    return None


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


def shape_output(result: dict[str, Any], name: str) -> dict[str, Any]:
    """``result`` fitted to Codex 0.169.0's schema for event ``name``.

    Safe mappings: on PreToolUse an ``ask``, a ``continue: false`` or a legacy block becomes a
    deny with a reason (the call must not run), an ``allow`` without updatedInput is dropped
    (it would void the answer; the call runs anyway); on every event a block gets a reason
    when it has none; keys the schema does not take are dropped.
    """
    schema = _SCHEMAS.get(name, (frozenset({"systemMessage"}), frozenset()))
    if schema is None:
        return {}
    top_keys, inner_keys = schema
    out = dict(result)
    out.pop("suppressOutput", None)
    inner = out.get("hookSpecificOutput")
    inner = dict(inner) if isinstance(inner, dict) else None
    if name == "PreToolUse":
        inner = _pre_tool_use(out, inner or {}) or None
    for key in _NEVER.get(name, ()):
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


def _pre_tool_use(out: dict[str, Any], inner: dict[str, Any]) -> dict[str, Any]:
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
            reason = f"{reason} ({ASK_NOTE})" if reason else ASK_NOTE
        inner.pop("updatedInput", None)
        inner.update(permissionDecision="deny", permissionDecisionReason=_reason(reason))
    elif verdict == "allow" and "updatedInput" not in inner:
        inner.pop("permissionDecision")
        inner.pop("permissionDecisionReason", None)
    elif verdict is None:
        inner.pop("updatedInput", None)  # without an allow it voids the answer
        inner.pop("permissionDecisionReason", None)
    return inner


CLI = CodexCLI()
