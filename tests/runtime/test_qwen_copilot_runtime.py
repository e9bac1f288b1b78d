"""Qwen Code 0.24.4 and Copilot CLI 1.0.102 in the runtime: names, answers, and runs that call
no hook (Qwen's empty UserPromptSubmit; a .claude/settings.json command run by Copilot)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.runtime import load_payload, run_in_process

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform, denormalize_output
from hookwrap.clis.copilot import COPILOT
from hookwrap.clis.qwen import QWEN

ASK_NOTE, HOOKS_FILE, REWRITE_NOTE = COPILOT.ask_note, COPILOT.own_registration, QWEN.rewrite_note
from hookwrap.generator.clis import setup_of
from hookwrap.platforms import runtime_of

E = NormalizedEvent
QWEN, COPILOT = Platform.QWEN, Platform.COPILOT


def answer(output: HookOutput, platform: Platform, event: NormalizedEvent, raw: str) -> dict:
    return json.loads(denormalize_output(output, platform, event, raw))


# --- Qwen Code --------------------------------------------------------------------------------

def test_qwen_payloads_use_qwen_tool_names() -> None:
    shell = HookInput.from_dict(load_payload("qwen/PreToolUse.run_shell_command.json"), QWEN)
    write = HookInput.from_dict(load_payload("qwen/PreToolUse.write_file.json"), QWEN)
    assert (shell.event, shell.tool_name) == (E.BEFORE_TOOL, "shell")
    assert (write.tool_name, write.file_paths) == ("write_file", [write.tool_input["file_path"]])
    assert runtime_of(QWEN).normalize_tool("edit") == "edit_file"
    assert runtime_of(QWEN).tool_names()["edit_file"] == "edit"


def test_qwen_deny_is_claudes_shape() -> None:
    out = answer(HookOutput.block("no"), QWEN, E.BEFORE_TOOL, "PreToolUse")
    assert out["hookSpecificOutput"] == {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                         "permissionDecisionReason": "no"}


def test_qwen_rewrite_becomes_a_deny_that_names_the_new_input() -> None:
    out = answer(HookOutput(updated_input={"command": "ls"}), QWEN, E.BEFORE_TOOL, "PreToolUse")
    hso = out["hookSpecificOutput"]
    assert hso["permissionDecision"] == "deny" and "updatedInput" not in hso
    assert REWRITE_NOTE in hso["permissionDecisionReason"] and '"command": "ls"' in hso["permissionDecisionReason"]


def test_qwen_drops_pre_tool_context_and_turns_a_post_tool_block_into_context() -> None:
    pre = answer(HookOutput(context="c"), QWEN, E.BEFORE_TOOL, "PreToolUse")
    assert "additionalContext" not in json.dumps(pre)
    post = answer(HookOutput.block("fix it"), QWEN, E.AFTER_TOOL, "PostToolUse")
    assert post["hookSpecificOutput"]["additionalContext"] == "fix it"


def test_qwen_stop_with_continue_false_is_no_block() -> None:
    out = answer(HookOutput(continue_loop=False, stop_reason="done"), QWEN, E.AFTER_AGENT, "Stop")
    assert "continue" not in out and "decision" not in out


@pytest.mark.parametrize(("seconds", "written"), [(1, 1), (999, 999), (1000, 1_000_000), (1200, 1_200_000)])
def test_qwen_timeout_never_silently_becomes_milliseconds(seconds: int, written: int) -> None:
    assert setup_of(QWEN).timeout_value(seconds) == written
    cmd = setup_of(QWEN).handlers.read_command(setup_of(QWEN), "PreToolUse", {}, {"command": "x", "timeout": written})
    assert cmd.timeout_s == seconds


@pytest.mark.parametrize(("prompt", "called"), [("", False), ("   ", False), ("fix the bug", True)])
def test_qwen_empty_user_prompt_submit_calls_no_hook(prompt: str, called: bool) -> None:
    calls = []

    def hook(event: HookInput) -> HookOutput:
        calls.append(event.prompt)
        return HookOutput(context="ctx")

    payload = {**load_payload("qwen/UserPromptSubmit.json"), "prompt": prompt}
    run = run_in_process(hook, QWEN, json.dumps(payload))
    assert (calls == [prompt]) is called
    assert (run.stdout.strip() == "{}") is not called


# --- Copilot CLI ------------------------------------------------------------------------------

def test_copilot_pascal_payloads_and_copilots_write_keys() -> None:
    write = HookInput.from_dict(load_payload("copilot/PreToolUse.Write.pascal.json"), COPILOT)
    assert (write.event, write.tool_name) == (E.BEFORE_TOOL, "write_file")
    assert write.file_paths == [write.tool_input["path"]]
    stop = HookInput.from_dict(load_payload("copilot/Stop.pascal.json"), COPILOT)
    assert stop.event is E.AFTER_AGENT


@pytest.mark.parametrize("name", ["PostToolUse.Bash.pascal.json", "PostToolUse.Write.pascal.json"])
def test_copilot_sends_the_result_as_tool_result_and_hooks_read_it_as_tool_response(name: str) -> None:
    payload = load_payload(f"copilot/{name}")
    assert "tool_response" not in payload
    after = HookInput.from_dict(payload, COPILOT)
    assert after.event is E.AFTER_TOOL
    assert after.tool_response == payload["tool_result"]
    assert after.tool_response["result_type"] == "success"


def test_tool_response_wins_over_tool_result() -> None:
    both = HookInput.from_dict({"hook_event_name": "PostToolUse", "tool_name": "Bash",
                                "tool_response": {"stdout": "x"}, "tool_result": "other"}, "claude")
    assert both.tool_response == {"stdout": "x"}


@pytest.mark.parametrize(("event", "raw"), [(E.BEFORE_PROMPT, "UserPromptSubmit"),
                                            (E.AFTER_TOOL, "PostToolUse"), (E.BEFORE_TOOL, "PreToolUse"),
                                            (E.SESSION_START, "SessionStart")])
def test_copilot_context_is_top_level_only(event: NormalizedEvent, raw: str) -> None:
    out = answer(HookOutput(context="ctx"), COPILOT, event, raw)
    assert out["additionalContext"] == "ctx"
    assert "additionalContext" not in out.get("hookSpecificOutput", {})
    assert "systemMessage" not in out


def test_copilot_deny_is_top_level_too() -> None:
    out = answer(HookOutput.block("no"), COPILOT, E.BEFORE_TOOL, "PreToolUse")
    assert (out["permissionDecision"], out["permissionDecisionReason"]) == ("deny", "no")
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_copilot_ask_is_a_deny_that_says_to_ask() -> None:
    out = answer(HookOutput.ask("risky"), COPILOT, E.BEFORE_TOOL, "PreToolUse")
    assert out["permissionDecision"] == "deny"
    assert out["permissionDecisionReason"] == f"risky\n\n{ASK_NOTE}"


def test_copilot_error_document_denies_the_tool() -> None:
    def hook(event: HookInput) -> HookOutput:
        raise ValueError("boom")

    run = run_in_process(hook, COPILOT, json.dumps(load_payload("copilot/PreToolUse.Bash.pascal.json")))
    out = json.loads(run.stdout)
    assert out["decision"] == "block" and out["permissionDecision"] == "deny"
    assert out["permissionDecisionReason"].startswith("Hook Script Error")


def _claude_command_under_copilot(monkeypatch: pytest.MonkeyPatch, project: Path) -> tuple[list, str]:
    calls: list[Platform] = []

    def hook(event: HookInput) -> HookOutput:
        calls.append(event.platform)
        return HookOutput(context="ctx")

    monkeypatch.setenv("COPILOT_PROJECT_DIR", str(project))
    monkeypatch.delenv("CLAUDECODE", raising=False)
    payload = load_payload("copilot/UserPromptSubmit.pascal.json")
    return calls, run_in_process(hook, Platform.CLAUDE, json.dumps(payload)).stdout


def test_a_claude_command_under_copilot_calls_no_hook_when_copilot_has_its_own(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / HOOKS_FILE).parent.mkdir(parents=True)
    (tmp_path / HOOKS_FILE).write_text("{}")
    calls, stdout = _claude_command_under_copilot(monkeypatch, tmp_path)
    assert calls == [] and stdout.strip() == "{}"


def test_a_claude_command_under_copilot_is_answered_as_copilot_otherwise(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls, stdout = _claude_command_under_copilot(monkeypatch, tmp_path)
    assert calls == [COPILOT]
    assert json.loads(stdout) == {"additionalContext": "ctx"}
