"""Validators for the `hooks` of Claude Code (2.1.328) and Gemini CLI (0.61.0) settings files.

Each check returns `Problem`s instead of raising, so `doctor` can list them all and the writer
can refuse an entry it is about to write. Severity "error" means the CLI drops the entry, event
or file (or the hook can never run); "warning" means it loads but something is ignored or odd.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

ERROR = "error"
WARNING = "warning"

CLAUDE_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
    "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
    "PreModelSwitch", "PostModelSwitch", "PermissionRequest", "PermissionDenied", "Setup",
    "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult",
    "ConfigChange", "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged",
    "FileChanged", "DirectoryAdded", "MessageDisplay",
)
GEMINI_EVENTS = (
    "BeforeTool", "AfterTool", "BeforeAgent", "Notification", "AfterAgent", "SessionStart",
    "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection",
)

_CLAUDE_TOOL_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)
# An invalid entry here makes Claude Code skip the permissions declared in the same file.
_CLAUDE_GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})
_CLAUDE_NO_MATCHER_EVENTS = frozenset(
    {"UserPromptSubmit", "Stop", "PostToolBatch", "TeammateIdle", "TaskCreated", "TaskCompleted",
     "WorktreeCreate", "WorktreeRemove", "CwdChanged", "MessageDisplay"}
)
# Events run outside the REPL executor, where prompt and agent handlers never run.
_CLAUDE_NO_LLM_EVENTS = frozenset(
    {"Notification", "SessionEnd", "PreCompact", "PostCompact", "ConfigChange", "DirectoryAdded",
     "Elicitation", "ElicitationResult", "CwdChanged", "FileChanged", "InstructionsLoaded",
     "WorktreeCreate", "WorktreeRemove"}
)
_CLAUDE_NO_HTTP_EVENTS = frozenset({"SessionStart", "Setup"})
_CLAUDE_INTERNAL_KEYS = frozenset({"rewakeMessage", "rewakeSummary", "cloud"})
# Claude timeouts are seconds; a value this large is almost always milliseconds by mistake.
_CLAUDE_SUSPICIOUS_TIMEOUT = 10_000

_GEMINI_TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})
# Lifecycle matchers are compared with ===, so only these exact values ever fire.
_GEMINI_TRIGGERS = {
    "SessionStart": frozenset({"startup", "resume", "clear"}),
    "SessionEnd": frozenset({"exit", "clear", "logout", "prompt_input_exit", "other"}),
    "PreCompress": frozenset({"auto", "manual"}),
}
_GEMINI_HOOKS_CONFIG_KEYS = frozenset({"enabled", "disabled", "notifications"})


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


# --- value checks: each returns a message, or None when the value is fine --------------------

Check = Callable[[Any], "str | None"]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _string(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a string"


def _nonempty_string(value: Any) -> str | None:
    return None if isinstance(value, str) and value.strip() else "must be a non-empty string"


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _positive_number(value: Any) -> str | None:
    return None if _is_number(value) and value > 0 else "must be a positive number"


def _string_list(value: Any) -> str | None:
    ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
    return None if ok else "must be a list of strings"


def _string_map(value: Any) -> str | None:
    ok = isinstance(value, dict) and all(isinstance(item, str) for item in value.values())
    return None if ok else "must be an object of strings"


def _object(value: Any) -> str | None:
    return None if isinstance(value, dict) else "must be an object"


def _url(value: Any) -> str | None:
    parsed = urlparse(value) if isinstance(value, str) else None
    ok = parsed is not None and parsed.scheme in ("http", "https") and bool(parsed.netloc)
    return None if ok else "must be an http(s) URL"


def _one_of(*choices: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in choices else "must be one of " + ", ".join(map(repr, choices))

    return check


def _check_keys(handler: dict, spec: dict[str, Check], required: tuple[str, ...],
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


def _unknown_keys(obj: dict, known: frozenset[str] | set[str], path: str, cli: str) -> list[Problem]:
    return [Problem(f"{path}.{key}", f"unknown key; {cli} ignores it", WARNING)
            for key in obj if key not in known]


# --- Claude Code ------------------------------------------------------------------------------

_CLAUDE_COMMON: dict[str, Check] = {
    "if": _string, "timeout": _positive_number, "statusMessage": _string, "once": _boolean,
}
_CLAUDE_TYPES: dict[str, tuple[tuple[str, ...], dict[str, Check]]] = {
    "command": (("command",), {
        "command": _nonempty_string, "args": _string_list, "shell": _one_of("bash", "powershell"),
        "onFailure": _one_of("continue", "block"), "async": _boolean, "asyncRewake": _boolean,
        "asyncTimeout": _positive_number,
    }),
    "prompt": (("prompt",), {"prompt": _nonempty_string, "model": _string, "continueOnBlock": _boolean}),
    "agent": (("prompt",), {"prompt": _nonempty_string, "model": _string}),
    "http": (("url",), {
        "url": _url, "headers": _string_map, "allowedEnvVars": _string_list,
        "onFailure": _one_of("continue", "block"),
    }),
    "mcp_tool": (("server", "tool"), {
        "server": _nonempty_string, "tool": _nonempty_string, "input": _object,
        "onFailure": _one_of("continue", "block"),
    }),
}


def _claude_event_fit(handler: dict, event: str, path: str) -> list[Problem]:
    # Valid entries that Claude Code loads and then skips when the event fires: this hook never
    # runs, but unlike a schema error it takes no other hook down with it, hence warnings.
    kind = handler.get("type")
    problems = []
    if "if" in handler and event not in _CLAUDE_TOOL_EVENTS:
        problems.append(Problem(f"{path}.if", f"is only evaluated on tool events; on {event} "
                                "Claude Code skips this hook", WARNING))
    if kind in ("prompt", "agent") and event in _CLAUDE_NO_LLM_EVENTS:
        problems.append(Problem(f"{path}.type", f"{kind} hooks never run on {event}", WARNING))
    if kind == "http" and event in _CLAUDE_NO_HTTP_EVENTS:
        problems.append(Problem(f"{path}.type", f"http hooks are skipped on {event}", WARNING))
    return problems


def _claude_handler(handler: Any, event: str, path: str) -> list[Problem]:
    if not isinstance(handler, dict):
        return [Problem(path, "must be an object")]
    kind = handler.get("type")
    if kind not in _CLAUDE_TYPES:
        return [Problem(f"{path}.type", "must be one of " + ", ".join(map(repr, _CLAUDE_TYPES)))]
    required, own = _CLAUDE_TYPES[kind]
    spec = {**_CLAUDE_COMMON, **own}
    problems = _check_keys(handler, spec, required, path, ERROR)
    problems += [Problem(f"{path}.{key}", "is internal to Claude Code; do not set it", WARNING)
                 for key in handler if key in _CLAUDE_INTERNAL_KEYS]
    timeout = handler.get("timeout")
    if _is_number(timeout) and timeout >= _CLAUDE_SUSPICIOUS_TIMEOUT:
        problems.append(Problem(f"{path}.timeout", f"is in seconds; {timeout:g}s looks like "
                                "milliseconds", WARNING))
    known = {"type", *spec, *_CLAUDE_INTERNAL_KEYS}
    problems += _unknown_keys(handler, known, path, "Claude Code")
    return problems + _claude_event_fit(handler, event, path)


def _claude_group(group: Any, event: str, path: str) -> list[Problem]:
    if not isinstance(group, dict):
        return [Problem(path, "must be an object with a \"hooks\" list")]
    problems = []
    if "matcher" in group and not isinstance(group["matcher"], str):
        problems.append(Problem(f"{path}.matcher", "must be a string (null is not allowed)"))
    elif "matcher" in group and event in _CLAUDE_NO_MATCHER_EVENTS:
        problems.append(Problem(f"{path}.matcher", f"is ignored on {event}", WARNING))
    handlers = group.get("hooks")
    if not isinstance(handlers, list):
        problems.append(Problem(f"{path}.hooks", "must be a list"))
    else:
        for index, handler in enumerate(handlers):
            problems += _claude_handler(handler, event, f"{path}.hooks[{index}]")
    problems += _unknown_keys(group, {"matcher", "hooks"}, path, "Claude Code")
    if event in _CLAUDE_GUARD_EVENTS and errors_only(problems):
        problems.append(Problem(path, f"an invalid {event} entry makes Claude Code skip the "
                                "permissions declared in this file"))
    return problems


# --- Gemini CLI -------------------------------------------------------------------------------

def _gemini_timeout(value: Any) -> str | None:
    if value == 0 and not isinstance(value, bool):
        return "0 means an immediate timeout; use milliseconds, e.g. 60000"
    if isinstance(value, str) and value.strip().isdigit():
        return None  # Gemini coerces numeric strings; reported as a warning separately
    if not _is_number(value) or value < 0:
        return "must be a positive whole number of milliseconds"
    return None


_GEMINI_HANDLER: dict[str, Check] = {
    "type": _one_of("command"), "command": _nonempty_string, "timeout": _gemini_timeout,
    "name": _string, "description": _string, "env": _string_map,
}


def _gemini_handler(handler: Any, path: str) -> list[Problem]:
    if not isinstance(handler, dict):
        return [Problem(path, "must be an object")]
    problems = _check_keys(handler, _GEMINI_HANDLER, ("type", "command"), path, ERROR)
    timeout = handler.get("timeout")
    if isinstance(timeout, str) and timeout.strip().isdigit():
        problems.append(Problem(f"{path}.timeout", "is a string; Gemini converts it to a number",
                                WARNING))
    elif isinstance(timeout, float) and timeout > 0 and not timeout.is_integer():
        problems.append(Problem(f"{path}.timeout", "should be a whole number of milliseconds",
                                WARNING))
    return problems + _unknown_keys(handler, frozenset(_GEMINI_HANDLER), path, "Gemini CLI")


def _gemini_matcher(matcher: Any, event: str, path: str) -> list[Problem]:
    if not isinstance(matcher, str):
        return [Problem(path, "must be a string")]
    if matcher.strip() in ("", "*"):
        return []
    if event not in _GEMINI_TOOL_EVENTS and event not in _GEMINI_TRIGGERS:
        return [Problem(path, f"is ignored on {event}", WARNING)]
    allowed = _GEMINI_TRIGGERS.get(event)
    if allowed is not None and matcher.strip() not in allowed:
        choices = ", ".join(sorted(allowed))
        return [Problem(path, f"is compared exactly on {event} and never matches; use one of {choices}")]
    return []


def _gemini_group(group: Any, event: str, path: str) -> list[Problem]:
    if not isinstance(group, dict):
        return [Problem(path, "must be an object with a \"hooks\" list")]
    problems = []
    if "matcher" in group:
        problems += _gemini_matcher(group["matcher"], event, f"{path}.matcher")
    if "sequential" in group and not isinstance(group["sequential"], bool):
        problems.append(Problem(f"{path}.sequential", "must be true or false"))
    handlers = group.get("hooks")
    if not isinstance(handlers, list):
        problems.append(Problem(f"{path}.hooks", "must be a list; Gemini drops this definition"))
    else:
        for index, handler in enumerate(handlers):
            problems += _gemini_handler(handler, f"{path}.hooks[{index}]")
    return problems + _unknown_keys(group, {"matcher", "sequential", "hooks"}, path, "Gemini CLI")


# --- entry points -----------------------------------------------------------------------------

def _is_claude(platform: str) -> bool:
    return platform == "claude"


def validate_handler(handler: Any, platform: str, event: str, *, path: str) -> list[Problem]:
    """Check one handler (`{"type": "command", ...}`) as it would sit under `event`."""
    if _is_claude(platform):
        return _claude_handler(handler, event, path)
    return _gemini_handler(handler, path)


def validate_group(group: Any, platform: str, event: str, *, path: str) -> list[Problem]:
    """Check one matcher group (`{"matcher": ..., "hooks": [...]}`) under `event`."""
    if _is_claude(platform):
        return _claude_group(group, event, path)
    return _gemini_group(group, event, path)


def known_events(platform: str) -> tuple[str, ...]:
    """The event names the platform's settings accept."""
    return CLAUDE_EVENTS if _is_claude(platform) else GEMINI_EVENTS


