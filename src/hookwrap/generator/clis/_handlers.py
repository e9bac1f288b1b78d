"""Handler shapes of the Claude dialects: what one entry of a CLI's settings may hold, and how
the CLI reads it (the command, its timeout in seconds, which entries run once or one after
another).

A CLI's setup is composed with one of these; messages name the CLI by its ``label``:

- ``ClaudeHandlers`` (Claude Code 2.1.328): command, prompt, agent, http and mcp_tool handlers; ``if``,
  ``onFailure``, ``async``...; warnings for entries Claude loads and then skips on an event.
- ``NamedHandlers`` (Qwen Code 0.24.4): command, http and prompt handlers with ``name``, ``env`` and a
  timeout that may be a digit string; entries run once per name and command, and a group
  with ``sequential`` runs its hooks one after another.
- ``ShellChoiceHandlers`` (Copilot CLI 1.0.102): ``command`` or ``bash``/``powershell``/``exec``,
  ``timeout`` or ``timeoutSec``, ``cwd``, ``env``.
- ``CommandOnlyHandlers`` (Factory Droid 0.225.2): ``type: command``, ``command`` and ``timeout``.
"""

from __future__ import annotations

from typing import Any

from ._base import AgentSetup, Handlers
from .kit import (
    ERROR,
    WARNING,
    HookCommand,
    Problem,
    boolean,
    check_keys,
    is_number,
    nonempty_string,
    object_,
    one_of,
    positive_number,
    string,
    string_list,
    string_map,
    unknown_keys,
    url,
)

# --- Claude Code's shape ----------------------------------------------------------------------
_CLAUDE_INTERNAL_KEYS = frozenset({"rewakeMessage", "rewakeSummary", "cloud"})
# Timeouts are seconds; a value this large is almost always milliseconds by mistake.
_CLAUDE_SUSPICIOUS_TIMEOUT = 10_000
# Events run outside the REPL executor, where prompt and agent handlers never run.
_NO_LLM_EVENTS = frozenset(
    {"Notification", "SessionEnd", "PreCompact", "PostCompact", "ConfigChange", "DirectoryAdded",
     "Elicitation", "ElicitationResult", "CwdChanged", "FileChanged", "InstructionsLoaded",
     "WorktreeCreate", "WorktreeRemove"})
NO_HTTP_EVENTS = frozenset({"SessionStart", "Setup"})
# Events where a prompt or agent handler does not run and blocks what it matches (2.1.332).
_LLM_BLOCKS_EVENTS = frozenset({"PreSkillShellCommand"})


def _claude_types() -> dict[str, tuple[tuple[str, ...], dict[str, Any]]]:
    return {
        "command": (("command",), {
            "command": nonempty_string, "args": string_list, "shell": one_of("bash", "powershell"),
            "onFailure": one_of("continue", "block"), "async": boolean, "asyncRewake": boolean,
            "asyncTimeout": positive_number,
        }),
        "prompt": (("prompt",), {"prompt": nonempty_string, "model": string,
                                 "continueOnBlock": boolean}),
        "agent": (("prompt",), {"prompt": nonempty_string, "model": string}),
        "http": (("url",), {
            "url": url, "headers": string_map, "allowedEnvVars": string_list,
            "onFailure": one_of("continue", "block"),
        }),
        "mcp_tool": (("server", "tool"), {
            "server": nonempty_string, "tool": nonempty_string, "input": object_,
            "onFailure": one_of("continue", "block"),
        }),
    }


