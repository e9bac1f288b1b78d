"""Run hook commands the way Claude Code and Gemini CLI run them, and read results by their rules.

hookwrap's own hook host: ``hookwrap test`` and the project's tests use it to see what a real CLI
would do with a hook, without the CLI. One function per step:

* ``plan``: which registered commands fire for an event (each CLI's matcher rules, dedup,
  Gemini's ``sequential``), seed HOOK-162..165;
* ``run_command``: one command: a JSON object on stdin then EOF, ``bash -c``, the project dir as
  cwd, the CLI's environment and timeout (HOOK-061);
* ``interpret`` / ``interpret_contract``: a finished run read by a real CLI's rules, or by the
  seed's contract (HOOK-063..070, HOOK-177..181);
* ``aggregate``: several verdicts into one, any block blocks (HOOK-166, seed 004).

docs/runner-contract.md lists where each real CLI differs from the seed contract.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

CLAUDE, GEMINI = "claude", "gemini"
DEFAULT_BLOCK_REASON = "Blocked by hook"  # HOOK-067b: exit 2 with empty stderr still blocks


@dataclass(frozen=True)
class HookCommand:
    """One registered command handler, as a settings file describes it.

    ``timeout_s`` is in seconds whatever the platform (Gemini's milliseconds are converted when
    read); None means the CLI's default for the event. ``on_failure`` is Claude's ``onFailure``,
    ``sequential`` and ``env`` are Gemini's group flag and handler ``env``.
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


@dataclass(frozen=True)
class RunResult:
    """What one hook process did. ``exit_code`` is None when it never exited on its own."""

    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: int
    timed_out: bool = False
    signal: int | None = None
    spawn_error: str = ""

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


# ---------------------------------------------------------------------------------- matchers

_CLAUDE_TARGET = {
    **dict.fromkeys(("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
                     "PermissionDenied"), "tool_name"),
    "UserPromptExpansion": "command_name", "SessionStart": "source", "Setup": "trigger",
    "PreCompact": "trigger", "PostCompact": "trigger", "PreModelSwitch": "to_model",
    "PostModelSwitch": "to_model", "Notification": "notification_type", "SessionEnd": "reason",
    "StopFailure": "error", "SubagentStart": "agent_type", "SubagentStop": "agent_type",
    "Elicitation": "mcp_server_name", "ElicitationResult": "mcp_server_name",
    "ConfigChange": "source", "DirectoryAdded": "source", "InstructionsLoaded": "load_reason",
    "FileChanged": "file_path",
}
# Gemini consults the matcher only where the event passes a context (HOOK-162/163).
_GEMINI_TARGET = {"BeforeTool": "tool_name", "AfterTool": "tool_name", "SessionStart": "source",
                  "SessionEnd": "reason", "PreCompress": "trigger"}
# Claude Code matches a tool under its legacy names too (an exact "Task" fires for Agent).
_CLAUDE_LEGACY = {"Task": "Agent", "KillShell": "TaskStop", "KillBash": "TaskStop",
                  "ListPeers": "ListAgents", "Brief": "SendUserMessage",
                  "ListMcpResources": "ListMcpResourcesTool",
                  "ReadMcpResource": "ReadMcpResourceTool",
                  "ReadMcpResourceDir": "ReadMcpResourceDirTool", "ProposeGoal": "SetGoal"}
_SIMPLE_LIST = re.compile(r"^[a-zA-Z0-9_|, -]+$")
_SIMPLE_LIST_STRICT = re.compile(r"^[a-zA-Z0-9_|]+$")  # StopFailure, FileChanged


def match_target(platform: str, event: str, payload: Mapping) -> str | None:
    """The payload value an event's matcher is tested against, or None when it has none."""
    key = (_CLAUDE_TARGET if platform == CLAUDE else _GEMINI_TARGET).get(event)
    if key is None:
        return None
    value = str(payload.get(key, ""))
    return os.path.basename(value) if key == "file_path" else value


