"""The one harness of the end-to-end tests: each real CLI run headless in a temp project against a
loopback mock model.

* ``BINARIES`` is one table, one row per CLI: where ``.ci/install-clis.sh`` puts its binary in
  the CLI cache (``$HOOKWRAP_<NAME>_BIN`` overrides it), the version the tests were written
  against, and what its ``--version`` run needs. ``find_binary(name)`` reads it (once per
  process) and says why a CLI is unusable.
* ``Agent`` is a CLI under test: its binary, its mock model server and the test's ``Sandbox``.
  A CLI is a subclass that gives its tool calls (``shell``, ``write_file``), its command line
  (``command``), its environment (``env``), how to read its stdout (``parse_events``), its mock
  (``mock``) and its result type (``result_type``); ``prepare`` does what a CLI needs before each
  run (Codex CLI writes its config.toml). ``Agent.run`` is the one run of every CLI.
* ``agents.py`` lists the CLIs (``AGENTS``) and starts one for a fixture (``start_agent``);
  conftest.py makes a fixture of each.

Each run gets a clean environment (nothing inherited but what is listed here), its own HOME, the
offline settings from the e2e recipe, and a model server on 127.0.0.1. The result carries the exit
code, both output streams, every request the model received, and which hook scripts were started.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from hookwrap.generator.pins import PINS

from . import mock_anthropic, mock_gemini
from .mock_anthropic import AnthropicMock
from .mock_gemini import GeminiMock
from .mockmodel import Recorded, ScriptedModelServer, Step, ToolCall

CLAUDE_VERSION = PINS["claude"].version
GEMINI_VERSION = PINS["gemini"].version
PROBE_DIR = Path(__file__).resolve().parent / "probe"
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
# Captured when this module is imported, before any fixture points HOME at a temp dir.
REAL_HOME = Path(os.environ.get("HOME") or os.path.expanduser("~"))
DEFAULT_TIMEOUT = 90.0
# (agent, seconds) of every CLI run in this session, for the timing line at the end of a test run.
RUN_TIMES: list[tuple[str, float]] = []

GEMINI_USER_SETTINGS: dict[str, Any] = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}


# Finding the binaries --------------------------------------------------------------------------


def cli_cache_dir() -> Path:
    """Where ``.ci/install-clis.sh`` puts the CLIs: ``$HOOKWRAP_CLI_CACHE`` or ``~/.cache/hookwrap-clis``."""
    env = os.environ.get("HOOKWRAP_CLI_CACHE")
    return Path(env) if env else REAL_HOME / ".cache" / "hookwrap-clis"


def copilot_pkg_cache() -> Path:
    """The shared unpack dir for Copilot's runtime (``COPILOT_PKG_CACHE_HOME``)."""
    env = os.environ.get("HOOKWRAP_COPILOT_PKG_CACHE")
    return Path(env) if env else cli_cache_dir() / "copilot" / "pkg-cache"


@dataclass(frozen=True)
class Binary:
    """One CLI's binary: its place in the CLI cache and what its ``--version`` run needs."""

    name: str
    version: str                 # the release the tests were written against (generator/pins.txt)
    cache_path: str              # relative to the CLI cache
    version_env: dict[str, str] = field(default_factory=dict)  # beside PATH, HOME and the XDG dirs
    version_timeout: float = 60.0
    needs_node: bool = False     # a node script: unusable without node on PATH

    @property
    def env_var(self) -> str:
        return f"HOOKWRAP_{self.name.upper().replace('-', '_')}_BIN"

    def path(self) -> Path:
        override = os.environ.get(self.env_var)
        return Path(override) if override else cli_cache_dir() / self.cache_path


