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
Copilot otherwise.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._claude_protocol import read_as_copilot
from ._record import derive, pick
from .claude import CLAUDE

_E = NormalizedEvent

COPILOT = derive(
    CLAUDE,
    platform=Platform.COPILOT,
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
    # Only preToolUse acts on an exit code (any non-zero denies, copilot-cli.md §7); plain
    # stdout is context on no event.
    exit2_blocks=frozenset({_E.BEFORE_TOOL}),
    text_is_context=frozenset(),
    # Copilot hooks cannot ask the user in -p mode (autopilot denies an ask): ask -> deny.
    ask_note=("This call needs the user's confirmation, and Copilot CLI hooks cannot ask for it, "
              "so it was blocked: ask the user, and run it only if they agree."),
    limits={_E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a deny whose reason tells "
                                     "the model to ask the user"),)},
    context_top_level=True, permission_top_level=True, error_deny="top-level",
    answer_reading=read_as_copilot,
)
