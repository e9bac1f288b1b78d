"""Claude Code: what the hookwrap command needs to know about it (a hook process needs only
``claude.py``, which the class here extends).

The `.claude/settings.json` entries hookwrap writes, their validation (Claude drops every hook of
an event when one entry of it is invalid), the rules `hookwrap test` emulates, and doctor's
checks.
"""

from __future__ import annotations

import re

from ...clis._claude_protocol import ClaudeProtocol
from ...clis.claude import _E, CLAUDE
from ...names import NormalizedEvent
from ._base import AgentSetup
from .kit import (
    ERROR,
    WARNING,
    HookCommand,
    Problem,
    RunResult,
    Verdict,
    boolean,
    check_keys,
    errors_only,
    failure_line,
    is_number,
    js_regex,
    last_line,
    missing_script,
    nonempty_string,
    number_or_none,
    object_,
    one_of,
    positive_number,
    settle,
    string,
    string_list,
    string_map,
    unknown_keys,
    url,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping


_TOOL_EVENTS = frozenset(k for k, v in CLAUDE.match_targets.items() if v == "tool_name")
# An invalid entry here makes Claude Code skip the permissions declared in the same file.
_GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})
# Events run outside the REPL executor, where prompt and agent handlers never run.
_NO_LLM_EVENTS = frozenset(
    {"Notification", "SessionEnd", "PreCompact", "PostCompact", "ConfigChange", "DirectoryAdded",
     "Elicitation", "ElicitationResult", "CwdChanged", "FileChanged", "InstructionsLoaded",
     "WorktreeCreate", "WorktreeRemove"})
_NO_HTTP_EVENTS = frozenset({"SessionStart", "Setup"})
_INTERNAL_KEYS = frozenset({"rewakeMessage", "rewakeSummary", "cloud"})
# Timeouts are seconds; a value this large is almost always milliseconds by mistake.
_SUSPICIOUS_TIMEOUT = 10_000
# A tool matcher matches under the legacy names too (an exact "Task" fires for Agent).
_LEGACY = {"Task": "Agent", "KillShell": "TaskStop", "KillBash": "TaskStop",
           "ListPeers": "ListAgents", "Brief": "SendUserMessage",
           "ListMcpResources": "ListMcpResourcesTool", "ReadMcpResource": "ReadMcpResourceTool",
           "ReadMcpResourceDir": "ReadMcpResourceDirTool", "ProposeGoal": "SetGoal"}
# Patterns as text, compiled (and cached by re) on first use: not on every hook call's import.
_SIMPLE_LIST = r"^[a-zA-Z0-9_|, -]+$"
_SIMPLE_LIST_STRICT = r"^[a-zA-Z0-9_|]+$"  # StopFailure, FileChanged
_SIMPLE_NAME = r"^[A-Za-z0-9_-]+$"
# How the reading rules group events.
_BLOCKABLE = {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "PostToolUse",
              "PostToolUseFailure"}
_KEEP_WORKING = {"Stop", "SubagentStop", "TeammateIdle", "TaskCompleted"}
_EXIT2_IGNORED = {"PermissionRequest", "PermissionDenied"}
_TEXT_IS_CONTEXT = {"SessionStart", "UserPromptSubmit", "UserPromptExpansion"}
_HSO_EVENTS = {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Setup",
               "PreModelSwitch", "PostModelSwitch", "SubagentStart", "PostToolUse",
               "PostToolUseFailure", "PostToolBatch", "Stop", "SubagentStop", "PermissionDenied",
               "Notification", "PermissionRequest", "Elicitation", "ElicitationResult",
               "CwdChanged", "FileChanged", "WorktreeCreate", "MessageDisplay"}


