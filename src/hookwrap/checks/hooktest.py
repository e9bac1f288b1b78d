"""The core of `hookwrap test NAME`: run a hook's registered commands as each CLI would.

For each platform the hook is registered on, the exact command from that settings file runs
through ``hookwrap.checks.host`` with a realistic payload (a built-in sample, a ``--tool``/``--input``
call, or a payload file), and its result is read by that CLI's rules. Returns data; never prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..generator.clis import all_setups, setup_of
from ..generator.clis.kit import HookCommand, RunResult, Verdict, number_or_none
from ..generator.errors import ProjectError, UsageError
from ..generator.hookentry import check_event
from ..generator.project import parse_platforms
from ..generator.samples import sample_payload, sample_tools
from ..generator.schema import dropping_errors
from ..generator.settings import OWNED_COMMAND_RE, project_settings
from ..names import Platform
from . import host


@dataclass
class PlatformTest:
    """One platform's run of the hook: what was sent, what happened, what the CLI will do."""

    platform: str
    event: str
    command: str
    summary: str
    clean: bool
    ran: bool = True
    matcher: str | None = None
    timeout_s: float | None = None
    payload: dict = field(default_factory=dict)
    result: RunResult | None = None
    verdict: Verdict | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class HookTestReport:
    """Every platform's test of one hook. ``ok``: every command ran cleanly."""

    name: str
    tests: list[PlatformTest]

    @property
    def ok(self) -> bool:
        return bool(self.tests) and all(t.clean for t in self.tests)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def to_dict(self) -> dict:
        return {"name": self.name, "ok": self.ok, "tests": [asdict(t) for t in self.tests]}


HOOK_ERROR_HEADER = "Hook Script Error"  # the first line of protocol.format_hook_error's reason
_UNSELECTED = "not run: matcher"  # the summary of a run its matcher did not select


def describe(verdict: Verdict) -> str:
    """What the CLI will do, in one line ("blocked: <reason>", "allowed", ...)."""
    text = {
        "blocked": f"blocked: {verdict.reason}",
        "kept_working": f"agent kept working: {verdict.reason}",
        "stopped": f"agent stopped: {verdict.stop_reason or verdict.reason}",
        "ask": f"asks the user: {verdict.reason}".rstrip(": "),
        "deferred": "deferred to the calling program",
        "context": f"context added to the model: {verdict.context}",
    }.get(verdict.outcome, "allowed")
    if verdict.outcome not in ("context", "blocked") and verdict.context:
        text += f"; context added to the model: {verdict.context}"
    if verdict.updated_input is not None and verdict.outcome != "blocked":
        text += f"; tool input rewritten to {json.dumps(verdict.updated_input)}"
    return text


SHOWN_CHARS = 400  # of a systemMessage in the one-line summary; -v shows stdout whole


def shown_to_user(platform: Platform | str, verdict: Verdict) -> str:
    """The message the CLI shows its user (systemMessage), for the one-line summary:
    `` (shown to the user: <text>)``, or where this CLI does not show it; "" for none."""
    text = " ".join(verdict.system_message.split())
    if not text:
        return ""
    if len(text) > SHOWN_CHARS:
        text = text[:SHOWN_CHARS] + " ... (-v shows it whole)"
    agent = setup_of(platform)
    where = agent.facts.system_message_shown or f"systemMessage, which {agent.label} was not seen to show"
    return f" ({where}: {text})"


def owned_name(command: str) -> str | None:
    """The hook name when ``command`` runs a hookwrap script, or None.

    Any command that runs ``.hookwrap/hooks/<name>.py`` counts here, not only the exact form
    hookwrap writes: `test` shows what the CLI would run, and a hand-edited command (broken
    quoting, a wrapper) is exactly what it must show. Writing and removing own the exact form.
    """
    match = OWNED_COMMAND_RE.search(command)
    return match.group("name") if match else None


