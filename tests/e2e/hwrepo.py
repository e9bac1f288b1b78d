"""A temp repo driven by the real ``hookwrap`` command (``python -m hookwrap`` in a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .harness import Sandbox


class HookwrapRepo:
    """The project dir of one test, set up with ``hookwrap init`` and ``hookwrap add``."""

    def __init__(self, root: Path, sandbox: Sandbox) -> None:
        self.root = root
        self.sandbox = sandbox

    def hookwrap(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run ``python -m hookwrap ARGS`` here, with the test's temp HOME."""
        env = {**os.environ, "HOME": str(self.sandbox.home), "GEMINI_CLI_HOME": str(self.sandbox.home),
               "CODEX_HOME": str(self.sandbox.home / ".codex"),
               "NO_COLOR": "1", "COLUMNS": "120"}
        proc = subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=self.root, env=env,
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        if check and proc.returncode != 0:
            raise AssertionError(f"hookwrap {' '.join(args)} exited {proc.returncode}\n"
                                 f"stdout: {proc.stdout}\nstderr: {proc.stderr}")
        return proc

    def init(self) -> HookwrapRepo:
        self.hookwrap("init")
        return self

    def add(self, event: str, name: str, *options: str) -> HookwrapRepo:
        self.hookwrap("add", event, name, *options)
        return self

    def sync(self) -> subprocess.CompletedProcess[str]:
        return self.hookwrap("sync")

    def set_options(self, hook: str, **options: Any) -> None:
        """Set template options in ``[hooks.<hook>]`` of hookwrap.toml (the scripts read them at run time)."""
        import tomlkit

        path = self.root / "hookwrap.toml"
        doc = tomlkit.parse(path.read_text(encoding="utf-8"))
        table = doc["hooks"][hook]  # type: ignore[index]
        for key, value in options.items():
            table[key] = value  # type: ignore[index]
        path.write_text(tomlkit.dumps(doc), encoding="utf-8")

    def script(self, name: str) -> Path:
        return self.root / ".hookwrap" / "hooks" / f"{name}.py"

    def log_lines(self, name: str) -> list[dict[str, Any]]:
        """The JSON lines an ``audit`` hook named ``name`` wrote."""
        path = self.root / ".hookwrap" / "logs" / f"{name}.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def settings(self, relative: str) -> dict[str, Any]:
        return json.loads((self.root / relative).read_text(encoding="utf-8"))

    def write_settings(self, relative: str, data: dict[str, Any]) -> None:
        (self.root / relative).write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")

