"""Run the real Factory Droid CLI headless (``droid exec``) against the loopback chat-completions mock.

The same pattern as ``chat_harness.py`` (Qwen Code, Copilot CLI): every run starts from the
sandbox's clean environment, with HOME and the XDG dirs inside the sandbox and the model served by
an ``OpenAIChatMock`` on 127.0.0.1. Droid needs no login for a custom ("bring your own key") model
declared in ``~/.factory/settings.json``; ``FACTORY_DISABLE_KEYRING=1`` keeps it off the system
keyring. The user settings also turn Droid-Shield off (the flat ``enableDroidShield: false``):
with it on, Droid refuses some ``git push`` commands by itself, so a guard test would pass with a
broken guard.

``agent.shell(cmd)`` / ``agent.write_file(path, text)`` are Droid's own tool calls (``Execute``
with the ``riskLevel`` arguments it requires, ``Create`` with an absolute ``file_path``).
``agent.add_hook(project, event, command, matcher=...)`` merges a Claude-format group into
``<project>/.factory/settings.json``.

Binary: ``$HOOKWRAP_CLI_CACHE/droid/node_modules/@factory/cli-linux-x64/bin/droid`` from
``.ci/install-clis.sh`` (override with ``$HOOKWRAP_DROID_BIN``).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from .chat_harness import ChatAgent, ChatRunResult, _merge_json, claude_hook_group
from .harness import _default_path, cli_cache_dir
from .mockmodel import Step, ToolCall

DROID_VERSION = "0.225.2"
DROID_MODEL = "mock-model"
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: nothing listens there


def droid_path() -> Path:
    """Where the droid binary is expected (``$HOOKWRAP_DROID_BIN`` or the CLI cache)."""
    override = os.environ.get("HOOKWRAP_DROID_BIN")
    if override:
        return Path(override)
    return (cli_cache_dir() / "droid" / "node_modules" / "@factory" / "cli-linux-x64" / "bin"
            / "droid")


def find_droid() -> tuple[Path | None, str]:
    """The droid binary and its ``--version`` text, or None and why it is unusable."""
    path = droid_path()
    if not path.exists():
        where = "$HOOKWRAP_DROID_BIN" if os.environ.get("HOOKWRAP_DROID_BIN") else "the CLI cache"
        return None, (f"droid not found at {path} ({where}); run .ci/install-clis.sh droid or set "
                      "$HOOKWRAP_DROID_BIN")
    with tempfile.TemporaryDirectory(prefix="hw-e2e-version-") as home:
        env = {"PATH": _default_path(), "HOME": home, "FACTORY_DISABLE_KEYRING": "1"}
        try:
            proc = subprocess.run([str(path), "--version"], check=False, capture_output=True,
                                  text=True, timeout=60, env=env, stdin=subprocess.DEVNULL, cwd=home)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"droid at {path} does not run: {exc}"
    if proc.returncode != 0:
        return None, f"droid at {path} --version exited {proc.returncode}: {proc.stderr.strip()[:200]}"
    return path, proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else ""


class DroidRunResult(ChatRunResult):
    """A ``droid exec -o json`` run: the final text is the ``result`` of the one JSON object."""

    @property
    def final_text(self) -> str:
        for event in reversed(self.events):
            if "result" in event:
                return str(event.get("result") or "")
        return ""


class Droid(ChatAgent):
    """Factory Droid: ``droid exec -m custom:mock-model --auto high -o json <prompt>``; project
    hooks in ``.factory/settings.json`` (Claude's format and event names, Droid's tool names)."""

    name = "droid"
    shell_tool = "Execute"
    write_tool = "Create"
    settings_file = ".factory/settings.json"
    project_dir_var = "FACTORY_PROJECT_DIR"

    #: Merged into ``~/.factory/settings.json`` before each run (e.g. ``{"enableDroidShield": True}``).
    user_settings: dict[str, Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user_settings = {}

    def shell(self, command: str) -> ToolCall:
        return ToolCall("Execute", {"command": command, "riskLevel": "low",
                                    "riskLevelReason": "a test command"})

    def write_file(self, path: str, content: str, project: Path | None = None) -> ToolCall:
        """``Create`` wants an absolute path: a relative one is resolved against ``project``."""
        target = Path(path) if project is None else project / path
        return ToolCall("Create", {"file_path": str(target), "content": content})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        return [str(self.binary), "exec", "-m", f"custom:{DROID_MODEL}", "--auto", "high",
                "-o", "json", *extra_args, prompt]

    @property
    def factory_home(self) -> Path:
        return self.sandbox.home / ".factory"

    def write_user_settings(self) -> Path:
        settings = {
            "customModels": [{"model": DROID_MODEL, "displayName": "Mock",
                              "baseUrl": self.server.base_url, "apiKey": "sk-e2e-mock",
                              "provider": "generic-chat-completion-api",
                              "maxOutputTokens": 4096}],
            "enableDroidShield": False,
            **self.user_settings,
        }
        path = self.factory_home / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        return path

    def env(self) -> dict[str, str]:
        self.write_user_settings()
        return {
            **self.sandbox_env(),
            "FACTORY_DISABLE_KEYRING": "1",
            # No Factory API, telemetry or OpenTelemetry calls (without it each run looks up
            # api.factory.ai, telemetry.factory.ai and an otel collector, and takes ~7 s, not ~1 s).
            "FACTORY_AIRGAP_ENABLED": "true",
            # Anything that still tried the network would meet a dead proxy, never the internet.
            "HTTP_PROXY": DEAD_PROXY, "HTTPS_PROXY": DEAD_PROXY, "ALL_PROXY": DEAD_PROXY,
            "NO_PROXY": "127.0.0.1,localhost",
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        """``-o json`` prints one JSON object (``type: result``)."""
        start = stdout.find("{")
        if start < 0:
            return []
        try:
            event = json.loads(stdout[start:])
        except ValueError:
            return []
        return [event] if isinstance(event, dict) else []

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        group = claude_hook_group(command, matcher, timeout)
        group["hooks"][0].update(options)
        path = self.settings_path(project)
        _merge_json(path, {"hooks": {event: [group]}})
        return path

    def run(self, project: Path, steps: list[Step], **kwargs: Any) -> DroidRunResult:  # type: ignore[override]
        result = super().run(project, steps, **kwargs)
        return DroidRunResult(**vars(result))