def run_hook_test(
    root: Path,
    name: str,
    *,
    platform: str | Sequence[str] = "all",
    payload_file: Path | None = None,
    tool: str | None = None,
    tool_input: str | dict | None = None,
    event: str | None = None,
    env: Mapping[str, str] | None = None,
    on_run: Callable[[str, str], None] | None = None,
) -> HookTestReport:
    """Run hook ``name``'s registered commands on each selected platform.

    Args:
        platform: a platform's name ("claude"), several (``--platform`` repeated), or "all":
            every platform the hook is registered on.
        payload_file: a JSON object sent as-is instead of a built-in sample.
        tool: a normalized tool name (``shell``), translated per platform.
        tool_input: the tool call's input, a JSON object (text or dict).
        event: a normalized event, to pick one when the hook is registered under several.
        on_run: called with (platform, command) just before a command runs: the hook runs
            for real, with whatever its script does (stop_gate runs its check).

    Raises:
        UsageError: bad option values. ProjectError: the hook is registered nowhere.
    """
    names = [platform] if isinstance(platform, str) else list(platform)
    manifest = _manifest(root)
    spec = manifest.get(name) if manifest is not None else None
    if spec is not None and event is not None and check_event(None, event) != spec.event:
        raise UsageError(f"{name} is a {spec.event.value} hook: --event {event} does not apply",
                         hint=f"leave --event out, or give --event {spec.event.value}")
    everything = not names or "all" in names
    platforms = parse_platforms(names, tuple(Platform))
    given = _load_payload(payload_file) if payload_file else None
    args = _ToolArgs(_normalize_tool(tool), _parse_input(tool_input))
    tests: list[PlatformTest] = []
    for plat in platforms:
        commands = registered_commands(root, plat, name, event)
        if not commands and everything:
            continue
        if not commands:
            rel = setup_of(plat).facts.settings_file
            tests.append(PlatformTest(plat.value, "", "", f"not registered in {rel}",
                                      False, ran=False, problems=[f"{name} is not in {rel}"]))
        tests += _selected([_test_one(root, plat, cmd, given, args, env, on_run)
                            for cmd in commands])
    if not tests and spec is None and (root / "hookwrap.toml").is_file():
        raise ProjectError(f"no hook named {name!r} in hookwrap.toml",
                           hint="`hookwrap list` shows the hooks")
    if not tests:
        raise ProjectError(f"{name} is not registered in any settings file",
                           hint="run `hookwrap sync`, or check the name with `hookwrap list`")
    _flag_external_command(root, spec, tests, env)
    return HookTestReport(name, tests)


def _manifest(root: Path):
    """The project's hookwrap.toml; None when there is none (or it does not read: `test` runs
    what the settings files register all the same, and explains with python3)."""
    from ..generator.errors import HookwrapError
    from ..generator.project import load_manifest

    if not (root / "hookwrap.toml").is_file():
        return None
    try:
        return load_manifest(root)
    except (HookwrapError, OSError):
        return None


def _flag_external_command(root: Path, spec, tests: list[PlatformTest],
                           env: Mapping[str, str] | None) -> None:
    """An external hook whose command cannot start fails its test on every CLI: a bridged CLI
    (any but the one the command speaks) reads the failure as an answer and goes on."""
    import os

    from ..generator.adopt import command_problem

    if spec is None or "speaks" not in spec.options:
        return
    path = (env if env is not None else os.environ).get("PATH")
    problem = command_problem(root, str(spec.options["command"]), str(spec.options["speaks"]),
                              path)
    for test in tests if problem else ():
        if test.ran:
            test.clean = False
            test.problems.append(f"hooks.{spec.name}.command cannot start: {problem} (fix "
                                 "it in hookwrap.toml)")


def _selected(tests: list[PlatformTest]) -> list[PlatformTest]:
    """One CLI's runs of a hook registered on several of its events (Claude Code's PreToolUse
    and PreSkillShellCommand, for the shell only): an entry whose matcher does not select the
    call is left out when another entry ran it."""
    selected = [t for t in tests if t.ran or not t.summary.startswith(_UNSELECTED)]
    return selected or tests


@dataclass(frozen=True)
class _ToolArgs:
    tool: str | None
    tool_input: dict | None


def _load_payload(path: Path) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: not a readable JSON file ({error})") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: the payload must be a JSON object")
    return data


def _parse_input(value: str | dict | None) -> dict | None:
    if value is None or isinstance(value, dict):
        return value
    try:
        data = json.loads(value)
    except ValueError as error:
        raise UsageError(f"--input is not JSON: {error}",
                         hint="e.g. --input '{\"command\": \"ls\"}'") from None
    if not isinstance(data, dict):
        raise UsageError("--input must be a JSON object")
    return data


def _normalize_tool(tool: str | None) -> str | None:
    """Accept a normalized name, or any platform's own name for it (``Bash`` -> ``shell``)."""
    if tool is None:
        return None
    for agent in all_setups():
        if tool in agent.runtime.tools:
            return agent.runtime.tools[tool]
    return tool


