"""Copilot CLI: its command half, composed from Claude-dialect behaviours (a hook process needs
only ``clis/copilot.py``, whose record holds every fact read here)."""

from __future__ import annotations

from ...clis._record import derive
from ...clis.copilot import COPILOT
from ...names import NormalizedEvent
from ._answers import read_copilot
from ._base import AgentSetup
from ._handlers import ShellChoiceHandlers
from ._matchers import FullMatch
from ._trust_stores import FolderList
from .claude import CLAUDE_COMMAND

# The hookwrap command's facts (Claude Code's, but for these) (checked against the version in the record).
COPILOT_COMMAND = derive(
    CLAUDE_COMMAND,
    reads_like={},  # none of Claude Code's unmapped events
    settings_file=".github/hooks/hookwrap.json",
    user_file="${COPILOT_HOME:-~/.copilot}/hooks/hookwrap.json",
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
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL, NormalizedEvent.AFTER_TOOL_FAILURE}),
    lifecycle_values={},
    match_targets=dict.fromkeys(("PreToolUse", "PostToolUse", "PostToolUseFailure"), "tool_name"),
    default_timeout_s=30.0,
    stdin_newline=False,
    env_file_events=frozenset(),
    hook_env_vars={"COPILOT_PROJECT_DIR": "{project}", "CLAUDE_PROJECT_DIR": "{project}",
                   "COPILOT_CLI": "1", "COPILOT_HOOK_DIR": "{project}/.github/hooks"},
    payload_has_timestamp=True,
    system_message_shown="",  # not observed
)

SETUP = AgentSetup(
    COPILOT, COPILOT_COMMAND, matchers=FullMatch(), handlers=ShellChoiceHandlers(), answers=read_copilot,
    # Repo hooks load only in a trusted folder (and so do .claude/settings.json hooks; 1.0.102).
    trust=FolderList(file="${COPILOT_HOME:-~/.copilot}/config.json",
                     shown="~/.copilot/config.json", legacy_key="trusted_folders",
                     allow_all_var="COPILOT_ALLOW_ALL",
                     untrusted="(nor .claude/settings.json hooks)"))
