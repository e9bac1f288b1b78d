"""Claude Code: what the hookwrap command needs to know about it (a hook process needs only
``clis/claude.py``).

Claude Code's matchers, handler shape and answer reader are behaviours (``_matchers``,
``_handlers``, ``_answers``) that any Claude-dialect CLI may be composed from; this module adds
what only Claude Code does: http handlers for resident hooks, the ``if`` filter,
plain-name matchers, the note that an invalid PreToolUse entry voids the file's permissions, its
permissions checks, FileChanged matched by a file's name, CLAUDE_EFFORT and its timeouts.
"""

from __future__ import annotations

import os
import re
from typing import Any, Mapping

from ...clis.claude import CLAUDE
from ...names import NormalizedEvent
from ._answers import read_claude
from ._base import AgentSetup, Doctor, HostRules, Registration
from ._facts import CommandFacts
from ._handlers import NO_HTTP_EVENTS, ClaudeHandlers
from ._matchers import ExactListOrSearch
from ._trust_stores import FolderDialog
from .kit import HookCommand, Problem, errors_only, string_list

# The hookwrap command's facts (checked against the version in the record).
CLAUDE_COMMAND = CommandFacts(
    settings_file=".claude/settings.json",  # plain JSON: Claude Code rejects a file with comments
    user_file="${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json",
    executable="claude",
    # 2.1.328 runs them with no hook at all (the same /probe made its marker file; drift review).
    version_notes=(("2.1.332", NormalizedEvent.BEFORE_TOOL,  # the release of a fact, not a pin
                    "runs slash commands' and skills' inline shell commands (!`cmd`) without any "
                    "hook: the guard cannot see them; 2.1.332 or newer can"),),
    known_settings_events=(
        "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
        "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
        "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
        "PreModelSwitch", "PostModelSwitch", "PermissionRequest", "PermissionDenied", "Setup",
        "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult",
        "ConfigChange", "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged",
        "FileChanged", "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand",
    ),
    invalid_entry_drops_event=True,
    no_matcher_events=frozenset({
        "UserPromptSubmit", "Stop", "PostToolBatch", "TeammateIdle", "TaskCreated",
        "TaskCompleted", "WorktreeCreate", "WorktreeRemove", "CwdChanged", "MessageDisplay"}),
    disable_key="disableAllHooks",
    scope_files=((".claude/settings.local.json", "{root}/.claude/settings.local.json", False),
                 ("~/.claude/settings.json", "${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json", False)),
    command_form='{python} "$CLAUDE_PROJECT_DIR"/{script} {args}--platform {platform}',
    # onFailure is ignored on Stop; elsewhere it makes a crash or timeout block.
    fail_closed_key="onFailure",
    fail_closed_value="block",
    fail_closed_events=frozenset(NormalizedEvent) - {NormalizedEvent.AFTER_AGENT},
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL, NormalizedEvent.AFTER_TOOL_FAILURE,
                           NormalizedEvent.PERMISSION_REQUEST, NormalizedEvent.PERMISSION_DENIED}),
    lifecycle_values={
        NormalizedEvent.SESSION_START: ("startup", "resume", "clear", "compact", "fork"),
        NormalizedEvent.SESSION_END: ("clear", "resume", "logout", "prompt_input_exit", "other"),
        NormalizedEvent.PRE_COMPACT: ("manual", "auto"),
        NormalizedEvent.POST_COMPACT: ("manual", "auto"),
    },
    match_targets={
        **dict.fromkeys(("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
                         "PermissionDenied", "PreSkillShellCommand"), "tool_name"),
        "UserPromptExpansion": "command_name", "SessionStart": "source", "Setup": "trigger",
        "PreCompact": "trigger", "PostCompact": "trigger", "PreModelSwitch": "to_model",
        "PostModelSwitch": "to_model", "Notification": "notification_type",
        "SessionEnd": "reason", "StopFailure": "error", "SubagentStart": "agent_type",
        "SubagentStop": "agent_type", "Elicitation": "mcp_server_name",
        "ElicitationResult": "mcp_server_name", "ConfigChange": "source",
        "DirectoryAdded": "source", "InstructionsLoaded": "load_reason",
        "FileChanged": "file_path",  # matched by the file's name
    },
    # claude-code-schema.md 2.2 (2.1.328): exit 2 or decision "block" blocks the expansion
    # and plain stdout is context, as on UserPromptSubmit; exit 2 keeps a teammate working and
    # keeps a task from being marked completed, as on Stop (onFailure ignored there too); it
    # cancels a task, a model switch (which reads permissionDecision), a settings change and
    # an MCP elicitation (declined), as it blocks a tool call.
    reads_like={"UserPromptExpansion": "UserPromptSubmit", "TeammateIdle": "Stop",
                "TaskCompleted": "Stop", "TaskCreated": "PreToolUse",
                "PreModelSwitch": "PreToolUse", "ConfigChange": "PreToolUse",
                "Elicitation": "PreToolUse"},
    default_timeout_s=600.0,
    stdin_newline=True,  # Claude ends the object with a newline
    env_file_events=frozenset({"SessionStart"}),  # CLAUDE_ENV_FILE, a file of exports
    hook_env_vars={"CLAUDE_PROJECT_DIR": "{project}", "CLAUDECODE": "1",
                   "CLAUDE_CODE_SESSION_ID": "{session_id}", "CLAUDE_CODE_ENTRYPOINT": "sdk-cli",
                   "CLAUDE_PID": "{pid}"},
    system_message_shown="shown to the user",
    # benchmarks/run.py --cli: four quiet runs and nine on a busy 2-core machine (docs/performance.md).
    resident_cost=("Claude Code 2.1.332 spends 5-10 ms of CPU of its own around each call it posts "
                   "(up to 18 on a busy machine; the server about 1 ms): on a quiet machine a "
                   "resident guard added 3-9 ms a call against 24-28 ms for the guard as a command, but in three runs of thirteen, each "
                   "begun at a load average of 4 or more, over a third of it (docs/performance.md)"),
    suspicious_timeout_s=1000,  # far above the 600 s default, so almost surely meant as ms
    doctor_reported_paths=frozenset({"disableAllHooks"}),
    # What the command's behaviours read (generator/clis/_matchers.py).
    # A tool matcher also selects a tool by its legacy name, and the other way round.
    matcher_aliases={
        "Agent": ("Task",), "Task": ("Agent",),
        "TaskStop": ("KillShell", "KillBash"), "KillShell": ("TaskStop",), "KillBash": ("TaskStop",),
        "ListAgents": ("ListPeers",), "ListPeers": ("ListAgents",),
        "SendUserMessage": ("Brief",), "Brief": ("SendUserMessage",),
        "ListMcpResourcesTool": ("ListMcpResources",), "ListMcpResources": ("ListMcpResourcesTool",),
        "ReadMcpResourceTool": ("ReadMcpResource",), "ReadMcpResource": ("ReadMcpResourceTool",),
        "ReadMcpResourceDirTool": ("ReadMcpResourceDir",),
        "ReadMcpResourceDir": ("ReadMcpResourceDirTool",),
        "SetGoal": ("ProposeGoal",), "ProposeGoal": ("SetGoal",),
    },
)

