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


def _record(event: HookInput) -> dict:
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "platform": str(event.platform),
        "event": str(event.event),
        "raw_event": event.raw_event,
        "tool_name": event.tool_name,
        "session_id": event.session_id,
        "tool_input": _summary(event.tool_input),
        "files": event.file_paths,  # what the call writes (every file of a Codex apply_patch)
    }


def _summary(tool_input: dict) -> dict:
    """The first MAX_KEYS keys, each value cut to MAX_VALUE_CHARS characters of text."""
    summary = {}
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
