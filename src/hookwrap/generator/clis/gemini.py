"""Gemini CLI: what the hookwrap command needs to know about it (a hook process needs only
``clis/gemini.py``, the record the setup here is composed from).

The `.gemini/settings.json` entries hookwrap writes (JSONC, milliseconds, anchored regex
matchers, `${GEMINI_PROJECT_DIR}` because Gemini substitutes `$GEMINI_PROJECT_DIR` already
quoted), their validation, the rules `hookwrap test` emulates, doctor's checks, and trust (folder
trust: Gemini runs no hook at all in an untrusted folder; `hookwrap trust` records the project in
its trusted folders).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from ...clis.gemini import GEMINI
from ...names import NormalizedEvent, Platform
from ..errors import SettingsError, UsageError
from ._answers import runtime_reading
from ._base import AgentSetup, Doctor, Handlers, HostRules, Matchers, Registration
from ._facts import CommandFacts
from ._trust_stores import TrustFile
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
    answered,
    check_keys,
    failed,
    failure_line,
    folder_rule_edit,
    hso_of,
    is_number,
    js_regex,
    last_line,
    missing_script,
    nonempty_string,
    one_of,
    parse_object,
    read_trust_file,
    sequential_problems,
    settle,
    string,
    string_list,
    string_map,
    unknown_keys,
    within,
)

# The hookwrap command's facts (checked against the version in the record).
GEMINI_COMMAND = CommandFacts(
    settings_file=".gemini/settings.json",
    user_file="${GEMINI_CLI_HOME:-~}/.gemini/settings.json",
    executable="gemini",
    settings_comments=True,
    known_settings_events=(
        "BeforeTool", "AfterTool", "BeforeAgent", "Notification", "AfterAgent", "SessionStart",
        "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection",
    ),
    unknown_event_note="Gemini CLI skips it with a warning",
    group_keys=frozenset({"matcher", "sequential", "hooks"}),
    hooks_not_a_list="must be a list; Gemini drops this definition",
    scope_files=(("~/.gemini/settings.json", "${GEMINI_CLI_HOME:-~}/.gemini/settings.json", False),),
    # Braces: Gemini leaves ${GEMINI_PROJECT_DIR} for bash, which quotes it properly.
    command_form='{python} "${{GEMINI_PROJECT_DIR}}/{script}" {args}--platform {platform}',
    handler_keys=("name", "type", "command", "timeout", "description"),
    timeout_scale=1000,  # milliseconds
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL}),
    # Lifecycle matchers are compared with ===, so only the values 0.61.0 fires ever match.
    lifecycle_values={
        NormalizedEvent.SESSION_START: ("startup", "resume", "clear"),
        NormalizedEvent.SESSION_END: ("exit", "clear"),
        NormalizedEvent.PRE_COMPACT: ("manual", "auto"),
    },
    # The payload field a matcher is tested against: only where the event passes one.
    match_targets={"BeforeTool": "tool_name", "AfterTool": "tool_name", "SessionStart": "source",
                   "SessionEnd": "reason", "PreCompress": "trigger"},
    hook_env_vars={"GEMINI_PROJECT_DIR": "{project}", "GEMINI_CWD": "{project}",
                   "GEMINI_SESSION_ID": "{session_id}", "CLAUDE_PROJECT_DIR": "{project}"},
    empty_tool_response={"llmContent": "", "returnDisplay": ""},
    payload_has_timestamp=True,
    system_message_shown="shown to the user",
    doctor_reported_paths=frozenset({"hooksConfig.enabled", "tools.enableHooks", "hooks.enabled",
                                     "hooks.disabled", "hooks.notifications"}),
    # 0.61.0's ShellProcessor asks only the policy engine, then runs the command itself
    # (ShellExecutionService.execute): no BeforeTool, no hook at all. Docs: docs/guard.md.
    unhooked_shell=((".gemini/commands/**/*.toml", r"!\{",
                     "runs a custom command's `!{...}` shell injection without calling any hook: "
                     "the guard never sees it"),),
)

_TOOL_EVENTS = frozenset(k for k, v in GEMINI_COMMAND.match_targets.items() if v == "tool_name")
# Reasons the SessionEnd enum declares but 0.61.0 never fires: valid, and never matched.
_DECLARED_ONLY = {"SessionEnd": ("logout", "prompt_input_exit", "other")}
_HOOKS_CONFIG_KEYS = frozenset({"enabled", "disabled", "notifications"})
DEAD_KEYS = (("tools", "enableHooks"), ("hooks", "enabled"), ("hooks", "disabled"),
             ("hooks", "notifications"))
# Gemini substitutes these (no braces) textually with an already shell-quoted value. Patterns as
# text, compiled (and cached by re) on first use: not on every hook call's import.
SUBSTITUTED_VARS = (r"\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR"
                    r"|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)")
_SAFE_WORD = r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}~])"
# What Gemini CLI 0.61.0 lets a hook change on an event, beyond its decision (gemini-cli.md §2.5).
_MODS = {"BeforeModel": ("llm_request", "llm_response"), "AfterModel": ("llm_response",),
         "BeforeToolSelection": ("toolConfig",), "AfterTool": ("tailToolCallRequest",),
         "AfterAgent": ("clearContext",)}


class GeminiRegistration(Registration):
    """JSONC settings whose lifecycle matcher is one exact value (Gemini CLI matches a trigger by equality)."""

    def lifecycle_matcher(self, agent: AgentSetup, values: list[str], event: NormalizedEvent) -> str:
        if len(values) > 1:
            raise UsageError(f"Gemini CLI matches {event.value} by one exact value; "
                             f"{'|'.join(values)!r} would match nothing",
                             hint="give one value, or add a separate hook per value")
        return values[0]


class GeminiMatchers(Matchers):
    """A regex searched in a tool's name, exact equality for a lifecycle trigger; ``sequential`` is a group key too."""

    def validate_group_keys(self, agent: AgentSetup, group: dict[str, Any], event: str, path: str) -> list[Problem]:
        problems = _validate_matcher(group["matcher"], event, f"{path}.matcher") if "matcher" in group else []
        return problems + sequential_problems(group, path)

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None, target: str | None) -> bool:
        if target is None or matcher is None:
            return True
        matcher = matcher.strip()
        if matcher in ("", "*"):
            return True
        if event not in _TOOL_EVENTS:
            return matcher == target  # lifecycle triggers: exact equality
        compiled = js_regex(matcher)
        return compiled.search(target) is not None if compiled else matcher == target


