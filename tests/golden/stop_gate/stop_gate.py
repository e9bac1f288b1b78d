#!/usr/bin/env python3
"""stop_gate: keeps the agent working until a check command passes.

Rendered once by `hookwrap add` from the stop_gate template; it is yours now. When the agent
wants to stop, it runs `check` from hookwrap.toml ([hooks.stop_gate]). If the check fails,
the hook blocks the stop and gives the agent the end of the check's output. After
`max_retries` blocks in a row it lets the agent stop and says so, so it can never loop
forever; a passing check resets the count. When the check is a single pytest command, its
exit code 5 ("no tests collected") counts as passing: there is nothing for the agent to fix.
When the check cannot run at all (not installed, not executable, `No module named pytest`),
the agent cannot fix that either: the hook lets it stop and tells the user what to change.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import re
import shlex
import signal
import subprocess
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'stop_gate'
DEFAULT_CHECK = 'python3 -m pytest -q'
DEFAULT_MAX_RETRIES = 3
TAIL_LINES = 40
TAIL_CHARS = 3000
# pytest exits 5 when it collects no tests. Blocking on that would keep the agent working
# (up to max_retries) on nothing it could fix, so a check that is one pytest command passes
# with it. Not in a chain (`pytest -q && mypy src`): there 5 may mean the rest never ran.
PYTEST_NO_TESTS = 5
# The shell's exit codes for a command it could not find (127) or could not execute (126).
NOT_FOUND, NOT_EXECUTABLE = 127, 126
# What `python3 -m pytest` prints when the interpreter has no pytest: `/usr/bin/python3: No
# module named pytest`. (A test's own failed import looks different: ModuleNotFoundError.)
NO_MODULE = re.compile(r"^\S*python[\w.]*: No module named '?([\w.]+)'?\s*$", re.MULTILINE)

# This hook's [hooks.<name>] table of hookwrap.toml is read on every run, so edits apply at once
# (the code is in the runtime, .hookwrap/lib/hookwrap/options.py, which `hookwrap sync` updates).
from hookwrap.options import manifest_entry, project_root  # noqa: E402
from hookwrap.options import option as _option, time_limit as _time_limit  # noqa: E402, F401

ROOT = project_root(__file__)  # .hookwrap/hooks/<name>.py -> the repo root


def _manifest_entry() -> dict[str, object]:
    """This hook's table in hookwrap.toml; {} if it cannot be read."""
    return manifest_entry(ROOT, HOOK_NAME)


STATE_DIR = os.path.join(ROOT, ".hookwrap", "state")

# What arrives (after_agent): Claude Code Stop, SubagentStop; Gemini CLI AfterAgent.
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd,
#      event.stop_hook_active.
#   Sent by Claude Code only: event.prompt_id, event.permission_mode, event.get("effort"),
#      event.last_assistant_message, event.get("background_tasks"), event.get("session_crons").
#   Sent by Gemini CLI only: event.timestamp, event.prompt, event.prompt_response.
#   event.stop_hook_active: True when the agent is already working again because a stop hook
#      blocked: check it, or a hook that always blocks loops.
#   event.last_assistant_message: the agent's final text.
#   event.prompt: the user's request.
#   event.prompt_response: the agent's answer.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Block the stop while the check fails, at most max_retries times in a row."""
    entry = _manifest_entry()
    check = _option(entry, "check", DEFAULT_CHECK)
    max_retries = _option(entry, "max_retries", DEFAULT_MAX_RETRIES)
    counter = _counter_file(event.session_id)
    # stop_hook_active is False on a fresh stop: earlier blocks no longer count.
    blocks = _read_count(counter) if event.stop_hook_active else 0
    limit = _time_limit(entry)
    # On stderr, which the CLIs show in their debug output: what ran, from where.
    print(f"{HOOK_NAME}: running `{check}` in {ROOT}", file=sys.stderr)
    code, output = _run(check, limit)
    if code == 0 or (code == PYTEST_NO_TESTS and _runs_pytest(check)):
        _write_count(counter, 0)
        return None
    problem = _cannot_run(check, code, output)
    if problem:
        _write_count(counter, 0)
        return HookOutput(system_message=(
            f"{HOOK_NAME}: the check `{check}` could not run ({problem}), so the agent was let stop "
            f"without it. {_how_to_fix(check, code, output)}"))
    if code is None:
        _write_count(counter, 0)
        return HookOutput(system_message=(
            f"{HOOK_NAME}: `{check}` did not finish within {limit} s, so the agent was let stop; "
            f"raise timeout in [hooks.{HOOK_NAME}] of hookwrap.toml."))
    if blocks >= max_retries:
        _write_count(counter, 0)
        return HookOutput(system_message=(
            f"{HOOK_NAME}: `{check}` still fails after {blocks} attempts; letting the agent stop."))
    if not _write_count(counter, blocks + 1):
        # Without the count the cap cannot work, and a CLI may have no cap of its own.
        return HookOutput(system_message=(
            f"{HOOK_NAME}: `{check}` fails, but the retry count cannot be saved under "
            f".hookwrap/state/, so the agent was let stop rather than risk a loop."))
    return HookOutput.block(
        f"`{check}` failed (exit code {code}); attempt {blocks + 1} of {max_retries}. "
        f"Fix what it reports, then finish. The end of its output:\n\n{_tail(output)}"
    )


