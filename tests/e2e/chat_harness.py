"""Run the real Qwen Code / GitHub Copilot CLI headless against the loopback chat-completions mock.

The same pattern as ``harness.py`` (Claude Code, Gemini CLI), for the CLIs that speak the OpenAI
chat-completions API:

* ``Qwen`` and ``Copilot`` are ``harness.Agent`` subclasses. Each run starts from the sandbox's clean
  environment (nothing of the caller's leaks in), with HOME, the XDG dirs and every config-dir
  variable the CLI honours inside the sandbox, and the model pointed at an ``OpenAIChatMock`` on
  127.0.0.1. ``agent.run(project, steps)`` returns a ``ChatRunResult``.
* ``agent.shell(cmd)`` / ``agent.write_file(path, text)`` build the model's tool calls with the
  CLI's own tool names and argument keys.
* ``agent.add_hook(project, event, command, matcher=...)`` registers a hook where the CLI reads
  project hooks (Qwen: ``.qwen/settings.json``; Copilot: ``.github/hooks/<file>.json``), merging
  with what is there. ``add_claude_hook`` writes ``.claude/settings.json`` (Copilot reads it too).
* ``make_project(parent, name)`` makes a ``git init``-ed project dir (names with spaces are fine).

Binaries come from ``.ci/install-clis.sh``: ``$HOOKWRAP_CLI_CACHE/qwen/node_modules/.bin/qwen`` and
``$HOOKWRAP_CLI_CACHE/copilot/node_modules/.bin/copilot`` (override with ``$HOOKWRAP_QWEN_BIN`` /
``$HOOKWRAP_COPILOT_BIN``). Copilot unpacks its 235 MB runtime on first start into
``$COPILOT_PKG_CACHE_HOME``; the runs share ``$HOOKWRAP_CLI_CACHE/copilot/pkg-cache`` (override
``$HOOKWRAP_COPILOT_PKG_CACHE``) instead of unpacking it into every temp HOME.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import mock_openai_chat as chat
from .harness import (
    DEFAULT_TIMEOUT,
    RUN_TIMES,
    Agent,
    RunResult,
    Sandbox,
    _default_path,
    _run,
    _tail,
    cli_cache_dir,
)
from .mock_openai_chat import OpenAIChatMock
from .mockmodel import Step, ToolCall

QWEN_VERSION = "0.24.4"
COPILOT_VERSION = "1.0.102"
MODEL = "gpt-4.1"  # Copilot wants a catalog id for its token limits; Qwen accepts any name


# Finding the binaries --------------------------------------------------------------------------


def chat_cli_path(name: str) -> Path:
    """Where the binary of ``qwen`` or ``copilot`` is expected (env override or the CLI cache)."""
    override = os.environ.get(f"HOOKWRAP_{name.upper()}_BIN")
    return Path(override) if override else cli_cache_dir() / name / "node_modules" / ".bin" / name


def copilot_pkg_cache() -> Path:
    """The shared unpack dir for Copilot's runtime (``COPILOT_PKG_CACHE_HOME``)."""
    env = os.environ.get("HOOKWRAP_COPILOT_PKG_CACHE")
    return Path(env) if env else cli_cache_dir() / "copilot" / "pkg-cache"


def find_chat_cli(name: str) -> tuple[Path | None, str]:
    """The binary for ``qwen`` or ``copilot`` and its ``--version`` text, or None and why it is unusable."""
    var = f"HOOKWRAP_{name.upper()}_BIN"
    path = chat_cli_path(name)
    if not path.exists():
        where = f"${var}" if os.environ.get(var) else "the CLI cache"
        return None, f"{name} not found at {path} ({where}); run .ci/install-clis.sh or set ${var}"
    with tempfile.TemporaryDirectory(prefix="hw-e2e-version-") as home:
        env = {"PATH": _default_path(), "HOME": home, "QWEN_CODE_NO_RELAUNCH": "true",
               "COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false",
               "COPILOT_PKG_CACHE_HOME": str(copilot_pkg_cache())}
        try:
            # Copilot's first start unpacks its runtime into the package cache: allow for that.
            proc = subprocess.run([str(path), "--version"], check=False, capture_output=True, text=True,
                                  timeout=180,
                                  env=env, stdin=subprocess.DEVNULL, cwd=home)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"{name} at {path} does not run: {exc}"
    if proc.returncode != 0:
        return None, f"{name} at {path} --version exited {proc.returncode}: {proc.stderr.strip()[:200]}"
    return path, proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else ""


# Projects --------------------------------------------------------------------------------------


def make_project(parent: Path, name: str = "proj", *, git: bool = True) -> Path:
    """A fresh project dir ``parent/name``, ``git init``-ed (no remote) unless ``git=False``."""
    path = parent / name
    path.mkdir(parents=True)
    if git:
        subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, capture_output=True,
                       env={"PATH": _default_path(), "HOME": str(parent), "GIT_CONFIG_NOSYSTEM": "1"})
    return path


