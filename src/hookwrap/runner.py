"""run_hook and main: the whole life of one hook process (REQ-006.10)."""

from __future__ import annotations

import json
import os
import sys

from .clis._base import FAIL_CLOSED_FLAG, json_kind
from .hookinput import HookInput, normalize_input
from .hookoutput import HookOutput, denormalize_output
from .names import DEFAULT_PLATFORM, NormalizedEvent, Platform
from .platforms import all_runtimes, detect_platform, runtime_of
from .protocol import format_hook_error, output_hook_error, read_stdin, write_stdout

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterator, Optional, Sequence

    Hook = Callable[[HookInput], Optional[HookOutput]]


def __getattr__(name: str) -> object:
    """``runner.Hook``, the hook function's type, built on first use: it needs typing."""
    if name == "Hook":
        from typing import Callable, Optional

        return Callable[[HookInput], Optional[HookOutput]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _StdoutToStderr:
    """While the user's hook runs, everything it prints goes to stderr.

    Both sys.stdout and file descriptor 1 are redirected, so a subprocess the hook starts
    cannot write a second document into the protocol stream either.
    """

    def __enter__(self) -> None:
        self._saved = sys.stdout
        self._fd: int | None = None
        try:
            sys.stdout.flush()
            self._fd = os.dup(1)
            os.dup2(2, 1)
        except (OSError, ValueError, AttributeError):
            self._fd = None
        sys.stdout = sys.stderr

    def __exit__(self, *exc: object) -> None:
        # Flush every stream that may hold the hook's text while fd 1 still points at stderr:
        # a write to sys.__stdout__ (or a saved sys.stdout) is buffered, and flushed later it
        # would land in front of the JSON document.
        for stream in (sys.stderr, sys.__stdout__, self._saved):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        if self._fd is not None:
            os.dup2(self._fd, 1)
            os.close(self._fd)
        sys.stdout = self._saved


def _resume_gc() -> None:
    """Turn the garbage collector back on if hookwrap's launcher paused it for loading
    (launcher.py): the hook runs as usual."""
    launcher = sys.modules.get("_hookwrap_launcher")
    resume = getattr(launcher, "resume_gc_for_hook", None)
    if resume is not None:
        resume()


def _call(hook: Hook, hook_input: HookInput) -> HookOutput:
    _resume_gc()
    with _StdoutToStderr():
        try:
            result = hook(hook_input)
        except SystemExit as exc:
            # sys.exit() / sys.exit(0) inside a hook means "done, nothing to say".
            if exc.code in (None, 0):
                return HookOutput()
            raise
    if result is None:
        return HookOutput()
    if not isinstance(result, HookOutput):
        raise TypeError(f"hook returned {type(result).__name__}; expected HookOutput or None")
    return result


def _report_error(error: BaseException, hook_input: HookInput | None) -> None:
    if hook_input is None:
        output_hook_error(error, "hook")
        return
    document = format_hook_error(error, f"{hook_input.raw_event or hook_input.event} hook")
    if hook_input.event is NormalizedEvent.AFTER_AGENT and hook_input.stop_hook_active:
        # A stop hook that crashes on every retry would keep the agent looping (Gemini has no
        # cap), so a crash inside a retry is reported to the user without blocking again.
        document = {"systemMessage": document["reason"]}
    else:  # some CLIs read the error document's block only in their own words (Copilot CLI)
        document = runtime_of(hook_input.platform).error_output(document, hook_input.event)
    write_stdout(json.dumps(document))


def host_of(platform: Platform) -> tuple[Platform, bool]:
    """The CLI really running this process, and whether it runs the hook elsewhere.

    A CLI may run another CLI's registrations too (Copilot CLI runs .claude/settings.json):
    then that CLI answers, and when it runs hookwrap's hooks from its own registrations this
    run calls no hook, so every hook runs once per CLI.
    """
    name = runtime_of(platform).guest_host(os.environ)
    if name is None:
        return platform, False
    guest = runtime_of(name)
    return guest.platform, guest.runs_own_registration(os.environ)


# True once seal_stdout has sealed the one answer in a real hook process: the launcher then
# ends the process without the interpreter's teardown (launcher.py, _exit_now).
answer_sealed = False


def seal_stdout() -> None:
    """After the one document is out, send anything printed later (a thread the hook left
    running, an atexit handler) to stderr. Only in a real hook process: an in-process caller
    that replaced sys.stdout keeps its streams."""
    global answer_sealed
    if sys.stdout is not sys.__stdout__ or sys.stdout is None:
        return
    try:
        sys.stdout.flush()
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):
        return
    sys.stdout = sys.stderr
    answer_sealed = True


