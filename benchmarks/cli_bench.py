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
  `hookwrap add before_tool guard`; "resident guard" is the same guard served by `hookwrap
  serve` (Claude Code's `type: "http"` entries; hookwrap's OpenCode and Kilo CLI plugin posts
  too; its setup starts the server, whose own CPU is counted); "filtered audit" is an audit hook with `commands = ["git *"]`, which no call
  matches (Claude Code's `if` skips the spawn; elsewhere the runtime answers without calling
  the hook). A variant that does not exist on a CLI is reported as "not supported", with why.

Every hook is run by the command the CLI's settings file holds, as written by `hookwrap add`:
nothing here builds a command line.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
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


def _start(name: str) -> Callable[[harness.Sandbox], tuple[Any, Callable[[], None]] | str]:
    """Start CLI ``name`` as the e2e fixtures do (tests/e2e/agents.py), or say why it cannot."""
    def start(box: harness.Sandbox):
        from e2e.agents import AGENTS

        path, info = harness.find_binary(name)  # OpenCode's --version runs with npm_config_offline=true
        if path is None:
            return info
        agent = AGENTS[name](path, box, info)
        return agent, agent.stop
    return start


# Adding a CLI: one entry (once tests/e2e/agents.py runs it), and its name in run.py's CLI_CASES.
CLIS: dict[str, CliCase] = {
    "claude": CliCase("claude", _start("claude"), ("claude",)),
    "gemini": CliCase("gemini", _start("gemini"), ("gemini",)),
    "codex": CliCase("codex", _start("codex"), ("claude", "codex")),
    "qwen": CliCase("qwen", _start("qwen"), ("qwen",)),
    "copilot": CliCase("copilot", _start("copilot"), ("copilot",)),
    "opencode": CliCase("opencode", _start("opencode"), ("opencode",)),
    "droid": CliCase("droid", _start("droid"), ("droid",)),
    "pi": CliCase("pi", _start("pi"), ("pi",)),
    "kilo": CliCase("kilo", _start("kilo"), ("kilo",)),
}


@dataclass(frozen=True)
class Running:
    """What a variant's setup started: how to stop it, and its CPU ms so far (counted in the run)."""

    stop: Callable[[], None]
    cpu_ms: Callable[[], float]


@dataclass(frozen=True)
class Variant:
    """What the project holds for one run: ``setup`` prepares it (after `hookwrap init`) and
    returns what it started (or None); ``applies`` says which CLIs it exists for, and
    ``unsupported`` why not on the others."""

    label: str
    setup: Callable[[HookwrapRepo, str], Running | None]
    applies: Callable[[str], bool] = lambda cli: True
    unsupported: str = ""


def _no_hook(repo: HookwrapRepo, cli: str) -> None:
    return None


def _guard(repo: HookwrapRepo, cli: str) -> None:
    repo.add("before_tool", "guard")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _proc_cpu_ms(pid: int) -> float:
    """User + system CPU ms of one running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _registered(repo: HookwrapRepo, cli: str) -> list[dict[str, Any]]:
    """Every hook entry of CLI ``cli``'s registration file, as `hookwrap add` wrote it."""
    from hookwrap.generator.clis import setup_of
    from hookwrap.generator.settings import parse_settings

    settings = setup_of(cli).facts.settings_file
    data = parse_settings((repo.root / settings).read_text(encoding="utf-8"), cli, label=settings)
    return [entry for groups in data.get("hooks", {}).values() for group in groups
            for entry in group.get("hooks", [])]


def _posts(cli: str) -> bool:
    """Whether the CLI's registration can post a before_tool hook to `hookwrap serve`."""
    from hookwrap.generator.clis import setup_of
    from hookwrap.names import NormalizedEvent

    return all(setup_of(p).http_handler("http://127.0.0.1:1/x", timeout_s=1, fail_closed=True,
                                        event=NormalizedEvent.BEFORE_TOOL) is not None
               for p in CLIS[cli].platforms)


