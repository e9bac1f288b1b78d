"""Codex CLI 0.169.0 in the runtime: names, apply_patch files, and answers that fit its strict schemas.

Codex rejects any answer outside its schema and then runs the tool (fails open). The property
test reads every answer hookwrap writes with the same rules `hookwrap test` emulates
(``CodexProtocol.answer_problems``): none may be rejected, and a block must stay a block.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.runtime import load_payload

from hookwrap import (
    EVENT_TO_NORMALIZED,
    NORMALIZED_TO_TOOL,
    HookInput,
    HookOutput,
    NormalizedEvent,
    Platform,
    denormalize_output,
)
from hookwrap.clis._codex_protocol import DEFAULT_BLOCK_REASON
from hookwrap.clis._patch import parse_patch
from hookwrap.clis.codex import CODEX

ASK_NOTE = CODEX.ask_note
from hookwrap.hookoutput import build_output
from hookwrap.platforms import runtime_of

CODEX = Platform.CODEX
PATCH = """*** Begin Patch
*** Add File: docs/new.md
+hello
*** Update File: src/app.py
*** Move to: src/main.py
@@ def main():
-    pass
+    run()
*** Delete File: old.txt
*** Update File: .env
@@
-A=1
+A=2
*** End of File
*** End Patch
"""


def answer(output: HookOutput, raw_event: str) -> dict[str, Any]:
    event = EVENT_TO_NORMALIZED[CODEX][raw_event]
    return json.loads(denormalize_output(output, CODEX, event, raw_event))


def test_events_and_tools() -> None:
    assert EVENT_TO_NORMALIZED[CODEX]["PreToolUse"] is NormalizedEvent.BEFORE_TOOL
    assert EVENT_TO_NORMALIZED[CODEX]["Stop"] is NormalizedEvent.AFTER_AGENT
    assert runtime_of(CODEX).event_names()[NormalizedEvent.AFTER_AGENT] == "Stop"
    assert NORMALIZED_TO_TOOL[CODEX] == {"shell": "Bash", "edit_file": "apply_patch"}
    # A write_file matcher selects apply_patch too (Codex writes new files with it).
    assert runtime_of(CODEX).platform_tool_names("write_file") == ["apply_patch"]


def test_parse_patch_reads_every_file_operation() -> None:
    assert parse_patch(PATCH) == [
        {"path": "docs/new.md", "action": "add", "move_to": None},
        {"path": "src/app.py", "action": "update", "move_to": "src/main.py"},
        {"path": "old.txt", "action": "delete", "move_to": None},
        {"path": ".env", "action": "update", "move_to": None},
    ]
    assert parse_patch("no patch here") == []


def test_parse_patch_reads_headers_as_leniently_as_the_clis() -> None:
    """OpenCode slices after "File:" and trims (JavaScript's whitespace); both CLIs split lines
    on \\n only, so a \\r or U+2028 inside a path cannot hide the rest of it."""
    patch = ("*** Begin Patch\n*** Add File:.env\n+X\n  *** Delete File: a b.txt\u3000\r\n"
             "*** Add File: x\r/../.git/config\n*** Add File: y\u2028z\n*** Add File:   \n*** End Patch")
    assert [(f["action"], f["path"]) for f in parse_patch(patch)] == [
        ("add", ".env"), ("delete", "a b.txt"), ("add", "x\r/../.git/config"), ("add", "y\u2028z")]


def test_apply_patch_payload_exposes_its_files() -> None:
    hi = HookInput.from_dict(load_payload("codex/pre-tool-use.apply_patch.json"), CODEX)
    assert (hi.tool_name, hi.raw_tool_name) == ("write_file", "apply_patch")  # it only adds
    assert hi.files == [{"path": "notes.txt", "action": "add", "move_to": None}]
    assert hi.file_paths == ["notes.txt"]
    edit = HookInput.from_dict({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                                "tool_input": {"command": PATCH}}, CODEX)
    assert edit.tool_name == "edit_file"
    assert edit.file_paths == ["docs/new.md", "src/app.py", "src/main.py", "old.txt", ".env"]


def test_a_patch_run_through_the_shell_tool_is_read_too() -> None:
    command = "apply_patch <<'EOF'\n" + PATCH + "EOF\n"
    hi = HookInput.from_dict({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": command}}, CODEX)
    assert hi.tool_name == "shell"
    assert ".env" in hi.file_paths
    plain = HookInput.from_dict(load_payload("codex/pre-tool-use.bash.json"), CODEX)
    assert (plain.tool_name, plain.files) == ("shell", [])


def test_other_clis_expose_their_file_path_as_files() -> None:
    write = HookInput.from_dict(load_payload("claude/PreToolUse.Write.json"), Platform.CLAUDE)
    assert write.file_paths == [write.tool_input["file_path"]]
    assert write.files[0]["action"] == "write"
    manual = HookInput(platform=Platform.GEMINI, event=NormalizedEvent.BEFORE_TOOL,
                       tool_name="edit_file", tool_input={"file_path": "a.py"})
    assert manual.files == [{"path": "a.py", "action": "update", "move_to": None}]
    read = HookInput(platform=Platform.CLAUDE, event=NormalizedEvent.BEFORE_TOOL,
                     tool_name="read_file", tool_input={"file_path": ".env"})
    assert read.file_paths == []


@pytest.mark.parametrize(("output", "expected"), [
    (HookOutput.block("no"), {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}),
    (HookOutput.block(" "), {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": DEFAULT_BLOCK_REASON}}),
    (HookOutput.ask("sure?"), {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": f"sure? ({ASK_NOTE})"}}),
    (HookOutput(continue_loop=False, stop_reason="S"), {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "S"}}),
    (HookOutput.allow(), {}),
    (HookOutput.allow(suppress_output=True, reason="fine"), {}),
    (HookOutput(updated_input={"command": "ls"}), {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls"}}}),
    (HookOutput(context="ctx", system_message="hi"), {"systemMessage": "hi", "hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "ctx"}}),
    (HookOutput(raw_output={"debug": 1, "hookSpecificOutput": {"x": 1}}), {}),
])
def test_pre_tool_use_answers(output: HookOutput, expected: dict[str, Any]) -> None:
    assert answer(output, "PreToolUse") == expected


@pytest.mark.parametrize(("raw_event", "output", "expected"), [
    ("PostToolUse", HookOutput.block(""), {"decision": "block", "reason": DEFAULT_BLOCK_REASON}),
    ("PostToolUse", HookOutput(reason="why"), {}),  # a reason without a decision voids the answer
    ("PostToolUse", HookOutput(continue_loop=False, stop_reason="S"), {"continue": False, "stopReason": "S"}),
    ("Stop", HookOutput.block("again"), {"decision": "block", "reason": "again"}),
    ("Stop", HookOutput(context="for you"), {"systemMessage": "for you"}),
    ("SessionStart", HookOutput.block("x", context="c"),
     {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "c"}}),
    ("UserPromptSubmit", HookOutput.block("no"), {"decision": "block", "reason": "no"}),
    ("PermissionRequest", HookOutput.block("no"),
     {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                             "decision": {"behavior": "deny", "message": "no"}}}),
    ("PermissionRequest", HookOutput.allow(),
     {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}),
    ("PermissionRequest", HookOutput.allow(updated_input={"command": "ls"}), {}),
    ("PermissionRequest", HookOutput.ask("?"), {}),
    ("SessionEnd", HookOutput.block("x", system_message="m"), {}),
])
def test_other_answers(raw_event: str, output: HookOutput, expected: dict[str, Any]) -> None:
    assert answer(output, raw_event) == expected


texts = st.one_of(st.just(""), st.text(max_size=20))
outputs = st.builds(
    HookOutput,
    decision=st.sampled_from(["", "block", "deny", "allow", "approve", "ask"]),
    reason=texts, context=texts, continue_loop=st.booleans(), stop_reason=texts,
    suppress_output=st.booleans(),
    updated_input=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2)),
    system_message=texts,
    raw_output=st.dictionaries(st.sampled_from(["decision", "reason", "continue", "x", "hookSpecificOutput"]),
                               st.one_of(st.text(max_size=5), st.booleans(), st.just({"y": 1})), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(output=outputs, raw_event=st.sampled_from(sorted(EVENT_TO_NORMALIZED[CODEX])))
def test_every_answer_fits_the_schema_and_a_block_stays_a_block(output: HookOutput, raw_event: str) -> None:
    event = EVENT_TO_NORMALIZED[CODEX][raw_event]
    document = build_output(output, CODEX, event, raw_event)
    assert runtime_of(Platform.CODEX).answer_problems(raw_event, document) == [], document
    blocking = output.decision in ("block", "deny") or (output.decision == "ask" and raw_event == "PreToolUse")
    if blocking and raw_event == "PreToolUse":
        assert document["hookSpecificOutput"]["permissionDecision"] == "deny"
    elif blocking and raw_event in ("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"):
        assert document["decision"] == "block"
    elif blocking and raw_event == "PermissionRequest":
        assert document["hookSpecificOutput"]["decision"]["behavior"] == "deny"


@pytest.mark.parametrize("name", ["PreToolUse", "PermissionRequest"])
def test_a_hook_specific_output_that_is_no_object_is_a_problem_not_a_crash(name: str) -> None:
    codex = runtime_of(Platform.CODEX)
    answer = json.dumps({"hookSpecificOutput": ["deny"]})
    assert codex.answer_problems(name, json.loads(answer)) == ["hookSpecificOutput is not an object"]
    assert codex.read_answer(codex.normalize_event(name), 0, answer, "") == {}
