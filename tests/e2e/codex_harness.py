"""Codex CLI (``codex exec``) for the one harness (``harness.py``), against the Responses API mock.

``Codex`` is a ``harness.Agent`` with ``mock_openai_responses.ResponsesMock``. Each run:

* uses the sandbox's HOME and ``CODEX_HOME = $HOME/.codex`` and a clean environment;
* writes ``$CODEX_HOME/config.toml`` afresh: the mock as model provider (``wire_api = "responses"``,
  no retries), ``approval_policy = "never"``, ``sandbox_mode = "danger-full-access"``, plus the
  trust chosen for the run (see ``Trust``) and ``Codex.config`` (extra settings, merged last);
* runs ``codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox --color never``
  from the given directory, stdin closed, in its own process group (killed on timeout).

Codex loads project hooks (``<root>/.codex/hooks.json`` or ``[hooks]`` in ``<root>/.codex/config.toml``)
only behind two gates, and skips a hook that fails the second one without a word:

1. the project root (nearest ancestor holding ``.git``, else the launch dir) is trusted in the user
   config: ``[projects."<root>"] trust_level = "trusted"``;
2. each hook is trusted: ``[hooks.state."<source file>:<event_label>:<group>:<handler>"]
   trusted_hash = "sha256:<hex>"`` in the user config (``trusted_hash`` computes it), or the run
   passes ``--dangerously-bypass-hook-trust``.

``Codex.hooks_list`` asks the binary itself (``codex app-server``, ``hooks/list``) for the keys,
hashes and trust status it sees, to check the computed hashes against.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar

import tomlkit

from . import mock_openai_responses as wire
from .harness import BINARIES, Agent, RunResult, Sandbox, find_binary, json_lines
from .mock_openai_responses import ResponsesMock
from .mockmodel import ToolCall

CODEX_VERSION = BINARIES["codex"].version
# A model slug the binary knows: it gets the freeform apply_patch tool. An unknown slug runs too,
# with a "Model metadata not found" warning and no apply_patch tool.
CODEX_MODEL = "gpt-5.5"
# The model-facing name of the shell tool (hooks see it as "Bash").
MODEL_SHELL_TOOL = "exec_command"
# Hook events (as written in hooks.json) and the labels Codex uses in trust keys and hashes.
EVENT_LABELS = {
    "PreToolUse": "pre_tool_use",
    "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use",
    "PreCompact": "pre_compact",
    "PostCompact": "post_compact",
    "SessionStart": "session_start",
    "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit",
    "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop",
    "Stop": "stop",
    "Interrupt": "interrupt",
}
# Events whose matcher Codex drops (the hook always runs); it is then not part of the hash either.
EVENTS_WITHOUT_MATCHER = frozenset({"UserPromptSubmit", "Stop", "Interrupt"})
# Events whose hooks get a short, capped timeout (SessionEnd hooks also run synchronously).
SHUTDOWN_EVENTS = frozenset({"SessionEnd", "Interrupt"})
DEFAULT_HOOK_TIMEOUT = 600
SHUTDOWN_HOOK_TIMEOUT, SHUTDOWN_HOOK_TIMEOUT_CAP = 1, 3
HOOK_LINE = re.compile(r"^hook: (?P<event>[A-Za-z]+)(?: (?P<status>[A-Za-z]+))?\s*$")


class Trust(str, Enum):
    """How a run establishes trust for the project's hooks."""

    HASHES = "hashes"  # project trusted + a trusted_hash per hook in the user config (the real path)
    BYPASS = "bypass"  # project trusted + --dangerously-bypass-hook-trust
    PROJECT = "project"  # project trusted only: every non-managed hook is skipped, silently
    NONE = "none"  # nothing: the project's .codex/ layer is not even loaded


# Trust hashes ------------------------------------------------------------------------------------


