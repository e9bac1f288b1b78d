"""pi 0.73.1 (``pi -p``) for the one harness (``harness.py``), against the loopback
chat-completions mock. A ``chat_harness.ChatAgent``, as OpenCode:

* the provider is written to ``$PI_CODING_AGENT_DIR/models.json`` inside the sandbox (an
  ``openai-completions`` provider pointed at the mock, with the two ``compat`` flags that make pi
  send a plain ``system`` message and no ``reasoning_effort``), so the project holds nothing but
  what a test puts there;
* ``PI_OFFLINE=1``: no version check, package update check or install ping at start-up;
* tool calls use pi's names and keys: ``bash {command}``, ``write {path, content}``,
  ``edit {path, edits: [{oldText, newText}]}``.

The binary is the ``pi`` row of ``harness.BINARIES`` (``.ci/install-clis.sh``; override with
``$HOOKWRAP_PI_BIN``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .chat_harness import ChatAgent
from .mockmodel import ToolCall

MODEL = "mock-model"


class PiAgent(ChatAgent):
    """pi: ``pi -p --provider mock --model mock-model PROMPT`` from the project; hooks through
    hookwrap's extension."""

    name = "pi"
    shell_tool = "bash"
    write_tool = "write"
    settings_file = ".pi/extensions/hookwrap.js"

    def shell(self, command: str) -> ToolCall:
        return ToolCall("bash", {"command": command})

    def write_file(self, path: str, content: str) -> ToolCall:
        return ToolCall("write", {"path": path, "content": content})

    def edit_file(self, path: str, *edits: tuple[str, str]) -> ToolCall:
        """One ``edit`` call with one replacement per ``(old, new)`` pair."""
        return ToolCall("edit", {"path": path, "edits": [{"oldText": old, "newText": new}
                                                         for old, new in edits]})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        return [str(self.binary), "-p", "--provider", "mock", "--model", MODEL, *extra_args, prompt]

    @property
    def agent_dir(self) -> Path:
        return self.sandbox.home / ".pi" / "agent"

    def env(self) -> dict[str, str]:
        models = self.agent_dir / "models.json"
        if not models.exists():
            models.parent.mkdir(parents=True, exist_ok=True)
            models.write_text(json.dumps({"providers": {"mock": {
                "baseUrl": self.server.base_url, "api": "openai-completions", "apiKey": "dummy",
                "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
                "models": [{"id": MODEL, "reasoning": False, "input": ["text"],
                            "contextWindow": 128000, "maxTokens": 4096}]}}}, indent=2) + "\n",
                encoding="utf-8")
        return {
            **self.sandbox_env(),
            "PI_CODING_AGENT_DIR": str(self.agent_dir),
            "PI_OFFLINE": "1",
            "PI_SKIP_VERSION_CHECK": "1",
            "PI_TELEMETRY": "0",
            "TERM": "dumb",
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        return [{"type": "text", "text": stdout}]

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        raise NotImplementedError("pi has no command hooks: hookwrap writes its extension")
