"""NaN and Infinity in a HookOutput never reach stdout as non-JSON: the hook blocks instead."""

from __future__ import annotations

import io
import json
import sys
from unittest import mock

import pytest
from support.cli import strict_json

from hookwrap import HookOutput, NormalizedEvent, Platform, denormalize_output, run_hook

PAYLOADS = {
    Platform.CLAUDE: {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "ls"}},
    Platform.GEMINI: {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                      "tool_input": {"command": "ls"}},
    Platform.CODEX: {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                     "tool_input": {"command": "ls"}},
    Platform.QWEN: {"hook_event_name": "PreToolUse", "tool_name": "run_shell_command",
                    "tool_input": {"command": "ls"}},
    Platform.COPILOT: {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "ls", "description": "list"}},
    Platform.OPENCODE: {"hook_event_name": "PreToolUse", "tool_name": "bash",
                        "tool_input": {"command": "ls"}},
    Platform.DROID: {"hook_event_name": "PreToolUse", "tool_name": "Execute",
                     "tool_input": {"command": "ls", "riskLevel": "low", "riskLevelReason": "list"}},
    Platform.PI: {"hook_event_name": "PreToolUse", "tool_name": "bash", "tool_input": {"command": "ls"}},
    Platform.KILO: {"hook_event_name": "PreToolUse", "tool_name": "bash",
                    "tool_input": {"command": "ls"}},
    Platform.CLINE: {"hookName": "tool_call", "taskId": "conv_1",
                     "tool_call": {"id": "call_0", "name": "run_commands", "input": {"commands": ["ls"]}}},
}
BAD = [
    # A key every CLI reads: Codex CLI's module drops keys outside its schema, NaN or not.
    HookOutput(raw_output={"systemMessage": float("nan")}),
    HookOutput(updated_input={"command": "ls", "n": float("inf")}),
    HookOutput(updated_input={"n": [float("-inf")]}),
]


@pytest.mark.parametrize("output", BAD)
def test_denormalize_output_refuses_nan_and_infinity(output: HookOutput) -> None:
    with pytest.raises(ValueError):
        denormalize_output(output, Platform.CLAUDE, NormalizedEvent.BEFORE_TOOL, "PreToolUse")


@pytest.mark.parametrize("platform", list(Platform))
@pytest.mark.parametrize("output", BAD)
def test_a_hook_returning_nan_blocks_with_one_json_document(platform: Platform,
                                                            output: HookOutput) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(PAYLOADS[platform]).encode()), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", stdin), mock.patch.object(sys, "stdout", out), \
            mock.patch.object(sys, "stderr", err):
        assert run_hook(lambda event: output, platform) == 0
    assert out.getvalue().count("\n") == 1
    document = strict_json(out.getvalue().encode())
    assert document["decision"] == "block"
    assert "Out of range float values are not JSON compliant" in document["reason"]
