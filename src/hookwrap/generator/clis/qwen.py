"""Qwen Code: its command half, composed from Claude-dialect behaviours (a hook process needs only
``clis/qwen.py``, whose record holds every fact read here)."""

from __future__ import annotations

from ...clis._record import derive
from ...clis.qwen import QWEN
from ...names import NormalizedEvent
from ._answers import read_qwen
from ._base import AgentSetup
from ._handlers import NamedHandlers
from ._matchers import NameAliasOrSearch
from ._trust_stores import FolderRules
from .claude import CLAUDE_COMMAND

# The hookwrap command's facts (Claude Code's, but for these) (checked against the version in the record).
QWEN_COMMAND = derive(
    CLAUDE_COMMAND,
    # JSON with comments; Qwen itself rewrites the file, adding "$version", and hookwrap keeps
    # every key it finds.
    settings_file=".qwen/settings.json",
    user_file="${QWEN_HOME:-~/.qwen}/settings.json",
    executable="qwen",
    version_notes=(),
    settings_comments=True,
    known_settings_events=(
        "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
        "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay",
        "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
        "SessionDelete", "PermissionRequest", "PermissionDenied", "StopFailure", "TodoCreated",
        "TodoCompleted", "InstructionsLoaded",
    ),
    unknown_event_note="Qwen Code skips it",
    invalid_entry_drops_event=False,  # an invalid entry is dropped alone (debug log only)
    group_keys=frozenset({"matcher", "sequential", "hooks"}),
    hooks_not_a_list="must be a list; Qwen Code drops this definition",
    no_matcher_events=frozenset({"UserPromptSubmit", "Stop", "MessageDisplay", "PostToolBatch",
                                 "SessionDelete", "TodoCreated", "TodoCompleted"}),
    scope_files=(("~/.qwen/settings.json", "${QWEN_HOME:-~/.qwen}/settings.json", False),),
    # Bash expands the variable (Qwen substitutes none on bash), so one quoted word works for a
    # path with a space.
    command_form='{python} "$QWEN_PROJECT_DIR/{script}" {args}--platform {platform}',
    handler_keys=("type", "command", "name", "timeout", "description"),
    fail_closed_key="",
    timeout_ms_from=1000,  # Qwen reads 1000 and more as milliseconds: 1200 s is written 1200000
    lifecycle_values={
        NormalizedEvent.SESSION_START: ("startup", "resume", "clear", "compact"),
        NormalizedEvent.SESSION_END: ("clear", "resume", "logout", "prompt_input_exit", "other"),
        NormalizedEvent.PRE_COMPACT: ("manual", "auto"),
        NormalizedEvent.POST_COMPACT: ("manual", "auto"),
    },
    # UserPromptExpansion's answer is read as UserPromptSubmit's (qwen-code.md 1.8).
    reads_like={"UserPromptExpansion": "UserPromptSubmit"},
    match_targets={
        **dict.fromkeys(("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
                         "PermissionDenied"), "tool_name"),
        "SubagentStart": "agent_type", "SubagentStop": "agent_type", "PreCompact": "trigger",
        "PostCompact": "trigger", "SessionStart": "source", "SessionEnd": "reason",
        "StopFailure": "error", "Notification": "notification_type",
        "InstructionsLoaded": "file_path", "UserPromptExpansion": "command_name",
    },
    default_timeout_s=60.0,
    stdin_newline=False,
    env_file_events=frozenset(),
    hook_env_vars={"QWEN_PROJECT_DIR": "{project}", "CLAUDE_PROJECT_DIR": "{project}",
                   "GEMINI_PROJECT_DIR": "{project}", "QWEN_CODE_CLI": "1",
                   "QWEN_CODE_SESSION_ID": "{session_id}"},
    empty_tool_response={"llmContent": "", "returnDisplay": ""},
    payload_has_timestamp=True,
    system_message_shown="for the user, but `qwen -p` does not show it",
    suspicious_timeout_s=0,  # its handler schema warns about 600-999 s instead (1000 on are ms)
    # --- what the command's behaviours read ----------------------------------------------------
    short_label="Qwen",
    # Exact-match aliases of a tool name in a matcher (tool-names.ts TOOL_NAME_ALIASES).
    matcher_aliases={
        "run_shell_command": ("Bash", "Shell", "ShellTool"),
        "write_file": ("Write", "WriteFile"),
        "edit": ("Edit", "replace"),
        "read_file": ("Read", "ReadFile"),
        "grep_search": ("Grep", "search_file_content", "SearchFiles"),
        "glob": ("Glob", "FindFiles"),
        "list_directory": ("ListFiles", "ReadFolder"),
        "agent": ("Agent", "Task", "task"),
        "web_fetch": ("WebFetch",),
    },
    nonpositive_timeout_is_default=True,  # Qwen falls back to 60 s
    doctor_command_checks=(
        ("command", r"QWEN_CODE_PROJECT_DIR", "fail",
         "{where}: $QWEN_CODE_PROJECT_DIR is Qwen's state folder (~/.qwen/projects/...), not "
         "the project", 'use "$QWEN_PROJECT_DIR/..."'),
        ("stripped matcher", r"(?s)^(?=.*[\^$.*+?()\[\]])(?=.*\b(?:Bash|Write|Edit|Read|Grep|Glob)\b)",
         "warn", "{where}: matcher {matcher!r} is a regex over Claude tool names; Qwen matches "
         "those only as exact aliases", "use Qwen's names, e.g. ^(run_shell_command|write_file)$"),
    ),
    # 0.24.4's ShellProcessor checks the permission rules, then runs the command itself
    # (executeRuntimeShell): no PreToolUse, no hook at all. Docs: docs/guard.md.
    unhooked_shell=tuple((f".qwen/commands/**/*.{ext}", r"!\{",
                          "runs a custom command's `!{...}` shell injection without calling any "
                          "hook: the guard never sees it") for ext in ("toml", "md")),
)

SETUP = AgentSetup(
    QWEN, QWEN_COMMAND, matchers=NameAliasOrSearch(), handlers=NamedHandlers(), answers=read_qwen,
    # With folder trust on, Qwen drops the project's hooks in an untrusted folder (0.24.4).
    trust=FolderRules(file="${QWEN_HOME:-~/.qwen}/trustedFolders.json",
                      file_var="QWEN_CODE_TRUSTED_FOLDERS_PATH",
                      shown="~/.qwen/trustedFolders.json",
                      switch=("security", "folderTrust", "enabled"),
                      untrusted="(and refuses the shell tool)"))
