"""Cline 3.0.65 in the runtime: its payloads read (the real captures), its answers written, and
the dispatcher of hookwrap's hook files (clis/_cline_hooks.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import PAYLOADS

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform, denormalize_output
from hookwrap.clis import _cline_hooks as dispatcher
from hookwrap.platforms import runtime_of

E = NormalizedEvent
CLINE = Platform.CLINE
FORCED_PUSH = "git push --force origin main"


def payload(name: str) -> dict[str, Any]:
    return json.loads((PAYLOADS / "cline" / name).read_text(encoding="utf-8"))


def answer(output: HookOutput, event: E) -> dict[str, Any]:
    return json.loads(denormalize_output(output, CLINE, event))


# --- payloads -------------------------------------------------------------------------------

def test_a_tool_call_is_read_from_cline_s_own_fields() -> None:
    hi = HookInput.from_dict(payload("PreToolUse.run_commands.json"), CLINE)
    assert (hi.event, hi.raw_event, hi.tool_name, hi.raw_tool_name) == \
        (E.BEFORE_TOOL, "PreToolUse", "shell", "run_commands")
    assert hi.tool_input == {"commands": ["echo hi > probe.txt"]}
    assert (hi.session_id, hi.tool_use_id, hi.cwd) == ("1795694961080_sipr7", "call_mock_0", "<proj>")
    assert hi.shell_lines == ["echo hi > probe.txt"]


def test_every_command_of_run_commands_is_a_shell_line() -> None:
    data = payload("PreToolUse.run_commands.json")
    data["tool_call"]["input"] = {"commands": ["ls", FORCED_PUSH, 7]}
    assert HookInput.from_dict(data, CLINE).shell_lines == ["ls", FORCED_PUSH]


def test_editor_is_write_file_without_old_text_else_edit_file() -> None:
    create = HookInput.from_dict(payload("PreToolUse.editor.create.json"), CLINE)
    edit = HookInput.from_dict(payload("PreToolUse.editor.edit.json"), CLINE)
    assert (create.tool_name, edit.tool_name) == ("write_file", "edit_file")
    assert create.file_paths == ["<proj>/w.txt"]
    assert [f["action"] for f in edit.files] == ["update"]


def test_a_failed_tool_s_error_is_its_text_not_object_object() -> None:
    hi = HookInput.from_dict(payload("PostToolUse.run_commands.invalid-input.json"), CLINE)
    assert hi.event is E.AFTER_TOOL
    assert hi.error == "\u2716 Invalid input"
    assert hi.tool_response == {"error": "\u2716 Invalid input"}


def test_lifecycle_events_and_the_last_message() -> None:
    events = {name: HookInput.from_dict(payload(name), CLINE) for name in
              ("TaskStart.json", "TaskComplete.json", "SessionShutdown.after-cancel.json")}
    assert [hi.event for hi in events.values()] == [E.SESSION_START, E.AFTER_AGENT, E.SESSION_END]
    assert events["TaskComplete.json"].last_assistant_message == "done"


def test_claude_s_spelling_in_a_payload_wins() -> None:
    # `hookwrap test --tool/--input` sets tool_name / tool_input on a captured payload.
    data = {**payload("PreToolUse.run_commands.json"), "tool_name": "editor",
            "tool_input": {"path": ".env", "new_text": "X=1"}}
    hi = HookInput.from_dict(data, CLINE)
    assert (hi.tool_name, hi.file_paths) == ("write_file", [".env"])


# --- answers --------------------------------------------------------------------------------

def test_a_block_fails_the_tool_s_input_and_gives_the_reason_as_context() -> None:
    assert answer(HookOutput.block("no force"), E.BEFORE_TOOL) == {
        "decision": "block", "reason": "no force",
        "overrideInput": None, "contextModification": "no force"}


def test_an_ask_is_a_block_that_tells_the_model_to_ask() -> None:
    document = answer(HookOutput.ask("risky"), E.BEFORE_TOOL)
    assert document["overrideInput"] is None
    assert document["contextModification"] == "risky\n\n" + runtime_of(CLINE).ask_note


def test_a_rewrite_replaces_the_whole_input() -> None:
    new = {"commands": ["echo safe"]}
    document = answer(HookOutput(updated_input=new), E.BEFORE_TOOL)
    assert document["overrideInput"] == new and "contextModification" not in document


def test_context_and_a_block_after_the_tool() -> None:
    assert answer(HookOutput(context="note"), E.AFTER_TOOL) == {"contextModification": "note"}
    document = answer(HookOutput.block("too late", context="more"), E.AFTER_TOOL)
    assert document["contextModification"] == "too late\n\nmore"
    assert "overrideInput" not in document


def test_a_stop_is_cline_s_cancel() -> None:
    document = answer(HookOutput(continue_loop=False, stop_reason="enough"), E.BEFORE_TOOL)
    assert (document["cancel"], document["errorMessage"]) == (True, "enough")


def test_raw_output_fills_gaps_only() -> None:
    document = answer(HookOutput.block("mine", raw_output={"overrideInput": {"x": 1}, "review": True}),
                      E.BEFORE_TOOL)
    assert document["overrideInput"] is None and document["review"] is True


def test_a_crash_on_pre_tool_use_blocks_in_cline_s_words() -> None:
    document = runtime_of(CLINE).error_output({"decision": "block", "reason": "boom"}, E.BEFORE_TOOL)
    assert document == {"decision": "block", "reason": "boom", "overrideInput": None,
                        "contextModification": "boom"}


# --- the dispatcher -------------------------------------------------------------------------

def _groups(*commands: tuple[str, str | None, bool], timeout: float = 5) -> list[dict[str, Any]]:
    groups = []
    for command, matcher, closed in commands:
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "name": "h",
                                            "timeout": timeout, "failClosed": closed}]}
        if matcher:
            group["matcher"] = matcher
        groups.append(group)
    return groups


def _echo(document: dict[str, Any]) -> str:
    return f"cat > /dev/null; printf '%s' '{json.dumps(document)}'"


RAW = json.dumps(payload("PreToolUse.run_commands.json")).encode()


def test_only_the_hooks_a_tool_selects_run_and_their_answers_merge(tmp_path) -> None:
    groups = _groups((_echo({"contextModification": "a"}), "^(run_commands)$", False),
                     (_echo({"contextModification": "never"}), "^editor$", False),
                     (_echo({"overrideInput": None, "contextModification": "b"}), None, True),
                     (_echo({"overrideInput": {"commands": ["ls"]}}), None, False))
    merged = dispatcher.dispatch(str(tmp_path), "PreToolUse", groups, RAW)
    # The block wins over a later rewrite; contexts are joined in order.
    assert merged == {"overrideInput": None, "contextModification": "a\n\nb"}


@pytest.mark.parametrize("command", ["exit 3", "sleep 30", "echo not json"])
def test_a_fail_closed_hook_that_gives_no_answer_blocks(tmp_path, command: str) -> None:
    groups = _groups((command, None, True), timeout=1)
    merged = dispatcher.dispatch(str(tmp_path), "PreToolUse", groups, RAW)
    assert merged["overrideInput"] is None
    assert merged["contextModification"].startswith("hookwrap: the fail-closed hook h could not answer")


def test_a_hook_that_is_not_fail_closed_lets_the_tool_run(tmp_path) -> None:
    merged = dispatcher.dispatch(str(tmp_path), "PreToolUse", _groups(("exit 1", None, False)), RAW)
    assert merged == {}


def test_the_hooks_of_one_call_share_one_deadline(tmp_path, monkeypatch) -> None:
    ticks = iter([0.0, dispatcher.DEADLINE_S + 1])
    groups = _groups((_echo({}), None, True))
    merged = dispatcher.dispatch(str(tmp_path), "PreToolUse", groups, RAW, clock=lambda: next(ticks))
    assert "no time left" in merged["contextModification"]


def test_a_hook_that_could_not_read_its_payload_still_blocks(tmp_path) -> None:
    document = {"decision": "block", "reason": "Hook Script Error"}
    merged = dispatcher.dispatch(str(tmp_path), "PreToolUse", _groups((_echo(document), None, False)), RAW)
    assert merged == {"overrideInput": None, "contextModification": "Hook Script Error"}

