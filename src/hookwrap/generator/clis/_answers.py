"""Answer readers: what a Claude-dialect CLI does with a finished hook run, as `hookwrap test`
reports it (a ``Verdict``).

Each takes what the CLI decides from the runtime's reading of the answer (``runtime_reading``,
the bridge's too) and adds what the host does around it. A CLI's setup is composed with one of
these readers; messages name the CLI by its ``label`` (or ``short_label``), and an ask sent as
a deny is recognised by the record's ``ask_note``, a rewrite sent as a deny by its
``rewrite_note``:

- ``read_claude`` (Claude Code 2.1.328, 2.1.332): exit 2 blocks with stderr where the event can
  block; ``onFailure: "block"`` turns a failure into exit 2; JSON on stdout at exit 0; on
  PreSkillShellCommand (2.1.332) an ask, a defer or any updatedInput blocks too.
- ``read_qwen`` (Qwen Code 0.24.4, hookRunner.ts): a JSON object on stdout (else stderr) is obeyed
  at any exit code; exit 2 reads stderr; context only on some events; updatedInput ignored.
- ``read_copilot`` (Copilot CLI 1.0.102): a non-zero exit denies PreToolUse (stderr dropped); JSON
  in Claude's and Copilot's words, context only at the top level.
- ``read_droid`` (Factory Droid 0.225.2): exit 2 blocks with stderr on PreToolUse and Stop; JSON in
  Claude's words, but a top-level decision does not block PreToolUse and ``ask`` runs the call.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ...clis._base import BLOCKING
from ...clis._claude_protocol import ClaudeProtocol, claude_json
from ...names import NormalizedEvent
from ._base import AgentSetup
from .kit import (
    RunResult,
    Verdict,
    answered,
    failed,
    failure_line,
    hso_of,
    is_block,
    last_line,
    parse_object,
    settle,
    stop_or_block,
    with_missing,
)


# --- claude ---------------------------------------------------------------------------------
def read_claude(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """What Claude Code does with a finished run: the runtime's reading (``runtime_reading``,
    the bridge's too) of the event, or of the event it reads like (``reads_like``), with what
    the host adds: onFailure, its validation, its messages, the turn PostToolBatch stops, the
    dialog PermissionRequest falls back to, a defer, and PreSkillShellCommand."""
    kind = agent.runtime.events.get(agent.facts.reads_like.get(event, event))
    failure = failure_line(r)
    if not failure and r.exit_code not in (0, 2):
        failure = f"exit {r.exit_code}: non-blocking error" + (
            f" ({last_line(r.stderr)})" if r.stderr.strip() else "")
    if failure:
        # onFailure "block" turns a failure into exit 2, except where Claude ignores it.
        if on_failure == "block" and (kind is None or kind in agent.facts.fail_closed_events):
            reason = r.stderr if r.stderr.strip() else f'{failure} (onFailure "block")'
            return replace(_claude_exit2(agent, event, reason), clean=False, problems=(failure,))
        if r.exit_code not in (None, 0) and r.stdout.strip().startswith("{"):
            return replace(failed(failure), notes=(
                f"{agent.label}'s docs say JSON is read only at exit 0; its {agent.version} "
                "binary may still apply it: exit 0 when you print JSON",))
        return failed(failure)
    if r.exit_code == 2:
        return with_missing(_claude_exit2(agent, event, r.stderr), r)
    data, broken = claude_json(r.stdout)
    if broken:
        return Verdict(clean=False, problems=("stdout looks like a JSON object but is not valid JSON",))
    if data is None:
        fields = runtime_reading(agent, event, r.stdout)
        if fields.get("context"):
            return Verdict("context", context=fields["context"])
        if not r.stdout.strip():
            return Verdict()
        if kind is NormalizedEvent.PRE_COMPACT:  # claude-code-schema.md §3 (2.1.328)
            return Verdict(notes=(f"plain stdout on {event} is added to the compaction "
                                  "instructions (the first 10,000 characters)",))
        return Verdict(notes=(f"plain stdout on {event} is not shown to the model",))
    assert isinstance(agent.runtime, ClaudeProtocol)
    problems = agent.runtime.answer_problems(event, data)
    if problems:
        return Verdict(output=data, clean=False, problems=tuple(problems))
    if kind is NormalizedEvent.SESSION_END:
        return Verdict(output=data, notes=("SessionEnd output is discarded",))
    return _claude_json(agent, event, kind, data, runtime_reading(agent, event, r.stdout))


def _claude_exit2(agent: AgentSetup, event: str, stderr: str) -> Verdict:
    """Exit 2: a block where the runtime reads one, in Claude's words ("No stderr output")."""
    kind = agent.runtime.events.get(agent.facts.reads_like.get(event, event))
    if runtime_reading(agent, event, "", 2, stderr).get("decision") in BLOCKING:
        return _claude_block(kind, Verdict(success=False), stderr.strip() or "No stderr output")
    if kind in agent.facts.tool_events:  # PermissionRequest, PermissionDenied
        hint = ": print JSON with a deny decision" if kind is NormalizedEvent.PERMISSION_REQUEST \
            else ""
        return failed(f"exit 2 is ignored on {event}{hint}")
    return Verdict(success=False, notes=(f"exit 2 cannot block {event}: stderr is shown to the user",))


