"""OpenCode 1.18.33 in the runtime: the payload hookwrap's plugin pipes to a hook (names, files),
and the flat answer the plugin applies (block, updatedInput, additionalContext, systemMessage)."""

from __future__ import annotations

import json

from support.runtime import load_payload, run_in_process

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform, denormalize_output
from hookwrap.clis.opencode import OPENCODE

ASK_NOTE = OPENCODE.ask_note
from hookwrap.platforms import runtime_of

E = NormalizedEvent
OC = Platform.OPENCODE


def answer(output: HookOutput, event: NormalizedEvent, raw: str) -> dict:
    return json.loads(denormalize_output(output, OC, event, raw))


def test_plugin_payloads_use_opencodes_tool_names_and_camel_case_paths() -> None:
    shell = HookInput.from_dict(load_payload("opencode/PreToolUse.bash.plugin.json"), OC)
    write = HookInput.from_dict(load_payload("opencode/PreToolUse.write.plugin.json"), OC)
    edit = HookInput.from_dict(load_payload("opencode/PreToolUse.edit.plugin.json"), OC)
    assert (shell.event, shell.tool_name, shell.raw_tool_name) == (E.BEFORE_TOOL, "shell", "bash")
    assert write.tool_name == "write_file" and write.file_paths == [write.tool_input["filePath"]]
    assert edit.files == [{"path": edit.tool_input["filePath"], "action": "update", "move_to": None}]
    assert runtime_of(OC).tool_names()["shell"] == "bash" and runtime_of(OC).normalize_tool("webfetch") == "web_fetch"


def test_apply_patch_is_write_or_edit_with_the_files_of_its_patch() -> None:
    """GPT models get apply_patch ({"patchText"}) in place of write and edit (OpenCode 1.18.33)."""
    def call(patch: str) -> HookInput:
        return HookInput.from_dict({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                                    "tool_input": {"patchText": patch}}, OC)

    added = call("*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch")
    assert (added.tool_name, added.raw_tool_name) == ("write_file", "apply_patch")
    assert added.files == [{"path": ".env", "action": "add", "move_to": None}]
    assert added.file_paths == [".env"]
    mixed = call("*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n"
                 "*** Delete File:  old.txt \r\n*** End Patch")
    assert mixed.tool_name == "edit_file"
    assert mixed.file_paths == ["a.py", "b.py", "old.txt"]
    assert call("not a patch").files == [] and call("not a patch").tool_name == "edit_file"
    agent = runtime_of(OC)
    assert agent.platform_tool_names("write_file") == ["write", "apply_patch"]
    assert agent.platform_tool_names("edit_file") == ["edit", "apply_patch"]
    assert agent.tool_names()["write_file"] == "write"  # still the name OpenCode prefers


def test_session_prompt_and_stop_payloads() -> None:
    start = HookInput.from_dict(load_payload("opencode/SessionStart.plugin.json"), OC)
    prompt = HookInput.from_dict(load_payload("opencode/UserPromptSubmit.plugin.json"), OC)
    stop = HookInput.from_dict(load_payload("opencode/Stop.plugin.json"), OC)
    assert (start.event, start.source) == (E.SESSION_START, "startup")
    assert (prompt.event, prompt.prompt) == (E.BEFORE_PROMPT, '"run it"')  # opencode run quotes it
    assert stop.event is E.AFTER_AGENT and not stop.stop_hook_active


def test_project_dir_is_the_plugins_variable(monkeypatch) -> None:
    monkeypatch.setenv("HOOKWRAP_PROJECT_DIR", "/the/root")
    hi = HookInput.from_dict(load_payload("opencode/PreToolUse.bash.plugin.json"), OC)
    assert hi.project_dir == "/the/root"


def test_block_is_flat() -> None:
    assert answer(HookOutput.block("no"), E.BEFORE_TOOL, "PreToolUse") == {"decision": "block", "reason": "no"}
    assert answer(HookOutput(decision="deny", reason="no"), E.AFTER_TOOL, "PostToolUse") == \
        {"decision": "block", "reason": "no"}


def test_ask_is_a_block_that_tells_the_model_to_ask() -> None:
    out = answer(HookOutput.ask("why"), E.BEFORE_TOOL, "PreToolUse")
    assert out == {"decision": "block", "reason": f"why\n\n{ASK_NOTE}"}
    # Outside a tool call an ask decides nothing (it would otherwise refuse a prompt).
    assert answer(HookOutput.ask("why"), E.BEFORE_PROMPT, "UserPromptSubmit") == {"reason": "why"}


def test_allow_says_nothing_and_a_rewrite_is_updated_input() -> None:
    assert answer(HookOutput.allow(), E.BEFORE_TOOL, "PreToolUse") == {}
    out = answer(HookOutput(updated_input={"command": "ls"}), E.BEFORE_TOOL, "PreToolUse")
    assert out == {"updatedInput": {"command": "ls"}}
    # A block wins over a rewrite, and a rewrite has no meaning after the tool ran.
    assert "updatedInput" not in answer(HookOutput.block("x", updated_input={"a": 1}), E.BEFORE_TOOL, "PreToolUse")
    assert answer(HookOutput(updated_input={"a": 1}), E.AFTER_TOOL, "PostToolUse") == {}


def test_context_and_system_message() -> None:
    out = answer(HookOutput(context="c", system_message="m"), E.AFTER_TOOL, "PostToolUse")
    assert out == {"systemMessage": "m", "additionalContext": "c"}
    assert answer(HookOutput(context="s"), E.SESSION_START, "SessionStart") == {"additionalContext": "s"}


def test_a_crash_is_a_block_the_plugin_reads() -> None:
    def hook(_event: HookInput) -> HookOutput:
        raise RuntimeError("boom")

    run = run_in_process(hook, OC, json.dumps(load_payload("opencode/PreToolUse.bash.plugin.json")))
    out = json.loads(run.stdout)
    assert run.rc == 0 and out["decision"] == "block" and "boom" in out["reason"]


def test_limits_name_what_opencode_cannot_do() -> None:
    agent = runtime_of(OC)
    assert any(part == "ask" and "ask" in text for part, text in agent.limits[E.BEFORE_TOOL])
    assert any(part == "block" and "keep the agent working" in text
               for part, text in agent.limits[E.AFTER_AGENT])
    assert E.SESSION_START not in agent.limits
