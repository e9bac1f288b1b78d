"""Codex CLI: what the hookwrap command needs to know about it (a hook process needs only
``clis/codex.py``, the record the setup here is composed from).

The `.codex/hooks.json` entries hookwrap writes (seconds; commands that find the project from
any working directory, since Codex sets no project-dir variable and runs hooks in the session's
cwd), their validation, trust (project trust and each hook's ``trusted_hash`` in
``$CODEX_HOME/config.toml``), the rules `hookwrap test` emulates, and doctor's checks.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from ...clis._base import BLOCKING, answer_fields
from ...clis._codex_protocol import CodexProtocol
from ...clis.codex import CODEX
from ...names import NormalizedEvent, Platform
from ..errors import HookwrapError, SettingsError
from ._base import AgentSetup, Handlers, HostRules, Matchers, Registration, TrustStore
from ._facts import CommandFacts
from .kit import (
    ERROR,
    FAIL,
    OK,
    WARN,
    WARNING,
    Check,
    Finding,
    HookCommand,
    Problem,
    RunResult,
    Scope,
    TrustEdit,
    TrustEntry,
    Verdict,
    answered,
    boolean,
    check_keys,
    failed,
    failure_line,
    is_number,
    last_line,
    missing_script,
    nonempty_string,
    object_,
    one_of,
    retold,
    set_toml_values,
    settle,
    stop_or_block,
    string,
    unknown_keys,
)

# The hookwrap command's facts (checked against the version in the record).
CODEX_COMMAND = CommandFacts(
    settings_file=".codex/hooks.json",  # strict JSON: a trailing comma voids the whole file
    user_file="${CODEX_HOME:-~/.codex}/hooks.json",
    executable="codex",
    known_settings_events=(
        "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
        "SessionStart", "SessionEnd", "UserPromptSubmit", "SubagentStart", "SubagentStop",
        "Stop", "Interrupt",
    ),
    unknown_event_note="Codex CLI ignores it without a word",
    # Events whose matcher Codex drops (the hook always runs).
    no_matcher_events=frozenset({"UserPromptSubmit", "Stop", "Interrupt"}),
    scope_files=(("$CODEX_HOME/hooks.json", "${CODEX_HOME:-~/.codex}/hooks.json", False),),
    command_form="",  # walks up from the session's cwd to hookwrap.toml
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL, NormalizedEvent.PERMISSION_REQUEST}),
    lifecycle_values={
        NormalizedEvent.SESSION_START: ("startup", "resume", "clear", "compact", "fork"),
        NormalizedEvent.SESSION_END: ("other",),
        NormalizedEvent.PRE_COMPACT: ("manual", "auto"),
        NormalizedEvent.POST_COMPACT: ("manual", "auto"),
    },
    match_targets={**dict.fromkeys(("PreToolUse", "PostToolUse", "PermissionRequest"), "tool_name"),
                   "SessionStart": "source", "PreCompact": "trigger", "PostCompact": "trigger",
                   "SessionEnd": "reason", "SubagentStart": "agent_type",
                   "SubagentStop": "agent_type"},
    default_timeout_s=600.0,
    empty_tool_response="",  # tool_response is the text the model sees, not an object
    system_message_shown="for the user: shown in the TUI only, not by `codex exec`",
    suspicious_timeout_s=1000,  # seconds; almost surely meant as milliseconds
    doctor_command_checks=(
        *(("command", var, "fail", f"{{where}}: Codex CLI sets no {var} (nor any project-dir "
           "variable) and runs hooks in the session's cwd",
           "run `hookwrap sync`, whose command finds the project itself")
          for var in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")),
        # An exact name list naming another CLI's shell tool: Codex CLI's is Bash.
        ("matcher", r"^(?=[A-Za-z0-9_|]+$)(?:.*?\|)??(exec_command|shell|shell_command|unified_exec"
         r"|local_shell|bash)(?:\||$)", "warn",
         "{where}: matcher name {found!r} never matches: Codex CLI calls its shell tool Bash",
         "use Bash"),
    ),
)

# Hook events (as hooks.json spells them) and the labels of trust keys and hashes.
EVENT_LABELS = {
    "PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
    "SessionStart": "session_start", "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop", "Stop": "stop", "Interrupt": "interrupt",
}
# Events whose matcher Codex drops (the hook always runs); it is then not part of the hash.
_NO_MATCHER = frozenset({"UserPromptSubmit", "Stop", "Interrupt"})
_SHUTDOWN = frozenset({"SessionEnd", "Interrupt"})  # default 1 s, clamped to 1..3 s
_TOOL_EVENTS = frozenset(k for k, v in CODEX_COMMAND.match_targets.items() if v == "tool_name")
# The names a call of apply_patch matches (Claude-style aliases).
_PATCH_ALIASES = ("apply_patch", "Edit", "Write")
_SIMPLE = re.compile(r"^[A-Za-z0-9_|]+$")  # an exact name list; anything else is a regex
_HANDLER_TYPES = ("command", "mcp_tool", "prompt", "agent")
# Shell-tool names a matcher might try; only "Bash" ever matches the shell tool.
FAIL_OPEN = "Codex CLI ignores the answer (status Failed) and goes on: the tool runs"


class CodexRegistration(Registration):
    """Walk-up commands (Codex CLI names no project root), and tool matchers that name apply_patch once for Write and Edit."""

    def tool_matcher(self, agent: AgentSetup, names: list[str]) -> str | None:
        names = list(dict.fromkeys("apply_patch" if n in _PATCH_ALIASES else n for n in names))
        if all(re.match(r"^[A-Za-z0-9_]+$", n) for n in names):
            return "|".join(names)  # an exact list
        return super().tool_matcher(agent, names)  # an unanchored regex: anchor it


class CodexMatchers(Matchers):
    """An exact ``|`` list, else an unanchored regex (Rust's regex crate) searched in the name; apply_patch matched by its aliases too."""

    def validate_group_keys(self, agent: AgentSetup, group: dict[str, Any], event: str, path: str) -> list[Problem]:
        matcher = group.get("matcher")
        if "matcher" in group and not isinstance(matcher, str):
            return [Problem(f"{path}.matcher", "must be a string")]
        if isinstance(matcher, str) and event in agent.facts.no_matcher_events and matcher not in ("", "*"):
            return [Problem(f"{path}.matcher", f"is ignored on {event}", WARNING)]
        if isinstance(matcher, str) and not _SIMPLE.match(matcher) and matcher not in ("", "*"):
            try:
                re.compile(matcher)
            except re.error as error:
                return [Problem(f"{path}.matcher", f"is not a valid regex ({error}); "
                                "Codex CLI drops this group")]
        return []

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None, target: str | None) -> bool:
        if target is None or matcher is None or matcher in ("", "*") or event in agent.facts.no_matcher_events:
            return True
        names = set(_PATCH_ALIASES) if event in _TOOL_EVENTS and target == "apply_patch" else {target}
        if _SIMPLE.match(matcher):
            return bool(set(matcher.split("|")) & names)
        try:
            compiled = re.compile(matcher)  # Rust's regex crate; unanchored
        except re.error:
            return False  # Codex drops the group: the hook never runs
        return any(compiled.search(name) for name in names)


