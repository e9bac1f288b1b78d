"""Claude Code's hook protocol, and the CLIs that speak it with differences of their own.

Claude Code (2.1.328 and 2.1.332), Qwen Code, Copilot CLI (its PascalCase format) and Factory
Droid read the same answer: a top-level ``decision`` (``block``/``approve``), ``reason``, ``continue`` and
``stopReason``, ``systemMessage``, and ``hookSpecificOutput`` (``permissionDecision``,
``permissionDecisionReason``, ``updatedInput``, ``additionalContext``, a PermissionRequest
verdict). What a CLI does differently is a fact of its record, read here:

- ``ask_note``: it cannot ask the user; an ask on PreToolUse becomes a deny whose reason ends
  with the note (also a top-level block, which such a CLI reads too);
- ``rewrite_note``: it cannot apply ``updatedInput``; a rewrite becomes a deny whose reason
  gives the model the new input;
- knobs: ``pre_tool_context`` (False: PreToolUse context reaches no model, so none is sent),
  ``context_top_level`` (context is read only at the top level), ``post_tool_block_as_context``
  (a block after a tool is ignored: its reason goes out as context), ``stop_continue_false``
  (``"drop"``: continue:false on Stop means "keep working", so hookwrap's stop is sent as no
  block), ``permission_top_level`` (a PreToolUse verdict is also read at the top level),
  ``error_deny`` (where a crashed hook's block must also deny: ``"top-level"`` or
  ``"specific"``), ``answer_reading`` (how an external hook's answer is read: ``read_as_qwen``,
  ``read_as_copilot``, ``read_as_droid``; None: ``read_as_claude``).
"""

from __future__ import annotations

import json

from ..names import NormalizedEvent
from ._base import ALLOWING, BLOCKING, TYPE_CHECKING, AgentCLI, answer_fields, json_object

if TYPE_CHECKING:
    from typing import Any

    from ._views import OutputView

_E = NormalizedEvent

# Events whose hookSpecificOutput accepts additionalContext (Claude Code 2.1.328). Any other
# event has no such variant, and a hookSpecificOutput there makes Claude reject the whole output.
CONTEXT_EVENTS = frozenset({
    "PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Setup",
    "PostModelSwitch", "SubagentStart", "PostToolUse", "PostToolUseFailure", "PostToolBatch",
    "Stop", "SubagentStop", "Notification",
})