def _merge_json(path: Path, update: dict[str, Any]) -> None:
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for event, entries in update.get("hooks", {}).items():
        data.setdefault("hooks", {}).setdefault(event, []).extend(entries)
    for key, value in update.items():
        if key != "hooks":
            data[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def claude_hook_group(command: str, matcher: str | None = None, timeout: int = 30) -> dict[str, Any]:
    """One Claude-style ``{matcher?, hooks: [{type: command, command, timeout}]}`` group."""
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
    if matcher is not None:
        group["matcher"] = matcher
    return group


# Results -----------------------------------------------------------------------------------------


@dataclass
class ChatRunResult(RunResult):
    """``RunResult`` reading chat-completions requests and the two CLIs' JSON output."""

    def conversation(self, index: int = -1, *, include_system: bool = False) -> str:
        """Text of the messages one scripted request carried (default: the last one)."""
        return chat.conversation_text(self.requests[index].body, include_system=include_system)

    def system_prompt(self, index: int = -1) -> str:
        return chat.system_text(self.requests[index].body)

    def user_messages(self, index: int = -1) -> list[str]:
        return chat.user_texts(self.requests[index].body)

    def tool_results(self) -> list[dict[str, Any]]:
        """``role: tool`` messages ({text, is_error: None, id, name}) of the last scripted request."""
        return chat.tool_results(self.requests[-1].body) if self.requests else []

    @property
    def final_text(self) -> str:
        """The agent's last answer as the CLI printed it (Qwen: ``result``; Copilot: last message)."""
        for event in reversed(self.events):
            if self.agent == "qwen" and event.get("type") == "result":
                return str(event.get("result") or "")
            if self.agent == "copilot" and event.get("type") == "assistant.message":
                return str((event.get("data") or {}).get("content") or "")
        return ""

    def describe(self) -> str:
        lines = [f"{self.agent} rc={self.rc} in {self.duration:.1f}s: cwd={str(self.project)!r}"]
        for i, r in enumerate(self.all_requests):
            lines.append(f"  request {i} at {r.received_at - self.started:.1f}s: {r.method} {r.path} "
                         f"status={r.status} turn={r.turn} -> {r.step}")
        lines.append(f"  hooks run: {[h.name for h in self.hook_runs]}")
        for tr in self.tool_results():
            lines.append(f"  tool result ({tr['name']}): {tr['text'][:300]!r}")
        if self.requests:
            lines.append(f"  last request's user messages: {[t[:200] for t in self.user_messages()]!r}")
        lines.append(f"  final: {self.final_text[:300]!r}")
        lines.append(f"  stdout: {_tail(self.stdout, 800)}")
        lines.append(f"  stderr: {_tail(self.stderr)}")
        return "\n".join(lines)


# The two CLIs ------------------------------------------------------------------------------------


class ChatAgent(Agent):
    """A CLI driven through ``OpenAIChatMock``. Subclasses set the tool names and the environment."""

    server: OpenAIChatMock

    def sandbox_env(self) -> dict[str, str]:
        """The sandbox's clean environment plus XDG dirs inside the sandbox."""
        home = self.sandbox.home
        return {
            **self.sandbox.env(),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            "XDG_RUNTIME_DIR": str(self.sandbox.run_dir),
            "GIT_CONFIG_NOSYSTEM": "1",
        }

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        """Register a command hook for ``event`` in the project; returns the file written."""
        raise NotImplementedError

    def add_claude_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                        timeout: int = 30) -> Path:
        """Register a hook in the project's ``.claude/settings.json`` (Claude Code's format)."""
        path = project / ".claude" / "settings.json"
        _merge_json(path, {"hooks": {event: [claude_hook_group(command, matcher, timeout)]}})
        return path

    def run(self, project: Path, steps: list[Step], *, prompt: str = "Please do the task.",
            final: str = "Done.", extra_args: tuple[str, ...] = (), env: dict[str, str] | None = None,
            timeout: float = DEFAULT_TIMEOUT) -> ChatRunResult:
        """Run the CLI once, headless, from ``project`` with the model following ``steps``."""
        self.server.script(steps, final=final)
        self.sandbox.probe_log.unlink(missing_ok=True)
        cmd = self.command(prompt, extra_args)
        full_env = {**self.env(), **(env or {})}
        start = time.monotonic()
        rc, out, err = _run(cmd, cwd=project, env=full_env, timeout=timeout)
        duration = time.monotonic() - start
        RUN_TIMES.append((self.name, duration))
        return ChatRunResult(self.name, cmd, project, rc, out, err, duration, self.server.requests,
                             self.sandbox.hook_runs(), self.parse_events(out), start)


