"""Hook cost, in CPU and wall time, paired with the interpreter's floor; and per call inside each CLI.

Usage: python benchmarks/run.py [--quick] [--runs N] [--hooks N] [--warmup N] [--no-peer] [--python PY]
                                [--cache-dir DIR] [--cli [NAME ...]] [--cli-rounds N] [--calls N]
                                [--serve] [--instructions]

Every hook is a new process on every tool call, so what matters is the cost of one process,
compared with the cheapest possible hook on the same interpreter, measured in the same round.
The hook rows run on a clean interpreter (/usr/bin/python3, or the python3 PATH finds outside
any venv, through any version manager's shim), whatever venv runs this script; hookwrap itself
(which renders the hooks) is this script's interpreter's. Each round runs every command once,
in an order that rotates; a row's ratio is the median over rounds of (row / floor) in that
round. CPU is the children's user + system time (getrusage), next to wall time. `--cli` runs
the real CLIs instead: N shell calls through a loopback mock model, with and without the hook.
`--serve` measures the resident server instead: a call over a kept-alive connection against a
new connection each, and bursts of concurrent calls (benchmarks/serve_bench.py).
Standard library only (the --cli mode imports the e2e harnesses from tests/e2e).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

CCHOOKS_VERSION = "0.1.5"  # newest on PyPI when this benchmark was written; pinned for comparability
CLI_TARGET_MS = 300.0
# The targets, CPU time against the floor on the same interpreter: (target, label). The skeleton
# within 5% and the guard within 10% of the cheapest possible hook (the guard's own bar is 15%;
# the stricter one is kept).
HOOK_TARGETS = {"hookwrap skeleton": (1.05, "skeleton"), "hookwrap guard": (1.10, "guard")}
# The CLIs `--cli` measures (benchmarks/cli_bench.py has one entry per name).
CLI_CASES = ("claude", "gemini", "codex", "qwen", "copilot", "opencode", "droid", "pi", "kilo", "cline")
HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PAYLOAD_DIRS = (REPO / "tests" / "fixtures" / "payloads",)
EVENTS = ("before_tool", "after_tool", "session_start", "before_prompt", "after_agent")

FLOOR_HOOK = 'import json, sys\njson.load(sys.stdin)\nprint("{}")\n'
# The floor, ending as hookwrap's launcher ends a hook (no interpreter teardown): the part of the
# floor that hookwrap's hooks do not pay, shown so that the ratios can be read both ways.
FLOOR_QUICK_EXIT = FLOOR_HOOK + 'import os\nsys.stdout.flush()\nos._exit(0)\n'

# The peer row runs the very rules of hookwrap's rendered guard.py with cchooks doing the I/O:
# the import of hookwrap's I/O is swapped for this shim and the `main(hook)` call for cchooks'
# context. The guard's rules live in hookwrap's runtime (guard_engine.py), which the script
# still imports from the project's .hookwrap/lib, so this row pays for that import too. Claude
# Code only: cchooks does not speak Gemini.
CCHOOKS_SHIM = """\
from types import SimpleNamespace
from cchooks import PreToolUseContext, create_context


class HookOutput:  # what the guard's rules return, handed to cchooks below
    def __init__(self, reason):
        self.reason = reason

    @classmethod
    def block(cls, reason):
        return cls(reason)


HookInput = object
"""
CCHOOKS_MAIN = """\
_TOOLS = {"Bash": "shell", "Write": "write_file", "Edit": "edit_file"}
c = create_context()
if isinstance(c, PreToolUseContext):
    _path = c.tool_input.get("file_path") if c.tool_name in ("Write", "Edit") else None
    decision = hook(SimpleNamespace(tool_name=_TOOLS.get(c.tool_name, c.tool_name.lower()),
                                    raw_tool_name=c.tool_name, tool_input=c.tool_input, cwd=c.cwd,
                                    file_paths=[_path] if isinstance(_path, str) and _path else []))
    if decision is not None:
        c.output.deny(decision.reason)
    else:
        c.output.exit_success()
