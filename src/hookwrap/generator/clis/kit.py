"""The vocabulary each CLI's generator half is written in: plain value types and pure helpers.

Settings problems and the value checks they are built from (``Problem``, ``check_keys``...),
doctor's findings (``Finding``, ``Scope``), a registered command as ``hookwrap test`` runs it and
what came of the run (``HookCommand``, ``RunResult``, ``Verdict``), and trust entries with the
pure TOML editor they are written with (``TrustEdit``, ``set_toml_values``). A leaf: it imports
no other module of the generator or the checks (but ``errors`` and ``tomledit``, leaves too), so
the modules that *use* the CLI descriptions can import those descriptions at the top, and the
descriptions can import this.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeGuard
from urllib.parse import urlparse

from ...clis._base import BLOCKING
from ...names import Platform
from ..errors import SettingsError

# --- settings problems and value checks (severity "error": the CLI drops the entry, event or
# file, or the hook can never run; "warning": it loads but something is ignored or odd) ------

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One finding: where (`hooks.PreToolUse[2].hooks[0].timeout`), what, and how bad."""

    path: str
    message: str
    severity: str = ERROR

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def errors_only(problems: list[Problem]) -> list[Problem]:
    """The problems that make a CLI drop something."""
    return [problem for problem in problems if problem.severity == ERROR]


Check = Callable[[Any], "str | None"]


