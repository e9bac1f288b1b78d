"""Codex CLI: its record. Every fact here was checked against 0.169.0
(/work/shared/reference/codex-cli.md, docs/codex-notes.md), and again against 0.171.0's shipped
binary: its 23 embedded command-hook input and output schemas and its output-validation messages
are those of 0.169.0, and the end-to-end tests pass on it.

The shell tool arrives as ``Bash``; ``apply_patch`` carries raw patch text, read into the files
it adds, updates, deletes or moves. Codex's output schemas are strict (``output_schemas``; how
answers are fitted to them: ``_codex_protocol.py``).
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._codex_protocol import CodexProtocol
from ._record import CLIRecord, pick
from .claude import CLAUDE

_E = NormalizedEvent

# The keys each event's output schema takes (every schema has additionalProperties: false):
# (top-level keys, hookSpecificOutput keys). None: the event reads no output at all.
_COMMON = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage"})
_SCHEMAS: dict[str, tuple[frozenset[str], frozenset[str]] | None] = {
    "PreToolUse": (_COMMON | {"decision", "reason", "hookSpecificOutput"},
                   frozenset({"hookEventName", "permissionDecision", "permissionDecisionReason",
                              "updatedInput", "additionalContext"})),
    "PermissionRequest": (_COMMON | {"hookSpecificOutput"}, frozenset({"hookEventName", "decision"})),
    "PostToolUse": (_COMMON | {"decision", "reason", "hookSpecificOutput"},
                    frozenset({"hookEventName", "additionalContext", "updatedMCPToolOutput"})),
    "UserPromptSubmit": (_COMMON | {"decision", "reason", "hookSpecificOutput"},
                         frozenset({"hookEventName", "additionalContext"})),
    "SessionStart": (_COMMON | {"hookSpecificOutput"}, frozenset({"hookEventName", "additionalContext"})),
    "SubagentStart": (_COMMON | {"hookSpecificOutput"}, frozenset({"hookEventName", "additionalContext"})),
    "Stop": (_COMMON | {"decision", "reason"}, frozenset()),
    "SubagentStop": (_COMMON | {"decision", "reason"}, frozenset()),
    "PreCompact": (_COMMON, frozenset()),
    "PostCompact": (_COMMON, frozenset()),
    "Interrupt": (frozenset({"systemMessage"}), frozenset()),
    "SessionEnd": None,
}
# Read by the schema but not acted on: continue/stopReason/suppressOutput void a PreToolUse or
# PermissionRequest answer (status Failed, the call runs); suppressOutput has no observed effect
# anywhere in 0.169.0, so hookwrap never sends it.
_NEVER: dict[str, tuple[str, ...]] = {"PreToolUse": ("continue", "stopReason"), "PermissionRequest": ("continue", "stopReason")}
# Events whose answer has no additionalContext: context goes to systemMessage instead.
_NO_CONTEXT_EVENTS = frozenset({_E.AFTER_AGENT, _E.PERMISSION_REQUEST, _E.PRE_COMPACT,
                                _E.POST_COMPACT, _E.SESSION_END})


CODEX = CLIRecord(
    Platform.CODEX,
    label="Codex CLI",
    protocol=CodexProtocol,
    events=pick(CLAUDE.events, "Stop", "SubagentStop", "PreToolUse", "PostToolUse",
                "UserPromptSubmit", "SessionStart", "SessionEnd", "PermissionRequest",
                "PreCompact", "PostCompact", "SubagentStart"),
    preferred_events={_E.AFTER_AGENT: "Stop"},
    tools={
        "Bash": "shell",  # the shell tool (exec_command), with {"command": str}
        "apply_patch": "edit_file",  # write_file for a patch that only adds files
    },
    # apply_patch is also how Codex writes a new file: a write_file matcher selects it.
    extra_tool_names={"write_file": ("apply_patch",)},
    tool_fields={"shell": ("command",), "write_file": ("command",), "edit_file": ("command",)},
    patch_tool="apply_patch",
    patch_keys=("command", "input"),
    patch_in_shell=True,  # the shell tool may run `apply_patch <<'EOF'` too
    # Set by hookwrap's own registered command (Codex sets no project-dir variable).
    project_dir_vars=("HOOKWRAP_PROJECT_DIR",),
    # Where the answer has no additionalContext, the text at least reaches the user.
    context_to_user=_NO_CONTEXT_EVENTS,
    # Exit 2 with stderr blocks PreToolUse, PermissionRequest, PostToolUse and UserPromptSubmit
    # and keeps Stop working (codex-cli.md §4.1).
    exit2_blocks=frozenset({_E.BEFORE_TOOL, _E.PERMISSION_REQUEST, _E.AFTER_TOOL,
                            _E.BEFORE_PROMPT, _E.AFTER_AGENT}),
    # Codex hooks cannot ask the user (an "ask" answer is ignored and the call runs): ask -> deny.
    ask_note=("This call needs the user's confirmation, and Codex CLI hooks cannot ask for it, "
              "so it was blocked: ask the user, and run it only if they agree."),
    limits={_E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a deny whose reason tells the "
                                     "model to ask the user"),)},
    output_schemas=_SCHEMAS, never_sent=_NEVER,
)
