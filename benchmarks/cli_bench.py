"""`run.py --cli`: what a hook costs per tool call inside each real CLI, timed call by call.

Each CLI runs headless against its loopback mock model (the e2e harnesses in tests/e2e), in a
sandboxed HOME, from a fresh git project; the model makes N harmless shell calls (`echo i`) in
one session, then answers. A call is timed inside the session: from the mock's answer that asks
for it to the CLI's next request (the tool's run, its hooks, the CLI's own work), so the CLI's
start-up and the model are outside every figure; the first call of a session is a warm-up (its
hook writes .pyc files, the server imports the hook) and is left out. At each of those requests
the mock also reads, from /proc, the CPU of the CLI's process tree (every live descendant of
this process and the children each has reaped) and of the resident server, apart. Each round
runs every variant once, in an order that rotates; a variant's added cost is, per round, its
median call minus the no-hook session's of the same round, and every figure is printed with its
spread (interquartile range of the calls, or min to max over rounds).

Where hookwrap's shim runs inside the CLI's process (the OpenCode and Kilo CLI plugin on Bun,
the pi extension on node), a session's calls vary by far more than a resident call costs: there
the CLI loads the shim through handler_wrap.mjs, which logs what the CLI awaits of each of the
shim's handlers (``Handlers``), with a floor variant (a handler that only waits for one
loopback round trip) and, on request, a check (the PreToolUse handler made to sleep). Each
round also times the shim's resident call alone: the rendered file loaded on the CLI's own
runtime, its PreToolUse handler called in turn against the guard's server (shim_bench.mjs).

Two lists drive it, one entry each:

- ``CLIS``: the CLIs (a name, how to start its mock and agent, the `--platform` it needs). A new
  CLI is one entry, once its harness exists in tests/e2e.
- ``VARIANTS``: what the project has. "no hook" is the baseline; "guard" is
  `hookwrap add before_tool guard`; "resident guard" is the same guard served by `hookwrap
  serve` (Claude Code's `type: "http"` entries; hookwrap's OpenCode and Kilo CLI plugin and its
  pi extension post too; its setup starts the server). The first three run by default; with
  ``all_variants`` also an audit hook with `commands = ["git *"]`, which no call matches, and the
  resident guard on write_file only (the shim loaded, nothing posted). A variant that does not
  exist on a CLI is reported as "not supported", with why.

Every hook is run by the command the CLI's settings file holds, as written by `hookwrap add`:
nothing here builds a command line.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
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
    "cline": CliCase("cline", _start("cline"), ("cline",)),
}


@dataclass(frozen=True)
class Running:
    """What a variant's setup started: how to stop it, and its CPU ms so far (counted in the run)."""

    stop: Callable[[], None]
    cpu_ms: Callable[[], float]
    pids: frozenset[int] = frozenset()  # its processes: not the CLI's


@dataclass(frozen=True)
class Variant:
    """What the project holds for one run: ``setup`` prepares it (after `hookwrap init`) and
    returns what it started (or None); ``applies`` says which CLIs it exists for, and
    ``unsupported`` why not on the others."""

    label: str
    setup: Callable[[HookwrapRepo, str], Running | None]
    applies: Callable[[str], bool] = lambda cli: True
    unsupported: str = ""
    probe: str = ""  # in-process shims: their PreToolUse handler made a check (handler_wrap.mjs)


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

    return all(setup_of(p).registration.http_handler(setup_of(p), "http://127.0.0.1:1/x", timeout_s=1, fail_closed=True,
                                        event=NormalizedEvent.BEFORE_TOOL) is not None
               for p in CLIS[cli].platforms)


def _resident_guard(repo: HookwrapRepo, cli: str, *options: str) -> Running:
    """The guard served by the project's server: `[serve] port`, `add --resident`, the server
    started as docs/resident.md gives its line (the repo's own runtime)."""
    port = _free_port()
    manifest = repo.root / "hookwrap.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + f"\n[serve]\nport = {port}\n",
                        encoding="utf-8")
    repo.add("before_tool", "guard", "--resident", *options)
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
    return Running(stop, lambda: _proc_cpu_ms(server.pid), frozenset({server.pid}))


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
    # What the CLI pays for hookwrap's plugin or extension being there, without a post: the
    # resident guard on write_file, which the benchmark's shell calls never match.
    Variant("guard, resident, matching write_file only (no post)",
            lambda repo, cli: _resident_guard(repo, cli, "--matcher", "write_file"),
            applies=_posts, unsupported="not supported: no resident hook on this CLI"),
]

