"""OpenCode 1.18.33 (``opencode run``) for the one harness (``harness.py``), against the loopback
chat-completions mock. A ``chat_harness.ChatAgent``, as Qwen Code and Copilot CLI:

* the provider is written to ``$XDG_CONFIG_HOME/opencode/opencode.json`` inside the sandbox (an
  ``@ai-sdk/openai-compatible`` provider, bundled in the binary, pointed at the mock), so the
  project holds nothing but what a test puts there;
* ``npm_config_offline=true``: with any plugin present OpenCode waits for an
  ``npm install @opencode-ai/plugin`` in every config folder, which stalls ~70 s offline otherwise;
* OpenCode's title request (system prompt "You are a title generator") is answered aside, without
  using a scripted step;
* tool calls use OpenCode's names and keys: ``bash {command}``, ``write {filePath, content}``;
  with a ``model_id`` holding ``gpt-`` (not ``gpt-4`` nor ``oss``) OpenCode offers
  ``apply_patch {patchText}`` in place of ``write`` and ``edit``, as for real GPT models.

The binary is the ``opencode`` row of ``harness.BINARIES`` (``.ci/install-clis.sh``: a link to the
native binary; override with ``$HOOKWRAP_OPENCODE_BIN``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .chat_harness import ChatAgent
from .harness import BINARIES, find_binary
from .mock_openai_chat import OpenAIChatMock, default_side_request
from .mockmodel import ToolCall

OPENCODE_VERSION = BINARIES["opencode"].version
TITLE_MARKER = "You are a title generator"


def title_or_side_request(body: dict[str, Any]) -> str | None:
    """OpenCode's title request (no tools, its own system prompt) is answered aside."""
    messages = body.get("messages") or []
    system = " ".join(str(m.get("content")) for m in messages
                      if isinstance(m, dict) and m.get("role") == "system")
    if TITLE_MARKER in system:
        return "E2E title"
    return default_side_request(body)


def find_opencode() -> tuple[Path | None, str]:
    """``harness.find_binary("opencode")`` under its old name."""
    return find_binary("opencode")


def opencode_mock() -> OpenAIChatMock:
    """The chat-completions mock with OpenCode's title requests answered aside."""
    return OpenAIChatMock(side_request=title_or_side_request)


class OpenCodeAgent(ChatAgent):
    """OpenCode: ``opencode run PROMPT`` from the project; hooks through hookwrap's plugin."""

    name = "opencode"
    shell_tool = "bash"
    write_tool = "write"
    settings_file = ".opencode/plugins/hookwrap.js"
    mock = staticmethod(opencode_mock)
    model_id = "mock-model"  # "gpt-5-mock": OpenCode swaps write and edit for apply_patch

    def shell(self, command: str) -> ToolCall:
        return ToolCall("bash", {"command": command, "description": "Run the command"})

    def write_file(self, path: str, content: str) -> ToolCall:
        """``path`` must be absolute: OpenCode's write takes an absolute ``filePath``."""
        return ToolCall("write", {"filePath": path, "content": content})

    def apply_patch(self, *lines: str) -> ToolCall:
        """One ``apply_patch`` call (GPT models only) of the patch made of ``lines``."""
        return ToolCall("apply_patch", {"patchText": "\n".join(
            ["*** Begin Patch", *lines, "*** End Patch"])})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        return [str(self.binary), "run", *extra_args, prompt]

    def user_config(self) -> Path:
        return self.sandbox.home / ".config" / "opencode" / "opencode.json"

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
                "autoupdate": False, "share": "disabled", "permission": {"*": "allow"},
            }, indent=2) + "\n", encoding="utf-8")
        return {
            **self.sandbox_env(),
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "OPENCODE_DISABLE_SHARE": "1",
            # With a plugin present OpenCode waits for an npm install in every config folder.
            "npm_config_offline": "true",
            "npm_config_registry": "http://127.0.0.1:9/",
        }

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        return [{"type": "text", "text": stdout}]

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        raise NotImplementedError("OpenCode has no command hooks: hookwrap writes its plugin")


def new_opencode(binary: Path, sandbox: Any, version: str = "") -> OpenCodeAgent:
    """A started mock (title requests answered aside) plus the agent (``agents.start_agent`` under
    its old name); stop it with ``agent.stop()``."""
    return OpenCodeAgent.start(binary, sandbox, version)  # type: ignore[return-value]
