"""Run hook commands the way Claude Code and Gemini CLI run them, and read results by their rules.

hookwrap's own hook host: ``hookwrap test`` and the project's tests use it to see what a real CLI
would do with a hook, without the CLI. One function per step:

* ``plan``: which registered commands fire for an event (each CLI's matcher rules, dedup,
  Gemini's ``sequential``), seed HOOK-162..165;
* ``run_command``: one command: a JSON object on stdin then EOF, ``bash -c``, the project dir as
  cwd, the CLI's environment and timeout (HOOK-061);
* ``interpret`` / ``interpret_contract`` / ``aggregate`` (from verdicts.py, re-exported): a
  finished run read by a real CLI's rules or the seed's contract, and any block blocks.

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
from dataclasses import dataclass
from pathlib import Path

# Reading results lives in verdicts.py; host re-exports it so runner users import one module.
from .verdicts import (  # noqa: F401
    CLAUDE,
    DEFAULT_BLOCK_REASON,
    GEMINI,
    RunResult,
    Verdict,
    aggregate,
    interpret,
    interpret_contract,
)


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

GEMINI_VARS = re.compile(r"\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID"
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
    return GEMINI_VARS.sub(lambda m: shell_quote(env.get(m.group(1), "")), command)


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