class ClaudeCodeSetup(ClaudeProtocol, AgentSetup):
    """Claude Code's registrations, validation, host rules and doctor checks."""

    # --- generator: registrations (the record holds the settings file, the command form and
    # the tables; here is what Claude Code alone does) --------------------------------------
    def http_handler(self, url: str, *, timeout_s: int, fail_closed: bool,
                     event: NormalizedEvent) -> dict[str, Any] | None:
        if self.event_names().get(event) in _NO_HTTP_EVENTS:
            return None  # skipped there: the hook stays a command
        handler: dict[str, Any] = {"type": "http", "url": url, "timeout": timeout_s}
        # A refused connection, a hang or a non-2xx answer is a failure: "block" fails closed.
        if fail_closed and event is not _E.AFTER_AGENT:
            handler["onFailure"] = "block"
        return handler

    def command_filter(self, patterns: list[str], tool_names: list[str]) -> dict[str, Any]:
        # `if` holds one permission rule: several patterns are left to the runtime filter.
        if len(patterns) != 1 or len(tool_names) != 1:
            return {}
        return {"if": f"{tool_names[0]}({patterns[0]})"}

    def tool_matcher(self, names: list[str]) -> str | None:
        # Plain names joined by | are an exact list; anything else is a regex.
        if all(re.match(_SIMPLE_NAME, n) for n in names):
            return "|".join(names)
        return super().tool_matcher(names)

    # --- generator: validation -------------------------------------------------------------
    def validate_group(self, group: Any, event: str, path: str) -> list[Problem]:

        problems = super().validate_group(group, event, path)
        if isinstance(group, dict) and event in _GUARD_EVENTS and errors_only(problems):
            problems.append(Problem(path, f"an invalid {event} entry makes Claude Code skip the "
                                    "permissions declared in this file"))
        return problems

    def validate_group_keys(self, group: dict[str, Any], event: str, path: str) -> list[Problem]:

        if "matcher" in group and not isinstance(group["matcher"], str):
            return [Problem(f"{path}.matcher", "must be a string (null is not allowed)")]
        if "matcher" in group and event in self.no_matcher_events:
            return [Problem(f"{path}.matcher", f"is ignored on {event}", WARNING)]
        return []

    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        return _validate_handler(handler, event, path)

    def validate_file(self, data: dict[str, Any]) -> list[Problem]:

        problems: list[Problem] = []
        permissions = data.get("permissions")
        if "permissions" in data and not isinstance(permissions, dict):
            problems.append(Problem("permissions", "must be an object; Claude Code rejects the file"))
        elif isinstance(permissions, dict):
            for key in ("allow", "deny", "ask", "additionalDirectories"):
                if key in permissions and string_list(permissions[key]):
                    problems.append(Problem(f"permissions.{key}", "must be a list of strings; "
                                            "Claude Code rejects the file"))
        return problems + super().validate_file(data)

    # --- generator: host rules -------------------------------------------------------------
    def match_target(self, event: str, payload: Mapping[str, Any]) -> str | None:
        import os

        value = super().match_target(event, payload)  # FileChanged is matched by the file's name
        return os.path.basename(value) if value and self.match_targets[event] == "file_path" else value

    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:

        if target is None or matcher is None or matcher in ("", "*"):
            return True
        names = _names(target) if self.is_tool_event(event) else {target}
        simple = _SIMPLE_LIST_STRICT if event in ("StopFailure", "FileChanged") else _SIMPLE_LIST
        if re.match(simple, matcher):
            separators = r"[|,]" if simple is _SIMPLE_LIST else r"\|"
            return bool({p.strip() for p in re.split(separators, matcher)} & names)
        compiled = js_regex(matcher)  # an invalid regex matches nothing
        return compiled is not None and any(compiled.search(n) for n in names)

    def hook_env(self, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        env = super().hook_env(payload, project_dir, env)
        effort = payload.get("effort")
        if isinstance(effort, dict) and effort.get("level"):
            env["CLAUDE_EFFORT"] = str(effort["level"])
        return env

    def effective_timeout(self, cmd: HookCommand) -> float:
        if cmd.event == "SessionEnd":  # a 1.5 s budget, raised by a hook's timeout up to 60 s
            return 1.5 if cmd.timeout_s is None else min(cmd.timeout_s, 60.0)
        if cmd.timeout_s is not None:
            return cmd.timeout_s
        return 30.0 if cmd.event in ("UserPromptSubmit", "PreModelSwitch", "PostModelSwitch") else 600.0

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:

        matcher = group.get("matcher")
        return HookCommand(self.platform.value, event, handler["command"],
                           number_or_none(handler.get("timeout")),
                           matcher if isinstance(matcher, str) else None,
                           handler.get("name") if isinstance(handler.get("name"), str) else None,
                           handler.get("onFailure"))

    def interpret(self, event: str, result: RunResult, on_failure: str | None) -> Verdict:
        return _interpret(event, result, on_failure)


def _handler_types() -> dict[str, tuple[tuple[str, ...], dict[str, Any]]]:

    return {
        "command": (("command",), {
            "command": nonempty_string, "args": string_list, "shell": one_of("bash", "powershell"),
            "onFailure": one_of("continue", "block"), "async": boolean, "asyncRewake": boolean,
            "asyncTimeout": positive_number,
        }),
        "prompt": (("prompt",), {"prompt": nonempty_string, "model": string,
                                 "continueOnBlock": boolean}),
        "agent": (("prompt",), {"prompt": nonempty_string, "model": string}),
        "http": (("url",), {
            "url": url, "headers": string_map, "allowedEnvVars": string_list,
            "onFailure": one_of("continue", "block"),
        }),
        "mcp_tool": (("server", "tool"), {
            "server": nonempty_string, "tool": nonempty_string, "input": object_,
            "onFailure": one_of("continue", "block"),
        }),
    }


def _validate_handler(handler: Any, event: str, path: str) -> list[Problem]:

    if not isinstance(handler, dict):
        return [Problem(path, "must be an object")]
    types = _handler_types()
    kind = handler.get("type")
    if kind not in types:
        return [Problem(f"{path}.type", "must be one of " + ", ".join(map(repr, types)))]
    required, own = types[kind]
    spec = {"if": string, "timeout": positive_number, "statusMessage": string, "once": boolean,
            **own}
    problems = check_keys(handler, spec, required, path, ERROR)
    problems += [Problem(f"{path}.{key}", "is internal to Claude Code; do not set it", WARNING)
                 for key in handler if key in _INTERNAL_KEYS]
    timeout = handler.get("timeout")
    if is_number(timeout) and timeout >= _SUSPICIOUS_TIMEOUT:
        problems.append(Problem(f"{path}.timeout", f"is in seconds; {timeout:g}s looks like "
                                "milliseconds", WARNING))
    problems += unknown_keys(handler, {"type", *spec, *_INTERNAL_KEYS}, path, "Claude Code")
    return problems + _event_fit(handler, event, path)


def _event_fit(handler: dict[str, Any], event: str, path: str) -> list[Problem]:
    # Valid entries that Claude Code loads and then skips when the event fires: this hook never
    # runs, but unlike a schema error it takes no other hook down with it, hence warnings.

    kind = handler.get("type")
    problems = []
    if "if" in handler and event not in _TOOL_EVENTS:
        problems.append(Problem(f"{path}.if", f"is only evaluated on tool events; on {event} "
                                "Claude Code skips this hook", WARNING))
    if kind in ("prompt", "agent") and event in _NO_LLM_EVENTS:
        problems.append(Problem(f"{path}.type", f"{kind} hooks never run on {event}", WARNING))
    if kind == "http" and event in _NO_HTTP_EVENTS:
        problems.append(Problem(f"{path}.type", f"http hooks are skipped on {event}", WARNING))
    return problems


def _names(tool: str) -> set[str]:
    names = {tool}
    names.update(old for old, new in _LEGACY.items() if new == tool)
    if tool in _LEGACY:
        names.add(_LEGACY[tool])
    return names


def _interpret(event: str, r: RunResult, on_failure: str | None) -> Verdict:
    from dataclasses import replace


    # onFailure "block" turns a failure into exit 2, except where Claude ignores it.
    blocks_on_failure = on_failure == "block" and event not in _KEEP_WORKING
    failure = failure_line(r)
    if not failure and r.exit_code not in (0, 2):
        failure = f"exit {r.exit_code}: non-blocking error" + (
            f" ({last_line(r.stderr)})" if r.stderr.strip() else "")
    if failure:
        if blocks_on_failure:  # the reason is the failure itself when the hook said nothing
            reason = r.stderr if r.stderr.strip() else f'{failure} (onFailure "block")'
            return replace(_exit2(event, reason), clean=False, problems=(failure,))
        notes: tuple[str, ...] = ()
        if r.exit_code not in (None, 0) and r.stdout.strip().startswith("{"):
            notes = ("Claude Code's docs say JSON is read only at exit 0; its 2.1.328 binary may "
                     "still apply it: exit 0 when you print JSON",)
        return Verdict(success=False, clean=False, problems=(failure,), notes=notes)
    if r.exit_code == 2:
        verdict = _exit2(event, r.stderr)
        missing = missing_script(r)
        return replace(verdict, clean=False, problems=(missing,)) if missing else verdict
    kind, data, error = _stdout(r.stdout)
    if error:
        return Verdict(clean=False, problems=(error,))
    if kind == "text":
        if event in _TEXT_IS_CONTEXT:
            return Verdict("context", context=r.stdout.strip())
        return Verdict(notes=(f"plain stdout on {event} is not shown to the model",))
    return _json(event, data) if kind == "json" and data is not None else Verdict()


def _exit2(event: str, stderr: str) -> Verdict:

    reason = stderr.strip() or "No stderr output"
    if event in _BLOCKABLE:
        notes = ("the tool already ran; Claude is shown the reason",) if event.startswith("PostTool") else ()
        return Verdict("blocked", reason=reason, success=False, notes=notes)
    if event in _KEEP_WORKING:
        return Verdict("kept_working", reason=reason, success=False)
    if event == "PostToolBatch":
        return Verdict("stopped", stop_reason=reason, success=False)
    if event in _EXIT2_IGNORED:
        return Verdict(success=False, clean=False,
                       problems=(f"exit 2 is ignored on {event}: print JSON with a deny decision",))
    return Verdict(success=False, notes=(f"exit 2 cannot block {event}: stderr is shown to the user",))


def _stdout(stdout: str) -> tuple[str, dict[str, Any] | None, str]:
    """Claude's stdout rules: ("empty"|"text"|"json", object, validation error)."""
    import json

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


def _json_problems(event: str, data: dict[str, Any]) -> list[str]:
    problems = []
    if data.get("decision") not in (None, "approve", "block"):
        problems.append(f"decision must be \"approve\" or \"block\", not {data['decision']!r}")
    hso = data.get("hookSpecificOutput")
    if hso is not None and data.get("decision") != "block":
        if not isinstance(hso, dict) or hso.get("hookEventName") != event:
            got = hso.get("hookEventName") if isinstance(hso, dict) else None
            problems.append(f"hookSpecificOutput.hookEventName must be {event!r}, not {got!r}")
        elif event not in _HSO_EVENTS:
            problems.append(f"{event} takes no hookSpecificOutput")
    return problems


def _json(event: str, data: dict[str, Any]) -> Verdict:
    from dataclasses import replace


    problems = _json_problems(event, data)
    if problems:
        return Verdict(output=data, clean=False, problems=tuple(problems))
    hso = raw if isinstance(raw := data.get("hookSpecificOutput"), dict) else {}
    base = Verdict(output=data, system_message=str(data.get("systemMessage") or ""),
                   context=str(hso.get("additionalContext") or ""),
                   stop_reason=str(data.get("stopReason") or "") if data.get("continue") is False else None)
    if event == "SessionEnd":
        return Verdict(output=data, notes=("SessionEnd output is discarded",))
    block = data.get("decision") == "block"
    reason = str(data.get("reason") or "")
    if event == "PreToolUse":
        decision: Any = hso.get("permissionDecision") or ("deny" if block else None)  # any JSON value
        reason = str(hso.get("permissionDecisionReason") or reason)
        updated = hso.get("updatedInput") if decision not in ("deny", "defer") else None
        outcome = {"deny": "blocked", "ask": "ask", "defer": "deferred"}.get(decision)
        return settle(replace(base, updated_input=updated), outcome, reason)
    if event == "PermissionRequest":
        choice = raw if isinstance(raw := hso.get("decision"), dict) else {}
        # No decision object: Claude Code goes on to its own dialog, which asks the user.
        behavior: Any = choice.get("behavior")  # any JSON value
        outcome = {"deny": "blocked", "allow": None}.get(behavior, "ask")
        return settle(replace(base, updated_input=choice.get("updatedInput")),
                      outcome, str(choice.get("message") or ""))
    if event == "PostToolUse" and "updatedToolOutput" in hso:
        base = replace(base, modifications={"updatedToolOutput": hso["updatedToolOutput"]})
    outcome = None
    if block and event in _BLOCKABLE:
        outcome = "blocked"
    elif block and event in _KEEP_WORKING:
        outcome = "kept_working"
    elif block and event == "PostToolBatch":
        base, outcome = replace(base, stop_reason=reason), "stopped"
    return settle(base, outcome, reason)


CLI = ClaudeCodeSetup(CLAUDE)