def trusted_hash(event: str, handler: dict[str, Any], matcher: str | None = None) -> str:
    """The ``trusted_hash`` Codex 0.169.0 expects for one command handler of ``event``.

    ``event`` is the hooks.json name (``PreToolUse``), ``handler`` the handler object as written
    (``{"type": "command", "command": …, "timeout": …}``), ``matcher`` its group's matcher as written
    (None when the group has none). The hash is sha256 over the compact, key-sorted JSON (UTF-8,
    not ASCII-escaped) of ``{"event_name": <label>, "matcher": <matcher>, "hooks": [<handler>]}``
    where the handler is normalized: ``type``, ``command``, ``timeout`` (default 600 s, at least 1;
    SessionEnd/Interrupt: default 1, clamped to 1..3), ``async`` as written (even for SessionEnd,
    which Codex runs synchronously anyway), and ``statusMessage`` / ``additionalContextLimit`` only
    when set. The
    matcher is left out when absent and for UserPromptSubmit, Stop and Interrupt; ``""`` and ``"*"``
    are kept as written. Checked against ``codex app-server`` ``hooks/list`` (``currentHash``).
    """
    if event not in EVENT_LABELS:
        raise ValueError(f"unknown Codex hook event {event!r}")
    if handler.get("type", "command") != "command":
        raise ValueError(f"only command handlers are supported here, not {handler.get('type')!r}")
    timeout = handler.get("timeout")
    if event in SHUTDOWN_EVENTS:
        timeout = min(max(1, SHUTDOWN_HOOK_TIMEOUT if timeout is None else int(timeout)), SHUTDOWN_HOOK_TIMEOUT_CAP)
    else:
        timeout = max(1, DEFAULT_HOOK_TIMEOUT if timeout is None else int(timeout))
    normalized: dict[str, Any] = {"type": "command", "command": handler["command"], "timeout": timeout,
                                  "async": bool(handler.get("async", False))}
    for key in ("statusMessage", "additionalContextLimit"):
        if handler.get(key) is not None:
            normalized[key] = handler[key]
    identity: dict[str, Any] = {"event_name": EVENT_LABELS[event], "hooks": [normalized]}
    if matcher is not None and event not in EVENTS_WITHOUT_MATCHER:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def hook_key(source: Path, event: str, group: int, handler: int) -> str:
    """The key of one hook in ``[hooks.state]``: ``<source file>:<event_label>:<group>:<handler>``."""
    return f"{source}:{EVENT_LABELS[event]}:{group}:{handler}"


def hook_trust_state(source: Path, hooks: dict[str, Any]) -> dict[str, str]:
    """``{key: trusted_hash}`` for every command handler of a hooks table.

    ``hooks`` is the ``"hooks"`` object of a hooks.json (or the ``[hooks]`` table of a config.toml)
    read from ``source``, which must be the absolute path Codex sees. Unknown event names (Codex
    ignores them) and non-command handlers are left out.
    """
    state = {}
    for event, groups in hooks.items():
        if event not in EVENT_LABELS or not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            for h, handler in enumerate(group.get("hooks") or []):
                if handler.get("type", "command") == "command" and handler.get("command"):
                    state[hook_key(source, event, g, h)] = trusted_hash(event, handler, group.get("matcher"))
    return state


def project_hook_sources(root: Path) -> dict[Path, dict[str, Any]]:
    """The project's hook tables Codex loads: ``.codex/hooks.json`` and ``[hooks]`` of ``.codex/config.toml``.

    A file that does not parse is left out (Codex ignores it too, with a warning), so a test can
    still run with a deliberately broken file.
    """
    found: dict[Path, dict[str, Any]] = {}
    hooks_json = root / ".codex" / "hooks.json"
    if hooks_json.is_file():
        try:
            data = json.loads(hooks_json.read_text(encoding="utf-8"))
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("hooks"), dict):
            found[hooks_json] = data["hooks"]
    config = root / ".codex" / "config.toml"
    if config.is_file():
        try:
            table = tomlkit.parse(config.read_text(encoding="utf-8")).unwrap().get("hooks") or {}
        except Exception:  # tomlkit raises its own ParseError subclasses
            table = {}
        events = {k: v for k, v in table.items() if k in EVENT_LABELS}
        if events:
            found[config] = events
    return found


def project_root(start: Path) -> Path:
    """Where Codex looks for ``.codex/``: the nearest ancestor of ``start`` holding ``.git``, else ``start``."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


# Writing hooks -------------------------------------------------------------------------------


def add_hook(root: Path, event: str, command: str, *, matcher: str | None = None,
             timeout: int | None = None, **handler_keys: Any) -> Path:
    """Append one command hook (in a group of its own) to ``<root>/.codex/hooks.json``; return the file.

    ``timeout`` is in seconds; ``handler_keys`` are copied into the handler (``statusMessage``, …).
    """
    path = root / ".codex" / "hooks.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"hooks": {}}
    handler: dict[str, Any] = {"type": "command", "command": command, **handler_keys}
    if timeout is not None:
        handler["timeout"] = timeout
    group: dict[str, Any] = {"hooks": [handler]}
    if matcher is not None:
        group["matcher"] = matcher
    data.setdefault("hooks", {}).setdefault(event, []).append(group)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def init_git_repo(path: Path) -> Path:
    """``git init`` ``path`` (created if needed): a project root Codex recognizes; no remote, no commits."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True, timeout=30,
                   env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(path),
                        "GIT_CONFIG_NOSYSTEM": "1"})
    return path