def _claude_block(kind: NormalizedEvent | None, base: Verdict, reason: str) -> Verdict:
    """A block, as Claude acts on it: Stop keeps working, PostToolBatch stops the turn, after a
    tool the tool already ran, PreCompact skips the compaction."""
    if kind is NormalizedEvent.PRE_COMPACT:  # claude-code-schema.md, PreCompact (2.1.328)
        base = replace(base, notes=(*base.notes, "the compaction is skipped; a hook that always "
                                    "blocks it is reported to make Claude Code loop: block "
                                    "only when you must"))
    if kind is NormalizedEvent.AFTER_AGENT:
        return settle(base, "kept_working", reason)
    if kind is NormalizedEvent.AFTER_TOOL_BATCH:
        return settle(replace(base, stop_reason=reason), "stopped", reason)
    if kind in (NormalizedEvent.AFTER_TOOL, NormalizedEvent.AFTER_TOOL_FAILURE):
        base = replace(base, notes=(*base.notes, "the tool already ran; Claude is shown the reason"))
    return settle(base, "blocked", reason)


def _claude_json(agent: AgentSetup, event: str, kind: NormalizedEvent | None,
                 data: dict[str, Any], fields: dict[str, Any]) -> Verdict:
    """A valid JSON answer at exit 0, as the runtime reads it."""
    hso = hso_of(data)
    base = answered(data, fields)
    if "updatedToolOutput" in hso and kind is NormalizedEvent.AFTER_TOOL:
        base = replace(base, modifications={"updatedToolOutput": hso["updatedToolOutput"]})
    decision, reason = fields.get("decision"), fields.get("reason", "")
    if event in agent.runtime.skill_shell_events:
        return _claude_skill_shell(base, hso, decision, reason)
    if decision in BLOCKING:
        return _claude_block(kind, base, reason)
    if decision == "ask":
        return settle(base, "ask", reason)
    if kind is NormalizedEvent.BEFORE_TOOL and hso.get("permissionDecision") == "defer":
        return settle(replace(base, updated_input=None), "deferred", reason)
    if kind is NormalizedEvent.PERMISSION_REQUEST and decision is None \
            and base.stop_reason is None:  # no verdict: Claude shows its own dialog
        return settle(base, "ask")
    return settle(base, None, reason)


def _claude_skill_shell(base: Verdict, hso: dict[str, Any], decision: str | None,
                        reason: str) -> Verdict:
    """Claude Code 2.1.332 before a skill's inline shell command: deny, ask and defer keep it
    from running, and so does any updatedInput (never applied); additionalContext is not read.
    The reasons are Claude's own words."""
    notes = ("additionalContext is not read on PreSkillShellCommand",) \
        if hso.get("additionalContext") else ()
    base = replace(base, context="", updated_input=None, notes=base.notes + notes)
    if decision in BLOCKING:
        return settle(base, "blocked", reason)
    if decision == "ask" or hso.get("permissionDecision") == "defer":
        asked = "the hook asked for approval, which a skill can't wait for"
        return settle(base, "blocked", f"{reason}; {asked}" if reason else asked)
    if hso.get("updatedInput") is not None:
        return settle(base, "blocked", "the hook changed the command, which isn't supported here")
    return settle(base, None, reason)


