"""AgentSetup: the hookwrap command's half of a CLI's description, composed, the same way for
every CLI.

An AgentSetup holds the CLI's command facts (``facts``, a ``CommandFacts`` written in
``generator/clis/<platform>.py``), its runtime description (``runtime``, built from the record
and held, not inherited) and one object per behaviour, each named for what it does:

- ``registration``: how registrations are written (``Registration``: a JSON settings file
  hookwrap edits, each command in the record's ``command_form``, or walking up to hookwrap.toml
  where that is empty; a generated plugin; one file per event);
- ``matchers``: how a group's matcher is checked and which calls it selects;
- ``handlers``: what one entry may hold and how the CLI reads it (the handler shape);
- ``answers``: what the CLI does with a finished run, as `hookwrap test` reports it;
- ``trust``: where the CLI keeps its trust, if anywhere;
- ``host``: the rest of what `hookwrap test` emulates (the hook's environment, stdin, timeout);
- ``doctor``: what doctor says about the settings files beyond the schema.

Every rule that is the same for all CLIs is here, read from the record's facts; a behaviour
object's methods take the AgentSetup they serve, and generic code asks the behaviour that knows
(``agent.matchers.matcher_matches(agent, event, matcher, name)``). ``generator/clis/<platform>.py``
composes each CLI's (``SETUP``). Never copied into a project; a hook process never imports it.
"""

from __future__ import annotations

import json
import os
import re

