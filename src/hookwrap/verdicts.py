"""Reading a finished hook run: each real CLI's rules, the seed contract, and aggregation.

``interpret`` reads a result the way Claude Code 2.1.328 or Gemini CLI 0.61.0 does;
``interpret_contract`` reads it by seed 003's runner contract (HOOK-063..070, HOOK-177..181);
``aggregate`` merges several verdicts, any block blocks (HOOK-166, seed 004).
docs/runner-contract.md lists where the two differ.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

CLAUDE, GEMINI = "claude", "gemini"
DEFAULT_BLOCK_REASON = "Blocked by hook"  # HOOK-067b: exit 2 with empty stderr still blocks

@dataclass(frozen=True)
class RunResult:
    """What one hook process did. ``exit_code`` is None when it never exited on its own."""

    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: int
    timed_out: bool = False
    signal: int | None = None
    spawn_error: str = ""

    @property
    def success(self) -> bool:
        """HOOK-070: execution health, true for exit code 0 only (exit 2 is not a success)."""
        return self.exit_code == 0


@dataclass(frozen=True)
class Verdict:
    """What the CLI does with a hook's result.

    ``outcome`` is one of "blocked", "kept_working", "stopped", "deferred", "ask", "context",
    "allowed". ``clean`` is False when the hook did not run as the protocol intends (timeout,
    crash, unparsable output, an exit code the event ignores); ``problems`` says why.
    """

    outcome: str = "allowed"
    reason: str = ""
    context: str = ""
    system_message: str = ""
    stop_reason: str | None = None
    updated_input: dict | None = None
    modifications: dict = field(default_factory=dict)
    output: dict | None = None
    success: bool = True
    clean: bool = True
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


_CLAUDE_BLOCKABLE = {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "PostToolUse",
                     "PostToolUseFailure"}
_CLAUDE_KEEP_WORKING = {"Stop", "SubagentStop", "TeammateIdle", "TaskCompleted"}
_CLAUDE_EXIT2_IGNORED = {"PermissionRequest", "PermissionDenied"}
_CLAUDE_TEXT_IS_CONTEXT = {"SessionStart", "UserPromptSubmit", "UserPromptExpansion"}
_CLAUDE_HSO_EVENTS = {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "SessionStart",
                      "Setup", "PreModelSwitch", "PostModelSwitch", "SubagentStart", "PostToolUse",
                      "PostToolUseFailure", "PostToolBatch", "Stop", "SubagentStop",
                      "PermissionDenied", "Notification", "PermissionRequest", "Elicitation",
                      "ElicitationResult", "CwdChanged", "FileChanged", "WorktreeCreate",
                      "MessageDisplay"}
_PRECEDENCE = ("blocked", "kept_working", "stopped", "deferred", "ask", "context", "allowed")


def interpret(platform: str, raw_event: str, result: RunResult, on_failure: str | None = None) -> Verdict:
    """What the real CLI does with ``result`` for ``raw_event`` (its own event name)."""
    if platform == CLAUDE:
        return _claude(raw_event, result, on_failure)
    return _gemini(raw_event, result)


def _failure(result: RunResult) -> str:
    """One line saying how a run failed, or "" when it exited on its own."""
    if result.spawn_error:
        return f"could not start: {result.spawn_error}"
    if result.timed_out:
        return f"timed out after {result.duration_ms} ms and was killed"
    if result.exit_code is None:
        return f"killed by signal {result.signal}"
    return ""


def _missing(r: RunResult) -> str:
    """A problem line when the command or script looks missing: bash exits 127, python3 exits 2
    ("can't open file"), and an exit 2 would otherwise pass for an intentional block."""
    if r.exit_code in (2, 126, 127) and re.search(
            r"No such file or directory|command not found|can't open file|Permission denied", r.stderr):
        return f"the hook command or script looks missing or not runnable: {_last_line(r.stderr)}"
    return ""


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def _claude(event: str, r: RunResult, on_failure: str | None) -> Verdict:
    # onFailure "block" turns a failure into exit 2, except where Claude ignores it.
    blocks_on_failure = on_failure == "block" and event not in _CLAUDE_KEEP_WORKING
    failure = _failure(r)
    if not failure and r.exit_code not in (0, 2):
        failure = f"exit {r.exit_code}: non-blocking error" + (
            f" ({_last_line(r.stderr)})" if r.stderr.strip() else "")
    if failure:
        if blocks_on_failure:
            return replace(_claude_exit2(event, r.stderr), clean=False, problems=(failure,))
        notes = ()
        if r.exit_code not in (None, 0) and r.stdout.strip().startswith("{"):
            notes = ("Claude Code's docs say JSON is read only at exit 0; its 2.1.328 binary may "
                     "still apply it: exit 0 when you print JSON",)
        return Verdict(success=False, clean=False, problems=(failure,), notes=notes)
    if r.exit_code == 2:
        verdict = _claude_exit2(event, r.stderr)
        missing = _missing(r)
        return replace(verdict, clean=False, problems=(missing,)) if missing else verdict
    kind, data, error = _claude_stdout(r.stdout)
    if error:
        return Verdict(clean=False, problems=(error,))
    if kind == "text":
        if event in _CLAUDE_TEXT_IS_CONTEXT:
            return Verdict("context", context=r.stdout.strip())
        return Verdict(notes=(f"plain stdout on {event} is not shown to the model",))
    return _claude_json(event, data) if kind == "json" else Verdict()


def _claude_exit2(event: str, stderr: str) -> Verdict:
    reason = stderr.strip() or "No stderr output"
    if event in _CLAUDE_BLOCKABLE:
        notes = ("the tool already ran; Claude is shown the reason",) if event.startswith("PostTool") else ()
        return Verdict("blocked", reason=reason, success=False, notes=notes)
    if event in _CLAUDE_KEEP_WORKING:
        return Verdict("kept_working", reason=reason, success=False)
    if event == "PostToolBatch":
        return Verdict("stopped", stop_reason=reason, success=False)
    if event in _CLAUDE_EXIT2_IGNORED:
        return Verdict(success=False, clean=False,
                       problems=(f"exit 2 is ignored on {event}: print JSON with a deny decision",))
    return Verdict(success=False, notes=(f"exit 2 cannot block {event}: stderr is shown to the user",))


def _claude_stdout(stdout: str) -> tuple[str, dict | None, str]:
    """Claude's stdout rules: ("empty"|"text"|"json", object, validation error)."""
    text = stdout.strip()
    if not text:
        return "empty", None, ""
    if not text.startswith("{"):
        return "text", None, ""
    try:
        data, end = json.JSONDecoder().raw_decode(text)
    except ValueError:
        if text.endswith("}"):
            return "text", None, "stdout looks like a JSON object but is not valid JSON"
        return "text", None, ""
    if text[end:].strip() or not isinstance(data, dict):
        return "text", None, ""  # several documents are plain text
    return "json", data, ""


