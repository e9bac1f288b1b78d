"""Every real payload captured from every CLI, through HookInput.from_dict, against a golden table.

The payloads are in tests/fixtures/payloads/<cli>/ (copied from the reference captures);
golden/payloads.json gives, per file, the expected normalized event and tool, the raw names, and
every string field the payload carries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import PAYLOADS, REPO_ROOT as REPO
from support.runtime import load_payload

from hookwrap import HookInput, NormalizedEvent, Platform
from hookwrap.generator.clis import setup_of
from hookwrap.platforms import runtime_of

GOLDEN_FILE = Path(__file__).resolve().parent / "golden" / "payloads.json"
GOLDEN: dict[str, dict[str, Any]] = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))
FILES = sorted(f"{p.parent.name}/{p.name}" for p in PAYLOADS.glob("*/*.json"))

STR_FIELDS = [
    "session_id", "transcript_path", "cwd", "tool_name", "prompt", "raw_event", "raw_tool_name",
    "permission_mode", "tool_use_id", "message", "notification_type", "trigger", "source", "reason",
    "prompt_response", "last_assistant_message", "timestamp", "prompt_id", "agent_id", "agent_type",
]
ANY_FIELDS = ["tool_response", "error", "llm_request", "llm_response", "mcp_context"]


def test_every_fixture_has_a_golden_entry_and_back() -> None:
    # 27 Claude + 19 Gemini + 16 Codex + 13 Qwen + 25 Copilot + 12 Droid captures, 12 each of what
    # hookwrap's generated plugin pipes to a hook (captured in opencode 1.18.33 and kilo 7.7.9),
    # 14 of what its pi extension pipes (captured in pi 0.73.1), and 14 Cline payloads (3.0.65,
    # Cline's own shape)
    assert len(FILES) == 164
    assert sorted(GOLDEN) == FILES


def test_fixtures_match_the_reference_captures_when_present() -> None:
    reference = REPO.parent / "shared" / "reference" / "payloads"
    if not reference.is_dir():
        pytest.skip("no reference captures next to this checkout")
    # Only the CLIs hookwrap supports have fixtures; the reference holds captures of others too,
    # and none of Droid's (captured for hookwrap itself: docs/droid-notes.md). A CLI without
    # command hooks (OpenCode) gets the payloads of hookwrap's own generated plugin, which the
    # reference (captures of the plugin API) cannot hold.
    generated = {p.value for p in Platform if setup_of(p).facts.settings_generated}
    supported = {p.parent.name for p in PAYLOADS.glob("*/*.json")} - generated
    referenced = {p.parent.name for p in reference.glob("*/*.json")} - generated
    # Every fixture is a reference capture, byte for byte. Every hook payload of the reference
    # is a fixture; the reference also holds what was around the hooks (the hook process's
    # environment, _hook_env.json; the model's requests, model-request.*), a fixture only where
    # a test reads it (Codex's model-request.after-hooks.json).
    ours = [name for name in FILES if name.split("/")[0] in referenced]
    for name in ours:
        assert (reference / name).is_file(), f"{name}: not in the reference captures"
        assert (reference / name).read_bytes() == (PAYLOADS / name).read_bytes(), name
    payloads = sorted(f"{p.parent.name}/{p.name}" for p in reference.glob("*/*.json")
                      if p.parent.name in supported
                      and not p.name.startswith(("_", "model-request")))
    assert sorted(set(payloads) - set(ours)) == []


@pytest.mark.parametrize("name", FILES)
def test_payload_golden(name: str) -> None:
    expected = GOLDEN[name]
    data = load_payload(name)
    platform = Platform(name.split("/")[0])
    hi = HookInput.from_dict(data, platform)

    assert hi.platform is platform
    assert hi.event is NormalizedEvent(expected["event"])
    assert hi.raw_event == expected["raw_event"]
    assert hi.tool_name == expected["tool_name"]
    assert hi.raw_tool_name == expected["raw_tool_name"]
    assert hi.tool_input == expected.get("tool_input", {})
    assert hi.stop_hook_active is expected.get("stop_hook_active", False)
    for field in STR_FIELDS:
        if field in ("raw_event", "raw_tool_name", "tool_name"):
            continue
        assert getattr(hi, field) == expected.get(field, ""), field
    for field in ANY_FIELDS:
        want = data.get(field)
        if field == "tool_response" and want is None:   # Copilot CLI's name for it
            want = data.get("tool_result", data.get("toolResult"))
        if platform is Platform.CLINE:  # Cline's own payload: tool_result.output, its error
            want = runtime_of(platform).payload_fields(data).get(field)
        assert getattr(hi, field) == want, field
    assert hi.raw_input == data


def test_golden_table_fields_are_all_checked() -> None:
    known = {"event", "raw_event", "tool_name", "raw_tool_name", "tool_input", "stop_hook_active", *STR_FIELDS}
    for name, entry in GOLDEN.items():
        assert set(entry) <= known, name


# Spot checks of the values the golden table holds, readable without opening it.


def test_golden_claude_bash_pre_tool_use() -> None:
    entry = GOLDEN["claude/PreToolUse.json"]
    assert (entry["event"], entry["tool_name"], entry["raw_tool_name"]) == ("before_tool", "shell", "Bash")
    assert entry["tool_use_id"] == "toolu_mock_0_c6f20215"


def test_golden_gemini_write_file_before_tool() -> None:
    entry = GOLDEN["gemini/BeforeTool.write_file.json"]
    assert (entry["event"], entry["tool_name"], entry["raw_tool_name"]) == ("before_tool", "write_file", "write_file")
    assert entry["tool_input"] == {"file_path": "written_by_tool.txt", "content": "hello from write_file\n"}


def test_golden_unmapped_claude_event_is_after_agent() -> None:
    entry = GOLDEN["claude/MessageDisplay.json"]
    assert (entry["event"], entry["raw_event"]) == ("after_agent", "MessageDisplay")


def test_payload_extras_reachable_through_get() -> None:
    batch = HookInput.from_dict(load_payload("claude/PostToolBatch.Write.json"), Platform.CLAUDE)
    assert batch.get("tool_calls")[0]["tool_name"] == "Write"
    permission = HookInput.from_dict(load_payload("claude/PermissionRequest.DefaultMode.json"), Platform.CLAUDE)
    assert permission.get("permission_suggestions")[0]["type"] == "addDirectories"
    display = HookInput.from_dict(load_payload("claude/MessageDisplay.json"), Platform.CLAUDE)
    assert (display.get("delta"), display.get("final"), display.get("index")) == ("done", True, 0)
    chunk = HookInput.from_dict(load_payload("gemini/AfterModel.functionCallChunk.json"), Platform.GEMINI)
    assert chunk.llm_response["candidates"][0]["content"]["parts"] == []
    assert chunk.llm_request["model"] == "gemini-2.5-flash"