class ClaudeProtocol(AgentCLI):
    """Answers in Claude Code's words, fitted to the record's differences."""

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

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        if decision == "ask" and name == "PreToolUse" and self.ask_note:
            decision = "deny"
        specific: dict[str, Any] = {}
        if output.context and name in CONTEXT_EVENTS:
            specific["additionalContext"] = output.context
        if name == "PreToolUse":
            specific.update(_pre_tool_use(output, decision))
            if not self.pre_tool_context:
                specific.pop("additionalContext", None)  # read by no model request
            if self.rewrite_note:
                specific.pop("updatedInput", None)
                if output.updated_input is not None and decision not in BLOCKING:
                    specific["permissionDecision"] = "deny"
                    specific["permissionDecisionReason"] = (
                        (output.reason + "\n\n" if output.reason else "") + self.rewrite_note
                        + json.dumps(output.updated_input, ensure_ascii=False, allow_nan=False))
        elif name in self.skill_shell_events:
            specific.update(_skill_shell(output, decision))
        elif name == "PermissionRequest":
            verdict = _permission_request(output, decision)
            if verdict:
                specific["decision"] = verdict
        elif name in ("PostToolUse", "PostToolUseFailure") and decision in BLOCKING \
                and self.post_tool_block_as_context:
            # The CLI ignores a block after a tool; its context reaches the model.
            text = "\n\n".join(t for t in (output.reason, output.context) if t)
            if text:
                specific["additionalContext"] = text
        if self.context_top_level:
            specific.pop("additionalContext", None)  # sent top-level (finish_output)
        return specific

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        if self.context_top_level and output.context:
            result.setdefault("additionalContext", output.context)
        hso = result.get("hookSpecificOutput")
        if name == "PreToolUse" and isinstance(hso, dict):
            if decision == "ask" and self.ask_note:
                reason = "\n\n".join(t for t in (output.reason, self.ask_note) if t)
                hso["permissionDecisionReason"] = reason
                result["decision"], result["reason"] = "block", reason
            if self.permission_top_level:
                # The CLI's own words for a verdict, read in both its formats. A deny is
                # hookwrap's and wins over anything raw_output put at the top level.
                deny = hso.get("permissionDecision") == "deny"
                for key in ("permissionDecision", "permissionDecisionReason"):
                    if key in hso and (deny or key not in result):
                        result[key] = hso[key]
        if self.stop_continue_false == "drop" and event is _E.AFTER_AGENT \
                and not output.continue_loop:
            # On Stop the CLI reads continue:false as "keep working" (Claude: stop). The agent
            # stops anyway when no hook blocks, so hookwrap's stop is sent as no block at all.
            raw = output.raw_output if isinstance(output.raw_output, dict) else {}
            for key in ("continue", "stopReason", *(("decision",) if output.decision else ())):
                result.pop(key, None)
                if key in raw:  # raw_output still fills the gap it leaves
                    result[key] = raw[key]
        return result

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        where = self.error_deny
        if not where or event is not _E.BEFORE_TOOL or document.get("decision") != "block":
            return document
        # A top-level decision does not block PreToolUse on this CLI: fail closed in its words.
        deny = {"permissionDecision": "deny", "permissionDecisionReason": document.get("reason", "")}
        if where == "top-level":
            return {**document, **deny}
        return {**document, "hookSpecificOutput": {"hookEventName": "PreToolUse", **deny}}

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        # How this CLI reads an answer: its record's reading (Claude Code's by default), less
        # what the CLI does not act on (_READS; Qwen Code's reading fits its own).
        reading = self.answer_reading or read_as_claude
        fields = reading(self, event, exit_code, stdout, stderr)
        return _fitted(fields, event, *_READS[reading]) if reading in _READS else fields

    def answer_problems(self, name: str, data: dict[str, Any]) -> list[str]:
        """Why Claude Code 2.1.328 rejects ``data`` as the answer to event ``name`` (empty: it
        reads it). On PreSkillShellCommand, 2.1.332 also reads an answer written for
        PreToolUse; with ``decision: "block"`` a mismatched hookSpecificOutput is only ignored."""
        problems = []
        if data.get("decision") not in (None, "approve", "block"):
            problems.append(f"decision must be \"approve\" or \"block\", not {data['decision']!r}")
        specific = data.get("hookSpecificOutput")
        names = (name, "PreToolUse") if name in self.skill_shell_events else (name,)
        if specific is not None and data.get("decision") != "block":
            if not isinstance(specific, dict) or specific.get("hookEventName") not in names:
                got = specific.get("hookEventName") if isinstance(specific, dict) else None
                problems.append(f"hookSpecificOutput.hookEventName must be {name!r}, not {got!r}")
            elif name not in SPECIFIC_OUTPUT_EVENTS:
                problems.append(f"{name} takes no hookSpecificOutput")
        return problems