def registered_commands(root: Path, platform: Platform, name: str, event: str | None = None,
                        data: dict | None = None) -> list[HookCommand]:
    """Hook ``name``'s entries in ``platform``'s project settings (``data``: already parsed), on
    ``event`` or every event: every command that runs its script, and a resident hook's URLs."""
    if data is None:
        data = project_settings(root, platform)[1]
    commands = host.commands_from_settings(platform.value, data or {})
    mine = [c for c in commands if owned_name(c.command) == name]
    mine += _resident_entries(platform, data or {}, name)
    if event is not None:
        wanted = setup_of(platform).runtime.event_names().get(check_event(None, event))
        mine = [c for c in mine if c.event == wanted]
    return mine


def _resident_entries(platform: Platform, data: Mapping, name: str) -> list[HookCommand]:
    """A resident hook's ``type: "http"`` entries, as HookCommands whose command is the URL."""
    agent = setup_of(platform)
    found = []
    for entry in agent.owned_entries(data):
        handler = entry.handler
        if entry.name == name and handler.get("type") == "http":
            matcher = entry.matcher if isinstance(entry.matcher, str) else None
            # The CLI's fail-closed switch (Claude's onFailure: "block", pi's failClosed: true).
            closed = bool(agent.facts.fail_closed_key) and \
                handler.get(agent.facts.fail_closed_key) == agent.facts.fail_closed_value
            found.append(HookCommand(platform.value, entry.event, handler["url"],
                                          number_or_none(handler.get("timeout")), matcher,
                                          on_failure="block" if closed else None))
    return found


def run_registered(root: Path, platform: Platform, cmd: HookCommand, *,
                   env: Mapping[str, str] | None = None,
                   max_wait: float | None = None) -> PlatformTest:
    """Run one registered command on its event's built-in sample, as `hookwrap test NAME` does
    (``max_wait``: wait at most this long, when less than the CLI's timeout)."""
    return _test_one(root, platform, cmd, None, _ToolArgs(None, None), env, max_wait=max_wait)


def _post(cmd: HookCommand, payload: dict, max_wait: float | None = None) -> RunResult:
    """POST the payload to the resident server as the CLI would; the answer as a RunResult
    (HTTP 200 = exit 0; another status = a failure; no server = could not start)."""
    import socket
    import time
    from urllib.parse import urlsplit

    from ..generator.resident import post

    parts = urlsplit(cmd.command)
    start = time.monotonic()
    timeout = host.effective_timeout(cmd)
    if max_wait is not None and max_wait < timeout:
        timeout = max_wait
    try:
        status, body = post(parts.port or 80, parts.path, json.dumps(payload).encode(),
                            timeout=timeout)
    except (socket.timeout, TimeoutError):
        return RunResult(None, "", "", int(timeout * 1000), timed_out=True)
    except OSError as error:
        return RunResult(None, "", "", 0, spawn_error=f"{cmd.command}: {error}; is "
                              "`hookwrap serve` running?")
    ms = int((time.monotonic() - start) * 1000)
    if status // 100 != 2:
        return RunResult(1, "", f"HTTP {status} from {cmd.command}: {body}", ms)
    return RunResult(0, body, "", ms)


def _pick_tool(platform: Platform, cmd: HookCommand) -> str | None:
    """A tool the hook's matcher selects: the sample's tools first, then every known name."""
    candidates = sample_tools(platform, cmd.event) + list(setup_of(platform).runtime.tools)
    for name in candidates:
        if host.matcher_matches(platform.value, cmd.event, cmd.matcher, name):
            return name
    return None


def _other_call_hint(platform: Platform, cmd: HookCommand, given: dict | None) -> str:
    """How to give the hook a call its matcher selects: --tool names a call in every CLI's
    own words, but a --payload file goes to each CLI exactly as written."""
    tool_event = setup_of(platform).is_tool_event(cmd.event)
    if given is None:
        return "pick another call with --tool" if tool_event else \
            "pass a payload the matcher selects with --payload"
    label = setup_of(platform).label
    if not tool_event:
        return f"the --payload file goes to {label} as written: give it a value the matcher selects"
    example = _pick_tool(platform, cmd)
    named = f", e.g. {example!r}" if example else ""
    return (f"the --payload file goes to {label} as written, so it must name the tool as "
            f"{label} does{named}; or use --tool instead, which each CLI gets in its own words")


def _payload(root: Path, platform: Platform, cmd: HookCommand, given: dict | None,
             args: _ToolArgs) -> tuple[dict, str, bool]:
    """The payload, and what was said about --input: (payload, a line on how --input was sent
    or why it does not fit this CLI, whether it does not fit at all)."""
    if given is not None:
        return {"hook_event_name": cmd.event, **given}, "", False
    tool = None
    agent = setup_of(platform)
    if agent.is_tool_event(cmd.event):
        tool = agent.runtime.platform_tool_names(args.tool)[0] if args.tool else _pick_tool(platform, cmd)
    tool_input, said, unfit = args.tool_input, "", False
    if tool is not None and tool_input is not None:
        tool_input, said, unfit = own_tool_input(platform, args.tool or agent.runtime.normalize_tool(tool),
                                                 tool, tool_input)
    payload = sample_payload(platform, cmd.event, project_dir=root, tool=tool,
                             tool_input=tool_input)
    return payload, said, unfit