def is_tool_event(platform: str, event: str) -> bool:
    """True when the event's matcher selects tool names."""
    return (_CLAUDE_TARGET if platform == CLAUDE else _GEMINI_TARGET).get(event) == "tool_name"


def _js_regex(pattern: str) -> re.Pattern[str] | None:
    """Compile a JavaScript regex (no flags) with ``re``; None when JavaScript would reject it.

    Inline flags such as ``(?i)`` and Python's ``(?P<..>`` are not JavaScript syntax.
    """
    if re.search(r"\(\?(?![:=!<])", pattern):
        return None
    try:
        return re.compile(re.sub(r"\(\?<(?![=!])", "(?P<", pattern))
    except re.error:
        return None


def _claude_names(tool: str) -> set[str]:
    names = {tool}
    names.update(old for old, new in _CLAUDE_LEGACY.items() if new == tool)
    if tool in _CLAUDE_LEGACY:
        names.add(_CLAUDE_LEGACY[tool])
    return names


def matcher_matches(platform: str, event: str, matcher: str | None, target: str | None) -> bool:
    """Does ``matcher`` select a call whose match target is ``target``, on this CLI?"""
    if target is None or matcher is None:
        return True
    if platform == GEMINI:
        matcher = matcher.strip()
    if matcher in ("", "*"):
        return True
    if platform == GEMINI:
        if event not in ("BeforeTool", "AfterTool"):
            return matcher == target  # lifecycle triggers: exact equality
        compiled = _js_regex(matcher)
        return compiled.search(target) is not None if compiled else matcher == target
    names = _claude_names(target) if _CLAUDE_TARGET.get(event) == "tool_name" else {target}
    simple = _SIMPLE_LIST_STRICT if event in ("StopFailure", "FileChanged") else _SIMPLE_LIST
    if simple.match(matcher):
        parts = {p.strip() for p in re.split(r"[|,]" if simple is _SIMPLE_LIST else r"\|", matcher)}
        return bool(parts & names)
    compiled = _js_regex(matcher)  # an invalid regex matches nothing on Claude
    return compiled is not None and any(compiled.search(n) for n in names)


@dataclass(frozen=True)
class ExecutionPlan:
    """The commands that fire for one event, and whether they run one after another."""

    commands: tuple[HookCommand, ...]
    sequential: bool = False


def plan(platform: str, event: str, commands: Sequence[HookCommand], payload: Mapping) -> ExecutionPlan:
    """Select, de-duplicate and order the commands that fire for ``event`` (HOOK-162..165).

    Claude runs every matching handler in parallel, identical commands once. Gemini keys
    duplicates on ``name:command`` and runs all of them sequentially when any matching group
    says ``sequential``.
    """
    target = match_target(platform, event, payload)
    chosen: dict[str, HookCommand] = {}
    for cmd in commands:
        if cmd.platform == platform and cmd.event == event and \
                matcher_matches(platform, event, cmd.matcher, target):
            key = cmd.command if platform == CLAUDE else f"{cmd.name or ''}:{cmd.command}"
            chosen.setdefault(key, cmd)
    selected = tuple(chosen.values())
    return ExecutionPlan(selected, platform == GEMINI and any(c.sequential for c in selected))


# ---------------------------------------------------------------------------------- running

_GEMINI_VARS = re.compile(r"\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID"
                          r"|CLAUDE_PROJECT_DIR)")
_SAFE_WORD = re.compile(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}~])")


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
    return _SAFE_WORD.sub(lambda m: (m.group(1) or "") + "\\" + m.group(2), value)


def gemini_expand_command(command: str, env: Mapping[str, str]) -> str:
    """Gemini's textual substitution: literal ``$NAME`` (no braces, no word boundary) becomes
    the shell-quoted value; ``${NAME}`` is left for bash. So ``"$GEMINI_PROJECT_DIR/x"`` breaks
    on a path with a space, while ``"${GEMINI_PROJECT_DIR}/x"`` works."""
    return _GEMINI_VARS.sub(lambda m: shell_quote(env.get(m.group(1), "")), command)


