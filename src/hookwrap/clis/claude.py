"""Claude Code: its record. Every fact here was checked against 2.1.328
(/work/shared/reference/claude-code.md) and again against 2.1.332's shipped code, where the one
change that concerns hookwrap is the PreSkillShellCommand event (facts labelled 2.1.332; the
other events' input and output schemas are those of 2.1.328, but for PermissionRequest's
internal tool_kind and mcp_skill). Qwen Code, Copilot CLI and Factory Droid are this record with
their differences (``derive(CLAUDE, ...)``)."""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._claude_protocol import ClaudeProtocol
from ._record import CLIRecord

_E = NormalizedEvent

CLAUDE = CLIRecord(
    Platform.CLAUDE,
    label="Claude Code",
    protocol=ClaudeProtocol,
    events={
        "Stop": _E.AFTER_AGENT,
        "SubagentStop": _E.AFTER_AGENT,
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "PostToolUseFailure": _E.AFTER_TOOL_FAILURE,
        "PostToolBatch": _E.AFTER_TOOL_BATCH,
        "PermissionRequest": _E.PERMISSION_REQUEST,
        "PermissionDenied": _E.PERMISSION_DENIED,
        "Notification": _E.NOTIFICATION,
        "PreCompact": _E.PRE_COMPACT,
        "PostCompact": _E.POST_COMPACT,
        "SubagentStart": _E.SUBAGENT_START,
        "StopFailure": _E.STOP_FAILURE,
        # 2.1.332: before a skill's or slash command's inline shell command (!`cmd`), which
        # never reaches PreToolUse; the payload is PreToolUse's (tool_name Bash or PowerShell,
        # tool_input.command). 2.1.328 has no such event and ignores the key.
        "PreSkillShellCommand": _E.BEFORE_TOOL,
    },
    # Stop and SubagentStop share after_agent: registrations go to Stop; before_tool's go to
    # PreToolUse, and to PreSkillShellCommand for the shell (skill_shell_events below).
    preferred_events={_E.AFTER_AGENT: "Stop", _E.BEFORE_TOOL: "PreToolUse"},
    skill_shell_events=("PreSkillShellCommand",),
    tools={
        "Write": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "Bash": "shell",
        "PowerShell": "shell",  # Windows; a PreSkillShellCommand payload names it (2.1.332)
        "Glob": "glob",
        "Grep": "grep",
        "WebFetch": "web_fetch",
        "WebSearch": "web_search",
        "Task": "task",
        "Agent": "task",  # the subagent tool's current name; Task is the legacy alias
        "NotebookEdit": "notebook_edit",
        "TodoWrite": "write_todos",
    },
    preferred_tools={"task": "Task", "shell": "Bash"},  # "Task": the name REQ-006 lists
    tool_fields={"shell": ("command", "description"),
                 "write_file": ("file_path", "content"),
                 "edit_file": ("file_path", "old_string", "new_string", "replace_all"),
                 "read_file": ("file_path", "offset", "limit")},
    project_dir_vars=("CLAUDE_PROJECT_DIR",),
    hook_process_env={"CLAUDECODE": "1"},
    # Claude Code exports CLAUDECODE to its Bash tool too: a CLI started from there inherits it.
    shell_tool_env={"CLAUDECODE": "1"},
    # Copilot CLI 1.0.102 also runs .claude/settings.json hooks, and sets COPILOT_PROJECT_DIR
    # for its hook processes only.
    guest_clis={"copilot": "COPILOT_PROJECT_DIR"},
    # REQ-006.6.2: context also goes to systemMessage (shown to the user), except at start.
    context_to_user=frozenset(_E) - {_E.SESSION_START},
)
