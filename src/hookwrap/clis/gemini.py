"""Gemini CLI 0.61.0: its record. Every fact here was checked against that release
(/work/shared/reference/gemini-cli.md)."""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._gemini_protocol import GeminiProtocol
from ._record import CLIRecord

_E = NormalizedEvent

GEMINI = CLIRecord(
    Platform.GEMINI,
    label="Gemini CLI",
    protocol=GeminiProtocol,
    events={
        "AfterAgent": _E.AFTER_AGENT,
        "BeforeTool": _E.BEFORE_TOOL,
        "AfterTool": _E.AFTER_TOOL,
        "BeforeAgent": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "BeforeModel": _E.BEFORE_MODEL,
        "AfterModel": _E.AFTER_MODEL,
        "BeforeToolSelection": _E.BEFORE_TOOL_SELECTION,
        "Notification": _E.NOTIFICATION,
        "PreCompress": _E.PRE_COMPACT,
    },
    tools={
        # The real names of the five tools whose names differ from the normalized ones.
        "run_shell_command": "shell",
        "replace": "edit_file",
        "grep_search": "grep",
        "search_file_content": "grep",
        "google_web_search": "web_search",
        "invoke_agent": "task",
        # Every other built-in tool is already snake_case and maps to itself.
        "write_file": "write_file",
        "read_file": "read_file",
        "glob": "glob",
        "web_fetch": "web_fetch",
        "list_directory": "list_directory",
        "read_many_files": "read_many_files",
        "write_todos": "write_todos",
        "ask_user": "ask_user",
        "activate_skill": "activate_skill",
        "enter_plan_mode": "enter_plan_mode",
        "exit_plan_mode": "exit_plan_mode",
        "update_topic": "update_topic",
        "list_background_processes": "list_background_processes",
        "read_background_output": "read_background_output",
        "read_mcp_resource": "read_mcp_resource",
        "list_mcp_resources": "list_mcp_resources",
    },
    preferred_tools={"grep": "grep_search"},  # the current canonical name
    tool_fields={"shell": ("command", "description", "dir_path"),
                 "write_file": ("file_path", "content"),
                 "edit_file": ("file_path", "instruction", "old_string", "new_string"),
                 "read_file": ("file_path", "start_line", "end_line")},
    # `mcp_<server>_<tool>`, split at the first "_" after "mcp_" as Gemini itself does (a
    # server name with "_" in it is ambiguous; the payload's mcp_context is preferred).
    mcp_prefix="mcp_",
    mcp_separator="_",
    project_dir_vars=("GEMINI_PROJECT_DIR",),
    marker_env="GEMINI_PROJECT_DIR",  # Gemini sets it for its hooks; Claude Code never does

    # --- the hookwrap command's facts ------------------------------------------------------
    settings_file=".gemini/settings.json",
    executable="gemini",
    settings_comments=True,
    known_settings_events=(
        "BeforeTool", "AfterTool", "BeforeAgent", "Notification", "AfterAgent", "SessionStart",
        "SessionEnd", "PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection",
    ),
    unknown_event_note="Gemini CLI skips it with a warning",
    group_keys=frozenset({"matcher", "sequential", "hooks"}),
    hooks_not_a_list="must be a list; Gemini drops this definition",
    scope_files=(("~/.gemini/settings.json", "${GEMINI_CLI_HOME:-~}/.gemini/settings.json", False),),
    # Braces: Gemini leaves ${GEMINI_PROJECT_DIR} for bash, which quotes it properly.
    command_form='{python} "${{GEMINI_PROJECT_DIR}}/{script}" {args}--platform {platform}',
    handler_keys=("name", "type", "command", "timeout", "description"),
    timeout_scale=1000,  # milliseconds
    tool_events=frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL}),
    # Lifecycle matchers are compared with ===, so only the values 0.61.0 fires ever match.
    lifecycle_values={
        _E.SESSION_START: ("startup", "resume", "clear"),
        _E.SESSION_END: ("exit", "clear"),
        _E.PRE_COMPACT: ("manual", "auto"),
    },
    # The payload field a matcher is tested against: only where the event passes one.
    match_targets={"BeforeTool": "tool_name", "AfterTool": "tool_name", "SessionStart": "source",
                   "SessionEnd": "reason", "PreCompress": "trigger"},
    hook_env_vars={"GEMINI_PROJECT_DIR": "{project}", "GEMINI_CWD": "{project}",
                   "GEMINI_SESSION_ID": "{session_id}", "CLAUDE_PROJECT_DIR": "{project}"},
    empty_tool_response={"llmContent": "", "returnDisplay": ""},
    payload_has_timestamp=True,
    system_message_shown="shown to the user",
    doctor_reported_paths=frozenset({"hooksConfig.enabled", "tools.enableHooks", "hooks.enabled",
                                     "hooks.disabled", "hooks.notifications"}),
    # 0.61.0's ShellProcessor asks only the policy engine, then runs the command itself
    # (ShellExecutionService.execute): no BeforeTool, no hook at all. Docs: docs/guard.md.
    unhooked_shell=((".gemini/commands/**/*.toml", r"!\{",
                     "runs a custom command's `!{...}` shell injection without calling any hook: "
                     "the guard never sees it"),),
)
