"""REQ-006.4: HookInput.from_dict and normalize_input, plus every field a real payload carries."""

from __future__ import annotations

import dataclasses
import json

import pytest
from support.runtime import load_payload

from hookwrap import HookInput, NormalizedEvent, Platform, normalize_input

E = NormalizedEvent
CLAUDE = Platform.CLAUDE
GEMINI = Platform.GEMINI


def test_req_006_4_1_hook_input_is_a_dataclass_with_the_seed_fields() -> None:
    assert dataclasses.is_dataclass(HookInput)
    names = [f.name for f in dataclasses.fields(HookInput)]
    assert names[:10] == [
        "platform", "event", "session_id", "transcript_path", "cwd",
        "tool_name", "tool_input", "tool_response", "prompt", "raw_input",
    ]


def test_req_006_4_1_seed_fields_are_filled_from_the_payload() -> None:
    data = {
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/p",
        "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "tool_response": {"stdout": "x"},
        "prompt": "hi",
    }
    hi = HookInput.from_dict(data, CLAUDE)
    assert (hi.platform, hi.event, hi.session_id, hi.transcript_path, hi.cwd) == (
        CLAUDE, E.AFTER_TOOL, "s1", "/t.jsonl", "/p",
    )
    assert (hi.tool_name, hi.tool_input, hi.tool_response, hi.prompt) == (
        "shell", {"command": "ls"}, {"stdout": "x"}, "hi",
    )


def test_req_006_4_1_missing_keys_give_empty_defaults() -> None:
    hi = HookInput.from_dict({"hook_event_name": "SessionStart"}, GEMINI)
    assert (hi.session_id, hi.transcript_path, hi.cwd, hi.tool_name, hi.prompt) == ("", "", "", "", "")
    assert hi.tool_input == {}
    assert hi.tool_response is None
    assert hi.stop_hook_active is False


@pytest.mark.parametrize(
    ("platform", "raw", "expected"),
    [
        (CLAUDE, "PreToolUse", E.BEFORE_TOOL),
        (CLAUDE, "SubagentStop", E.AFTER_AGENT),
        (GEMINI, "BeforeAgent", E.BEFORE_PROMPT),
        (GEMINI, "AfterModel", E.AFTER_MODEL),
    ],
)
def test_req_006_4_2_event_is_normalized(platform: Platform, raw: str, expected: E) -> None:
    hi = HookInput.from_dict({"hook_event_name": raw}, platform)
    assert hi.event is expected
    assert hi.raw_event == raw


@pytest.mark.parametrize(
    ("platform", "raw", "expected"),
    [
        (CLAUDE, "Bash", "shell"),
        (CLAUDE, "Agent", "task"),
        (GEMINI, "run_shell_command", "shell"),
        (GEMINI, "replace", "edit_file"),
        (GEMINI, "search_file_content", "grep"),
        (CLAUDE, "mcp__Srv__Tool", "mcp__srv__tool"),
    ],
)
def test_req_006_4_3_tool_name_is_normalized_and_raw_name_kept(platform: Platform, raw: str, expected: str) -> None:
    hi = HookInput.from_dict({"hook_event_name": "PreToolUse", "tool_name": raw}, platform)
    assert hi.tool_name == expected
    assert hi.raw_tool_name == raw


@pytest.mark.parametrize("platform", list(Platform))
@pytest.mark.parametrize("data", [{}, {"hook_event_name": "Bogus"}, {"hook_event_name": ""}, {"hook_event_name": 7}])
def test_req_006_4_4_unknown_event_defaults_to_after_agent(platform: Platform, data: dict) -> None:
    assert HookInput.from_dict(data, platform).event is E.AFTER_AGENT


def test_req_006_4_4_unknown_claude_event_keeps_its_raw_name() -> None:
    hi = HookInput.from_dict({"hook_event_name": "MessageDisplay"}, CLAUDE)
    assert hi.event is E.AFTER_AGENT
    assert hi.raw_event == "MessageDisplay"


def test_req_006_4_5_raw_input_is_the_original_payload() -> None:
    data = load_payload("claude/PostToolUse.json")
    before = json.dumps(data, sort_keys=True)
    hi = HookInput.from_dict(data, CLAUDE)
    assert hi.raw_input == data
    assert json.dumps(hi.raw_input, sort_keys=True) == before
    assert hi.raw_input["effort"] == {"level": "medium"}
    assert hi.raw_input["duration_ms"] == 27


def test_req_006_4_6_normalize_input_parses_json() -> None:
    raw = json.dumps({"hook_event_name": "BeforeTool", "tool_name": "write_file", "tool_input": {"file_path": "a"}})
    hi = normalize_input(raw, GEMINI)
    assert (hi.event, hi.tool_name, hi.tool_input) == (E.BEFORE_TOOL, "write_file", {"file_path": "a"})
    assert hi.raw_input == json.loads(raw)


