"""Factory Droid: what the hookwrap command needs to know about it (a hook process needs only
``droid.py``, which the class here extends).

``.factory/settings.json`` (plain JSON; Droid does not rewrite it, and hookwrap keeps
every key and hook of the user's), validation, the rules `hookwrap test` emulates, doctor.
"""

from __future__ import annotations

from ...clis._base import BLOCKING
from ...clis._claude_protocol import ClaudeProtocol
from ...clis.droid import DROID
from ._base import FindsProjectRoot
from .kit import (
    ERROR,
    OK,
    WARN,
    WARNING,
    Finding,
    HookCommand,
    Problem,
    RunResult,
    Scope,
    Verdict,
    check_keys,
    failure_line,
    js_regex,
    last_line,
    missing_script,
    nonempty_string,
    number_or_none,
    one_of,
    parse_object,
    positive_number,
    settle,
    unknown_keys,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Mapping


_TOOL_EVENTS = frozenset(k for k, v in DROID.match_targets.items() if v == "tool_name")
_CLAUDE_TOOLS = ("Bash", "Write", "MultiEdit", "WebFetch", "WebSearch", "NotebookEdit", "TodoWrite")
_SUSPICIOUS_TIMEOUT = 1000  # seconds; almost surely meant as milliseconds
_TEXT_IS_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit"})
_CONTEXT_READ = frozenset({"SessionStart", "PostToolUse", "UserPromptSubmit"})


class FactoryDroidSetup(ClaudeProtocol, FindsProjectRoot):
    """Factory Droid's validation, host rules and doctor checks (its record holds the settings
    file and the tables; the command walks up to hookwrap.toml, as on Codex CLI)."""

    # --- generator: validation -------------------------------------------------------------
    def validate_group_keys(self, group: dict[str, Any], event: str, path: str) -> list[Problem]:

        if "matcher" in group and not isinstance(group["matcher"], str):
            return [Problem(f"{path}.matcher", "must be a string")]
        if group.get("matcher") and event in self.no_matcher_events:
            return [Problem(f"{path}.matcher", f"is ignored on {event}", WARNING)]
        return []

    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        return _validate_handler(handler, path)

    # --- generator: host rules -------------------------------------------------------------
    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:
        """A case-sensitive regex searched in the name (``Exec`` matches ``Execute``)."""

        if event in self.no_matcher_events or target is None or matcher is None:
            return True
        if matcher.strip() in ("", "*"):
            return True
        compiled = js_regex(matcher)  # an invalid regex matches nothing
        return compiled is not None and compiled.search(target) is not None

    def hook_env(self, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        # Droid also copies the payload's top-level strings into the environment.
        env.update({k: v for k, v in payload.items() if isinstance(v, str) and k.isidentifier()})
        return super().hook_env(payload, project_dir, env)

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:

        matcher = group.get("matcher")
        return HookCommand(self.platform.value, event, str(handler.get("command", "")),
                           number_or_none(handler.get("timeout")),
                           matcher if isinstance(matcher, str) else None, None, None)

    def interpret(self, event: str, result: RunResult, on_failure: str | None) -> Verdict:
        return _interpret(event, result)

    # --- generator: doctor -----------------------------------------------------------------
    def trust_findings(self, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:

        if not any(s.project and s.data and s.data.get("hooks") for s in scopes):
            return [Finding("droid-trust", OK, "no Factory Droid project hooks to check")]
        # Nothing to record or fix, so ok; but said, since it is the opposite of Codex or Qwen.
        return [Finding("droid-trust", OK, f"Factory Droid runs the hooks in {self.settings_file} "
                        "with no trust prompt at all (nothing to trust): whoever can change this "
                        "repo's hooks runs commands wherever droid starts here")]

    def command_findings(self, scope: Scope, cmd: HookCommand) -> list[Finding]:
        import re


        where = f"{scope.label}: {cmd.event} {cmd.command!r}"
        out = []
        if re.search(r"\$\{?(FACTORY|DROID|CLAUDE)_PROJECT_DIR", cmd.command):
            out.append(Finding("commands", WARN, f"{where}: Droid sets $FACTORY_PROJECT_DIR to the "
                               "session's cwd, so the command breaks when droid starts in a "
                               "subfolder", "find the project from $PWD upwards (hookwrap's "
                               "registrations do)"))
        matcher = cmd.matcher or ""
        if cmd.event in _TOOL_EVENTS and any(re.search(rf"\b{n}\b", matcher) for n in _CLAUDE_TOOLS):
            out.append(Finding("commands", WARN, f"{where}: matcher {matcher!r} names Claude Code "
                               "tools, which Droid never calls", "use Droid's names, e.g. "
                               "^(Execute|Create)$"))
        if cmd.timeout_s is not None and cmd.timeout_s >= _SUSPICIOUS_TIMEOUT:
            out.append(Finding("commands", WARN, f"{where}: timeout {cmd.timeout_s:g} is seconds "
                               "on Factory Droid and looks like milliseconds",
                               f"use {max(cmd.timeout_s / 1000, 1):g}"))
        return out


def _validate_handler(handler: Any, path: str) -> list[Problem]:

    if not isinstance(handler, dict):
        return [Problem(path, "must be an object")]
    spec = {"type": one_of("command"), "command": nonempty_string, "timeout": positive_number}
    problems = check_keys(handler, spec, ("type", "command"), path, ERROR)
    return problems + unknown_keys(handler, frozenset(spec), path, "Factory Droid")


def _interpret(event: str, r: RunResult) -> Verdict:
    """Droid 0.225.2: exit 2 blocks with stderr (PreToolUse: the model gets ``Error: <stderr>``;
    Stop: another turn); any other non-zero exit goes on (on PreToolUse its stderr is prefixed to
    the tool result); a timeout lets the call run; JSON on stdout at exit 0 is read in Claude's
    words, except that a top-level decision does not block PreToolUse and ``ask`` runs the call."""
    from dataclasses import replace


    failure = failure_line(r)
    if failure:
        return Verdict(success=False, clean=False, problems=(failure,))
    if r.exit_code == 2:
        reason = r.stderr.strip()
        missing = missing_script(r)
        problems = (missing,) if missing else ()
        if event == "PreToolUse":
            return Verdict("blocked", reason=reason, success=False, clean=not problems,
                           problems=problems)
        if event in ("Stop", "SubagentStop"):
            return Verdict("kept_working", reason=reason, success=False, clean=not problems,
                           problems=problems)
        return Verdict(success=False, clean=False, problems=problems or (
            f"exit 2 on {event}: not a block Droid acts on",))
    if r.exit_code != 0:
        note = f" ({last_line(r.stderr)})" if r.stderr.strip() else ""
        return Verdict(success=False, clean=False, problems=(
            f"exit {r.exit_code}: non-blocking on Factory Droid (only exit 2 blocks){note}",))
    text = r.stdout.strip()
    output, parsed = parse_object(text)
    if not parsed or output is None:
        if text and event in _TEXT_IS_CONTEXT:
            return Verdict("context", context=text)
        return Verdict(notes=(f"plain stdout on {event} is not shown to the model",)) if text else Verdict()
    found = output.get("hookSpecificOutput")
    hso: dict[str, Any] = found if isinstance(found, dict) else {}
    context = str(hso.get("additionalContext") or "") if event in _CONTEXT_READ else ""
    notes: list[str] = []
    if hso.get("additionalContext") and not context:
        notes.append(f"Factory Droid sends additionalContext on {event} to no model request")
    base = Verdict(output=output, context=context, notes=tuple(notes),
                   system_message=str(output.get("systemMessage") or ""),
                   stop_reason=str(output.get("stopReason") or "") if output.get("continue") is False else None)
    reason = str(output.get("reason") or "")
    if event == "PreToolUse":
        decision = hso.get("permissionDecision")
        reason = str(hso.get("permissionDecisionReason") or "")
        if decision == "deny":
            if DROID.ask_note in reason:
                base = replace(base, notes=(*base.notes, "Droid hooks cannot ask: hookwrap sent "
                                            "the ask as a deny"))
            return settle(base, "blocked", reason)
        if output.get("decision") in BLOCKING:
            note = "a top-level decision does not block PreToolUse on Factory Droid; use permissionDecision"
            return settle(replace(base, notes=(*base.notes, note)), None)
        if decision == "ask":
            base = replace(base, notes=(*base.notes, "ask runs the call without asking in droid exec"))
        return settle(replace(base, updated_input=hso.get("updatedInput")), None)
    if output.get("decision") == "block" and event in ("Stop", "SubagentStop"):
        return settle(base, "kept_working", reason)
    if output.get("decision") in BLOCKING and event == "PostToolUse":
        base = replace(base, notes=(*base.notes, "Factory Droid ignores a block on PostToolUse "
                                    "(the reason reaches no model request)"))
    return settle(base, None)


CLI = FactoryDroidSetup(DROID)
