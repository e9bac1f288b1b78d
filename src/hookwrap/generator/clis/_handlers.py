"""Handler schemas: what one entry of a Claude-dialect CLI's settings may hold, and how the CLI
reads it (the command, its timeout in seconds, which entries run once or one after another).

A record names its schema in ``handler_schema``; messages name the CLI by its ``label``:

- ``claude`` (Claude Code 2.1.328): command, prompt, agent, http and mcp_tool handlers; ``if``,
  ``onFailure``, ``async``...; warnings for entries Claude loads and then skips on an event.
- ``qwen`` (Qwen Code 0.24.4): command, http and prompt handlers with ``name``, ``env`` and a
  timeout that may be a digit string; entries run once per name and command, and a group
  with ``sequential`` runs its hooks one after another.
- ``copilot`` (Copilot CLI 1.0.102): ``command`` or ``bash``/``powershell``/``exec``,
  ``timeout`` or ``timeoutSec``, ``cwd``, ``env``.
- ``command-only`` (Factory Droid 0.225.2): ``type: command``, ``command`` and ``timeout``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from .kit import (
    ERROR,
    WARNING,
    HookCommand,
    Problem,
    boolean,
    check_keys,
    is_number,
    nonempty_string,
    number_or_none,
    object_,
    one_of,
    positive_number,
    string,
    string_list,
    string_map,
    unknown_keys,
    url,
)

if TYPE_CHECKING:
    from ._base import AgentSetup


class HandlerSchema:
    """A family of handler shapes."""

    def validate(self, agent: AgentSetup, handler: Any, event: str, path: str) -> list[Problem]:
        """Problems of one handler as it would sit under ``event``."""
        raise NotImplementedError

    def read(self, agent: AgentSetup, event: str, group: Mapping[str, Any],
             handler: Mapping[str, Any]) -> HookCommand:
        """A settings handler as a HookCommand (timeouts converted to seconds)."""
        matcher = group.get("matcher")
        return HookCommand(agent.platform.value, event, str(handler.get("command", "")),
                           number_or_none(handler.get("timeout")),
                           matcher if isinstance(matcher, str) else None, None, None)

    def dedup_key(self, cmd: HookCommand) -> str:
        """Commands with the same key run once per event."""
        return cmd.command

    def runs_sequentially(self, commands: tuple[HookCommand, ...]) -> bool:
        """Whether the selected commands run one after another."""
        return False


# --- claude ---------------------------------------------------------------------------------
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


class ClaudeHandlers(HandlerSchema):
    def validate(self, agent: AgentSetup, handler: Any, event: str, path: str) -> list[Problem]:
        if not isinstance(handler, dict):
            return [Problem(path, "must be an object")]
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

    def read(self, agent: AgentSetup, event: str, group: Mapping[str, Any],
             handler: Mapping[str, Any]) -> HookCommand:
        matcher = group.get("matcher")
        return HookCommand(agent.platform.value, event, handler["command"],
                           number_or_none(handler.get("timeout")),
                           matcher if isinstance(matcher, str) else None,
                           handler.get("name") if isinstance(handler.get("name"), str) else None,
                           handler.get("onFailure"))


# --- qwen -----------------------------------------------------------------------------------
def _qwen_timeout(value: Any) -> str | None:
    if isinstance(value, str) and value.strip().isdigit():
        return None
    if not is_number(value) or value <= 0:
        return "must be a positive number of seconds (Qwen falls back to 60)"
    return None


class QwenHandlers(HandlerSchema):
    def validate(self, agent: AgentSetup, handler: Any, event: str, path: str) -> list[Problem]:
        if not isinstance(handler, dict):
            return [Problem(path, "must be an object")]
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
                and 600 <= timeout < agent.timeout_ms_from:
            problems.append(Problem(f"{path}.timeout", f"is {timeout:g} seconds; values from "
                                    f"{agent.timeout_ms_from} on are milliseconds", WARNING))
        return problems + unknown_keys(handler, frozenset(spec), path, agent.label)

    def read(self, agent: AgentSetup, event: str, group: Mapping[str, Any],
             handler: Mapping[str, Any]) -> HookCommand:
        timeout = agent.timeout_seconds(number_or_none(handler.get("timeout")))
        matcher = group.get("matcher")
        env = handler.get("env")
        return HookCommand(agent.platform.value, event, handler["command"], timeout,
                           matcher if isinstance(matcher, str) else None,
                           handler.get("name") if isinstance(handler.get("name"), str) else None,
                           None, bool(group.get("sequential")),
                           env if isinstance(env, dict) else None)

    def dedup_key(self, cmd: HookCommand) -> str:
        return f"{cmd.name}:{cmd.command}" if cmd.name else cmd.command

    def runs_sequentially(self, commands: tuple[HookCommand, ...]) -> bool:
        return any(c.sequential for c in commands)


# --- copilot --------------------------------------------------------------------------------
class CopilotHandlers(HandlerSchema):
    def validate(self, agent: AgentSetup, handler: Any, event: str, path: str) -> list[Problem]:
        if not isinstance(handler, dict):
            return [Problem(path, "must be an object")]
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

    def read(self, agent: AgentSetup, event: str, group: Mapping[str, Any],
             handler: Mapping[str, Any]) -> HookCommand:
        matcher = group.get("matcher")
        command = handler.get("command", handler.get("bash", ""))
        timeout = handler.get("timeout", handler.get("timeoutSec"))
        return HookCommand(agent.platform.value, event, str(command), number_or_none(timeout),
                           matcher if isinstance(matcher, str) else None, None, None)


# --- command-only ---------------------------------------------------------------------------
class CommandOnlyHandlers(HandlerSchema):
    def validate(self, agent: AgentSetup, handler: Any, event: str, path: str) -> list[Problem]:
        if not isinstance(handler, dict):
            return [Problem(path, "must be an object")]
        spec = {"type": one_of("command"), "command": nonempty_string, "timeout": positive_number}
        problems = check_keys(handler, spec, ("type", "command"), path, ERROR)
        return problems + unknown_keys(handler, frozenset(spec), path, agent.label)


HANDLER_SCHEMAS: dict[str, HandlerSchema] = {
    "claude": ClaudeHandlers(), "qwen": QwenHandlers(), "copilot": CopilotHandlers(),
    "command-only": CommandOnlyHandlers(),
}