# Where hookwrap's shim runs in the CLI's process (handler_wrap.mjs does it), two checks: with
# `--cli-check-await`, the resident guard with its PreToolUse handler made to sleep first, inside
# the part the wrapper times (where the CLI awaits the handler, each call takes that much longer,
# so the handlers' figure is what the CLI waits for); and by default a floor, the PreToolUse
# handler replaced by one that only waits for one loopback round trip (the server's health
# check): what any handler that waits for an answer costs inside the CLI, whatever it posts.
CHECK_SLEEP_MS = 500  # OpenCode's and Kilo CLI's calls vary by hundreds of ms
_IN_PROCESS_ONLY = "not supported: hookwrap's shim does not run in this CLI's process"
AWAIT_CHECK = Variant(f"guard, resident, its handler made to sleep {CHECK_SLEEP_MS} ms (check)",
                      _resident_guard, applies=lambda cli: cli in SHIM_KINDS,
                      unsupported=_IN_PROCESS_ONLY, probe="sleep")
FLOOR = Variant("a handler that only waits for one loopback round trip (floor)", _resident_guard,
                applies=lambda cli: cli in SHIM_KINDS, unsupported=_IN_PROCESS_ONLY, probe="floor")

# What `--cli` runs unless told otherwise: the baseline and the guard both ways.
DEFAULT_VARIANTS = 3
# The CLIs whose hookwrap shim runs inside the CLI's own process and posts from there (the
# OpenCode and Kilo CLI plugin, the pi extension): their resident target is absolute.
IN_PROCESS = ("opencode", "pi", "kilo")
IN_PROCESS_TARGET_MS = 3.0
RESIDENT_SHARE_TARGET = 1 / 3


def _tree_cpu_ms(root: int, skip: frozenset[int] = frozenset()) -> float:
    """User + system CPU ms of ``root``'s descendants (not ``root`` itself), past and present:
    each live one's own time and that of the children it has reaped (Linux /proc); the
    subtrees of ``skip`` are left out."""
    total = 0.0
    todo = _children(root)
    while todo:
        pid = todo.pop()
        if pid in skip:
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone since: its parent counts it once it reaps it
            continue
        total += sum(int(f) for f in fields[11:15])
        todo.extend(_children(pid))
    return total * 1000 / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


@dataclass(frozen=True)
class Mark:
    """The first request of one model turn: when it arrived, when the mock had its answer ready
    (after reading the CPU figures), and the CPU ms of the CLI's process tree and the server."""

    arrived: float
    ready: float
    cli_cpu: float
    server_cpu: float


# The CLIs whose hookwrap shim runs inside the CLI's own process, and what the shim is there:
# its resident call is also timed alone, on the CLI's own runtime (shim_bench.mjs).
SHIM_KINDS = {"opencode": "plugin", "kilo": "plugin", "pi": "extension"}


@dataclass(frozen=True)
class Handlers:
    """What the CLI awaited of hookwrap's shim in one session (the shim in its own process,
    timed by handler_wrap.mjs): per call 1..N-1, the wall ms of that call's tool handlers plus
    an even share of the others' (events, the system prompt, the prompt: their session total
    over the N calls), and the CPU ms the same way (the process's, and its reaped children's)."""

    ms: list[float]
    cpu: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.ms)

    @property
    def cpu_mean(self) -> float:
        return statistics.fmean(self.cpu)


_CALL = re.compile(r"^echo call([0-9]+)$")


