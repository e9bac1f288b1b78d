"""A throwaway repo that runs rendered hooks the way a CLI would, without hookwrap installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookwrap.generator.vendor import RUNTIME_MODULES

from . import RUNTIME_SRC


class HookRepo:
    """A throwaway repo with the runtime at .hookwrap/lib and rendered hooks under .hookwrap/hooks."""

    def __init__(self, root: Path) -> None:
        self.root = root
        lib = root / ".hookwrap" / "lib" / "hookwrap"
        lib.mkdir(parents=True)
        for module in RUNTIME_MODULES:
            (lib / module).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(RUNTIME_SRC / module, lib / module)

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def add(self, spec: Any) -> None:
        from hookwrap.generator.render import render_hook_files

        for rel, text in render_hook_files(spec).items():
            self.write(rel, text)

    def run(self, name: str, platform: str, payload: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        """Run .hookwrap/hooks/<name>.py like the CLI would; return the JSON it printed."""
        script = self.root / ".hookwrap" / "hooks" / f"{name}.py"
        # -I: isolated mode, no site-packages and no PYTHONPATH: proves hookwrap need not be installed.
        proc = subprocess.run(
            [sys.executable, "-I", str(script), "--platform", platform],
            input=json.dumps(payload), capture_output=True, text=True, cwd=self.root, timeout=timeout,
        )
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert len(lines) == 1, f"expected one JSON document, got {proc.stdout!r} (stderr {proc.stderr!r})"
        return json.loads(lines[0])


def make_hook_repo(base: Path) -> HookRepo:
    """A HookRepo under ``base``; skips the test while the runtime modules are missing."""
    import pytest

    missing = [module for module in RUNTIME_MODULES if not (RUNTIME_SRC / module).is_file()]
    if missing:
        pytest.skip(f"the runtime is not written yet (missing {', '.join(missing)})")
    return HookRepo(base / "repo")
