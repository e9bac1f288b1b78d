"""Factory Droid: what a hook process needs to know about it, checked against Droid 0.225.2.

Droid speaks Claude Code's hook protocol (event names, payload fields, ``hookSpecificOutput``,
exit 2 blocks), so this module subclasses ClaudeCode and overrides what differs (docs/droid-notes.md
says how each fact was checked):

- Droid's own tool names: ``Execute`` (shell), ``Create`` (write), ``Edit``, ``Read``, ``LS``...
  Matchers are case-sensitive regexes searched in the name (``Exec`` matches ``Execute``), and
  Claude's names match nothing (``Bash|Write``): registrations are anchored, ``^(Execute|Create)$``.
- ``$FACTORY_PROJECT_DIR`` (also ``DROID_PROJECT_DIR`` and ``CLAUDE_PROJECT_DIR``) is the session's
  cwd, not the project root: started in a subfolder, Droid still runs the root's
  ``.factory/settings.json`` hooks but names the subfolder. The registered command therefore walks
  up from there to ``hookwrap.toml``, as on Codex CLI.
- A top-level ``decision: "block"`` does not block PreToolUse (only ``permissionDecision: "deny"``
  or exit 2 does), so a crashed hook's error document also carries the deny. ``ask`` lets the call
  run in ``droid exec``: hookwrap sends it as a deny whose reason tells the model to ask the user.
  ``updatedInput`` with ``allow`` is applied. PreToolUse context reaches no model request.
- A Stop block gives another turn, and Droid has no cap of its own: hookwrap's stop_gate counts
  its retries (``max_retries``). UserPromptSubmit never fires in ``droid exec``.
- Project hooks run with no trust prompt at all (doctor says so): no ``hookwrap trust`` step.

The hookwrap command's half (the settings file, validation,
`hookwrap test`'s host rules, doctor) is in ``droid_setup.py``,
whose class extends the one here.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._base import BLOCKING
from .claude import ClaudeCode

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from ._views import OutputView

_E = NormalizedEvent

# --- runtime facts (Droid 0.225.2) -----------------------------------------------------------

# Droid runs a PreToolUse "ask" without asking in `droid exec`: hookwrap sends it as a deny.
ASK_NOTE = ("This call needs the user's confirmation, and Droid hooks cannot ask for it, so it "
            "was blocked: ask the user, and run it only if they agree.")

class FactoryDroid(ClaudeCode):
    """Factory Droid 0.225.2: Claude Code's protocol with Droid's tool names."""

    platform = Platform.DROID
    label = "Factory Droid"
    version = "0.225.2"
    events = {
        "Stop": _E.AFTER_AGENT,
        "SubagentStop": _E.AFTER_AGENT,
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "SessionEnd": _E.SESSION_END,
        "PreCompact": _E.PRE_COMPACT,
        "Notification": _E.NOTIFICATION,
    }
    preferred_events = {_E.AFTER_AGENT: "Stop"}
    # The tool schemas `droid exec` sends the model (0.225.2).
    tools = {
        "Execute": "shell",
        "Create": "write_file",
        "Edit": "edit_file",
        "Read": "read_file",
        "LS": "list_directory",
        "Grep": "grep",
        "Glob": "glob",
        "Task": "task",
        "Skill": "skill",
    }
    preferred_tools: dict[str, str] = {}
    # Speaking to an external hook of another protocol (bridge.py): Edit's keys are Copilot's,
    # not Claude's; Execute's required risk fields have no Claude counterpart (left out of a
    # Claude hook's payload, kept when its updatedInput comes back without them).
    tool_input_keys = {"edit_file": {"old_str": "old_string", "new_str": "new_string",
                                     "change_all": "replace_all"}}
    own_only_keys = {"shell": ("riskLevel", "riskLevelReason")}
    # The registered command sets HOOKWRAP_PROJECT_DIR to the folder holding hookwrap.toml;
    # Droid's own variable is the session's cwd, which may be a subfolder.
    project_dir_vars = ("HOOKWRAP_PROJECT_DIR", "FACTORY_PROJECT_DIR")  # type: ignore[assignment]
    marker_env = "FACTORY_PROJECT_DIR"  # set for hook processes only (not for Execute)
    guest_clis: dict[str, str] = {}  # Droid runs no other CLI's hook files
    hook_process_env: dict[str, str] = {}  # not Claude Code's: Droid sets no CLAUDECODE

    def surely_hosts(self, env: Mapping[str, str]) -> bool:
        return False

    # --- runtime: answers ------------------------------------------------------------------
    def context_in_system_message(self, event: NormalizedEvent) -> bool:
        return False  # additionalContext reaches the model on SessionStart and PostToolUse

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        if decision == "ask" and name == "PreToolUse":
            decision = "deny"
        specific = super().specific_output(output, event, name, decision)
        if name == "PreToolUse":
            specific.pop("additionalContext", None)  # read by no model request
        elif name == "PostToolUse" and decision in BLOCKING:
            # Droid ignores a PostToolUse block and its reason; its context reaches the model.
            text = "\n\n".join(t for t in (output.reason, output.context) if t)
            if text:
                specific["additionalContext"] = text
        return specific

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        hso = result.get("hookSpecificOutput")
        if name == "PreToolUse" and decision == "ask" and isinstance(hso, dict):
            reason = "\n\n".join(t for t in (output.reason, ASK_NOTE) if t)
            hso["permissionDecisionReason"] = reason
            result["decision"], result["reason"] = "block", reason
        return result

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        if event is _E.BEFORE_TOOL and document.get("decision") == "block":
            # A top-level decision does not block PreToolUse on Droid: fail closed in its words.
            return {**document, "hookSpecificOutput": {
                "hookEventName": "PreToolUse", "permissionDecision": "deny",
                "permissionDecisionReason": document.get("reason", "")}}
        return document

    def output_limits(self, event: NormalizedEvent) -> list[tuple[str, str]]:
        if event is _E.BEFORE_TOOL:
            return [("ask", "runs an ask without asking in droid exec: an ask is sent as a deny "
                            "whose reason tells the model to ask the user"),
                    ("context", "context on before_tool reaches no model request")]
        if event is _E.BEFORE_PROMPT:
            return [("", "never fires UserPromptSubmit in droid exec (headless): a before_prompt "
                         "hook runs only in the interactive droid")]
        if event is _E.AFTER_TOOL:
            return [("block", "ignores a block after a tool: its reason is sent as context instead")]
        if event is _E.AFTER_AGENT:
            return [("block", "has no cap on Stop blocks: a hook that always blocks loops until "
                              "killed; stop_gate stops after max_retries, a hand-written hook must "
                              "count too")]
        return []


CLI = FactoryDroid()