# --- qwen -----------------------------------------------------------------------------------
def read_qwen(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """Exit 2 reads stderr (text = a deny); any other exit reads stdout, else stderr, and obeys
    a JSON object whatever the exit code; plain text at exit 0 is a systemMessage (context on
    SessionStart/UserPromptSubmit), at other exits a warning."""
    label = agent.label
    failure = failure_line(r)
    if failure:  # timeouts and signals fail open
        return failed(failure)
    if r.exit_code == 2:
        output, parsed = parse_object(r.stderr.strip())
        if not parsed:
            if not r.stderr.strip():
                return failed(f"exit 2 with empty stderr does not block on {label}")
            output = {"decision": "deny", "reason": r.stderr.strip()}
        fields = runtime_reading(agent, event, r.stdout, 2, r.stderr)
        return with_missing(replace(_qwen_json(agent, event, output or {}, fields), success=False), r)
    text = r.stdout.strip() or r.stderr.strip()
    output, parsed = parse_object(text)
    if parsed and output is not None:
        fields = runtime_reading(agent, event, r.stdout, r.exit_code or 0, r.stderr)
        verdict = _qwen_json(agent, event, output, fields)
        if r.exit_code != 0:
            return replace(verdict, success=False, clean=False, problems=(
                f"exit {r.exit_code}: {label} still obeys the JSON it printed",))
        return verdict
    if text.startswith("{"):
        return failed(f"output starts with '{{' but is not JSON: {agent.short_label} ignores it")
    if r.exit_code != 0:
        return failed(_non_blocking(r, label, text))
    context = runtime_reading(agent, event, r.stdout, 0, r.stderr).get("context")
    if context:
        return Verdict("context", context=context)
    return Verdict(system_message=text) if text else Verdict()


def _qwen_json(agent: AgentSetup, event: str, data: dict[str, Any],
               fields: dict[str, Any]) -> Verdict:
    """A JSON answer: what it does is the runtime's reading (``fields``); the notes say what
    Qwen leaves out."""
    label = agent.label
    hso = hso_of(data)
    notes = []
    if hso.get("additionalContext") and not fields.get("context"):
        notes.append(f"{label} drops additionalContext on {event}")
    if "updatedInput" in hso and event != "PermissionRequest":
        notes.append(f"{label} ignores updatedInput: the original call runs")
    if agent.runtime.rewrite_note and agent.runtime.rewrite_note in str(hso.get("permissionDecisionReason") or ""):
        notes.append(f"updated_input cannot be applied on {label}: hookwrap sent a deny that "
                     "gives the model the new input")
    block = is_block(data.get("decision")) or data.get("continue") is False
    if block and event.startswith("PostToolUse") and data.get("continue") is not False:
        notes.append(f"{label} ignores a block on {event}")
    base = answered(data, fields, stop=False, notes=tuple(notes))
    if fields.get("decision") in BLOCKING:
        return settle(base, stop_or_block(event), fields.get("reason", ""))
    return settle(base, "ask" if fields.get("decision") == "ask" else None)


# --- copilot --------------------------------------------------------------------------------
def read_copilot(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """A PreToolUse hook that exits non-zero denies (its stderr dropped); a timeout lets the
    call run; JSON on stdout at exit 0 is read in Claude's and Copilot's words, except that a
    top-level decision does not block PreToolUse."""
    label = agent.label
    failure = failure_line(r)
    if failure:
        return failed(failure)
    if r.exit_code != 0:
        if event == "PreToolUse":
            return replace(failed(f"exit {r.exit_code} denies on {label} and its stderr is not "
                                  "shown to the model"), outcome="blocked",
                           reason=f"hook exited with code {r.exit_code}")
        return failed(f"exit {r.exit_code}: ignored")
    output, parsed = parse_object(r.stdout.strip())
    if not parsed or output is None:
        return Verdict(notes=(f"plain stdout is ignored by {label}",)) if r.stdout.strip() else Verdict()
    fields = runtime_reading(agent, event, r.stdout)
    hso = hso_of(output)
    notes: tuple[str, ...] = ()
    if hso.get("additionalContext") and event != "PreToolUse":
        notes = (f"{label} drops hookSpecificOutput.additionalContext on {event}; "
                 "use top-level additionalContext",)
    base = answered(output, fields, stop=False, notes=notes)
    if event == "PreToolUse":
        decision = output.get("permissionDecision") or hso.get("permissionDecision")
        reason = str(output.get("permissionDecisionReason") or hso.get("permissionDecisionReason") or "")
        if decision == "ask":  # copilot-cli.md: asks interactively; denied in autopilot
            base = replace(base, notes=(*base.notes, f"{label} denies an ask in autopilot (-p)"))
        return _permission_verdict(agent, base, output, decision, reason) or settle(
            base, "ask" if decision == "ask" else None, reason)
    if fields.get("decision") == "block":
        # PostToolUse: the tool has run; the model sees "Tool result blocked: <reason>".
        return settle(base, stop_or_block(event), fields.get("reason", ""))
    return settle(base, None)


# --- droid ----------------------------------------------------------------------------------
def read_droid(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """Exit 2 blocks with stderr (PreToolUse: the model gets ``Error: <stderr>``; Stop: another
    turn); any other non-zero exit goes on (on PreToolUse its stderr is prefixed to the tool
    result); a timeout lets the call run; JSON on stdout at exit 0 is read in Claude's words,
    except that a top-level decision does not block PreToolUse and ``ask`` runs the call."""
    label = agent.label
    failure = failure_line(r)
    if failure:
        return failed(failure)
    if r.exit_code == 2:
        if event in ("PreToolUse", "Stop", "SubagentStop"):
            return with_missing(Verdict(stop_or_block(event), reason=r.stderr.strip(),
                                        success=False), r)
        return with_missing(failed(f"exit 2 on {event}: not a block {agent.short_label} acts on"), r)
    if r.exit_code != 0:
        return failed(_non_blocking(r, label, r.stderr.strip()))
    text = r.stdout.strip()
    output, parsed = parse_object(text)
    if not parsed or output is None:
        context = runtime_reading(agent, event, r.stdout).get("context")
        if context:
            return Verdict("context", context=context)
        return Verdict(notes=(f"plain stdout on {event} is not shown to the model",)) if text else Verdict()
    fields = runtime_reading(agent, event, r.stdout)
    hso = hso_of(output)
    notes: list[str] = []
    if hso.get("additionalContext") and not fields.get("context"):
        notes.append(f"{label} sends additionalContext on {event} to no model request")
    base = answered(output, fields, notes=tuple(notes))
    if event == "PreToolUse":
        reason = str(hso.get("permissionDecisionReason") or "")
        verdict = _permission_verdict(agent, base, output, hso.get("permissionDecision"), reason)
        if verdict is not None:
            return verdict
        if hso.get("permissionDecision") == "ask":
            base = replace(base, notes=(*base.notes, "ask runs the call without asking in droid exec"))
    elif fields.get("decision") == "block":
        return settle(base, "kept_working", fields.get("reason", ""))
    elif is_block(output.get("decision")) and event == "PostToolUse":
        base = replace(base, notes=(*base.notes, f"{label} ignores a block on PostToolUse "
                                    "(the reason reaches no model request)"))
    return settle(base, None)


def _non_blocking(r: RunResult, label: str, text: str) -> str:
    """A non-zero exit but 2, on a CLI where only exit 2 blocks: the last line of ``text``."""
    return f"exit {r.exit_code}: non-blocking on {label} (only exit 2 blocks)" + (
        f" ({last_line(text)})" if text else "")


def runtime_reading(agent: AgentSetup, event: str, stdout: str, code: int = 0,
                    stderr: str = "") -> dict[str, Any]:
    """The runtime's reading of an answer (the bridge's too): its decision, context and new
    tool input. An event the runtime does not map is read as the one it reads like
    (``reads_like``, its hookEventName renamed to match); any other, for its context and
    ``continue: false`` alone."""
    runtime = agent.runtime
    like = agent.facts.reads_like.get(event, event)
    if like != event:
        stdout = _renamed(stdout, event, like)
    if runtime.knows_event(like):
        return runtime.read_answer(runtime.normalize_event(like), code, stdout, stderr)
    fields = runtime.read_answer(NormalizedEvent.NOTIFICATION, code, stdout, stderr)
    return {k: v for k, v in fields.items() if k in ("context", "continue_loop", "stop_reason")}


def _renamed(stdout: str, event: str, like: str) -> str:
    """``stdout`` with a hookSpecificOutput for ``event`` renamed to ``like``."""
    data, _ = claude_json(stdout)
    hso = data.get("hookSpecificOutput") if data is not None else None
    if data is None or not isinstance(hso, dict) or hso.get("hookEventName") != event:
        return stdout
    return json.dumps({**data, "hookSpecificOutput": {**hso, "hookEventName": like}})


def _permission_verdict(agent: AgentSetup, base: Verdict, output: dict[str, Any], decision: Any,
                        reason: str) -> Verdict | None:
    """PreToolUse on a CLI that blocks only by ``permissionDecision`` (Copilot CLI, Factory
    Droid): a deny blocks (an ask hookwrap sent as a deny says so); a top-level decision blocks
    nothing. None for any other answer."""
    if decision == "deny":
        if agent.runtime.ask_note and agent.runtime.ask_note in reason:
            base = replace(base, notes=(*base.notes, f"{agent.short_label} hooks cannot ask: "
                                        "hookwrap sent the ask as a deny"))
        return settle(base, "blocked", reason)
    if is_block(output.get("decision")):
        note = (f"a top-level decision does not block PreToolUse on {agent.label}; "
                "use permissionDecision")
        return settle(replace(base, notes=(*base.notes, note)), None)
    return None