BINARIES: dict[str, Binary] = {b.name: b for b in (
    Binary("claude", CLAUDE_VERSION, "node_modules/.bin/claude", {"DISABLE_AUTOUPDATER": "1"}),
    Binary("gemini", GEMINI_VERSION, "node_modules/.bin/gemini", {"GEMINI_CLI_NO_RELAUNCH": "true"},
           needs_node=True),
    Binary("codex", PINS["codex"].version, "node_modules/.bin/codex"),
    Binary("qwen", PINS["qwen"].version, "qwen/node_modules/.bin/qwen",
           {"QWEN_CODE_NO_RELAUNCH": "true"}),
    # Copilot's first start unpacks its 235 MB runtime into the shared package cache: allow for that.
    Binary("copilot", PINS["copilot"].version, "copilot/node_modules/.bin/copilot",
           {"COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false"}, version_timeout=180.0),
    Binary("opencode", PINS["opencode"].version, "opencode/node_modules/.bin/opencode",
           {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "npm_config_offline": "true"}),
    # The platform package alone: it holds the Bun binary (the npm wrapper only picks one).
    Binary("droid", PINS["droid"].version, "droid/node_modules/@factory/cli-linux-x64/bin/droid",
           {"FACTORY_DISABLE_KEYRING": "1"}),
    # Plain JS on node; it prints its version on stderr.
    Binary("pi", PINS["pi"].version, "pi/node_modules/.bin/pi",
           {"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1", "PI_TELEMETRY": "0"}, needs_node=True),
    # The platform package alone: the 7.8.1 wrapper finds no binary on npm.
    Binary("kilo", PINS["kilo"].version, "kilo/node_modules/@kilocode/cli-linux-x64/bin/kilo",
           {"KILO_NO_DAEMON": "1", "KILO_DISABLE_AUTOUPDATE": "1", "KILO_TELEMETRY_LEVEL": "off"}),
    # The Bun binary itself (the npm package's bin/cline is a node wrapper that starts it).
    Binary("cline", PINS["cline"].version, "cline/node_modules/@cline/cli-linux-x64/bin/cline",
           {"CLINE_SESSION_BACKEND_MODE": "local", "CLINE_NO_AUTO_UPDATE": "1"}),
)}


@cache
def find_binary(name: str) -> tuple[Path | None, str]:
    """The binary of CLI ``name`` (a row of ``BINARIES``) and the first line its ``--version``
    printed, or None and why it is unusable. Looked up once per process; a version other than
    the pinned one is a warning (the tests run it: it was asked for by ``$HOOKWRAP_<NAME>_BIN``)."""
    row = BINARIES[name]
    path = row.path()
    if not path.exists():
        where = f"${row.env_var}" if os.environ.get(row.env_var) else "the CLI cache"
        return None, (f"{name} not found at {path} ({where}); run .ci/install-clis.sh {name} or set "
                      f"${row.env_var}")
    if row.needs_node and shutil.which("node", path=_default_path()) is None:
        return None, f"{name} needs node on PATH"
    with tempfile.TemporaryDirectory(prefix="hw-e2e-version-") as home:
        env = {"PATH": _default_path(), "HOME": home, **xdg_dirs(Path(home)),
               "COPILOT_PKG_CACHE_HOME": str(copilot_pkg_cache()), **row.version_env}
        try:
            proc = subprocess.run([str(path), "--version"], capture_output=True, text=True, check=False,
                                  timeout=row.version_timeout, env=env, stdin=subprocess.DEVNULL, cwd=home)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"{name} at {path} does not run: {exc}"
    text = (proc.stdout.strip() or proc.stderr.strip()).splitlines()
    if proc.returncode != 0 or not text:
        return None, f"{name} at {path} --version exited {proc.returncode}: {proc.stderr.strip()[:200]}"
    if row.version not in text[0]:
        warnings.warn(f"e2e: {name} is {text[0]!r}, these tests were written against {row.version}",
                      stacklevel=1)
    return path, text[0]


def find_cli(name: str) -> tuple[Path | None, str]:
    """``find_binary`` under its old name."""
    return find_binary(name)


