"""The bridge: run an external hook command, written for one CLI's protocol, on any CLI.

An external hook is a ``[hooks.<name>]`` table of hookwrap.toml with ``command`` (a shell
string, any language) and ``speaks`` (the CLI whose protocol it reads and answers; Claude Code's
by default). hookwrap registers its own small script for it, ``.hookwrap/hooks/<name>.py``,
which calls ``main`` here; the command and its protocol are read from hookwrap.toml on every
run, so editing the manifest is enough.

- The running CLI speaks the command's protocol: the command replaces this process (exec), so
  stdin, stdout, stderr and the exit code are the CLI's and the command's own (pass-through).
- Any other CLI: its payload is normalized, rebuilt as the command's CLI would send it
  (``AgentCLI.payload_for``: event and tool names, tool_input keys), the command runs with it,
  and its answer is read by the command's CLI's rules (``AgentCLI.read_answer``: exit 2 blocks,
  JSON decisions, context, updatedInput) into a HookOutput, which the running CLI's own module
  writes in its words, mapping what it cannot express the safe way.

The command runs in the project root with the project-dir variables of its CLI set to it, as
that CLI runs its hooks in its project dir (see docs/external-hooks.md), wherever the running CLI
was started.

A command that cannot start, times out or is killed: no opinion, unless the hook is fail-closed
(``fail_closed = true``), which blocks.
"""

from __future__ import annotations

import json
import os
import sys