c.output.exit_success()
"""
GUARD_IMPORT = "from hookwrap import HookInput, HookOutput, main  # noqa: E402\n"
GUARD_MAIN = 'if __name__ == "__main__":\n    raise SystemExit(main(hook))\n'


def cchooks_guard(guard_source: str) -> str:
    """The rendered guard with cchooks in place of hookwrap (Unavailable if its shape changed)."""
    if GUARD_IMPORT not in guard_source or GUARD_MAIN not in guard_source:
        raise Unavailable("the rendered guard.py no longer has the import / main lines this row swaps")
    return guard_source.replace(GUARD_IMPORT, CCHOOKS_SHIM).replace(GUARD_MAIN, CCHOOKS_MAIN)


@dataclass
class Row:
    """One line of the table: a command to time, or the reason it cannot be timed."""

    label: str
    argv: list[str] | None = None
    stdin: bytes = b""
    env: dict[str, str] | None = None
    cwd: Path | None = None
    kind: str = "hook"  # "hook": ratio to floor; "cli": vs the 300 ms target; "import": -X importtime
    after: list[str] | None = None  # untimed clean-up after each timed run (remove what add made)
    ok_codes: tuple[int, ...] = (0,)  # `sync --check` exits 1 on drift and has done all its work
    unavailable: str = ""
    samples: list[float] = field(default_factory=list)  # wall ms (import rows: import ms)
    cpu: list[float] = field(default_factory=list)  # children's user + sys ms, same runs
    rounds: list[int] = field(default_factory=list)  # the round of each sample, for pairing


class Unavailable(Exception):
    """A row cannot be measured here; the message says why."""


def _run(argv, *, cwd=None, env=None, stdin=b"", check=True):
    proc = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True)
    if check and proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).decode(errors="replace").strip().splitlines()[-1:]
        raise Unavailable(f"{' '.join(map(str, argv[:4]))} exited {proc.returncode}: {' '.join(tail)}")
    return proc


def children_cpu_ms() -> float:
    """User + system CPU of every child this process has waited for (and of their children)."""
    try:
        import resource
    except ImportError:  # Windows: no CPU column
        return 0.0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (used.ru_utime + used.ru_stime) * 1000


def machine_line(python: str) -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    version = _run([python, "-c", "import sys; print(sys.version.split()[0])"]).stdout.decode().strip()
    load = "/".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (f"machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"hooks run on Python {version} ({python}), load average {load} at start")


def versions_line(python: str) -> str:
    """The CLI rows depend on these: typer 0.29 and later import pydantic, for one."""
    code = ("from importlib.metadata import version\n"
            "for n in ('hookwrap', 'typer', 'click', 'pydantic', 'tomlkit', 'jinja2'):\n"
            "    try: print(f'{n} {version(n)}', end='; ')\n"
            "    except Exception: print(f'{n} absent', end='; ')")
    return f"generator: {python}; " + _run([python, "-c", code]).stdout.decode().strip(" ;")


def compile_line(work: Path, python: str) -> str:
    """A script run as `python3 script.py` is compiled on every run (only imports get a .pyc)."""
    lines = []
    for name in ("guard", "skeleton"):
        script = work / "guard" / ".hookwrap" / "hooks" / f"{name}.py"
        if not script.is_file():
            continue
        code = ("import sys, time\nsource = open(sys.argv[1]).read()\ntimes = []\n"
                "for _ in range(30):\n    t = time.process_time()\n    compile(source, sys.argv[1], 'exec')\n"
                "    times.append(time.process_time() - t)\n"
                "print(source.count(chr(10)), sorted(times)[15] * 1000)")
        count, ms = _run([python, "-c", code, str(script)]).stdout.decode().split()
        lines.append(f"{name}.py: {count} lines, compiling it takes {float(ms):.1f} ms CPU")
    return "; ".join(lines) or "no script rendered"


def site_line(python: str) -> str:
    """Which .pth files run code at every interpreter start: the floor pays for them too."""
    code = "import site, sys; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))"
    dirs = _run([python, "-c", code], env=child_env(Path(python).parent)).stdout.decode().split()
    hooks = []
    for d in dirs:
        for pth in sorted(Path(d).glob("*.pth")) if Path(d).is_dir() else ():
            text = pth.read_text(errors="replace")
            if any(line.startswith(("import ", "import\t")) for line in text.splitlines()):
                mods = sorted(set(re.findall(r"\bimport ([A-Za-z_][\w.]*)", text)) - {"os", "sys"})
                hooks.append(f"{pth.name} (imports {', '.join(mods) or 'os'})")
    return "site: .pth files that run code at start-up: " + ("; ".join(hooks) or "none")


# Variables that would make the measured interpreter something else than what a CLI starts.
_PYTHON_VARS = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONDONTWRITEBYTECODE", "PYTHONNOUSERSITE",
                "PYTHONSAFEPATH", "PYTHONPYCACHEPREFIX", "VIRTUAL_ENV", "PYTHONEXECUTABLE", "PYTHONPROFILEIMPORTTIME")


def child_env(bindir: Path, **extra: str) -> dict[str, str]:
    """The environment of every timed process: the measured interpreter first on PATH, and none
    of the venv's or the caller's PYTHON* variables.

    PYTHONDONTWRITEBYTECODE is dropped so that, as on a user's machine, the first run writes
    the .pyc files Python may cache and later runs read them (one row measures the opposite).
    """
    env = {k: v for k, v in os.environ.items() if k not in _PYTHON_VARS}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


def payload(platform_dir: str, names: tuple[str, ...]) -> bytes:
    for base in (*PAYLOAD_DIRS, Path("/work/shared/reference/payloads")):
        for name in names:
            path = base / platform_dir / name
            if path.is_file():
                return path.read_bytes()
    raise Unavailable(f"no {platform_dir} payload among {', '.join(names)}")


def clean_interpreter() -> tuple[str, str]:
    """The interpreter the hook rows run on, and why that one.

    /usr/bin/python3 where it exists (what a CLI started from a fresh login finds); else the
    python3 on PATH once any venv's folder is left out, with a version manager's shim resolved
    to the interpreter it runs (doctor's python-shim check tells its cost apart).
    """
    system = Path("/usr/bin/python3")
    if system.is_file() and os.access(system, os.X_OK):
        return str(system), "the system interpreter"
    venv = os.environ.get("VIRTUAL_ENV") or sys.prefix
    folders = [d for d in os.environ.get("PATH", "").split(os.pathsep)
               if d and not Path(d).resolve().is_relative_to(Path(venv).resolve())]
    found = shutil.which("python3", path=os.pathsep.join(folders))
    if found is None:
        return interpreter(sys.executable), "no python3 outside this venv: this script's interpreter"
    try:
        from hookwrap.checks.shims import find_shim

        shim = find_shim("python3", {**os.environ, "PATH": os.pathsep.join(folders)})
    except ImportError:
        shim = None
    if shim is not None and shim.target:
        return shim.target, f"python3 on PATH outside the venv, past {shim.manager}'s shim"
    return found, "python3 on PATH outside the venv"


def interpreter_rows(work: Path, bindir: Path, claude_payload: bytes) -> list[Row]:
    floor = work / "floor.py"
    floor.write_text(FLOOR_HOOK)
    quick = work / "floor_quick_exit.py"
    quick.write_text(FLOOR_QUICK_EXIT)
    env = child_env(bindir)
    return [
        Row("floor: json.load(stdin), print {} (bash -c 'python3 floor.py')",
            ["bash", "-c", f'python3 "{floor}"'], claude_payload, env, work),
        Row("floor ending with os._exit, as the launcher ends a hook (no teardown)",
            ["bash", "-c", f'python3 "{quick}"'], claude_payload, env, work),
        Row("interpreter start: python3 -c pass", ["bash", "-c", "python3 -c pass"], b"", env, work),
        Row("interpreter start without site: python3 -S -c pass",
            ["bash", "-c", "python3 -S -c pass"], b"", env, work),
    ]


def import_rows(work: Path, python: str, generator: str | None = None) -> list[Row]:
    """`import hookwrap` as a hook imports it: the runtime files alone, on their own sys.path."""
    # The files `hookwrap init` copies, as the generator's hookwrap lists them.
    src = _run([generator or python, "-c", "import hookwrap, os; from hookwrap.generator.vendor import RUNTIME_MODULES; "
                "print(os.path.dirname(hookwrap.__file__)); print(*RUNTIME_MODULES)"])
    source_dir, modules = src.stdout.decode().strip().splitlines()
    lib = work / "lib" / "hookwrap"
    lib.mkdir(parents=True)
    for name in modules.split():
        (lib / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(Path(source_dir) / name, lib / name)
    env = child_env(Path(python).parent, PYTHONPATH=str(lib.parent))
    no_site = child_env(Path(python).parent)
    path = f"import sys; sys.path.insert(0, {str(lib.parent)!r}); "
    return [
        Row("import hookwrap (-X importtime, cumulative)",
            [python, "-X", "importtime", "-c", "import hookwrap"], env=env, cwd=work, kind="import"),
        Row("import hookwrap after json, sys (what a hook adds to the floor)",
            [python, "-X", "importtime", "-c", "import json, sys; import hookwrap"],
            env=env, cwd=work, kind="import"),
        Row("import hookwrap without site (-S: a machine with no .pth start-up code)",
            [python, "-S", "-X", "importtime", "-c", path + "import hookwrap"],
            env=no_site, cwd=work, kind="import"),
    ]


def cchooks_row(python: str, cache: Path, work: Path, claude_payload: bytes, bindir: Path,
                generator: str) -> Row:
    row = Row(f"peer: the same guard rules with cchooks {CCHOOKS_VERSION}, claude")
    try:
        source = cchooks_guard((work / "guard" / ".hookwrap" / "hooks" / "guard.py").read_text())
    except (Unavailable, OSError) as exc:
        row.unavailable = f"no guard to port: {exc}"
        return row
    # Installed with the generator's pip into a folder of its own, which the script puts first on
    # sys.path: as hookwrap's scripts do with .hookwrap/lib, so both pay the same for the path.
    target = cache / f"cchooks-{CCHOOKS_VERSION}-lib"
    try:
        if not (target / ".installed").exists():
            shutil.rmtree(target, ignore_errors=True)
            _run([generator, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
                  "--target", str(target), f"cchooks=={CCHOOKS_VERSION}"])
            (target / ".installed").write_text(CCHOOKS_VERSION)
    except (Unavailable, OSError) as exc:
        row.unavailable = f"cchooks could not be installed: {exc}"
        return row
    # Beside the guard, so that its `sys.path` line finds the project's runtime (the engine).
    script = work / "guard" / ".hookwrap" / "hooks" / "cchooks_guard.py"
    path_line = f"import sys\nsys.path.insert(0, {str(target)!r})\n"
    script.write_text(source.replace(CCHOOKS_SHIM, path_line + CCHOOKS_SHIM, 1))
    row.argv = ["bash", "-c", f'python3 "{script}"']
    row.stdin, row.cwd = claude_payload, work
    row.env = child_env(bindir, CLAUDE_PROJECT_DIR=str(work), CLAUDECODE="1")
    return row


def _hookwrap(python: str) -> list[str]:
    script = Path(python).parent / "hookwrap"
    return [str(script)] if script.is_file() else [python, "-m", "hookwrap"]


def _registered_command(path: Path, hook: str) -> str:
    text = path.read_text()
    # The launcher and the hook's name (run.py guard), or the script itself (older projects).
    runs = re.compile(r'/\.hookwrap/(?:hooks/' + hook + r'\.py|lib/run\.py\\?"? ' + hook + ' )')
    try:
        data = json.loads(text)
        for groups in data.get("hooks", {}).values():
            for group in groups:
                for handler in group.get("hooks", []):
                    if runs.search(handler.get("command", "")):
                        return handler["command"]
    except ValueError:  # JSONC: fall back to the string itself
        string = r'"(?:[^"\\]|\\.)*/\.hookwrap/(?:hooks/' + hook + r'\.py|lib/run\.py\\?"? ' + hook + \
            r' )(?:[^"\\]|\\.)*"'
        match = re.search(r'"command"\s*:\s*(' + string + ")", text)
        if match:
            return json.loads(match.group(1))
    raise Unavailable(f"no command for {hook} in {path}")


def new_project(root: Path, hw: list[str], env: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    _run(["git", "init", "-q", str(root)])
    _run([*hw, "init"], cwd=root, env=env)
    return root


def guard_rows(work: Path, python: str, bindir: Path, generator: str | None = None) -> list[Row]:
    """The skeleton and the guard, as the CLIs run them; ``python`` runs them (``bindir`` has it
    as python3), ``generator`` (default ``python``) has hookwrap and renders them."""
    hw = _hookwrap(generator or python)
    env = child_env(Path(generator or python).parent)
    cases = (("claude", ".claude", "CLAUDE_PROJECT_DIR", ("PreToolUse.json",)),
             ("gemini", ".gemini", "GEMINI_PROJECT_DIR",
              ("BeforeTool.run_shell_command.json", "BeforeTool.json")))
    rows = [Row(f"hookwrap guard, {name} (registered command, bash -c)") for name, *_ in cases]
    rows.append(Row("hookwrap skeleton (no rules), claude (registered command, bash -c)"))
    rows.append(Row("hookwrap guard, claude, no .pyc (PYTHONDONTWRITEBYTECODE=1, fresh checkout)"))
    try:
        # The guard's deadline (--fail-closed=SECONDS, 30% inside its timeout) counts from the
        # process's start: under valgrind (--instructions) a run takes seconds, so the guard gets
        # a timeout that leaves it minutes; the deadline costs the same whatever its value.
        guard = ["add", "before_tool", "guard", "--timeout", "600"]
        project = new_project(work / "guard", hw, env)
        _run([*hw, *guard], cwd=project, env=env)
        _run([*hw, "add", "before_tool", "skeleton", "--template", "skeleton"], cwd=project, env=env)
        bare = new_project(work / "guard-nopyc", hw, env)
        _run([*hw, *guard], cwd=bare, env=env)
        for row, (name, folder, var, payloads) in zip(rows, cases):
            command = _registered_command(project / folder / "settings.json", "guard")
            row.argv, row.cwd = ["bash", "-c", command], project
            row.stdin = payload(name, payloads)
            # CLAUDECODE=1: Claude Code's mark on its hook processes (the runtime then asks no guest CLI).
            marks = {"CLAUDECODE": "1"} if name == "claude" else {}
            row.env = child_env(bindir, **{var: str(project)}, **marks)
        command = _registered_command(project / ".claude" / "settings.json", "skeleton")
        rows[2].argv, rows[2].cwd, rows[2].stdin = ["bash", "-c", command], project, rows[0].stdin
        rows[2].env = rows[0].env
        command = _registered_command(bare / ".claude" / "settings.json", "guard")
        for cache in (bare / ".hookwrap").rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
        rows[3].argv, rows[3].cwd, rows[3].stdin = ["bash", "-c", command], bare, rows[0].stdin
        rows[3].env = {**child_env(bindir, CLAUDE_PROJECT_DIR=str(bare), CLAUDECODE="1"),
                       "PYTHONDONTWRITEBYTECODE": "1"}
    except (Unavailable, OSError) as exc:
        for row in rows:
            row.unavailable = row.unavailable or str(exc)
    return rows


def cli_rows(work: Path, generator: str, hooks: int) -> list[Row]:
    """The hookwrap command itself (the generator's interpreter), in a project of ``hooks`` hooks."""
    hw = _hookwrap(generator)
    env = child_env(Path(generator).parent)
    rows = [Row(f"hookwrap list ({hooks} hooks)"), Row(f"hookwrap sync --check ({hooks} hooks)"),
            Row(f"hookwrap add ({hooks} hooks; the new one removed, untimed, after each run)")]
    try:
        project = new_project(work / "many", hw, env)
        for i in range(hooks):
            _run([*hw, "add", EVENTS[i % len(EVENTS)], f"hook{i:02d}"], cwd=project, env=env)
        _run([*hw, "sync"], cwd=project, env=env)  # start from no drift
        argvs = ([*hw, "list"], [*hw, "sync", "--check"], [*hw, "add", "before_tool", "bench_new"])
        for row, argv in zip(rows, argvs):
            row.argv, row.env, row.cwd, row.kind = argv, env, project, "cli"
        rows[1].ok_codes = (0, 1)
        rows[2].after = [*hw, "remove", "bench_new"]
    except (Unavailable, OSError) as exc:
        for row in rows:
            row.unavailable = str(exc)
    return rows + doctor_rows(work, hw, env, hooks)


def doctor_rows(work: Path, hw: list[str], env: dict[str, str], hooks: int) -> list[Row]:
    """`hookwrap doctor` without running the hooks (the project of ``hooks`` hooks), and with:
    4 templates on all 7 CLIs, each hook run once per CLI (28 runs). A throwaway HOME: doctor
    reads user settings and runs the hooks. Exit 1 is expected (no CLI trusts the project)."""
    home = work / "doctor-home"
    home.mkdir()
    env = {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env.pop("CODEX_HOME", None)
    rows = [Row(f"hookwrap doctor --no-run ({hooks} hooks)"),
            Row("hookwrap doctor (4 hooks on 7 CLIs: 28 hook runs)")]
    try:
        small = work / "doctor"
        small.mkdir()
        _run(["git", "init", "-q", str(small)])
        _run([*hw, "init", "--platform", "all"], cwd=small, env=env)
        for event, name in (("before_tool", "guard"), ("after_tool", "audit"),
                            ("after_agent", "stop_gate"), ("after_tool", "format")):
            _run([*hw, "add", event, name], cwd=small, env=env)
        manifest = small / "hookwrap.toml"
        manifest.write_text(manifest.read_text().replace('check = "python3 -m pytest -q"',
                                                         'check = "true"'))
        rows[0].argv, rows[0].cwd = [*hw, "doctor", "--no-run"], work / "many"
        rows[1].argv, rows[1].cwd = [*hw, "doctor"], small
        for row in rows:
            row.env, row.kind, row.ok_codes = env, "cli", (0, 1)
    except (Unavailable, OSError) as exc:
        for row in rows:
            row.unavailable = str(exc)
    return rows


def _importtime_ms(stderr: bytes) -> float:
    for line in stderr.decode(errors="replace").splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == "hookwrap":  # the top-level package line
            return int(parts[1]) / 1000
    raise Unavailable("no `hookwrap` line in -X importtime output")


def measure_both(row: Row) -> tuple[float, float]:
    """(wall ms, CPU ms) of one run of ``row``; for an import row, (import ms, CPU ms)."""
    before = children_cpu_ms()
    start = time.perf_counter()
    proc = subprocess.run(row.argv, cwd=row.cwd, env=row.env, input=row.stdin, capture_output=True)
    elapsed = (time.perf_counter() - start) * 1000
    cpu = children_cpu_ms() - before
    if proc.returncode not in row.ok_codes:
        raise Unavailable(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace').strip()[-300:]}")
    if row.kind == "hook" and proc.stdout.strip():
        json.loads(proc.stdout)  # a hook prints one JSON document, or nothing
    if row.after:
        _run(row.after, cwd=row.cwd, env=row.env)
    return (_importtime_ms(proc.stderr) if row.kind == "import" else elapsed), cpu


def measure(row: Row) -> float:
    """Wall ms of one run of ``row`` (import ms for an import row)."""
    return measure_both(row)[0]


def run_rounds(rows: list[Row], runs: int, warmup: int) -> None:
    live = [r for r in rows if not r.unavailable]
    for round_no in range(warmup + runs):
        shift = round_no % len(live) if live else 0
        for row in live[shift:] + live[:shift]:  # rotate: no command always goes first
            if row.unavailable:
                continue
            try:
                value, cpu = measure_both(row)
            except (Unavailable, ValueError) as exc:
                row.unavailable = f"failed: {exc}"
                continue
            if round_no >= warmup:
                row.samples.append(value)
                row.cpu.append(cpu)
                row.rounds.append(round_no)


def paired_ratio(row: Row, floor: Row, values: str) -> float | None:
    """The median over rounds of row / floor in the same round (``values``: samples or cpu)."""
    base = dict(zip(floor.rounds, getattr(floor, values)))
    ratios = [v / base[r] for r, v in zip(row.rounds, getattr(row, values)) if base.get(r)]
    return statistics.median(ratios) if ratios else None


def table(rows: list[Row], floor: Row | None) -> str:
    lines = ["| what | CPU ms | wall ms | min wall ms | CPU / floor | wall / floor | note |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        if row.unavailable or not row.samples:
            lines.append(f"| {row.label} | - | - | - | - | - | unavailable: {row.unavailable or 'no samples'} |")
            continue
        med, low = statistics.median(row.samples), min(row.samples)
        cpu = f"{statistics.median(row.cpu):.1f}" if any(row.cpu) else "-"
        cpu_ratio = wall_ratio = "-"
        note = ""
        if row.kind == "cli" and "sync --check" in row.label:
            note = f"{'under' if med <= CLI_TARGET_MS else 'OVER'} the {CLI_TARGET_MS:.0f} ms target"
        elif row.kind == "cli":
            note = "the hookwrap command (the 300 ms target is for sync --check)"
        elif row.kind == "import":
            note = "import time only (-X importtime ms in the wall column)"
            cpu = "-"
        elif floor is not None and floor.samples:
            c, w = paired_ratio(row, floor, "cpu"), paired_ratio(row, floor, "samples")
            cpu_ratio = f"x{c:.2f}" if c and any(row.cpu) else "-"
            wall_ratio = f"x{w:.2f}" if w else "-"
            for prefix, (target, _) in HOOK_TARGETS.items():
                if row.label.startswith(prefix) and "no .pyc" not in row.label:
                    note = f"target x{target:.2f} (CPU)"
        lines.append(f"| {row.label} | {cpu} | {med:.1f} | {low:.1f} | {cpu_ratio} | {wall_ratio} | {note} |")
    return "\n".join(lines)


def interpreter(path: str) -> str:
    """An interpreter's absolute path, symlinks kept: a venv's python is a link to the base
    interpreter, and resolving it would lose the venv (and hookwrap with it)."""
    return os.path.abspath(path)


def hook_rows(work: Path, python: str, generator: str, claude_payload: bytes) -> list[Row]:
    """The floor's rows and the hooks', in ``work``, with ``python`` first on PATH as python3."""
    bindir = work / "bin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(python)
    return interpreter_rows(work, bindir, claude_payload) + guard_rows(work, python, bindir, generator)


def hook_table(args: argparse.Namespace, python: str, generator: str, why: str) -> None:
    runs = args.runs or (5 if args.quick else 30)
    hooks = args.hooks or (10 if args.quick else 50)
    print(machine_line(python))
    print(f"hooks run on: {python} ({why}); hookwrap renders them from {generator}")
    print(versions_line(generator))
    print(site_line(python))
    found = shutil.which("python3")
    print(f"python3 on PATH: {found}; the benchmark puts {python} first on PATH as python3")
    with tempfile.TemporaryDirectory(prefix="hookwrap-bench-") as tmp:
        work = Path(tmp)
        claude_payload = payload("claude", ("PreToolUse.json",))
        rows = hook_rows(work, python, generator, claude_payload)
        if args.no_peer:
            rows.append(Row("peer: cchooks", unavailable="skipped (--no-peer)"))
        else:
            rows.append(cchooks_row(python, args.cache_dir.resolve(), work, claude_payload, work / "bin", generator))
        rows += import_rows(work, python, generator)
        rows += cli_rows(work, generator, hooks)
        print(f"{runs} rounds (+{args.warmup} warm-up), commands rotated each round; medians, ratios "
              "paired by round:", flush=True)
        run_rounds(rows, runs, warmup=args.warmup)
        print(table(rows, rows[0] if rows[0].samples else None))
        print(compile_line(work, python))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 5 runs, 10 hooks")
    parser.add_argument("--runs", type=int, help="timed rounds (default 30, 5 with --quick)")
    parser.add_argument("--hooks", type=int, help="hooks in the CLI's project (default 50)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds first (default 2)")
    parser.add_argument("--python", help="interpreter the hooks run on (default: a clean one, "
                        "/usr/bin/python3 or python3 on PATH outside the venv)")
    parser.add_argument("--no-peer", action="store_true",
                        help="skip the cchooks row (it installs cchooks into a cached folder)")
    default_cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hookwrap-bench"
    parser.add_argument("--cache-dir", type=Path, default=default_cache, help="where cchooks is installed")
    parser.add_argument("--cli", nargs="*", metavar="NAME",
                        help="measure the per-call cost inside the real CLIs instead (all, or the ones named: "
                        + ", ".join(CLI_CASES) + ")")
    parser.add_argument("--cli-rounds", type=int, default=3, help="--cli: rounds of every variant (default 3)")
    parser.add_argument("--calls", type=int, default=30, help="--cli: shell calls a session (default 30)")
    parser.add_argument("--cli-all-variants", action="store_true",
                        help="--cli: also the audit hook filtered to `git *` (default: no hook, "
                        "the guard as a command, the guard resident)")
    parser.add_argument("--cli-check-await", action="store_true",
                        help="--cli: also the resident guard with the shim's PreToolUse handler made "
                        "to sleep 500 ms, where the shim runs in the CLI's process (OpenCode, pi, "
                        "Kilo CLI): its calls must take that much longer")
    parser.add_argument("--instructions", action="store_true",
                        help="count the hook rows' instructions with valgrind instead of timing "
                        "them: the same count whatever the machine's load (benchmarks/instructions.py)")
    parser.add_argument("--serve", action="store_true",
                        help="measure the resident server instead: a call kept alive against a new "
                        "connection each, and bursts of concurrent calls")
    args = parser.parse_args(argv)
    generator = interpreter(sys.executable)
    if args.python:
        python, why = interpreter(args.python), "--python"
    else:
        python, why = clean_interpreter()
    if args.serve:
        from serve_bench import serve_table  # benchmarks/serve_bench.py

        print(machine_line(python))
        print(serve_table(python, _hookwrap(generator), child_env(Path(generator).parent),
                          rounds=3 if args.quick else 5))
        return 0
    if args.cli is not None:
        from cli_bench import cli_table  # benchmarks/cli_bench.py: imports the e2e harnesses

        print(machine_line(python))
        print(cli_table(args.cli or list(CLI_CASES), python, generator, args.cli_rounds, args.calls,
                        all_variants=args.cli_all_variants, check_await=args.cli_check_await))
        return 0
    if args.instructions:
        instructions(python, generator, why)
        return 0
    hook_table(args, python, generator, why)
    return 0


def instructions(python: str, generator: str, why: str) -> None:
    """The hook rows counted in instructions (benchmarks/instructions.py), once each."""
    from instructions import instruction_table  # benchmarks/instructions.py

    print(machine_line(python))
    print(f"hooks run on: {python} ({why}); hookwrap renders them from {generator}")
    with tempfile.TemporaryDirectory(prefix="hookwrap-bench-") as tmp:
        rows = hook_rows(Path(tmp), python, generator, payload("claude", ("PreToolUse.json",)))
        print("instructions of one run each (valgrind --tool=callgrind, PYTHONHASHSEED=0), "
              "every process of the row:", flush=True)
        print(instruction_table(rows, HOOK_TARGETS))


if __name__ == "__main__":
    raise SystemExit(main())