def _filtered_out(hook: Hook, hook_input: HookInput) -> bool:
    """A shell call the hook's ``commands`` patterns leave out (commandfilter.py): it answers
    "no decision" without calling the hook. Other calls never load the filter."""
    if hook_input.tool_name != "shell":
        return False
    # sync writes .hookwrap/filters.json only when some hook has patterns: without it, no filter
    # applies, and a shell call does not pay for importing the filter (<root>/.hookwrap/hooks/x.py).
    script = getattr(hook, "__globals__", {}).get("__file__")
    if not isinstance(script, str) or not os.path.exists(
            os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(script))), "filters.json")):
        return False
    from .commandfilter import skips

    return skips(script, hook_input.shell_lines)


def run_raw(hook: Hook, platform: Platform, raw: str, fail_closed: bool = False) -> int:
    hook_input: HookInput | None = None
    try:
        platform, elsewhere = host_of(platform)
        hook_input = normalize_input(raw, platform)
        why = unreadable(raw, hook_input) if fail_closed and not elsewhere else ""
        if why:
            text = unreadable_block(_hook_name(hook), why, hook_input)
        elif elsewhere or runtime_of(platform).answers_without_hook(hook_input) \
                or _filtered_out(hook, hook_input):
            text = "{}"
        else:
            output = _call(hook, hook_input)
            text = denormalize_output(output, platform, hook_input.event, hook_input.raw_event)
    except BaseException as error:  # the agent must never see a crash, whatever happened
        _report_error(error, hook_input)
    else:
        write_stdout(text)
    seal_stdout()
    return 0


def unreadable(raw: str, hook_input: HookInput) -> str:
    """Why a fail-closed hook cannot judge this call, "" when it can: no payload, one that is
    not a JSON object, or a tool call not in the shape its CLI sends (a ``tool_input`` that is
    not an object, a shell call without a command string, a write that names no file). A
    fail-closed hook blocks such a call rather than let through what it could not read."""
    if not hook_input.raw_input:  # normalize_input read no JSON object ({} for anything else)
        if not raw.strip():
            return "stdin was empty"
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return "the payload is not JSON"
        if not isinstance(data, dict):
            return f"the payload is {json_kind(data)}, not an object"
    if hook_input.event is not NormalizedEvent.BEFORE_TOOL:  # the only event it is registered on
        event = hook_input.raw_event
        return f"the payload is a {event} event, not a tool call" if event else \
            "the payload names no hook event"
    tool_input = hook_input.get("tool_input")
    if not isinstance(tool_input, dict):
        return f"its tool_input is {json_kind(tool_input)}, not an object"
    if not hook_input.raw_tool_name:
        return "the payload names no tool"
    if hook_input.tool_name == "shell":
        return runtime_of(hook_input.platform).unreadable_shell_input(tool_input)
    if hook_input.tool_name in ("write_file", "edit_file") and not hook_input.file_paths:
        return "it names no file it writes"
    return ""


def _hook_name(hook: object) -> str:
    """The hook's name, from its script's (``.hookwrap/hooks/<name>.py``)."""
    script = getattr(hook, "__globals__", {}).get("__file__")
    return os.path.basename(script)[:-3] if isinstance(script, str) and \
        script.endswith(".py") else "the hook"


def unreadable_block(name: str, why: str, hook_input: HookInput) -> str:
    """The block a fail-closed hook answers for a call it could not read (``unreadable``), in
    its CLI's words for a tool call."""
    reason = (f"hookwrap: {name} could not read the call ({why}); it fails closed, so the call "
              "is blocked")
    sys.stderr.write(reason + "\n")
    return denormalize_output(HookOutput.block(reason), hook_input.platform,
                              NormalizedEvent.BEFORE_TOOL, hook_input.raw_event or None)


