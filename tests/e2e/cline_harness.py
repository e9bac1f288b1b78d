"""Cline (``cline --json "<prompt>"``) for the one harness (``harness.py``), against the loopback
chat-completions mock.

A ``chat_harness.ChatAgent``: every run starts from the sandbox's clean environment, with HOME and
the XDG dirs inside the sandbox and the model served by an ``OpenAIChatMock`` on 127.0.0.1. Before
the first run ``cline auth -p openai-compatible`` writes the provider (a dummy key, the mock's URL)
into ``$HOME/.cline/data/settings/providers.json``: no account, no network (cline.md §2).
``CLINE_SESSION_BACKEND_MODE=local`` keeps cline from starting a hub daemon that outlives the run.

``agent.shell(cmd)`` is ``run_commands`` (``{"commands": [cmd]}``), ``agent.write_file(path,
text)`` is ``editor`` (``{"path", "new_text"}``). ``agent.add_hook(project, event, text)`` writes
a hook file of the user's own, ``.clinerules/hooks/<file name>``.

Binary: the ``cline`` row of ``harness.BINARIES`` (the Bun binary of ``@cline/cli-linux-x64``,
installed by ``.ci/install-clis.sh cline``; override with ``$HOOKWRAP_CLINE_BIN``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, ClassVar

from .chat_harness import ChatAgent, ChatRunResult
from .harness import BINARIES, RunResult, json_lines
from .mockmodel import ToolCall

CLINE_VERSION = BINARIES["cline"].version
CLINE_MODEL = "mock-model"
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: nothing listens there


class ClineRunResult(ChatRunResult):
    """A ``cline --json`` run: one JSON object a line, the last a ``run_result``."""

    @property
    def final_text(self) -> str:
        for event in reversed(self.events):
            if event.get("type") == "run_result":
                return str(event.get("text") or event.get("outputText") or "")
        return ""

    @property
    def finish_reason(self) -> str:
        for event in reversed(self.events):
            if "finishReason" in event:
                return str(event["finishReason"])
        return ""


class Cline(ChatAgent):
    """Cline: ``cline --json <prompt>`` in act mode, every tool auto-approved; hook files in
    ``.clinerules/hooks/``."""

    name = "cline"
    shell_tool = "run_commands"
    write_tool = "editor"
    settings_file = ".clinerules/hooks/hookwrap.json"
    result_type: ClassVar[type[RunResult]] = ClineRunResult

    def shell(self, command: str) -> ToolCall:
        return ToolCall("run_commands", {"commands": [command]})

    def write_file(self, path: str, content: str) -> ToolCall:
        return ToolCall("editor", {"path": path, "new_text": content})

    def command(self, prompt: str, extra_args: tuple[str, ...]) -> list[str]:
        # The prompt must hold a space: a one-word prompt is read as an unknown command.
        return [str(self.binary), "--json", *extra_args, prompt]

    def env(self) -> dict[str, str]:
        return {
            **self.sandbox_env(),
            "CLINE_SESSION_BACKEND_MODE": "local",
            "CLINE_NO_AUTO_UPDATE": "1",
            "HTTP_PROXY": DEAD_PROXY, "HTTPS_PROXY": DEAD_PROXY, "ALL_PROXY": DEAD_PROXY,
            "NO_PROXY": "127.0.0.1,localhost",
        }

    def prepare(self, project: Path, **options: Any) -> None:
        providers = self.sandbox.home / ".cline" / "data" / "settings" / "providers.json"
        if providers.exists():
            return
        subprocess.run([str(self.binary), "auth", "-p", "openai-compatible", "-k", "dummy",
                        "-m", CLINE_MODEL, "-b", f"{self.server.base_url}"],
                       cwd=project, env=self.env(), stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, check=True, timeout=60)

    def parse_events(self, stdout: str) -> list[dict[str, Any]]:
        return json_lines(stdout)

    def add_hook(self, project: Path, event: str, command: str, *, matcher: str | None = None,
                 timeout: int = 30, **options: Any) -> Path:
        """A hook file of the user's own: ``.clinerules/hooks/<event>`` holding ``command`` (the
        file's whole text)."""
        path = project / ".clinerules" / "hooks" / event
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(command, encoding="utf-8")
        return path
