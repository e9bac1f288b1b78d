"""AgentSetup: the hookwrap command's half of a CLI's description, built from the CLI's record.

It reads the record's facts for the command (the registration file, the command and handler
forms, the tables of events, match targets, timeouts, hook variables and settings scopes) and
implements every rule that is the same for all CLIs from them. What a CLI does differently (how
it validates an entry, matches a matcher, reads a finished run, keeps its trust) is either a
family its record names (a Claude-dialect CLI: ``_claude_dialect.ClaudeDialectSetup``) or its
own ``generator/clis/<platform>.py``. Never copied into a project; a hook process never
imports it.
"""

from __future__ import annotations

import re

from ...clis._base import FAIL_CLOSED_FLAG, LAUNCHER, AgentCLI
from ...clis._record import SETUP_FACTS, CLIRecord
from ...names import NormalizedEvent
from ..pins import PINS
from .kit import (
    FAIL,
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
    unknown_keys,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping


# The parts of a registered command that vary: the hook's name and the interpreter, which
# registrations shell-quote when it holds a space (and refuse when it holds shell syntax).
_NAME = r"(?P<name>[a-z][a-z0-9_-]{0,63})"
_WORD = r"(?:'[^']*'|[^\s'\"`$;&|<>()\\]+)"
_PYTHON = rf"(?P<python>{_WORD}(?: {_WORD})*)"
_NAME_MARK, _PYTHON_MARK = "\x00", "\x01"


class AgentSetup(AgentCLI):
    """The defaults of the hookwrap command's half of a CLI's description."""

    # The record's facts for the command (documented in clis/_record.py).
    settings_file: str
    executable: str
    version_notes: tuple[tuple[str, NormalizedEvent, str], ...]
    config_folders: tuple[str, ...]
    settings_comments: bool
    settings_generated: bool
    settings_owned: bool
    known_settings_events: tuple[str, ...]
    unknown_event_note: str
    invalid_entry_drops_event: bool
    group_keys: frozenset[str]
    hooks_not_a_list: str
    no_matcher_events: frozenset[str]
    disable_key: str
    scope_files: tuple[tuple[str, str, bool], ...]
    command_form: str
    handler_keys: tuple[str, ...]
    fail_closed_key: str
    fail_closed_value: Any
    fail_closed_events: frozenset[NormalizedEvent]
    timeout_scale: int
    timeout_ms_from: int
    max_timeout_s: int
    tool_events: frozenset[NormalizedEvent]
    lifecycle_values: dict[NormalizedEvent, tuple[str, ...]]
    match_targets: dict[str, str]
    default_timeout_s: float
    stdin_newline: bool
    env_file_events: frozenset[str]
    hook_env_vars: dict[str, str]
    hook_shell: tuple[str, ...]
    empty_tool_response: Any
    payload_has_timestamp: bool
    system_message_shown: str
    suspicious_timeout_s: float
    doctor_reported_paths: frozenset[str]
    short_label: str
    matcher_rule: str
    matcher_aliases: dict[str, tuple[str, ...]]
    handler_schema: str
    answer_reader: str
    trust_store: str
    trust_facts: dict[str, Any]
    nonpositive_timeout_is_default: bool
    payload_strings_in_env: bool
    doctor_command_checks: tuple[tuple[str, str, str, str, str], ...]
    unhooked_shell: tuple[tuple[str, str, str], ...]

    def __init__(self, record: CLIRecord) -> None:
        super().__init__(record)
        for name in SETUP_FACTS:
            setattr(self, name, getattr(record, name))

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

    def parse_settings_text(self, text: str, label: str) -> dict[str, Any]:
        """The settings document in ``text`` (``{"hooks": {event: [groups]}}`` and the CLI's other
        keys). Default: the file is JSON (JSONC when ``settings_comments``)."""
        from ..jsonc import parse

        return parse(text, label=label, allow_comments=self.settings_comments)

    def render_settings(self, data: dict[str, Any]) -> str | None:
        """A generated settings file's whole text for ``data``, None when it should not exist
        (only asked when ``settings_generated``)."""
        raise NotImplementedError

    def hook_files(self, root: Any, text: str | None) -> tuple[list[tuple[str, bytes | None]],
                                                                list[str]]:
        """Files made from the registration file's ``text`` (None: no file) beside it, each
        (project-relative path, bytes, or None to remove it), and problems hookwrap cannot fix
        (Cline's hook files). Default: none."""
        return [], []

    def command(self, name: str, python: str, *, launcher: bool = True) -> str:
        """The registered command that runs hook ``name`` with ``python``: through the launcher,
        or (``launcher=False``) the older form that runs the script itself (``hook_call``);
        the record's ``command_form`` filled in."""
        script, args = hook_call(name, launcher)
        return self.command_form.format(python=python, script=script, args=args,
                                        platform=self.platform.value)

    def timeout_value(self, seconds: int) -> int:
        """A timeout in the CLI's own unit (``timeout_scale``; from ``timeout_ms_from`` seconds
        on, milliseconds: Qwen Code reads 1000 and more as milliseconds)."""
        if self.timeout_ms_from and seconds >= self.timeout_ms_from:
            return seconds * 1000
        return seconds * self.timeout_scale

    def timeout_seconds(self, value: float | None) -> float | None:
        """The inverse of ``timeout_value``: a settings file's timeout in seconds."""
        if value is None:
            return None
        if self.timeout_ms_from and value >= self.timeout_ms_from:
            return value / 1000
        return value / self.timeout_scale

    def owned_name(self, command: str) -> str | None:
        """The hook's name when ``command`` is exactly a command hookwrap writes, else None.

        Only the exact forms count (the launcher's, and the older one that runs the script
        itself): a wrapper, an echo or another project's hook that merely mentions
        .hookwrap/hooks/<name>.py is the user's, and is never changed or removed.
        """
        patterns: list[re.Pattern[str]] | None = self.__dict__.get("_owned")
        if patterns is None:
            patterns = [self._owned_pattern(flag) for flag in (True, False)]
            self.__dict__["_owned"] = patterns
        command = without_deadline(command.strip())
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

    def _owned_pattern(self, launcher: bool) -> re.Pattern[str]:
        template = self.command(_NAME_MARK, _PYTHON_MARK, launcher=launcher)
        regex, named = [], False
        for part in re.split(f"({_NAME_MARK}|{_PYTHON_MARK})", template):
            if part == _NAME_MARK:  # the name may appear more than once: the same each time
                regex.append("(?P=name)" if named else _NAME)
                named = True
            else:
                regex.append(_PYTHON if part == _PYTHON_MARK else re.escape(part))
        return re.compile("".join(regex))

    def handler(self, command: str, *, name: str, timeout_s: int, fail_closed: bool,
                event: NormalizedEvent, description: str) -> dict[str, Any]:
        """The handler object a settings file holds for one hook: the record's
        ``handler_keys`` in order, and its fail-closed key where the hook fails closed."""
        values = {"type": "command", "command": command, "name": name,
                  "timeout": self.timeout_value(timeout_s), "description": description}
        handler = {key: values[key] for key in self.handler_keys}
        if fail_closed and self.fail_closed_key and event in self.fail_closed_events:
            handler[self.fail_closed_key] = self.fail_closed_value
        return handler

    def http_handler(self, url: str, *, timeout_s: int, fail_closed: bool,
                     event: NormalizedEvent) -> dict[str, Any] | None:
        """The handler that POSTs ``event``'s payloads to ``url`` (resident hooks), or None
        when the CLI runs only commands there."""
        return None

    def command_filter(self, patterns: list[str], tool_names: list[str]) -> dict[str, Any]:
        """Handler keys that make the CLI itself skip shell calls no pattern matches ({}:
        the CLI has no such filter, and the runtime applies the patterns)."""
        return {}

    def tool_matcher(self, names: list[str]) -> str | None:
        """The matcher for a list of this CLI's own tool names (never empty)."""
        body = "|".join(names)
        return f"^{body}$" if len(names) == 1 else f"^({body})$"

    def lifecycle_matcher(self, values: list[str], event: NormalizedEvent) -> str:
        """The matcher for exact lifecycle values (``startup``), already checked as known."""
        return "|".join(values)

    # --- generator: validation (schema.py holds the value checks) --------------------------
    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        """Problems of one handler as it would sit under ``event``."""
        raise NotImplementedError

    def validate_group(self, group: Any, event: str, path: str) -> list[Problem]:
        """Problems of one matcher group under ``event``: an object whose own keys pass
        ``validate_group_keys``, whose "hooks" is a list of handlers that pass
        ``validate_handler``, and which holds no key but ``group_keys``."""

        if not isinstance(group, dict):
            return [Problem(path, "must be an object with a \"hooks\" list")]
        problems = self.validate_group_keys(group, event, path)
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            problems.append(Problem(f"{path}.hooks", self.hooks_not_a_list))
        else:
            for index, handler in enumerate(handlers):
                problems += self.validate_handler(handler, event, f"{path}.hooks[{index}]")
        return problems + unknown_keys(group, self.group_keys, path, self.label)

    def validate_group_keys(self, group: dict[str, Any], event: str, path: str) -> list[Problem]:
        """Problems of a group's own keys (its matcher, Gemini's ``sequential``) under ``event``."""
        raise NotImplementedError

    def validate_event(self, event: str, groups: Any, path: str) -> list[Problem] | None:
        """Problems of an event key the CLI does not read; None to validate its groups."""
        if event not in self.known_settings_events:
            note = self.unknown_event_note or f"{self.label} ignores it"
            return [Problem(path, f"unknown hook event; {note}", WARNING)]
        return None

    def validate_file(self, data: dict[str, Any]) -> list[Problem]:
        """Whole-file problems beyond ``hooks`` (a broken key that voids the file...): the
        record's ``disable_key`` set to true."""
        if self.disable_key and data.get(self.disable_key) is True:
            return [Problem(self.disable_key, "is true: no hook runs", WARNING)]
        return []

    # --- generator: the host rules `hookwrap test` emulates --------------------------------
    def match_target(self, event: str, payload: Mapping[str, Any]) -> str | None:
        """The payload value an event's matcher is tested against (``match_targets``); None
        when it has none."""
        key = self.match_targets.get(event)
        return None if key is None else str(payload.get(key, ""))

    def is_tool_event(self, event: str) -> bool:
        """True when ``event``'s matcher selects tool names."""
        return self.match_targets.get(event) == "tool_name"

    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:
        """Whether ``matcher`` selects a call whose match target is ``target``."""
        raise NotImplementedError

    def dedup_key(self, cmd: HookCommand) -> str:
        """Commands with the same key run once per event."""
        return cmd.command

    def runs_sequentially(self, commands: tuple[HookCommand, ...]) -> bool:
        """Whether the selected commands run one after another."""
        return False

    def hook_env(self, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        """``env`` plus the variables the CLI sets for its hooks (``hook_env_vars``)."""
        import os

        values = {"project": project_dir, "session_id": str(payload.get("session_id", "")),
                  "pid": str(os.getpid()), "version": self.version}
        env.update({k: v.format(**values) for k, v in self.hook_env_vars.items()})
        return env

    def expand_command(self, command: str, env: Mapping[str, str]) -> str:
        """The command text bash receives (some CLIs substitute variables first)."""
        return command

    def stdin_bytes(self, payload: Mapping[str, Any]) -> bytes:
        """Exactly what the CLI writes to a hook's stdin before it closes it."""
        import json

        return (json.dumps(payload) + ("\n" if self.stdin_newline else "")).encode()

    def effective_timeout(self, cmd: HookCommand) -> float:
        """Seconds the CLI waits for ``cmd`` before it kills it."""
        return self.default_timeout_s if cmd.timeout_s is None else cmd.timeout_s

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:
        """A settings handler as a HookCommand (timeouts converted to seconds)."""
        raise NotImplementedError

    def interpret(self, event: str, result: RunResult, on_failure: str | None) -> Verdict:
        """What the CLI does with a finished run for ``event`` (its own event name)."""
        raise NotImplementedError

    # --- generator: doctor ------------------------------------------------------------------
    def scopes(self, root: Any, home: Any, env: Mapping[str, str]) -> list[tuple[str, Any, bool]]:
        """(label, path, is the project's file) of every settings file that can hold hooks:
        the project's file, then the record's ``scope_files``."""
        from pathlib import Path

        found = [(self.settings_file, root / self.settings_file, True)]
        for label, spec, project in self.scope_files:
            found.append((label, Path(fill_path(spec, root, home, env)), project))
        return found

    def trust_findings(self, root: Any, home: Any, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        """Whether the CLI trusts the project enough to run its hooks; [] without a trust gate."""
        return []

    def trust_edits(self, root: Any, home: Any, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        """What `hookwrap trust` writes so this CLI runs the project's hookwrap hooks (computed
        from ``settings_text`` when given, else the project's settings file); [] when the CLI
        has no trust gate hookwrap can record."""
        return []

    def hooks_off_findings(self, scopes: list[Scope]) -> list[Finding]:
        """Settings that switch this CLI's hooks (or hookwrap's) off: its ``disable_key``."""
        key = self.disable_key
        return [Finding("hooks-enabled", FAIL, f"{s.label}: {key} is true", f"remove {key} from {s.label}")
                for s in scopes if key and (s.data or {}).get(key) is True]

    def dead_key_findings(self, scopes: list[Scope]) -> list[Finding]:
        """Settings keys that look like they do something and that this CLI never reads."""
        return []

    def command_findings(self, scope: Scope, cmd: HookCommand) -> list[Finding]:
        """Findings about one registered command of this CLI (quoting, matcher, timeout): a
        timeout in seconds from ``suspicious_timeout_s`` on looks like milliseconds."""
        timeout, limit = cmd.timeout_s, self.suspicious_timeout_s
        if not limit or timeout is None or timeout < limit:
            return []
        return [Finding("commands", WARN, f"{scope.label}: {cmd.event} {cmd.command!r}: timeout "
                        f"{timeout:g} is seconds on {self.label} and looks like milliseconds",
                        f"use {max(timeout / 1000, 1):g}")]

    def unreachable_note(self, root: Any) -> str | None:
        """Why this CLI runs none of the hooks registered in project ``root`` whatever its
        settings say (`add` and `sync` say so when they register one), or None."""
        return None

    def env_file_event(self, event: str) -> bool:
        """Whether hooks of ``event`` get a CLAUDE_ENV_FILE to append exports to."""
        return event in self.env_file_events


# The walk-up command's exit code when no folder above holds hookwrap.toml: 2 (a block) for a
# fail-closed hook, else 1.
WALK_UP_EXIT = {True: 2, False: 1}


class FindsProjectRoot(AgentSetup):
    """Registrations for a CLI that runs hooks in the session's cwd and names no project root
    (Codex CLI): the command walks up to the directory holding hookwrap.toml
    (``walk_up_command``), then runs the hook there. Put it before the CLI's other setup base:
    ``class X(XCLI, FindsProjectRoot, AgentSetup)``. (A Claude-dialect CLI gets the same from
    an empty ``command_form``.)"""

    def command(self, name: str, python: str, *, launcher: bool = True) -> str:
        return walk_up_command(self.platform.value, name, python, launcher)

    def owned_name(self, command: str) -> str | None:
        # The fail-closed form differs only in its exit code (handler() below).
        return super().owned_name(walk_up_fail_open(command))

    def handler(self, command: str, *, name: str, timeout_s: int, fail_closed: bool,
                event: NormalizedEvent, description: str) -> dict[str, Any]:
        if fail_closed:
            command = walk_up_fail_closed(command)
        return {"type": "command", "command": command, "timeout": timeout_s}


def walk_up_command(platform: str, name: str, python: str, launcher: bool = True) -> str:
    """The registered command of a CLI whose hooks run in the session's cwd: a POSIX-sh loop
    that walks up to the folder holding hookwrap.toml and runs hook ``name`` there (exit 1, a
    fail-open error, when there is none; ``walk_up_fail_closed`` makes it 2)."""
    script, args = hook_call(name, launcher)
    code = WALK_UP_EXIT[False]
    return ('d=$PWD; until [ -f "$d/hookwrap.toml" ]; do [ "$d" = / ] && { echo "hookwrap: '
            f'no hookwrap.toml in $PWD or above, so hook {name} cannot run" >&2; exit {code}; }}; '
            'd=${d%/*}; d=${d:-/}; done; '
            f'HOOKWRAP_PROJECT_DIR=$d exec {python} "$d/{script}" {args}--platform {platform}')


def walk_up_fail_closed(command: str) -> str:
    """A walk-up command that blocks (exit 2) when it finds no hookwrap.toml."""
    return command.replace(f"exit {WALK_UP_EXIT[False]}; }}", f"exit {WALK_UP_EXIT[True]}; }}", 1)


def walk_up_fail_open(command: str) -> str:
    """The fail-open form of a walk-up command (the two differ only in that exit code)."""
    return command.replace(f"exit {WALK_UP_EXIT[True]}; }}", f"exit {WALK_UP_EXIT[False]}; }}", 1)


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


def nonempty_matcher_problems(group: dict[str, Any], path: str) -> list[Problem]:
    """A group's matcher, where a CLI takes any non-empty string (Copilot CLI, OpenCode's plugin)."""

    if "matcher" in group and (not isinstance(group["matcher"], str) or not group["matcher"]):
        return [Problem(f"{path}.matcher", "must be a non-empty string")]
    return []


def hook_call(name: str, launcher: bool = True) -> tuple[str, str]:
    """(project-relative script, what follows it) of a registered command for hook ``name``:
    the launcher and the name (``run.py guard``), or, with ``launcher=False``, the script itself
    (the form hookwrap wrote before the launcher, still hookwrap's: sync rewrites it)."""
    return (LAUNCHER, f"{name} ") if launcher else (f".hookwrap/hooks/{name}.py", "")