def _resident_guard(repo: HookwrapRepo, cli: str) -> Running:
    """The guard served by the project's server: `[serve] port`, `add --resident`, the server
    started as docs/resident.md gives its line (the repo's own runtime)."""
    port = _free_port()
    manifest = repo.root / "hookwrap.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + f"\n[serve]\nport = {port}\n",
                        encoding="utf-8")
    repo.add("before_tool", "guard", "--resident")
    if not any(e.get("type") == "http" for e in _registered(repo, cli)):
        raise RuntimeError("hookwrap add --resident registered no http entry")
    server = subprocess.Popen(
        [str(repo.sandbox.python), "-m", "hookwrap.server", "--root", str(repo.root), "--port", str(port)],
        env={"PATH": os.environ["PATH"], "HOME": str(repo.sandbox.home),
             "PYTHONPATH": str(repo.root / ".hookwrap" / "lib")},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop() -> None:
        server.terminate()
        server.wait(timeout=10)

    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/hookwrap/health", timeout=2):
                break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                stop()
                raise RuntimeError(f"hookwrap serve did not answer on port {port}") from None
            time.sleep(0.2)
    return Running(stop, lambda: _proc_cpu_ms(server.pid))


def _filtered_audit(repo: HookwrapRepo, cli: str) -> None:
    """An audit hook that cares about `git *` only; the benchmark's calls are `echo`."""
    repo.add("before_tool", "audit", "--matcher", "shell", "--commands", "git *")
    if cli == "claude" and not any(e.get("if") for e in _registered(repo, cli)):
        raise RuntimeError("hookwrap add --commands wrote no `if` for Claude Code")


# The baseline comes first.
VARIANTS: list[Variant] = [
    Variant("no hook", _no_hook),
    Variant("guard (command hook)", _guard),
    Variant("guard, resident (hookwrap serve)", _resident_guard, applies=_posts,
            unsupported="not supported: only Claude Code (http entries) and the CLIs of "
                        "hookwrap's plugins and extension post hooks to a server; this CLI runs "
                        "commands only"),
    Variant('audit filtered to commands = ["git *"]', _filtered_audit),
]


def _children_cpu_ms() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (used.ru_utime + used.ru_stime) * 1000


_VERSIONS: dict[str, str] = {}


def _one_run(case: CliCase, variant: Variant, python: str, generator: str, calls: int) -> tuple[float, float] | str:
    """(CPU ms, wall ms) of one CLI run with ``variant`` in a fresh sandbox and project, or why not."""
    root = Path(tempfile.mkdtemp(prefix="hw-bench-"))
    stop: Callable[[], None] | None = None
    running: Running | None = None
    try:
        box = QuietSandbox(root, Path(python), []).create()
        started = case.start(box)
        if isinstance(started, str):
            return started
        agent, stop = started
        _VERSIONS[case.name] = getattr(agent, "version", "")
        project = root / "proj"
        project.mkdir()
        from e2e.codex_harness import init_git_repo

        init_git_repo(project)
        repo = HookwrapRepo(project, box)
        repo.hookwrap("init", *[w for p in case.platforms for w in ("--platform", p)])
        try:
            running = variant.setup(repo, case.name)
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            return f"{variant.label}: {exc}"
        steps = [agent.shell(f"echo call{i}") for i in range(calls)] + [Reply("Finished.")]
        before = _children_cpu_ms() + (running.cpu_ms() if running else 0.0)
        start = time.perf_counter()
        result = agent.run(project, steps, timeout=300)
        wall = (time.perf_counter() - start) * 1000
        cpu = _children_cpu_ms() + (running.cpu_ms() if running else 0.0) - before
        if result.rc != 0:
            return f"{case.name} exited {result.rc}: {result.stderr.strip()[-200:]}"
        done = len(result.requests)
        if done < calls + 1:
            return f"{case.name} made {done} model requests, not {calls + 1}"
        return cpu, wall
    finally:
        if running:
            running.stop()
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
    notes: list[str] = []
    for name in names:
        case = CLIS.get(name)
        if case is None:
            lines.append(f"| {name} | - | - | - | - | unknown CLI (known: {', '.join(CLIS)}) |")
            continue
        variants = [v for v in VARIANTS if v.applies(name)]
        samples: dict[str, list[tuple[float, float]]] = {v.label: [] for v in variants}
        why = ""
        load_before = os.getloadavg()[0]
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
        notes.append(f"{name} {_VERSIONS.get(name, '?')}: load average {load_before:.1f} -> "
                     f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        if why:
            lines.append(f"| {name} | - | - | - | - | unavailable: {why} |")
            continue
        base = samples[variants[0].label]
        for variant in VARIANTS:
            if variant not in variants:
                lines.append(f"| {name} | {variant.label} | - | - | - | {variant.unsupported} |")
                continue
            mine = samples[variant.label]
            cpu, wall = (statistics.median(s[i] for s in mine) for i in (0, 1))
            if variant is variants[0]:
                lines.append(f"| {name} | {variant.label} | {cpu:.0f} | {wall:.0f} | - | - |")
                continue
            per_cpu = statistics.median((m[0] - b[0]) / calls for m, b in zip(mine, base))
            per_wall = statistics.median((m[1] - b[1]) / calls for m, b in zip(mine, base))
            lines.append(f"| {name} | {variant.label} | {cpu:.0f} | {wall:.0f} | {per_cpu:.1f} | {per_wall:.1f} |")
    return "\n".join([*lines, "", *notes])
