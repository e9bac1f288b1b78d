"""Running hooks: in-process through ``run_hook`` or as a script, with the payload fixtures."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from unittest import mock

from hookwrap import Platform, run_hook

from . import PAYLOADS, SRC


def payload_path(name: str) -> Path:
    """``name`` is ``claude/PreToolUse.json`` style."""
    return PAYLOADS / name


def capture_name(platform: Platform | str, event: str) -> str:
    """The fixture of ``event``: ``claude/SessionStart.json``, or for the CLIs whose captures are
    named in kebab case the first one of the event (``codex/session-start.compact.json``)."""
    name = f"{platform}/{event}.json"
    if (PAYLOADS / name).exists():
        return name
    if str(platform) == "cline":  # Cline's own event names (TaskStart for SessionStart)
        from hookwrap.platforms import runtime_of

        own = event if runtime_of(platform).knows_event(event) else \
            runtime_of(platform).event_names()[runtime_of("claude").normalize_event(event)]
        return min(f"cline/{p.name}" for p in (PAYLOADS / "cline").glob(f"{own}*.json"))
    kebab = re.sub(r"(?<!^)(?=[A-Z])", "-", event).lower()
    folder = PAYLOADS / str(platform)
    # Copilot's PascalCase captures are <Event>.<tool>.pascal.json; what hookwrap's OpenCode
    # plugin sends is <Event>[.<tool>].plugin.json.
    found = [*folder.glob(f"{kebab}.*json"), *folder.glob(f"{event}.*pascal.json"),
             *folder.glob(f"{event}.*plugin.json")]
    return min(f"{platform}/{p.name}" for p in found)


def load_payload(name: str) -> dict[str, Any]:
    return json.loads(payload_path(name).read_text(encoding="utf-8"))


def single_json_object(stdout: str) -> dict[str, Any]:
    """The one JSON object ``stdout`` must consist of (one line, then a newline)."""
    assert stdout.endswith("\n"), repr(stdout)
    assert stdout.count("\n") == 1, repr(stdout)
    assert stdout.startswith("{"), repr(stdout)
    document = json.loads(stdout)
    assert isinstance(document, dict), repr(stdout)
    return document


@dataclass
class Run:
    rc: int
    stdout: str
    stderr: str


def run_in_process(hook: Callable[..., Any], platform: Platform | str, stdin: bytes | str) -> Run:
    """Call run_hook with stdin/stdout/stderr replaced by in-memory streams."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    fake_in = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", fake_in), mock.patch.object(sys, "stdout", out), \
            mock.patch.object(sys, "stderr", err):
        rc = run_hook(hook, platform)
    return Run(rc, out.getvalue(), err.getvalue())


def cli_env(buffered: bool = True) -> dict[str, str]:
    """The environment a CLI gives a hook: no PYTHONUNBUFFERED unless asked."""
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH", "")]))
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def run_script(script: Path, args: list[str], stdin: bytes | None, *, buffered: bool = True,
               **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, str(script), *args],
        input=stdin,
        capture_output=True,
        env=cli_env(buffered),
        timeout=60,
        **kwargs,
    )