class GeminiHandlers(Handlers):
    """Command handlers with ``name``, ``env`` and a timeout in milliseconds; entries run once per name and command, and a ``sequential`` group one after another."""

    reads = frozenset({"name", "sequential", "env"})

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        spec = {"type": one_of("command"), "command": nonempty_string, "timeout": _timeout_check,
                "name": string, "description": string, "env": string_map}
        problems = check_keys(handler, spec, ("type", "command"), path, ERROR)
        timeout = handler.get("timeout")
        if isinstance(timeout, str) and timeout.strip().isdigit():
            problems.append(Problem(f"{path}.timeout", "is a string; Gemini converts it to a number",
                                    WARNING))
        elif isinstance(timeout, float) and timeout > 0 and not timeout.is_integer():
            problems.append(Problem(f"{path}.timeout", "should be a whole number of milliseconds",
                                    WARNING))
        return problems + unknown_keys(handler, frozenset(spec), path, "Gemini CLI")

    def dedup_key(self, agent: AgentSetup, cmd: HookCommand) -> str:
        return f"{cmd.name or ''}:{cmd.command}"

    def runs_sequentially(self, agent: AgentSetup, commands: tuple[HookCommand, ...]) -> bool:
        return any(c.sequential for c in commands)


class GeminiDoctor(Doctor):
    """hooksConfig (enabled, disabled), the keys older guides name that 0.61.0 never reads, and the commands Gemini's substitution breaks."""

    def validate_event(self, agent: AgentSetup, event: str, groups: Any, path: str) -> list[Problem] | None:
        if event in _HOOKS_CONFIG_KEYS:
            return [Problem(path, f"has no effect here; use hooksConfig.{event}", WARNING)]
        return super().validate_event(agent, event, groups, path)

    def validate_file(self, agent: AgentSetup, data: dict[str, Any]) -> list[Problem]:
        config = data.get("hooksConfig")
        if "hooksConfig" in data and not isinstance(config, dict):
            return [Problem("hooksConfig", "must be an object")]
        if not isinstance(config, dict):
            return []
        problems = []
        if config.get("enabled") is False:
            problems.append(Problem("hooksConfig.enabled", "is false: no hook runs", WARNING))
        if "disabled" in config and string_list(config["disabled"]):
            problems.append(Problem("hooksConfig.disabled", "must be a list of strings", WARNING))
        return problems

    def hooks_off_findings(self, agent: AgentSetup, scopes: list[Scope]) -> list[Finding]:
        """hooksConfig.enabled (the project file overrides the user's) and hooksConfig.disabled."""
        out = []
        ordered = sorted((s for s in scopes if s.data), key=lambda s: s.project)
        configs = [(s, s.data["hooksConfig"]) for s in ordered
                   if isinstance(s.data, dict) and isinstance(s.data.get("hooksConfig"), dict)]
        enabled = [(s, c["enabled"]) for s, c in configs if "enabled" in c]
        if enabled and enabled[-1][1] is False:  # the project file overrides the user file
            scope = enabled[-1][0]
            out.append(Finding("hooks-enabled", FAIL, f"{scope.label}: hooksConfig.enabled is false, "
                               "so Gemini CLI runs no hooks",
                               f"set hooksConfig.enabled to true in {scope.label}"))
        disabled = {str(n) for s, c in configs for n in (c.get("disabled") or []) if isinstance(n, str)}
        for scope in ordered:
            for entry in SETUP.owned_entries(scope.data):
                key = entry.handler.get("name") or entry.handler.get("command")
                if key in disabled:
                    out.append(Finding("hooks-enabled", FAIL, f"{entry.name} is listed in "
                                       "hooksConfig.disabled", f"remove {key!r} from "
                                       f"hooksConfig.disabled (or `/hooks enable {key}`)"))
        return out

    def dead_key_findings(self, agent: AgentSetup, scopes: list[Scope]) -> list[Finding]:
        """Keys that older guides mention and 0.61.0 never reads."""

        out = []
        for scope in scopes:
            data = scope.data or {}
            for parent, key in DEAD_KEYS:
                if isinstance(data.get(parent), dict) and key in data[parent]:
                    new = "hooksConfig.enabled" if key == "enableHooks" else f"hooksConfig.{key}"
                    out.append(Finding("dead-keys", WARN, f"{scope.label}: {parent}.{key} has no "
                                       "effect", f"delete it; the setting is {new}"))
        return out

    def command_findings(self, agent: AgentSetup, scope: Scope, cmd: HookCommand) -> list[Finding]:
        where = f"{scope.label}: {cmd.event} {cmd.command!r}"
        out = []
        if _quoted_substitution(cmd.command):
            out.append(Finding("commands", FAIL, f"{where}: Gemini replaces $VAR with an already "
                               "quoted value, so inside quotes it breaks on a path with a space "
                               "(exit 127, which blocks)", 'write "${GEMINI_PROJECT_DIR}/..." instead'))
        matcher = (cmd.matcher or "").strip()
        if agent.is_tool_event(cmd.event) and matcher not in ("", "*") and \
                not (matcher.startswith("^") and matcher.endswith("$")):
            out.append(Finding("commands", WARN, f"{where}: matcher {matcher!r} is an unanchored "
                               "regex and also matches longer tool names (mcp_x_read_file)",
                               f"anchor it: ^({matcher})$"))
        timeout = cmd.timeout_s
        if timeout is not None and 0 < timeout < 1:
            out.append(Finding("commands", WARN, f"{where}: timeout {timeout * 1000:g} is "
                               "milliseconds on Gemini CLI and looks like seconds",
                               f"use {timeout * 1e6:g}"))
        return out


