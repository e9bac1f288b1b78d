"""Resident hooks on Kilo CLI 7.7.9 (the real binary): hookwrap's plugin posts a resident hook's
payload to `hookwrap serve` instead of starting a Python process per call, and fails closed as
Claude Code's http hooks do. Also times the tool calls with the guard as a command and resident
(``HOOKWRAP_E2E_TIMES=<file>`` appends the numbers; docs/performance.md has them)."""

from __future__ import annotations

import json
import os
import statistics
from pathlib import Path

import pytest

from .chat_harness import ChatAgent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply
from .qwen_copilot_support import FORCED_PUSH, hookwrap_repo
from .test_resident import Server, _free_port, _use_port

pytestmark = pytest.mark.e2e

CALLS = 8


def _per_call_ms(result) -> float:
    """The median time from one tool call's request to the next (the tool and its hooks)."""
    times = [r.received_at for r in result.requests]
    gaps = [(b - a) * 1000 for a, b in zip(times[1:CALLS], times[2:CALLS + 1])]
    return statistics.median(gaps)


def _steps(kilo: ChatAgent) -> list:
    return [kilo.shell(f"echo {i} >> calls.txt") for i in range(CALLS)] + \
        [kilo.shell(FORCED_PUSH), Reply("Finished.")]


def _check(result, project: Path) -> None:
    assert result.rc == 0, result.describe()
    assert (project / "calls.txt").read_text().split() == [str(i) for i in range(CALLS)]
    assert "Blocked by the guard hook" in result.tool_results()[CALLS]["text"], result.describe()


def test_a_resident_guard_answers_from_the_server_and_fails_closed_without_it(
        kilo: ChatAgent, git_project: Path) -> None:
    repo: HookwrapRepo = hookwrap_repo(kilo, git_project, "kilo")
    repo.add("before_tool", "guard")
    command = kilo.run(git_project, _steps(kilo))
    _check(command, git_project)
    assert [name for name, _ in command.hooks].count("guard") == CALLS + 1, command.describe()

    port = _free_port()
    _use_port(repo, port)
    repo.set_options("guard", resident=True)
    repo.sync()
    plugin = (git_project / ".kilo" / "plugins" / "hookwrap.js").read_text(encoding="utf-8")
    assert f'"url": "http://127.0.0.1:{port}/hookwrap/kilo/guard"' in plugin
    (git_project / "calls.txt").unlink()
    server = Server(repo, port).start()
    try:
        resident = kilo.run(git_project, _steps(kilo))
    finally:
        server.stop()
    _check(resident, git_project)
    assert resident.hooks == [], resident.describe()  # no python process: the server answered

    # Server down: the fail-closed guard blocks, with the reason, and the run goes on.
    result = kilo.run(git_project, [kilo.shell("echo ok > down.txt"), Reply("Finished.")])
    assert result.rc == 0 and not (git_project / "down.txt").exists(), result.describe()
    text = result.tool_results()[0]["text"]
    assert "fail-closed hook could not run" in text and "hookwrap serve" in text, text

    times = {"command_ms": round(_per_call_ms(command)), "resident_ms": round(_per_call_ms(resident))}
    print(f"kilo per tool call (median of {CALLS - 1}): {times}")
    out = os.environ.get("HOOKWRAP_E2E_TIMES")
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"cli": "kilo", **times}) + "\n")