def is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def string(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a string"


def nonempty_string(value: Any) -> str | None:
    return None if isinstance(value, str) and value.strip() else "must be a non-empty string"


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def positive_number(value: Any) -> str | None:
    return None if is_number(value) and value > 0 else "must be a positive number"


def string_list(value: Any) -> str | None:
    ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
    return None if ok else "must be a list of strings"


def string_map(value: Any) -> str | None:
    ok = isinstance(value, dict) and all(isinstance(item, str) for item in value.values())
    return None if ok else "must be an object of strings"


def object_(value: Any) -> str | None:
    return None if isinstance(value, dict) else "must be an object"


def url(value: Any) -> str | None:
    parsed = urlparse(value) if isinstance(value, str) else None
    ok = parsed is not None and parsed.scheme in ("http", "https") and bool(parsed.netloc)
    return None if ok else "must be an http(s) URL"


def one_of(*choices: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in choices else "must be one of " + ", ".join(map(repr, choices))

    return check


def check_keys(handler: dict, spec: dict[str, Check], required: tuple[str, ...],
                path: str, severity: str) -> list[Problem]:
    problems = [Problem(f"{path}.{key}", "is required", severity)
                for key in required if key not in handler]
    for key, value in handler.items():
        check = spec.get(key)
        if check is None:
            continue
        message = check(value)
        if message:
            problems.append(Problem(f"{path}.{key}", message, severity))
    return problems


def unknown_keys(obj: dict, known: frozenset[str] | set[str], path: str, label: str) -> list[Problem]:
    return [Problem(f"{path}.{key}", f"unknown key; {label} ignores it", WARNING)
            for key in obj if key not in known]


# --- which handlers of a settings file are hookwrap's -------------------------------------------

# A URL hookwrap writes (a resident hook), for any port: nothing else is hookwrap's.
def sequential_problems(group: dict, path: str) -> list[Problem]:
    """Gemini's (and Qwen's) ``sequential`` group key: a boolean."""
    if "sequential" in group and not isinstance(group["sequential"], bool):
        return [Problem(f"{path}.sequential", "must be true or false")]
    return []


OWNED_URL_RE = re.compile(
    r"^http://127\.0\.0\.1:(?P<port>[1-9][0-9]{0,4})/hookwrap/(?P<platform>[a-z]+)/"
    r"(?P<name>[a-z][a-z0-9_-]{0,63})$")


@dataclass(frozen=True)
class OwnedEntry:
    """A hookwrap handler found in a settings file, with where it sits."""

    name: str
    event: str
    group_index: int
    handler_index: int
    matcher: Any
    handler: dict[str, Any]


def iter_handlers(hooks: Any) -> Iterator[tuple[str, int, int, dict[str, Any], Any]]:
    """(event, group index, handler index, group, handler) of every handler of a ``hooks``
    object, in document order; malformed parts (an event that is not a list, a group that is
    not an object or holds no ``hooks`` list) are skipped, as the CLIs skip them."""
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for group_index, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler_index, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                yield event, group_index, handler_index, group, handler


def iter_owned(hooks: Any, owner: Callable[[Any], str | None]
               ) -> Iterator[tuple[str, str, int, int, dict[str, Any], dict[str, Any]]]:
    """(name, event, group index, handler index, group, handler) of every handler of a
    ``hooks`` object that ``owner`` names (hookwrap's); malformed parts are skipped."""
    for event, group_index, handler_index, group, handler in iter_handlers(hooks):
        name = owner(handler)
        if name:
            yield name, event, group_index, handler_index, group, handler


# --- doctor's findings --------------------------------------------------------------------------

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Finding:
    """One result: which check, ok / warn / fail, what was found, and how to fix it."""

    check: str
    status: str
    message: str
    fix: str = ""


@dataclass
class Scope:
    """One settings file that can hold hooks for this project."""

    label: str
    platform: Platform
    path: Path
    project: bool
    data: dict | None = None
    error: str = ""


# --- a registered command, and what one run of it did -------------------------------------------

@dataclass(frozen=True)
class HookCommand:
    """One registered command handler, as a settings file describes it.

    ``timeout_s`` is in seconds whatever the platform (a CLI's own unit is converted when
    read); None means the CLI's default for the event. ``on_failure`` is Claude's
    ``onFailure``, ``sequential`` and ``env`` are Gemini's group flag and handler ``env``.
    """

    platform: str
    event: str
    command: str
    timeout_s: float | None = None
    matcher: str | None = None
    name: str | None = None
    on_failure: str | None = None
    sequential: bool = False
    env: Mapping[str, str] | None = None


def number_or_none(value: Any) -> float | None:
    """A JSON number as a float; None for anything else (booleans included)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if number else None


def js_regex(pattern: str) -> re.Pattern[str] | None:
    """Compile a JavaScript regex (no flags) with ``re``; None when JavaScript would reject it.

    Inline flags such as ``(?i)`` and Python's ``(?P<..>`` are not JavaScript syntax.
    """
    if re.search(r"\(\?(?![:=!<])", pattern):
        return None
    try:
        return re.compile(re.sub(r"\(\?<(?![=!])", "(?P<", pattern))
    except re.error:
        return None


@dataclass(frozen=True)
class RunResult:
    """What one hook process did. ``exit_code`` is None when it never exited on its own.
    ``stopped``: why hookwrap stopped it before its timeout (its output passed the cap).
    ``lingered``: a process it started still held its stdout or stderr when it exited."""

    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: int
    timed_out: bool = False
    signal: int | None = None
    spawn_error: str = ""
    stopped: str = ""
    lingered: bool = False

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


def failure_line(result: RunResult) -> str:
    """One line saying how a run failed, or "" when it exited on its own."""
    if result.spawn_error:
        return f"could not start: {result.spawn_error}"
    if result.timed_out:
        return f"timed out after {result.duration_ms} ms and was killed"
    if result.stopped:
        return f"stopped: it {result.stopped}"
    if result.exit_code is None:
        return f"killed by signal {result.signal}"
    return ""


def missing_script(r: RunResult) -> str:
    """A problem line when the command or script looks missing: bash exits 127, python3 exits 2
    ("can't open file"), and an exit 2 would otherwise pass for an intentional block."""
    if r.exit_code in (2, 126, 127) and re.search(
            r"No such file or directory|command not found|can't open file|Permission denied", r.stderr):
        return f"the hook command or script looks missing or not runnable: {last_line(r.stderr)}"
    return ""


def last_line(text: str) -> str:
    """The last non-empty line of ``text``."""
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def parse_object(text: str) -> tuple[dict | None, bool]:
    """A JSON.parse step: (object or None, whether the text was JSON at all); double-encoded
    JSON (a JSON string holding an object) is accepted."""
    if not text:
        return None, False
    try:
        value = json.loads(text)
        if isinstance(value, str):
            value = json.loads(value)
    except ValueError:
        return None, False
    return (value if isinstance(value, dict) else None), True


def is_block(decision: Any) -> bool:
    """Whether a hook's top-level ``decision`` (any JSON value) is a block or a deny."""
    return isinstance(decision, str) and decision in BLOCKING


def settle(verdict: Verdict, outcome: str | None, reason: str = "") -> Verdict:
    """Pick the outcome: an explicit decision first, then a stop, then context."""
    if outcome is None:
        outcome = "stopped" if verdict.stop_reason is not None else (
            "context" if verdict.context else "allowed")
    return replace(verdict, outcome=outcome, reason=reason if outcome != "allowed" else verdict.reason)


def failed(*problems: str) -> Verdict:
    """A run the CLI counts as failed, and why."""
    return Verdict(success=False, clean=False, problems=problems)


def with_missing(verdict: Verdict, r: RunResult) -> Verdict:
    """``verdict``, not clean when the command or script looks missing (``missing_script``)."""
    missing = missing_script(r)
    return replace(verdict, clean=False, problems=(missing,)) if missing else verdict


def hso_of(data: Any) -> dict[str, Any]:
    """An answer's ``hookSpecificOutput`` when it is an object, else {}."""
    found = data.get("hookSpecificOutput") if isinstance(data, dict) else None
    return found if isinstance(found, dict) else {}


def answered(output: dict[str, Any] | None, fields: dict[str, Any], *, stop: bool = True,
             **more: Any) -> Verdict:
    """A JSON answer as the runtime reads it (``fields``): its context, new tool input and,
    where ``stop``, its stop; the answer's own systemMessage unless ``more`` gives one."""
    more.setdefault("system_message", str((output or {}).get("systemMessage") or ""))
    return Verdict(output=output, context=fields.get("context", ""),
                   updated_input=fields.get("updated_input"),
                   stop_reason=fields.get("stop_reason") if stop and "continue_loop" in fields
                   else None, **more)


def fail_closed_block(failure: str, why: str) -> Verdict:
    """A fail-closed PreToolUse hook that could not answer, which hookwrap's plugin (or hook
    file) turns into a block: ``why`` it could not, then how it failed."""
    return replace(failed(failure), outcome="blocked",
                   reason=f"hookwrap: {why} ({failure}); the call was blocked")


def stop_or_block(event: str) -> str:
    """The outcome of a block: a Stop hook's keeps the agent working."""
    return "kept_working" if event in ("Stop", "SubagentStop") else "blocked"


# --- trust entries ------------------------------------------------------------------------------

TRUST_HINT = "fix the file by hand (or move it away), then run `hookwrap trust` again"


@dataclass(frozen=True)
class TrustEntry:
    """One value a CLI needs: ``keys`` is its path of tables (the last one names the value),
    ``what`` says what it trusts ("the project", "hook guard (PreToolUse)")."""

    keys: tuple[str, ...]
    value: Any
    what: str
    hook: str = ""  # the hook's name; "" for the project


@dataclass(frozen=True)
class TrustChange:
    """What trusting does to one entry: action is create, update or unchanged."""

    action: str
    entry: TrustEntry
    shown: str  # the entry as the file spells it: [projects."/p"] trust_level = "trusted"


@dataclass(frozen=True)
class TrustEdit:
    """One file a CLI keeps its trust in, and what `hookwrap trust` would change there.

    ``notes`` are warnings; ``todo`` says what the user must do by hand because no entry of the
    file can make the CLI run the hooks (the environment forces the folder untrusted, a rule
    of the user's still wins...): `hookwrap trust` then fails, as doctor's trust check does.
    """

    platform: Platform
    path: Path
    label: str
    new_text: str | None
    changes: list[TrustChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)

    @property
    def pending(self) -> list[TrustChange]:
        """The changes that write something."""
        return [c for c in self.changes if c.action != "unchanged"]


def retold(error: SettingsError) -> SettingsError:
    """``error`` about a trust file, its hint ending in `hookwrap trust` (the settings readers'
    hints say `hookwrap sync`, which never touches a file outside the project)."""
    hint = error.hint.replace("then run hookwrap sync", "then run `hookwrap trust` again")
    return SettingsError(error.message, hint=hint or TRUST_HINT)


def set_toml_values(text: str | None, entries: list[TrustEntry], *,
                    label: str) -> tuple[str, list[TrustChange]]:
    """Set every entry in TOML ``text`` (None: no file yet); returns the new text and changes.

    Pure: nothing is written. Any valid shape of the file is handled (``[a."b"]`` sections split
    or not, super-tables, dotted keys, inline tables, arrays of tables beside them) and every
    other value, comment and blank line stays: see ``tomledit.set_value``.

    Raises:
        SettingsError: the text is not TOML, a table on an entry's path is another value, or an
            entry cannot be set without changing something else (the hint says what to add).
    """
    from ..tomledit import load, set_value, shown

    text = text or ""
    load(text, label=label)
    changes = []
    for entry in entries:
        text, action = set_value(text, entry.keys, entry.value, label=label)
        changes.append(TrustChange(action, entry, shown(entry.keys, entry.value)))
    return text, changes


# --- trustedFolders.json (Gemini CLI's and Qwen Code's): JSON with comments, folder -> level ----

TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST = "TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"
FOLDER_LEVELS = (TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST)


def read_trust_file(path: Path, label: str) -> tuple[str | None, dict[str, Any]]:
    """The text (None: no file) and the data of a trust file in JSON with comments (the rules
    of a trustedFolders.json, a settings file's ``trustedFolders``).

    Raises:
        SettingsError: unreadable, not JSON with comments, or not an object (hint: `hookwrap trust`).
    """
    from ..fsutil import read_text
    from ..jsonc import parse

    try:
        text = read_text(path, label)
        rules = parse(text, label=label, allow_comments=True) if text and text.strip() else {}
    except SettingsError as error:
        raise retold(error) from None
    return text, rules


def set_trust_member(text: str | None, key: str, value: Any, label: str) -> str:
    """A trust file's ``text`` with ``"<key>": <value>`` set (added last, or its value replaced
    where it is): every other byte, comments included, stays."""
    from ..jsonc import rewrite_member, to_json

    if text and text.strip():
        return rewrite_member(text, key, value, label=label, then="`hookwrap trust` again")
    return to_json({key: value}, indent=2) + "\n"


def folder_rule_edit(platform: Platform, path: Path, label: str, root: Path,
                     decide: Callable[[dict[str, Any], Path], tuple[bool | None, str | None]],
                     cli: str, *, strict: bool) -> TrustEdit:
    """What trusting ``root`` does to a trustedFolders.json whose rules ``decide`` reads as the
    CLI does (trusted or not, and the rule that decided): nothing when a rule already trusts
    it, else ``"<root>": "TRUST_FOLDER"``; a todo when another rule would still win.
    ``strict``: the CLI refuses to start when a level is none of ``FOLDER_LEVELS``.

    Raises:
        SettingsError: the file cannot be read, or holds a level the CLI rejects.
    """
    text, rules = read_trust_file(path, label)
    bad = next(((folder, level) for folder, level in rules.items() if level not in FOLDER_LEVELS), None)
    if strict and bad is not None:
        raise SettingsError(f"{label}: {json.dumps(bad[0], ensure_ascii=False)} has the trust level "
                            f"{json.dumps(bad[1], ensure_ascii=False)}, which {cli} rejects (it "
                            "knows " + ", ".join(FOLDER_LEVELS) + ")",
                            hint="fix or remove that line by hand, then run `hookwrap trust` again")
    key = str(root.resolve())
    entry = TrustEntry((key,), TRUST_FOLDER, "the project")
    shown = f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(TRUST_FOLDER)}"
    if decide(rules, root)[0] is True:
        return TrustEdit(platform, path, label, text, [TrustChange("unchanged", entry, shown)])
    verdict, winner = decide({**rules, key: TRUST_FOLDER}, root)
    if verdict is not True:
        return TrustEdit(platform, path, label, None, todo=[
            f"{cli} still distrusts {root}: the rule {json.dumps(winner, ensure_ascii=False)}: "
            f"{json.dumps(rules.get(winner or ''))} in {label} wins over any entry for the project "
            "itself; remove that rule by hand"])
    action = "update" if key in rules else "create"
    new_text = set_trust_member(text, key, TRUST_FOLDER, label)
    return TrustEdit(platform, path, label, new_text, [TrustChange(action, entry, shown)])


def path_variants(path: str) -> set[str]:
    """A path as Node's ``path.resolve`` spells it, and its real path when it exists."""
    found = {os.path.normpath(os.path.abspath(path))}
    with contextlib.suppress(OSError):
        found.add(os.path.realpath(path, strict=True))
    return found


def within(child: str, parent: str) -> bool:
    """Node's subpath test: ``child`` is ``parent`` or below it."""
    relative = os.path.relpath(child, parent)
    return relative == "." or not (relative == ".." or relative.startswith(".." + os.sep)
                                   or os.path.isabs(relative))
