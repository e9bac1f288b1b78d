"""Qwen Code 0.24.4: Claude Code's record with Qwen's differences (checked against that release;
/work/shared/reference/qwen-code.md, docs/qwen-copilot-notes.md).

Qwen speaks Claude Code's hook protocol (event names, payload fields, output JSON, exit 2
blocks) with its own tool names (``run_shell_command``, ``write_file``, ``edit``);
``$QWEN_PROJECT_DIR`` names the project (``QWEN_CODE_PROJECT_DIR`` is Qwen's state folder);
it ignores ``updatedInput``, PreToolUse context and a PostToolUse block, each mapped to what it
does read; ``UserPromptSubmit`` fires before every model request, with an empty prompt after
each tool result, which is no prompt.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from .claude import CLAUDE

_E = NormalizedEvent

QWEN = CLAUDE.derive(
    Platform.QWEN,
    label="Qwen Code",
    # The same names, read the same way, but for Claude Code 2.1.332's PreSkillShellCommand.
    events={name: event for name, event in CLAUDE.events.items()
            if name not in CLAUDE.skill_shell_events},
    skill_shell_events=(),  # no PreSkillShellCommand (Claude Code 2.1.332 only)
    tools={
        "run_shell_command": "shell",
        # monitor (0.24.4) runs {"command", "description"} in a shell and streams its output
        # back as notifications; PreToolUse sees it as "monitor": a shell call to the guard.
        "monitor": "shell",
        "write_file": "write_file",
        "edit": "edit_file",
        "replace": "edit_file",  # the legacy name, still an alias
        "read_file": "read_file",
        "grep_search": "grep",
        "glob": "glob",
        "list_directory": "list_directory",
        "web_fetch": "web_fetch",
        "web_search": "web_search",
        "agent": "task",
        "todo_write": "write_todos",
        "save_memory": "save_memory",
        "skill": "skill",
        "notebook_edit": "notebook_edit",
    },
    preferred_tools={"edit_file": "edit"},
    tool_fields={"shell": ("command",), "write_file": ("file_path", "content")},
    # QWEN_CODE_PROJECT_DIR is Qwen's per-project state folder, not the project.
    project_dir_vars=("QWEN_PROJECT_DIR",),
    hook_process_env={},  # not Claude Code's: Qwen sets no CLAUDECODE
    shell_tool_env={},
    guest_clis={},  # Qwen runs no other CLI's hook files
    empty_prompt_is_no_prompt=True,
    context_to_user=frozenset(),  # Qwen shows no systemMessage in -p and never sends it on
    # Qwen cannot apply a rewritten tool input (updatedInput is read on PermissionRequest only),
    # so a rewrite is never let through as the original call: the call is blocked and the model
    # told.
    rewrite_note=("Qwen Code cannot apply a hook's rewrite of a tool call, so this call was "
                  "blocked; call the tool again with this input instead: "),
    limits={
        _E.BEFORE_TOOL: (("updated_input", "cannot apply updated_input: a rewrite is sent as a "
                          "deny whose reason gives the model the new input"),
                         ("context", "context on before_tool is dropped")),
        _E.AFTER_TOOL: (("block", "ignores a block after a tool: its reason is appended to the "
                         "tool result as context instead"),),
        _E.AFTER_TOOL_FAILURE: (("block", "ignores a block after a tool: its reason is appended "
                                 "to the tool result as context instead"),),
        _E.AFTER_AGENT: (("continue_loop", "reads continue:false on Stop as 'keep working': "
                          "continue_loop=False is sent as no block (the agent stops)"),),
    },
    knobs={"pre_tool_context": False, "post_tool_block_as_context": True,
           "stop_continue_false": "drop", "reader": "qwen"},

    # --- the hookwrap command's facts (Claude Code's, but for these) -----------------------
    # JSON with comments; Qwen itself rewrites the file, adding "$version", and hookwrap keeps
    # every key it finds.
    settings_file=".qwen/settings.json",
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
        _E.SESSION_START: ("startup", "resume", "clear", "compact"),
        _E.SESSION_END: ("clear", "resume", "logout", "prompt_input_exit", "other"),
        _E.PRE_COMPACT: ("manual", "auto"),
        _E.POST_COMPACT: ("manual", "auto"),
    },
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
    # --- the generator's families: Qwen's own, named after it --------------------------------
    short_label="Qwen",
    matcher_rule="aliases",
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
    handler_schema="qwen",
    answer_reader="qwen",
    nonpositive_timeout_is_default=True,  # Qwen falls back to 60 s
    # With folder trust on, Qwen drops the project's hooks in an untrusted folder.
    trust_store="folder-rules",
    trust_facts={"file": "${QWEN_HOME:-~/.qwen}/trustedFolders.json",
                 "file_var": "QWEN_CODE_TRUSTED_FOLDERS_PATH",
                 "shown": "~/.qwen/trustedFolders.json",
                 "switch": ("security", "folderTrust", "enabled"),
                 "untrusted": "(and refuses the shell tool)"},
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