def validate_event(event: str, groups: Any, platform: str, *, path: str = "hooks") -> list[Problem]:
    """Check the value of one event key under `hooks`."""
    where = f"{path}.{event}"
    if _is_claude(platform) and event not in CLAUDE_EVENTS:
        return [Problem(where, "unknown hook event; Claude Code ignores it", WARNING)]
    if not _is_claude(platform) and event in _GEMINI_HOOKS_CONFIG_KEYS:
        return [Problem(where, f"has no effect here; use hooksConfig.{event}", WARNING)]
    if not _is_claude(platform) and event not in GEMINI_EVENTS:
        return [Problem(where, "unknown hook event; Gemini CLI skips it with a warning", WARNING)]
    if not isinstance(groups, list):
        return [Problem(where, "must be a list of matcher groups")]
    problems: list[Problem] = []
    for index, group in enumerate(groups):
        problems += validate_group(group, platform, event, path=f"{where}[{index}]")
    return problems


def validate_hooks(hooks: Any, platform: str, *, path: str = "hooks") -> list[Problem]:
    """Check a whole `hooks` object of the given platform's settings file."""
    if not isinstance(hooks, dict):
        return [Problem(path, "must be an object mapping event names to lists")]
    problems: list[Problem] = []
    for event, groups in hooks.items():
        problems += validate_event(event, groups, platform, path=path)
    return problems


