"""Write the Windows CI job's cases: for each CLI and each Windows shell it may use, the program,
arguments and spawn options that CLI starts a hook with (docs/windows.md), around the command
hookwrap gives it there. ``scripts/windows_spawn.js`` runs them.

Usage: python scripts/windows_cases.py PROJECT OUT.json   (PROJECT: after hookwrap sync)
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from hookwrap.generator.interpreter import windows_python
from hookwrap.generator.winforms import ONE_COMMAND, SHELLS, WINDOWS_FIELDS, windows_command

# What each CLI appends under PowerShell (read from the shipped code; docs/windows.md).
_CLAUDE_TAIL = "; if (-not $?) { if ($LASTEXITCODE -eq 2) { exit 2 } }"  # Claude Code 2.1.332
_GEMINI_TAIL = "; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }"  # Gemini CLI 0.61.0


_FILES = {"codex": ".codex/hooks.json", "copilot": ".github/hooks/hookwrap.json",
          "claude": ".claude/settings.json", "gemini": ".gemini/settings.json",
          "qwen": ".qwen/settings.json", "droid": ".factory/settings.json"}
# The plugins hookwrap generates, which windows_spawn.js imports and calls as the CLI does.
_PLUGINS = {"opencode": ".opencode/plugins/hookwrap.js", "kilo": ".kilo/plugins/hookwrap.js",
            "pi": ".pi/extensions/hookwrap.js"}


def _written(root: Path, cli: str) -> str | None:
    """The Windows form hookwrap wrote for the guard: the CLI's Windows field, or its one
    command when that holds the form (hookwrap.toml names python_windows)."""
    field = WINDOWS_FIELDS.get(cli, "command" if cli in ONE_COMMAND else None)
    if field is None:
        return None
    data = json.loads((root / _FILES[cli]).read_text(encoding="utf-8"))
    event = "BeforeTool" if cli == "gemini" else "PreToolUse"
    return str(data["hooks"][event][0]["hooks"][0][field])


def _powershell() -> str:
    return shutil.which("pwsh") or "powershell.exe"


def _spawns(cli: str, shell: str, command: str) -> list[str]:
    comspec = os.environ.get("COMSPEC", "cmd.exe")  # case-insensitive on Windows
    git_bash = r"C:\Program Files\Git\bin\bash.exe"
    if cli == "claude":
        if shell == "bash":
            return [git_bash, "-c", command]
        return [_powershell(), "-Command", command + _CLAUDE_TAIL]
    if cli == "gemini":
        return ["powershell.exe", "-NoProfile", "-NonInteractive", "-Command",
                command + _GEMINI_TAIL]
    if shell == "powershell":
        return [_powershell(), "-NoProfile", "-Command", command]
    if shell == "bash":
        return [git_bash, "-c", command]
    return [comspec, "/d", "/s", "/c", command]


def main(root: Path, out: Path) -> None:
    word, notes = windows_python(None)
    cases = []
    for cli, shells in sorted(SHELLS.items()):
        command = _written(root, cli) or windows_command(cli, "guard", word, fail_closed=True)
        for shell in shells:
            cases.append({
                "cli": cli, "shell": shell, "argv": _spawns(cli, shell, command),
                "verbatim": shell == "cmd",  # Factory Droid; Qwen Code's spawn is not verbatim
                "cwd": str(root if cli == "qwen" else root / "src" / "deep"),
                "env": {"CLAUDE_PROJECT_DIR": str(root).replace("\\", "/") if shell == "bash"
                        else str(root), "COPILOT_PROJECT_DIR": str(root)},
                "direct": [*word.split(), ".hookwrap/lib/run.py", "guard", "--platform", cli],
            })
    plugins = {cli: str(root / rel) for cli, rel in _PLUGINS.items() if (root / rel).is_file()}
    out.write_text(json.dumps({"root": str(root), "notes": notes, "cases": cases,
                               "plugins": plugins}, indent=2))


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]))
