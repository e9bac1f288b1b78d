"""`run.py --cli`: what a hook costs per tool call inside each real CLI.

Each CLI runs headless against its loopback mock model (the e2e harnesses in tests/e2e), in a
sandboxed HOME, from a fresh git project; the model makes N harmless shell calls (`echo i`),
then answers. Every variant of a round runs the same script; a round runs the variants in an
order that rotates. The per-call cost of a variant is (its run - the "no hook" run of the same
round) / N, median over rounds, in CPU (user + sys of the CLI and everything it started, as
getrusage counts children) and in wall time.

Two lists drive it, one entry each:

- ``CLIS``: the CLIs (a name, how to start its mock and agent, the `--platform` it needs). A new
  CLI is one entry, once its harness exists in tests/e2e.
- ``VARIANTS``: what the project has. "no hook" is the baseline; "guard" is
  `hookwrap add before_tool guard`. The resident mode (`hookwrap serve`, Claude Code
  `type: "http"` entries) is one more entry: a setup that registers it and starts the server,
  and a teardown that stops it (see benchmarks/README.md).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
if str(REPO / "tests") not in sys.path:
    sys.path.insert(0, str(REPO / "tests"))

from e2e import harness  # noqa: E402  (tests/e2e: the same harnesses as the e2e tests)
from e2e.hwrepo import HookwrapRepo  # noqa: E402
from e2e.mockmodel import Reply  # noqa: E402


class QuietSandbox(harness.Sandbox):
    """The e2e sandbox without the probe: no sitecustomize on PYTHONPATH to slow each hook down."""

    def env(self) -> dict[str, str]:
        env = super().env()
        for var in ("PYTHONPATH", "HOOKWRAP_E2E_PROBE_LOG", "HOOKWRAP_E2E_HIDE_PATHS"):
            env.pop(var, None)
        return env


@dataclass(frozen=True)
class CliCase:
    """One CLI: how to find it and start it with its mock, and its hookwrap platforms."""

    name: str
    start: Callable[[harness.Sandbox], tuple[Any, Callable[[], None]] | str]  # (agent, stop) or why not
    platforms: tuple[str, ...]


def _classic(name: str) -> Callable[[harness.Sandbox], tuple[Any, Callable[[], None]] | str]:
    def start(box: harness.Sandbox):
        path, info = harness.find_cli(name)
        if path is None:
            return info
        agent_cls, server_cls, _ = harness.AGENTS[name]
        server = server_cls().start()
        return agent_cls(path, server, box, info), server.stop
    return start


def _codex(box: harness.Sandbox):
    from e2e.codex_harness import Codex, find_codex
    from e2e.mock_openai_responses import ResponsesMock

    path, info = find_codex()
    if path is None:
        return info
    server = ResponsesMock()
    server.__enter__()
    return Codex(path, server, box, info), lambda: server.__exit__(None, None, None)


def _chat(name: str):
    def start(box: harness.Sandbox):
        from e2e.chat_harness import find_chat_cli, new_agent

        path, info = find_chat_cli(name)
        if path is None:
            return info
        agent = new_agent(name, path, box, info)
        return agent, agent.server.stop
    return start


# Adding a CLI (OpenCode, Droid...): one entry, with its harness's start function.
CLIS: dict[str, CliCase] = {
    "claude": CliCase("claude", _classic("claude"), ("claude",)),
    "gemini": CliCase("gemini", _classic("gemini"), ("gemini",)),
    "codex": CliCase("codex", _codex, ("claude", "codex")),
    "qwen": CliCase("qwen", _chat("qwen"), ("qwen",)),
    "copilot": CliCase("copilot", _chat("copilot"), ("copilot",)),
}


@dataclass(frozen=True)
class Variant:
    """What the project holds for one run: ``setup`` prepares it (after `hookwrap init`) and
    returns a teardown (or None); ``applies`` says which CLIs it exists for."""

    label: str
    setup: Callable[[HookwrapRepo, str], Callable[[], None] | None]
    applies: Callable[[str], bool] = lambda cli: True


def _no_hook(repo: HookwrapRepo, cli: str) -> None:
    return None


def _guard(repo: HookwrapRepo, cli: str) -> None:
    repo.add("before_tool", "guard")
    return None


# The baseline comes first. A resident variant goes here: e.g.
#   Variant("resident guard", _resident_guard, applies=lambda cli: cli == "claude")
# where _resident_guard adds the guard, registers it as served (hookwrap serve) and returns a
# function that stops the server.
VARIANTS: list[Variant] = [
    Variant("no hook", _no_hook),
    Variant("guard (command hook)", _guard),
]


def _children_cpu_ms() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (used.ru_utime + used.ru_stime) * 1000


def _one_run(case: CliCase, variant: Variant, python: str, generator: str, calls: int) -> tuple[float, float] | str:
    """(CPU ms, wall ms) of one CLI run with ``variant`` in a fresh sandbox and project."""
    root = Path(tempfile.mkdtemp(prefix="hw-bench-"))
    stop: Callable[[], None] | None = None
    teardown: Callable[[], None] | None = None
    try:
        box = QuietSandbox(root, Path(python), []).create()
        started = case.start(box)
        if isinstance(started, str):
            return started
        agent, stop = started
        project = root / "proj"
        project.mkdir()
        from e2e.codex_harness import init_git_repo

        init_git_repo(project)
        repo = HookwrapRepo(project, box)
        repo.hookwrap("init", *[w for p in case.platforms for w in ("--platform", p)])
        teardown = variant.setup(repo, case.name)
        steps = [agent.shell(f"echo call{i}") for i in range(calls)] + [Reply("Finished.")]
        before = _children_cpu_ms()
        start = time.perf_counter()
        result = agent.run(project, steps, timeout=300)
        wall = (time.perf_counter() - start) * 1000
        cpu = _children_cpu_ms() - before
        if result.rc != 0:
            return f"{case.name} exited {result.rc}: {result.stderr.strip()[-200:]}"
        done = len(result.requests)
        if done < calls + 1:
            return f"{case.name} made {done} model requests, not {calls + 1}"
        return cpu, wall
    finally:
        if teardown:
            teardown()
        if stop:
            stop()
        shutil.rmtree(root, ignore_errors=True)


def cli_table(names: list[str], python: str, generator: str, rounds: int, calls: int) -> str:
    """The per-call table for the CLIs ``names``, ``rounds`` rounds of every variant."""
    os.environ.setdefault("HOOKWRAP_E2E_PYTHON", python)
    lines = [f"hooks run on {python}; {calls} shell calls per run, {rounds} rounds; per call = "
             "(variant - no hook, same round) / calls, median over rounds",
             "", "| CLI | variant | run CPU ms | run wall ms | per call CPU ms | per call wall ms |",
             "|---|---|---:|---:|---:|---:|"]
    for name in names:
        case = CLIS.get(name)
        if case is None:
            lines.append(f"| {name} | - | - | - | - | unknown CLI (known: {', '.join(CLIS)}) |")
            continue
        variants = [v for v in VARIANTS if v.applies(name)]
        samples: dict[str, list[tuple[float, float]]] = {v.label: [] for v in variants}
        why = ""
        for round_no in range(rounds):
            shift = round_no % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                got = _one_run(case, variant, python, generator, calls)
                if isinstance(got, str):
                    why = got
                    break
                samples[variant.label].append(got)
            if why:
                break
        if why:
            lines.append(f"| {name} | - | - | - | - | unavailable: {why} |")
            continue
        base = samples[variants[0].label]
        for variant in variants:
            mine = samples[variant.label]
            cpu, wall = (statistics.median(s[i] for s in mine) for i in (0, 1))
            if variant is variants[0]:
                lines.append(f"| {name} | {variant.label} | {cpu:.0f} | {wall:.0f} | - | - |")
                continue
            per_cpu = statistics.median((m[0] - b[0]) / calls for m, b in zip(mine, base))
            per_wall = statistics.median((m[1] - b[1]) / calls for m, b in zip(mine, base))
            lines.append(f"| {name} | {variant.label} | {cpu:.0f} | {wall:.0f} | {per_cpu:.1f} | {per_wall:.1f} |")
    return "\n".join(lines)