def xdg_dirs(home: Path) -> dict[str, str]:
    """The XDG base dirs inside ``home``."""
    return {"XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".local" / "state")}


def _default_path() -> str:
    return os.pathsep.join(_dedupe([*_node_dirs(), *SYSTEM_PATH]))


def _node_dirs() -> list[str]:
    node = shutil.which("node")
    return [str(Path(node).parent)] if node else []


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def hook_python() -> Path:
    """The interpreter hooks get as ``python3``: ``$HOOKWRAP_E2E_PYTHON``, else a system python3 >= 3.11.

    A system interpreter is what a teammate who only cloned the repo has: hookwrap is not installed
    there, so the hooks must live on the runtime copied into the repo. The interpreter running the
    tests is the fallback; the probe hides its installed hookwrap from the hooks either way.
    """
    env = os.environ.get("HOOKWRAP_E2E_PYTHON")
    candidates = [env] if env else [shutil.which("python3", path=os.pathsep.join(SYSTEM_PATH)), sys.executable]
    for candidate in filter(None, candidates):
        try:
            proc = subprocess.run([candidate, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                                  capture_output=True, text=True, timeout=30, env={"PATH": _default_path()})
        except OSError:
            continue
        if proc.stdout.strip() == "True":
            return Path(candidate)
    return Path(sys.executable)


def installed_hookwrap_paths() -> list[str]:
    """The ``sys.path`` entry through which the test interpreter imports hookwrap.

    For an editable install that is the source dir; for a regular one, site-packages itself, which
    is fine to hide too: the hooks must run on the standard library and the repo's own runtime.
    """
    spec = importlib.util.find_spec("hookwrap")
    if spec is None or not spec.origin:
        return []
    return [str(Path(spec.origin).resolve().parent.parent)]


# One sandbox per test --------------------------------------------------------------------------


@dataclass
class Sandbox:
    """A short temp dir holding the run's HOME, TMPDIR and runtime dir (Claude's socket path ≤ 103 bytes)."""

    root: Path
    python: Path
    hide_paths: list[str]

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @property
    def run_dir(self) -> Path:
        return self.root / "run"

    @property
    def probe_log(self) -> Path:
        return self.root / "probe.jsonl"

    @property
    def bin_dir(self) -> Path:
        return self.root / "bin"

    def create(self) -> Sandbox:
        for d in (self.home, self.tmp, self.run_dir, self.bin_dir):
            d.mkdir(parents=True, exist_ok=True)
        (self.bin_dir / "python3").symlink_to(self.python)
        return self

    def env(self) -> dict[str, str]:
        """The environment every run starts from: nothing of the caller's leaks in."""
        path = _dedupe([str(self.bin_dir), *_node_dirs(), *SYSTEM_PATH])
        return {
            "PATH": os.pathsep.join(path),
            "HOME": str(self.home),
            "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "NO_COLOR": "1",
            "PYTHONPATH": str(PROBE_DIR),
            "HOOKWRAP_E2E_PROBE_LOG": str(self.probe_log),
            "HOOKWRAP_E2E_HIDE_PATHS": os.pathsep.join(self.hide_paths),
        }

    def hook_runs(self) -> list[HookRun]:
        if not self.probe_log.exists():
            return []
        runs = []
        for line in self.probe_log.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            runs.append(HookRun(argv=rec["argv"], cwd=rec["cwd"], pid=rec["pid"]))
        return runs


@dataclass(frozen=True)
class HookRun:
    """One python script a CLI started during the run (from the probe log)."""

    argv: list[str]
    cwd: str
    pid: int

    @property
    def script(self) -> str:
        """The hook script: argv[0], or for the launcher (``.hookwrap/lib/run.py <name>``) the
        script it runs, ``.hookwrap/hooks/<name>.py``."""
        first = Path(self.argv[0])
        if first.name == "run.py" and first.parent.name == "lib" and len(self.argv) > 1:
            return str(first.parent.parent / "hooks" / f"{self.argv[1]}.py")
        return self.argv[0]

    @property
    def name(self) -> str:
        return Path(self.script).stem

    @property
    def platform(self) -> str | None:
        if "--platform" in self.argv[:-1]:
            return self.argv[self.argv.index("--platform") + 1]
        return None


# Results -----------------------------------------------------------------------------------------


@dataclass
class RunResult:
    """What one headless run did, as seen from outside the CLI."""

    agent: str
    command: list[str]
    project: Path
    rc: int
    stdout: str
    stderr: str
    duration: float
    all_requests: list[Recorded]
    hook_runs: list[HookRun]
    events: list[dict[str, Any]] = field(default_factory=list)
    started: float = 0.0  # time.monotonic() at launch, to place the requests in time

    @property
    def requests(self) -> list[Recorded]:
        """The model calls answered from the script, in order."""
        return [r for r in self.all_requests if r.step is not None]

    def conversation(self, index: int = -1) -> str:
        """Text of the conversation carried by one model request (default: the last one)."""
        reader = mock_anthropic if self.agent == "claude" else mock_gemini
        return reader.conversation_text(self.requests[index].body)

    def tool_results(self) -> list[dict[str, Any]]:
        """Tool results the model got back ({text, is_error}), oldest first, from the last request."""
        if not self.requests:
            return []
        reader = mock_anthropic if self.agent == "claude" else mock_gemini
        return reader.tool_results(self.requests[-1].body)

    @property
    def hooks(self) -> list[tuple[str, str | None]]:
        """(file stem, ``--platform`` value) of every python script started during the run, in order:
        the hook scripts, and any script a tool call ran."""
        return [(r.name, r.platform) for r in self.hook_runs]

    def hook_events(self, subtype: str = "hook_response") -> list[dict[str, Any]]:
        """Claude only: ``hook_started`` / ``hook_response`` events from ``--include-hook-events``."""
        return [e for e in self.events if e.get("type") == "system" and e.get("subtype") == subtype]

    def failed_hooks(self) -> list[dict[str, Any]]:
        """Claude only: hook runs that did not exit 0 with valid output (Gemini reports none headless)."""
        return [e for e in self.hook_events() if e.get("exit_code") != 0 or e.get("outcome") != "success"]

    @property
    def final_text(self) -> str:
        """The agent's final answer as the CLI printed it."""
        for event in reversed(self.events):
            if self.agent == "claude" and event.get("type") == "result":
                return str(event.get("result") or "")
            if self.agent == "gemini" and "response" in event:
                return str(event.get("response") or "")
        return ""

    def details(self) -> list[str]:
        """Lines only this CLI's results have, for ``describe`` (Codex: its ``hook:`` lines)."""
        return []

    def describe(self) -> str:
        """A summary for assertion messages: the command, each request the mock got, the hooks
        that ran, the tool results, the final answer and the tails of both output streams."""
        lines = [f"{self.agent} rc={self.rc} in {self.duration:.1f}s: {' '.join(self.command[1:4])} ... "
                 f"(cwd {str(self.project)!r})"]
        for i, r in enumerate(self.all_requests):
            lines.append(f"  request {i} at {r.received_at - self.started:.1f}s: {r.method} {r.path} "
                         f"status={r.status} turn={r.turn} -> {r.step}")
        lines.append(f"  hooks run: {[(h.name, h.platform or ' '.join(h.argv[1:])) for h in self.hook_runs]}")
        lines.extend(f"  {line}" for line in self.details())
        for tr in self.tool_results():
            label = f"error={tr['is_error']}" if tr.get("is_error") is not None else tr.get("name")
            lines.append(f"  tool result ({label}): {tr['text'][:300]!r}")
        lines.append(f"  final: {self.final_text[:300]!r}")
        lines.append(f"  stdout: {_tail(self.stdout, 800)}")
        lines.append(f"  stderr: {_tail(self.stderr)}")
        return "\n".join(lines)


def _tail(text: str, limit: int = 1500) -> str:
    return text if len(text) <= limit else "..." + text[-limit:]


# Agents ------------------------------------------------------------------------------------------


class Agent:
    """A CLI under test: its binary, its mock model server and the test's sandbox.

    A CLI's subclass sets ``name`` (its row in ``BINARIES``), the tool names hooks see, the file
    hookwrap registers it in, its ``mock`` and ``result_type``, and gives ``shell``,
    ``write_file``, ``command``, ``env`` and ``parse_events``; ``run`` is shared.
    """

    name = ""
    shell_tool = ""
    write_tool = ""
    settings_file = ""
    #: Makes the (not yet started) mock model server this CLI talks to.
    mock: ClassVar[Callable[[], ScriptedModelServer]]
    result_type: ClassVar[type[RunResult]] = RunResult
    timeout: float = DEFAULT_TIMEOUT  # per run, unless the test gives one

    def __init__(self, binary: Path, server: ScriptedModelServer, sandbox: Sandbox, version: str = "") -> None:
        self.binary = binary
        self.server = server
        self.sandbox = sandbox
        self.version = version

    @classmethod
    def start(cls, binary: Path, sandbox: Sandbox, version: str = "") -> Agent:
        """The agent with its mock model server started (``stop`` stops it)."""
        return cls(binary, cls.mock().start(), sandbox, version)

    def stop(self) -> None:
        self.server.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.version}>"

    def shell(self, command: str) -> ToolCall:
        """The model's shell tool call running ``command``."""
        raise NotImplementedError

    def write_file(self, path: str, content: str) -> ToolCall:
        """The model's write tool call."""
        raise NotImplementedError

    def settings_path(self, project: Path) -> Path:
        return project / self.settings_file

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        """The command line of one headless run."""
        raise NotImplementedError

    def env(self) -> dict[str, str]:
        """The whole environment of a run (``sandbox_env`` plus the CLI's own variables)."""
        raise NotImplementedError

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        """The CLI's structured output (``RunResult.events``)."""
        raise NotImplementedError

    def prepare(self, project: Path) -> None:
        """What this CLI needs before each run (nothing by default)."""

    def sandbox_env(self) -> dict[str, str]:
        """The sandbox's clean environment plus the XDG dirs inside the sandbox."""
        return {
            **self.sandbox.env(),
            **xdg_dirs(self.sandbox.home),
            "XDG_RUNTIME_DIR": str(self.sandbox.run_dir),
            "GIT_CONFIG_NOSYSTEM": "1",
        }

    def run(self, project: Path, steps: list[Step], *, prompt: str = "Please do the task.",
            final: str = "Done.", extra_args: tuple[str, ...] = (), env: dict[str, str] | None = None,
            timeout: float | None = None, **options: Any) -> Any:
        """Run the CLI once, headless, from ``project`` with the model following ``steps``; a
        ``result_type``. ``options`` go to ``prepare`` (Codex CLI: ``trust``, ``root``)."""
        self.prepare(project, **options)
        self.server.script(steps, final=final)
        self.sandbox.probe_log.unlink(missing_ok=True)
        cmd = self.command(prompt, extra_args)
        full_env = {**self.env(), **(env or {})}
        start = time.monotonic()
        rc, out, err = _run(cmd, cwd=project, env=full_env, timeout=timeout or self.timeout)
        duration = time.monotonic() - start
        RUN_TIMES.append((self.name, duration))
        return self.result_type(self.name, cmd, project, rc, out, err, duration, self.server.requests,
                                self.sandbox.hook_runs(), self.parse_events(out), start)


def json_lines(stdout: str) -> list[dict[str, Any]]:
    """The JSON objects of ``stdout``, one a line (other lines skipped)."""
    events = []
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                events.append(json.loads(line))
            except ValueError:
                pass
    return events


def json_document(stdout: str, opening: str = "{") -> list[dict[str, Any]]:
    """The one JSON document ``stdout`` holds from its first ``opening`` on: an object (as a
    list of one) or an array of objects."""
    start = stdout.find(opening)
    if start < 0:
        return []
    try:
        data = json.loads(stdout[start:])
    except ValueError:
        return []
    items = data if isinstance(data, list) else [data]
    return [item for item in items if isinstance(item, dict)]


# Claude Code and Gemini CLI ------------------------------------------------------------------------


class Claude(Agent):
    """Claude Code: ``claude -p … --output-format stream-json``, against the Anthropic mock."""

    name = "claude"
    shell_tool = "Bash"
    write_tool = "Write"
    settings_file = ".claude/settings.json"
    mock = AnthropicMock

    def shell(self, command: str) -> ToolCall:
        return ToolCall("Bash", {"command": command, "description": "Run the command"})

    def write_file(self, path: str, content: str) -> ToolCall:
        return ToolCall("Write", {"file_path": path, "content": content})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        return [str(self.binary), "-p", prompt, "--output-format", "stream-json", "--verbose",
                "--include-hook-events", "--permission-mode", "bypassPermissions", *extra_args]

    def env(self) -> dict[str, str]:
        return {
            **self.sandbox.env(),
            "ANTHROPIC_BASE_URL": self.server.url,
            "ANTHROPIC_API_KEY": "sk-ant-e2e-mock",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_TMPDIR": str(self.sandbox.tmp),
            "XDG_RUNTIME_DIR": str(self.sandbox.run_dir),
            "IS_SANDBOX": "1",  # bypassPermissions is refused to root otherwise
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        return json_lines(stdout)


class Gemini(Agent):
    """Gemini CLI: ``gemini -p … --yolo -o json``, against the Gemini API mock."""

    name = "gemini"
    shell_tool = "run_shell_command"
    write_tool = "write_file"
    settings_file = ".gemini/settings.json"
    mock = GeminiMock

    def shell(self, command: str) -> ToolCall:
        return ToolCall("run_shell_command", {"command": command})

    def write_file(self, path: str, content: str) -> ToolCall:
        return ToolCall("write_file", {"file_path": path, "content": content})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        return [str(self.binary), "-p", prompt, "--yolo", "-m", "gemini-2.5-flash", "-o", "json", *extra_args]

    def env(self) -> dict[str, str]:
        settings = self.sandbox.home / ".gemini" / "settings.json"
        if not settings.exists():
            settings.parent.mkdir(parents=True, exist_ok=True)
            settings.write_text(json.dumps(GEMINI_USER_SETTINGS, indent=2) + "\n", encoding="utf-8")
        return {
            **self.sandbox.env(),
            "GEMINI_CLI_HOME": str(self.sandbox.home),
            "GEMINI_API_KEY": "gemini-e2e-mock",
            "GOOGLE_GEMINI_BASE_URL": self.server.url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",  # project hooks are dropped in an untrusted folder
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        return json_document(stdout)


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float) -> tuple[int, str, str]:
    """Run in a new session so a timeout kills the CLI and every hook it started, and only those."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"{Path(cmd[0]).name} did not finish within {timeout:.0f}s\n"
                             f"stdout: {_tail(out)}\nstderr: {_tail(err)}") from None
    return proc.returncode, out, err
