"""Run the real Claude Code / Gemini CLI headless in a temp project against a loopback mock model.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import mock_anthropic, mock_gemini
from .mock_anthropic import AnthropicMock
from .mock_gemini import GeminiMock
from .mockmodel import Recorded, ScriptedModelServer, Step, ToolCall

CLAUDE_VERSION = "2.1.328"
GEMINI_VERSION = "0.61.0"
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


def find_cli(name: str) -> tuple[Path | None, str]:
    """The binary for ``claude`` or ``gemini`` and its version, or None and why it is unusable."""
    var = f"HOOKWRAP_{name.upper()}_BIN"
    override = os.environ.get(var)
    path = Path(override) if override else cli_cache_dir() / "node_modules" / ".bin" / name
    if not path.exists():
        where = f"${var}" if override else "the CLI cache"
        return None, f"{name} not found at {path} ({where}); run .ci/install-clis.sh or set ${var}"
    if name == "gemini" and shutil.which("node", path=_default_path()) is None:
        return None, "gemini needs node on PATH"
    try:
        with tempfile.TemporaryDirectory(prefix="hw-e2e-version-") as home:
            proc = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=60,
                                  env={"PATH": _default_path(), "HOME": home, "GEMINI_CLI_NO_RELAUNCH": "true",
                                       "DISABLE_AUTOUPDATER": "1"}, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{name} at {path} does not run: {exc}"
    if proc.returncode != 0:
        return None, f"{name} at {path} --version exited {proc.returncode}: {proc.stderr.strip()[:200]}"
    return path, proc.stdout.strip()


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

    def describe(self) -> str:
        """A summary for assertion messages."""
        lines = [f"{self.agent} rc={self.rc} in {self.duration:.1f}s: {' '.join(self.command[1:4])} ..."]
        for i, r in enumerate(self.all_requests):
            lines.append(f"  request {i} at {r.received_at - self.started:.1f}s: {r.method} {r.path} "
                         f"status={r.status} turn={r.turn} -> {r.step}")
        lines.append(f"  hooks run: {[(h.name, h.platform) for h in self.hook_runs]}")
        for tr in self.tool_results():
            lines.append(f"  tool result (error={tr['is_error']}): {tr['text'][:300]!r}")
        lines.append(f"  final: {self.final_text[:300]!r}")
        lines.append(f"  stderr: {_tail(self.stderr)}")
        return "\n".join(lines)


def _tail(text: str, limit: int = 1500) -> str:
    return text if len(text) <= limit else "..." + text[-limit:]


# The two CLIs ------------------------------------------------------------------------------------


class Agent:
    """A CLI under test: its binary, its mock model and its sandbox."""

    name = ""
    shell_tool = ""
    write_tool = ""
    settings_file = ""

    def __init__(self, binary: Path, server: ScriptedModelServer, sandbox: Sandbox, version: str = "") -> None:
        self.binary = binary
        self.server = server
        self.sandbox = sandbox
        self.version = version

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
        raise NotImplementedError

    def env(self) -> dict[str, str]:
        raise NotImplementedError

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        raise NotImplementedError

    def run(self, project: Path, steps: list[Step], *, prompt: str = "Please do the task.",
            final: str = "Done.", extra_args: tuple[str, ...] = (), env: dict[str, str] | None = None,
            timeout: float = DEFAULT_TIMEOUT) -> RunResult:
        """Run the CLI once, headless, from ``project`` with the model following ``steps``."""
        self.server.script(steps, final=final)
        self.sandbox.probe_log.unlink(missing_ok=True)
        cmd = self.command(prompt, extra_args)
        full_env = {**self.env(), **(env or {})}
        start = time.monotonic()
        rc, out, err = _run(cmd, cwd=project, env=full_env, timeout=timeout)
        duration = time.monotonic() - start
        RUN_TIMES.append((self.name, duration))
        return RunResult(self.name, cmd, project, rc, out, err, duration, self.server.requests,
                         self.sandbox.hook_runs(), self.parse_events(out), start)


class Claude(Agent):
    name = "claude"
    shell_tool = "Bash"
    write_tool = "Write"
    settings_file = ".claude/settings.json"

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
        events = []
        for line in stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
        return events


class Gemini(Agent):
    name = "gemini"
    shell_tool = "run_shell_command"
    write_tool = "write_file"
    settings_file = ".gemini/settings.json"

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
        start = stdout.find("{")
        if start < 0:
            return []
        try:
            return [json.loads(stdout[start:])]
        except ValueError:
            return []


AGENTS: dict[str, tuple[type[Agent], type[ScriptedModelServer], str]] = {
    "claude": (Claude, AnthropicMock, CLAUDE_VERSION),
    "gemini": (Gemini, GeminiMock, GEMINI_VERSION),
}


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
