"""Running the command in a project, and reading what it wrote.

``hw`` runs ``hookwrap -C root ARGS`` in-process (CliRunner's stream isolation); ``hw_module``
runs ``python -m hookwrap ARGS`` in a subprocess. The rest reads, snapshots and compares the
settings files and the manifest.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from hookwrap.console.app import main
from hookwrap.generator.clis import all_setups
from hookwrap.generator.vendor import RUNTIME_MODULES

from . import PAYLOADS

CLAUDE = ".claude/settings.json"
GEMINI = ".gemini/settings.json"
MANIFEST = "hookwrap.toml"
# What `add` and `sync` say while Gemini CLI does not trust the (throwaway) project folder.
GEMINI_NOTE = ("note: Gemini CLI runs none of this project's hooks until the folder is trusted: "
               "run `hookwrap trust --platform gemini`")
RUNTIME_FILES = RUNTIME_MODULES

# The hooks the golden and subprocess tests add: every template, and an event Claude lacks.
ALL_ADDS = [
    ["before_tool", "guard"],
    ["session_start", "context"],
    ["after_agent", "stop_gate"],
    ["after_tool", "format"],
    ["before_tool", "audit", "--matcher", "shell"],
    ["before_model", "m"],
]


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def out_lines(self) -> list[str]:
        return self.out.splitlines()

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def hw(root: Path, *args: str, errors: str = "strict") -> Result:
    """``hookwrap -C root ARGS`` through ``hookwrap.console.app.main`` inside CliRunner's stream
    isolation; output decoded as UTF-8 (``errors="replace"`` for tests that feed bad bytes)."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _mixed):
        code = main(["-C", str(root), *args])
        return Result(code, out.getvalue().decode(errors=errors), err.getvalue().decode(errors=errors))


def hw_module(root: Path, *args: str, cwd: Path | None = None, timeout: float = 120,
              **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``python -m hookwrap ARGS`` in a subprocess started in ``cwd`` (default ``root``), output
    captured as text."""
    return subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=cwd or root,
                          capture_output=True, text=True, timeout=timeout, **kwargs)


def owned_name(handler: object) -> str | None:
    """hookwrap's hook name for a handler written in any CLI's exact command form."""
    command = handler.get("command") if isinstance(handler, dict) else None
    if not isinstance(command, str):
        return None
    return next((name for agent in all_setups() if (name := agent.owned_name(command))), None)


def snapshot(root: Path) -> dict[str, Any]:
    """Every entry under ``root``: files as (bytes, mode), symlinks as their target, dirs as 'dir'."""
    found: dict[str, Any] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            found[rel] = "dir"
        else:
            found[rel] = (path.read_bytes(), path.stat().st_mode & 0o7777)
    return found


def snapshot_without_lock(root: Path) -> dict[str, Any]:
    """A snapshot that ignores the empty lock file every writing command may create."""
    return {rel: value for rel, value in snapshot(root).items() if rel != ".hookwrap/.lock"}


def read_json(root: Path, rel: str) -> Any:
    return json.loads((root / rel).read_text(encoding="utf-8"))


def write_json(root: Path, rel: str, value: Any) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def strict_json(data: bytes) -> Any:
    """Parse bytes as RFC 8259 JSON: UTF-8, no NaN/Infinity (what the CLIs' JSON.parse takes)."""
    return json.loads(data.decode("utf-8"), parse_constant=_refuse)


def _refuse(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def canonical(value: Any) -> str:
    """Order-sensitive text form: two documents are 'the same JSON' when this is equal."""
    return json.dumps(value, ensure_ascii=False)


def strip_owned(value: Any) -> Any:
    """The settings without hookwrap's handlers, and without the groups that held only those."""
    result = copy.deepcopy(value)
    hooks = result.get("hooks") if isinstance(result, dict) else None
    if not isinstance(hooks, dict):
        return result
    for event, groups in list(hooks.items()):
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                kept.append(group)
                continue
            mine = [h for h in handlers if owned_name(h)]
            if mine and len(mine) == len(handlers):
                continue
            kept.append({**group, "hooks": [h for h in handlers if not owned_name(h)]})
        if groups and not kept:
            del hooks[event]  # it held only hookwrap's groups
        else:
            hooks[event] = kept
    if not hooks and value.get("hooks"):
        del result["hooks"]
    return result


def owned_names(root: Path, rel: str) -> list[str]:
    """The hook names hookwrap has registered in one settings file, in document order."""
    path = root / rel
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    names = []
    for groups in data.get("hooks", {}).values():
        for group in groups:
            for handler in group.get("hooks", []):
                if owned_name(handler):
                    names.append(owned_name(handler))
    return names


def payload(platform: str, name: str) -> dict[str, Any]:
    """``tests/fixtures/payloads/<platform>/<name>.json``."""
    return json.loads((PAYLOADS / platform / f"{name}.json").read_text(encoding="utf-8"))
