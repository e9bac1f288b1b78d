"""Run hook commands the way an agent CLI runs them: hookwrap's own hook host.

``hookwrap test`` uses it to see what a real CLI would do with a hook, without the CLI. The
steps are generic; every rule that differs between CLIs (matchers, environment, stdin, timeouts,
reading the result) is asked of the CLI's module (``clis/<platform>.py``):

* ``commands_from_settings``: the command handlers of a parsed settings file;
* ``matcher_matches`` / ``match_target``: whether a handler fires for a payload;
* ``run_command``: one command: a JSON object on stdin then EOF, the CLI's shell (``bash -c``;
  ``/bin/sh -c`` in OpenCode's plugin), the project dir as cwd, the CLI's environment and
  timeout (HOOK-061);
* ``AgentSetup.interpret``: a finished run read by the CLI's rules (its setup's ``answers``).

``hookwrap.checks.testing`` builds a whole event (selection, order, aggregation) on top of these.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from .. import hookproc
from ..generator.clis import setup_of
from ..generator.clis.kit import HookCommand, RunResult, Verdict, iter_handlers
from ..names import Platform

__all__ = ["HookCommand", "RunResult", "Verdict", "commands_from_settings", "effective_timeout",
           "hook_env", "match_target", "matcher_matches", "run_command"]


def match_target(platform: Platform | str, event: str, payload: Mapping) -> str | None:
    """The payload value an event's matcher is tested against, or None when it has none."""
    agent = setup_of(platform)
    return agent.matchers.match_target(agent, event, payload)


def matcher_matches(platform: Platform | str, event: str, matcher: str | None,
                    target: str | None) -> bool:
    """Does ``matcher`` select a call whose match target is ``target``, on this CLI?"""
    agent = setup_of(platform)
    return agent.matchers.matcher_matches(agent, event, matcher, target)


def hook_env(platform: Platform | str, payload: Mapping, *, project_dir: str | Path,
             base: Mapping[str, str] | None = None,
             extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment the CLI gives a hook: its own environment plus its hook variables."""
    agent = setup_of(platform)
    env = agent.host.hook_env(agent, payload, str(project_dir), dict(os.environ if base is None else base))
    env.update(extra or {})
    return env


def effective_timeout(cmd: HookCommand) -> float:
    """Seconds the CLI waits for ``cmd`` before it kills it."""
    agent = setup_of(cmd.platform)
    return agent.host.effective_timeout(agent, cmd)


def run_command(cmd: HookCommand, payload: Mapping, *, project_dir: str | Path,
                env: Mapping[str, str] | None = None, max_wait: float | None = None) -> RunResult:
    """Run one hook command as its CLI would and capture everything it did (HOOK-061, 069).

    ``max_wait``: seconds to wait at most, when less than the CLI's timeout (`doctor` does not
    wait minutes for a slow hook); a run cut short is reported as timed out.
    """
    agent = setup_of(cmd.platform)
    full_env = hook_env(cmd.platform, payload, project_dir=project_dir, base=env, extra=cmd.env)
    text = agent.host.expand_command(agent, cmd.command, full_env)
    env_file = None
    if cmd.event in agent.facts.env_file_events:  # a CLAUDE_ENV_FILE to append exports to
        fd, env_file = tempfile.mkstemp(prefix="hookwrap-env-", suffix=".sh")
        os.close(fd)
        full_env["CLAUDE_ENV_FILE"] = env_file
    try:
        timeout = agent.host.effective_timeout(agent, cmd)
        if max_wait is not None and max_wait < timeout:
            timeout = max_wait
        return _spawn([*agent.facts.hook_shell, text], agent.host.stdin_bytes(agent, payload), str(project_dir),
                      full_env, timeout)
    finally:
        if env_file:
            Path(env_file).unlink(missing_ok=True)


# The longest wait a CLI's timer holds (Node: 2**31-1 ms); a hand-edited settings file may say
# more, which would overflow the wait here.
MAX_WAIT_S = (2**31 - 1) / 1000
# On a timeout the hook's group gets SIGTERM, then SIGKILL this much later: time for a hook to end
# what it started in a session of its own (a stop_gate's check), as a CLI's SIGTERM would give.
TERM_WAIT_S = 2.0


def _spawn(argv: list[str], data: bytes, cwd: str, env: dict[str, str], timeout: float) -> RunResult:
    timeout = MAX_WAIT_S if math.isnan(timeout) else min(timeout, MAX_WAIT_S)
    done = hookproc.run(argv, data, timeout=timeout, cwd=cwd, env=env, term_wait=TERM_WAIT_S)
    ms = int(done.seconds * 1000)
    out, err = _text(done.stdout), _text(done.stderr)
    if done.error:
        return RunResult(None, "", "", 0, spawn_error=done.error.removeprefix(
            f"could not start {argv[0]}: "))
    if done.overflow:
        return RunResult(None, out, err, ms, stopped=done.why(timeout), lingered=done.lingered)
    return RunResult(done.code, out, err, ms, done.timed_out, done.signal, lingered=done.lingered)


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def commands_from_settings(platform: Platform | str, settings: Mapping) -> list[HookCommand]:
    """Every ``type: command`` handler of a parsed settings file, in file order.

    Shapes the CLI would skip (a non-list event, a group without a ``hooks`` list) are skipped.
    """
    agent = setup_of(platform)
    commands = []
    for event, _, _, group, handler in iter_handlers(settings.get("hooks")):
        if isinstance(handler, Mapping) and handler.get("type") == "command" \
                and isinstance(handler.get("command"), str) and handler["command"]:
            commands.append(agent.handlers.read_command(agent, event, group, handler))
    return commands