# An invalid entry here makes Claude Code skip the permissions declared in the same file
# (2.1.328: PreToolUse and PermissionRequest; 2.1.332 adds PreSkillShellCommand).
_GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "PreSkillShellCommand"})
_SIMPLE_NAME = r"^[A-Za-z0-9_-]+$"


class ClaudeRegistration(Registration):
    """Claude Code's settings: http handlers for resident hooks, the ``if`` filter, plain-name matchers."""

    def http_handler(self, agent: AgentSetup, url: str, *, timeout_s: int, fail_closed: bool,
                     event: NormalizedEvent) -> dict[str, Any] | None:
        if agent.runtime.event_names().get(event) in NO_HTTP_EVENTS:
            return None  # skipped there: the hook stays a command
        handler: dict[str, Any] = {"type": "http", "url": url, "timeout": timeout_s}
        # A refused connection, a hang or a non-2xx answer is a failure: "block" fails closed.
        if fail_closed and event is not NormalizedEvent.AFTER_AGENT:
            handler["onFailure"] = "block"
        return handler

    def command_filter(self, agent: AgentSetup, patterns: list[str],
                       tool_names: list[str]) -> dict[str, Any]:
        # `if` holds one permission rule: several patterns are left to the runtime filter. It
        # names the preferred shell (Bash); PowerShell calls (Windows) skip such a hook.
        if len(patterns) != 1:
            return {}
        return {"if": f"{tool_names[0]}({patterns[0]})"}

    def tool_matcher(self, agent: AgentSetup, names: list[str]) -> str | None:
        # Plain names joined by | are an exact list; anything else is a regex.
        if all(re.match(_SIMPLE_NAME, n) for n in names):
            return "|".join(names)
        return super().tool_matcher(agent, names)