class CodexHandlers(Handlers):
    """Command handlers with a timeout in seconds (and ``statusMessage``); other handler types are skipped."""

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        kind = handler.get("type")
        if kind not in _HANDLER_TYPES:
            return [Problem(f"{path}.type", "must be one of " + ", ".join(map(repr, _HANDLER_TYPES)))]
        spec: dict[str, Any] = {"type": one_of(*_HANDLER_TYPES), "timeout": _whole_number("seconds"),
                                "async": boolean, "statusMessage": string,
                                "additionalContextLimit": _whole_number("tokens (0 = never spill to a file)")}
        required: tuple[str, ...] = ()
        if kind == "command":
            spec.update(command=nonempty_string, commandWindows=string, command_windows=string)
            required = ("command",)
        elif kind == "mcp_tool":
            spec.update(server=nonempty_string, tool=nonempty_string, input=object_)
            required = ("server", "tool")
        else:
            spec.update(prompt=string, model=string)
        problems = check_keys(handler, spec, required, path, ERROR)
        if kind in ("prompt", "agent"):
            problems.append(Problem(f"{path}.type", f"{kind} hooks are skipped by Codex CLI "
                                    "0.169.0 (\"not supported yet\")", WARNING))
        timeout = handler.get("timeout")
        if isinstance(timeout, (int, float)) and is_number(timeout) and timeout >= agent.facts.suspicious_timeout_s:
            problems.append(Problem(f"{path}.timeout", f"is in seconds; {timeout:g}s looks like "
                                    "milliseconds", WARNING))
        return problems + unknown_keys(handler, frozenset(spec), path, "Codex CLI")


