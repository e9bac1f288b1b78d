#!/usr/bin/env python3
"""format: runs a formatter on each file the agent writes or edits.

Rendered once by `hookwrap add` from the format template; it is yours now. The formatter is
`command` in hookwrap.toml ([hooks.format]), a list or a string, with the file appended
as its last argument; it runs only on files ending in one of `suffixes` ([] = every file).
The default, `ruff format`, formats Python only. When the formatter is not installed the
hook does nothing. It never blocks: a formatter error is reported to the model as context.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import shlex
import subprocess
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'format'
DEFAULT_COMMAND = ['ruff', 'format', '--quiet']
DEFAULT_SUFFIXES = ['.py', '.pyi']
TAIL_CHARS = 1500

# This hook's [hooks.<name>] table of hookwrap.toml is read on every run, so edits apply at once
# (the code is in the runtime, .hookwrap/lib/hookwrap/options.py, which `hookwrap sync` updates).
from hookwrap.options import manifest_entry, project_root  # noqa: E402
from hookwrap.options import option as _option, time_limit as _time_limit  # noqa: E402, F401

ROOT = project_root(__file__)  # .hookwrap/hooks/<name>.py -> the repo root


def _manifest_entry() -> dict:
    """This hook's table in hookwrap.toml; {} if it cannot be read."""
    return manifest_entry(ROOT, HOOK_NAME)


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
    """Format each file the tool wrote; context for the model if one changed or failed."""
    # One file for write_file and edit_file; a Codex apply_patch may touch several (a moved
    # file is formatted where it went, a deleted one not at all).
    paths = [f["move_to"] or f["path"] for f in event.files if f["action"] != "delete"]
    notes = [note.context for note in (_format(event, path) for path in paths) if note]
    return HookOutput(context="\n\n".join(notes)) if notes else None


def _format(event: HookInput, path: str) -> HookOutput | None:
    """Format one file; context for the model if it changed or failed."""
    # Gemini and Codex may send a path relative to cwd; Claude sends it absolute.
    path = os.path.normpath(os.path.join(event.cwd or ROOT, path))
    entry = _manifest_entry()
    suffixes = [s for s in _option(entry, "suffixes", DEFAULT_SUFFIXES) if isinstance(s, str)]
    if (suffixes and not path.endswith(tuple(suffixes))) or not os.path.isfile(path):
        return None
    command = _command(entry)
    before = _read(path)
    try:
        result = subprocess.run(
            [*command, path], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
            timeout=_time_limit(entry),
        )
    except (OSError, subprocess.SubprocessError):
        return None  # not installed (or it hung): formatting is a convenience, not a gate
    shown = " ".join(command)
    if result.returncode != 0:
        output = (result.stderr or result.stdout).decode("utf-8", errors="replace").strip()
        return HookOutput(context=f"`{shown}` failed on {path}:\n{output[-TAIL_CHARS:]}")
    if _read(path) != before:
        # The editing tools check that a file is unchanged since it was last read.
        return HookOutput(context=f"`{shown}` reformatted {path}; read it again before editing it.")
    return None


def _command(entry: dict) -> list:
    command = entry.get("command", DEFAULT_COMMAND)
    if isinstance(command, str):
        try:
            command = shlex.split(command)
        except ValueError:
            command = []
    if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
        command = DEFAULT_COMMAND
    return command


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return b""


if __name__ == "__main__":
    raise SystemExit(main(hook))
