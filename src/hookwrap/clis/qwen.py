"""Qwen Code: everything hookwrap knows about it, checked against Qwen Code 0.24.4.

Qwen Code speaks Claude Code's hook protocol (event names, payload fields, output JSON, exit 2
blocks), so this module subclasses ClaudeCode and overrides what differs: Qwen's own tool names
(``run_shell_command``, ``write_file``, ``edit``); ``$QWEN_PROJECT_DIR`` (``QWEN_CODE_PROJECT_DIR``
is Qwen's state folder, not the project); timeouts in seconds, except that a value of 1000 or
more is read as milliseconds; and the answers Qwen ignores (``updatedInput``, PreToolUse context,
a PostToolUse block), each mapped to what Qwen does read. ``UserPromptSubmit`` fires before every
model request, with an empty prompt after each tool result: the runtime answers those without
calling a before_prompt hook. Generator: `.qwen/settings.json` (JSON with comments; Qwen itself
rewrites the file, adding ``"$version"``, and hookwrap keeps every key it finds), validation, the
rules `hookwrap test` emulates, doctor's checks and folder trust (off unless the user turns it on).
"""

from __future__ import annotations

import re

from ..platforms import NormalizedEvent, Platform
from ._base import BLOCKING, AgentCLI, answer_fields, hook_call, json_object
from .claude import ClaudeCode

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Mapping

    from ..doctor import Finding, Scope
    from ..hookinput import HookInput
    from ..hookoutput import HookOutput
    from ..host import HookCommand
    from ..schema import Problem
    from ..trust import TrustEdit
    from ..verdicts import RunResult, Verdict

_E = NormalizedEvent

# --- runtime facts (Qwen Code 0.24.4) --------------------------------------------------------

# Qwen cannot apply a rewritten tool input (updatedInput is read on PermissionRequest only), so
# a rewrite is never let through as the original call: the call is blocked and the model told.
REWRITE_NOTE = ("Qwen Code cannot apply a hook's rewrite of a tool call, so this call was "
                "blocked; call the tool again with this input instead: ")

# --- generator facts (Qwen Code 0.24.4) ------------------------------------------------------

SETTINGS_EVENTS: tuple[str, ...] = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay",
    "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "SessionDelete",
    "PermissionRequest", "PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted",
    "InstructionsLoaded",
)
# A timeout of this many or more is read as milliseconds (legacy Gemini values).
MS_FROM = 1000
_TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
                          "PermissionDenied"})
_NO_MATCHER = frozenset({"UserPromptSubmit", "Stop", "MessageDisplay", "PostToolBatch",
                         "SessionDelete", "TodoCreated", "TodoCompleted"})
_TARGET = {
    **dict.fromkeys(_TOOL_EVENTS, "tool_name"),
    "SubagentStart": "agent_type", "SubagentStop": "agent_type", "PreCompact": "trigger",
    "PostCompact": "trigger", "SessionStart": "source", "SessionEnd": "reason",
    "StopFailure": "error", "Notification": "notification_type", "InstructionsLoaded": "file_path",
    "UserPromptExpansion": "command_name",
}
# Exact-match aliases of a tool name in a matcher (tool-names.ts TOOL_NAME_ALIASES).
_ALIASES = {
    "run_shell_command": ("Bash", "Shell", "ShellTool"),
    "write_file": ("Write", "WriteFile"),
    "edit": ("Edit", "replace"),
    "read_file": ("Read", "ReadFile"),
    "grep_search": ("Grep", "search_file_content", "SearchFiles"),
    "glob": ("Glob", "FindFiles"),
    "list_directory": ("ListFiles", "ReadFolder"),
    "agent": ("Agent", "Task", "task"),
    "web_fetch": ("WebFetch",),
}
_BLOCKABLE = frozenset({"PreToolUse", "UserPromptSubmit", "UserPromptExpansion",
                        "PermissionRequest"})
_KEEP_WORKING = frozenset({"Stop", "SubagentStop"})
_TEXT_IS_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit", "UserPromptExpansion"})
_CONTEXT_READ = frozenset({"PostToolUse", "PostToolUseFailure", "PostToolBatch",
                           "UserPromptSubmit", "SessionStart"})


