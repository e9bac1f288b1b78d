#!/usr/bin/env python3
"""audit: appends one JSON line per event to .hookwrap/logs/audit.jsonl.

Rendered once by `hookwrap add` from the audit template; it is yours now. It never blocks,
and a log it cannot write is skipped rather than failing the agent.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import json
import os
import sys
import time

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'audit'
LOG_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "logs", HOOK_NAME + ".jsonl")
# Bounds on the tool_input summary, so one huge file write does not bloat the log.
MAX_KEYS = 20
MAX_VALUE_CHARS = 200

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
    """Log the event; always no opinion (None)."""
    try:
        line = json.dumps(_record(event), ensure_ascii=False, default=str)
        os.makedirs(os.path.dirname(LOG_FILE), exist_ok=True)
        # One write in append mode: lines from hooks running in parallel do not interleave.
        with open(LOG_FILE, "a", encoding="utf-8") as file:
            file.write(line + "\n")
    except Exception as error:  # an exception here would reach the runtime, which blocks
        print(f"{HOOK_NAME}: could not write {LOG_FILE}: {error}", file=sys.stderr)
    return None


def _record(event: HookInput) -> dict[str, object]:
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "platform": str(event.platform),
        "event": str(event.event),
        "raw_event": event.raw_event,
        "tool_name": event.tool_name,
        "session_id": event.session_id,
        "tool_input": _summary(event.tool_input),
        "files": event.file_paths,  # what the call writes (every file of a patch)
    }


def _summary(tool_input: dict[str, object]) -> dict[str, object]:
    """The first MAX_KEYS keys, each value cut to MAX_VALUE_CHARS characters of text."""
    summary: dict[str, object] = {}
    for key in list(tool_input)[:MAX_KEYS]:
        value = tool_input[key]
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            value = json.dumps(value, ensure_ascii=False, default=str)
        if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
            value = value[:MAX_VALUE_CHARS] + f"... ({len(value)} chars)"
        summary[str(key)] = value
    return summary


if __name__ == "__main__":
    raise SystemExit(main(hook))
