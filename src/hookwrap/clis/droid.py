"""Factory Droid 0.225.2: Claude Code's record with Droid's differences (checked against that
release; /work/shared/reference/droid.md, docs/droid-notes.md).

Droid speaks Claude Code's hook protocol with its own tool names (``Execute``, ``Create``,
``Edit``, ``Read``, ``LS``...). ``$FACTORY_PROJECT_DIR`` (also ``DROID_PROJECT_DIR`` and
``CLAUDE_PROJECT_DIR``) is the session's cwd, not the project root, so the registered command
walks up to ``hookwrap.toml`` and sets ``HOOKWRAP_PROJECT_DIR``, as on Codex CLI. A top-level
``decision: "block"`` does not block PreToolUse (only ``permissionDecision: "deny"`` or exit 2
does), so a crashed hook's error document also carries the deny; ``ask`` runs the call in
``droid exec``: hookwrap sends it as a deny whose reason tells the model to ask the user. A Stop
block gives another turn with no cap of Droid's own. Project hooks run with no trust prompt.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._claude_protocol import read_as_droid
from ._record import derive, pick
from .claude import CLAUDE

_E = NormalizedEvent

DROID = derive(
    CLAUDE,
    platform=Platform.DROID,
    label="Factory Droid",
    events=pick(CLAUDE.events, "Stop", "SubagentStop", "PreToolUse", "PostToolUse",
                "UserPromptSubmit", "SessionStart", "SessionEnd", "PreCompact", "Notification"),
    # The tool schemas `droid exec` sends the model (0.225.2).
    skill_shell_events=(),  # no PreSkillShellCommand (Claude Code 2.1.332 only)
    tools={
        "Execute": "shell",
        "Create": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "LS": "list_directory",
        "Grep": "grep",
        "Glob": "glob",
        "Task": "task",
        "Skill": "skill",
    },
    preferred_tools={},
    tool_fields={"shell": ("command", "riskLevel", "riskLevelReason"),
                 "write_file": ("file_path", "content"),
                 "edit_file": ("file_path", "old_str", "new_str", "change_all"),
                 "read_file": ("file_path",)},
    # Speaking to an external hook of another protocol (bridge.py): Edit's keys are Copilot's,
    # not Claude's; Execute's required risk fields have no Claude counterpart.
    tool_input_keys={"edit_file": {"old_str": "old_string", "new_str": "new_string",
                                   "change_all": "replace_all"}},
    own_only_keys={"shell": ("riskLevel", "riskLevelReason")},
    project_dir_vars=("HOOKWRAP_PROJECT_DIR", "FACTORY_PROJECT_DIR"),
    marker_env="FACTORY_PROJECT_DIR",  # set for hook processes only (not for Execute)
    hook_process_env={},  # not Claude Code's: Droid sets no CLAUDECODE
    shell_tool_env={},
    guest_clis={},  # Droid runs no other CLI's hook files
    context_to_user=frozenset(),  # additionalContext reaches the model on SessionStart, PostToolUse
    # Exit 2 blocks PreToolUse (the model gets `Error: <stderr>`) and keeps Stop working; on
    # other events Droid 0.225.2 acts on no exit code (droid.md).
    exit2_blocks=frozenset({_E.BEFORE_TOOL, _E.AFTER_AGENT}),
    ask_note=("This call needs the user's confirmation, and Droid hooks cannot ask for it, so it "
              "was blocked: ask the user, and run it only if they agree."),
    limits={
        _E.BEFORE_TOOL: (("ask", "runs an ask without asking in droid exec: an ask is sent as a "
                          "deny whose reason tells the model to ask the user"),
                         ("context", "context on before_tool reaches no model request")),
        _E.BEFORE_PROMPT: (("", "never fires UserPromptSubmit in droid exec (headless): a "
                            "before_prompt hook runs only in the interactive droid"),),
        _E.AFTER_TOOL: (("block", "ignores a block after a tool: its reason is sent as context "
                         "instead"),),
        _E.AFTER_AGENT: (("block", "has no cap on Stop blocks: a hook that always blocks loops "
                          "until killed; stop_gate stops after max_retries, a hand-written hook "
                          "must count too"),),
    },
    pre_tool_context=False, post_tool_block_as_context=True, error_deny="specific",
    answer_reading=read_as_droid,
)
