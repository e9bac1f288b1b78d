"""`run.py --serve`: one call to the resident server (`hookwrap serve`) as Claude Code makes it,
over a kept-alive connection and over a new connection each, and the bursts of concurrent
calls it holds.

A fresh project gets the guard as a resident hook (`hookwrap add before_tool guard
--resident`, rendered by this script's hookwrap); its server runs as docs/resident.md gives
its line (`PYTHONPATH=.hookwrap/lib python3 -m hookwrap.server`) on the clean interpreter the
hook rows use. Every call is a POST of a shell call the guard allows, with the headers Claude
Code sends, to 127.0.0.1 only.

- The first call: the server imports the runtime's call path and the guard then (once).
- Kept alive against a new connection: each round makes ``calls`` calls on one connection and
  ``calls`` calls on a new connection each, in an order that alternates; the figures are the
  medians of every call, and the ratio is the median over rounds of (kept-alive median / new
  connection median) of the same round. Claude Code keeps its connection open, so the
  kept-alive figure is what a call costs it (target: 5 ms).
- Bursts: N calls at once from N/3 threads, each holding 3 connections open (48 is the
  hardening issue's case): how many got 200, the documented 503 (a call that waited its
  timeout less 2 s), or an error (a reset: never expected), and how long the burst took.

Standard library only; not a test (a slow machine fails nothing).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

KEEP_ALIVE_TARGET_MS = 5.0
BURSTS = (48, 192, 480)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Project:
    """A project whose guard is resident, and its server (the vendored runtime)."""

    def __init__(self, work: Path, python: str, hookwrap: list[str], env: dict[str, str]) -> None:
        self.root = work / "proj"
        self.root.mkdir()
        self.port = _free_port()
        subprocess.run(["git", "init", "-q", str(self.root)], check=True)
        subprocess.run([*hookwrap, "init", "--platform", "claude"], cwd=self.root, env=env,
                       check=True, capture_output=True)
        manifest = self.root / "hookwrap.toml"
        manifest.write_text(manifest.read_text() + f"\n[serve]\nport = {self.port}\n")
        subprocess.run([*hookwrap, "add", "before_tool", "guard", "--resident"], cwd=self.root,
                       env=env, check=True, capture_output=True)
        server_env = {k: v for k, v in env.items() if not k.startswith("PYTHON")}
        server_env["PYTHONPATH"] = str(self.root / ".hookwrap" / "lib")
        self.server = subprocess.Popen(
            [python, "-m", "hookwrap.server", "--root", str(self.root), "--port", str(self.port)],
            env=server_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                if self.server.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not start on port {self.port}") from None
                time.sleep(0.1)
        self.body = json.dumps({"session_id": "bench", "cwd": str(self.root),
                                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                                "tool_input": {"command": "ls -la"}}).encode()

    def post(self, connection: http.client.HTTPConnection) -> int:
        connection.request("POST", "/hookwrap/claude/guard", body=self.body,
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def stop(self) -> None:
        if self.server.poll() is None:
            self.server.terminate()
            self.server.wait(timeout=10)


def _kept_alive(project: _Project, calls: int) -> list[float]:
    times = []
    connection = project.connection()
    try:
        for _ in range(calls):
            start = time.perf_counter()
            if project.post(connection) != 200:
                raise RuntimeError("a kept-alive call was not answered with 200")
            times.append((time.perf_counter() - start) * 1000)
    finally:
        connection.close()
    return times


def _new_connections(project: _Project, calls: int) -> list[float]:
    times = []
    for _ in range(calls):
        connection = project.connection()
        try:
            start = time.perf_counter()
            if project.post(connection) != 200:
                raise RuntimeError("a call was not answered with 200")
            times.append((time.perf_counter() - start) * 1000)
        finally:
            connection.close()
    return times


def _burst(project: _Project, total: int) -> tuple[Counter[int | str], float]:
    """``total`` calls at once from total/3 threads holding 3 connections each."""
    results: Counter[int | str] = Counter()
    lock = threading.Lock()
    threads_n = max(1, total // 3)
    barrier = threading.Barrier(threads_n + 1)

    def worker() -> None:
        connections = [project.connection() for _ in range(3)]
        barrier.wait()
        got: list[int | str] = []
        sent = []
        for connection in connections:
            try:
                connection.request("POST", "/hookwrap/claude/guard", body=project.body,
                                   headers={"Content-Type": "application/json"})
                sent.append(connection)
            except OSError as error:
                got.append(type(error).__name__)
        for connection in sent:
            try:
                response = connection.getresponse()
                response.read()
                got.append(response.status)
            except OSError as error:
                got.append(type(error).__name__)
        for connection in connections:
            connection.close()
        with lock:
            results.update(got)

    threads = [threading.Thread(target=worker) for _ in range(threads_n)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join(timeout=120)
    return results, (time.perf_counter() - start) * 1000


def measure(python: str, hookwrap: list[str], env: dict[str, str], *, calls: int = 30,
            rounds: int = 5, bursts: tuple[int, ...] = BURSTS) -> dict[str, object]:
    """The figures as data: per-call medians (ms), the paired ratio, and each burst."""
    with tempfile.TemporaryDirectory(prefix="hookwrap-serve-bench-") as tmp:
        project = _Project(Path(tmp), python, hookwrap, {**env, "HOME": tmp})
        try:
            first = _new_connections(project, 1)[0]  # the server imports the guard now
            _kept_alive(project, 5)
            kept: list[float] = []
            new: list[float] = []
            ratios = []
            for round_no in range(rounds):
                if round_no % 2:
                    one_new, one_kept = _new_connections(project, calls), _kept_alive(project, calls)
                else:
                    one_kept, one_new = _kept_alive(project, calls), _new_connections(project, calls)
                kept += one_kept
                new += one_new
                ratios.append(statistics.median(one_kept) / statistics.median(one_new))
            loads = [(total, *_burst(project, total)) for total in bursts]
        finally:
            project.stop()
    return {"kept": kept, "new": new, "ratio": statistics.median(ratios), "first": first,
            "bursts": loads}


def _p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9) - 1]


def serve_table(python: str, hookwrap: list[str], env: dict[str, str], *, calls: int = 30,
                rounds: int = 5) -> str:
    """The two tables `run.py --serve` prints."""
    data = measure(python, hookwrap, env, calls=calls, rounds=rounds)
    kept, new = data["kept"], data["new"]
    assert isinstance(kept, list) and isinstance(new, list)
    kept_median = statistics.median(kept)
    verdict = "met" if kept_median <= KEEP_ALIVE_TARGET_MS else "MISSED"
    lines = [f"resident guard on {python}, {rounds} rounds of {calls} calls per connection kind; "
             f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs",
             "",
             "| connection | median ms | p90 ms | kept alive / new connection, paired by round |",
             "|---|---:|---:|---:|",
             f"| kept alive (as Claude Code) | {kept_median:.2f} | {_p90(kept):.2f} | "
             f"x{data['ratio']:.2f} |",
             f"| new connection per call | {statistics.median(new):.2f} | {_p90(new):.2f} | |",
             f"| the server's first call (imports the runtime and the guard) | {data['first']:.1f} "
             "| | |",
             "",
             f"kept-alive target: {KEEP_ALIVE_TARGET_MS:g} ms median: {verdict}",
             "",
             "| calls at once | threads | 200 | 503 | errors | burst took ms | calls/s |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    bursts = data["bursts"]
    assert isinstance(bursts, list)
    for total, results, took in bursts:
        errors = sum(n for key, n in results.items() if not isinstance(key, int) or key not in (200, 503))
        lines.append(f"| {total} | {max(1, total // 3)} | {results.get(200, 0)} | "
                     f"{results.get(503, 0)} | {errors} | {took:.0f} | {total / took * 1000:.0f} |")
    return "\n".join(lines)