def patch_add_file(path: str, content: str) -> str:
    """An apply_patch body that creates ``path`` (relative to the session cwd) with ``content``."""
    lines = content.splitlines() or [""]
    return "*** Begin Patch\n*** Add File: " + path + "\n" + "".join(f"+{line}\n" for line in lines) + "*** End Patch\n"


# Results -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HookStatus:
    """One ``hook: <Event> <Status>`` line ``codex exec`` printed on stderr (status None: started)."""

    event: str
    status: str | None


class CodexRunResult(RunResult):
    """``RunResult`` reading the Responses API bodies; ``final_text`` is what exec printed on stdout."""

    def conversation(self, index: int = -1) -> str:
        return wire.conversation_text(self.requests[index].body)

    def tool_results(self) -> list[dict[str, Any]]:
        """Tool outputs the model got back ({text, is_error (always False), id, name}), from the last request."""
        return wire.tool_results(self.requests[-1].body) if self.requests else []

    def messages(self, role: str | None = None, index: int = -1) -> list[str]:
        """Texts of the ``message`` items of one request's input (default: the last), optionally one role."""
        return [m["text"] for m in wire.messages(self.requests[index].body, role)]

    def hook_statuses(self) -> list[HookStatus]:
        """The ``hook:`` lines of stderr, in order: ``HookStatus("PreToolUse", None)`` when a hook starts,
        then ``HookStatus("PreToolUse", "Completed" | "Blocked" | "Failed" | "Stopped")``."""
        out = []
        for line in self.stderr.splitlines():
            match = HOOK_LINE.match(line.strip())
            if match:
                out.append(HookStatus(match["event"], match["status"]))
        return out

    def hook_outcomes(self, event: str) -> list[str]:
        """The end statuses of ``event``'s hooks, in order."""
        return [h.status for h in self.hook_statuses() if h.event == event and h.status]

    @property
    def final_text(self) -> str:
        return self.stdout.strip()

    def details(self) -> list[str]:
        return [f"hook lines: {[(h.event, h.status) for h in self.hook_statuses()]}"]


# The CLI -----------------------------------------------------------------------------------------


def find_codex() -> tuple[Path | None, str]:
    """``harness.find_binary("codex")`` under its old name."""
    return find_binary("codex")