def own_tool_input(platform: Platform, tool: str, raw_tool: str,
                   given: dict) -> tuple[dict, str, bool]:
    """``--input`` as ``platform``'s ``tool`` would carry it: (input, what was said, unfit).

    As given when its keys are ones this CLI's tool sends (the record's ``tool_fields``); else
    read in the words of the first CLI whose tool sends exactly such keys (Claude Code's first)
    and put into this CLI's words (pi's write names the file ``path``, Codex CLI's write is a
    patch); else as given, with a line saying which keys this CLI's tool does not send
    (``unfit``: none of them, so the hook sees a call this CLI never makes)."""
    agent = setup_of(platform)
    fields = agent.runtime.tool_fields.get(tool)
    if not fields or set(given) <= set(fields):
        return given, "", False
    for source in all_setups():  # in Platform order: Claude Code's words first
        theirs = source.runtime.tool_fields.get(tool)
        if source is agent or not theirs or not set(given) <= set(theirs):
            continue
        own = agent.runtime.own_tool_input(tool, source.runtime.common_tool_input(tool, given))
        if own and set(own) <= set(fields):
            return own, (f"--input read as {source.label}'s {tool} input and sent in "
                         f"{agent.label}'s words: {json.dumps(own)}"), False
    unknown = ", ".join(sorted(set(given) - set(fields)))
    unfit = not set(given) & set(fields)
    return given, (f"{agent.label}'s {raw_tool} input carries {', '.join(fields)}, not "
                   f"{unknown}: --input was sent as written"
                   + (f", a call {agent.label} never makes" if unfit else "")), unfit


def _dropped_by(root: Path, platform: Platform, event: str) -> list[str]:
    """Errors that make the CLI drop every hook of ``event`` in the project file (Claude Code
    does; most CLIs skip an invalid entry on its own and run the others)."""
    data = project_settings(root, platform)[1]
    return [str(problem) for problem in dropping_errors(data, platform, event)]


def _test_one(root: Path, platform: Platform, cmd: HookCommand, given: dict | None,
              args: _ToolArgs, env: Mapping[str, str] | None,
              on_run: Callable[[str, str], None] | None = None, *,
              max_wait: float | None = None) -> PlatformTest:
    payload, said, unfit = _payload(root, platform, cmd, given, args)
    base = PlatformTest(platform.value, cmd.event, cmd.command, "", True, matcher=cmd.matcher,
                        timeout_s=host.effective_timeout(cmd), payload=payload)
    if said:
        (base.problems if unfit else base.notes).append(said)
    dropped = _dropped_by(root, platform, cmd.event)
    if dropped:
        base.ran, base.clean = False, False
        base.summary = (f"not run: {setup_of(platform).label} drops every {cmd.event} hook of "
                        f"{setup_of(platform).facts.settings_file} ({dropped[0]})")
        base.problems.extend(dropped)
        return base
    target = host.match_target(platform.value, cmd.event, payload)
    if not host.matcher_matches(platform.value, cmd.event, cmd.matcher, target):
        base.ran, base.clean = False, False
        base.summary = f"{_UNSELECTED} {cmd.matcher!r} does not select {target!r}"
        base.problems.append(f"{base.summary} ({_other_call_hint(platform, cmd, given)})")
        return base
    resident = cmd.command.startswith("http://")
    if not resident and setup_of(platform).owned_name(cmd.command) is None:
        base.notes.append("this command is not one hookwrap wrote (a look-alike of its entry); "
                          "it ran as the CLI would run it, and `hookwrap sync` leaves it alone")
    if on_run is not None:
        on_run(platform.value, cmd.command)
    result = _post(cmd, payload, max_wait) if resident else host.run_command(
        cmd, payload, project_dir=root, env=env, max_wait=max_wait)
    verdict = setup_of(platform).interpret(cmd.event, result, cmd.on_failure)
    base.result, base.verdict, base.clean = result, verdict, verdict.clean and not unfit
    base.summary = describe(verdict) + shown_to_user(platform, verdict)
    base.problems.extend(verdict.problems)
    base.notes.extend(verdict.notes)
    if result.lingered:
        base.notes.append("a process it started still held its stdout or stderr when it exited: "
                          "the run was read until 0.5 s after that, and what was left of its "
                          "process group killed; a CLI that waits for the output to close would "
                          "wait for that process")
    if verdict.reason.startswith(HOOK_ERROR_HEADER):
        # The runtime turned an exception into a block: the protocol held, the hook did not.
        base.clean = False
        base.problems.append("the hook raised an exception; the runtime reported it as a block "
                             "(the traceback is in the reason; run with -v to see it whole)")
    return base


