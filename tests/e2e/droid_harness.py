"""Factory Droid (``droid exec``) for the one harness (``harness.py``), against the loopback
chat-completions mock.

A ``chat_harness.ChatAgent``, as Qwen Code and Copilot CLI: every run starts from the
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

Binary: the ``droid`` row of ``harness.BINARIES`` (the platform package
``@factory/cli-linux-x64`` from ``.ci/install-clis.sh``; override with ``$HOOKWRAP_DROID_BIN``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from .chat_harness import ChatAgent, ChatRunResult, _merge_json, claude_hook_group
from .harness import BINARIES, RunResult, find_binary, json_document
from .mockmodel import ToolCall

DROID_VERSION = BINARIES["droid"].version
DROID_MODEL = "mock-model"
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: nothing listens there


def droid_path() -> Path:
    """Where the droid binary is expected (``$HOOKWRAP_DROID_BIN`` or the CLI cache)."""
    return BINARIES["droid"].path()


def find_droid() -> tuple[Path | None, str]:
    """``harness.find_binary("droid")`` under its old name."""
    return find_binary("droid")


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
    result_type: ClassVar[type[RunResult]] = DroidRunResult

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
        return json_document(stdout)

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        group = claude_hook_group(command, matcher, timeout)
        group["hooks"][0].update(options)
        path = self.settings_path(project)
        _merge_json(path, {"hooks": {event: [group]}})
        return path