from ...clis._base import FAIL_CLOSED_FLAG, LAUNCHER
from ...names import NormalizedEvent
from ..errors import SettingsError
from ..pins import PINS
from ..scope import USER_FLAG, current, user_root
from .kit import (
    FAIL,
    OK,
    OWNED_URL_RE,
    WARN,
    WARNING,
    Finding,
    HookCommand,
    OwnedEntry,
    Problem,
    RunResult,
    Scope,
    TrustEdit,
    Verdict,
    iter_owned,
    number_or_none,
    unknown_keys,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Callable, Mapping

    from ...clis._base import AgentCLI
    from ...clis._record import CLIRecord
    from ._facts import CommandFacts

    # What a CLI does with a finished run (``_answers``): (setup, event, result, on_failure).
    AnswerReader = Callable[["AgentSetup", str, RunResult, "str | None"], Verdict]


# The parts of a registered command that vary: the hook's name and the interpreter, which
# registrations shell-quote when it holds a space (and refuse when it holds shell syntax).
_NAME = r"(?P<name>[a-z][a-z0-9_-]{0,63})"
_WORD = r"(?:'[^']*'|[^\s'\"`$;&|<>()\\]+)"
_PYTHON = rf"(?P<python>{_WORD}(?: {_WORD})*)"
_NAME_MARK, _PYTHON_MARK = "\x00", "\x01"


class Registration:
    """How registrations are written, by default: a JSON settings file hookwrap edits (JSONC when
    the record's ``settings_comments``), each hook's command in the record's ``command_form``,
    or, where that is empty (a CLI that runs hooks in the session's cwd and names no project
    root: Codex CLI, Factory Droid), a command that walks up to hookwrap.toml."""

    def parse_settings_text(self, agent: AgentSetup, text: str, label: str) -> dict[str, Any]:
        """The settings document in ``text`` (``{"hooks": {event: [groups]}}`` and the CLI's
        other keys)."""
        from ..jsonc import parse

        return parse(text, label=label, allow_comments=agent.facts.settings_comments)

    def render_settings(self, agent: AgentSetup, data: dict[str, Any]) -> str | None:
        """A generated settings file's whole text for ``data``, None when it should not exist
        (only asked when ``settings_generated``)."""
        raise NotImplementedError

    def hook_files(self, agent: AgentSetup, root: Path,
                   text: str | None) -> tuple[list[tuple[str, bytes | None]], list[str]]:
        """Files made from the registration file's ``text`` (None: no file) beside it, each
        (project-relative path, bytes, or None to remove it), and problems hookwrap cannot fix
        (Cline's hook files). Default: none."""
        return [], []

    def command(self, agent: AgentSetup, name: str, python: str, launcher: bool) -> str:
        """The registered command that runs hook ``name`` with ``python``: the record's
        ``command_form`` filled in, or the walk-up loop when it is empty; at user scope, the
        user's launcher by its absolute path (``user_command``)."""
        if current().user:
            return user_command(agent.platform.value, name, python, launcher)
        if not agent.facts.command_form:
            return walk_up_command(agent.platform.value, name, python, launcher)
        script, args = hook_call(name, launcher)
        return agent.facts.command_form.format(python=python, script=script, args=args,
                                               platform=agent.platform.value)

    def handler(self, agent: AgentSetup, command: str, *, name: str, timeout_s: int,
                fail_closed: bool, event: NormalizedEvent, description: str) -> dict[str, Any]:
        """The handler object a settings file holds for one hook: the record's
        ``handler_keys`` in order, and its fail-closed key where the hook fails closed (a
        walk-up command then also blocks when it finds no hookwrap.toml)."""
        facts = agent.facts
        if fail_closed and not facts.command_form:
            command = walk_up_exit(command, True)
        values = {"type": "command", "command": command, "name": name,
                  "timeout": agent.timeout_value(timeout_s), "description": description}
        handler = {key: values[key] for key in facts.handler_keys}
        if fail_closed and facts.fail_closed_key and event in facts.fail_closed_events:
            handler[facts.fail_closed_key] = facts.fail_closed_value
        return handler

    def unreachable_note(self, agent: AgentSetup, root: Path) -> str | None:
        """Why the CLI runs none of the hooks registered in project ``root`` whatever its
        settings say (`add` and `sync` say so when they register one), or None."""
        return None

    def http_handler(self, agent: AgentSetup, url: str, *, timeout_s: int, fail_closed: bool,
                     event: NormalizedEvent) -> dict[str, Any] | None:
        """The handler that POSTs ``event``'s payloads to ``url`` (resident hooks), or None
        when the CLI runs only commands there."""
        return None

    def command_filter(self, agent: AgentSetup, patterns: list[str],
                       tool_names: list[str]) -> dict[str, Any]:
        """Handler keys that make the CLI itself skip shell calls no pattern matches ({}:
        the CLI has no such filter, and the runtime applies the patterns)."""
        return {}

    def tool_matcher(self, agent: AgentSetup, names: list[str]) -> str | None:
        """The matcher for a list of this CLI's own tool names (never empty)."""
        body = "|".join(names)
        return f"^{body}$" if len(names) == 1 else f"^({body})$"

    def lifecycle_matcher(self, agent: AgentSetup, values: list[str],
                          event: NormalizedEvent) -> str:
        """The matcher for exact lifecycle values (``startup``), already checked as known."""
        return "|".join(values)


class Matchers:
    """How a group's matcher is checked and which calls it selects. By default a group's
    matcher is a string, ignored (a warning) on the events whose matcher the CLI ignores."""

    null_message = "must be a string"

    def validate_group_keys(self, agent: AgentSetup, group: dict[str, Any], event: str,
                            path: str) -> list[Problem]:
        """Problems of a group's own keys (its matcher, Gemini's ``sequential``) under ``event``."""
        if "matcher" in group and not isinstance(group["matcher"], str):
            return [Problem(f"{path}.matcher", self.null_message)]
        if self.ignored(group) and event in agent.facts.no_matcher_events:
            return [Problem(f"{path}.matcher", f"is ignored on {event}", WARNING)]
        return []

    def ignored(self, group: dict[str, Any]) -> bool:
        """Whether a matcher the event ignores is worth a warning."""
        return "matcher" in group

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None,
                        target: str | None) -> bool:
        """Whether ``matcher`` selects a call whose match target is ``target``."""
        raise NotImplementedError

    def match_target(self, agent: AgentSetup, event: str,
                     payload: Mapping[str, Any]) -> str | None:
        """The payload value an event's matcher is tested against (``match_targets``); None
        when it has none."""
        key = agent.facts.match_targets.get(event)
        return None if key is None else str(payload.get(key, ""))


