"""Qwen Code: what a hook process needs to know about it, checked against Qwen Code 0.24.4.

Qwen Code speaks Claude Code's hook protocol (event names, payload fields, output JSON, exit 2
blocks), so this module subclasses ClaudeCode and overrides what differs: Qwen's own tool names
(``run_shell_command``, ``write_file``, ``edit``); ``$QWEN_PROJECT_DIR`` (``QWEN_CODE_PROJECT_DIR``
is Qwen's state folder, not the project); timeouts in seconds, except that a value of 1000 or
more is read as milliseconds; and the answers Qwen ignores (``updatedInput``, PreToolUse context,
a PostToolUse block), each mapped to what Qwen does read. ``UserPromptSubmit`` fires before every
model request, with an empty prompt after each tool result: the runtime answers those without
calling a before_prompt hook.

The hookwrap command's half (the settings file, validation,
`hookwrap test`'s host rules, doctor, folder trust) is in ``qwen_setup.py``,
whose class extends the one here.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._base import BLOCKING, answer_fields, json_object
from .claude import ClaudeCode

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._views import InputView, OutputView

_E = NormalizedEvent

# --- runtime facts (Qwen Code 0.24.4) --------------------------------------------------------

# Qwen cannot apply a rewritten tool input (updatedInput is read on PermissionRequest only), so
# a rewrite is never let through as the original call: the call is blocked and the model told.
REWRITE_NOTE = ("Qwen Code cannot apply a hook's rewrite of a tool call, so this call was "
                "blocked; call the tool again with this input instead: ")

class QwenCode(ClaudeCode):
    """Qwen Code 0.24.4: Claude Code's protocol with Qwen's tool names."""

    platform = Platform.QWEN
    label = "Qwen Code"
    version = "0.24.4"
    events = dict(ClaudeCode.events)  # the same names, read the same way
    preferred_events = {_E.AFTER_AGENT: "Stop"}
    tools = {
        "run_shell_command": "shell",
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
    }
    preferred_tools = {"edit_file": "edit"}
    # QWEN_CODE_PROJECT_DIR is Qwen's per-project state folder, not the project.
    project_dir_vars = ("QWEN_PROJECT_DIR",)
    marker_env = ""  # Qwen also sets GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR: no unique one

    # --- runtime: payloads -----------------------------------------------------------------
    def answers_without_hook(self, hook_input: InputView) -> bool:
        """UserPromptSubmit also fires before each model request that follows a tool result,
        with ``"prompt": ""``: that is no prompt, so a before_prompt hook is not called."""
        prompt = hook_input.get("prompt")
        return hook_input.event is _E.BEFORE_PROMPT and isinstance(prompt, str) and not prompt.strip()

    # --- runtime: answers ------------------------------------------------------------------
    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str, stderr: str
                    ) -> dict[str, Any]:
        """Qwen Code's reading (qwen-code.md §1.8, docs/qwen-copilot-notes.md): a JSON object on
        stdout (else stderr) is obeyed at any exit code but 2, so a JSON deny with exit 1
        blocks; exit 2 reads stderr only, and with an empty stderr it is no answer; other
        plain text is no opinion (a warning)."""
        if exit_code == 2:
            if not stderr.strip():
                return {}
            data = json_object(stderr)
            return answer_fields(data) if data is not None else super().read_answer(
                event, exit_code, stdout, stderr)
        data = json_object(stdout) if stdout.strip() else json_object(stderr)
        if data is not None:
            return answer_fields(data)
        return super().read_answer(event, exit_code, stdout, stderr) if exit_code == 0 else {}

    def context_in_system_message(self, event: NormalizedEvent) -> bool:
        return False  # Qwen shows no systemMessage in -p and never sends it to the model

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        specific = super().specific_output(output, event, name, decision)
        if name == "PreToolUse":
            specific.pop("additionalContext", None)  # computed by Qwen, never sent anywhere
            specific.pop("updatedInput", None)
            if output.updated_input is not None and decision not in BLOCKING:
                import json

                specific["permissionDecision"] = "deny"
                specific["permissionDecisionReason"] = (
                    (output.reason + "\n\n" if output.reason else "") + REWRITE_NOTE
                    + json.dumps(output.updated_input, ensure_ascii=False, allow_nan=False))
        elif name in ("PostToolUse", "PostToolUseFailure") and decision in BLOCKING:
            # Qwen ignores a PostToolUse block; its context is appended to the tool result.
            text = "\n\n".join(t for t in (output.reason, output.context) if t)
            if text:
                specific["additionalContext"] = text
        return specific

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        if event is _E.AFTER_AGENT and not output.continue_loop:
            # On Stop, Qwen reads continue:false as "keep working" (Claude: stop). The agent
            # stops anyway when no hook blocks, so hookwrap's stop is sent as no block at all.
            raw = output.raw_output if isinstance(output.raw_output, dict) else {}
            for key in ("continue", "stopReason", *(("decision",) if output.decision else ())):
                result.pop(key, None)
                if key in raw:  # raw_output still fills the gap it leaves
                    result[key] = raw[key]
        return result

    def output_limits(self, event: NormalizedEvent) -> list[tuple[str, str]]:
        if event is _E.BEFORE_TOOL:
            return [("updated_input", "cannot apply updated_input: a rewrite is sent as a deny "
                                      "whose reason gives the model the new input"),
                    ("context", "context on before_tool is dropped")]
        if event in (_E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE):
            return [("block", "ignores a block after a tool: its reason is appended to the tool "
                              "result as context instead")]
        if event is _E.AFTER_AGENT:
            return [("continue_loop", "reads continue:false on Stop as 'keep working': "
                                      "continue_loop=False is sent as no block (the agent stops)")]
        return []


CLI = QwenCode()
