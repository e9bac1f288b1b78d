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

# What arrives (before_tool; Claude Code: PreToolUse, Gemini CLI: BeforeTool):
#   event.tool_name    normalized: shell, write_file, edit_file, read_file, glob, grep,
#                      web_fetch, web_search, task; other names lower-cased (MCP tools:
#                      Claude "mcp__server__tool", Gemini "mcp_server_tool")
#   event.raw_tool_name  as the CLI sent it: Claude Bash/Write/Edit, Gemini
#                      run_shell_command/write_file/replace
#   event.tool_input   the tool's arguments (a dict):
#                        shell: tool_input["command"] on both
#                        write_file, edit_file, read_file: tool_input["file_path"] on both
#                        (Claude sends absolute paths; Gemini may send them relative to cwd)
#                        write_file: "content"; edit_file: "old_string", "new_string"
#   event.cwd, event.session_id, event.transcript_path: on both
#   Claude only: event.tool_use_id, event.permission_mode
#   Gemini only: event.timestamp, event.mcp_context (MCP tools)
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Return None for no opinion, or a HookOutput (decision, reason, context...)."""
    # Example: stop a tool call (the model is told the reason):
    #     if event.tool_name == "shell" and "terraform destroy" in event.tool_input.get("command", ""):
    #         return HookOutput.block("terraform destroy is not allowed here; ask the user.")
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