class ClaudeCodeGroups(ClaudeHandlers):
    """Claude's handler shape, and the note that an invalid PreToolUse or PermissionRequest entry voids the file's permissions."""

    def validate_group(self, agent: AgentSetup, group: Any, event: str, path: str) -> list[Problem]:
        problems = super().validate_group(agent, group, event, path)
        if isinstance(group, dict) and event in _GUARD_EVENTS and errors_only(problems):
            problems.append(Problem(path, f"an invalid {event} entry makes Claude Code skip the "
                                    "permissions declared in this file"))
        return problems


class ClaudeDoctor(Doctor):
    """The permissions Claude Code rejects the whole file for."""

    def validate_file(self, agent: AgentSetup, data: dict[str, Any]) -> list[Problem]:
        problems: list[Problem] = []
        permissions = data.get("permissions")
        if "permissions" in data and not isinstance(permissions, dict):
            problems.append(Problem("permissions", "must be an object; Claude Code rejects the file"))
        elif isinstance(permissions, dict):
            for key in ("allow", "deny", "ask", "additionalDirectories"):
                if key in permissions and string_list(permissions[key]):
                    problems.append(Problem(f"permissions.{key}", "must be a list of strings; "
                                            "Claude Code rejects the file"))
        return problems + super().validate_file(agent, data)


class FileNameMatchers(ExactListOrSearch):
    """Claude's matchers; FileChanged is matched by the file's name."""

    def match_target(self, agent: AgentSetup, event: str, payload: Mapping[str, Any]) -> str | None:
        value = super().match_target(agent, event, payload)  # FileChanged is matched by the file's name
        return os.path.basename(value) if value and agent.facts.match_targets[event] == "file_path" else value


class ClaudeHost(HostRules):
    """CLAUDE_EFFORT, and Claude Code's per-event timeouts."""

    def hook_env(self, agent: AgentSetup, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        env = super().hook_env(agent, payload, project_dir, env)
        effort = payload.get("effort")
        if isinstance(effort, dict) and effort.get("level"):
            env["CLAUDE_EFFORT"] = str(effort["level"])
        return env

    def effective_timeout(self, agent: AgentSetup, cmd: HookCommand) -> float:
        if cmd.event == "SessionEnd":  # a 1.5 s budget, raised by a hook's timeout up to 60 s
            return 1.5 if cmd.timeout_s is None else min(cmd.timeout_s, 60.0)
        if cmd.timeout_s is not None:
            return cmd.timeout_s
        return 30.0 if cmd.event in ("UserPromptSubmit", "PreModelSwitch", "PostModelSwitch") else 600.0


SETUP = AgentSetup(CLAUDE, CLAUDE_COMMAND, registration=ClaudeRegistration(), matchers=FileNameMatchers(),
                   handlers=ClaudeCodeGroups(), answers=read_claude, host=ClaudeHost(),
                   # No trust gate for hooks (they run in `claude -p` in any folder), but the
                   # interactive CLI asks once per folder and records the answer (2.1.328,
                   # docs/e2e-recipe); doctor reads it as the user's trust in the folder.
                   trust=FolderDialog(dialog_file="${CLAUDE_CONFIG_DIR:-~}/.claude.json"),
                   doctor=ClaudeDoctor())
