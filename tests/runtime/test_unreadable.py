"""runner.unreadable: what a fail-closed hook counts as a call it cannot read (issue 31).

A false "cannot read" would block every call of that shape, so every CLI's captured before_tool
payloads must read; the malformed shapes must not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookwrap.generator.samples import load_sample, sample_tools
from hookwrap.generator.clis import setup_of
from hookwrap.hookinput import normalize_input
from hookwrap.names import NormalizedEvent, Platform
from hookwrap.runner import unreadable

CASES = [(platform, tool) for platform in Platform
         for tool in sample_tools(platform, setup_of(platform).runtime.event_names()[NormalizedEvent.BEFORE_TOOL])]


def _why(payload: Any, platform: Platform) -> str:
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    return unreadable(raw, normalize_input(raw, platform))


@pytest.mark.parametrize(("platform", "tool"), CASES, ids=[f"{p.value}-{t}" for p, t in CASES])
def test_every_captured_tool_call_reads(platform: Platform, tool: str) -> None:
    event = setup_of(platform).runtime.event_names()[NormalizedEvent.BEFORE_TOOL]
    assert _why(load_sample(platform, event, tool=tool), platform) == ""


@pytest.mark.parametrize(("raw", "why"), [
    ("", "stdin was empty"), (" \n", "stdin was empty"), ("{", "the payload is not JSON"),
    ("[1]", "the payload is a list, not an object"), ("null", "the payload is null, not an object"),
    ("{}", "the payload names no hook event"),
])
def test_a_payload_that_is_no_json_object(raw: str, why: str) -> None:
    assert _why(raw, Platform.CLAUDE) == why


@pytest.mark.parametrize(("change", "why"), [
    ({"tool_input": "rm -rf /"}, "its tool_input is a string, not an object"),
    ({"tool_input": {"command": ["rm", "-rf", "/"]}}, "its command is a list, not a string"),
    ({"tool_input": {}}, "its command is null, not a string"),
    ({"tool_name": ""}, "the payload names no tool"),
    ({"tool_name": "Write", "tool_input": {"file_path": ["a", "b"], "content": "x"}},
     "it names no file it writes"),
    ({"hook_event_name": "PostToolUse"}, "the payload is a PostToolUse event, not a tool call"),
])
def test_a_claude_tool_call_in_another_shape(change: dict[str, Any], why: str) -> None:
    payload = {**load_sample(Platform.CLAUDE, "PreToolUse", tool="Bash"), **change}
    assert _why(payload, Platform.CLAUDE) == why


@pytest.mark.parametrize(("commands", "why"), [
    (["ls", "pwd"], ""), ("ls", ""), (["ls", ["rm", "-rf", "/"]], "its commands are not a list of strings"),
    ([], "its commands are not a list of strings"), (3, "its commands are a number, not a list"),
])
def test_cline_run_commands(commands: Any, why: str) -> None:
    payload = load_sample(Platform.CLINE, "PreToolUse", tool="run_commands")
    payload["tool_call"]["input"]["commands"] = commands
    assert _why(payload, Platform.CLINE) == why