class Codex(Agent):
    """Codex CLI under test: its binary, a ``ResponsesMock`` and the test's sandbox.

    ``shell_tool``/``write_tool`` are the names hooks see and matchers match (``Bash``,
    ``apply_patch``); the model calls the shell tool as ``exec_command`` (``MODEL_SHELL_TOOL``).
    Put extra user settings in ``config`` (merged into config.toml on every run, last).
    """

    name = "codex"
    shell_tool = "Bash"
    write_tool = "apply_patch"
    settings_file = ".codex/hooks.json"
    mock = ResponsesMock
    result_type: ClassVar[type[RunResult]] = CodexRunResult

    def __init__(self, binary: Path, server: ResponsesMock, sandbox: Sandbox, version: str = "") -> None:
        super().__init__(binary, server, sandbox, version)
        self.config: dict[str, Any] = {}
        self._bypass_hook_trust = False

    @property
    def codex_home(self) -> Path:
        return self.sandbox.home / ".codex"

    @property
    def config_path(self) -> Path:
        return self.codex_home / "config.toml"

    # the model's tool calls --------------------------------------------------------------------

    def shell(self, command: str) -> ToolCall:
        return ToolCall(MODEL_SHELL_TOOL, {"cmd": command})

    def write_file(self, path: str, content: str) -> ToolCall:
        """An apply_patch call that adds ``path`` (relative to the session cwd)."""
        return self.apply_patch(patch_add_file(path, content))

    def apply_patch(self, patch: str) -> ToolCall:
        return ToolCall("apply_patch", {"input": patch})

    # config and trust ----------------------------------------------------------------------

    def base_config(self) -> dict[str, Any]:
        """The offline settings: the loopback mock as the only provider, no approvals, no sandbox."""
        return {
            "model": CODEX_MODEL,
            "model_provider": "mock",
            "approval_policy": "never",
            "sandbox_mode": "danger-full-access",
            "check_for_update_on_startup": False,
            "model_providers": {"mock": {
                "name": "mock",
                "base_url": f"{self.server.url}/v1",
                "wire_api": "responses",
                "env_key": "OPENAI_API_KEY",
                "request_max_retries": 0,
                "stream_max_retries": 0,
            }},
        }

    def trust_config(self, root: Path, trust: Trust) -> dict[str, Any]:
        """The ``projects`` / ``hooks.state`` tables that give ``root`` the requested trust."""
        trust = Trust(trust)
        if trust is Trust.NONE:
            return {}
        root = root.resolve()
        config: dict[str, Any] = {"projects": {str(root): {"trust_level": "trusted"}}}
        if trust is Trust.HASHES:
            state: dict[str, Any] = {}
            for source, hooks in project_hook_sources(root).items():
                for key, digest in hook_trust_state(source, hooks).items():
                    state[key] = {"trusted_hash": digest}
            user_hooks = (self.codex_home / "hooks.json").resolve()
            try:
                user_data = json.loads(user_hooks.read_text(encoding="utf-8")) if user_hooks.is_file() else {}
            except ValueError:
                user_data = {}
            if isinstance(user_data, dict) and isinstance(user_data.get("hooks"), dict):
                for key, digest in hook_trust_state(user_hooks, user_data["hooks"]).items():
                    state[key] = {"trusted_hash": digest}
            if state:
                config["hooks"] = {"state": state}
        return config

    def write_config(self, root: Path, trust: Trust = Trust.HASHES) -> Path:
        """Write ``$CODEX_HOME/config.toml``: base settings, trust for ``root``, then ``self.config``."""
        config = _merge(_merge(self.base_config(), self.trust_config(root, trust)), self.config)
        self.codex_home.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(tomlkit.dumps(config), encoding="utf-8")
        return self.config_path

    # running ---------------------------------------------------------------------------------

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        cmd = [str(self.binary), "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
               "--color", "never"]
        if self._bypass_hook_trust:
            cmd.append("--dangerously-bypass-hook-trust")
        return [*cmd, *extra_args, "--", prompt]

    def env(self) -> dict[str, str]:
        return {**self.sandbox.env(), "CODEX_HOME": str(self.codex_home), "OPENAI_API_KEY": "sk-codex-e2e-mock"}

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        """JSON lines of ``--json`` output (empty for the default text output)."""
        return json_lines(stdout)

    def prepare(self, project: Path, trust: Trust | str = Trust.HASHES,  # type: ignore[override]
                root: Path | None = None) -> None:
        """Before each run (``run(..., trust=, root=)``): rewrite config.toml, so hashes follow the
        current hook files. ``root`` is the project root to trust (default:
        ``project_root(project)``); ``Trust.BYPASS`` adds ``--dangerously-bypass-hook-trust``."""
        trust = Trust(trust)
        self.write_config(root or project_root(project), trust)
        self._bypass_hook_trust = trust is Trust.BYPASS

    def hooks_list(self, cwd: Path, *, timeout: float = 30.0) -> dict[str, Any]:
        """What the binary itself sees for ``cwd``: ``codex app-server`` ``hooks/list``.

        Returns ``{"hooks": [...], "warnings": [...], "errors": [...]}``; each hook has ``key``,
        ``currentHash``, ``trustStatus`` (``untrusted|trusted|modified|managed``), ``timeoutSec``, …
        Uses the current config.toml (call ``write_config`` first).
        """
        answer = _app_server_call(
            [str(self.binary), "app-server"], self.env(), cwd,
            [{"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "hookwrap-e2e", "version": "0"}}},
             {"method": "initialized"},
             {"id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd.resolve())]}}],
            want_id=2, timeout=timeout)
        if "error" in answer:
            raise AssertionError(f"hooks/list failed: {answer['error']}")
        [entry] = answer["result"]["data"]
        return {"hooks": entry.get("hooks", []), "warnings": entry.get("warnings", []),
                "errors": entry.get("errors", [])}


def _app_server_call(cmd: list[str], env: dict[str, str], cwd: Path, messages: list[dict[str, Any]],
                     *, want_id: int, timeout: float) -> dict[str, Any]:
    """Send JSON-RPC lines to a fresh app-server and return the answer with ``want_id``.

    The server runs in its own process group, killed as a whole afterwards: killing only the node
    wrapper leaves the native binary running.
    """
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        assert proc.stdin is not None
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"codex app-server gave no answer to id {want_id} in {timeout:.0f}s") from None
            if line is None:
                raise AssertionError(f"codex app-server exited before answering id {want_id}")
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("id") == want_id:
                return message
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Deep merge of nested dicts; ``extra`` wins."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out