from .hookinput import normalize_input
from .hookoutput import HookOutput, denormalize_output
from .names import Platform
from .options import answer_limit, manifest_entry, project_root
from .platforms import runtime_of
from .protocol import format_hook_error, read_stdin, write_stdout
from .runner import (
    fail_closed_from_argv,
    guess_platform,
    host_of,
    platform_from_argv,
    seal_stdout,
    unreadable,
    unreadable_block,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Sequence

    from .hookinput import HookInput

DEFAULT_SPEAKS = "claude"
SHELL = "bash"  # what Gemini CLI, Codex CLI and Qwen Code run a command hook with


def _speaks(entry: dict[str, Any]) -> Platform:
    value = entry.get("speaks", DEFAULT_SPEAKS)
    return Platform(value if isinstance(value, str) else DEFAULT_SPEAKS)


def command_env(root: str, speaks: Platform) -> dict[str, str]:
    """The environment of the command: this process's, with the project-dir variables the
    command's CLI would set (``CLAUDE_PROJECT_DIR`` for a Claude Code hook) set to the project
    root. Always set, never kept: a CLI started in a subfolder (Droid, Gemini CLI) sets
    ``CLAUDE_PROJECT_DIR`` to that subfolder, where ``"$CLAUDE_PROJECT_DIR"/scripts/x.sh`` is
    not."""
    env = dict(os.environ)
    for name in runtime_of(speaks).project_dir_vars:
        env[name] = root
    return env


def _time_left(limit: float) -> float:
    """``limit`` less the time this process has run: the CLI's clock started when it started
    the hook, and Python's start can take most of a second on a loaded machine. Linux tells
    (``/proc``); elsewhere the start is not counted."""
    try:
        with open("/proc/self/stat", "rb") as file:
            fields = file.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as file:
            uptime = float(file.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return limit
    return max(0.1, limit - max(0.0, uptime - started))


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def bridged_output(hook_input: HookInput, speaks: Platform, command: str, root: str,
                   entry: dict[str, Any], limit: float | None = None) -> HookOutput:
    """Run ``command`` for ``hook_input`` in ``speaks``' protocol; its answer as a HookOutput.
    ``limit``: the seconds the command may take (default: the entry's whole answer limit; the
    hook process passes what is left of it after its own start). It runs with bash in the
    project root, bounded by ``hookproc.run``: at the limit its whole process group is killed,
    and a process it leaves behind holding its output does not hold the answer past the limit."""
    from .hookproc import run  # here, not at the top: a pass-through run never needs it

    speaker, running = runtime_of(speaks), runtime_of(hook_input.platform)
    payload = speaker.payload_for(hook_input, running)
    if payload is None:  # the command's CLI has no such event: it has nothing to say
        return HookOutput()
    limit = answer_limit(entry) if limit is None else limit
    done = run([SHELL, "-c", command], json.dumps(payload).encode("utf-8"), timeout=limit,
               cwd=root, env=command_env(root, speaks))
    code, out, err, failure = done.code, _decode(done.stdout), _decode(done.stderr), done.why(limit)
    if failure or code is None:
        return _failed(entry, f"external hook {command!r} {failure}", err)
    if code not in (0, 2) and entry.get("fail_closed") is True:  # Claude's onFailure: block
        return _failed(entry, f"external hook {command!r} exited {code}", err)
    fields = speaker.read_answer(hook_input.event, code, out, err)
    if err.strip() and fields.get("reason") != err.strip():
        sys.stderr.write(err if err.endswith("\n") else err + "\n")
    updated = fields.get("updated_input")
    if isinstance(updated, dict):
        common = speaker.common_tool_input(hook_input.tool_name, updated)
        own = running.own_tool_input(hook_input.tool_name, common)
        for key in running.own_only_keys.get(hook_input.tool_name, ()):
            if key not in own and key in hook_input.tool_input:
                own[key] = hook_input.tool_input[key]
        fields["updated_input"] = own
    return HookOutput(**fields)


def _failed(entry: dict[str, Any], problem: str, stderr: str) -> HookOutput:
    if stderr.strip():
        sys.stderr.write(stderr if stderr.endswith("\n") else stderr + "\n")
    if entry.get("fail_closed") is True:
        return HookOutput.block(f"{problem}; blocked because the hook is fail-closed")
    sys.stderr.write(f"hookwrap: {problem}\n")
    return HookOutput()


def _exec(command: str, env: dict[str, str], root: str) -> int:
    """Pass-through: the command takes this process's place (stdin unread, stdout, stderr and
    exit code untouched), in the project root."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.chdir(root)
        os.execvpe(SHELL, [SHELL, "-c", command], env)
    except OSError as error:  # no bash: as a command that cannot start
        sys.stderr.write(f"hookwrap: could not start {SHELL}: {error}\n")
    return 1


def main(script: str, name: str, argv: Sequence[str] | None = None) -> int:
    """Entry point of an external hook's generated script: ``raise SystemExit(main(...))``."""
    root = project_root(script)
    args = sys.argv[1:] if argv is None else argv
    entry = manifest_entry(root, name)
    command = entry.get("command")
    platform = platform_from_argv(args)
    raw = None
    if platform is None:
        raw = read_stdin()
        platform = guess_platform(raw)
    hook_input = None
    try:
        if not isinstance(command, str) or not command.strip():
            raise ValueError(f"hookwrap.toml has no command for the external hook {name!r}")
        speaks = _speaks(entry)
        host, elsewhere = host_of(platform)
        if host is speaks and not elsewhere and raw is None:
            return _exec(command, command_env(root, speaks), root)
        raw = read_stdin() if raw is None else raw
        hook_input = normalize_input(raw, host)
        # Only its before_tool command carries the flag: a prompt it cannot read goes on.
        why = unreadable(raw, hook_input) if fail_closed_from_argv(args) and not elsewhere else ""
        if why:
            text = unreadable_block(name, why, hook_input)
        elif elsewhere or runtime_of(host).answers_without_hook(hook_input):
            text = "{}"
        else:
            output = bridged_output(hook_input, speaks, command, root, entry,
                                    _time_left(answer_limit(entry)))
            text = denormalize_output(output, host, hook_input.event, hook_input.raw_event)
    except BaseException as error:  # the agent must never see a crash
        event = hook_input.event if hook_input is not None else None
        document = format_hook_error(error, f"external hook {name}")
        text = json.dumps(runtime_of(platform).error_output(document, event))
    write_stdout(text)
    seal_stdout()
    return 0