def handlers_of(records: list[dict[str, Any]], calls: int, tools: tuple[str, str],
                not_awaited: tuple[str, ...] = ()) -> Handlers | str:
    """Calls 1..calls-1 from handler_wrap.mjs's records (call 0 is the warm-up): a tool call's
    handlers are known by its id, which its PreToolUse record ties to `echo callN`; of a
    handler in ``not_awaited`` only the synchronous part counts (wall and CPU alike)."""
    index = {r["id"]: int(m.group(1)) for r in records if r["handler"] == tools[0]
             and r.get("id") and (m := _CALL.match(str(r.get("command") or "")))}
    ms = dict.fromkeys(range(1, calls), 0.0)
    cpu = dict(ms)
    other_ms = other_cpu = 0.0
    for r in records:
        if r["handler"] in not_awaited:
            other_ms += r["sync_ms"]
            other_cpu += r["sync_ms"]
            continue
        used = r["cpu_ms"] + r["child_cpu_ms"]
        if r["handler"] in tools and r.get("id") in index:
            if index[r["id"]] in ms:
                ms[index[r["id"]]] += r["ms"]
                cpu[index[r["id"]]] += used
        else:
            other_ms += r["ms"]
            other_cpu += used
    seen = set(index.values())
    if missing := [i for i in ms if i not in seen]:
        return f"no {tools[0]} record for call {missing[0]}"
    return Handlers([v + other_ms / calls for v in ms.values()],
                    [v + other_cpu / calls for v in cpu.values()])


HANDLER_WRAP = REPO / "benchmarks" / "handler_wrap.mjs"
WRAPPED_TOOLS = {"plugin": ("tool.execute.before", "tool.execute.after"),
                 "extension": ("tool_call", "tool_result")}
# The handlers a CLI calls without awaiting them: only their synchronous part holds it up
# (OpenCode 1.18.33 and Kilo CLI 7.7.9 call a plugin's `event` for each bus event, unawaited).
NOT_AWAITED = {"plugin": ("event",), "extension": ()}
# The wrapper's file, next to where the shim was, and the folder the shim moves to (a sibling of
# the CLI's folder of plugins: the same depth, so the shim finds its project as before).
WRAPPER_NAME = "hookwrap-bench.js"
REAL_FOLDER = "hookwrap-bench-real"


def wrap_shim(project: Path, cli: str, log: Path, probe: str = "") -> bool:
    """Have CLI ``cli`` load hookwrap's rendered shim through handler_wrap.mjs, which logs
    each handler call to ``log`` (``probe``: its PreToolUse handler made a check, as the
    wrapper says); False where the project has no shim (no hook)."""
    import json

    from hookwrap.generator.clis import setup_of

    shim = project / setup_of(cli).facts.settings_file
    if not shim.exists():
        return False
    real = shim.parent.parent / REAL_FOLDER / shim.name
    real.parent.mkdir()
    shim.rename(real)
    kind = SHIM_KINDS[cli]
    port = re.search(r"^port = ([0-9]+)$", (project / "hookwrap.toml").read_text(encoding="utf-8"), re.M)
    fields = {"@REAL@": f"../{REAL_FOLDER}/{shim.name}", "@KIND@": kind, "@LOG@": str(log),
              "@PROBE@": probe, "@SLEEP_MS@": str(CHECK_SLEEP_MS),
              "@FLOOR_URL@": f"http://127.0.0.1:{port.group(1) if port else 9}/hookwrap/health",
              "@TICK_MS@": str(1000 / os.sysconf("SC_CLK_TCK"))}
    text = HANDLER_WRAP.read_text(encoding="utf-8")
    for field_name, value in fields.items():
        text = text.replace(f'"{field_name}"', json.dumps(value))
    text += ("export const HookwrapBenchWrapper = pluginWrapper;\n" if kind == "plugin"
             else "export default extensionWrapper;\n")
    (shim.parent / WRAPPER_NAME).write_text(text, encoding="utf-8")
    return True


def _read_handlers(log: Path, cli: str, calls: int) -> Handlers | str:
    import json

    if not log.exists():
        return "the wrapper logged nothing"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
    kind = SHIM_KINDS[cli]
    return handlers_of(records, calls, WRAPPED_TOOLS[kind], NOT_AWAITED[kind])


@dataclass(frozen=True)
class Session:
    """One CLI session of N tool calls: the gap before each call's next request (ms), and the CPU
    ms per call of the CLI's process tree and of the server, over the same calls."""

    gaps: list[float]
    cli_cpu: float
    server_cpu: float
    handlers: Handlers | None = None  # where the shim runs in the CLI's process and was loaded

    @property
    def median(self) -> float:
        return statistics.median(self.gaps)

    @property
    def cpu(self) -> float:
        return self.cli_cpu + self.server_cpu