# How each CLI of the dialect reads an answer: the record's ``answer_reading`` knob.
def read_as_claude(cli: ClaudeProtocol, event: NormalizedEvent, exit_code: int, stdout: str,
                   stderr: str) -> dict[str, Any]:
    """Claude Code's reading (claude-code-schema.md): exit codes as every CLI reads them;
    at exit 0, an answer that fails
    validation (``answer_problems``: a ``decision`` other than block or approve, a
    hookSpecificOutput naming another event or on an event that has none, text that looks
    like a JSON object but is not one) is a non-blocking error: nothing is read. SessionEnd's
    output is discarded; a PermissionRequest verdict is its ``decision.behavior`` only; top-
    level additionalContext is not Claude's."""
    data, broken = claude_json(stdout) if exit_code == 0 else (None, False)
    if data is None:  # broken: a validation error
        return {} if broken else AgentCLI.read_answer(cli, event, exit_code, stdout, stderr)
    # Valid for one of the event's names (PreToolUse or PreSkillShellCommand, Stop or
    # SubagentStop): which one the running CLI's call stands for is not known here.
    names = [name for name, known in cli.events.items() if known is event] or [""]
    if event is _E.SESSION_END or all(cli.answer_problems(name, data) for name in names):
        return {}
    fields = _fields(event, data, top_context=False)
    specific = data.get("hookSpecificOutput")
    verdict = specific.get("decision") if isinstance(specific, dict) else None
    if event is _E.PERMISSION_REQUEST and not isinstance(verdict, dict):
        fields.pop("decision", None)  # no verdict: Claude shows its own dialog
    return fields


def read_as_droid(cli: ClaudeProtocol, event: NormalizedEvent, exit_code: int, stdout: str,
                  stderr: str) -> dict[str, Any]:
    """Factory Droid's reading (droid.md, 0.225.2): Claude's exit codes; JSON on stdout at
    exit 0 in Claude's words, but only ``permissionDecision`` blocks PreToolUse (a top-level
    decision does not, and elsewhere only ``"block"`` does) and ``ask`` runs the call
    without asking in ``droid exec``."""
    data = json_object(stdout) if exit_code == 0 else None
    if data is None:
        return AgentCLI.read_answer(cli, event, exit_code, stdout, stderr)
    if event is _E.BEFORE_TOOL or data.get("decision") != "block":
        data = {k: v for k, v in data.items() if k != "decision"}
    fields = _fields(event, data, top_context=False)
    if fields.get("decision") == "ask":
        del fields["decision"]
    return fields


def read_as_qwen(cli: ClaudeProtocol, event: NormalizedEvent, exit_code: int, stdout: str,
                 stderr: str) -> dict[str, Any]:
    """Qwen Code's reading (qwen-code.md §1.8, docs/qwen-copilot-notes.md): a JSON object on
    stdout (else stderr) is obeyed at any exit code but 2, so a JSON deny with exit 1
    blocks; exit 2 reads stderr only, and with an empty stderr it is no answer; other
    plain text is no opinion (a warning), but at exit 0 the text (stdout, else stderr) is
    context where Claude's would be. ``continue: false`` blocks the tool, the tool result,
    the prompt or the stop (Stop: another turn), with stopReason as the reason (§2.5)."""
    if exit_code == 2 and not stderr.strip():
        return {}
    text = stderr if exit_code == 2 or not stdout.strip() else stdout
    data = json_object(text)
    if data is not None:
        return _qwen_fields(event, data)
    if exit_code == 2 or (exit_code == 0 and not text.strip().startswith("{")):
        return AgentCLI.read_answer(cli, event, exit_code, text, stderr)
    return {}  # not JSON: ignored (a warning)


def _qwen_fields(event: NormalizedEvent, data: dict[str, Any]) -> dict[str, Any]:
    fields = _fitted(_fields(event, data, top_context=False), event, *_QWEN_READS)
    fields.pop("updated_input", None)  # read in a PermissionRequest verdict only
    specific = data.get("hookSpecificOutput")
    verdict = specific.get("decision") if isinstance(specific, dict) else None
    if event is _E.PERMISSION_REQUEST and isinstance(verdict, dict) \
            and verdict.get("behavior") == "allow" \
            and isinstance(verdict.get("updatedInput"), dict):
        fields["updated_input"] = verdict["updatedInput"]
    if fields.get("continue_loop") is False and event in _QWEN_CONTINUE_BLOCKS:
        del fields["continue_loop"]
        stop = fields.pop("stop_reason", "")
        fields["decision"] = "block"
        fields["reason"] = stop or fields.get("reason", "")
    return fields