@pytest.mark.parametrize(
    "raw",
    ["", "   \n", "{", "not json", "{'single': 'quotes'}", "[1, 2]", "null", "42", '"a string"',
     "[" * 100000, '{"a": 1} {"b": 2}'],
    ids=["empty", "blank", "open-brace", "text", "single-quotes", "array", "null", "number", "string",
         "deep-nesting", "two-documents"],
)
@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_4_6_empty_or_bad_json_gives_empty_dict(raw: str, platform: Platform) -> None:
    hi = normalize_input(raw, platform)
    assert hi.raw_input == {}
    assert hi.event is E.AFTER_AGENT
    assert hi.platform is platform


def test_from_dict_accepts_a_platform_string() -> None:
    assert HookInput.from_dict({}, "gemini").platform is GEMINI


def test_from_dict_treats_a_non_dict_as_empty() -> None:
    hi = HookInput.from_dict(["hook_event_name", "PreToolUse"], CLAUDE)  # type: ignore[arg-type]
    assert hi.event is E.AFTER_AGENT
    assert hi.raw_input == {}


def test_non_dict_tool_input_becomes_empty_dict() -> None:
    hi = HookInput.from_dict({"hook_event_name": "PreToolUse", "tool_input": "ls"}, CLAUDE)
    assert hi.tool_input == {}
    assert hi.raw_input["tool_input"] == "ls"


# Every field a real payload carries is reachable.


def test_claude_pre_tool_use_fields() -> None:
    hi = HookInput.from_dict(load_payload("claude/PreToolUse.json"), CLAUDE)
    assert hi.permission_mode == "bypassPermissions"
    assert hi.tool_use_id == "toolu_mock_0_c6f20215"
    assert hi.prompt_id == "0d6c38e0-74d7-425f-bbc8-99968c80284b"
    assert hi.get("effort") == {"level": "medium"}


def test_claude_stop_fields() -> None:
    data = dict(load_payload("claude/Stop.json"), stop_hook_active=True)
    hi = HookInput.from_dict(data, CLAUDE)
    assert hi.stop_hook_active is True
    assert hi.last_assistant_message == "done"
    assert hi.get("background_tasks") == []


def test_stop_hook_active_only_true_for_json_true() -> None:
    for value in ("true", 1, "yes", None):
        hi = HookInput.from_dict({"hook_event_name": "Stop", "stop_hook_active": value}, CLAUDE)
        assert hi.stop_hook_active is False, value


def test_claude_post_tool_use_failure_fields() -> None:
    hi = HookInput.from_dict(load_payload("claude/PostToolUseFailure.Failure.json"), CLAUDE)
    assert hi.event is E.AFTER_TOOL_FAILURE
    assert hi.error == "Exit code 3\nfailing"
    assert hi.get("is_interrupt") is False


def test_claude_notification_fields() -> None:
    data = {"hook_event_name": "Notification", "message": "Claude needs your permission",
            "notification_type": "permission_prompt", "title": "Permission"}
    hi = HookInput.from_dict(data, CLAUDE)
    assert (hi.event, hi.message, hi.notification_type) == (
        E.NOTIFICATION, "Claude needs your permission", "permission_prompt",
    )
    assert hi.get("title") == "Permission"


def test_claude_pre_compact_and_subagent_fields() -> None:
    hi = HookInput.from_dict({"hook_event_name": "PreCompact", "trigger": "manual"}, CLAUDE)
    assert (hi.event, hi.trigger) == (E.PRE_COMPACT, "manual")
    hi = HookInput.from_dict(
        {"hook_event_name": "SubagentStop", "agent_id": "a1", "agent_type": "explorer", "stop_hook_active": True},
        CLAUDE,
    )
    assert (hi.event, hi.raw_event, hi.agent_id, hi.agent_type, hi.stop_hook_active) == (
        E.AFTER_AGENT, "SubagentStop", "a1", "explorer", True,
    )


def test_session_fields() -> None:
    assert HookInput.from_dict(load_payload("claude/SessionStart.json"), CLAUDE).source == "startup"
    assert HookInput.from_dict(load_payload("claude/SessionEnd.json"), CLAUDE).reason == "other"
    assert HookInput.from_dict(load_payload("gemini/SessionEnd.json"), GEMINI).reason == "exit"


def test_gemini_after_agent_fields() -> None:
    hi = HookInput.from_dict(load_payload("gemini/AfterAgent.stop_hook_active.json"), GEMINI)
    assert hi.prompt == "please run the tool"
    assert hi.prompt_response == "done\ndone"
    assert hi.stop_hook_active is True
    assert hi.timestamp == "2026-11-25T22:35:53.653Z"


def test_gemini_model_fields() -> None:
    hi = HookInput.from_dict(load_payload("gemini/AfterModel.json"), GEMINI)
    data = load_payload("gemini/AfterModel.json")
    assert hi.llm_request == data["llm_request"]
    assert hi.llm_response == data["llm_response"]
    assert hi.llm_request["model"] == "gemini-3.8-flash"