def session_of(marks: dict[int, Mark], calls: int) -> Session | str:
    """The calls 1..calls-1 of a session (the first is a warm-up: its hook's first run writes
    .pyc files, the server imports the hook): turn k's request comes after call k-1, so call k
    takes from turn k's answer to turn k+1's request. A string says which turn is missing."""
    missing = [turn for turn in range(1, calls + 1) if turn not in marks]
    if missing or calls < 2:
        return f"no model request for turn {missing[0] if missing else 1}"
    first, last = marks[1], marks[calls]
    gaps = [(marks[turn + 1].arrived - marks[turn].ready) * 1000 for turn in range(1, calls)]
    return Session(gaps, (last.cli_cpu - first.cli_cpu) / (calls - 1),
                   (last.server_cpu - first.server_cpu) / (calls - 1))


def _clock(server: Any, marks: dict[int, Mark], skip: Callable[[], frozenset[int]],
           server_cpu: Callable[[], float]) -> None:
    """Make the mock model ``server`` note a Mark for the first request of each turn."""
    dispatch = server.dispatch

    def timed(method: str, path: str, body: Any, rec: Any) -> Any:
        answer = dispatch(method, path, body, rec)
        if rec.turn is not None and rec.step is not None and rec.turn not in marks:
            cli, srv = _tree_cpu_ms(os.getpid(), skip()), server_cpu()
            marks[rec.turn] = Mark(rec.received_at, time.monotonic(), cli, srv)
        return answer

    server.dispatch = timed


_VERSIONS: dict[str, str] = {}


def _one_session(case: CliCase, variant: Variant, python: str, calls: int) -> Session | str:
    """One CLI session of ``calls`` shell calls with ``variant`` in a fresh sandbox and project."""
    root = Path(tempfile.mkdtemp(prefix="hw-bench-"))
    stop: Callable[[], None] | None = None
    running: Running | None = None
    try:
        box = QuietSandbox(root, Path(python), []).create()
        started = case.start(box)
        if isinstance(started, str):
            return started
        agent, stop = started
        found = re.search(r"[0-9]+\.[0-9]+\.[0-9]+", getattr(agent, "version", "") or "")
        _VERSIONS[case.name] = found.group(0) if found else ""
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
        log = root / "handlers.jsonl"
        wrapped = case.name in SHIM_KINDS and wrap_shim(project, case.name, log, variant.probe)
        marks: dict[int, Mark] = {}
        server = running
        _clock(agent.server, marks, lambda: server.pids if server else frozenset(),
               lambda: server.cpu_ms() if server else 0.0)
        agent.server.max_requests = calls + 20  # the CLI's own side requests (titles) too
        steps = [agent.shell(f"echo call{i}") for i in range(calls)] + [Reply("Finished.")]
        result = agent.run(project, steps, timeout=900)
        if result.rc != 0:
            return f"{case.name} exited {result.rc}: {result.stderr.strip()[-200:]}"
        session = session_of(marks, calls)
        if not wrapped or isinstance(session, str):
            return session
        handlers = _read_handlers(log, case.name, calls)
        if isinstance(handlers, str):
            return f"{variant.label}: {handlers}"
        return dataclasses.replace(session, handlers=handlers)
    finally:
        if running:
            running.stop()
        if stop:
            stop()
        shutil.rmtree(root, ignore_errors=True)


SHIM_CALLS = 200
SHIM_WARM_UP = 300


@dataclass(frozen=True)
class ShimCalls:
    """The shim's PreToolUse handler called alone: each call's wall ms, and the CPU ms per call
    of the runtime running it and of the server."""

    ms: list[float]
    cpu: float
    server_cpu: float


def _runtime(name: str) -> tuple[list[str], dict[str, str]] | str:
    """The command that runs a script on CLI ``name``'s runtime: OpenCode's and Kilo CLI's
    binaries are Bun (BUN_BE_BUN=1 makes them run a script), pi runs on node."""
    path, info = harness.find_binary(name)
    if path is None:
        return info
    if name == "pi":
        node = shutil.which("node")
        return ([node], {}) if node else "pi runs on node, and no node is on PATH"
    return [str(path)], {"BUN_BE_BUN": "1"}


