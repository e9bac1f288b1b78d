"""Qwen Code: what the hookwrap command needs to know about it (a hook process needs only
``qwen.py``, which the class here extends).

`.qwen/settings.json` (JSON with comments; Qwen itself
rewrites the file, adding ``"$version"``, and hookwrap keeps every key it finds), validation, the
rules `hookwrap test` emulates, doctor's checks and folder trust (off unless the user turns it on).
"""

from __future__ import annotations

import re

from ...clis._claude_protocol import ClaudeProtocol
from ...clis.qwen import QWEN
from ...names import Platform
from ._base import AgentSetup
from .kit import (
    DO_NOT_TRUST,
    ERROR,
    FAIL,
    FOLDER_LEVELS,
    OK,
    TRUST_PARENT,
    WARN,
    WARNING,
    Finding,
    HookCommand,
    Problem,
    RunResult,
    Scope,
    TrustEdit,
    Verdict,
    boolean,
    check_keys,
    failure_line,
    folder_rule_edit,
    is_number,
    js_regex,
    last_line,
    missing_script,
    nonempty_string,
    number_or_none,
    one_of,
    parse_object,
    path_variants,
    settle,
    string,
    string_list,
    string_map,
    unknown_keys,
    url,
    within,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Mapping


_TOOL_EVENTS = frozenset(k for k, v in QWEN.match_targets.items() if v == "tool_name")
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


class QwenCodeSetup(ClaudeProtocol, AgentSetup):
    """Qwen Code's registrations, validation, host rules and doctor checks."""

    # --- generator: validation -------------------------------------------------------------
    def validate_group_keys(self, group: dict[str, Any], event: str, path: str) -> list[Problem]:
        from .gemini import sequential_problems

        problems = []
        if "matcher" in group and not isinstance(group["matcher"], str):
            problems.append(Problem(f"{path}.matcher", "must be a string"))
        elif "matcher" in group and event in self.no_matcher_events:
            problems.append(Problem(f"{path}.matcher", f"is ignored on {event}", WARNING))
        return problems + sequential_problems(group, path)

    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        return _validate_handler(handler, path)

    # --- generator: host rules -------------------------------------------------------------
    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:
        """hook-matcher.ts: exact name or alias, a split ``|`` list, else an unanchored regex."""

        if event in self.no_matcher_events or target is None or matcher is None:
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

    def effective_timeout(self, cmd: HookCommand) -> float:
        return 60.0 if not cmd.timeout_s or cmd.timeout_s <= 0 else cmd.timeout_s

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:

        timeout = self.timeout_seconds(number_or_none(handler.get("timeout")))
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
    def trust_findings(self, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        """With folder trust on, Qwen drops the project's hooks in an untrusted folder."""
        return _trust_findings(root, home, scopes, env)

    def trust_edits(self, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        """Only with folder trust on (``security.folderTrust.enabled`` in the user's file) and
        hooks in the project's file: otherwise Qwen loads them and there is nothing to record."""
        return _trust_edits(root, home, env, settings_text)

    def command_findings(self, scope: Scope, cmd: HookCommand) -> list[Finding]:

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


def qwen_home(home: Any, env: Mapping[str, str]) -> Any:
    """``$QWEN_HOME``, else ``~/.qwen``."""
    from pathlib import Path

    return Path(env["QWEN_HOME"]) if env.get("QWEN_HOME") else Path(home) / ".qwen"


def _timeout_check(value: Any) -> str | None:

    if isinstance(value, str) and value.strip().isdigit():
        return None
    if not is_number(value) or value <= 0:
        return "must be a positive number of seconds (Qwen falls back to 60)"
    return None


def _validate_handler(handler: Any, path: str) -> list[Problem]:

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
    if is_number(timeout) and isinstance(timeout, (int, float)) and 600 <= timeout < QWEN.timeout_ms_from:
        problems.append(Problem(f"{path}.timeout", f"is {timeout:g} seconds; values from 1000 "
                                "on are milliseconds", WARNING))
    return problems + unknown_keys(handler, frozenset(spec), path, "Qwen Code")


def _interpret(event: str, r: RunResult) -> Verdict:
    """hookRunner.ts: exit 2 reads stderr (text = a deny); any other exit reads stdout, else
    stderr, and obeys a JSON object whatever the exit code; plain text at exit 0 is a
    systemMessage (context on SessionStart/UserPromptSubmit), at other exits a warning."""
    from dataclasses import replace


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
    if QWEN.rewrite_note in str(hso.get("permissionDecisionReason") or ""):
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


def _decision(rules: dict[str, Any], root: Path) -> tuple[bool | None, str | None]:
    """Qwen Code's reading of its trusted folders: of the rules whose folder (a TRUST_PARENT
    rule's parent) holds ``root``, as written or as real paths, the deepest wins, and
    DO_NOT_TRUST wins a tie. Returns (trusted, the winning rule), (None, None) if none."""
    import os

    locations = path_variants(str(root))
    winner, depth, level_won = None, -1, None
    for raw, level in rules.items():
        if level not in FOLDER_LEVELS:
            continue  # Qwen skips a rule it does not know
        folder = os.path.normpath(raw)
        effective = os.path.dirname(folder) if level == TRUST_PARENT else folder
        found = max((len([part for part in variant.split(os.sep) if part])
                     for variant in path_variants(effective) for location in locations
                     if within(location, variant)), default=-1)
        if found > depth or (found == depth >= 0 and level == DO_NOT_TRUST and level_won != DO_NOT_TRUST):
            winner, depth, level_won = raw, found, level
    return (None if winner is None else level_won != DO_NOT_TRUST), winner


def _trust_edits(root: Path, home: Path, env: Mapping[str, str],
                 settings_text: str | None) -> list[TrustEdit]:
    """``"<root>": "TRUST_FOLDER"`` in ~/.qwen/trustedFolders.json (JSON with comments, kept),
    when folder trust is on and the project has hooks."""
    from ..errors import SettingsError
    from ..fsutil import read_text

    (project_label, project_path, _), (user_label, user_path, _) = CLI.scopes(root, home, env)
    try:
        user_text = read_text(user_path, user_label)
        user = CLI.parse_settings_text(user_text, user_label) if user_text else {}
        if settings_text is None:
            settings_text = read_text(project_path, project_label)
        project = CLI.parse_settings_text(settings_text, project_label) if settings_text else {}
    except SettingsError:
        return []  # doctor reports a broken settings file
    if not (_trust_on(user) and isinstance(project, dict) and project.get("hooks")):
        return []
    path = _trusted_folders_path(home, env)
    return [folder_rule_edit(Platform.QWEN, path, str(path), root, _decision, "Qwen Code",
                             strict=False)]


def _trust_findings(root: Path, home: Path, scopes: list[Scope],
                    env: Mapping[str, str]) -> list[Finding]:
    """What `hookwrap trust` would do, as a finding: ok when it has nothing to do."""
    from ..errors import SettingsError

    if not any(s.project and s.data and s.data.get("hooks") for s in scopes):
        return [Finding("qwen-trust", OK, "no Qwen Code project hooks to check")]
    if not _folder_trust_on(scopes):
        return [Finding("qwen-trust", OK, "Qwen Code's folder trust is off: project hooks load")]
    try:
        edits = _trust_edits(root, home, env, None)
    except SettingsError as error:
        return [Finding("qwen-trust", FAIL, f"{error.message}; Qwen Code cannot read its trusted "
                        "folders", error.hint)]
    todo = [line for edit in edits for line in edit.todo]
    if todo:
        return [Finding("qwen-trust", FAIL, todo[0])]
    if any(edit.pending for edit in edits):
        return [Finding("qwen-trust", FAIL, f"{root} is not trusted and folder trust is on: "
                        "Qwen Code drops the project's hooks (and refuses the shell tool)",
                        "run `hookwrap trust --platform qwen`")]
    return [Finding("qwen-trust", OK, "the folder is trusted in ~/.qwen/trustedFolders.json")]


CLI = QwenCodeSetup(QWEN)
