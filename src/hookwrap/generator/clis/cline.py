"""Cline: what the hookwrap command needs to know about it (a hook process needs only
``clis/cline.py``, which the class here extends).

The registrations live in ``.clinerules/hooks/hookwrap.json`` (Claude's nested shape, a file
hookwrap owns and Cline ignores: its name is no event's). From it hookwrap writes one hook file
per event, ``.clinerules/hooks/<Event>`` (``hook_files``, from ``cline_hook.sh``, or from
``cline_hook.py.in`` when hookwrap.toml names python_windows: Cline runs that one on Windows
without sh): a regular file, never a symlink (Cline 3.0.65 skips those), that runs the event's
hooks through the dispatcher (``clis/_cline_hooks.py``) and answers within Cline's time. A hook file is hookwrap's
when it starts with its header; any other file of that name is the user's: never changed or
removed, and reported, since hookwrap's hooks for that event cannot be written beside it.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from ...clis._cline_hooks import DEADLINE_S
from ...clis._cline_protocol import block_answer
from ...clis.cline import CLINE
from ...names import NormalizedEvent
from ..scope import current, user_root
from ._base import (
    AgentSetup,
    Handlers,
    Registration,
    TrustStore,
    fill_path,
    without_deadline,
)
from ._facts import CommandFacts
from ._matchers import RegexSearch
from .kit import (
    ERROR,
    FAIL,
    OK,
    WARN,
    Finding,
    HookCommand,
    Problem,
    RunResult,
    Scope,
    Verdict,
    boolean,
    check_keys,
    fail_closed_block,
    failed,
    failure_line,
    nonempty_string,
    one_of,
    parse_object,
    positive_number,
    settle,
    string_list,
)

# The hookwrap command's facts: hookwrap.json and the hook files made from it (checked against the version in the record).
CLINE_COMMAND = CommandFacts(
    payload_has_timestamp=True,
    settings_file=".clinerules/hooks/hookwrap.json",
    # Cline 3.0.65 runs the hook files of $CLINE_DIR/hooks/ (and ~/Documents/Cline/Hooks/) in
    # every workspace (reference/cline.md, 3.).
    user_file="${CLINE_DIR:-~/.cline}/hooks/hookwrap.json",
    executable="cline",
    config_folders=(".clinerules", ".cline"),
    settings_owned=True,  # hookwrap's own file: no hand-made hooks in it
    known_settings_events=("PreToolUse", "PostToolUse", "UserPromptSubmit", "TaskStart",
                           "TaskResume", "TaskComplete", "TaskError", "SessionShutdown"),
    unknown_event_note="hookwrap writes no Cline hook file for it",
    command_form='{python} "$HOOKWRAP_PROJECT_DIR/{script}" {args}--platform {platform}',
    handler_keys=("type", "command", "name", "timeout"),
    # A hook that cannot answer blocks the tool call: the hook file answers the block itself.
    fail_closed_key="failClosed",
    fail_closed_value=True,
    fail_closed_events=frozenset({NormalizedEvent.BEFORE_TOOL}),
    # Cline kills a hook after 120 s and lets the tool run; the hook file gives its hooks 100 s.
    max_timeout_s=int(DEADLINE_S),
    max_timeout_why=(f"hookwrap's Cline hook file gives its hooks {DEADLINE_S:g} s in all "
                     "(Cline 3.0.65 kills the file after 120 s and runs the tool)"),
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL}),
    match_targets={"PreToolUse": "tool_name", "PostToolUse": "tool_name"},
    default_timeout_s=60.0,
    hook_env_vars={"HOOKWRAP_PROJECT_DIR": "{project}", "HOOKWRAP_CLINE": "1",
                   "CLINE_BUILD_ENV": "production"},
    hook_shell=("/bin/sh", "-c"),  # the hook file's dispatcher runs each command so
    empty_tool_response={},
    system_message_shown="dropped: Cline shows a hook's user no message",
)

HOOKS_DIR = ".clinerules/hooks"
HEADER = "#!/bin/sh\n# hookwrap: generated Cline hook file"
# The Python form's first lines (written when hookwrap.toml names python_windows): Cline 3.0.65
# runs a file whose first line names python3 with `py -3 FILE` on Windows, `python3 FILE`
# elsewhere (@cline/core 0.0.86, dist/index.js: Il reads the line, Bq maps the word, gl builds
# the argv; KV retries `py -3` that is not found as `python`); a `#!/bin/sh` file is run as
# `sh FILE` everywhere, which Windows has only with Git Bash on PATH.
PY_HEADER = "#!/usr/bin/env python3\n# hookwrap: generated Cline hook file"
# The hook file stops waiting for the dispatcher after this long (the dispatcher gives the hooks
# 100 s in all); Cline kills a hook after 120 s and then lets the tool run.
WATCHDOG_S = 110
_SH_TEMPLATE = "cline_hook.sh"
_PY_TEMPLATE = "cline_hook.py.in"


class ClineRegistration(Registration):
    """Registrations in hookwrap's own JSON file, and from them one generated hook file per event in the hooks folder Cline runs (regular files, never over the user's)."""

    def hook_files(self, agent: AgentSetup, root: Path, text: str | None) -> tuple[list[tuple[str, bytes | None]],
                                                                 list[str]]:
        """(path, bytes or None to remove) of every hook file of hookwrap's for the
        registrations in ``text`` (None: no file), and problems hookwrap cannot fix."""
        data = agent.registration.parse_settings_text(agent, text, agent.facts.settings_file) if text else {}
        found = data.get("hooks")
        hooks: dict[str, Any] = found if isinstance(found, dict) else {}
        files: list[tuple[str, bytes | None]] = []
        problems: list[str] = []
        folder = _hooks_folder(agent)
        for event in agent.facts.known_settings_events:
            rel = f"{folder}/{event}"
            path = root / rel
            groups = hooks.get(event) or []
            mine = _is_mine(path)
            if path.is_symlink():
                if groups or mine:
                    problems.append(f"{rel} is a symlink, which Cline skips: hookwrap's {event} "
                                    "hooks do not run on Cline (replace it with the file "
                                    "`hookwrap sync` writes)")
                continue
            if path.exists() and not mine:
                if groups:
                    problems.append(
                        f"{rel} is not hookwrap's file: left as it is, and hookwrap's {event} "
                        f"hooks ({_names(groups)}) do not run on Cline. hint: rename yours to "
                        f"{rel}.sh (Cline runs every file named after the event, yours by its "
                        "shebang, else with bash, as now), then run hookwrap sync")
                continue
            files.append((rel, hook_file_text(event, groups).encode() if groups else None))
        return files, problems

    def unreachable_note(self, agent: AgentSetup, root: Path) -> str | None:
        """Below the git root, Cline looks for its hook files at the git root, not here."""
        found = [f for f in _workspace_findings(root) if f.status == FAIL]
        return f"{agent.label}: {found[0].message} ({found[0].fix})" if found else None


class ClineMatchers(RegexSearch):
    """The dispatcher's ``re.search`` of the matcher in the tool name from Cline's own payload."""

    def match_target(self, agent: AgentSetup, event: str, payload: Mapping[str, Any]) -> str | None:
        """The tool name, from Cline's own payload (``tool_call.name``)."""
        return super().match_target(agent, event, agent.runtime.payload_fields(dict(payload)))