class ClaudeHandlers(Handlers):
    reads = frozenset({"name", "onFailure"})

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        types = _claude_types()
        kind = handler.get("type")
        if kind not in types:
            return [Problem(f"{path}.type", "must be one of " + ", ".join(map(repr, types)))]
        required, own = types[kind]
        spec = {"if": string, "timeout": positive_number, "statusMessage": string,
                "once": boolean, **own}
        problems = check_keys(handler, spec, required, path, ERROR)
        problems += [Problem(f"{path}.{key}", f"is internal to {agent.label}; do not set it",
                             WARNING) for key in handler if key in _CLAUDE_INTERNAL_KEYS]
        timeout = handler.get("timeout")
        if is_number(timeout) and timeout >= _CLAUDE_SUSPICIOUS_TIMEOUT:
            problems.append(Problem(f"{path}.timeout", f"is in seconds; {timeout:g}s looks like "
                                    "milliseconds", WARNING))
        problems += unknown_keys(handler, {"type", *spec, *_CLAUDE_INTERNAL_KEYS}, path,
                                 agent.label)
        return problems + self._event_fit(agent, handler, event, path)

    def _event_fit(self, agent: AgentSetup, handler: dict[str, Any], event: str,
                   path: str) -> list[Problem]:
        # Valid entries that the CLI loads and then skips when the event fires: this hook never
        # runs, but unlike a schema error it takes no other hook down with it, hence warnings.
        kind = handler.get("type")
        problems = []
        if "if" in handler and not agent.is_tool_event(event):
            problems.append(Problem(f"{path}.if", f"is only evaluated on tool events; on {event} "
                                    f"{agent.label} skips this hook", WARNING))
        if kind in ("prompt", "agent") and event in _LLM_BLOCKS_EVENTS:
            problems.append(Problem(f"{path}.type", f"{kind} hooks never run on {event}: "
                                    f"{agent.label} blocks every command it matches", WARNING))
        if kind in ("prompt", "agent") and event in _NO_LLM_EVENTS:
            problems.append(Problem(f"{path}.type", f"{kind} hooks never run on {event}", WARNING))
        if kind == "http" and event in NO_HTTP_EVENTS:
            problems.append(Problem(f"{path}.type", f"http hooks are skipped on {event}", WARNING))
        return problems


# --- named, with env and a digit-string timeout (Qwen Code) ------------------------------------
def _qwen_timeout(value: Any) -> str | None:
    if isinstance(value, str) and value.strip().isdigit():
        return None
    if not is_number(value) or value <= 0:
        return "must be a positive number of seconds (Qwen falls back to 60)"
    return None


class NamedHandlers(Handlers):
    reads = frozenset({"name", "sequential", "env"})

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        kinds = {"command": ("command",), "http": ("url",), "prompt": ("prompt",)}
        kind = handler.get("type")
        if kind not in kinds:
            return [Problem(f"{path}.type", "must be one of 'command', 'http', 'prompt'; "
                            f"{agent.label} drops this entry")]
        spec = {"type": string, "command": nonempty_string, "name": string,
                "timeout": _qwen_timeout, "env": string_map, "async": boolean,
                "shell": one_of("bash", "powershell"), "statusMessage": string,
                "description": string, "url": url, "headers": string_map,
                "allowedEnvVars": string_list, "once": boolean, "prompt": nonempty_string,
                "model": string}
        problems = check_keys(handler, spec, kinds[kind], path, ERROR)
        timeout = handler.get("timeout")
        if is_number(timeout) and isinstance(timeout, (int, float)) \
                and 600 <= timeout < agent.facts.timeout_ms_from:
            problems.append(Problem(f"{path}.timeout", f"is {timeout:g} seconds; values from "
                                    f"{agent.facts.timeout_ms_from} on are milliseconds", WARNING))
        return problems + unknown_keys(handler, frozenset(spec), path, agent.label)

    def dedup_key(self, agent: AgentSetup, cmd: HookCommand) -> str:
        return f"{cmd.name}:{cmd.command}" if cmd.name else cmd.command

    def runs_sequentially(self, agent: AgentSetup, commands: tuple[HookCommand, ...]) -> bool:
        return any(c.sequential for c in commands)


# --- a command per shell, timeout or timeoutSec (Copilot CLI) -----------------------------------
class ShellChoiceHandlers(Handlers):
    command_keys, timeout_keys = ("command", "bash"), ("timeout", "timeoutSec")

    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        spec = {"type": one_of("command", "http", "prompt"), "command": nonempty_string,
                "bash": nonempty_string, "powershell": nonempty_string, "exec": nonempty_string,
                "cwd": string, "env": string_map, "timeout": positive_number,
                "timeoutSec": positive_number, "url": string, "prompt": string}
        required = ("url",) if handler.get("type") == "http" else ()
        problems = check_keys(handler, spec, required, path, ERROR)
        if handler.get("type", "command") == "command" and not any(
                k in handler for k in ("command", "bash", "powershell", "exec")):
            problems.append(Problem(path, f"has no command; {agent.label} drops it"))
        return problems + unknown_keys(handler, frozenset(spec), path, agent.label)


# --- command only (Factory Droid) ----------------------------------------------------------------
class CommandOnlyHandlers(Handlers):
    def object_problems(self, agent: AgentSetup, handler: dict[str, Any], event: str, path: str) -> list[Problem]:
        spec = {"type": one_of("command"), "command": nonempty_string, "timeout": positive_number}
        problems = check_keys(handler, spec, ("type", "command"), path, ERROR)
        return problems + unknown_keys(handler, frozenset(spec), path, agent.label)