def run_hook(hook: Hook, platform: Platform, *, fail_closed: bool = False) -> int:
    """Run one hook invocation end to end.

    Reads stdin, normalizes it, calls ``hook``, and prints exactly one JSON document: the
    platform's translation of the hook's HookOutput, or, if anything raised, the error
    document of ``output_hook_error``. Whatever the hook prints goes to stderr.

    Args:
        hook: a function taking a HookInput and returning a HookOutput (None = no opinion).
        platform: the CLI running the hook.
        fail_closed: block a tool call it cannot read (``unreadable``) instead of calling the
            hook; ``main`` sets it from the registered command's ``--fail-closed``.

    Returns:
        0, always: the JSON ``decision`` decides, never the exit code (REQ-006.10.3-5).
    """
    try:
        raw = read_stdin()
        platform = Platform(platform)
    except BaseException as error:
        output_hook_error(error, "hook")
        return 0
    return run_raw(hook, platform, raw, fail_closed)


_PLATFORM_VALUES = frozenset(platform.value for platform in Platform)


def _platform_values(argv: Sequence[str]) -> Iterator[str]:
    """Every value given with ``--platform NAME`` or ``--platform=NAME``."""
    for index, arg in enumerate(argv):
        if arg == "--platform" and index + 1 < len(argv):
            yield argv[index + 1]
        elif arg.startswith("--platform="):
            yield arg.partition("=")[2]


def platform_from_argv(argv: Sequence[str]) -> Platform | None:
    return next((Platform(v) for v in _platform_values(argv) if v in _PLATFORM_VALUES), None)


def fail_closed_from_argv(argv: Sequence[str]) -> bool:
    """Whether the registered command marks the hook fail-closed (``--fail-closed=SECONDS``)."""
    return any(isinstance(arg, str) and arg.startswith(f"{FAIL_CLOSED_FLAG}=") for arg in argv)


def guess_platform(raw: str) -> Platform:
    """The CLI a payload came from, for a script run by hand (hookwrap's commands always pass
    --platform): the one CLI that knows its event, or of those the one that knows its tool
    (Droid's Execute), or the CLI whose own variable is set; else the default, said on stderr."""
    try:
        data = json.loads(raw) if raw.strip() else {}
        event = data.get("hook_event_name", "") if isinstance(data, dict) else ""
        tool = data.get("tool_name", "") if isinstance(data, dict) else ""
    except (ValueError, RecursionError):  # too deep: no payload, as normalize_input reads it
        event, tool = "", ""
    guessed = detect_platform(event) if isinstance(event, str) and event else None
    if guessed is not None:
        return guessed
    if isinstance(event, str) and event and isinstance(tool, str) and tool:
        knowing = [c.platform for c in all_runtimes() if c.knows_event(event) and tool in c.tools]
        if len(knowing) == 1:
            return knowing[0]
    # A variable only one CLI sets for its hooks (Gemini's GEMINI_PROJECT_DIR), else the default.
    for agent in all_runtimes():
        if agent.marker_env and os.environ.get(agent.marker_env):
            return agent.platform
    if raw.strip():
        sys.stderr.write(f"hookwrap: no --platform, and the payload does not say which CLI sent "
                         f"it: read as {runtime_of(DEFAULT_PLATFORM).label}'s (pass --platform "
                         "NAME to choose)\n")
    return DEFAULT_PLATFORM


def _unknown_platform(argv: Sequence[str]) -> None:
    """Say on stderr that a --platform value names no CLI (a typo in a hand run), before the
    platform is guessed from the payload instead."""
    for value in _platform_values(argv):
        if value not in _PLATFORM_VALUES:
            names = ", ".join(sorted(_PLATFORM_VALUES))
            sys.stderr.write(f"hookwrap: --platform {value!r} is not a CLI hookwrap knows "
                             f"({names}): guessing from the payload instead\n")


def main(hook: Hook, argv: Sequence[str] | None = None) -> int:
    """Entry point of a generated hook script: ``raise SystemExit(main(hook))``.

    The platform comes from ``--platform NAME`` (hookwrap always registers it);
    without it, it is inferred from the payload's event name, for hand-run scripts.
    ``--fail-closed=SECONDS`` (a fail-closed hook's command) sets run_hook's ``fail_closed``.

    Returns:
        0, always.
    """
    args = sys.argv[1:] if argv is None else argv
    platform = platform_from_argv(args)
    closed = fail_closed_from_argv(args)
    if platform is not None:
        return run_hook(hook, platform, fail_closed=closed)
    _unknown_platform(args)
    raw = read_stdin()
    return run_raw(hook, guess_platform(raw), raw, closed)