def read_as_copilot(cli: ClaudeProtocol, event: NormalizedEvent, exit_code: int, stdout: str,
                    stderr: str) -> dict[str, Any]:
    """Copilot CLI's reading of a PascalCase-dialect hook (copilot-cli.md §4 and §7): on
    PreToolUse any non-zero exit denies (exit 2's stderr is not passed on; other codes are
    "hook errored"); a top-level ``decision`` blocks only as ``"block"`` and not on
    PreToolUse (``"deny"`` is ignored everywhere); a top-level ``permissionDecision``
    counts; ``hookSpecificOutput.additionalContext`` is ignored on UserPromptSubmit and
    PostToolUse (only the top-level one is read)."""
    if exit_code != 0 and event is _E.BEFORE_TOOL:  # stderr is not passed on: Copilot's words
        return {"decision": "deny", "reason": f"hook exited with code {exit_code}"}
    data = json_object(stdout) if exit_code == 0 else None
    if data is None:
        return AgentCLI.read_answer(cli, event, exit_code, stdout, stderr)
    data = dict(data)
    top = data.get("decision")
    if not (isinstance(top, str) and top.lower() == "block" and event is not _E.BEFORE_TOOL):
        data.pop("decision", None)
    specific = data.get("hookSpecificOutput")
    specific = dict(specific) if isinstance(specific, dict) else {}
    for key in ("permissionDecision", "permissionDecisionReason"):
        if key in data and key not in specific:
            specific[key] = data[key]
    if event is not _E.BEFORE_TOOL:
        specific.pop("additionalContext", None)
    elif isinstance(data.get("modifiedArgs"), dict) and "updatedInput" not in specific:
        specific["updatedInput"] = data["modifiedArgs"]  # Copilot's own word for it
    data["hookSpecificOutput"] = specific
    return _fields(event, data, top_context=True)