def _claude_file(data: dict) -> list[Problem]:
    problems: list[Problem] = []
    permissions = data.get("permissions")
    if "permissions" in data and not isinstance(permissions, dict):
        problems.append(Problem("permissions", "must be an object; Claude Code rejects the file"))
    elif isinstance(permissions, dict):
        for key in ("allow", "deny", "ask", "additionalDirectories"):
            if key in permissions and _string_list(permissions[key]):
                problems.append(Problem(f"permissions.{key}", "must be a list of strings; "
                                        "Claude Code rejects the file"))
    if data.get("disableAllHooks") is True:
        problems.append(Problem("disableAllHooks", "is true: no hook runs", WARNING))
    return problems


def _gemini_file(data: dict) -> list[Problem]:
    config = data.get("hooksConfig")
    if "hooksConfig" in data and not isinstance(config, dict):
        return [Problem("hooksConfig", "must be an object")]
    if not isinstance(config, dict):
        return []
    problems = []
    if config.get("enabled") is False:
        problems.append(Problem("hooksConfig.enabled", "is false: no hook runs", WARNING))
    if "disabled" in config and _string_list(config["disabled"]):
        problems.append(Problem("hooksConfig.disabled", "must be a list of strings", WARNING))
    return problems


def validate_settings(data: Any, platform: str) -> list[Problem]:
    """Check a parsed settings file: its `hooks` plus the cheap whole-file checks."""
    if not isinstance(data, dict):
        return [Problem("(top level)", "must be a JSON object")]
    problems = _claude_file(data) if _is_claude(platform) else _gemini_file(data)
    if "hooks" in data:
        problems += validate_hooks(data["hooks"], platform)
    return problems
