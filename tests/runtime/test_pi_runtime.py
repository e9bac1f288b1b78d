"""pi 0.73.1 in the runtime: the payloads hookwrap's extension pipes to a hook (captured from the
real binary: names, the `path` field, the `edits` array, failed tools), the flat answers the
extension applies, and an external hook's view of pi's edit (the bridge)."""

from __future__ import annotations

import json

import pytest
from support.runtime import load_payload

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform, denormalize_output
from hookwrap.clis.pi import PI
from hookwrap.platforms import runtime_of

E = NormalizedEvent
P = Platform.PI


def answer(output: HookOutput, event: NormalizedEvent, raw: str) -> dict:
    return json.loads(denormalize_output(output, P, event, raw))


def test_tool_payloads_use_pis_names_and_its_path_field() -> None:
    shell = HookInput.from_dict(load_payload("pi/PreToolUse.json"), P)
    write = HookInput.from_dict(load_payload("pi/PreToolUse.write.json"), P)
    edit = HookInput.from_dict(load_payload("pi/PreToolUse.edit.json"), P)
    read = HookInput.from_dict(load_payload("pi/PreToolUse.read.json"), P)
    assert (shell.event, shell.tool_name, shell.raw_tool_name) == (E.BEFORE_TOOL, "shell", "bash")
    assert shell.tool_input == {"command": "echo hi > ran.txt"} and shell.file_paths == []
    assert (write.tool_name, write.tool_input["path"]) == ("write_file", "new.txt")
    assert write.files == [{"path": "new.txt", "action": "write", "move_to": None}]
    # edit: one file, an `edits` array of replacements; the guard reads event.file_paths.
    assert edit.tool_name == "edit_file" and edit.tool_input["edits"] == [{"oldText": "hello", "newText": "bye"}]
    assert edit.files == [{"path": "w.txt", "action": "update", "move_to": None}]
    assert read.tool_name == "read_file" and read.file_paths == []
    assert shell.session_id and shell.transcript_path.endswith(shell.session_id + ".jsonl")


def test_a_failed_tool_is_after_tool_failure_with_its_error() -> None:
    ok = HookInput.from_dict(load_payload("pi/PostToolUse.json"), P)
    failed = HookInput.from_dict(load_payload("pi/PostToolUseFailure.json"), P)
    no_match = HookInput.from_dict(load_payload("pi/PostToolUseFailure.edit.json"), P)
    assert ok.event is E.AFTER_TOOL and ok.tool_response["isError"] is False
    assert ok.tool_response["content"] == [{"type": "text", "text": "(no output)"}]
    assert failed.event is E.AFTER_TOOL_FAILURE and failed.tool_name == "shell"
    assert failed.error.endswith("Command exited with code 2") and failed.tool_response["isError"] is True
    assert no_match.event is E.AFTER_TOOL_FAILURE and no_match.file_paths == ["w.txt"]
    assert no_match.error.startswith("Could not find the exact text in w.txt")


def test_session_prompt_stop_and_end_payloads() -> None:
    start = HookInput.from_dict(load_payload("pi/SessionStart.json"), P)
    prompt = HookInput.from_dict(load_payload("pi/UserPromptSubmit.json"), P)
    stop = HookInput.from_dict(load_payload("pi/Stop.json"), P)
    end = HookInput.from_dict(load_payload("pi/SessionEnd.json"), P)
    assert (start.event, start.source) == (E.SESSION_START, "startup")
    assert (prompt.event, prompt.prompt) == (E.BEFORE_PROMPT, "run it")
    assert stop.event is E.AFTER_AGENT and not stop.stop_hook_active
    assert stop.last_assistant_message == "Finished."
    assert (end.event, end.reason) == (E.SESSION_END, "quit")


def test_the_record_is_opencodes_with_pis_differences() -> None:
    agent = runtime_of(P)
    assert agent.tool_names() == {"shell": "bash", "write_file": "write", "edit_file": "edit",
                                  "read_file": "read", "grep": "grep", "glob": "find",
                                  "list_directory": "ls"}
    assert agent.platform_tool_names("write_file") == ["write"]  # no apply_patch on pi
    from hookwrap.generator.clis import setup_of

    facts = setup_of(P).facts
    assert facts.settings_file == ".pi/extensions/hookwrap.js" and facts.settings_generated
    assert PI.marker_env == "HOOKWRAP_PI" and PI.project_dir_vars == ("HOOKWRAP_PROJECT_DIR",)


def test_project_dir_is_the_extensions_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWRAP_PROJECT_DIR", "/the/root")
    assert HookInput.from_dict(load_payload("pi/PreToolUse.json"), P).project_dir == "/the/root"


def test_answers_are_the_extensions_flat_json() -> None:
    assert answer(HookOutput.block("no"), E.BEFORE_TOOL, "PreToolUse") == {"decision": "block", "reason": "no"}
    assert answer(HookOutput(decision="deny", reason="no"), E.AFTER_TOOL_FAILURE, "PostToolUseFailure") == \
        {"decision": "block", "reason": "no"}
    out = answer(HookOutput.ask("why"), E.BEFORE_TOOL, "PreToolUse")
    assert out == {"decision": "block", "reason": f"why\n\n{PI.ask_note}"}
    rewrite = answer(HookOutput(updated_input={"command": "ls"}, context="C"), E.BEFORE_TOOL, "PreToolUse")
    assert rewrite == {"updatedInput": {"command": "ls"}, "additionalContext": "C"}
    assert answer(HookOutput(context="C"), E.SESSION_START, "SessionStart") == {"additionalContext": "C"}


def test_limits_say_what_pi_cannot_do() -> None:
    agent = runtime_of(P)
    stop = dict(agent.limits[E.AFTER_AGENT])
    assert "cannot keep the agent working" in stop["block"]
    assert {part for part, _ in agent.limits[E.BEFORE_TOOL]} == {"ask", "allow"}


def test_an_external_hook_sees_pis_edit_as_claudes() -> None:
    agent = runtime_of(P)
    one = {"path": "a.py", "edits": [{"oldText": "x", "newText": "y"}]}
    assert agent.common_tool_input("edit_file", one) == {"file_path": "a.py", "old_string": "x", "new_string": "y"}
    assert agent.own_tool_input("edit_file", agent.common_tool_input("edit_file", one)) == one
    two = {"path": "a.py", "edits": [{"oldText": "x", "newText": "y"}, {"oldText": "p", "newText": "q"}]}
    common = agent.common_tool_input("edit_file", two)
    assert common == {"file_path": "a.py", "edits": [{"old_string": "x", "new_string": "y"},
                                                     {"old_string": "p", "new_string": "q"}]}
    assert agent.own_tool_input("edit_file", common) == two
    # Claude's Edit as an external hook's rewrite; bash's timeout (seconds) stays pi's own.
    assert agent.own_tool_input("edit_file", {"file_path": "b", "old_string": "1", "new_string": "2",
                                              "replace_all": False}) == \
        {"path": "b", "edits": [{"oldText": "1", "newText": "2"}]}
    assert agent.common_tool_input("shell", {"command": "ls", "timeout": 5}) == {"command": "ls"}
    assert agent.common_tool_input("write_file", {"path": "w", "content": "c"}) == {"file_path": "w", "content": "c"}
