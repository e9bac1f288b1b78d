#!/usr/bin/env python3
"""my_hook: a hookwrap hook for after_tool, on Claude Code and Gemini CLI.

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

# What arrives (after_tool; Claude Code: PostToolUse, Gemini CLI: AfterTool):
#   event.tool_name    normalized: shell, write_file, edit_file, read_file, glob, grep, ...
#   event.tool_input   the arguments the tool ran with:
#                        shell: tool_input["command"]; write/edit/read: tool_input["file_path"]
#                        (Claude: absolute; Gemini: may be relative to cwd)
#   event.tool_response  differs per CLI:
#                        Claude: a dict, e.g. shell {"stdout", "stderr", "interrupted"},
#                        write_file {"type", "filePath", "content", ...}
#                        Gemini: {"llmContent", "returnDisplay", "error"?}
#   event.cwd, event.session_id: on both; Claude only: event.tool_use_id
#   A failed tool does not reach after_tool (Claude sends after_tool_failure instead).
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Return None for no opinion, or a HookOutput (decision, reason, context...)."""
    # Example: tell the model something about the result (the tool has already run):
    #     if event.tool_name == "write_file" and event.tool_input.get("file_path", "").endswith(".sql"):
    #         return HookOutput(context="Remember to add a migration for schema changes.")
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