class CodexHost(HostRules):
    """Compact JSON on stdin, and Codex's timeouts: at least 1 s, 600 s by default, 1 to 3 s on shutdown events."""

    def stdin_bytes(self, agent: AgentSetup, payload: Mapping[str, Any]) -> bytes:
        return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()

    def effective_timeout(self, agent: AgentSetup, cmd: HookCommand) -> float:
        return float(_seconds(cmd.event, cmd.timeout_s))


class CodexTrust(TrustStore):
    """Project trust and each hook's ``trusted_hash`` in ``$CODEX_HOME/config.toml``."""

    def trust_edits(self, agent: AgentSetup, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        rel = agent.facts.settings_file
        entries = _trust_entries(root, agent.settings_data(root / rel, rel, settings_text))
        if not entries:
            return []
        found = codex_root(root)
        if found != root.resolve():  # trusting this folder would change nothing Codex reads
            path = codex_home(home, env) / "config.toml"
            return [TrustEdit(Platform.CODEX, path, str(path), None, todo=[
                f"Codex CLI finds a project by its .git: it reads {found}/.codex/, never "
                f"{root}/.codex/; run hookwrap at the root of the git repository"])]
        return _config_edits(home, env, entries)

    def user_trust_edits(self, agent: AgentSetup, home: Path, env: Mapping[str, str],
                         settings_text: str | None) -> list[TrustEdit]:
        """A trusted_hash per hookwrap hook of ``$CODEX_HOME/hooks.json``: Codex CLI 0.171.0 skips
        an untrusted user hook as silently as a project's (reference/codex-cli.md, 1.4); no project
        trust, since a user hook runs in every folder."""
        source = codex_home(home, env).resolve() / "hooks.json"
        entries = _hash_entries(source, SETUP.settings_data(source, str(source), settings_text))
        return _config_edits(home, env, entries) if entries else []

    def trust_findings(self, agent: AgentSetup, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        project = next((s for s in scopes if s.project), None)
        if project is None or not _trust_entries(root, project.data or {}):
            return [Finding("codex-trust", OK, "no hookwrap hooks for Codex CLI to trust")]
        out = [] if (root / ".git").exists() else [Finding(
            "codex-trust", WARN, f"{root} has no .git: Codex CLI loads its .codex/ only when started "
            "in this directory itself", "`git init` here")]
        try:
            edits = self.trust_edits(agent, root, home, env, None)
            config = _read_toml(codex_home(home, env) / "config.toml")
        except (HookwrapError, ValueError) as error:
            hint = getattr(error, "hint", "") or "fix $CODEX_HOME/config.toml"
            return [*out, Finding("codex-trust", FAIL, str(error), hint)]
        todo = [line for edit in edits for line in edit.todo]
        if todo:  # what `hookwrap trust` cannot do, in its words
            return [Finding("codex-trust", FAIL, line) for line in todo]
        table = config.get("features")
        features: dict[str, Any] = table if isinstance(table, dict) else {}
        if features.get("hooks") is False:
            out.append(Finding("hooks-enabled", FAIL, "$CODEX_HOME/config.toml: [features] hooks = "
                               "false, so Codex CLI runs no hook", "remove it, or set it to true"))
        fix = "run `hookwrap trust --platform codex`"
        for change in (c for e in edits for c in e.pending):
            what = change.entry.what
            if not change.entry.hook:
                message = f"{root} is not a trusted project: Codex CLI skips its .codex/ without a word"
            elif change.action == "create":
                message = f"{what} is not trusted: Codex CLI skips it without a word"
            else:
                message = (f"{what} changed since it was trusted (command, matcher, timeout or its "
                           "place in .codex/hooks.json): Codex CLI skips it without a word")
            out.append(Finding("codex-trust", FAIL, message, fix))
        state = config.get("hooks", {}).get("state", {}) if isinstance(config.get("hooks"), dict) else {}
        for change in (c for e in edits for c in e.changes if c.entry.hook):
            entry = state.get(change.entry.keys[2]) if isinstance(state, dict) else None
            if isinstance(entry, dict) and entry.get("enabled") is False:
                out.append(Finding("hooks-enabled", FAIL, f"{change.entry.what} is disabled in "
                                   "$CODEX_HOME/config.toml (hooks.state ... enabled = false)",
                                   "remove `enabled = false` from its [hooks.state] table"))
        return out or [Finding("codex-trust", OK, "Codex CLI trusts the project and every hookwrap hook")]


def codex_home(home: Any, env: Mapping[str, str]) -> Any:
    """``$CODEX_HOME``, else ``~/.codex``."""
    value = env.get("CODEX_HOME")
    return Path(value).expanduser() if value else Path(home) / ".codex"


def _whole_number(of: str) -> Check:
    def check(value: Any) -> str | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        return None if ok else f"must be a whole number of {of}"

    return check


def read_answer(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """What Codex CLI does with a finished run: the runtime's reading (the bridge's too), with
    what went wrong said."""
    failure = failure_line(r)
    if failure:  # a timeout, a signal, a spawn error: Failed, fail open
        return failed(f"{failure}; {FAIL_OPEN}")
    known = agent.runtime.knows_event(event)  # not Interrupt: no hook of hookwrap's runs there
    fields = agent.runtime.read_answer(agent.runtime.normalize_event(event), r.exit_code or 0,
                                       r.stdout, r.stderr) if known else {}
    if r.exit_code == 2:
        if not r.stderr.strip():
            return failed(f"exit 2 with nothing on stderr: {FAIL_OPEN}")
        if not fields:
            return failed(f"exit 2 cannot block {event} on Codex CLI: it counts as Failed")
        notes = ("the tool already ran; the model sees the reason instead of its output",) \
            if event == "PostToolUse" else ()
        verdict = Verdict(stop_or_block(event), reason=fields["reason"], success=False, notes=notes)
        missing = missing_script(r)
        if missing:  # python3's own exit 2 ("can't open file") is read as a deny too
            return replace(verdict, clean=False, problems=(
                f"{missing}; Codex CLI reads this exit 2 as a block",))
        return verdict
    if r.exit_code != 0:
        return failed(f"exit {r.exit_code}: {FAIL_OPEN}" + (
            f" ({last_line(r.stderr)})" if r.stderr.strip() else ""))
    return _stdout(agent, event, r.stdout, fields)


def _stdout(agent: AgentSetup, event: str, stdout: str, fields: dict[str, Any]) -> Verdict:
    text = stdout.strip()
    if not text:
        return Verdict()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        if text.startswith("{") or event == "Stop":
            return Verdict(clean=False, problems=(f"stdout is not one JSON object: {FAIL_OPEN}",))
        if fields.get("context"):
            return Verdict("context", context=text)
        return Verdict(notes=(f"plain stdout on {event} is ignored by Codex CLI",))
    assert isinstance(agent.runtime, CodexProtocol)
    problems = agent.runtime.answer_problems(event, data)
    if problems:
        return Verdict(output=data, clean=False, problems=tuple(f"{p}: {FAIL_OPEN}" for p in problems))
    if not agent.runtime.knows_event(event):
        fields = answer_fields(data)
    notes = ("systemMessage is not shown in `codex exec` (a warning entry in the TUI only)",) \
        if data.get("systemMessage") else ()
    base = answered(data, fields, notes=notes, system_message=fields.get("system_message", ""))
    decision = fields.get("decision")
    if decision in BLOCKING:
        return settle(base, stop_or_block(event), fields.get("reason", ""))
    # No decision on PermissionRequest: Codex goes on to its own prompt, which asks the user.
    return settle(base, "ask" if event == "PermissionRequest" and decision != "allow" else None,
                  fields.get("reason", ""))


def trusted_hash(event: str, handler: Mapping[str, Any], matcher: str | None = None) -> str:
    """The ``trusted_hash`` Codex CLI 0.169.0 stores for one command handler of ``event``.

    sha256 of the compact, key-sorted, non-ASCII-escaped JSON of ``{"event_name": <label>,
    "matcher": <as written; left out when absent and on UserPromptSubmit, Stop, Interrupt>,
    "hooks": [<handler>]}``, the handler normalized: type, command, timeout (default 600 s, at
    least 1; SessionEnd and Interrupt: default 1, clamped to 1..3), async as written, and
    statusMessage / additionalContextLimit only when set. Checked against the binary's own
    ``hooks/list`` (tests/e2e/test_codex_smoke.py).
    """
    import hashlib

    normalized: dict[str, Any] = {"type": "command", "command": handler["command"],
                                  "timeout": _seconds(event, handler.get("timeout")),
                                  "async": bool(handler.get("async", False))}
    for key in ("statusMessage", "additionalContextLimit"):
        if handler.get(key) is not None:
            normalized[key] = handler[key]
    identity: dict[str, Any] = {"event_name": EVENT_LABELS[event], "hooks": [normalized]}
    if matcher is not None and event not in _NO_MATCHER:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _seconds(event: str, timeout: Any) -> int:
    """How long Codex CLI gives a hook: at least 1 s, 600 s by default; on SessionEnd and
    Interrupt 1 s by default, 1 to 3 s."""
    if event in _SHUTDOWN:
        return min(max(1, 1 if timeout is None else int(timeout)), 3)
    return max(1, 600 if timeout is None else int(timeout))


def codex_root(root: Path) -> Path:
    """Where Codex looks for ``.codex/``: the nearest ancestor holding ``.git``, else ``root``
    itself (Codex then uses the directory it was started in)."""
    root = root.resolve()
    return next((d for d in (root, *root.parents) if (d / ".git").exists()), root)


def _trust_entries(root: Path, data: Any) -> list[Any]:
    """Project trust, then one trusted_hash per hookwrap command hook of ``data`` (hooks.json)."""
    real = root.resolve()
    if not _hook_entries(data):
        return []
    return [TrustEntry(("projects", str(real), "trust_level"), "trusted", "the project"),
            *_hash_entries(real / ".codex" / "hooks.json", data)]


def _hook_entries(data: Any) -> list[Any]:
    return [e for e in SETUP.owned_entries(data)
            if e.event in EVENT_LABELS and e.handler.get("type") == "command"]


def _hash_entries(source: Path, data: Any) -> list[Any]:
    """One trusted_hash per hookwrap command hook of ``data``, the hooks file at ``source``."""
    entries = []
    for e in _hook_entries(data):
        key = f"{source}:{EVENT_LABELS[e.event]}:{e.group_index}:{e.handler_index}"
        matcher = e.matcher if isinstance(e.matcher, str) else None
        entries.append(TrustEntry(("hooks", "state", key, "trusted_hash"),
                                  trusted_hash(e.event, e.handler, matcher),
                                  f"hook {e.name} ({e.event})", e.name))
    return entries


def _config_edits(home: Path, env: Mapping[str, str], entries: list[Any]) -> list[TrustEdit]:
    """``entries`` set in ``$CODEX_HOME/config.toml``."""
    from ..fsutil import read_text

    path = codex_home(home, env) / "config.toml"
    label = str(path)
    try:
        text = read_text(path, label)
    except SettingsError as error:
        raise retold(error) from None
    new_text, changes = set_toml_values(text, entries, label=label)
    return [TrustEdit(Platform.CODEX, path, label, new_text, changes)]


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib  # novm: the generator half runs in the installed hookwrap (Python 3.11+)

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"{path}: cannot be read ({error})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML ({error})") from None


SETUP = AgentSetup(CODEX, CODEX_COMMAND, registration=CodexRegistration(), matchers=CodexMatchers(),
                   handlers=CodexHandlers(), answers=read_answer, trust=CodexTrust(),
                   host=CodexHost())
