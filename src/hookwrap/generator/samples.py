"""Built-in sample payloads: what each CLI really sends, made portable.

The JSON files under ``samples/<platform>/`` were captured from the real CLIs (each at the
version its record names). Machine-specific values were replaced by placeholders that are
filled in at run time: ``@PROJECT_DIR@``, ``@HOME@``, ``@CLAUDE_SLUG@`` (Claude's per-project
transcript folder), ``@PROJECT_NAME@`` (Gemini's per-project temp folder) and ``@TIMESTAMP@``.
A file named ``<Event>.<tool>.json`` is the sample for that event when that tool is called.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from datetime import datetime, timezone
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

from ..generator.clis import setup_of
from ..names import Platform

_PLACEHOLDER_RE = re.compile(r"@(PROJECT_DIR|HOME|CLAUDE_SLUG|PROJECT_NAME|TIMESTAMP)@")



def _sample_dir(platform: Platform) -> Traversable:
    return resources.files("hookwrap").joinpath("generator", "samples", str(platform))


def sample_events(platform: Platform) -> list[str]:
    """The platform event names that have a built-in sample, sorted."""
    names = {item.name.split(".")[0] for item in _sample_dir(platform).iterdir()
             if item.name.endswith(".json")}
    return sorted(names)


def sample_tools(platform: Platform, event: str) -> list[str]:
    """Platform tool names with a sample for ``event``: the default sample's tool first."""
    try:
        default = load_sample(platform, event)
    except KeyError:  # no captured payload for this event: base_payload() stands in
        default = {}
    named = setup_of(platform).runtime.payload_fields(default).get("tool_name")  # Cline: tool_call.name
    tools = [named] if isinstance(named, str) and named else []
    for item in sorted(_sample_dir(platform).iterdir(), key=lambda i: i.name):
        parts = item.name.split(".")
        if len(parts) == 3 and parts[0] == event and parts[1] not in tools:
            tools.append(parts[1])
    return tools


def has_sample(platform: Platform, event: str) -> bool:
    """True when a captured payload exists for this platform event."""
    return _sample_dir(platform).joinpath(f"{event}.json").is_file()


def load_sample(platform: Platform, event: str, *, tool: str | None = None) -> dict:
    """The raw sample (placeholders unfilled); the ``tool`` variant when one exists.

    Raises:
        KeyError: no sample for this platform and event.
    """
    for name in ([f"{event}.{tool}.json"] if tool else []) + [f"{event}.json"]:
        text = _sample_text(platform, name)
        if text is not None:
            return json.loads(text)
    raise KeyError(f"no {platform} sample for {event}")


@functools.cache
def _sample_text(platform: Platform, name: str) -> str | None:
    """The text of a sample file, or None: read once per process (the guard corpus's tests and
    benchmark build ~30,000 payloads; the files ship with hookwrap and do not change)."""
    item = _sample_dir(platform).joinpath(name)
    return item.read_text(encoding="utf-8") if item.is_file() else None


def base_payload(platform: Platform, event: str) -> dict:
    """The common fields alone, for an event that has no captured sample."""
    payload: dict[str, object] = {
        "session_id": "00000000-0000-4000-8000-000000000000",
        "transcript_path": "",
        "cwd": "@PROJECT_DIR@",
        "hook_event_name": event,
    }
    if setup_of(platform).facts.payload_has_timestamp:
        payload["timestamp"] = "@TIMESTAMP@"
    return payload


def sample_payload(
    platform: Platform,
    event: str,
    *,
    project_dir: str | Path,
    home: str | Path | None = None,
    tool: str | None = None,
    tool_input: dict | None = None,
    now: datetime | None = None,
) -> dict:
    """A realistic payload for ``event`` on ``platform``, with this machine's paths filled in.

    Args:
        tool: the platform's tool name for a tool event; replaces the sample's tool.
        tool_input: replaces the sample's ``tool_input``.
        home: the user's home (default: ``Path.home()``), used in transcript paths.
        now: the time written into Gemini's ``timestamp`` (default: now, UTC).
    """
    try:
        payload = load_sample(platform, event, tool=tool)
    except KeyError:
        payload = base_payload(platform, event)
    if tool is not None and setup_of(platform).runtime.payload_fields(payload).get("tool_name") != tool:
        payload["tool_name"] = tool
        payload["tool_input"] = {}
        if "tool_response" in payload:
            # The sample's response no longer fits: the shape every tool's response shares.
            payload["tool_response"] = copy.deepcopy(setup_of(platform).facts.empty_tool_response)
    if tool_input is not None:
        payload["tool_input"] = tool_input
    # fill_placeholders keeps the shape: a dict in, a dict out.
    return cast("dict[str, Any]", fill_placeholders(payload, _values(project_dir, home, now)))


def _values(project_dir: str | Path, home: str | Path | None, now: datetime | None) -> dict[str, str]:
    project = str(Path(project_dir).resolve())
    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return {
        "PROJECT_DIR": project,
        "HOME": str(home if home is not None else Path.home()),
        # Claude Code names a project's transcript folder after its path, every
        # non-alphanumeric character turned into "-".
        "CLAUDE_SLUG": re.sub(r"[^A-Za-z0-9]", "-", project),
        "PROJECT_NAME": Path(project).name,
        "TIMESTAMP": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
    }


def fill_placeholders(value: object, values: dict[str, str]) -> object:
    """Replace every ``@NAME@`` placeholder in the strings of a JSON value."""
    if isinstance(value, str):
        return _PLACEHOLDER_RE.sub(lambda m: values[m.group(1)], value)
    if isinstance(value, list):
        return [fill_placeholders(item, values) for item in value]
    if isinstance(value, dict):
        return {key: fill_placeholders(item, values) for key, item in value.items()}
    return value