def shim_calls(name: str, python: str, calls: int = SHIM_CALLS) -> ShimCalls | str:
    """``calls`` PreToolUse calls through CLI ``name``'s rendered shim, loaded on the CLI's
    runtime as the CLI loads it, posting the resident guard to its server; or why not."""
    import json

    runtime = _runtime(name)
    if isinstance(runtime, str):
        return runtime
    root = Path(tempfile.mkdtemp(prefix="hw-bench-shim-"))
    running: Running | None = None
    try:
        box = QuietSandbox(root, Path(python), []).create()
        project = root / "proj"
        project.mkdir()
        repo = HookwrapRepo(project, box)
        repo.hookwrap("init", *[w for p in CLIS[name].platforms for w in ("--platform", p)])
        running = _resident_guard(repo, name)
        from hookwrap.generator.clis import setup_of

        shim = project / setup_of(name).facts.settings_file
        argv, extra = runtime
        done = subprocess.run([*argv, str(REPO / "benchmarks" / "shim_bench.mjs"), SHIM_KINDS[name],
                               str(shim), str(project), str(calls), str(SHIM_WARM_UP),
                               str(min(running.pids)), str(1000 / os.sysconf("SC_CLK_TCK"))],
                              cwd=project, env={**box.env(), **extra}, capture_output=True, text=True,
                              timeout=600, check=False)
        if done.returncode != 0:
            return f"the shim's calls failed: {done.stderr.strip()[-300:]}"
        got = json.loads(done.stdout.strip().splitlines()[-1])
        return ShimCalls(got["ms"], got["cpu_ms"] / calls, got["server_cpu_ms"] / calls)
    finally:
        if running:
            running.stop()
        shutil.rmtree(root, ignore_errors=True)


def _spread(values: list[float], digits: int = 1) -> str:
    """The median, and min-max in brackets."""
    if not values:
        return "-"
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f} to {max(values):.{digits}f})")


def _iqr(values: list[float]) -> str:
    """The median, and the interquartile range in brackets."""
    q1, q2, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return f"{q2:.1f} ({q1:.1f} to {q3:.1f})"


def _fixed_work_ms() -> float:
    """The CPU of the same pure-Python loop, in ms: shows the machine's speed when a round began."""
    start = time.process_time()
    total = 0
    for i in range(3_000_000):
        total += i * i
    return (time.process_time() - start) * 1000


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


@dataclass
class CliResult:
    """One CLI's sessions, by variant label, one per round (in round order); or why none."""

    name: str
    variants: list[Variant]
    sessions: dict[str, list[Session]]
    why: str = ""
    seconds: float = 0.0
    shim: list[ShimCalls] = field(default_factory=list)  # one a round, where SHIM_KINDS has it
    shim_why: str = ""

    def added(self, label: str, cpu: bool = False) -> list[float]:
        """Per round: the variant's per-call median (or CPU) minus the baseline's, same round."""
        base = self.sessions[self.variants[0].label]
        return [(s.cpu - b.cpu) if cpu else (s.median - b.median)
                for s, b in zip(self.sessions[label], base)]


def measure_round(case: CliCase, result: CliResult, round_no: int, python: str, calls: int) -> None:
    """One round: every variant in ``result`` once, in an order that rotates with the round."""
    start = time.monotonic()
    mine = result.variants
    shift = round_no % len(mine)
    for variant in mine[shift:] + mine[:shift]:
        got = _one_session(case, variant, python, calls)
        if isinstance(got, str):
            result.why = got
            break
        result.sessions[variant.label].append(got)
    else:
        if case.name in SHIM_KINDS and any("resident" in v.label for v in mine):
            shim = shim_calls(case.name, python)
            if isinstance(shim, str):
                result.shim_why = shim
            else:
                result.shim.append(shim)
    result.seconds += time.monotonic() - start


