"""Claude Code: its record. Every fact here was checked against 2.1.328
(/work/shared/reference/claude-code.md) and again against 2.1.332's shipped code, where the one
change that concerns hookwrap is the PreSkillShellCommand event (facts labelled 2.1.332; the
other events' input and output schemas are those of 2.1.328, but for PermissionRequest's
internal tool_kind and mcp_skill). Qwen Code, Copilot CLI and Factory Droid are this record with
their differences (``CLAUDE.derive``)."""

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
    # 2.1.332 runs skills' and slash commands' inline shell commands past PreToolUse and asks
    # PreSkillShellCommand instead: a before_tool hook that selects the shell is registered
    # there too, with the shell's tool names as matcher.
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

    # --- the hookwrap command's facts ------------------------------------------------------
    settings_file=".claude/settings.json",  # plain JSON: Claude Code rejects a file with comments
    executable="claude",
    # 2.1.328 runs them with no hook at all (the same /probe made its marker file; drift review).
    version_notes=(("2.1.332", _E.BEFORE_TOOL,  # the release of a fact, not a pin
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
    # No trust gate for hooks (they run in `claude -p` in any folder), but the interactive CLI
    # asks once per folder, and records the answer here: projects.<path>.hasTrustDialogAccepted
    # (2.1.328, docs/e2e-recipe). `hookwrap doctor` reads it as the user's trust in the folder.
    trust_facts={"dialog_file": "${CLAUDE_CONFIG_DIR:-~}/.claude.json",
                 "shown": "Claude Code's folder trust dialog"},
    scope_files=((".claude/settings.local.json", "{root}/.claude/settings.local.json", False),
                 ("~/.claude/settings.json", "${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json", False)),
    command_form='{python} "$CLAUDE_PROJECT_DIR"/{script} {args}--platform {platform}',
    # onFailure is ignored on Stop; elsewhere it makes a crash or timeout block.
    fail_closed_key="onFailure",
    fail_closed_value="block",
    fail_closed_events=frozenset(_E) - {_E.AFTER_AGENT},
    tool_events=frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE,
                           _E.PERMISSION_REQUEST, _E.PERMISSION_DENIED}),
    lifecycle_values={
        _E.SESSION_START: ("startup", "resume", "clear", "compact", "fork"),
        _E.SESSION_END: ("clear", "resume", "logout", "prompt_input_exit", "other"),
        _E.PRE_COMPACT: ("manual", "auto"),
        _E.POST_COMPACT: ("manual", "auto"),
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
    default_timeout_s=600.0,
    stdin_newline=True,  # Claude ends the object with a newline
    env_file_events=frozenset({"SessionStart"}),  # CLAUDE_ENV_FILE, a file of exports
    hook_env_vars={"CLAUDE_PROJECT_DIR": "{project}", "CLAUDECODE": "1",
                   "CLAUDE_CODE_SESSION_ID": "{session_id}", "CLAUDE_CODE_ENTRYPOINT": "sdk-cli",
                   "CLAUDE_PID": "{pid}"},
    system_message_shown="shown to the user",
    suspicious_timeout_s=1000,  # far above the 600 s default, so almost surely meant as ms
    doctor_reported_paths=frozenset({"disableAllHooks"}),
    # The generator's families (generator/clis/_matchers.py, _handlers.py, _answers.py).
    matcher_rule="claude",
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
    handler_schema="claude",
    answer_reader="claude",
)
