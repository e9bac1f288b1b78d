"""Qwen Code and GitHub Copilot CLI for the one harness (``harness.py``), and what the CLIs that
speak the OpenAI chat-completions API share:

* ``ChatAgent`` is the ``harness.Agent`` of those CLIs (Qwen Code, Copilot CLI, OpenCode, Factory
  Droid): the ``OpenAIChatMock`` on 127.0.0.1 and ``ChatRunResult``. Each run starts from the
  sandbox's clean environment (nothing of the caller's leaks in), with HOME, the XDG dirs and every
  config-dir variable the CLI honours inside the sandbox. ``agent.run(project, steps)`` returns a
  ``ChatRunResult``.
* ``agent.shell(cmd)`` / ``agent.write_file(path, text)`` build the model's tool calls with the
  CLI's own tool names and argument keys.
* ``agent.add_hook(project, event, command, matcher=...)`` registers a hook where the CLI reads
  project hooks (Qwen: ``.qwen/settings.json``; Copilot: ``.github/hooks/<file>.json``), merging
  with what is there. ``add_claude_hook`` writes ``.claude/settings.json`` (Copilot reads it too).
* ``make_project(parent, name)`` makes a ``git init``-ed project dir (names with spaces are fine).

The binaries are rows of ``harness.BINARIES``. Copilot unpacks its 235 MB runtime on first start
into ``$COPILOT_PKG_CACHE_HOME``; the runs share ``$HOOKWRAP_CLI_CACHE/copilot/pkg-cache`` (override
``$HOOKWRAP_COPILOT_PKG_CACHE``) instead of unpacking it into every temp HOME.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from . import mock_openai_chat as chat
from .harness import (
    BINARIES,
    DEFAULT_TIMEOUT,  # noqa: F401  (imported from here by other modules)
    RUN_TIMES,  # noqa: F401
    Agent,
    RunResult,
    Sandbox,
    _default_path,
    _run,  # noqa: F401
    cli_cache_dir,  # noqa: F401
    copilot_pkg_cache,
    find_binary,
    json_document,
    json_lines,
)
from .mock_openai_chat import OpenAIChatMock
from .mockmodel import ToolCall

QWEN_VERSION = BINARIES["qwen"].version
COPILOT_VERSION = BINARIES["copilot"].version
MODEL = "gpt-4.1"  # Copilot wants a catalog id for its token limits; Qwen accepts any name


# Finding the binaries (the old names of harness.find_binary) -----------------------------------


def chat_cli_path(name: str) -> Path:
    """Where the binary of ``qwen``, ``copilot`` or ``opencode`` is expected."""
    return BINARIES[name].path()


def find_chat_cli(name: str) -> tuple[Path | None, str]:
    return find_binary(name)


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

    def details(self) -> list[str]:
        if not self.requests:
            return []
        return [f"last request's user messages: {[t[:200] for t in self.user_messages()]!r}"]


# The chat-completions CLIs ---------------------------------------------------------------------


class ChatAgent(Agent):
    """A CLI driven through ``OpenAIChatMock``. Subclasses set the tool names and the environment."""

    server: OpenAIChatMock
    mock = OpenAIChatMock
    result_type: ClassVar[type[RunResult]] = ChatRunResult

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
        return json_document(stdout, "[")

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
        return json_lines(stdout)

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


CHAT_AGENTS: dict[str, type[ChatAgent]] = {"qwen": Qwen, "copilot": Copilot}


def new_agent(name: str, binary: Path, sandbox: Sandbox, version: str = "") -> ChatAgent:
    """A started mock plus the agent (``agents.start_agent`` under its old name); stop it with
    ``agent.stop()``."""
    return CHAT_AGENTS[name].start(binary, sandbox, version)  # type: ignore[return-value]


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
if spec.get("answers"):  # one answer per call, in turn
    spec = spec["answers"][calls] if calls < len(spec["answers"]) else {}
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
             exit: int = 0, times: int | None = None,
             answers: list[dict[str, Any]] | None = None) -> RawHook:
    """Write ``hooks/raw_hook.py`` and the spec for ``label``: the hook logs its stdin, then prints
    ``stdout`` (a dict is dumped as JSON) and ``stderr`` and exits with ``exit`` — for its first
    ``times`` runs only (None: every run; later runs exit 0 silently). With ``answers`` (each a
    dict of those three keys) its Nth call answers as the Nth of them, so one run can try several
    answers on successive tool calls; calls past the list exit 0 silently."""
    hooks = project / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "raw_hook.py").write_text(RAW_HOOK, encoding="utf-8")
    spec = {"stdout": stdout, "stderr": stderr, "exit": exit, "times": times, "answers": answers}
    (hooks / f"{label}.json").write_text(json.dumps(spec), encoding="utf-8")
    return RawHook(project, label)