def _rows(result: CliResult, variants: list[Variant]) -> list[str]:
    name = f"{result.name} {_VERSIONS.get(result.name, '')}".strip()
    if result.why:
        return [f"| {name} | - | - | - | - | - | unavailable: {result.why} |"]
    rows = []
    for variant in variants:
        if variant not in result.variants:
            rows.append(f"| {name} | {variant.label} | - | - | - | - | {variant.unsupported} |")
            continue
        sessions = result.sessions[variant.label]
        gaps = [g for s in sessions for g in s.gaps]
        cpu = _spread([s.cpu for s in sessions])
        server = [s.server_cpu for s in sessions]
        note = f"server's CPU {_spread(server)}" if any(server) else ""
        if variant is result.variants[0]:
            rows.append(f"| {name} | {variant.label} | {_iqr(gaps)} | - | {cpu} | - | {note} |")
            continue
        rows.append(f"| {name} | {variant.label} | {_iqr(gaps)} | {_spread(result.added(variant.label))} "
                    f"| {cpu} | {_spread(result.added(variant.label, cpu=True))} | {note} |")
    return rows


def _handlers(result: CliResult, label: str) -> list[Handlers]:
    return [s.handlers for s in result.sessions.get(label, []) if s.handlers]


def _handler_ms(result: CliResult, label: str, cpu: bool = False) -> float:
    """The median over rounds of what the CLI awaited of hookwrap's handlers per call (or their
    CPU per call)."""
    return statistics.median([h.cpu_mean if cpu else h.median for h in _handlers(result, label)])