class ClineHandlers(Handlers):
    """Command handlers the hook file's dispatcher runs in turn (``name``, ``timeout``, ``failClosed``)."""

    reads = frozenset({"name", "failClosed"})

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        spec = {"type": one_of("command"), "command": nonempty_string, "timeout": positive_number,
                "name": nonempty_string, "failClosed": boolean, "argvWindows": string_list}
        problems = check_keys(handler, spec, ("type", "command"), path, ERROR)
        return problems + [Problem(f"{path}.{k}", "is not read by hookwrap's Cline hook files")
                           for k in handler if k not in spec]

    def runs_sequentially(self, agent: AgentSetup, commands: tuple[HookCommand, ...]) -> bool:
        return True  # the dispatcher runs them in turn


class ClineTrust(TrustStore):
    """No trust gate (said so), where Cline looks for the hook files (the git root), and whether
    each of hookwrap's hook files is the one this hookwrap writes."""

    def trust_findings(self, agent: AgentSetup, root: Any, home: Any, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        mine = [s for s in scopes if s.data and s.data.get("hooks")]
        if not mine:
            return [Finding("cline-trust", OK, "no Cline hook file to check")]
        out = [Finding("cline-trust", OK, f"Cline runs every hook file in {HOOKS_DIR}/ with no "
                       "trust prompt: whoever can change it runs code in every Cline task here")]
        out += _workspace_findings(root)
        files, problems = agent.registration.hook_files(agent, root, scopes[0].path.read_text(encoding="utf-8")
                                          if scopes[0].path.is_file() else None)
        out += [Finding("cline-hook-files", FAIL, problem) for problem in problems]
        for rel, data in files:
            path = root / rel
            current = path.read_bytes() if path.is_file() else None
            if current != data:
                out.append(Finding("cline-hook-files", FAIL, f"{rel} differs from what this "
                                   "hookwrap writes (missing, edited, or left from an older "
                                   "registration)", "run `hookwrap sync`"))
        return out


def _workspace_findings(root: Path) -> list[Finding]:
    """Cline looks for project hook files in the git root above its cwd, else in the cwd."""
    top = next((p for p in (root, *root.parents) if (p / ".git").exists()), None)
    if top is None:
        return [Finding("cline-workspace", WARN, f"{root} is not in a git repository: Cline finds "
                        f"{HOOKS_DIR}/ only when started in exactly this folder",
                        "run `git init` here, or always start cline in this folder")]
    if Path(top).resolve() != Path(root).resolve():
        return [Finding("cline-workspace", FAIL, f"the git root is {top}, above this project: "
                        f"Cline looks for {HOOKS_DIR}/ there, so no hookwrap hook runs on Cline",
                        "put hookwrap.toml at the git root")]
    return []


def _is_mine(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            start = file.read(len(PY_HEADER))
    except OSError:
        return False
    return start.startswith(HEADER.encode()) or start == PY_HEADER.encode()


def _names(groups: list[Any]) -> str:
    names = [h.get("name") or h.get("command") for g in groups if isinstance(g, dict)
             for h in g.get("hooks") or () if isinstance(h, dict)]
    return ", ".join(str(n) for n in names) or "none"


def _hooks_folder(agent: AgentSetup) -> str:
    """The folder of hookwrap.json and the hook files in the scope in force (``HOOKS_DIR`` in a
    project, the user-level one at user scope)."""
    scope = current()
    if not scope.user:
        return HOOKS_DIR
    return str(Path(fill_path(agent.facts.user_file, "", scope.home, scope.env)).parent)


def _user_scope_hook_file(text: str) -> str:
    """At user scope the hook file sits in Cline's user folder: the runtime is the user scope's
    (its folder, written in), and the hooks' project is the folder Cline runs them in."""
    import shlex

    if not current().user:
        return text
    text = re.sub(r"^d=\$\(cd -- .*$", lambda _: f"d={shlex.quote(str(user_root()))}", text,
                  count=1, flags=re.MULTILINE)
    return text.replace('_cline_hooks.py" "$d" ', '_cline_hooks.py" "$PWD" ', 1)


def hook_file_text(event: str, groups: list[Any]) -> str:
    """The hook file for ``event`` with the event's registrations in it: ``cline_hook.sh``, or
    ``cline_hook.py.in`` when a handler carries ``argvWindows`` (hookwrap.toml names
    python_windows: the file must start on Windows without sh) in a project."""
    import shlex
    from importlib import resources

    handlers = [h for g in groups for h in g.get("hooks") or () if isinstance(h, dict)]
    # At user scope the hook files stay sh ones (_user_scope_hook_file): the Python form finds
    # the runtime beside itself, which only a project's hook files have.
    python_form = any("argvWindows" in h for h in handlers) and not current().user
    template = resources.files("hookwrap").joinpath(
        "generator", "clis", _PY_TEMPLATE if python_form else _SH_TEMPLATE).read_text(
        encoding="utf-8")
    closed = event == "PreToolUse" and any(h.get("failClosed") is True for h in handlers)
    if closed:
        fallback = json.dumps(block_answer(
            "hookwrap: the fail-closed hooks of this call gave no answer in time (python or the "
            f"hook file's dispatcher could not run, or hung); the call was blocked. See "
            f"{_hooks_folder(SETUP)}/{event}."))
        words = "a block, since a fail-closed hook is among them."
    else:
        fallback, words = "", "nothing (the tool runs)."
    listed = []
    for group in groups:
        for handler in group.get("hooks") or ():
            tools = group.get("matcher") or "every tool"
            closed_word = ", fail-closed" if handler.get("failClosed") is True else ""
            listed.append(f"{handler.get('name', '?')} ({tools}{closed_word})")
    registrations = json.dumps(groups, separators=(",", ":"))
    if python_form:  # values inside generated Python are Python literals
        values = {"@EVENT_LITERAL@": repr(event), "@FALLBACK@": repr(fallback),
                  "@REGISTRATIONS@": repr(registrations)}
    else:
        values = {"@FALLBACK@": shlex.quote(fallback) if fallback else "''",
                  "@PYTHON@": _python(handlers), "@REGISTRATIONS@": shlex.quote(registrations)}
    values.update({"@EVENT@": event, "@WATCHDOG@": str(WATCHDOG_S), "@FALLBACK_WORDS@": words,
                   "@HOOKS@": "; ".join(listed)})
    text = re.sub("|".join(map(re.escape, values)), lambda m: values[m.group()], template)
    return _user_scope_hook_file(text)


def _python(handlers: list[dict[str, Any]]) -> str:
    """The interpreter of the registered commands (the manifest's ``python``), as written."""
    for handler in handlers:
        command = without_deadline(str(handler.get("command", "")).strip())
        match = SETUP._owned_pattern(True).fullmatch(command)
        if match:
            return match.group("python")
    return "python3"


def read_answer(agent: AgentSetup, event: str, r: RunResult, on_failure: str | None) -> Verdict:
    """What the hook file does with one hook's run: a JSON object on stdout is the answer
    (whatever the exit code, as Cline reads its hook files); anything else is no answer (the
    tool runs), except for a fail-closed PreToolUse hook, which then blocks the call."""
    failure = failure_line(r)
    output, _ = parse_object(r.stdout.strip())
    if not failure and output is None:
        failure = f"exit {r.exit_code} without a JSON answer"
    if failure:
        if on_failure == "block" and event == "PreToolUse":
            return fail_closed_block(failure, "the fail-closed hook could not answer")
        return failed(failure + ": the hook file reports it and the tool runs")
    assert output is not None
    fields = SETUP.runtime.read_answer(SETUP.runtime.normalize_event(event), 0, r.stdout, r.stderr)
    base = Verdict(output=output, context=str(fields.get("context", "")),
                   system_message=str(output.get("systemMessage") or ""))
    if event not in ("PreToolUse", "PostToolUse"):  # the runtime reads no answer here
        given = SETUP.runtime.read_answer(NormalizedEvent.AFTER_TOOL, 0, r.stdout, r.stderr)
        dropped = ": the context it gave is dropped" if given.get("context") else ""
        return replace(base, context="",
                       notes=(f"Cline runs {event} detached and ignores its answer{dropped}",))
    if fields.get("continue_loop") is False:
        return settle(replace(base, stop_reason=str(fields.get("stop_reason", ""))), "stopped")
    if fields.get("decision") == "block":
        return settle(base, "blocked", str(fields.get("reason", "")))
    if isinstance(fields.get("updated_input"), dict):
        base = replace(base, updated_input=fields["updated_input"])
    return settle(base, None)


SETUP = AgentSetup(CLINE, CLINE_COMMAND, registration=ClineRegistration(), matchers=ClineMatchers(javascript=False),
                   handlers=ClineHandlers(), answers=read_answer, trust=ClineTrust())
