"""What a guard adds per tool call inside the real Claude Code: no hook, a command hook, a
resident hook (`hookwrap serve`), and a filtered hook whose `if` does not match.

Usage: python benchmarks/resident.py [--calls N] [--rounds N]

Each run is one headless Claude Code session (offline, loopback mock model, throwaway HOME: the
e2e harness) making N shell calls. The modes run in turns, the order rotating every round; the
table shows medians and, per call, the difference to the run without hooks. CPU counts Claude
and every process it started, plus the resident server's own CPU. Linux only (/proc). See
docs/resident.md for the method and results. ``measure()`` is the function to call from
another benchmark.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from e2e.harness import Claude, Sandbox, find_cli, hook_python  # noqa: E402
from e2e.hwrepo import HookwrapRepo  # noqa: E402
from e2e.mock_anthropic import AnthropicMock  # noqa: E402
from e2e.mockmodel import Reply  # noqa: E402

MODES = ("none", "command", "resident", "filtered")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of one process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _project(base: Path, sandbox: Sandbox, mode: str, port: int) -> HookwrapRepo:
    root = base / mode
    root.mkdir()
    repo = HookwrapRepo(root, sandbox).init()
    (root / "hookwrap.toml").write_text((root / "hookwrap.toml").read_text() + f"\n[serve]\nport = {port}\n")
    if mode == "command":
        repo.add("before_tool", "guard", "--platform", "claude")
    elif mode == "resident":
        repo.add("before_tool", "guard", "--platform", "claude", "--resident")
    elif mode == "filtered":  # an audit hook that cares about git only; the calls run `true`
        repo.add("before_tool", "audit", "--platform", "claude", "--matcher", "shell",
                 "--commands", "git *")
    return repo


def measure(calls: int = 20, rounds: int = 3) -> dict[str, dict[str, float]]:
    """Median wall and CPU seconds of one Claude run per mode, and per call over "none"."""
    binary, info = find_cli("claude")
    if binary is None:
        raise SystemExit(f"claude is not installed: {info}")
    base = Path(tempfile.mkdtemp(prefix="hw-bench-res-"))
    sandbox = Sandbox(base / "box", hook_python(), []).create()
    port = _free_port()
    repos = {mode: _project(base, sandbox, mode, port) for mode in MODES}
    server = subprocess.Popen(
        [str(sandbox.python), "-m", "hookwrap.server", "--root", str(repos["resident"].root),
         "--port", str(port)], env={"PATH": os.environ["PATH"], "HOME": str(sandbox.home),
                                    "PYTHONPATH": str(repos["resident"].root / ".hookwrap" / "lib")},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    mock = AnthropicMock().start()
    agent = Claude(binary, mock, sandbox, info)
    wall: dict[str, list[float]] = {mode: [] for mode in MODES}
    cpu: dict[str, list[float]] = {mode: [] for mode in MODES}
    try:
        time.sleep(1.0)
        for round_ in range(rounds):
            order = MODES[round_ % len(MODES):] + MODES[:round_ % len(MODES)]
            for mode in order:
                steps = [agent.shell("true") for _ in range(calls)] + [Reply("Done.")]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                server_before = _cpu_of(server.pid)
                result = agent.run(repos[mode].root, steps)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if result.rc != 0 or len(result.tool_results()) != calls:
                    raise SystemExit(f"{mode}: the run failed\n{result.describe()}")
                used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                if mode == "resident":
                    used += _cpu_of(server.pid) - server_before
                wall[mode].append(result.duration)
                cpu[mode].append(used)
    finally:
        mock.stop()
        server.terminate()
        server.wait()
        shutil.rmtree(base, ignore_errors=True)
    table: dict[str, dict[str, float]] = {}
    for mode in MODES:
        w, c = statistics.median(wall[mode]), statistics.median(cpu[mode])
        table[mode] = {"wall_s": w, "cpu_s": c,
                       "wall_ms_per_call": (w - statistics.median(wall["none"])) * 1000 / calls,
                       "cpu_ms_per_call": (c - statistics.median(cpu["none"])) * 1000 / calls}
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    table = measure(args.calls, args.rounds)
    print(f"Claude Code, {args.calls} shell calls per run, median of {args.rounds} runs, "
          f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'mode':<10} {'run wall':>9} {'run CPU':>8} {'+wall/call':>11} {'+CPU/call':>10}")
    for mode, row in table.items():
        print(f"{mode:<10} {row['wall_s']:8.2f}s {row['cpu_s']:7.2f}s "
              f"{row['wall_ms_per_call']:9.1f}ms {row['cpu_ms_per_call']:8.1f}ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