QWEN_USER_SETTINGS: dict[str, Any] = {
    "security": {"auth": {"selectedType": "openai"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False},
}


class Qwen(ChatAgent):
    """Qwen Code: ``qwen -p … --approval-mode yolo -o json``; hooks in ``.qwen/settings.json``
    (Claude format and event names, Qwen tool names; folder trust is off by default)."""

    name = "qwen"
    shell_tool = "run_shell_command"
    write_tool = "write_file"
    settings_file = ".qwen/settings.json"
    project_dir_var = "QWEN_PROJECT_DIR"

    def shell(self, command: str) -> ToolCall:
        return ToolCall("run_shell_command", {"command": command})

    def write_file(self, path: str, content: str) -> ToolCall:
        return ToolCall("write_file", {"file_path": path, "content": content})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        # yolo: PreToolUse fires after the approval step, and headless default mode refuses the shell.
        return [str(self.binary), "-p", prompt, "--approval-mode", "yolo", "-o", "json", *extra_args]

    @property
    def qwen_home(self) -> Path:
        return self.sandbox.home / ".qwen"

    def env(self) -> dict[str, str]:
        settings = self.qwen_home / "settings.json"
        if not settings.exists():
            settings.parent.mkdir(parents=True, exist_ok=True)
            settings.write_text(json.dumps(QWEN_USER_SETTINGS, indent=2) + "\n", encoding="utf-8")
        nowhere = self.sandbox.root / "no-system-settings"
        return {
            **self.sandbox_env(),
            "QWEN_HOME": str(self.qwen_home),
            "QWEN_RUNTIME_DIR": str(self.sandbox.run_dir),
            # Keep /etc/qwen-code out of the run, and trust decisions inside the sandbox.
            "QWEN_CODE_SYSTEM_SETTINGS_PATH": str(nowhere / "settings.json"),
            "QWEN_CODE_SYSTEM_DEFAULTS_PATH": str(nowhere / "system-defaults.json"),
            "QWEN_CODE_TRUSTED_FOLDERS_PATH": str(self.qwen_home / "trustedFolders.json"),
            "OPENAI_API_KEY": "sk-e2e-mock",
            "OPENAI_BASE_URL": self.server.base_url,
            "OPENAI_MODEL": MODEL,
            "QWEN_CODE_NO_RELAUNCH": "true",  # saves ~2 s per run
            "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        """``-o json`` prints one JSON array of events (system, assistant, user, result)."""
        start = stdout.find("[")
        if start < 0:
            return []
        try:
            events = json.loads(stdout[start:])
        except ValueError:
            return []
        return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        """``.qwen/settings.json``: Claude event names, ``timeout`` in seconds; ``options`` go on the
        handler (``name``, ``env``, ``async`` …)."""
        group = claude_hook_group(command, matcher, timeout)
        group["hooks"][0].update(options)
        path = self.settings_path(project)
        _merge_json(path, {"hooks": {event: [group]}})
        return path


class Copilot(ChatAgent):
    """GitHub Copilot CLI in BYOK offline mode: ``copilot -p … --allow-all-tools --output-format json``;
    repo hooks in ``.github/hooks/*.json``, loaded only in a trusted folder (``COPILOT_ALLOW_ALL=true``)."""

    name = "copilot"
    shell_tool = "bash"
    write_tool = "create"
    settings_file = ".github/hooks/hooks.json"
    project_dir_var = "COPILOT_PROJECT_DIR"

    def shell(self, command: str) -> ToolCall:
        return ToolCall("bash", {"command": command, "description": "Run the command"})

    def write_file(self, path: str, content: str) -> ToolCall:
        return ToolCall("create", {"path": path, "file_text": content})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        return [str(self.binary), "-p", prompt, "--allow-all-tools", "--output-format", "json",
                "--no-auto-update", *extra_args]

    #: False: ``COPILOT_ALLOW_ALL=1`` (tools auto-approved, folder not trusted, repo hooks not loaded).
    trusted = True

    def env(self) -> dict[str, str]:
        return {
            **self.sandbox_env(),
            "COPILOT_HOME": str(self.sandbox.home / ".copilot"),
            "COPILOT_PKG_CACHE_HOME": str(copilot_pkg_cache()),
            "COPILOT_OFFLINE": "true",  # no GitHub auth, telemetry, web tools, MCP, auto-update
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_PROVIDER_BASE_URL": self.server.base_url,
            "COPILOT_PROVIDER_API_KEY": "sk-e2e-mock",
            "COPILOT_MODEL": MODEL,
            # Exactly "true" also trusts the cwd, which is what loads repo hooks in -p mode.
            "COPILOT_ALLOW_ALL": "true" if self.trusted else "1",
            "USE_TGREP": "false",
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        """``--output-format json`` prints JSONL session events, ending with ``{"type": "result"}``."""
        events = []
        for line in stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
        return events

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, file: str = "hooks.json", **options: Any) -> Path:
        """``.github/hooks/<file>``. The event name's case picks the dialect: camelCase
        (``preToolUse``) writes Copilot's flat ``{version: 1, hooks: {event: [{type, bash, timeoutSec}]}}``
        and gets Copilot payloads and tool names; PascalCase (``PreToolUse``) writes Claude's nested
        groups and gets Claude payloads and tool names (``Bash``)."""
        path = project / ".github" / "hooks" / file
        if event[:1].isupper():
            group = claude_hook_group(command, matcher, timeout)
            group["hooks"][0].update(options)
            _merge_json(path, {"hooks": {event: [group]}})
        else:
            action: dict[str, Any] = {"type": "command", "bash": command, "timeoutSec": timeout, **options}
            if matcher is not None:
                action["matcher"] = matcher
            _merge_json(path, {"version": 1, "hooks": {event: [action]}})
        return path


CHAT_AGENTS: dict[str, tuple[type[ChatAgent], type[OpenAIChatMock], str]] = {
    "qwen": (Qwen, OpenAIChatMock, QWEN_VERSION),
    "copilot": (Copilot, OpenAIChatMock, COPILOT_VERSION),
}


def new_agent(name: str, binary: Path, sandbox: Sandbox, version: str = "") -> ChatAgent:
    """A started mock plus the agent; stop it with ``agent.server.stop()``."""
    agent_cls, server_cls, _ = CHAT_AGENTS[name]
    return agent_cls(binary, server_cls().start(), sandbox, version)


# Raw hook scripts (no hookwrap involved) ---------------------------------------------------------

RAW_HOOK = '''\
"""Raw e2e hook: appends what it got to hooks/<label>.log, then answers as hooks/<label>.json says."""
import json, os, sys

label = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
stdin = sys.stdin.read()
log = os.path.join(here, label + ".log")
calls = 0
if os.path.exists(log):
    with open(log, encoding="utf-8") as f:
        calls = sum(1 for _ in f)
env = {k: v for k, v in os.environ.items() if k.endswith("_PROJECT_DIR") or k in ("COPILOT_HOOK_DIR", "COPILOT_CLI")}
with open(log, "a", encoding="utf-8") as f:
    f.write(json.dumps({"stdin": stdin, "argv": sys.argv[1:], "cwd": os.getcwd(), "env": env}) + "\\n")
with open(os.path.join(here, label + ".json"), encoding="utf-8") as f:
    spec = json.load(f)
if spec.get("times") is not None and calls >= spec["times"]:
    sys.exit(0)
out = spec.get("stdout")
if out is not None:
    sys.stdout.write(out if isinstance(out, str) else json.dumps(out))
if spec.get("stderr"):
    sys.stderr.write(spec["stderr"])
sys.exit(spec.get("exit", 0))
'''


@dataclass(frozen=True)
class RawHook:
    """A hand-written hook script in ``<project>/hooks/`` and what it logged.

    ``command(var)`` is the shell command that runs it, with the project dir taken from the
    environment variable ``var`` the CLI sets for hooks (quoted, so paths with spaces work).
    """

    project: Path
    label: str

    @property
    def log_path(self) -> Path:
        return self.project / "hooks" / f"{self.label}.log"

    def command(self, var: str) -> str:
        return f'python3 "${var}/hooks/raw_hook.py" {self.label}'

    def calls(self) -> list[dict[str, Any]]:
        """One entry per run: ``stdin`` (raw text), ``payload`` (parsed), ``cwd``, ``env``."""
        if not self.log_path.exists():
            return []
        out = []
        for line in self.log_path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            try:
                rec["payload"] = json.loads(rec["stdin"])
            except ValueError:
                rec["payload"] = None
            out.append(rec)
        return out

    def payloads(self) -> list[Any]:
        return [c["payload"] for c in self.calls()]


def raw_hook(project: Path, label: str, *, stdout: dict[str, Any] | str | None = None, stderr: str = "",
             exit: int = 0, times: int | None = None) -> RawHook:
    """Write ``hooks/raw_hook.py`` and the spec for ``label``: the hook logs its stdin, then prints
    ``stdout`` (a dict is dumped as JSON) and ``stderr`` and exits with ``exit`` — for its first
    ``times`` runs only (None: every run; later runs exit 0 silently)."""
    hooks = project / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "raw_hook.py").write_text(RAW_HOOK, encoding="utf-8")
    spec = {"stdout": stdout, "stderr": stderr, "exit": exit, "times": times}
    (hooks / f"{label}.json").write_text(json.dumps(spec), encoding="utf-8")
    return RawHook(project, label)