class QwenCode(ClaudeCode):
    """Qwen Code 0.24.4: Claude Code's protocol with Qwen's tool names."""

    platform = Platform.QWEN
    label = "Qwen Code"
    version = "0.24.4"
    events = dict(ClaudeCode.events)  # the same names, read the same way
    preferred_events = {_E.AFTER_AGENT: "Stop"}
    tools = {
        "run_shell_command": "shell",
        "write_file": "write_file",
        "edit": "edit_file",
        "replace": "edit_file",  # the legacy name, still an alias
        "read_file": "read_file",
        "grep_search": "grep",
        "glob": "glob",
        "list_directory": "list_directory",
        "web_fetch": "web_fetch",
        "web_search": "web_search",
        "agent": "task",
        "todo_write": "write_todos",
        "save_memory": "save_memory",
        "skill": "skill",
        "notebook_edit": "notebook_edit",
    }
    preferred_tools = {"edit_file": "edit"}
    # QWEN_CODE_PROJECT_DIR is Qwen's per-project state folder, not the project.
    project_dir_vars = ("QWEN_PROJECT_DIR",)
    marker_env = ""  # Qwen also sets GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR: no unique one

    # --- runtime: payloads -----------------------------------------------------------------
    def answers_without_hook(self, hook_input: HookInput) -> bool:
        """UserPromptSubmit also fires before each model request that follows a tool result,
        with ``"prompt": ""``: that is no prompt, so a before_prompt hook is not called."""
        prompt = hook_input.get("prompt")
        return hook_input.event is _E.BEFORE_PROMPT and isinstance(prompt, str) and not prompt.strip()

    # --- runtime: answers ------------------------------------------------------------------
    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Qwen Code's reading (qwen-code.md §1.8, docs/qwen-copilot-notes.md): a JSON object on
        stdout (else stderr) is obeyed at any exit code but 2, so a JSON deny with exit 1
        blocks; exit 2 reads stderr only, and with an empty stderr it is no answer; other
        plain text is no opinion (a warning)."""
        if exit_code == 2:
            if not stderr.strip():
                return {}
            data = json_object(stderr)
            return answer_fields(data) if data is not None else super().read_answer(
                event, exit_code, stdout, stderr)
        data = json_object(stdout) if stdout.strip() else json_object(stderr)
        if data is not None:
            return answer_fields(data)
        return super().read_answer(event, exit_code, stdout, stderr) if exit_code == 0 else {}

    def context_in_system_message(self, event: NormalizedEvent) -> bool:
        return False  # Qwen shows no systemMessage in -p and never sends it to the model

    def specific_output(self, output: HookOutput, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        specific = super().specific_output(output, event, name, decision)
        if name == "PreToolUse":
            specific.pop("additionalContext", None)  # computed by Qwen, never sent anywhere
            specific.pop("updatedInput", None)
            if output.updated_input is not None and decision not in BLOCKING:
                import json

                specific["permissionDecision"] = "deny"
                specific["permissionDecisionReason"] = (
                    (output.reason + "\n\n" if output.reason else "") + REWRITE_NOTE
                    + json.dumps(output.updated_input, ensure_ascii=False, allow_nan=False))
        elif name in ("PostToolUse", "PostToolUseFailure") and decision in BLOCKING:
            # Qwen ignores a PostToolUse block; its context is appended to the tool result.
            text = "\n\n".join(t for t in (output.reason, output.context) if t)
            if text:
                specific["additionalContext"] = text
        return specific

    def finish_output(self, result: dict[str, Any], output: HookOutput, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        if event is _E.AFTER_AGENT and not output.continue_loop:
            # On Stop, Qwen reads continue:false as "keep working" (Claude: stop). The agent
            # stops anyway when no hook blocks, so hookwrap's stop is sent as no block at all.
            raw = output.raw_output if isinstance(output.raw_output, dict) else {}
            for key in ("continue", "stopReason", *(("decision",) if output.decision else ())):
                result.pop(key, None)
                if key in raw:  # raw_output still fills the gap it leaves
                    result[key] = raw[key]
        return result

    def output_limits(self, event: NormalizedEvent) -> list[str]:
        if event is _E.BEFORE_TOOL:
            return ["cannot apply updated_input: a rewrite is sent as a deny whose reason gives the "
                    "model the new input; context on before_tool is dropped"]
        if event in (_E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE):
            return ["ignores a block after a tool: its reason is appended to the tool result "
                    "as context instead"]
        if event is _E.AFTER_AGENT:
            return ["reads continue:false on Stop as 'keep working': continue_loop=False is sent "
                    "as no block (the agent stops)"]
        return []

    # --- generator: settings and registrations ---------------------------------------------
    settings_file = ".qwen/settings.json"
    settings_comments = True  # Qwen strips comments when it reads the file
    known_settings_events = SETTINGS_EVENTS  # type: ignore[assignment]  # Claude's is a fixed tuple
    invalid_entry_drops_event = False  # an invalid entry is dropped alone (debug log only)
    tool_events = frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE,
                             _E.PERMISSION_REQUEST, _E.PERMISSION_DENIED})
    lifecycle_values = {
        _E.SESSION_START: ("startup", "resume", "clear", "compact"),
        _E.SESSION_END: ("clear", "resume", "logout", "prompt_input_exit", "other"),
        _E.PRE_COMPACT: ("manual", "auto"),
        _E.POST_COMPACT: ("manual", "auto"),
    }
    empty_tool_response = {"llmContent": "", "returnDisplay": ""}
    payload_has_timestamp = True

    def command(self, name: str, python: str, *, launcher: bool = True) -> str:
        # Bash expands the variable (Qwen substitutes none on bash), so one quoted word works
        # for a path with a space.
        script, args = hook_call(name, launcher)
        return f'{python} "$QWEN_PROJECT_DIR/{script}" {args}--platform qwen'

    def handler(self, command: str, *, name: str, timeout_s: int, fail_closed: bool,
                event: NormalizedEvent, description: str) -> dict[str, Any]:
        return {"type": "command", "command": command, "name": name,
                "timeout": qwen_timeout(timeout_s), "description": description}

    tool_matcher = AgentCLI.tool_matcher  # anchored: ^(run_shell_command|write_file)$

    # --- generator: validation -------------------------------------------------------------
    def validate_group(self, group: Any, event: str, path: str) -> list[Problem]:
        from ..schema import WARNING, Problem, unknown_keys

        if not isinstance(group, dict):
            return [Problem(path, "must be an object with a \"hooks\" list")]
        problems = []
        if "matcher" in group and not isinstance(group["matcher"], str):
            problems.append(Problem(f"{path}.matcher", "must be a string"))
        elif "matcher" in group and event in _NO_MATCHER:
            problems.append(Problem(f"{path}.matcher", f"is ignored on {event}", WARNING))
        if "sequential" in group and not isinstance(group["sequential"], bool):
            problems.append(Problem(f"{path}.sequential", "must be true or false"))
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            problems.append(Problem(f"{path}.hooks", "must be a list; Qwen Code drops this "
                                    "definition"))
        else:
            for index, handler in enumerate(handlers):
                problems += _validate_handler(handler, f"{path}.hooks[{index}]")
        return problems + unknown_keys(group, {"matcher", "sequential", "hooks"}, path, self.label)

    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        return _validate_handler(handler, path)

    def validate_event(self, event: str, groups: Any, path: str) -> list[Problem] | None:
        from ..schema import WARNING, Problem

        if event not in SETTINGS_EVENTS:
            return [Problem(path, "unknown hook event; Qwen Code skips it", WARNING)]
        return None

    def validate_file(self, data: dict[str, Any]) -> list[Problem]:
        from ..schema import WARNING, Problem

        if data.get("disableAllHooks") is True:
            return [Problem("disableAllHooks", "is true: no hook runs", WARNING)]
        return []

    # --- generator: host rules -------------------------------------------------------------
    def match_target(self, event: str, payload: Mapping[str, Any]) -> str | None:
        key = _TARGET.get(event)
        return None if key is None else str(payload.get(key, ""))

    def is_tool_event(self, event: str) -> bool:
        return event in _TOOL_EVENTS

    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:
        """hook-matcher.ts: exact name or alias, a split ``|`` list, else an unanchored regex."""
        from ..host import js_regex

        if event in _NO_MATCHER or target is None or matcher is None:
            return True
        matcher = matcher.strip()
        if matcher in ("", "*", ".*"):
            return True
        names = {target, *_ALIASES.get(target, ())} if event in _TOOL_EVENTS else {target}
        if matcher in names:
            return True
        split = "|" in matcher and not matcher.startswith(("^", "("))
        if split and {part.strip() for part in matcher.split("|")} & names:
            return True
        compiled = js_regex(matcher)  # an invalid regex matches nothing
        return compiled is not None and compiled.search(target) is not None

    def runs_sequentially(self, commands: tuple[HookCommand, ...]) -> bool:
        return any(c.sequential for c in commands)

    def dedup_key(self, cmd: HookCommand) -> str:
        return f"{cmd.name}:{cmd.command}" if cmd.name else cmd.command

    def hook_env(self, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        env.update(QWEN_PROJECT_DIR=project_dir, CLAUDE_PROJECT_DIR=project_dir,
                   GEMINI_PROJECT_DIR=project_dir, QWEN_CODE_CLI="1",
                   QWEN_CODE_SESSION_ID=str(payload.get("session_id", "")))
        return env

    def stdin_bytes(self, payload: Mapping[str, Any]) -> bytes:
        return AgentCLI.stdin_bytes(self, payload)  # no trailing newline

    def effective_timeout(self, cmd: HookCommand) -> float:
        return 60.0 if not cmd.timeout_s or cmd.timeout_s <= 0 else cmd.timeout_s

    def env_file_event(self, event: str) -> bool:
        return False

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:
        from ..host import HookCommand, number_or_none

        timeout = number_or_none(handler.get("timeout"))
        if timeout is not None and timeout >= MS_FROM:
            timeout = timeout / 1000
        matcher = group.get("matcher")
        env = handler.get("env")
        return HookCommand(self.platform.value, event, handler["command"], timeout,
                           matcher if isinstance(matcher, str) else None,
                           handler.get("name") if isinstance(handler.get("name"), str) else None,
                           None, bool(group.get("sequential")),
                           env if isinstance(env, dict) else None)

    def interpret(self, event: str, result: RunResult, on_failure: str | None) -> Verdict:
        return _interpret(event, result)

    # --- generator: doctor -----------------------------------------------------------------
    def scopes(self, root: Any, home: Any, env: Mapping[str, str]) -> list[tuple[str, Any, bool]]:
        return [(self.settings_file, root / self.settings_file, True),
                ("~/.qwen/settings.json", qwen_home(home, env) / "settings.json", False)]

    doctor_reported_paths = frozenset({"disableAllHooks"})

    def trust_findings(self, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        """With folder trust on, Qwen drops the project's hooks in an untrusted folder."""
        return _trust_findings(root, home, scopes, env)

    def trust_edits(self, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        """Only with folder trust on (``security.folderTrust.enabled`` in the user's file):
        otherwise Qwen loads the project's hooks and there is nothing to record."""
        from ..settings import load_settings

        label, path, _ = self.scopes(root, home, env)[1]
        try:
            _, data = load_settings(path, self.platform, label)
        except ValueError:
            return []  # doctor reports a broken user file
        return _trust_edits(root, home, env) if _trust_on(data) else []

    def command_findings(self, scope: Scope, cmd: HookCommand) -> list[Finding]:
        from ..doctor import FAIL, WARN, Finding

        where = f"{scope.label}: {cmd.event} {cmd.command!r}"
        out = []
        if "QWEN_CODE_PROJECT_DIR" in cmd.command:
            out.append(Finding("commands", FAIL, f"{where}: $QWEN_CODE_PROJECT_DIR is Qwen's "
                               "state folder (~/.qwen/projects/...), not the project",
                               "use \"$QWEN_PROJECT_DIR/...\""))
        matcher = (cmd.matcher or "").strip()
        if cmd.event in _TOOL_EVENTS and re.search(r"[\^$.*+?()\[\]]", matcher) and \
                re.search(r"\b(Bash|Write|Edit|Read|Grep|Glob)\b", matcher):
            out.append(Finding("commands", WARN, f"{where}: matcher {matcher!r} is a regex over "
                               "Claude tool names; Qwen matches those only as exact aliases",
                               "use Qwen's names, e.g. ^(run_shell_command|write_file)$"))
        return out


def qwen_timeout(seconds: int) -> int:
    """The ``timeout`` value that means ``seconds`` to Qwen: seconds below 1000, milliseconds
    from 1000 on (Qwen reads 1000 and more as milliseconds, so 1200 s is written 1200000)."""
    return seconds if seconds < MS_FROM else seconds * 1000


def qwen_home(home: Any, env: Mapping[str, str]) -> Any:
    """``$QWEN_HOME``, else ``~/.qwen``."""
    from pathlib import Path

    return Path(env["QWEN_HOME"]) if env.get("QWEN_HOME") else Path(home) / ".qwen"


# --- validation ------------------------------------------------------------------------------

def _timeout_check(value: Any) -> str | None:
    from ..schema import is_number

    if isinstance(value, str) and value.strip().isdigit():
        return None
    if not is_number(value) or value <= 0:
        return "must be a positive number of seconds (Qwen falls back to 60)"
    return None


def _validate_handler(handler: Any, path: str) -> list[Problem]:
    from ..schema import (
        ERROR,
        WARNING,
        Problem,
        boolean,
        check_keys,
        is_number,
        nonempty_string,
        one_of,
        string,
        string_list,
        string_map,
        unknown_keys,
        url,
    )

    if not isinstance(handler, dict):
        return [Problem(path, "must be an object")]
    kinds = {"command": ("command",), "http": ("url",), "prompt": ("prompt",)}
    kind = handler.get("type")
    if kind not in kinds:
        return [Problem(f"{path}.type", "must be one of 'command', 'http', 'prompt'; Qwen Code "
                        "drops this entry")]
    spec = {"type": string, "command": nonempty_string, "name": string, "timeout": _timeout_check,
            "env": string_map, "async": boolean, "shell": one_of("bash", "powershell"),
            "statusMessage": string, "description": string, "url": url, "headers": string_map,
            "allowedEnvVars": string_list, "once": boolean, "prompt": nonempty_string,
            "model": string}
    problems = check_keys(handler, spec, kinds[kind], path, ERROR)
    timeout = handler.get("timeout")
    if is_number(timeout) and isinstance(timeout, (int, float)) and 600 <= timeout < MS_FROM:
        problems.append(Problem(f"{path}.timeout", f"is {timeout:g} seconds; values from 1000 "
                                "on are milliseconds", WARNING))
    return problems + unknown_keys(handler, frozenset(spec), path, "Qwen Code")


# --- host rules ------------------------------------------------------------------------------

def _interpret(event: str, r: RunResult) -> Verdict:
    """hookRunner.ts: exit 2 reads stderr (text = a deny); any other exit reads stdout, else
    stderr, and obeys a JSON object whatever the exit code; plain text at exit 0 is a
    systemMessage (context on SessionStart/UserPromptSubmit), at other exits a warning."""
    from dataclasses import replace

    from ..verdicts import Verdict, failure_line, last_line, missing_script, parse_object

    failure = failure_line(r)
    if failure:  # timeouts and signals fail open
        return Verdict(success=False, clean=False, problems=(failure,))
    if r.exit_code == 2:
        missing = missing_script(r)
        output, parsed = parse_object(r.stderr.strip())
        if not parsed:
            if not r.stderr.strip():
                return Verdict(success=False, clean=False,
                               problems=("exit 2 with empty stderr does not block on Qwen Code",))
            output = {"decision": "deny", "reason": r.stderr.strip()}
        verdict = replace(_json(event, output or {}), success=False)
        return replace(verdict, clean=False, problems=(missing,)) if missing else verdict
    text = r.stdout.strip() or r.stderr.strip()
    output, parsed = parse_object(text)
    if parsed and output is not None:
        verdict = _json(event, output)
        if r.exit_code != 0:
            return replace(verdict, success=False, clean=False, problems=(
                f"exit {r.exit_code}: Qwen Code still obeys the JSON it printed",))
        return verdict
    if text.startswith("{"):
        return Verdict(success=False, clean=False,
                       problems=("output starts with '{' but is not JSON: Qwen ignores it",))
    if r.exit_code != 0:
        return Verdict(success=False, clean=False, problems=(
            f"exit {r.exit_code}: non-blocking on Qwen Code (only exit 2 blocks)"
            + (f" ({last_line(text)})" if text else ""),))
    if text and event in _TEXT_IS_CONTEXT:
        return Verdict("context", context=text)
    return Verdict(system_message=text) if text else Verdict()


def _json(event: str, data: dict[str, Any]) -> Verdict:
    from dataclasses import replace

    from ..verdicts import Verdict, settle

    found = data.get("hookSpecificOutput")
    hso: dict[str, Any] = found if isinstance(found, dict) else {}
    context = str(hso.get("additionalContext") or "") if event in _CONTEXT_READ else ""
    notes = []
    if hso.get("additionalContext") and not context:
        notes.append(f"Qwen Code drops additionalContext on {event}")
    if "updatedInput" in hso and event != "PermissionRequest":
        notes.append("Qwen Code ignores updatedInput: the original call runs")
    base = Verdict(output=data, system_message=str(data.get("systemMessage") or ""),
                   context=context, notes=tuple(notes))
    block = data.get("decision") in ("block", "deny") or data.get("continue") is False
    reason = str(data.get("reason") or data.get("stopReason") or "")
    if REWRITE_NOTE in str(hso.get("permissionDecisionReason") or ""):
        notes.append("updated_input cannot be applied on Qwen Code: hookwrap sent a deny that "
                     "gives the model the new input")
        base = replace(base, notes=tuple(notes))
    if event == "PreToolUse":
        decision = hso.get("permissionDecision")
        if decision == "deny" or block:
            return settle(base, "blocked", str(hso.get("permissionDecisionReason") or reason))
        return settle(base, "ask" if decision == "ask" else None)
    if block and event in _BLOCKABLE:
        return settle(base, "blocked", reason)
    if block and event in _KEEP_WORKING:
        return settle(base, "kept_working", reason)
    if block and event.startswith("PostToolUse") and data.get("continue") is not False:
        return settle(replace(base, notes=(*base.notes, f"Qwen Code ignores a block on {event}")),
                      None)
    return settle(base, None)


# --- doctor ----------------------------------------------------------------------------------

def _trust_on(data: Any) -> bool:
    security = data.get("security") if isinstance(data, dict) else None
    trust = security.get("folderTrust") if isinstance(security, dict) else None
    return isinstance(trust, dict) and trust.get("enabled") is True


def _folder_trust_on(scopes: list[Scope]) -> bool:
    return any(_trust_on(scope.data) for scope in scopes if not scope.project)


def _trusted_folders_path(home: Any, env: Mapping[str, str]) -> Any:
    from pathlib import Path

    override = env.get("QWEN_CODE_TRUSTED_FOLDERS_PATH")
    return Path(override) if override else qwen_home(home, env) / "trustedFolders.json"


def _trust_findings(root: Path, home: Path, scopes: list[Scope],
                    env: Mapping[str, str]) -> list[Finding]:
    import json

    from ..doctor import FAIL, OK, Finding

    if not any(s.project and s.data and s.data.get("hooks") for s in scopes):
        return [Finding("qwen-trust", OK, "no Qwen Code project hooks to check")]
    if not _folder_trust_on(scopes):
        return [Finding("qwen-trust", OK, "Qwen Code's folder trust is off: project hooks load")]
    try:
        rules = json.loads(_trusted_folders_path(home, env).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        rules = {}
    resolved = root.resolve()
    for folder, rule in (rules.items() if isinstance(rules, dict) else ()):
        from pathlib import Path

        base = Path(folder).parent if rule == "TRUST_PARENT" else Path(folder)
        if rule in ("TRUST_FOLDER", "TRUST_PARENT") and (resolved == base or base in resolved.parents):
            return [Finding("qwen-trust", OK, "the folder is trusted in ~/.qwen/trustedFolders.json")]
    return [Finding("qwen-trust", FAIL, f"{root} is not trusted and folder trust is on: Qwen Code "
                    "drops the project's hooks (and refuses the shell tool)",
                    "run `hookwrap trust --platform qwen`")]


def _trust_edits(root: Path, home: Path, env: Mapping[str, str]) -> list[TrustEdit]:
    """``"<root>": "TRUST_FOLDER"`` in ~/.qwen/trustedFolders.json (read only with folder trust
    on; writing it is harmless otherwise)."""
    import json

    from ..errors import SettingsError
    from ..settings import read_text
    from ..trust import TRUST_HINT, TrustChange, TrustEdit, TrustEntry

    path = _trusted_folders_path(home, env)
    label = str(path)
    text = read_text(path, label)
    try:
        rules = json.loads(text) if text and text.strip() else {}
    except ValueError:
        raise SettingsError(f"{label}: not valid JSON", hint=TRUST_HINT) from None
    if not isinstance(rules, dict):
        raise SettingsError(f"{label}: is not an object", hint=TRUST_HINT)
    key = str(root.resolve())
    entry = TrustEntry((key,), "TRUST_FOLDER", "the project")
    shown = f'"{key}": "TRUST_FOLDER"'
    if rules.get(key) == "TRUST_FOLDER":
        return [TrustEdit(Platform.QWEN, path, label, text, [TrustChange("unchanged", entry, shown)])]
    action = "update" if key in rules else "create"
    rules[key] = "TRUST_FOLDER"
    new_text = json.dumps(rules, indent=2, ensure_ascii=False) + "\n"
    return [TrustEdit(Platform.QWEN, path, label, new_text, [TrustChange(action, entry, shown)])]


CLI = QwenCode()