def claude_json(stdout: str) -> tuple[dict[str, Any] | None, bool]:
    """Claude Code's reading of stdout at exit 0: (its JSON object, else None: plain text or
    nothing; whether the text looks like a JSON object but is not one, which fails
    validation). Several documents are plain text."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None, False
    try:
        data, end = json.JSONDecoder().raw_decode(text)
    except ValueError:
        return None, text.endswith("}")
    return (data if isinstance(data, dict) and not text[end:].strip() else None), False


# Events with a hookSpecificOutput variant (Claude Code 2.1.328, and 2.1.332's
# PreSkillShellCommand): on any other a hookSpecificOutput fails validation.
SPECIFIC_OUTPUT_EVENTS = CONTEXT_EVENTS | {
    "PreModelSwitch", "PermissionDenied", "PermissionRequest", "Elicitation",
    "ElicitationResult", "CwdChanged", "FileChanged", "WorktreeCreate", "MessageDisplay",
    "PreSkillShellCommand"}

# What each reader acts on, by event: (where a block counts, where context is read; None:
# everywhere). Ask counts before a tool only; a new tool input before a tool or on a
# permission request. Claude Code: claude-code-schema.md (2.1.328: a block on PreCompact skips
# the compaction); Qwen Code 0.24.4: qwen-code.md 2.5
# (context on PostToolUse, PostToolUseFailure, PostToolBatch, UserPromptSubmit, SessionStart);
# Copilot CLI 1.0.102: copilot-cli.md 7; Factory Droid 0.225.2: droid.md (a top-level decision
# blocks only Stop; context reaches the model on SessionStart, PostToolUse, UserPromptSubmit).
_READS: dict[Any, tuple[frozenset[NormalizedEvent], frozenset[NormalizedEvent] | None]] = {
    read_as_claude: (frozenset({_E.BEFORE_TOOL, _E.BEFORE_PROMPT, _E.AFTER_TOOL,
                                _E.AFTER_TOOL_FAILURE, _E.AFTER_AGENT, _E.AFTER_TOOL_BATCH,
                                _E.PERMISSION_REQUEST, _E.PRE_COMPACT}), None),
    read_as_copilot: (frozenset({_E.BEFORE_TOOL, _E.BEFORE_PROMPT, _E.AFTER_TOOL,
                                 _E.AFTER_AGENT}), None),
    read_as_droid: (frozenset({_E.BEFORE_TOOL, _E.AFTER_AGENT}),
                    frozenset({_E.SESSION_START, _E.AFTER_TOOL, _E.BEFORE_PROMPT})),
}
_QWEN_READS = (
    frozenset({_E.BEFORE_TOOL, _E.BEFORE_PROMPT, _E.PERMISSION_REQUEST, _E.AFTER_AGENT}),
    frozenset({_E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE, _E.AFTER_TOOL_BATCH, _E.BEFORE_PROMPT,
               _E.SESSION_START}))


def _fields(event: NormalizedEvent, data: dict[str, Any], *, top_context: bool) -> dict[str, Any]:
    """``answer_fields`` in the Claude dialect: a permissionDecision counts before a tool only,
    a verdict (``decision.behavior``) on a permission request only, a top-level decision is
    never an ask, and a top-level additionalContext counts only where the CLI reads one
    (Copilot CLI)."""
    drop = {"permissionDecision", "permissionDecisionReason"} if event is not _E.BEFORE_TOOL \
        else set()
    if event is not _E.PERMISSION_REQUEST:
        drop.add("decision")  # in hookSpecificOutput: PermissionRequest's verdict
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict):
        data = {**data, "hookSpecificOutput": {k: v for k, v in specific.items() if k not in drop}}
    return answer_fields({k: v for k, v in data.items() if k not in drop - {"decision"}
                          and (top_context or k != "additionalContext")
                          and (k != "decision" or v != "ask")})


def _fitted(fields: dict[str, Any], event: NormalizedEvent, blocks: frozenset[NormalizedEvent],
            context: frozenset[NormalizedEvent] | None) -> dict[str, Any]:
    """``fields`` without what the CLI does not act on for ``event``."""
    decision = fields.get("decision")
    if (decision in BLOCKING and event not in blocks) or (decision == "ask"
                                                          and event is not _E.BEFORE_TOOL):
        fields.pop("decision")
        fields.pop("reason", None)
    if context is not None and event not in context:
        fields.pop("context", None)
    if event not in (_E.BEFORE_TOOL, _E.PERMISSION_REQUEST):
        fields.pop("updated_input", None)
    return fields


# Where Qwen Code 0.24.4 reads ``continue: false`` as a block of this call (qwen-code.md §2.5:
# e2e pre-continue-false, post-continue-false, ups-block, stop-block).
_QWEN_CONTINUE_BLOCKS = frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.BEFORE_PROMPT,
                                   _E.PERMISSION_REQUEST, _E.AFTER_AGENT})


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


# Claude Code 2.1.332 on PreSkillShellCommand: allow lets the inline command run; deny, ask
# and defer keep it from running, as does any updatedInput (never applied); additionalContext
# is not read. hookwrap sends an ask or a rewrite as the deny it becomes, and says so.
SKILL_SHELL_ASK_NOTE = ("Claude Code cannot ask about a skill's inline shell command: "
                        "the hook's ask blocks it")
SKILL_SHELL_REWRITE_NOTE = ("Claude Code cannot rewrite a skill's inline shell command: "
                            "the hook's rewrite blocks it; the rewritten input was ")


def _skill_shell(output: OutputView, decision: str) -> dict[str, Any]:
    note = ""
    if decision == "ask":
        note = SKILL_SHELL_ASK_NOTE
    elif output.updated_input is not None and decision not in BLOCKING:
        note = SKILL_SHELL_REWRITE_NOTE + json.dumps(output.updated_input, ensure_ascii=False,
                                                     allow_nan=False)
    if note or decision in BLOCKING:
        verdict, reason = "deny", "\n\n".join(t for t in (output.reason, note) if t)
    elif decision in ALLOWING:
        verdict, reason = "allow", output.reason
    else:
        return {}
    specific = {"permissionDecision": verdict}
    if reason:
        specific["permissionDecisionReason"] = reason
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
