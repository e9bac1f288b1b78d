"""Shared fixtures: every test runs with a throwaway HOME so nothing touches a real ~/.claude,
~/.gemini or ~/.codex (CODEX_HOME is unset, so it is the throwaway HOME's too).

Also the ``--update-golden`` option (rewrite tests/golden/ instead of comparing), registered
here once: pytest reads this conftest before it parses the command line, whatever the test paths.
Helpers live in the ``support`` package (tests/support/).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from support import golden, projects


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/ from the current templates instead of comparing")


# A run writes ~85,000 files (~900 MB: every test's project holds the runtime and its bytecode).
# On a disk that costs a run ~30 s of its CPU (and the deletion as much again, in whichever
# pytest run cleans up after it); in memory, little. `tmp_path_retention_policy = "failed"`
# (pyproject.toml) frees them at the end of a run that passed.
_MEMORY = Path("/dev/shm")
_MEMORY_NEEDED = 4 << 30  # bytes free


def _filesystem_of(path: Path) -> tuple[str, list[str]]:
    """The type of the file system ``path`` is on ("tmpfs", "ext4") and its mount options
    ("rw", "noexec"...), from /proc/self/mounts."""
    real, found, kind, options = os.path.realpath(path), "", "", ""
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        for line in mounts:
            fields = line.split()
            if len(fields) < 4:
                continue
            point = fields[1].replace("\\040", " ")
            if (real == point or real.startswith(point.rstrip("/") + "/")) and len(point) >= len(found):
                found, kind, options = point, fields[2], fields[3]
    return kind, options.split(",")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    _temp_in_memory(config)
    _compile_hookwrap(config)
    _rewrite_test_modules_once(config)


def _temp_in_memory(config: pytest.Config) -> None:
    """Put the run's temporary folders (``tmp_path`` and the rest, pytest's base temp) in memory,
    on Linux's /dev/shm, when the temp dir is on a disk, /dev/shm is a writable tmpfs with 4 GB
    free that may run programs (not ``noexec``: tests run the scripts they write there), and
    neither ``--basetemp`` nor PYTEST_DEBUG_TEMPROOT says where they go. Otherwise (no
    /dev/shm, a small or noexec one, another system) they stay in the temp dir. The files and
    what the tests do with them are the same. (xdist workers get the base temp of the run.)"""
    if (config.option.basetemp or "PYTEST_DEBUG_TEMPROOT" in os.environ
            or not sys.platform.startswith("linux")):
        return
    try:
        kind, options = _filesystem_of(_MEMORY)
        if (_filesystem_of(Path(tempfile.gettempdir()))[0] == "tmpfs" or kind != "tmpfs"
                or "noexec" in options or "ro" in options):
            return
        usage = os.statvfs(_MEMORY)
        if not os.access(_MEMORY, os.W_OK) or usage.f_bavail * usage.f_frsize < _MEMORY_NEEDED:
            return
    except OSError:
        return
    os.environ["PYTEST_DEBUG_TEMPROOT"] = str(_MEMORY)


def _compile_hookwrap(config: pytest.Config) -> None:
    """Compile hookwrap's own modules once, even where PYTHONDONTWRITEBYTECODE is set (common in
    containers): every ``hookwrap`` process the tests start (the transcripts, the docs' examples,
    the subprocess and signal tests, the guard benchmark) otherwise compiles each module it imports
    from source, ~0.13 s of CPU per process (`hookwrap sync` 0.36 s -> 0.22 s, `list` 0.28 s ->
    0.15 s). The bytecode is Python's usual ``__pycache__`` beside the sources (git-ignored);
    an installed (not editable) hookwrap has its own already. The controller only, before any
    worker starts; what the tests start inherits the environment as it is."""
    if not sys.dont_write_bytecode or hasattr(config, "workerinput"):
        return
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("hookwrap")
    if spec is None or not spec.origin:
        return
    package = Path(spec.origin).parent
    if os.access(package, os.W_OK):
        compileall.compile_dir(package, quiet=2, workers=0)  # one process per core


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """Under xdist, rewrite the asserts of every test module and conftest.py of the run once, in
    the controller before any worker starts, into pytest's cache of rewritten modules (see
    pytest_collection below), one process per core. Where that cache is empty (a fresh clone:
    .ci/run's) each worker otherwise rewrote all of them itself, the same ~3.5 s of CPU three
    times over on 2 cores (a run of one test with the cache empty: 19.1 s -> 12.1 s of CPU).
    The workers still check each cached module against its source's hash, as pytest always
    does, and rewrite what does not match. This takes pytest's own rewriting functions
    (_pytest.assertion.rewrite); where a pytest no longer has them as they are called here,
    nothing is done and each worker rewrites its modules as before."""
    numprocesses = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not numprocesses \
            or config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.pathlib import fnmatch_ex

        patterns = config.getini("python_files")
        files: set[Path] = set()
        for arg in config.args:
            path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
            candidates = sorted(path.rglob("*.py")) if path.is_dir() else [path]
            files.update(file for file in candidates if file.name == "conftest.py"
                         or any(fnmatch_ex(pattern, file) for pattern in patterns))
        _rewrite_test_modules(config, sorted(files))
    except (ImportError, AttributeError, TypeError, KeyError, OSError, SyntaxError):
        return  # the workers rewrite what they import, as without this


def _rewrite_test_modules(config: pytest.Config, files: list[Path]) -> None:
    """_rewrite_test_module for each of ``files``: a share in each of one forked process per
    core but one, and the rest here. A share a child does not finish is left to the workers."""
    shares = len(os.sched_getaffinity(0)) if hasattr(os, "fork") and hasattr(os, "sched_getaffinity") else 1
    children = []
    for share in range(1, shares):
        pid = os.fork()
        if pid == 0:
            try:
                for file in files[share::shares]:
                    _rewrite_test_module(config, file)
            finally:
                os._exit(0)
        children.append(pid)
    try:
        for file in files[::shares]:
            _rewrite_test_module(config, file)
    finally:
        for pid in children:
            os.waitpid(pid, 0)


def _rewrite_test_module(config: pytest.Config, file: Path) -> None:
    """One test module's rewritten code into pytest's cache, unless a valid one is there."""
    from _pytest.assertion.rewrite import (
        PYC_TAIL,
        _read_pyc,
        _rewrite_test,
        _write_pyc,
        assertstate_key,
        get_cache_dir,
    )

    cache = get_cache_dir(file)
    pyc = cache / (file.name[:-3] + PYC_TAIL)
    if _read_pyc(file, pyc) is not None:
        return
    cache.mkdir(exist_ok=True)
    source_hash, code = _rewrite_test(file, config)
    _write_pyc(config.stash[assertstate_key], code, source_hash, pyc)


# The e2e timing lines: (CLI, seconds) of every real-CLI run, from this process (e2e.harness) and,
# under xdist, from each worker (tests/e2e/conftest.py hands them over). Here, because an xdist
# controller loads this conftest only.
_WORKER_RUNS: list[tuple[str, float]] = []


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> object:
    """Keep pytest's cache of the rewritten test modules even where PYTHONDONTWRITEBYTECODE is
    set (common in containers): rewriting every test module's asserts takes each process
    (each xdist worker) ~4 s. The cache is pytest's usual ``__pycache__/*-pytest-*.pyc`` next to
    the tests (git-ignored), keyed by the source's hash. Only while collecting: the tests then
    run with the interpreter's setting, and what they start inherits the environment as it is."""
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = before


# `-n auto`: half as many workers again as there are cores (2 cores: 3 workers). A worker waits a
# third of its time (the hooks' timeouts and sleeps, servers, the processes it starts), so with
# one worker per core the cores idle for a third of the run; a third worker fills those gaps (on
# a 2-core machine with other work on it: 156 s with 2 workers, 119-131 s with 3, about the same
# CPU). Not for the end-to-end tests (`-m e2e`): each runs a real CLI, busy on its own, whose
# timeouts are what they check. PYTEST_XDIST_AUTO_NUM_WORKERS still says how many, as xdist
# documents.
@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or config.option.numprocesses != "auto" \
            or (config.option.markexpr or "").strip() == "e2e":
        return None  # xdist's own answer: one per core
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return cores + (cores + 1) // 2


# Longest files first. Under `-n auto --dist loadfile` xdist hands out whole files in the order of
# the collection (pyproject.toml turns off its own reordering, by number of tests: the longest
# files have few tests, so they came last and a run ended on one worker while the others waited).
# Each file's time in the last run that ran it is kept in pytest's cache; the controller reads it
# once and hands it to every worker (their collections must come out in the same order); a file
# it does not know goes by _TYPICAL_SECONDS, else by its number of tests, as xdist would.
_FILE_TIMES = "hookwrap/file-seconds"
_RUN_TIMES: dict[str, float] = {}
# The files that take longest, with their seconds in a run on a 2-core machine (2026-11-29), for
# a run without pytest's cache (a clean clone, as .ci/run's is; -p no:cacheprovider): there the
# longest files came last, by their few tests, and the run ended on one worker. Only the order
# counts; a file's time in the cache replaces its entry, and a file not named goes after these.
_TYPICAL_SECONDS = {
    "tests/safety/test_guard_corpus.py": 24, "tests/docs/test_transcripts.py": 21,
    "tests/docs/test_python_examples.py": 14, "tests/safety/test_safety_benchmark_cli.py": 13,
    "tests/checks/test_fail_closed.py": 5, "tests/docs/test_wheel_install.py": 11,
    "tests/console/test_cli_properties.py": 11, "tests/checks/test_peer_hosting.py": 10,
    "tests/safety/test_safety_benchmark.py": 7, "tests/safety/test_safety_endless_files.py": 7,
    "tests/checks/test_doctor_hook_runs.py": 7, "tests/generator/test_resident.py": 6,
    "tests/runtime/test_typecheck.py": 5, "tests/runtime/test_plugin_proxy.py": 5,
    "tests/runtime/test_opencode_plugin.py": 4, "tests/runtime/test_kilo_plugin.py": 4,
}


# Files whose tests share an expensive session fixture go to one worker, as one file would: the
# guard rendered for every CLI in a sandbox of its own (tests/safety/conftest.py, `hookwrap init`
# and `add` as processes) was otherwise made on each worker that ran one of these.
_SAME_WORKER = {
    "tests/safety/test_guard_file_tools.py": "tests/safety/test_guard_corpus.py",
    "tests/safety/test_guard_heldout.py": "tests/safety/test_guard_corpus.py",
}


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadfile`, with the files of _SAME_WORKER in the scope of the file they name."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class _SharedFixtureScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return _SAME_WORKER.get(path, path)

    return _SharedFixtureScheduling(config, log)  # type: ignore[arg-type]


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without xdist
def pytest_configure_node(node: object) -> None:
    config = node.config  # type: ignore[attr-defined]
    cache = getattr(config, "cache", None)  # none under -p no:cacheprovider
    known = cache.get(_FILE_TIMES, {}) if cache else {}
    node.workerinput[_FILE_TIMES] = {  # type: ignore[attr-defined]
        **_TYPICAL_SECONDS, **(known if isinstance(known, dict) else {})}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):
        return  # not an xdist worker: xdist's controller takes the order of its workers' collection
    known: dict[str, float] = config.workerinput.get(_FILE_TIMES, {})
    counts: dict[str, int] = {}
    for item in items:
        counts[item.nodeid.split("::")[0]] = counts.get(item.nodeid.split("::")[0], 0) + 1

    def cost(item: pytest.Item) -> tuple[float, int]:
        path = item.nodeid.split("::")[0]
        return (-known.get(path, 0.0), -counts[path])

    items.sort(key=cost)  # stable: a file's tests keep their order


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = report.nodeid.split("::")[0]
    _RUN_TIMES[path] = _RUN_TIMES.get(path, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput") or not getattr(session.config, "cache", None) \
            or not _RUN_TIMES:
        return  # an xdist worker: its controller, which sees every report, keeps the times
    known = session.config.cache.get(_FILE_TIMES, {})
    known.update({path: round(seconds, 2) for path, seconds in _RUN_TIMES.items()})
    session.config.cache.set(_FILE_TIMES, known)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without xdist
def pytest_testnodedown(node: object, error: object) -> None:
    output = getattr(node, "workeroutput", {})
    _WORKER_RUNS.extend((str(name), float(t)) for name, t in output.get("hookwrap_e2e_run_times", ()))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per CLI: how many runs and how long they took."""
    harness = sys.modules.get("e2e.harness")
    runs = [*_WORKER_RUNS, *(getattr(harness, "RUN_TIMES", []) if harness else [])]
    for name in dict.fromkeys(cli for cli, _ in runs):
        times = [t for cli, t in runs if cli == name]
        terminalreporter.write_line(
            f"e2e {name}: {len(times)} runs, {sum(times):.1f}s total, "
            f"{sum(times) / len(times):.1f}s mean, {max(times):.1f}s max")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def check_golden(update_golden: bool) -> Callable[[str, str], None]:
    """Compare text with tests/golden/<rel> byte for byte, or rewrite it with --update-golden."""

    def check(rel: str, text: str) -> None:
        golden.check_golden(rel, text, update=update_golden)

    return check


@pytest.fixture(scope="session", autouse=True)
def _project_templates(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Initialised-project templates (support.projects) go under this session's temp dir."""
    projects.set_template_dir(tmp_path_factory.mktemp("templates"))


@pytest.fixture(scope="session")
def interpreter_folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Where the `python3` on PATH really lives, when it is a version manager's shim, else "".

    Tests put it first on PATH, as `hookwrap doctor` advises: the hooks they run then skip the
    shim's ~50 ms, and doctor's python-shim check is ok unless a test sets up a shim itself.
    When that interpreter's site-packages run code at start-up (a ``.pth`` line that imports:
    some machines add one that imports certifi, ~20 ms per start, twice a bare hook's own
    cost), the folder is that of a venv of the same interpreter that sees the same packages
    but runs none of that code (``_without_startup_code``)."""
    from hookwrap.checks.shims import find_shim

    shim = find_shim("python3")
    if not (shim and shim.target):
        return ""
    return _without_startup_code(shim.target, tmp_path_factory.mktemp("python3"))


def _without_startup_code(python: str, where: Path) -> str:
    """``python``'s folder, or, when a ``.pth`` file of its site-packages runs code, the bin
    folder of a venv at ``where`` made from it (no pip: nothing is installed into it) whose
    one ``.pth`` file lists those site-packages: the same interpreter and the same importable
    packages (hookwrap is not among them unless it is installed there), without the imports."""
    import subprocess

    def site_packages(interpreter: str) -> list[str]:
        done = subprocess.run([interpreter, "-S", "-c",
                               "import site; print('\\n'.join(site.getsitepackages()))"],
                              capture_output=True, text=True, timeout=60, check=True)
        return [line for line in done.stdout.splitlines() if os.path.isdir(line)]

    sites = site_packages(python)
    runs_code = any(line.startswith(("import ", "import\t"))
                    for folder in sites for pth in sorted(Path(folder).glob("*.pth"))
                    for line in pth.read_text(encoding="utf-8", errors="replace").splitlines())
    if not runs_code:
        return os.path.dirname(python)
    subprocess.run([python, "-m", "venv", "--without-pip", str(where)], capture_output=True,
                   timeout=120, check=True)
    venv_python = str(where / "bin" / "python3")
    (Path(site_packages(venv_python)[0]) / "_base_site_packages.pth").write_text(
        "".join(f"{folder}\n" for folder in sites), encoding="utf-8")
    return os.path.dirname(venv_python)


# Each test's HOME and tmp_path are made in a folder of their own, with a random suffix:
# pytest's ``mktemp`` numbers a new folder by listing every folder beside it, and the run's temp
# folder would gain two a test (O(n²): ~2 ms a test by the end of a worker's 2,400).

@pytest.fixture(scope="session")
def _homes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("homes")


@pytest.fixture(scope="session")
def _test_dirs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tests")


_PASSED = pytest.StashKey[dict[str, bool]]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    item.stash.setdefault(_PASSED, {})[report.when] = report.passed
    return report


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, _test_dirs: Path) -> Iterator[Path]:
    """pytest's ``tmp_path``, made in ``_test_dirs`` in O(1): a new empty folder named after the
    test, removed after it when it passed and ``tmp_path_retention_policy`` is "failed", as
    pytest's own does (pyproject.toml: a run keeps only what a failed test left)."""
    name = re.sub(r"[\W]", "_", request.node.name)[:30]
    path = Path(tempfile.mkdtemp(prefix=name, dir=_test_dirs))
    yield path
    policy = request.config.getini("tmp_path_retention_policy")
    passed = request.node.stash.get(_PASSED, {})
    if policy == "none" or (policy == "failed" and passed.get("setup") and passed.get("call")):
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(autouse=True)
def isolated_home(_homes: Path, monkeypatch: pytest.MonkeyPatch, interpreter_folder: str) -> Path:
    """Point HOME (and the CLIs' own home overrides) at an empty temp dir for every test."""
    home = Path(tempfile.mkdtemp(prefix="home", dir=_homes))
    if interpreter_folder:
        monkeypatch.setenv("PATH", os.pathsep.join([interpreter_folder, os.environ.get("PATH", "")]))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("HOOKWRAP_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("GEMINI_PROJECT_DIR", raising=False)
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE", raising=False)
    for var in ("QWEN_HOME", "QWEN_PROJECT_DIR", "QWEN_CODE_TRUSTED_FOLDERS_PATH", "COPILOT_HOME",
                "GEMINI_CLI_TRUSTED_FOLDERS_PATH", "GEMINI_RESTRICTED_MODE",
                "COPILOT_PROJECT_DIR", "COPILOT_ALLOW_ALL",
                # `hookwrap --user` writes under the config folder: the throwaway HOME's
                "XDG_CONFIG_HOME", "PI_CODING_AGENT_DIR", "APPDATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    # A pytest that a test starts (a stop_gate's check, `python3 -m pytest -q` by default) loads
    # no plugin from an entry point: the test environment's hypothesis, xdist and benchmark
    # plugins cost ~0.7 s of start-up per run and change none of pytest's exit codes or output
    # that a stop_gate reads. (It is read when pytest starts: this run's plugins are loaded.)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return home


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A loopback port bound and never listening, held until the test ends: a connection to it is
    refused at once, and no other test's listener can take it meanwhile (a port let go at once
    was taken by one under xdist, and a "nothing listens" call then waited out its timeout)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield int(holder.getsockname()[1])
