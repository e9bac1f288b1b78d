"""Factory Droid: its command half, composed from Claude-dialect behaviours (a hook process needs
only ``clis/droid.py``, whose record holds every fact read here)."""

from __future__ import annotations

from ...clis._record import derive
from ...clis.droid import DROID
from ...names import NormalizedEvent
from ._answers import read_droid
from ._base import AgentSetup
from ._handlers import CommandOnlyHandlers
from ._matchers import SearchInName
from ._trust_stores import NoPrompt
from .claude import CLAUDE_COMMAND

# The hookwrap command's facts (Claude Code's, but for these) (checked against the version in the record).
DROID_COMMAND = derive(
    CLAUDE_COMMAND,
    reads_like={},  # none of Claude Code's unmapped events
    settings_file=".factory/settings.json",
    user_file="~/.factory/settings.json",
    executable="droid",
    version_notes=(),
    settings_comments=True,  # Droid reads comments in it (0.225.2), so hookwrap keeps them
    known_settings_events=(
        "PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop",
        "SubagentStop", "PreCompact", "Notification",
    ),
    # One invalid entry ("hooks": "x") and Droid runs no hook of the file at all (0.225.2).
    invalid_entry_drops_event=True,
    no_matcher_events=frozenset({"UserPromptSubmit", "Stop", "SubagentStop"}),
    # hooksDisabled, project or user, did not stop project hooks in droid exec (0.225.2).
    disable_key="",
    scope_files=(("~/.factory/settings.json", "~/.factory/settings.json", False),),
    command_form="",  # walks up from the session's cwd to hookwrap.toml
    fail_closed_key="",
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL}),
    lifecycle_values={
        NormalizedEvent.SESSION_START: ("startup", "resume", "clear", "compact"),
        NormalizedEvent.SESSION_END: ("clear", "logout", "prompt_input_exit", "other"),
        NormalizedEvent.PRE_COMPACT: ("manual", "auto"),
    },
    match_targets={"PreToolUse": "tool_name", "PostToolUse": "tool_name",
                   "SessionStart": "source", "SessionEnd": "reason", "PreCompact": "trigger",
                   "Notification": "notification_type"},
    default_timeout_s=60.0,
    stdin_newline=False,
    env_file_events=frozenset({"SessionStart"}),  # CLAUDE_ENV_FILE, in the env and the payload
    hook_env_vars={"FACTORY_PROJECT_DIR": "{project}", "DROID_PROJECT_DIR": "{project}",
                   "CLAUDE_PROJECT_DIR": "{project}",
                   "DROID_PLUGIN_ROOT": "/PLUGIN_ROOT_NOT_EXPANDED_ERROR",
                   "CLAUDE_PLUGIN_ROOT": "/PLUGIN_ROOT_NOT_EXPANDED_ERROR",
                   "FACTORY_DISABLE_SETTINGS_PERSISTENCE": "true"},
    payload_has_timestamp=False,
    system_message_shown="",  # not observed
    doctor_reported_paths=frozenset(),
    short_label="Droid",
    payload_strings_in_env=True,  # Droid copies a payload's top-level strings into the env
    doctor_command_checks=(
        ("command", r"\$\{?(FACTORY|DROID|CLAUDE)_PROJECT_DIR", "warn",
         "{where}: Droid sets $FACTORY_PROJECT_DIR to the session's cwd, so the command breaks "
         "when droid starts in a subfolder",
         "find the project from $PWD upwards (hookwrap's registrations do)"),
        ("matcher", r"\b(?:Bash|Write|MultiEdit|WebFetch|WebSearch|NotebookEdit|TodoWrite)\b",
         "warn", "{where}: matcher {matcher!r} names Claude Code tools, which Droid never calls",
         "use Droid's names, e.g. ^(Execute|Create)$"),
    ),
)

SETUP = AgentSetup(DROID, DROID_COMMAND, matchers=SearchInName(), handlers=CommandOnlyHandlers(),
                   answers=read_droid, trust=NoPrompt(binary="droid"))
