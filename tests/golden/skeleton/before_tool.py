#!/usr/bin/env python3
"""my_hook: a hookwrap hook for before_tool, on Claude Code and Gemini CLI.

Rendered once by `hookwrap add`; it is yours now. It does nothing yet: fill in hook().
Try it with `hookwrap test my_hook`.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

# What arrives (before_tool): Claude Code PreToolUse, PreSkillShellCommand; Gemini CLI
#    BeforeTool.
#   event.tool_name      normalized (shell, write_file, edit_file, read_file, ...; an MCP
#                        tool is "mcp__<server>__<tool>" whatever the CLI calls it)
#   event.raw_tool_name  as the CLI sent it (shell, write_file, edit_file, read_file):
#                          Claude Code: Bash, Write, Edit, Read
#                          Gemini CLI: run_shell_command, write_file, replace, read_file
#   event.tool_input     the arguments as the CLI sent them (a dict), keyed per CLI:
#                          Claude Code: shell "command", "description"; write_file "file_path",
#                            "content"; edit_file "file_path", "old_string", "new_string",
#                            "replace_all"; read_file "file_path", "offset", "limit"
#                          Gemini CLI: shell "command", "description", "dir_path"; write_file
#                            "file_path", "content"; edit_file "file_path", "instruction",
#                            "old_string", "new_string"; read_file "file_path", "start_line",
#                            "end_line"
#   event.files, event.file_paths
#                        every file the call writes, edits, deletes or moves, on every CLI:
#                        check these, not tool_input (a patch or a multi-file edit names several
#                        files).
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd.
#   Sent by Claude Code only: event.prompt_id, event.permission_mode, event.get("effort"),
#      event.tool_use_id.
#   Sent by Gemini CLI only: event.timestamp.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Return None for no opinion, or a HookOutput (decision, reason, context...)."""
    # Example: stop a tool call (the model is told the reason):
    #     if event.tool_name == "shell" and "terraform destroy" in event.tool_input.get("command", ""):
    #         return HookOutput.block("terraform destroy is not allowed here; ask the user.")
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