def _claude_problems(event: str, data: dict) -> list[str]:
    problems = []
    if data.get("decision") not in (None, "approve", "block"):
        problems.append(f"decision must be \"approve\" or \"block\", not {data['decision']!r}")
    hso = data.get("hookSpecificOutput")
    if hso is not None and data.get("decision") != "block":
        if not isinstance(hso, dict) or hso.get("hookEventName") != event:
            got = hso.get("hookEventName") if isinstance(hso, dict) else None
            problems.append(f"hookSpecificOutput.hookEventName must be {event!r}, not {got!r}")
        elif event not in _CLAUDE_HSO_EVENTS:
            problems.append(f"{event} takes no hookSpecificOutput")
    return problems


def _claude_json(event: str, data: dict) -> Verdict:
    problems = _claude_problems(event, data)
    if problems:
        return Verdict(output=data, clean=False, problems=tuple(problems))
    hso = data.get("hookSpecificOutput") if isinstance(data.get("hookSpecificOutput"), dict) else {}
    base = Verdict(output=data, system_message=str(data.get("systemMessage") or ""),
                   context=str(hso.get("additionalContext") or ""),
                   stop_reason=str(data.get("stopReason") or "") if data.get("continue") is False else None)
    if event == "SessionEnd":
        return Verdict(output=data, notes=("SessionEnd output is discarded",))
    block = data.get("decision") == "block"
    reason = str(data.get("reason") or "")
    if event == "PreToolUse":
        decision = hso.get("permissionDecision") or ("deny" if block else None)
        reason = str(hso.get("permissionDecisionReason") or reason)
        updated = hso.get("updatedInput") if decision not in ("deny", "defer") else None
        outcome = {"deny": "blocked", "ask": "ask", "defer": "deferred"}.get(decision)
        return _settle(replace(base, updated_input=updated), outcome, reason)
    if event == "PermissionRequest":
        choice = hso.get("decision") if isinstance(hso.get("decision"), dict) else {}
        # No decision object: Claude Code goes on to its own dialog, which asks the user.
        outcome = {"deny": "blocked", "allow": None}.get(choice.get("behavior"), "ask")
        return _settle(replace(base, updated_input=choice.get("updatedInput")),
                       outcome, str(choice.get("message") or ""))
    if event == "PostToolUse" and "updatedToolOutput" in hso:
        base = replace(base, modifications={"updatedToolOutput": hso["updatedToolOutput"]})
    outcome = None
    if block and event in _CLAUDE_BLOCKABLE:
        outcome = "blocked"
    elif block and event in _CLAUDE_KEEP_WORKING:
        outcome = "kept_working"
    elif block and event == "PostToolBatch":
        base, outcome = replace(base, stop_reason=reason), "stopped"
    return _settle(base, outcome, reason)