def test_gemini_mcp_context_field() -> None:
    hi = HookInput.from_dict(load_payload("gemini/BeforeTool.mcp.inprocess.json"), GEMINI)
    assert hi.mcp_context == {"server_name": "myserver", "tool_name": "do_thing", "command": "node", "args": ["srv.js"]}
    assert hi.tool_name == "mcp__myserver__do_thing"  # MCP tools: one normalized spelling


def test_gemini_notification_fields() -> None:
    hi = HookInput.from_dict(load_payload("gemini/Notification.json"), GEMINI)
    assert hi.notification_type == "ToolPermission"
    assert hi.message == "Tool Confirm Shell Command requires execution"
    assert hi.get("details")["type"] == "exec"


def test_camel_case_keys_are_accepted() -> None:
    data = {"hookEventName": "PreToolUse", "sessionId": "s", "transcriptPath": "/t", "cwd": "/c",
            "toolName": "Bash", "toolInput": {"command": "ls"}, "toolResponse": "out",
            "permissionMode": "plan", "toolUseId": "tu", "stopHookActive": True}
    hi = HookInput.from_dict(data, CLAUDE)
    assert (hi.event, hi.raw_event, hi.session_id, hi.transcript_path) == (E.BEFORE_TOOL, "PreToolUse", "s", "/t")
    assert (hi.tool_name, hi.raw_tool_name, hi.tool_input, hi.tool_response) == ("shell", "Bash", {"command": "ls"}, "out")
    assert (hi.permission_mode, hi.tool_use_id, hi.stop_hook_active) == ("plan", "tu", True)


def test_snake_case_key_wins_over_camel_case() -> None:
    hi = HookInput.from_dict({"hook_event_name": "Stop", "session_id": "snake", "sessionId": "camel"}, CLAUDE)
    assert hi.session_id == "snake"


@pytest.mark.parametrize("key", ["tool_parameters", "toolParameters"])
def test_gemini_tool_parameters_alias(key: str) -> None:
    hi = HookInput.from_dict({"hook_event_name": "BeforeTool", "tool_name": "write_file", key: {"file_path": "x"}}, GEMINI)
    assert hi.tool_input == {"file_path": "x"}


def test_tool_input_wins_over_tool_parameters() -> None:
    hi = HookInput.from_dict(
        {"hook_event_name": "BeforeTool", "tool_input": {"a": 1}, "tool_parameters": {"b": 2}}, GEMINI
    )
    assert hi.tool_input == {"a": 1}


@pytest.mark.parametrize(
    ("platform", "raw", "event", "canonical"),
    [
        (CLAUDE, "pre-tool-use", E.BEFORE_TOOL, "PreToolUse"),
        (CLAUDE, "post-tool-use", E.AFTER_TOOL, "PostToolUse"),
        (CLAUDE, "stop", E.AFTER_AGENT, "Stop"),
        (GEMINI, "before-tool", E.BEFORE_TOOL, "BeforeTool"),
        (GEMINI, "after-agent", E.AFTER_AGENT, "AfterAgent"),
    ],
)
def test_kebab_case_event_names_normalize(platform: Platform, raw: str, event: E, canonical: str) -> None:
    hi = HookInput.from_dict({"hook_event_name": raw}, platform)
    assert hi.event is event
    assert hi.raw_event == canonical
    assert hi.raw_input["hook_event_name"] == raw


def test_daemon_envelope_is_unwrapped() -> None:
    data = {"hook_type": "pre-tool-use", "input_data": {"tool_name": "Bash", "tool_input": {"command": "ls"}, "session_id": "s"}}
    hi = HookInput.from_dict(data, CLAUDE)
    assert (hi.event, hi.tool_name, hi.tool_input, hi.session_id) == (E.BEFORE_TOOL, "shell", {"command": "ls"}, "s")
    assert hi.raw_input is data
    assert hi.get("session_id") == "s"


def test_get_reads_any_key_and_its_camel_case_spelling() -> None:
    hi = HookInput.from_dict({"hook_event_name": "PostToolUse", "durationMs": 5, "tool_calls": [1]}, CLAUDE)
    assert hi.get("duration_ms") == 5
    assert hi.get("tool_calls") == [1]
    assert hi.get("missing", "dflt") == "dflt"


def test_non_string_values_become_text() -> None:
    hi = HookInput.from_dict({"hook_event_name": "Stop", "session_id": 12, "cwd": None, "prompt": 3.5}, CLAUDE)
    assert (hi.session_id, hi.cwd, hi.prompt) == ("12", "", "3.5")


def test_project_dir_prefers_the_cli_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    hi = HookInput.from_dict({"cwd": "/from/payload"}, CLAUDE)
    assert hi.project_dir == "/from/payload"
    monkeypatch.setenv("GEMINI_PROJECT_DIR", "/gem")
    assert hi.project_dir == "/gem"
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/claude")
    assert hi.project_dir == "/claude"
