"""Reading a finished hook run: the shapes, and the steps every CLI's rules share.

Each CLI's own reading rules live in its module (``clis/<platform>.py``, ``interpret``);
``interpret`` here asks the right one. The seed contract's rules and the aggregation of several
runs are in ``hookwrap.testing``. docs/runner-contract.md lists where the CLIs differ.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from .agents import cli
from .platforms import Platform


@dataclass(frozen=True)
class RunResult:
    """What one hook process did. ``exit_code`` is None when it never exited on its own."""

    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: int
    timed_out: bool = False
    signal: int | None = None
    spawn_error: str = ""

    @property
    def success(self) -> bool:
        """HOOK-070: execution health, true for exit code 0 only (exit 2 is not a success)."""
        return self.exit_code == 0


@dataclass(frozen=True)
class Verdict:
    """What the CLI does with a hook's result.

    ``outcome`` is one of "blocked", "kept_working", "stopped", "deferred", "ask", "context",
    "allowed". ``clean`` is False when the hook did not run as the protocol intends (timeout,
    crash, unparsable output, an exit code the event ignores); ``problems`` says why.
    """

    outcome: str = "allowed"
    reason: str = ""
    context: str = ""
    system_message: str = ""
    stop_reason: str | None = None
    updated_input: dict | None = None
    modifications: dict = field(default_factory=dict)
    output: dict | None = None
    success: bool = True
    clean: bool = True
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def interpret(platform: Platform | str, raw_event: str, result: RunResult,
              on_failure: str | None = None) -> Verdict:
    """What the real CLI does with ``result`` for ``raw_event`` (its own event name)."""
    return cli(platform).interpret(raw_event, result, on_failure)


def failure_line(result: RunResult) -> str:
    """One line saying how a run failed, or "" when it exited on its own."""
    if result.spawn_error:
        return f"could not start: {result.spawn_error}"
    if result.timed_out:
        return f"timed out after {result.duration_ms} ms and was killed"
    if result.exit_code is None:
        return f"killed by signal {result.signal}"
    return ""


def missing_script(r: RunResult) -> str:
    """A problem line when the command or script looks missing: bash exits 127, python3 exits 2
    ("can't open file"), and an exit 2 would otherwise pass for an intentional block."""
    if r.exit_code in (2, 126, 127) and re.search(
            r"No such file or directory|command not found|can't open file|Permission denied", r.stderr):
        return f"the hook command or script looks missing or not runnable: {last_line(r.stderr)}"
    return ""


def last_line(text: str) -> str:
    """The last non-empty line of ``text``."""
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def parse_object(text: str) -> tuple[dict | None, bool]:
    """A JSON.parse step: (object or None, whether the text was JSON at all); double-encoded
    JSON (a JSON string holding an object) is accepted."""
    if not text:
        return None, False
    try:
        value = json.loads(text)
        if isinstance(value, str):
            value = json.loads(value)
    except ValueError:
        return None, False
    return (value if isinstance(value, dict) else None), True


def settle(verdict: Verdict, outcome: str | None, reason: str = "") -> Verdict:
    """Pick the outcome: an explicit decision first, then a stop, then context."""
    if outcome is None:
        outcome = "stopped" if verdict.stop_reason is not None else (
            "context" if verdict.context else "allowed")
    return replace(verdict, outcome=outcome, reason=reason if outcome != "allowed" else verdict.reason)