def _settle(verdict: Verdict, outcome: str | None, reason: str = "") -> Verdict:
    """Pick the outcome: an explicit decision first, then a stop, then context."""
    if outcome is None:
        outcome = "stopped" if verdict.stop_reason is not None else (
            "context" if verdict.context else "allowed")
    return replace(verdict, outcome=outcome, reason=reason if outcome != "allowed" else verdict.reason)


def _gemini(event: str, r: RunResult) -> Verdict:
    failure = _failure(r)
    if failure:  # timeouts, signals and spawn errors fail open, output discarded
        return Verdict(success=False, clean=False, problems=(failure,))
    code = r.exit_code
    text = r.stdout.strip() or r.stderr.strip()  # stderr is read only when stdout is empty
    notes = ("stdout was empty, so Gemini read stderr",) if text and not r.stdout.strip() else ()
    output, parsed = _gemini_parse(text)
    if text and not parsed:
        if code == 0:
            output = {"decision": "allow", "systemMessage": text}
        elif code == 1:
            output = {"decision": "allow", "systemMessage": "Warning: " + text}
        else:
            output = {"decision": "deny", "reason": text}
    verdict = _gemini_apply(event, output or {})
    verdict = replace(verdict, output=output, success=code == 0, notes=notes + verdict.notes)
    if code == 0 or (code == 2 and verdict.outcome == "blocked" and not _missing(r)):
        return verdict
    if _missing(r):
        problem = _missing(r)
    elif code not in (1, 2) and verdict.outcome == "blocked":
        problem = f"exit {code} with output blocks on Gemini (fail-closed): {_last_line(text)}"
    else:
        problem = f"exit {code}: Gemini reports the hook as failed" + (
            "" if text else " and, with no output, lets the action proceed")
    return replace(verdict, clean=False, problems=(problem,))


def _gemini_parse(text: str) -> tuple[dict | None, bool]:
    """Gemini's JSON.parse step: (object or None, whether the text was JSON at all)."""
    if not text:
        return None, False
    try:
        value = json.loads(text)
        if isinstance(value, str):  # double-encoded JSON is accepted
            value = json.loads(value)
    except ValueError:
        return None, False
    return (value if isinstance(value, dict) else None), True


_GEMINI_CONTEXT = {"AfterTool", "BeforeAgent", "SessionStart"}
_GEMINI_NO_FLOW = {"BeforeToolSelection", "SessionStart", "SessionEnd", "PreCompress", "Notification"}
_GEMINI_MODS = {"BeforeModel": ("llm_request", "llm_response"), "AfterModel": ("llm_response",),
                "BeforeToolSelection": ("toolConfig",), "AfterTool": ("tailToolCallRequest",),
                "AfterAgent": ("clearContext",)}


def _gemini_apply(event: str, out: dict, *, real: bool = True) -> Verdict:
    """Read a Gemini-style output object for ``event``: by Gemini 0.61.0 (``real``), or by the
    seed contract, which lets every event try everything and then restricts it."""
    hso = out.get("hookSpecificOutput") if isinstance(out.get("hookSpecificOutput"), dict) else {}
    decision, reason = out.get("decision"), str(out.get("reason") or "")
    notes = [f"Gemini ignores Claude's hookSpecificOutput.{k}" for k in
             ("permissionDecision", "updatedInput") if k in hso and real]
    mod_keys = _GEMINI_MODS.get(event, ()) if real else _MOD_CAPABILITY
    base = Verdict(system_message=str(out.get("systemMessage") or ""),
                   context=str(hso.get("additionalContext") or "")
                   if event in _GEMINI_CONTEXT or not real else "",
                   modifications={k: hso[k] for k in mod_keys if k in hso},
                   updated_input=hso.get("tool_input") if event == "BeforeTool" else None,
                   notes=tuple(notes))
    if real and event in _GEMINI_NO_FLOW:
        return _settle(base, None)
    if out.get("continue") is False:
        base = replace(base, stop_reason=str(out.get("stopReason") or reason or "No reason provided"))
    outcome = None
    if decision in ("deny", "block"):
        outcome = "kept_working" if event == "AfterAgent" else "blocked"
    elif decision == "ask" and event == "BeforeTool":
        outcome = "ask"
    return _settle(base, outcome, reason)