class GeminiHost(HostRules):
    """GEMINI_PLANS_DIR, and Gemini's textual substitution of ``$NAME`` in the command."""

    def hook_env(self, agent: AgentSetup, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        session = str(payload.get("session_id", ""))
        home = Path(env.get("GEMINI_CLI_HOME") or env.get("HOME") or Path.home())
        plans = home / ".gemini" / "tmp" / Path(project_dir).name / session / "plans"
        env = super().hook_env(agent, payload, project_dir, env)
        env["GEMINI_PLANS_DIR"] = str(plans)
        return env

    def expand_command(self, agent: AgentSetup, command: str, env: Mapping[str, str]) -> str:
        """Gemini's textual substitution: literal ``$NAME`` (no braces, no word boundary)
        becomes the shell-quoted value; ``${NAME}`` is left for bash. So
        ``"$GEMINI_PROJECT_DIR/x"`` breaks on a path with a space."""
        return re.sub(SUBSTITUTED_VARS, lambda m: shell_quote(env.get(m.group(1), "")), command)


class GeminiTrust(TrustFile):
    """Folder trust: Gemini runs no hook at all in an untrusted folder; `hookwrap trust` records the project in its trusted folders."""

    def trust_findings(self, agent: AgentSetup, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        """What `hookwrap trust` would do, as a finding: ok when it has nothing to do. Gemini runs
        no hooks at all in an untrusted folder (project and user hooks alike)."""
        def ok(message: str) -> list[Finding]:
            return [Finding("gemini-trust", OK, message)]

        if not any(s.data and s.data.get("hooks") for s in scopes):
            return ok("no Gemini hooks to check")
        if not _forced_untrusted(env):  # else the plan says what to do
            if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
                return ok("GEMINI_CLI_TRUST_WORKSPACE=true trusts the folder")
            user = next((s.data for s in scopes if not s.project and s.data), {})
            if _folder_trust_off(user):
                return ok("folder trust is off in ~/.gemini/settings.json")
        fix = "run `hookwrap trust --platform gemini` (or trust the folder when Gemini CLI asks)"
        try:
            edits = self.trust_edits(agent, root, home, env, None)
        except SettingsError as error:
            return [Finding("gemini-trust", FAIL, f"{error.message}; Gemini CLI refuses to start",
                            error.hint)]
        todo = [line for edit in edits for line in edit.todo]
        if todo:
            return [Finding("gemini-trust", FAIL, todo[0])]
        if any(edit.pending for edit in edits):
            path = self.path(root, home, env)
            verdict, winner = _decision(read_trust_file(path, str(path))[1], root)
            state = f"distrusted (its rule {winner!r} is DO_NOT_TRUST)" if verdict is False \
                else "not a trusted folder"
            return [Finding("gemini-trust", FAIL, f"{root} is {state}: Gemini CLI runs no hooks here",
                            fix)]
        return ok(f"the folder is trusted in {self.shown}")

    def trust_edits(self, agent: AgentSetup, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        """The project in Gemini's trusted folders (with folder trust on, its default):
        ``"<root>": "TRUST_FOLDER"``, when it has hooks to run here: in an untrusted folder
        Gemini CLI runs none, the user's own included."""
        (project_label, project_path, _), (user_label, user_path, _) = agent.scopes(root, home, env)
        project = _read_settings(project_path, project_label, settings_text)
        user = _read_settings(user_path, user_label)
        if not any(isinstance(d, dict) and d.get("hooks") for d in (project, user)):
            return []
        path = self.path(root, home, env)
        label = str(path)
        forced = _forced_untrusted(env)
        if forced:
            return [TrustEdit(Platform.GEMINI, path, label, None, todo=[
                f"Gemini CLI treats every folder as untrusted while {forced} is set, so it runs no "
                "hook; unset it"])]
        if _folder_trust_off(user):
            return []  # Gemini trusts every folder
        return [folder_rule_edit(Platform.GEMINI, path, label, root, _decision, "Gemini CLI",
                                 strict=True)]


def shell_quote(value: str) -> str:
    """Quote one word the way Gemini CLI's shell quoting library does on bash.

    Plain words are escaped with backslashes; words with spaces, quotes or backslashes are
    wrapped in single quotes, or double quotes when they hold a single quote.
    """
    if value == "":
        return "''"
    if "'" in value and "!" in value:
        return "'" + value.replace("'", "'\"'\"'") + "'"
    if re.search(r"[\"\s\\]", value) and "'" not in value:
        return f"'{value}'"
    if re.search(r"[\"'\s]", value):
        return '"' + re.sub(r"([\"\\$`])", r"\\\1", value) + '"'
    return re.sub(_SAFE_WORD, lambda m: (m.group(1) or "") + "\\" + m.group(2), value)


def _timeout_check(value: Any) -> str | None:

    if value == 0 and not isinstance(value, bool):
        return "0 means an immediate timeout; use milliseconds, e.g. 60000"
    if isinstance(value, str) and value.strip().isdigit():
        return None  # Gemini coerces numeric strings; reported as a warning separately
    if not is_number(value) or value < 0:
        return "must be a positive whole number of milliseconds"
    return None


def _triggers(event: str) -> frozenset[str] | None:
    normalized = GEMINI.events.get(event)
    values = GEMINI_COMMAND.lifecycle_values.get(normalized) if normalized else None
    if values is None:
        return None
    return frozenset(values + _DECLARED_ONLY.get(event, ()))


def _validate_matcher(matcher: Any, event: str, path: str) -> list[Problem]:

    if not isinstance(matcher, str):
        return [Problem(path, "must be a string")]
    if matcher.strip() in ("", "*"):
        return []
    allowed = _triggers(event)
    if event not in _TOOL_EVENTS and allowed is None:
        return [Problem(path, f"is ignored on {event}", WARNING)]
    if allowed is not None and matcher.strip() not in allowed:
        choices = ", ".join(sorted(allowed))
        return [Problem(path, f"is compared exactly on {event} and never matches; use one of {choices}")]
    return []


def read_answer(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """What Gemini CLI does with a finished run: the runtime's reading (``runtime_reading``,
    the bridge's too), with the model changes it applies, what it ignores and how the run
    failed."""
    failure = failure_line(r)
    if failure:  # timeouts, signals and spawn errors fail open, output discarded
        return failed(failure)
    code = r.exit_code
    text = r.stdout.strip() or r.stderr.strip()  # stderr is read only when stdout is empty
    notes: tuple[str, ...] = ("stdout was empty, so Gemini read stderr",) \
        if text and not r.stdout.strip() else ()
    output, parsed = parse_object(text)
    if text and not parsed:
        output = {"decision": "allow", "systemMessage": ("Warning: " if code == 1 else "") + text} \
            if code in (0, 1) else {"decision": "deny", "reason": text}
    fields = runtime_reading(agent, event, r.stdout, code or 0, r.stderr)
    hso = hso_of(output)
    notes += tuple(f"Gemini ignores Claude's hookSpecificOutput.{k}"
                   for k in ("permissionDecision", "updatedInput") if k in hso)
    base = answered(output, fields, success=code == 0, notes=notes,
                    system_message=fields.get("system_message", ""),
                    modifications={k: hso[k] for k in _MODS.get(event, ()) if k in hso})
    decision = fields.get("decision")
    outcome = "ask" if decision == "ask" else None if not decision else \
        "kept_working" if event == "AfterAgent" else "blocked"
    verdict = settle(base, outcome, fields.get("reason", ""))
    missing = missing_script(r)
    if code == 0 or (code == 2 and verdict.outcome == "blocked" and not missing):
        return verdict
    if missing:
        problem = missing
    elif code not in (1, 2) and verdict.outcome == "blocked":
        problem = f"exit {code} with output blocks on Gemini (fail-closed): {last_line(text)}"
    else:
        problem = f"exit {code}: Gemini reports the hook as failed" + (
            "" if text else " and, with no output, lets the action proceed")
    return replace(verdict, clean=False, problems=(problem,))


def _decision(rules: dict[str, Any], root: Path) -> tuple[bool | None, str | None]:
    """Gemini CLI 0.61.0's reading of its trusted folders for a workspace at ``root`` (or under
    it): of the rules whose folder (a TRUST_PARENT rule's parent) holds it, real paths compared,
    the longest rule path wins; a key is normalized as ``path.resolve`` does, the last of two
    equal ones counts. Returns (trusted, the winning rule as written), (None, None) if none."""
    location = os.path.realpath(root)
    normalized: dict[str, tuple[str, str]] = {}
    for raw, level in rules.items():
        if level in FOLDER_LEVELS:
            normalized[os.path.normpath(os.path.abspath(raw))] = (raw, level)
    longest, verdict, winner = -1, None, None
    for rule_path, (raw, level) in normalized.items():
        effective = os.path.dirname(rule_path) if level == TRUST_PARENT else rule_path
        if os.path.exists(effective):
            effective = os.path.realpath(effective)
        size = len(rule_path.encode("utf-16-le")) // 2  # JavaScript's string length
        if within(location, effective) and size > longest:
            longest, verdict, winner = size, level != DO_NOT_TRUST, raw
    return verdict, winner


def _forced_untrusted(env: Mapping[str, str]) -> str:
    """What in the environment makes every folder untrusted, or ""."""
    if env.get("GEMINI_RESTRICTED_MODE") == "true":
        return "GEMINI_RESTRICTED_MODE=true"
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        return "GEMINI_CLI_TRUST_WORKSPACE=false"
    return ""


def _folder_trust_off(data: Any) -> bool:
    security = data.get("security") if isinstance(data, dict) else None
    trust = security.get("folderTrust") if isinstance(security, dict) else None
    return isinstance(trust, dict) and trust.get("enabled") is False


def _read_settings(path: Any, label: str, text: str | None = None) -> Any:
    """A Gemini settings file's data; None when it is broken (doctor says so)."""
    try:
        return SETUP.settings_data(path, label, text)
    except SettingsError:
        return None


def _quoted_substitution(command: str) -> bool:
    """True when Gemini's textual ``$VAR`` substitution lands inside quotes: the value arrives
    already quoted, so the quotes end up inside the word."""
    quote = None
    for index, char in enumerate(command):
        if quote is None and char in "\"'":
            quote = char
        elif char == quote:
            quote = None
        elif quote is not None and re.compile(SUBSTITUTED_VARS).match(command, index):
            return True
    return False


SETUP = AgentSetup(GEMINI, GEMINI_COMMAND, registration=GeminiRegistration(), matchers=GeminiMatchers(),
                   handlers=GeminiHandlers(), answers=read_answer,
                   trust=GeminiTrust(file="${GEMINI_CLI_HOME:-~}/.gemini/trustedFolders.json",
                                     file_var="GEMINI_CLI_TRUSTED_FOLDERS_PATH",
                                     shown="~/.gemini/trustedFolders.json"),
                   host=GeminiHost(), doctor=GeminiDoctor())
