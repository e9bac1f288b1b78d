"""Kilo CLI 7.7.9 (``kilo run``) for the one harness (``harness.py``), against the loopback
chat-completions mock. Kilo is a fork of OpenCode and runs the same way, so its agent is
OpenCode's with Kilo's differences (/work/shared/reference/kilo.md, "running offline"):

* the provider goes to ``$XDG_CONFIG_HOME/kilo/kilo.json`` inside the sandbox, with
  ``enabled_providers: ["mock"]`` so the built-in Kilo gateway stays out;
* the ``KILO_*`` switches turn off the daemon lookup, update checks, model-list fetches,
  telemetry, sharing, session ingest and LSP downloads; ``npm_config_offline=true`` makes Kilo's
  background ``npm install @kilocode/plugin`` (beside any plugin) fail at once;
* Kilo's title request (no tools, a user message "Generate a title ...") is answered aside.

The binary is the ``kilo`` row of ``harness.BINARIES`` (``.ci/install-clis.sh``: the platform
package ``@kilocode/cli-linux-x64``; override with ``$HOOKWRAP_KILO_BIN``). A run takes ~10-20 s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .mock_openai_chat import OpenAIChatMock
from .opencode_harness import OpenCodeAgent, title_or_side_request

TITLE_REQUEST = "Generate a title for this conversation"


def _first_user_text(body: dict[str, Any]) -> str:
    for message in body.get("messages") or []:
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def kilo_side_request(body: dict[str, Any]) -> str | None:
    """Kilo's title request (no tools, the first user message asks for a title) is answered
    aside; OpenCode's markers too."""
    if not body.get("tools") and _first_user_text(body).startswith(TITLE_REQUEST):
        return "E2E title"
    return title_or_side_request(body)


def kilo_mock() -> OpenAIChatMock:
    return OpenAIChatMock(side_request=kilo_side_request)


class KiloAgent(OpenCodeAgent):
    """Kilo CLI: ``kilo run PROMPT`` from the project; hooks through hookwrap's plugin in
    ``.kilo/plugins/``."""

    name = "kilo"
    settings_file = ".kilo/plugins/hookwrap.js"
    mock = staticmethod(kilo_mock)
    timeout = 120.0

    def user_config(self) -> Path:
        return self.sandbox.home / ".config" / "kilo" / "kilo.json"

    def background_process(self, command: str) -> Any:
        from .mockmodel import ToolCall

        return ToolCall("background_process", {"action": "start", "command": command,
                                               "description": "Run it in the background"})

    def env(self) -> dict[str, str]:
        config = self.user_config()
        if not config.exists():
            config.parent.mkdir(parents=True, exist_ok=True)
            config.write_text(json.dumps({
                "provider": {"mock": {
                    "npm": "@ai-sdk/openai-compatible", "name": "Mock",
                    "options": {"baseURL": self.server.base_url, "apiKey": "dummy"},
                    "models": {self.model_id: {"name": "Mock Model", "tool_call": True}}}},
                "model": f"mock/{self.model_id}", "small_model": f"mock/{self.model_id}",
                "enabled_providers": ["mock"],
                "autoupdate": False, "share": "disabled", "permission": {"*": "allow"},
            }, indent=2) + "\n", encoding="utf-8")
        return {
            **self.sandbox_env(),
            "NO_COLOR": "1",
            "KILO_NO_DAEMON": "1",
            "KILO_DISABLE_AUTOUPDATE": "1",
            "KILO_DISABLE_MODELS_FETCH": "1",
            "KILO_TELEMETRY_LEVEL": "off",
            "KILO_DISABLE_SHARE": "1",
            "KILO_DISABLE_SESSION_INGEST": "1",
            "KILO_DISABLE_LSP_DOWNLOAD": "1",
            "npm_config_offline": "true",
            "npm_config_registry": "http://127.0.0.1:9/",
            "npm_config_fetch_retries": "0",
        }

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        raise NotImplementedError("Kilo CLI has no command hooks: hookwrap writes its plugin")