# The seed's decision matrix (HOOK-177..181); events it does not list may decide anything.
CONTRACT_CAPABILITIES: dict[str, frozenset[str]] = {
    "BeforeTool": frozenset({"block", "modify_input", "stop"}),
    "AfterTool": frozenset({"add_context", "suppress_output", "system_message", "stop"}),
    "BeforeModel": frozenset({"block", "synthetic_response", "modify_request", "add_context", "stop"}),
    "AfterModel": frozenset({"modify_response", "replace_response", "suppress_output", "stop"}),
    "BeforeToolSelection": frozenset({"restrict_tools", "change_mode", "stop"}),
}
_MOD_CAPABILITY = {"llm_request": "modify_request", "llm_response": "modify_response",
                   "toolConfig": "restrict_tools", "tailToolCallRequest": "", "clearContext": ""}


def interpret_contract(raw_event: str, r: RunResult) -> Verdict:
    """The seed contract (HOOK-063..070): only exit 0 output is parsed, exit 2 always blocks
    with stderr (or a default reason), any other exit fails open; stderr is kept for
    diagnostics and never parsed for decisions."""
    failure = _failure(r) or (f"exit {r.exit_code}: hook failed, proceeding"
                              if r.exit_code not in (0, 2) else "")
    if failure:
        diag = (f"stderr: {r.stderr.strip()}",) if r.stderr.strip() else ()
        return Verdict(success=False, clean=False, problems=(failure,) + diag)
    if r.exit_code == 2:
        verdict = Verdict("blocked", reason=r.stderr.strip() or DEFAULT_BLOCK_REASON, success=False)
    else:
        output, parsed = _gemini_parse(r.stdout.strip())
        if r.stdout.strip() and not parsed:
            verdict = Verdict(system_message=r.stdout.strip(), output={"decision": "allow"})
        else:
            verdict = replace(_gemini_apply(raw_event, output or {}, real=False), output=output)
    return _restrict(raw_event, verdict)


def _restrict(event: str, v: Verdict) -> Verdict:
    """Drop what the event cannot decide per HOOK-177..181, with a note for each drop."""
    caps = CONTRACT_CAPABILITIES.get(event)
    if caps is None:
        return v
    notes = list(v.notes)
    if v.outcome == "blocked" and "block" not in caps:
        notes.append(f"{event} cannot block; the block is ignored")
        v = replace(v, outcome="allowed", reason="")
    if v.context and "add_context" not in caps:
        notes.append(f"{event} cannot add context")
        v = replace(v, context="", outcome="allowed" if v.outcome == "context" else v.outcome)
    if v.updated_input is not None and "modify_input" not in caps:
        v = replace(v, updated_input=None)
    mods = {k: m for k, m in v.modifications.items() if _MOD_CAPABILITY.get(k, "") in caps
            or (k == "llm_response" and "synthetic_response" in caps)}
    return replace(v, modifications=mods, notes=tuple(notes))


def aggregate(verdicts: Sequence[Verdict]) -> Verdict:
    """One verdict for an event: any block blocks, texts are joined, later inputs win (HOOK-166)."""
    if not verdicts:
        return Verdict()
    outcome = min((v.outcome for v in verdicts), key=_PRECEDENCE.index)
    join = lambda values: "\n".join(x for x in values if x)  # noqa: E731
    stops = [v.stop_reason for v in verdicts if v.stop_reason is not None]
    mods: dict = {}
    for v in verdicts:
        mods.update(v.modifications)
    return Verdict(
        outcome=outcome,
        reason=join(v.reason for v in verdicts if v.outcome == outcome),
        context=join(v.context for v in verdicts),
        system_message=join(v.system_message for v in verdicts),
        stop_reason=join(stops) if stops else None,
        updated_input=next((v.updated_input for v in reversed(verdicts)
                            if v.updated_input is not None), None),
        modifications=mods,
        success=all(v.success for v in verdicts),
        clean=all(v.clean for v in verdicts),
        problems=tuple(p for v in verdicts for p in v.problems),
        notes=tuple(n for v in verdicts for n in v.notes),
    )
