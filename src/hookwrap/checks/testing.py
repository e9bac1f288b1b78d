"""Emulating a whole CLI event, for tests of hooks: selection, running, the seed contract.

``hookwrap test`` runs one hook's commands (``hooktest.py``); this module goes further, for
test suites (hookwrap's own, and yours): ``fire`` selects every command that fires for an
event by the CLI's matcher and de-duplication rules, runs them in parallel or in sequence, and
merges their verdicts, any block blocks (seed 003/004: HOOK-162..166). ``interpret_contract``
reads a run by the seed's runner contract instead of a real CLI's rules (HOOK-063..070,
HOOK-177..181). docs/runner-contract.md lists where the two differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ..generator.clis import setup_of
from ..generator.clis.kit import HookCommand, RunResult, Verdict, failure_line, parse_object, settle
from ..names import Platform
from .host import run_command

DEFAULT_BLOCK_REASON = "Blocked by hook"  # HOOK-067b: exit 2 with empty stderr still blocks
_PRECEDENCE = ("blocked", "kept_working", "stopped", "deferred", "ask", "context", "allowed")

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
    failure = failure_line(r) or (f"exit {r.exit_code}: hook failed, proceeding"
                                  if r.exit_code not in (0, 2) else "")
    if failure:
        diag = (f"stderr: {r.stderr.strip()}",) if r.stderr.strip() else ()
        return Verdict(success=False, clean=False, problems=(failure, *diag))
    if r.exit_code == 2:
        verdict = Verdict("blocked", reason=r.stderr.strip() or DEFAULT_BLOCK_REASON, success=False)
    else:
        output, parsed = parse_object(r.stdout.strip())
        if r.stdout.strip() and not parsed:
            verdict = Verdict(system_message=r.stdout.strip(), output={"decision": "allow"})
        else:
            verdict = replace(_contract_output(raw_event, output or {}), output=output)
    return _restrict(raw_event, verdict)


def _contract_output(event: str, out: dict) -> Verdict:
    """An output object by the contract: its fields are Gemini's, offered to every event."""
    found = out.get("hookSpecificOutput")
    hso = found if isinstance(found, dict) else {}
    decision, reason = out.get("decision"), str(out.get("reason") or "")
    base = Verdict(system_message=str(out.get("systemMessage") or ""),
                   context=str(hso.get("additionalContext") or ""),
                   modifications={k: hso[k] for k in _MOD_CAPABILITY if k in hso},
                   updated_input=hso.get("tool_input") if event == "BeforeTool" else None)
    if out.get("continue") is False:
        base = replace(base, stop_reason=str(out.get("stopReason") or reason or "No reason provided"))
    outcome = None
    if decision in ("deny", "block"):
        outcome = "kept_working" if event == "AfterAgent" else "blocked"
    elif decision == "ask" and event == "BeforeTool":
        outcome = "ask"
    return settle(base, outcome, reason)


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
    stops = [v.stop_reason for v in verdicts if v.stop_reason is not None]
    mods: dict = {}
    for v in verdicts:
        mods.update(v.modifications)
    return Verdict(
        outcome=outcome,
        reason=_join(v.reason for v in verdicts if v.outcome == outcome),
        context=_join(v.context for v in verdicts),
        system_message=_join(v.system_message for v in verdicts),
        stop_reason=_join(stops) if stops else None,
        updated_input=next((v.updated_input for v in reversed(verdicts)
                            if v.updated_input is not None), None),
        modifications=mods,
        success=all(v.success for v in verdicts),
        clean=all(v.clean for v in verdicts),
        problems=tuple(p for v in verdicts for p in v.problems),
        notes=tuple(n for v in verdicts for n in v.notes),
    )


def _join(values) -> str:
    return "\n".join(x for x in values if x)


@dataclass(frozen=True)
class ExecutionPlan:
    """The commands that fire for one event, and whether they run one after another."""

    commands: tuple[HookCommand, ...]
    sequential: bool = False


def plan(platform: Platform | str, event: str, commands: Sequence[HookCommand],
         payload: Mapping) -> ExecutionPlan:
    """Select, de-duplicate and order the commands that fire for ``event`` (HOOK-162..165).

    Claude runs every matching handler in parallel, identical commands once. Gemini keys
    duplicates on ``name:command`` and runs all of them sequentially when any matching group
    says ``sequential``.
    """
    agent = setup_of(platform)
    target = agent.matchers.match_target(agent, event, payload)
    chosen: dict[str, HookCommand] = {}
    for cmd in commands:
        if cmd.platform == agent.platform and cmd.event == event and \
                agent.matchers.matcher_matches(agent, event, cmd.matcher, target):
            chosen.setdefault(agent.handlers.dedup_key(agent, cmd), cmd)
    selected = tuple(chosen.values())
    return ExecutionPlan(selected, agent.handlers.runs_sequentially(agent, selected))


@dataclass(frozen=True)
class HookRun:
    """One command of an event: what it was given, what it did, what the CLI makes of it."""

    command: HookCommand
    payload: dict
    result: RunResult
    verdict: Verdict


@dataclass(frozen=True)
class EventResult:
    """Everything that happened when an event fired."""

    plan: ExecutionPlan
    runs: tuple[HookRun, ...]
    verdict: Verdict


def _judge(cmd: HookCommand, result: RunResult, contract: bool) -> Verdict:
    if contract:
        return interpret_contract(cmd.event, result)
    return setup_of(cmd.platform).interpret(cmd.event, result, cmd.on_failure)


def _chain(event: str, payload: dict, verdict: Verdict) -> dict:
    """Gemini's sequential mode hands each hook's changes to the next one."""
    if event == "BeforeTool" and verdict.updated_input:
        return {**payload, "tool_input": {**payload.get("tool_input", {}), **verdict.updated_input}}
    if event == "BeforeAgent" and verdict.context:
        return {**payload, "prompt": f"{payload.get('prompt', '')}\n\n{verdict.context}"}
    if event == "BeforeModel" and isinstance(verdict.modifications.get("llm_request"), dict):
        request = {**payload.get("llm_request", {}), **verdict.modifications["llm_request"]}
        return {**payload, "llm_request": request}
    return payload


def execute(execution: ExecutionPlan, payload: dict, *, project_dir: str | Path,
            env: Mapping[str, str] | None = None, contract: bool = False) -> tuple[HookRun, ...]:
    """Run a plan's commands, one after another or all at once (HOOK-164/165)."""
    def one(cmd: HookCommand, given: dict) -> HookRun:
        result = run_command(cmd, given, project_dir=project_dir, env=env)
        return HookRun(cmd, given, result, _judge(cmd, result, contract))

    if execution.sequential:
        runs = []
        for cmd in execution.commands:
            runs.append(one(cmd, payload))
            payload = _chain(cmd.event, payload, runs[-1].verdict)
        return tuple(runs)
    if not execution.commands:
        return ()
    with ThreadPoolExecutor(max_workers=len(execution.commands)) as pool:
        return tuple(pool.map(lambda c: one(c, payload), execution.commands))


def fire(platform: Platform | str, event: str, commands: Sequence[HookCommand], payload: dict, *,
         project_dir: str | Path, env: Mapping[str, str] | None = None,
         contract: bool = False) -> EventResult:
    """Plan, run and aggregate one event, as the CLI would (``contract``: by the seed's rules)."""
    execution = plan(platform, event, commands, payload)
    runs = execute(execution, payload, project_dir=project_dir, env=env, contract=contract)
    return EventResult(execution, runs, aggregate([run.verdict for run in runs]))
