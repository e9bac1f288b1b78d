"""Claude Code: what the hookwrap command needs to know about it beyond its record's families
(a hook process needs only ``clis/claude.py``).

Claude Code's matcher rule, handler schema and answer reader are families
(``_matchers``, ``_handlers``, ``_answers``) that any Claude-dialect record may name; this
module adds what only Claude Code does: http handlers for resident hooks, the ``if`` filter,
plain-name matchers, the note that an invalid PreToolUse entry voids the file's permissions, its
permissions checks, FileChanged matched by a file's name, CLAUDE_EFFORT and its timeouts.
"""

from __future__ import annotations

import re

from ...clis.claude import _E, CLAUDE
from ...names import NormalizedEvent
from ._claude_dialect import ClaudeDialectSetup
from ._handlers import NO_HTTP_EVENTS
from .kit import HookCommand, Problem, errors_only, string_list

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping


# An invalid entry here makes Claude Code skip the permissions declared in the same file
# (2.1.328: PreToolUse and PermissionRequest; 2.1.332 adds PreSkillShellCommand).
_GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "PreSkillShellCommand"})
_SIMPLE_NAME = r"^[A-Za-z0-9_-]+$"


class ClaudeCodeSetup(ClaudeDialectSetup):
    """What only Claude Code does, beyond the families its record names: http hooks, the
    ``if`` filter, plain-name matchers, the permissions it validates, its timeouts."""

    # --- generator: registrations (the record holds the settings file, the command form and
    # the tables; here is what Claude Code alone does) --------------------------------------
    def http_handler(self, url: str, *, timeout_s: int, fail_closed: bool,
                     event: NormalizedEvent) -> dict[str, Any] | None:
        if self.event_names().get(event) in NO_HTTP_EVENTS:
            return None  # skipped there: the hook stays a command
        handler: dict[str, Any] = {"type": "http", "url": url, "timeout": timeout_s}
        # A refused connection, a hang or a non-2xx answer is a failure: "block" fails closed.
        if fail_closed and event is not _E.AFTER_AGENT:
            handler["onFailure"] = "block"
        return handler

    def command_filter(self, patterns: list[str], tool_names: list[str]) -> dict[str, Any]:
        # `if` holds one permission rule: several patterns are left to the runtime filter. It
        # names the preferred shell (Bash); PowerShell calls (Windows) skip such a hook.
        if len(patterns) != 1:
            return {}
        return {"if": f"{tool_names[0]}({patterns[0]})"}

    def tool_matcher(self, names: list[str]) -> str | None:
        # Plain names joined by | are an exact list; anything else is a regex.
        if all(re.match(_SIMPLE_NAME, n) for n in names):
            return "|".join(names)
        return super().tool_matcher(names)

    # --- generator: validation -------------------------------------------------------------
    def validate_group(self, group: Any, event: str, path: str) -> list[Problem]:
        problems = super().validate_group(group, event, path)
        if isinstance(group, dict) and event in _GUARD_EVENTS and errors_only(problems):
            problems.append(Problem(path, f"an invalid {event} entry makes Claude Code skip the "
                                    "permissions declared in this file"))
        return problems

    def validate_file(self, data: dict[str, Any]) -> list[Problem]:
        problems: list[Problem] = []
        permissions = data.get("permissions")
        if "permissions" in data and not isinstance(permissions, dict):
            problems.append(Problem("permissions", "must be an object; Claude Code rejects the file"))
        elif isinstance(permissions, dict):
            for key in ("allow", "deny", "ask", "additionalDirectories"):
                if key in permissions and string_list(permissions[key]):
                    problems.append(Problem(f"permissions.{key}", "must be a list of strings; "
                                            "Claude Code rejects the file"))
        return problems + super().validate_file(data)

    # --- generator: host rules -------------------------------------------------------------
    def match_target(self, event: str, payload: Mapping[str, Any]) -> str | None:
        import os

        value = super().match_target(event, payload)  # FileChanged is matched by the file's name
        return os.path.basename(value) if value and self.match_targets[event] == "file_path" else value

    def hook_env(self, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        env = super().hook_env(payload, project_dir, env)
        effort = payload.get("effort")
        if isinstance(effort, dict) and effort.get("level"):
            env["CLAUDE_EFFORT"] = str(effort["level"])
        return env

    def effective_timeout(self, cmd: HookCommand) -> float:
        if cmd.event == "SessionEnd":  # a 1.5 s budget, raised by a hook's timeout up to 60 s
            return 1.5 if cmd.timeout_s is None else min(cmd.timeout_s, 60.0)
        if cmd.timeout_s is not None:
            return cmd.timeout_s
        return 30.0 if cmd.event in ("UserPromptSubmit", "PreModelSwitch", "PostModelSwitch") else 600.0


CLI = ClaudeCodeSetup(CLAUDE)
