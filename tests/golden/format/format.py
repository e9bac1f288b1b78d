#!/usr/bin/env python3
"""format: runs a formatter on each file the agent writes or edits.

Rendered once by `hookwrap add` from the format template; it is yours now. The formatter is
`command` in hookwrap.toml ([hooks.format]), a list or a string, with the file appended
as its last argument; it runs only on files ending in one of `suffixes` ([] = every file).
The default, `ruff format`, formats Python only. It never blocks: a formatter error (a file
it cannot parse) goes to the model as context; a formatter that is not installed, cannot run
or hangs is reported to the user, who can install it or change `command`.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import shlex
import subprocess
import sys
import time

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'format'
DEFAULT_COMMAND = ['ruff', 'format', '--quiet']
DEFAULT_SUFFIXES = ['.py', '.pyi']
OUTPUT_CHARS = 2000
NOT_FOUND = 127  # what a shell wrapper (`sh -c`, `npx`) exits with for a missing command
# Options that silence a formatter; dropped for a second run when a failure printed nothing.
QUIET_OPTIONS = ("--quiet", "-q", "--silent", "-s")

# This hook's [hooks.<name>] table of hookwrap.toml is read on every run, so edits apply at once
# (the code is in the runtime, .hookwrap/lib/hookwrap/options.py, which `hookwrap sync` updates).
from hookwrap.options import manifest_entry, project_root  # noqa: E402
from hookwrap.options import option as _option, time_limit as _time_limit  # noqa: E402, F401

ROOT = project_root(__file__)  # .hookwrap/hooks/<name>.py -> the repo root


def _manifest_entry() -> dict[str, object]:
    """This hook's table in hookwrap.toml; {} if it cannot be read."""
    return manifest_entry(ROOT, HOOK_NAME)


# What arrives (after_tool): Claude Code PostToolUse; Gemini CLI AfterTool.
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
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd,
#      event.tool_response.
#   Sent by Claude Code only: event.prompt_id, event.permission_mode, event.get("effort"),
#      event.tool_use_id, event.get("duration_ms").
#   Sent by Gemini CLI only: event.timestamp.
#   event.tool_response: the tool's result; its shape differs per CLI and tool.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Format each file the tool wrote; context for the model if one changed or failed."""
    # One file for write_file and edit_file; a patch may touch several (a moved
    # file is formatted where it went, a deleted one not at all).
    paths = [f["move_to"] or f["path"] for f in event.files if f["action"] != "delete"]
    results = [result for result in (_format(event, path) for path in paths) if result]
    if not results:
        return None
    # Context for the model (a file it must read again, an error it can fix); a message for
    # the user (a formatter that is missing: only they can install it).
    return HookOutput(context="\n\n".join(r.context for r in results if r.context),
                      system_message="\n\n".join(r.system_message for r in results
                                                  if r.system_message))


def _format(event: HookInput, path: str) -> HookOutput | None:
    """Format one file; context for the model if it changed or failed."""
    # A CLI may send a path relative to cwd rather than absolute.
    path = os.path.normpath(os.path.join(event.cwd or ROOT, path))
    entry = _manifest_entry()
    suffixes = [s for s in _option(entry, "suffixes", DEFAULT_SUFFIXES) if isinstance(s, str)]
    if (suffixes and not path.endswith(tuple(suffixes))) or not os.path.isfile(path):
        return None
    command = _command(entry)
    shown = " ".join(command)
    before = _read(path)
    deadline = time.monotonic() + _time_limit(entry)
    result = _run(command, path, _time_limit(entry))
    if isinstance(result, str):  # it could not run: formatting is a convenience, not a gate
        return HookOutput(system_message=f"{HOOK_NAME}: `{shown}` {result}. {_how_to_configure()}")
    if result.returncode == NOT_FOUND:
        return HookOutput(system_message=(
            f"{HOOK_NAME}: `{shown}` exited with 127 (command not found). {_how_to_configure()}"))
    if result.returncode != 0:
        output = _output(result)
        left = int(deadline - time.monotonic())
        if not output and left >= 1 and any(option in command for option in QUIET_OPTIONS):
            # --quiet can hide why it failed (a parse error): ask once more, aloud.
            loud = _run([word for word in command if word not in QUIET_OPTIONS], path, left)
            output = "" if isinstance(loud, str) else _output(loud)
        return HookOutput(context=(
            f"`{shown}` failed on {path} (exit code {result.returncode}); the file was left as "
            f"written. Its output:\n{output or '(no output)'}"))
    if _read(path) != before:
        # The editing tools check that a file is unchanged since it was last read.
        return HookOutput(context=f"`{shown}` reformatted {path}; read it again before editing it.")
    return None


def _run(command: list[str], path: str, limit: float) -> subprocess.CompletedProcess[bytes] | str:
    """The formatter's result, or why it could not run."""
    try:
        return subprocess.run(
            [*command, path], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, timeout=limit,
        )
    except FileNotFoundError:
        return "is not installed (not found on PATH)"
    except PermissionError:
        return "cannot be run (permission denied)"
    except subprocess.TimeoutExpired:
        return f"did not finish within {limit} s; the file was left as written"
    except (OSError, subprocess.SubprocessError) as error:
        return f"cannot be run ({error})"


def _output(result: subprocess.CompletedProcess[bytes]) -> str:
    """stderr, then stdout, cut to OUTPUT_CHARS: the first lines name the error."""
    text = b"\n".join(part.strip() for part in (result.stderr, result.stdout) if part.strip())
    output = text.decode("utf-8", errors="replace")
    return output if len(output) <= OUTPUT_CHARS else output[:OUTPUT_CHARS] + "\n[...]"


def _how_to_configure() -> str:
    return (f"Install it, or set `command` in [hooks.{HOOK_NAME}] of hookwrap.toml to a formatter "
            f"you have, e.g. command = [\"black\", \"--quiet\"] (the file is appended).")


def _command(entry: dict[str, object]) -> list[str]:
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