def _run(check: str, limit: float) -> tuple[int | None, str]:
    """(exit code, output) of the check; exit code None when it ran out of time."""
    try:
        # A session of its own, so a timeout kills the whole tree (pytest's children too).
        process = subprocess.Popen(
            check, shell=True, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
    except OSError as error:
        return 127, str(error)
    # A CLI that gives up on this hook (or `hookwrap doctor`) sends it SIGTERM; the check, in a
    # session of its own, would run on without it: it ends with the hook. (Not settable outside
    # the main thread, as in `hookwrap serve`: there the check runs to its limit.)
    try:
        previous = signal.signal(signal.SIGTERM, _stopped)
    except ValueError:
        previous = None
    try:
        output, _ = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.communicate()
        return None, ""
    finally:
        _kill(process)
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return process.returncode, output.decode("utf-8", errors="replace")


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the check's whole process group, if it still runs."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass  # already gone


def _cannot_run(check: str, code: int | None, output: str) -> str:
    """Why the check itself could not run, or "" when it ran (and failed)."""
    if code == NOT_FOUND:
        return "exit code 127: command not found"
    if code == NOT_EXECUTABLE:
        return "exit code 126: permission denied or not executable"
    missing = _missing_module(check, output)
    return f"No module named {missing}" if missing else ""


def _missing_module(check: str, output: str) -> str:
    """The module of a `python -m MODULE` in the check that the interpreter does not have."""
    words = _words(check)
    modules = {words[i + 1] for i in range(len(words) - 1) if words[i] == "-m"}
    for match in NO_MODULE.finditer(output):
        if match.group(1) in modules:
            return match.group(1)
    return ""


def _how_to_fix(check: str, code: int | None, output: str) -> str:
    where = f"[hooks.{HOOK_NAME}] of hookwrap.toml"
    missing = _missing_module(check, output) if code not in (NOT_FOUND, NOT_EXECUTABLE) else ""
    if missing:
        python = next((word for word in _words(check) if os.path.basename(word).startswith("python")), "python3")
        return (f"Install it for that interpreter (`{python} -m pip install {missing}`), or set `check` "
                f"in {where} to a command that works here (e.g. `.venv/bin/python -m {missing} -q`).")
    return (f"Install what it runs, or set `check` in {where} to a command that works here. "
            f"Its output: {_tail(output)[-300:]}")


def _words(check: str) -> list[str]:
    try:
        return shlex.split(check)
    except ValueError:  # unbalanced quotes
        return check.split()


def _runs_pytest(check: str) -> bool:
    """True when the check is one pytest command: `pytest -q`, `python3 -m pytest`,
    `.venv/bin/pytest`; False for chains and pipelines, whose exit code is not pytest's alone."""
    lexer = shlex.shlex(check, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:  # unbalanced quotes: not a command we can read
        return False
    if not words or any(word and set(word) <= set("&|;()<>") for word in words):
        return False
    program = os.path.basename(words[0])
    if program in ("pytest", "py.test"):
        return True
    return program.startswith("python") and words[1:3] == ["-m", "pytest"]


def _tail(output: str) -> str:
    tail = "\n".join(output.rstrip().splitlines()[-TAIL_LINES:])
    return tail[-TAIL_CHARS:] or "(no output)"


def _counter_file(session_id: str) -> str:
    safe = "".join(char for char in session_id if char.isalnum() or char in "-_")[:100]
    return os.path.join(STATE_DIR, f"{HOOK_NAME}.{safe or 'unknown'}.count")


def _read_count(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as file:
            return max(0, int(file.read().strip() or 0))
    except (OSError, ValueError):
        return 0


def _write_count(path: str, count: int) -> bool:
    """Save the count (0 removes the file); False when it cannot be saved."""
    try:
        if count == 0:
            if os.path.exists(path):
                os.remove(path)
            return True
        os.makedirs(STATE_DIR, exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            file.write(str(count))
        return True
    except OSError as error:
        print(f"{HOOK_NAME}: cannot record the retry count in {path}: {error}", file=sys.stderr)
        return False


if __name__ == "__main__":
    raise SystemExit(main(hook))
