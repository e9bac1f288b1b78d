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
from ._claude_protocol import read_as_qwen
from ._record import derive
from .claude import CLAUDE

_E = NormalizedEvent

QWEN = derive(
    CLAUDE,
    platform=Platform.QWEN,
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
    project_dir_vars=("QWEN_PROJECT_DIR",),
    hook_process_env={},  # not Claude Code's: Qwen sets no CLAUDECODE
    shell_tool_env={},
    guest_clis={},  # Qwen runs no other CLI's hook files
    empty_prompt_is_no_prompt=True,
    # Qwen Code 0.24.4 reads exit 2's stderr as a deny, which blocks PreToolUse,
    # UserPromptSubmit and PermissionRequest and keeps Stop working; a block after a tool is
    # ignored (qwen-code.md §1.8).
    exit2_blocks=frozenset({_E.BEFORE_TOOL, _E.BEFORE_PROMPT, _E.PERMISSION_REQUEST,
                            _E.AFTER_AGENT}),
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
    pre_tool_context=False, post_tool_block_as_context=True, stop_continue_false="drop",
    answer_reading=read_as_qwen,
)