def targets(result: CliResult) -> str:
    """The resident guard against its targets: at most a third of the command guard's added
    time; and where the shim runs inside the CLI's process, at most 3 ms, both judged there by
    what the CLI awaited of hookwrap's handlers (a session's calls vary by far more)."""
    labels = [v.label for v in result.variants]
    if result.why or len(labels) < 3 or "resident" not in labels[2]:
        return ""
    command = statistics.median(result.added(labels[1]))
    resident = statistics.median(result.added(labels[2]))
    share = resident / command if command > 0 else float("inf")
    cpu_command = statistics.median(result.added(labels[1], cpu=True))
    cpu_share = statistics.median(result.added(labels[2], cpu=True)) / cpu_command if cpu_command > 0 else 0
    met = [f"in the sessions: resident / command {share:.2f} "
           f"({_verdict(share <= RESIDENT_SHARE_TARGET)}: at most {RESIDENT_SHARE_TARGET:.2f}; "
           f"in CPU {cpu_share:.2f})"]
    if result.name in IN_PROCESS and _handlers(result, labels[1]) and _handlers(result, labels[2]):
        awaited = {label: _handler_ms(result, label) for label in labels[1:3]}
        cpu = {label: _handler_ms(result, label, cpu=True) for label in labels[1:3]}
        ratio = awaited[labels[2]] / awaited[labels[1]]
        met.append(f"the CLI awaits hookwrap's handlers {awaited[labels[2]]:.2f} ms a call resident, "
                   f"{awaited[labels[1]]:.2f} ms as a command: {ratio:.2f} "
                   f"({_verdict(ratio <= RESIDENT_SHARE_TARGET)}: at most {RESIDENT_SHARE_TARGET:.2f}); "
                   f"{_verdict(awaited[labels[2]] <= IN_PROCESS_TARGET_MS)}: at most "
                   f"{IN_PROCESS_TARGET_MS:g} ms; CPU {cpu[labels[2]]:.2f} against {cpu[labels[1]]:.2f} ms")
    elif result.name in IN_PROCESS:
        met.append("hookwrap's handlers: not measured")
    if result.name in IN_PROCESS and result.shim:
        alone = statistics.median([statistics.median(s.ms) for s in result.shim])
        met.append(f"the shim's resident call alone, outside the CLI: {alone:.2f} ms")
    if _handlers(result, AWAIT_CHECK.label) and _handlers(result, labels[2]):
        slept = _handler_ms(result, AWAIT_CHECK.label) - _handler_ms(result, labels[2])
        grew = statistics.median([c.median - r.median for c, r in
                                  zip(result.sessions[AWAIT_CHECK.label], result.sessions[labels[2]])])
        met.append(f"check: with the PreToolUse handler made to sleep {CHECK_SLEEP_MS} ms the handlers "
                   f"took {slept:.1f} ms a call longer and the CLI's calls {grew:.1f} ms longer "
                   "(median over rounds, against the resident guard of the same round)")
    if _handlers(result, FLOOR.label) and _handlers(result, labels[2]):
        floor, resident_ms = _handler_ms(result, FLOOR.label), _handler_ms(result, labels[2])
        met.append(f"floor: a handler that only waits for one loopback round trip is awaited "
                   f"{floor:.2f} ms a call (CPU {_handler_ms(result, FLOOR.label, cpu=True):.2f} ms); "
                   f"the resident guard's {resident_ms - floor:.2f} ms more")
    return f"{result.name}: " + "; ".join(met)


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def handler_table(results: list[CliResult]) -> str:
    """What each CLI that runs hookwrap's shim in its own process awaited of its handlers."""
    lines = ["| CLI | variant | the CLI awaits hookwrap's handlers, ms a call | per round, ms "
             "| their CPU a call, ms | the session's call added, ms |", "|---|---|---:|---:|---:|---:|"]
    for r in results:
        if r.name not in SHIM_KINDS or r.why:
            continue
        name = f"{r.name} {_VERSIONS.get(r.name, '')}".strip()
        for variant in r.variants[1:]:
            found = _handlers(r, variant.label)
            if not found:
                lines.append(f"| {name} | {variant.label} | not measured | | | |")
                continue
            lines.append(f"| {name} | {variant.label} | {_iqr([ms for h in found for ms in h.ms])} "
                         f"| {_spread([h.median for h in found], 2)} "
                         f"| {_spread([h.cpu_mean for h in found], 2)} | {_spread(r.added(variant.label))} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def shim_table(results: list[CliResult]) -> str:
    """The shim's resident call alone, per CLI that has one in its own process."""
    lines = ["| CLI | the shim's PreToolUse call, ms | per round, ms | shim CPU, ms | server CPU, ms |",
             "|---|---:|---:|---:|---:|"]
    for r in results:
        if r.name not in SHIM_KINDS or r.why:
            continue
        if not r.shim:
            lines.append(f"| {r.name} | unavailable: {r.shim_why or 'not measured'} | | | |")
            continue
        every = [ms for s in r.shim for ms in s.ms]
        lines.append(f"| {r.name} {_VERSIONS.get(r.name, '')} ({SHIM_KINDS[r.name]}) | {_iqr(every)} "
                     f"| {_spread([statistics.median(s.ms) for s in r.shim], 2)} "
                     f"| {_spread([s.cpu for s in r.shim], 2)} | {_spread([s.server_cpu for s in r.shim], 2)} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def docs_table(results: list[CliResult]) -> str:
    """One row per CLI, for docs/performance.md: the figures the targets are about, each with
    its spread."""
    lines = ["| CLI | no hook: a call takes, ms | the guard as a command adds, ms; CPU "
             "| the guard resident adds, ms; CPU | resident / command |",
             "|---|---:|---:|---:|---:|"]
    for r in results:
        if r.why:
            lines.append(f"| {r.name} | unavailable: {r.why} | | | |")
            continue
        labels = [v.label for v in r.variants]
        base = _iqr([g for s in r.sessions[labels[0]] for g in s.gaps])
        command = f"{_spread(r.added(labels[1]))}; CPU {_spread(r.added(labels[1], cpu=True))}"
        resident = share = "not supported"
        if len(labels) > 2 and "resident" in labels[2]:
            resident = f"{_spread(r.added(labels[2]))}; CPU {_spread(r.added(labels[2], cpu=True))}"
            added = statistics.median(r.added(labels[1]))
            share = f"{statistics.median(r.added(labels[2])) / added:.2f}" if added > 0 else "-"
        name = f"{r.name} {_VERSIONS.get(r.name, '')}".strip()
        lines.append(f"| {name} | {base} | {command} | {resident} | {share} |")
    return "\n".join(lines)


def docs_handler_table(results: list[CliResult]) -> str:
    """One row per CLI that runs hookwrap's shim in its own process, for docs/performance.md:
    what the CLI awaits of hookwrap's handlers a call, with its spread."""
    lines = ["| CLI | guard as a command: awaited a call, ms; CPU | guard resident: awaited, ms; CPU "
             "| floor (one loopback round trip), ms; CPU | resident / command |",
             "|---|---:|---:|---:|---:|"]
    for r in results:
        labels = [v.label for v in r.variants]
        if r.name not in SHIM_KINDS or r.why or len(labels) < 3:
            continue
        cells = []
        for label in (labels[1], labels[2], FLOOR.label):
            found = _handlers(r, label)
            cells.append(f"{_spread([h.median for h in found], 2)}; CPU {_spread([h.cpu_mean for h in found], 2)}"
                         if found else "-")
        share = (f"{_handler_ms(r, labels[2]) / _handler_ms(r, labels[1]):.2f}"
                 if _handlers(r, labels[1]) and _handlers(r, labels[2]) else "-")
        lines.append(f"| {r.name} {_VERSIONS.get(r.name, '')} | {' | '.join(cells)} | {share} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def cli_table(names: list[str], python: str, generator: str, rounds: int, calls: int,
              all_variants: bool = False, check_await: bool = False) -> str:
    """The per-call tables for the CLIs ``names``, ``rounds`` rounds of every variant."""
    os.environ.setdefault("HOOKWRAP_E2E_PYTHON", python)
    variants = [*(VARIANTS if all_variants else VARIANTS[:DEFAULT_VARIANTS]), FLOOR]
    variants = [*variants, AWAIT_CHECK] if check_await else variants
    began, load = time.monotonic(), _load()
    results = []
    for name in names:
        case = CLIS.get(name)
        why = "" if case else f"unknown CLI (known: {', '.join(CLIS)})"
        mine = [v for v in variants if v.applies(name)] if case else []
        results.append(CliResult(name, mine, {v.label: [] for v in mine}, why))
    # Round-major: each CLI's rounds are spread over the whole run, so a figure's spread over
    # rounds shows how the machine drifts on the scale two runs are compared at.
    calibration = []
    for round_no in range(rounds):
        calibration.append(_fixed_work_ms())
        for result in results:
            if not result.why:
                before = _load()
                measure_round(CLIS[result.name], result, round_no, python, calls)
                print(f"  round {round_no + 1}, {result.name}: load average {before} -> {_load()}"
                      + (f"; failed: {result.why}" if result.why else ""), file=sys.stderr, flush=True)
    for result in results:
        if result.name in CLIS:
            print(f"  {result.name}: {result.seconds:.0f} s", file=sys.stderr, flush=True)
    lines = [f"hooks run on {python}; {calls} shell calls a session, {rounds} rounds of "
             "every variant (interleaved, order rotated; round by round over all the CLIs, so "
             "each CLI's rounds span the whole run); a call = from the mock model's answer "
             "to the CLI's next request (the tool run, its hooks, the CLI's own work); the "
             "first call of a session is a warm-up and left out",
             "per call: median (interquartile range) of every call; added, CPU: median (min to "
             "max) over rounds, each round against the no-hook session of the same round; CPU "
             "= the CLI's process tree plus the resident server, per call, from /proc",
             f"the machine's speed: a fixed loop took {_spread(calibration, 1)} ms of CPU (min to "
             "max, once a round)",
             f"load average (1/5/15 min) {load} at start, {_load()} at end; "
             f"{os.cpu_count()} CPUs; took {time.monotonic() - began:.0f} s",
             "", "| CLI | variant | a call takes, ms | added per call, ms | CPU per call, ms "
             "| CPU added, ms | note |", "|---|---|---:|---:|---:|---:|---|"]
    for result in results:
        lines += _rows(result, variants)
    awaited = handler_table(results)
    if awaited:
        lines += ["", "inside the CLIs that run hookwrap's shim in their own process: what the CLI "
                  "awaited of its handlers (the shim loaded through benchmarks/handler_wrap.mjs, "
                  "which times each handler call in the CLI's process); a call = that call's tool "
                  "handlers plus an even share of the others' (events, the system prompt); median "
                  "(interquartile range) of every call, per-round medians, CPU per call (the process "
                  "and its reaped children) min to max over rounds", "", awaited]
    shims = shim_table(results)
    if shims:
        lines += ["", f"the resident call alone: the rendered shim loaded on the CLI's runtime as the "
                  f"CLI loads it, its PreToolUse handler called {SHIM_CALLS} times a round in turn, "
                  "posting to the guard's server (benchmarks/shim_bench.mjs); median (interquartile "
                  "range) of every call, per-round medians, CPU per call", "", shims]
    lines += ["", "targets (resident guard):"] + [f"- {t}" for t in map(targets, results) if t]
    lines += ["", "for docs/performance.md:", "", docs_table(results)]
    awaited_docs = docs_handler_table(results)
    if awaited_docs:
        lines += ["", awaited_docs]
    return "\n".join(lines)
