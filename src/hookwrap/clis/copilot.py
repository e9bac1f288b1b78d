"""GitHub Copilot CLI 1.0.102: Claude Code's record with Copilot's differences (checked against
that release; /work/shared/reference/copilot-cli.md, docs/qwen-copilot-notes.md).

Copilot reads two hook formats in ``.github/hooks/*.json``, chosen by the case of the event
names. hookwrap writes the PascalCase one (Claude's nested groups): its payloads carry
``hook_event_name`` and Claude's tool names (``Bash``, ``Write``), it honours Claude's
``hookSpecificOutput.permissionDecision`` and ``updatedInput``, and it is the dialect in which
Copilot also runs the hooks of the repo's ``.claude/settings.json``. What differs from Claude
Code: context is read only at the top level; a top-level ``decision: "block"`` does not block
PreToolUse (a deny also goes out as the top-level ``permissionDecision``, and so does a crashed
hook's error document); no ``ask``; a Write carries Copilot's own keys (``path``,
``file_text``). Copilot runs ``.claude/settings.json`` hooks too (no de-duplication): a command
hookwrap registered for Claude Code answers ``{}`` under Copilot without calling the hook when
``.github/hooks/hookwrap.json`` exists (the hook runs from there, once), and is answered as
Copilot otherwise. Copilot is recognised by ``COPILOT_PROJECT_DIR``, which it sets only for hook
processes (not for its shell tool).
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._record import pick
from .claude import CLAUDE

_E = NormalizedEvent

COPILOT = CLAUDE.derive(
    Platform.COPILOT,
    label="Copilot CLI",
    events=pick(CLAUDE.events, "Stop", "SubagentStop", "PreToolUse", "PostToolUse",
                "UserPromptSubmit", "SessionStart", "SessionEnd", "PostToolUseFailure",
                "PreCompact", "SubagentStart", "Notification"),
    skill_shell_events=(),  # no PreSkillShellCommand (Claude Code 2.1.332 only)
    # The PascalCase format translates Copilot's tools to Claude's names (bash -> Bash,
    # create -> Write, edit -> Edit, view -> Read).
    tools={
        "Bash": "shell",
        "Write": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "Grep": "grep",
        "Glob": "glob",
        "Task": "task",
    },
    preferred_tools={},
    tool_fields={"shell": ("command", "description"),
                 "write_file": ("path", "file_text"),
                 "edit_file": ("path", "old_str", "new_str"),
                 "read_file": ("path", "view_range")},
    file_path_keys=("path", "file_path"),  # Claude's name is read too
    # Copilot's create/edit arguments, kept in the PascalCase format (1.0.102).
    tool_input_keys={
        "write_file": {"path": "file_path", "file_text": "content"},
        "edit_file": {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
    },
    project_dir_vars=("COPILOT_PROJECT_DIR",),
    marker_env="COPILOT_PROJECT_DIR",  # set for hook processes only (not for the shell tool)
    hook_process_env={},
    shell_tool_env={},
    guest_clis={},
    own_registration=".github/hooks/hookwrap.json",
    context_to_user=frozenset(),  # top-level additionalContext reaches the model on every event
    # Copilot hooks cannot ask the user in -p mode (autopilot denies an ask): ask -> deny.
    ask_note=("This call needs the user's confirmation, and Copilot CLI hooks cannot ask for it, "
              "so it was blocked: ask the user, and run it only if they agree."),
    limits={_E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a deny whose reason tells "
                                     "the model to ask the user"),)},
    knobs={"context_top_level": True, "permission_top_level": True, "error_deny": "top-level",
           "reader": "copilot"},

    # --- the hookwrap command's facts (Claude Code's, but for these) -----------------------
    settings_file=".github/hooks/hookwrap.json",
    executable="copilot",
    version_notes=(),
    settings_owned=True,  # hookwrap's own file: it holds no hand-made hooks
    # Copilot CLI's repository hooks; .github alone is any GitHub repository.
    config_folders=(".github/hooks",),
    known_settings_events=(
        "SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PreMcpToolCall",
        "PostToolUse", "PostToolUseFailure", "ErrorOccurred", "SubagentStart", "SubagentStop",
        "PermissionRequest", "PreCompact", "Stop", "Notification",
    ),
    unknown_event_note="not a PascalCase Copilot CLI event; hookwrap's file holds only those",
    invalid_entry_drops_event=False,  # a malformed entry is dropped, the rest kept
    hooks_not_a_list="must be a list; Copilot CLI drops this entry",
    no_matcher_events=frozenset({"UserPromptSubmit", "Stop", "SessionStart", "SessionEnd"}),
    scope_files=(),  # the repository's hooks only
    command_form='{python} "$COPILOT_PROJECT_DIR/{script}" {args}--platform {platform}',
    fail_closed_key="",
    tool_events=frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE}),
    lifecycle_values={},
    match_targets=dict.fromkeys(("PreToolUse", "PostToolUse", "PostToolUseFailure"), "tool_name"),
    default_timeout_s=30.0,
    stdin_newline=False,
    env_file_events=frozenset(),
    hook_env_vars={"COPILOT_PROJECT_DIR": "{project}", "CLAUDE_PROJECT_DIR": "{project}",
                   "COPILOT_CLI": "1", "COPILOT_HOOK_DIR": "{project}/.github/hooks"},
    payload_has_timestamp=True,
    system_message_shown="",  # not observed
    # --- the generator's families ------------------------------------------------------------
    matcher_rule="fullmatch",  # a full-match regex: "ba" does not match "bash"
    handler_schema="copilot",  # command or bash/powershell/exec, timeout or timeoutSec
    answer_reader="copilot",
    # Repo hooks load only in a trusted folder (and so do .claude/settings.json hooks).
    trust_store="folder-list",
    trust_facts={"file": "${COPILOT_HOME:-~/.copilot}/config.json",
                 "shown": "~/.copilot/config.json", "legacy_key": "trusted_folders",
                 "allow_all_var": "COPILOT_ALLOW_ALL",
                 "untrusted": "(nor .claude/settings.json hooks)"},
)