def hook_env(platform: str, payload: Mapping, *, project_dir: str | Path,
             base: Mapping[str, str] | None = None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment the CLI gives a hook: its own environment plus its hook variables."""
    env = dict(os.environ if base is None else base)
    project, session = str(project_dir), str(payload.get("session_id", ""))
    if platform == CLAUDE:
        env.update(CLAUDE_PROJECT_DIR=project, CLAUDECODE="1", CLAUDE_CODE_SESSION_ID=session,
                   CLAUDE_CODE_ENTRYPOINT="sdk-cli", CLAUDE_PID=str(os.getpid()))
        effort = payload.get("effort")
        if isinstance(effort, Mapping) and effort.get("level"):
            env["CLAUDE_EFFORT"] = str(effort["level"])
    else:
        home = Path(env.get("GEMINI_CLI_HOME") or env.get("HOME") or Path.home())
        plans = home / ".gemini" / "tmp" / Path(project).name / session / "plans"
        env.update(GEMINI_PROJECT_DIR=project, GEMINI_CWD=project, GEMINI_SESSION_ID=session,
                   GEMINI_PLANS_DIR=str(plans), CLAUDE_PROJECT_DIR=project)
    env.update(extra or {})
    return env


def effective_timeout(cmd: HookCommand) -> float:
    """Seconds the CLI waits for ``cmd`` before it kills it."""
    if cmd.platform == GEMINI:
        return 60.0 if cmd.timeout_s is None else cmd.timeout_s
    if cmd.event == "SessionEnd":  # a 1.5 s budget, raised by a hook's timeout up to 60 s
        return 1.5 if cmd.timeout_s is None else min(cmd.timeout_s, 60.0)
    if cmd.timeout_s is not None:
        return cmd.timeout_s
    return 30.0 if cmd.event in ("UserPromptSubmit", "PreModelSwitch", "PostModelSwitch") else 600.0


def run_command(cmd: HookCommand, payload: Mapping, *, project_dir: str | Path,
                env: Mapping[str, str] | None = None) -> RunResult:
    """Run one hook command as its CLI would and capture everything it did (HOOK-061, 069)."""
    full_env = hook_env(cmd.platform, payload, project_dir=project_dir, base=env, extra=cmd.env)
    text = gemini_expand_command(cmd.command, full_env) if cmd.platform == GEMINI else cmd.command
    # Claude ends the object with a newline, Gemini does not; both then close stdin.
    data = (json.dumps(payload) + ("\n" if cmd.platform == CLAUDE else "")).encode()
    env_file = None
    if cmd.platform == CLAUDE and cmd.event == "SessionStart":
        fd, env_file = tempfile.mkstemp(prefix="hookwrap-env-", suffix=".sh")
        os.close(fd)
        full_env["CLAUDE_ENV_FILE"] = env_file
    try:
        return _spawn(["bash", "-c", text], data, str(project_dir), full_env, effective_timeout(cmd))
    finally:
        if env_file:
            Path(env_file).unlink(missing_ok=True)


def _spawn(argv: list[str], data: bytes, cwd: str, env: dict[str, str], timeout: float) -> RunResult:
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        return RunResult(None, "", "", 0, spawn_error=str(exc))
    timed_out = False
    try:
        out, err = proc.communicate(data, timeout=max(timeout, 0.001))
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)  # the whole group, so no grandchild holds the pipes open
        out, err = proc.communicate()
    ms = int((time.monotonic() - start) * 1000)
    code = proc.returncode
    if timed_out or code < 0:
        return RunResult(None, _text(out), _text(err), ms, timed_out, None if timed_out else -code)
    return RunResult(code, _text(out), _text(err), ms)


def _kill_group(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
            proc.wait(timeout=2)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


# ----------------------------------------------------------------------------- interpretation

_CLAUDE_BLOCKABLE = {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "PostToolUse",
                     "PostToolUseFailure"}
_CLAUDE_KEEP_WORKING = {"Stop", "SubagentStop", "TeammateIdle", "TaskCompleted"}
_CLAUDE_EXIT2_IGNORED = {"PermissionRequest", "PermissionDenied"}
_CLAUDE_TEXT_IS_CONTEXT = {"SessionStart", "UserPromptSubmit", "UserPromptExpansion"}
_CLAUDE_HSO_EVENTS = {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "SessionStart",
                      "Setup", "PreModelSwitch", "PostModelSwitch", "SubagentStart", "PostToolUse",
                      "PostToolUseFailure", "PostToolBatch", "Stop", "SubagentStop",
                      "PermissionDenied", "Notification", "PermissionRequest", "Elicitation",
                      "ElicitationResult", "CwdChanged", "FileChanged", "WorktreeCreate",
                      "MessageDisplay"}
_PRECEDENCE = ("blocked", "kept_working", "stopped", "deferred", "ask", "context", "allowed")


def interpret(platform: str, raw_event: str, result: RunResult, on_failure: str | None = None) -> Verdict:
    """What the real CLI does with ``result`` for ``raw_event`` (its own event name)."""
    if platform == CLAUDE:
        return _claude(raw_event, result, on_failure)
    return _gemini(raw_event, result)


def _failure(result: RunResult) -> str:
    """One line saying how a run failed, or "" when it exited on its own."""
    if result.spawn_error:
        return f"could not start: {result.spawn_error}"
    if result.timed_out:
        return f"timed out after {result.duration_ms} ms and was killed"
    if result.exit_code is None:
        return f"killed by signal {result.signal}"
    return ""


def _missing(r: RunResult) -> str:
    """A problem line when the command or script looks missing: bash exits 127, python3 exits 2
    ("can't open file"), and an exit 2 would otherwise pass for an intentional block."""
    if r.exit_code in (2, 126, 127) and re.search(
            r"No such file or directory|command not found|can't open file|Permission denied", r.stderr):
        return f"the hook command or script looks missing or not runnable: {_last_line(r.stderr)}"
    return ""


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def _claude(event: str, r: RunResult, on_failure: str | None) -> Verdict:
    # onFailure "block" turns a failure into exit 2, except where Claude ignores it.
    blocks_on_failure = on_failure == "block" and event not in _CLAUDE_KEEP_WORKING
    failure = _failure(r)
    if not failure and r.exit_code not in (0, 2):
        failure = f"exit {r.exit_code}: non-blocking error" + (
            f" ({_last_line(r.stderr)})" if r.stderr.strip() else "")
    if failure:
        if blocks_on_failure:
            return replace(_claude_exit2(event, r.stderr), clean=False, problems=(failure,))
        notes = ()
        if r.exit_code not in (None, 0) and r.stdout.strip().startswith("{"):
            notes = ("Claude Code's docs say JSON is read only at exit 0; its 2.1.328 binary may "
                     "still apply it: exit 0 when you print JSON",)
        return Verdict(success=False, clean=False, problems=(failure,), notes=notes)
    if r.exit_code == 2:
        verdict = _claude_exit2(event, r.stderr)
        missing = _missing(r)
        return replace(verdict, clean=False, problems=(missing,)) if missing else verdict
    kind, data, error = _claude_stdout(r.stdout)
    if error:
        return Verdict(clean=False, problems=(error,))
    if kind == "text":
        if event in _CLAUDE_TEXT_IS_CONTEXT:
            return Verdict("context", context=r.stdout.strip())
        return Verdict(notes=(f"plain stdout on {event} is not shown to the model",))
    return _claude_json(event, data) if kind == "json" else Verdict()


def _claude_exit2(event: str, stderr: str) -> Verdict:
    reason = stderr.strip() or "No stderr output"
    if event in _CLAUDE_BLOCKABLE:
        notes = ("the tool already ran; Claude is shown the reason",) if event.startswith("PostTool") else ()
        return Verdict("blocked", reason=reason, success=False, notes=notes)
    if event in _CLAUDE_KEEP_WORKING:
        return Verdict("kept_working", reason=reason, success=False)
    if event == "PostToolBatch":
        return Verdict("stopped", stop_reason=reason, success=False)
    if event in _CLAUDE_EXIT2_IGNORED:
        return Verdict(success=False, clean=False,
                       problems=(f"exit 2 is ignored on {event}: print JSON with a deny decision",))
    return Verdict(success=False, notes=(f"exit 2 cannot block {event}: stderr is shown to the user",))


def _claude_stdout(stdout: str) -> tuple[str, dict | None, str]:
    """Claude's stdout rules: ("empty"|"text"|"json", object, validation error)."""
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


def _claude_problems(event: str, data: dict) -> list[str]:
    problems = []
    if data.get("decision") not in (None, "approve", "block"):
        problems.append(f"decision must be \"approve\" or \"block\", not {data['decision']!r}")
    hso = data.get("hookSpecificOutput")
    if hso is not None and data.get("decision") != "block":
        if not isinstance(hso, dict) or hso.get("hookEventName") != event:
            got = hso.get("hookEventName") if isinstance(hso, dict) else None
            problems.append(f"hookSpecificOutput.hookEventName must be {event!r}, not {got!r}")
        elif event not in _CLAUDE_HSO_EVENTS:
            problems.append(f"{event} takes no hookSpecificOutput")
    return problems


def _claude_json(event: str, data: dict) -> Verdict:
    problems = _claude_problems(event, data)
    if problems:
        return Verdict(output=data, clean=False, problems=tuple(problems))
    hso = data.get("hookSpecificOutput") if isinstance(data.get("hookSpecificOutput"), dict) else {}
    base = Verdict(output=data, system_message=str(data.get("systemMessage") or ""),
                   context=str(hso.get("additionalContext") or ""),
                   stop_reason=str(data.get("stopReason") or "") if data.get("continue") is False else None)
    if event == "SessionEnd":
        return Verdict(output=data, notes=("SessionEnd output is discarded",))
    block = data.get("decision") == "block"
    reason = str(data.get("reason") or "")
    if event == "PreToolUse":
        decision = hso.get("permissionDecision") or ("deny" if block else None)
        reason = str(hso.get("permissionDecisionReason") or reason)
        updated = hso.get("updatedInput") if decision not in ("deny", "defer") else None
        outcome = {"deny": "blocked", "ask": "ask", "defer": "deferred"}.get(decision)
        return _settle(replace(base, updated_input=updated), outcome, reason)
    if event == "PermissionRequest":
        choice = hso.get("decision") if isinstance(hso.get("decision"), dict) else {}
        deny = choice.get("behavior") == "deny"
        return _settle(replace(base, updated_input=choice.get("updatedInput")),
                       "blocked" if deny else None, str(choice.get("message") or ""))
    if event == "PostToolUse" and "updatedToolOutput" in hso:
        base = replace(base, modifications={"updatedToolOutput": hso["updatedToolOutput"]})
    outcome = None
    if block and event in _CLAUDE_BLOCKABLE:
        outcome = "blocked"
    elif block and event in _CLAUDE_KEEP_WORKING:
        outcome = "kept_working"
    elif block and event == "PostToolBatch":
        base, outcome = replace(base, stop_reason=reason), "stopped"
    return _settle(base, outcome, reason)


def _settle(verdict: Verdict, outcome: str | None, reason: str = "") -> Verdict:
    """Pick the outcome: an explicit decision first, then a stop, then context."""
    if outcome is None:
        outcome = "stopped" if verdict.stop_reason is not None else (
            "context" if verdict.context else "allowed")
    return replace(verdict, outcome=outcome, reason=reason if outcome != "allowed" else verdict.reason)


def _gemini(event: str, r: RunResult) -> Verdict:
    failure = _failure(r)
    if failure:  # timeouts, signals and spawn errors fail open, output discarded
        return Verdict(success=False, clean=False, problems=(failure,))
    code = r.exit_code
    text = r.stdout.strip() or r.stderr.strip()  # stderr is read only when stdout is empty
    notes = ("stdout was empty, so Gemini read stderr",) if text and not r.stdout.strip() else ()
    output, parsed = _gemini_parse(text)
    if text and not parsed:
        if code == 0:
            output = {"decision": "allow", "systemMessage": text}
        elif code == 1:
            output = {"decision": "allow", "systemMessage": "Warning: " + text}
        else:
            output = {"decision": "deny", "reason": text}
    verdict = _gemini_apply(event, output or {})
    verdict = replace(verdict, output=output, success=code == 0, notes=notes + verdict.notes)
    if code == 0 or (code == 2 and verdict.outcome == "blocked" and not _missing(r)):
        return verdict
    if _missing(r):
        problem = _missing(r)
    elif code not in (1, 2) and verdict.outcome == "blocked":
        problem = f"exit {code} with output blocks on Gemini (fail-closed): {_last_line(text)}"
    else:
        problem = f"exit {code}: Gemini reports the hook as failed" + (
            "" if text else " and, with no output, lets the action proceed")
    return replace(verdict, clean=False, problems=(problem,))


def _gemini_parse(text: str) -> tuple[dict | None, bool]:
    """Gemini's JSON.parse step: (object or None, whether the text was JSON at all)."""
    if not text:
        return None, False
    try:
        value = json.loads(text)
        if isinstance(value, str):  # double-encoded JSON is accepted
            value = json.loads(value)
    except ValueError:
        return None, False
    return (value if isinstance(value, dict) else None), True


_GEMINI_CONTEXT = {"AfterTool", "BeforeAgent", "SessionStart"}
_GEMINI_NO_FLOW = {"BeforeToolSelection", "SessionStart", "SessionEnd", "PreCompress", "Notification"}
_GEMINI_MODS = {"BeforeModel": ("llm_request", "llm_response"), "AfterModel": ("llm_response",),
                "BeforeToolSelection": ("toolConfig",), "AfterTool": ("tailToolCallRequest",),
                "AfterAgent": ("clearContext",)}


def _gemini_apply(event: str, out: dict, *, real: bool = True) -> Verdict:
    """Read a Gemini-style output object for ``event``: by Gemini 0.61.0 (``real``), or by the
    seed contract, which lets every event try everything and then restricts it."""
    hso = out.get("hookSpecificOutput") if isinstance(out.get("hookSpecificOutput"), dict) else {}
    decision, reason = out.get("decision"), str(out.get("reason") or "")
    notes = [f"Gemini ignores Claude's hookSpecificOutput.{k}" for k in
             ("permissionDecision", "updatedInput") if k in hso and real]
    mod_keys = _GEMINI_MODS.get(event, ()) if real else _MOD_CAPABILITY
    base = Verdict(system_message=str(out.get("systemMessage") or ""),
                   context=str(hso.get("additionalContext") or "")
                   if event in _GEMINI_CONTEXT or not real else "",
                   modifications={k: hso[k] for k in mod_keys if k in hso},
                   updated_input=hso.get("tool_input") if event == "BeforeTool" else None,
                   notes=tuple(notes))
    if real and event in _GEMINI_NO_FLOW:
        return _settle(base, None)
    if out.get("continue") is False:
        base = replace(base, stop_reason=str(out.get("stopReason") or reason or "No reason provided"))
    outcome = None
    if decision in ("deny", "block"):
        outcome = "kept_working" if event == "AfterAgent" else "blocked"
    elif decision == "ask" and event == "BeforeTool":
        outcome = "ask"
    return _settle(base, outcome, reason)


# The seed's decision matrix (HOOK-177..181); events it does not list may decide anything.
CONTRACT_CAPABILITIES: dict[str, frozenset[str]] = {
    "BeforeTool": frozenset({"block", "modify_input", "stop"}),
    "AfterTool": frozenset({"add_context", "suppress_output", "system_message", "stop"}),
    "BeforeModel": frozenset({"block", "synthetic_response", "modify_request", "add_context", "stop"}),
    "AfterModel": frozenset({"modify_response", "replace_response", "suppress_output", "stop"}),
    "BeforeToolSelection": frozenset({"restrict_tools", "change_mode", "stop"}),
}
_MOD_CAPABILITY = {"llm_request": "modify_request", "llm_response": "modify_response",
                   "toolConfig": "restrict_tools", "tailToolCallRequest": "", "clearContext": ""}


def interpret_contract(raw_event: str, r: RunResult) -> Verdict:
    """The seed contract (HOOK-063..070): only exit 0 output is parsed, exit 2 always blocks
    with stderr (or a default reason), any other exit fails open; stderr is kept for
    diagnostics and never parsed for decisions."""
    failure = _failure(r) or (f"exit {r.exit_code}: hook failed, proceeding"
                              if r.exit_code not in (0, 2) else "")
    if failure:
        diag = (f"stderr: {r.stderr.strip()}",) if r.stderr.strip() else ()
        return Verdict(success=False, clean=False, problems=(failure,) + diag)
    if r.exit_code == 2:
        verdict = Verdict("blocked", reason=r.stderr.strip() or DEFAULT_BLOCK_REASON, success=False)
    else:
        output, parsed = _gemini_parse(r.stdout.strip())
        if r.stdout.strip() and not parsed:
            verdict = Verdict(system_message=r.stdout.strip(), output={"decision": "allow"})
        else:
            verdict = replace(_gemini_apply(raw_event, output or {}, real=False), output=output)
    return _restrict(raw_event, verdict)


def _restrict(event: str, v: Verdict) -> Verdict:
    """Drop what the event cannot decide per HOOK-177..181, with a note for each drop."""
    caps = CONTRACT_CAPABILITIES.get(event)
    if caps is None:
        return v
    notes = list(v.notes)
    if v.outcome == "blocked" and "block" not in caps:
        notes.append(f"{event} cannot block; the block is ignored")
        v = replace(v, outcome="allowed", reason="")
    if v.context and "add_context" not in caps:
        notes.append(f"{event} cannot add context")
        v = replace(v, context="", outcome="allowed" if v.outcome == "context" else v.outcome)
    if v.updated_input is not None and "modify_input" not in caps:
        v = replace(v, updated_input=None)
    mods = {k: m for k, m in v.modifications.items() if _MOD_CAPABILITY.get(k, "") in caps
            or (k == "llm_response" and "synthetic_response" in caps)}
    return replace(v, modifications=mods, notes=tuple(notes))


def aggregate(verdicts: Sequence[Verdict]) -> Verdict:
    """One verdict for an event: any block blocks, texts are joined, later inputs win (HOOK-166)."""
    if not verdicts:
        return Verdict()
    outcome = min((v.outcome for v in verdicts), key=_PRECEDENCE.index)
    join = lambda values: "\n".join(x for x in values if x)  # noqa: E731
    stops = [v.stop_reason for v in verdicts if v.stop_reason is not None]
    mods: dict = {}
    for v in verdicts:
        mods.update(v.modifications)
    return Verdict(
        outcome=outcome,
        reason=join(v.reason for v in verdicts if v.outcome == outcome),
        context=join(v.context for v in verdicts),
        system_message=join(v.system_message for v in verdicts),
        stop_reason=join(stops) if stops else None,
        updated_input=next((v.updated_input for v in reversed(verdicts)
                            if v.updated_input is not None), None),
        modifications=mods,
        success=all(v.success for v in verdicts),
        clean=all(v.clean for v in verdicts),
        problems=tuple(p for v in verdicts for p in v.problems),
        notes=tuple(n for v in verdicts for n in v.notes),
    )


# ----------------------------------------------------------------------------------- events

@dataclass(frozen=True)
class HookRun:
    """One command of an event: what it was given, what it did, what the CLI makes of it."""

    command: HookCommand
    payload: dict
    result: RunResult
    verdict: Verdict


@dataclass(frozen=True)
class EventResult:
    """Everything that happened when an event fired."""

    plan: ExecutionPlan
    runs: tuple[HookRun, ...]
    verdict: Verdict


def _judge(cmd: HookCommand, result: RunResult, contract: bool) -> Verdict:
    if contract:
        return interpret_contract(cmd.event, result)
    return interpret(cmd.platform, cmd.event, result, cmd.on_failure)


def _chain(event: str, payload: dict, verdict: Verdict) -> dict:
    """Gemini's sequential mode hands each hook's changes to the next one."""
    if event == "BeforeTool" and verdict.updated_input:
        return {**payload, "tool_input": {**payload.get("tool_input", {}), **verdict.updated_input}}
    if event == "BeforeAgent" and verdict.context:
        return {**payload, "prompt": f"{payload.get('prompt', '')}\n\n{verdict.context}"}
    if event == "BeforeModel" and isinstance(verdict.modifications.get("llm_request"), dict):
        request = {**payload.get("llm_request", {}), **verdict.modifications["llm_request"]}
        return {**payload, "llm_request": request}
    return payload


def execute(execution: ExecutionPlan, payload: dict, *, project_dir: str | Path,
            env: Mapping[str, str] | None = None, contract: bool = False) -> tuple[HookRun, ...]:
    """Run a plan's commands, one after another or all at once (HOOK-164/165)."""
    def one(cmd: HookCommand, given: dict) -> HookRun:
        result = run_command(cmd, given, project_dir=project_dir, env=env)
        return HookRun(cmd, given, result, _judge(cmd, result, contract))

    if execution.sequential:
        runs = []
        for cmd in execution.commands:
            runs.append(one(cmd, payload))
            payload = _chain(cmd.event, payload, runs[-1].verdict)
        return tuple(runs)
    if not execution.commands:
        return ()
    with ThreadPoolExecutor(max_workers=len(execution.commands)) as pool:
        return tuple(pool.map(lambda c: one(c, payload), execution.commands))


def fire(platform: str, event: str, commands: Sequence[HookCommand], payload: dict, *,
         project_dir: str | Path, env: Mapping[str, str] | None = None,
         contract: bool = False) -> EventResult:
    """Plan, run and aggregate one event, as the CLI would (``contract``: by the seed's rules)."""
    execution = plan(platform, event, commands, payload)
    runs = execute(execution, payload, project_dir=project_dir, env=env, contract=contract)
    return EventResult(execution, runs, aggregate([run.verdict for run in runs]))


# --------------------------------------------------------------------------------- settings

def commands_from_settings(platform: str, settings: Mapping) -> list[HookCommand]:
    """Every ``type: command`` handler of a parsed settings file, in file order.

    Shapes the CLI would skip (a non-list event, a group without a ``hooks`` list) are skipped.
    """
    commands = []
    hooks = settings.get("hooks")
    for event, groups in (hooks.items() if isinstance(hooks, Mapping) else ()):
        for group in groups if isinstance(groups, list) else ():
            handlers = group.get("hooks") if isinstance(group, Mapping) else None
            for handler in handlers if isinstance(handlers, list) else ():
                if isinstance(handler, Mapping) and handler.get("type") == "command" \
                        and isinstance(handler.get("command"), str) and handler["command"]:
                    commands.append(_command(platform, event, group, handler))
    return commands


def _command(platform: str, event: str, group: Mapping, handler: Mapping) -> HookCommand:
    timeout = handler.get("timeout")
    number = isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
    timeout_s = float(timeout) if number else None
    if timeout_s is not None and platform == GEMINI:
        timeout_s /= 1000.0
    matcher = group.get("matcher")
    env = handler.get("env") if platform == GEMINI and isinstance(handler.get("env"), Mapping) else None
    return HookCommand(platform, event, handler["command"], timeout_s,
                       matcher if isinstance(matcher, str) else None,
                       handler.get("name") if isinstance(handler.get("name"), str) else None,
                       handler.get("onFailure") if platform == CLAUDE else None,
                       bool(group.get("sequential")) if platform == GEMINI else False, env)