class Handlers:
    """What one entry of the settings file may hold, and how the CLI reads it (the command,
    its timeout in seconds, which entries run once or one after another)."""

    def validate_handler(self, agent: AgentSetup, handler: Any, event: str,
                         path: str) -> list[Problem]:
        """Problems of one handler as it would sit under ``event``: an object whose keys pass
        ``object_problems``."""
        if not isinstance(handler, dict):
            return [Problem(path, "must be an object")]
        return self.object_problems(agent, handler, event, path)

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str,
                        path: str) -> list[Problem]:
        """Problems of a handler that is an object."""
        raise NotImplementedError

    def validate_group(self, agent: AgentSetup, group: Any, event: str,
                       path: str) -> list[Problem]:
        """Problems of one matcher group under ``event``: an object whose own keys pass the
        matchers' ``validate_group_keys``, whose "hooks" is a list of handlers that pass
        ``validate_handler``, and which holds no key but ``group_keys``."""
        if not isinstance(group, dict):
            return [Problem(path, "must be an object with a \"hooks\" list")]
        problems = agent.matchers.validate_group_keys(agent, group, event, path)
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            problems.append(Problem(f"{path}.hooks", agent.facts.hooks_not_a_list))
        else:
            for index, handler in enumerate(handlers):
                problems += self.validate_handler(agent, handler, event, f"{path}.hooks[{index}]")
        return problems + unknown_keys(group, agent.facts.group_keys, path, agent.label)

    # What read_command reads of a handler besides its command, timeout and matcher: "name";
    # a fail-closed key, "onFailure" (as written) or "failClosed" (true: "block"); the group's
    # "sequential"; "env". The first of command_keys (timeout_keys) it holds is its command.
    reads: frozenset[str] = frozenset()
    command_keys: tuple[str, ...] = ("command",)
    timeout_keys: tuple[str, ...] = ("timeout",)

    def read_command(self, agent: AgentSetup, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:
        """A settings handler as a HookCommand (its timeout converted to seconds), with what
        the handler shape holds of ``reads``."""
        matcher, name, env = group.get("matcher"), handler.get("name"), handler.get("env")
        command = next((handler[key] for key in self.command_keys if key in handler), "")
        timeout = next((handler[key] for key in self.timeout_keys if key in handler), None)
        closed = handler.get("onFailure") if "onFailure" in self.reads else \
            "block" if "failClosed" in self.reads and handler.get("failClosed") is True else None
        return HookCommand(agent.platform.value, event, str(command),
                           agent.timeout_seconds(number_or_none(timeout)),
                           matcher if isinstance(matcher, str) else None,
                           name if "name" in self.reads and isinstance(name, str) else None,
                           closed, "sequential" in self.reads and bool(group.get("sequential")),
                           env if "env" in self.reads and isinstance(env, dict) else None)

    def dedup_key(self, agent: AgentSetup, cmd: HookCommand) -> str:
        """Commands with the same key run once per event."""
        return cmd.command

    def runs_sequentially(self, agent: AgentSetup, commands: tuple[HookCommand, ...]) -> bool:
        """Whether the selected commands run one after another."""
        return False


class TrustStore:
    """Where a CLI records that it trusts a project enough to run its hooks; this one: nowhere
    (no trust gate, nothing to say: Claude Code's project hooks are trusted with the folder)."""

    def trust_findings(self, agent: AgentSetup, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        """Whether the CLI trusts the project enough to run its hooks; [] without a gate."""
        return []

    def trust_edits(self, agent: AgentSetup, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None) -> list[TrustEdit]:
        """What `hookwrap trust` writes so the CLI runs the project's hookwrap hooks (computed
        from ``settings_text`` when given, else the project's settings file); [] when the CLI
        has no trust gate hookwrap can record."""
        return []

    def user_trust_edits(self, agent: AgentSetup, home: Path, env: Mapping[str, str],
                         settings_text: str | None) -> list[TrustEdit]:
        """What `hookwrap --user trust` writes so the CLI runs the user-level hookwrap hooks
        (``settings_text``: the user file as it will be, else as it is); [] when the CLI runs
        user hooks without trust."""
        return []

    def trust_dialog_accepted(self, agent: AgentSetup, root: Path, home: Path,
                              env: Mapping[str, str]) -> bool:
        """Whether the user accepted the CLI's folder trust dialog for ``root`` itself (what
        doctor counts as the user's trust in a folder without a trust gate)."""
        return False


NO_TRUST_GATE = TrustStore()


class HostRules:
    """The rest of what `hookwrap test` emulates of the CLI as a host, from the record's facts:
    the hook's environment (``hook_env_vars``; a payload's strings too, where
    ``payload_strings_in_env``), what its stdin holds, how long the CLI waits for it."""

    def hook_env(self, agent: AgentSetup, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        """``env`` plus the variables the CLI sets for its hooks."""
        if agent.facts.payload_strings_in_env:
            env.update({k: v for k, v in payload.items() if isinstance(v, str) and k.isidentifier()})
        values = {"project": project_dir, "session_id": str(payload.get("session_id", "")),
                  "pid": str(os.getpid()), "version": agent.version}
        env.update({k: v.format(**values) for k, v in agent.facts.hook_env_vars.items()})
        return env

    def expand_command(self, agent: AgentSetup, command: str, env: Mapping[str, str]) -> str:
        """The command text bash receives (some CLIs substitute variables first)."""
        return command

    def stdin_bytes(self, agent: AgentSetup, payload: Mapping[str, Any]) -> bytes:
        """Exactly what the CLI writes to a hook's stdin before it closes it."""
        return (json.dumps(payload) + ("\n" if agent.facts.stdin_newline else "")).encode()

    def effective_timeout(self, agent: AgentSetup, cmd: HookCommand) -> float:
        """Seconds the CLI waits for ``cmd`` before it kills it (a timeout of 0 or less is
        the default where ``nonpositive_timeout_is_default``; never past ``max_timeout_s``)."""
        facts = agent.facts
        if cmd.timeout_s is None or (facts.nonpositive_timeout_is_default and cmd.timeout_s <= 0):
            timeout = facts.default_timeout_s
        else:
            timeout = cmd.timeout_s
        return min(timeout, facts.max_timeout_s) if facts.max_timeout_s else timeout


HOST_RULES = HostRules()

_LEVELS = {"warn": WARN, "fail": FAIL}


class Doctor:
    """What doctor and validation say about the settings files beyond each group, from the
    record's facts: unknown events, the ``disable_key``, the ``doctor_command_checks`` and a
    timeout from ``suspicious_timeout_s`` on."""

    def validate_event(self, agent: AgentSetup, event: str, groups: Any,
                       path: str) -> list[Problem] | None:
        """Problems of an event key the CLI does not read; None to validate its groups."""
        if event not in agent.facts.known_settings_events:
            note = agent.facts.unknown_event_note or f"{agent.label} ignores it"
            return [Problem(path, f"unknown hook event; {note}", WARNING)]
        return None

    def validate_file(self, agent: AgentSetup, data: dict[str, Any]) -> list[Problem]:
        """Whole-file problems beyond ``hooks`` (a broken key that voids the file...): the
        record's ``disable_key`` set to true."""
        key = agent.facts.disable_key
        if key and data.get(key) is True:
            return [Problem(key, "is true: no hook runs", WARNING)]
        return []

    def hooks_off_findings(self, agent: AgentSetup, scopes: list[Scope]) -> list[Finding]:
        """Settings that switch this CLI's hooks (or hookwrap's) off: its ``disable_key``."""
        key = agent.facts.disable_key
        return [Finding("hooks-enabled", FAIL, f"{s.label}: {key} is true", f"remove {key} from {s.label}")
                for s in scopes if key and (s.data or {}).get(key) is True]

    def dead_key_findings(self, agent: AgentSetup, scopes: list[Scope]) -> list[Finding]:
        """Settings keys that look like they do something and that this CLI never reads."""
        return []

    def command_findings(self, agent: AgentSetup, scope: Scope, cmd: HookCommand) -> list[Finding]:
        """Findings about one registered command (quoting, matcher, timeout): the record's
        ``doctor_command_checks``, then a timeout past ``max_timeout_s`` (cut to it), and a
        timeout in seconds from ``suspicious_timeout_s`` on, which looks like milliseconds."""
        where = f"{scope.label}: {cmd.event} {cmd.command!r}"
        out = []
        for what, pattern, level, message, fix in agent.facts.doctor_command_checks:
            if what == "command":
                text = cmd.command
            elif not agent.is_tool_event(cmd.event):
                continue
            else:
                text = (cmd.matcher or "").strip() if what == "stripped matcher" else cmd.matcher or ""
            found = re.search(pattern, text)
            if found:  # {found}: the pattern's first group
                out.append(Finding("commands", _LEVELS[level], message.format(
                    where=where, matcher=text, found=found.group(found.lastindex or 0)), fix))
        timeout, limit = cmd.timeout_s, agent.facts.suspicious_timeout_s
        longest = agent.facts.max_timeout_s
        if longest and timeout is not None and timeout > longest:
            out.append(Finding("commands", WARN, f"{where}: timeout {timeout:g} s is cut to "
                               f"{longest} s: {agent.facts.max_timeout_why}", f"use {longest}"))
        if not limit or timeout is None or timeout < limit:
            return out
        out.append(Finding("commands", WARN, f"{where}: timeout {timeout:g} is seconds on "
                           f"{agent.label} and looks like milliseconds",
                           f"use {max(timeout / 1000, 1):g}"))
        return out


DOCTOR = Doctor()
JSON_SETTINGS = Registration()


class AgentSetup:
    """One CLI as the hookwrap command sees it: its record's facts, its runtime description and
    its behaviours. It answers what every CLI computes the same way from its facts (commands,
    timeouts, ownership, scopes); generic code asks its behaviours the rest."""

    def __init__(self, record: CLIRecord, facts: CommandFacts, *, matchers: Matchers,
                 handlers: Handlers, answers: AnswerReader,
                 registration: Registration = JSON_SETTINGS, trust: TrustStore = NO_TRUST_GATE,
                 host: HostRules = HOST_RULES, doctor: Doctor = DOCTOR) -> None:
        self.facts = facts
        self.runtime: AgentCLI = record.protocol(record)
        self.platform = record.platform
        self.label = record.label
        self.short_label = facts.short_label or record.label
        self.registration = registration
        self.matchers = matchers
        self.handlers = handlers
        self.answers = answers
        self.trust = trust
        self.host = host
        self.doctor = doctor

    @property
    def version(self) -> str:
        """The pinned release (generator/pins.txt): the one the tests install, and the newest
        the record's facts were checked against."""
        return PINS[self.platform.value].version

    @property
    def oldest_version(self) -> str:
        """The oldest release the end-to-end tests and the record's facts were also checked on."""
        return PINS[self.platform.value].oldest

    @property
    def npm_package(self) -> str:
        """Where the pinned binary comes from (generator/pins.txt)."""
        return PINS[self.platform.value].package

    def settings_data(self, path: Path, label: str, text: str | None = None) -> dict[str, Any]:
        """A settings file's data: ``text`` when given, else the file's; {} where there is none."""
        from ..fsutil import read_text

        if text is None:
            text = read_text(path, label)
        return self.registration.parse_settings_text(self, text, label) if text else {}

    # --- registrations ------------------------------------------------------------------------
    def command(self, name: str, python: str, *, launcher: bool = True) -> str:
        """The registered command that runs hook ``name`` with ``python``: through the launcher,
        or (``launcher=False``) the older form that runs the script itself (``hook_call``)."""
        return self.registration.command(self, name, python, launcher)

    def timeout_value(self, seconds: int) -> int:
        """A timeout in the CLI's own unit (``timeout_scale``; from ``timeout_ms_from`` seconds
        on, milliseconds: Qwen Code reads 1000 and more as milliseconds)."""
        facts = self.facts
        if facts.timeout_ms_from and seconds >= facts.timeout_ms_from:
            return seconds * 1000
        return seconds * facts.timeout_scale

    def timeout_seconds(self, value: float | None) -> float | None:
        """The inverse of ``timeout_value``: a settings file's timeout in seconds."""
        if value is None:
            return None
        if self.facts.timeout_ms_from and value >= self.facts.timeout_ms_from:
            return value / 1000
        return value / self.facts.timeout_scale

    def owned_name(self, command: str) -> str | None:
        """The hook's name when ``command`` is exactly a command hookwrap writes, else None.

        Only the exact forms count (the launcher's, and the older one that runs the script
        itself): a wrapper, an echo or another project's hook that merely mentions
        .hookwrap/hooks/<name>.py is the user's, and is never changed or removed.
        """
        # The forms differ by scope (a user command names the user folder): one cache each.
        key = f"_owned:{user_root()}" if current().user else "_owned"
        patterns: list[re.Pattern[str]] | None = self.__dict__.get(key)
        if patterns is None:
            patterns = [self._owned_pattern(flag) for flag in (True, False)]
            patterns += self._windows_patterns()
            self.__dict__[key] = patterns
        command = without_deadline(command.strip())
        if not self.facts.command_form:  # the fail-closed walk-up form differs in its exit code
            command = walk_up_exit(command, False)
        for pattern in patterns:
            match = pattern.fullmatch(command)
            if match:
                return match.group("name")
        return None

    def owned_handler(self, handler: Any) -> str | None:
        """The hook's name when ``handler`` runs a hookwrap hook in the exact form hookwrap
        writes for this CLI (a command, or a resident hook's URL), else None."""
        command = handler.get("command") if isinstance(handler, dict) else None
        if isinstance(command, str):
            return self.owned_name(command)
        url = handler.get("url") if isinstance(handler, dict) and handler.get("type") == "http" \
            else None
        match = OWNED_URL_RE.match(url) if isinstance(url, str) else None
        if match is None or match.group("platform") != self.platform.value:
            return None
        return match.group("name")

    def owned_entries(self, data: Any) -> list[OwnedEntry]:
        """Every hookwrap handler in a parsed settings file, in document order (malformed
        parts are skipped rather than reported: validation is the place for that)."""
        hooks = data.get("hooks") if isinstance(data, dict) else None
        return [OwnedEntry(name, event, gi, hi, group.get("matcher"), handler)
                for name, event, gi, hi, group, handler in iter_owned(hooks, self.owned_handler)]

    def _windows_patterns(self) -> list[re.Pattern[str]]:
        """The Windows form's patterns, where it can stand in the command itself (a CLI with
        one command for every OS, when hookwrap.toml names python_windows)."""
        from ..winforms import ONE_COMMAND, windows_command

        if self.platform.value not in ONE_COMMAND:
            return []
        return [self._owned_pattern(template=windows_command(
            self.platform.value, _NAME_MARK, _PYTHON_MARK, fail_closed=closed))
            for closed in (False, True)]

    def _owned_pattern(self, launcher: bool = True, template: str | None = None
                       ) -> re.Pattern[str]:
        """The pattern of a command hookwrap writes: ``template`` (a command with the name and
        interpreter marks), by default the CLI's own command through the launcher or not."""
        if template is None:
            template = self.command(_NAME_MARK, _PYTHON_MARK, launcher=launcher)
        regex, named = [], False
        for part in re.split(f"({_NAME_MARK}|{_PYTHON_MARK})", template):
            if part == _NAME_MARK:  # the name may appear more than once: the same each time
                regex.append("(?P=name)" if named else _NAME)
                named = True
            else:
                regex.append(_PYTHON if part == _PYTHON_MARK else re.escape(part))
        return re.compile("".join(regex))

    # --- the host rules `hookwrap test` emulates ----------------------------------------------
    def is_tool_event(self, event: str) -> bool:
        """True when ``event``'s matcher selects tool names."""
        return self.facts.match_targets.get(event) == "tool_name"

    def interpret(self, event: str, result: RunResult, on_failure: str | None = None) -> Verdict:
        """What the CLI does with a finished run for ``event`` (its own event name)."""
        return self.answers(self, event, result, on_failure)

    # --- doctor and trust -----------------------------------------------------------------------
    def scopes(self, root: Any, home: Any, env: Mapping[str, str]) -> list[tuple[str, Any, bool]]:
        """(label, path, is the project's file) of every settings file that can hold hooks:
        the project's file, then the record's ``scope_files``."""
        from pathlib import Path

        if current().user:  # the user file hookwrap keeps first, then the CLI's other user files
            if not self.facts.user_file:
                return []
            path = Path(fill_path(self.facts.user_file, root, home, env))
            return [(str(path), path, True)] + [
                (label, Path(fill_path(spec, root, home, env)), False)
                for label, spec, project in self.facts.scope_files
                if not project and Path(fill_path(spec, root, home, env)) != path]
        found = [(self.facts.settings_file, root / self.facts.settings_file, True)]
        for label, spec, project in self.facts.scope_files:
            found.append((label, Path(fill_path(spec, root, home, env)), project))
        return found

    def trust_findings(self, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        """Whether the CLI runs the hooks of the scope in force for want of no trust."""
        if current().user:
            return self._user_trust_findings(home, env)
        return self.trust.trust_findings(self, root, home, scopes, env)

    def _user_trust_findings(self, home: Path, env: Mapping[str, str]) -> list[Finding]:
        check = f"{self.platform.value}-trust"
        try:
            edits = self.trust.user_trust_edits(self, home, env, None)
        except SettingsError as error:
            return [Finding(check, FAIL, str(error), error.hint)]
        hooks = list(dict.fromkeys(c.entry.hook or c.entry.what for e in edits for c in e.pending))
        if not hooks:
            return [Finding(check, OK, f"{self.label} needs no trust for the user hooks, or "
                            "has it")]
        return [Finding(check, FAIL, f"{self.label} skips the user hook"
                        f"{'s' if len(hooks) > 1 else ''} {', '.join(hooks)} without a word: "
                        "they are not trusted", f"run `hookwrap --user trust --platform "
                        f"{self.platform.value}`")]

    def trust_edits(self, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        """The trust the scope in force needs: the project's (``root``), or the user's."""
        if current().user:
            return self.trust.user_trust_edits(self, home, env, settings_text)
        return self.trust.trust_edits(self, root, home, env, settings_text)


# The walk-up command's exit code when no folder above holds hookwrap.toml: 2 (a block) for a
# fail-closed hook, else 1.
WALK_UP_EXIT = {True: 2, False: 1}


def walk_up_command(platform: str, name: str, python: str, launcher: bool = True) -> str:
    """The registered command of a CLI whose hooks run in the session's cwd: a POSIX-sh loop
    that walks up to the folder holding hookwrap.toml and runs hook ``name`` there (exit 1, a
    fail-open error, when there is none; ``walk_up_exit`` makes it 2)."""
    script, args = hook_call(name, launcher)
    code = WALK_UP_EXIT[False]
    return ('d=$PWD; until [ -f "$d/hookwrap.toml" ]; do [ "$d" = / ] && { echo "hookwrap: '
            f'no hookwrap.toml in $PWD or above, so hook {name} cannot run" >&2; exit {code}; }}; '
            'd=${d%/*}; d=${d:-/}; done; '
            f'HOOKWRAP_PROJECT_DIR=$d exec {python} "$d/{script}" {args}--platform {platform}')


def user_command(platform: str, name: str, python: str, launcher: bool = True) -> str:
    """The registered command of a user-scope hook: the user folder's launcher (or script) by
    its absolute path, then ``--user``, which makes the launcher step aside for a project hook
    of the same name (launcher.py, ``project_wins``)."""
    import shlex

    script, args = hook_call(name, launcher)
    return (f"{python} {shlex.quote(str(user_root() / script))} {args}--platform {platform} "
            f"{USER_FLAG}")


def walk_up_exit(command: str, fail_closed: bool) -> str:
    """A walk-up command that, when it finds no hookwrap.toml, blocks (exit 2: ``fail_closed``)
    or fails open (exit 1); the two forms differ only in that exit code."""
    return command.replace(f"exit {WALK_UP_EXIT[not fail_closed]}; }}",
                           f"exit {WALK_UP_EXIT[fail_closed]}; }}", 1)


_DEADLINE_RE = re.compile(rf" {FAIL_CLOSED_FLAG}=[0-9]+(?:\.[0-9]+)?(?= --platform )")


def with_deadline(command: str, name: str, seconds: float) -> str:
    """A fail-closed hook's command: ``FAIL_CLOSED_FLAG`` and the seconds it has to answer,
    after the hook's name (``run.py guard --fail-closed=7 --platform gemini``)."""
    return command.replace(f" {name} --platform ", f" {name} {FAIL_CLOSED_FLAG}={seconds:g} "
                           "--platform ", 1)


def without_deadline(command: str) -> str:
    """The command without ``with_deadline``'s flag (the two are the same hook's)."""
    return _DEADLINE_RE.sub("", command, count=1)


def fill_path(spec: str, root: Any, home: Any, env: Mapping[str, str]) -> str:
    """A scope's path: ``{root}/...``, ``~/...``, or ``${VAR:-default}/...`` (VAR's value when
    set and not empty, else the default, itself ``~/...`` or a path)."""
    match = re.match(r"\$\{([A-Z0-9_]+):-([^}]*)\}(.*)", spec)
    if match:
        spec = (env.get(match.group(1)) or match.group(2)) + match.group(3)  # ~ below too
    if spec == "~" or spec.startswith("~/"):
        spec = str(home) + spec[1:]
    return spec.replace("{root}", str(root))


def hook_call(name: str, launcher: bool = True) -> tuple[str, str]:
    """(project-relative script, what follows it) of a registered command for hook ``name``:
    the launcher and the name (``run.py guard``), or, with ``launcher=False``, the script itself
    (the form hookwrap wrote before the launcher, still hookwrap's: sync rewrites it)."""
    return (LAUNCHER, f"{name} ") if launcher else (f".hookwrap/hooks/{name}.py", "")