# --- `hookwrap test NAME --explain CMD`: how the guard reads a command -------------------------

# Run by the project's interpreter with the project's runtime (what the hook itself runs): load
# the rendered guard as a module (its `if __name__ == "__main__"` does not run) and ask its
# GUARD to explain. Prints one JSON document.
_EXPLAIN = """\
import importlib.util, json, sys
script, line, cwd = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("hookwrap_explained_guard", script)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
guard = getattr(module, "GUARD", None)
if guard is None or not hasattr(guard, "explain"):
    print(json.dumps({"error": "no GUARD"}))
else:
    print(json.dumps(guard.explain(line, cwd)))
"""


def explain_guard(root: Path, name: str, line: str, *, cwd: Path | None = None,
                  python: str | None = None) -> dict:
    """How the guard hook ``name`` reads the shell ``line`` and what it decides (see
    guard_engine.Guard.explain); nothing in the line runs.

    Raises:
        ProjectError: no such hook script, or it cannot be loaded.
        UsageError: the script is not a guard of this hookwrap (an older self-contained guard).
    """
    import shutil
    import subprocess
    import sys

    from ..generator.registrations import script_path

    manifest = _manifest(root)
    spec = manifest.get(name) if manifest is not None else None
    if spec is not None and spec.template != "guard":
        what = "an external" if "speaks" in spec.options else f"a {spec.template}"
        raise UsageError(f"{name} is {what} hook, not a guard: --explain reads only a guard",
                         hint=f"`hookwrap test {name}` runs it on a sample call (--tool and "
                              "--input pick another)")
    script = root / script_path(name)
    if not script.is_file():
        raise ProjectError(f"{script_path(name)} does not exist",
                           hint="`hookwrap list` shows the hooks; `hookwrap sync` re-renders a "
                                "missing script")
    chosen = python or getattr(manifest, "python", None) or "python3"
    interpreter = shutil.which(chosen) or sys.executable
    try:
        proc = subprocess.run([interpreter, "-I", "-c", _EXPLAIN, str(script), line,
                               str(cwd or root)], capture_output=True, text=True, cwd=root,
                              timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        raise ProjectError(f"could not run {chosen}: {error}",
                           hint="check `python` in hookwrap.toml") from None
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise ProjectError(f"{script_path(name)} could not be loaded: {tail}",
                           hint="`hookwrap doctor` checks the hook scripts") from None
    if "error" in report:
        raise UsageError(f"{script_path(name)} is not a guard this hookwrap can explain",
                         hint="--explain reads guards rendered by `hookwrap add before_tool "
                              "guard`; an older guard is upgraded by `hookwrap sync`")
    return report


def explain_lines(report: dict) -> list[str]:
    """The report of explain_guard as text, one line per entry."""
    lines = [f"reading: {report['line']!r} (cwd {report['cwd']})"]
    if not report["commands"]:
        lines.append("  no command runs")
    for index, command in enumerate(report["commands"], 1):
        shown = " ".join(json.dumps(word) if not word or any(c in word for c in " \t\n'\"")
                         else word for word in command["argv"]) or "(redirections only)"
        if command["redirects"]:
            shown += " " + " ".join(command["redirects"])
        via = f"  [via {', '.join(command['via'])}]" if command["via"] else ""
        lines.append(f"  {index}. {shown}{via}")
        if command.get("paths"):
            lines.append("     paths: " + ", ".join(f"{path} = {where}"
                                                    for path, where in command["paths"].items()))
        if command.get("rule"):
            lines.append(f"     matches rule {command['rule']}")
        lines.extend(f"     {note}" for note in command["notes"])
    for problem in report["problems"]:
        lines.append(f"  note: a shell would stop here: {problem}")
    if report["unread"]:
        lines.append(f"  note: {len(report['unread'])} part(s) nested too deep to read")
    verdict = report["verdict"]
    if verdict is None:
        lines.append("verdict: allowed (no rule matched)")
    else:
        lines.append(f"verdict: blocked by rule {verdict['rule']} ({verdict['category']}): "
                     f"{verdict['what']}")
        lines.append(f"  instead: {verdict['instead']}")
    return lines
