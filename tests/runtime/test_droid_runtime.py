"""Factory Droid 0.225.2 in the runtime: Droid's tool names, the project dir from a subfolder,
and answers fitted to what Droid reads (a deny in hookSpecificOutput, ask and a crash as a deny,
no PreToolUse context)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.runtime import load_payload, run_in_process

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform, denormalize_output
from hookwrap.clis.droid import DROID

ASK_NOTE = DROID.ask_note
from hookwrap.platforms import runtime_of

E = NormalizedEvent
DROID = Platform.DROID


def answer(output: HookOutput, event: NormalizedEvent, raw: str) -> dict:
    return json.loads(denormalize_output(output, DROID, event, raw))


def test_droid_payloads_use_droids_tool_names() -> None:
    shell = HookInput.from_dict(load_payload("droid/PreToolUse.Execute.json"), DROID)
    create = HookInput.from_dict(load_payload("droid/PreToolUse.Create.json"), DROID)
    edit = HookInput.from_dict(load_payload("droid/PreToolUse.Edit.json"), DROID)
    assert (shell.event, shell.tool_name, shell.raw_tool_name) == (E.BEFORE_TOOL, "shell", "Execute")
    assert shell.tool_input["command"] == "echo hi > ran.txt"
    assert (create.tool_name, create.file_paths) == ("write_file", [create.tool_input["file_path"]])
    assert (edit.tool_name, edit.files[0]["action"]) == ("edit_file", "update")
    assert runtime_of(DROID).tool_names()["shell"] == "Execute"
    assert runtime_of(DROID).platform_tool_names("write_file") == ["Create"]


def test_droid_lifecycle_payloads() -> None:
    start = HookInput.from_dict(load_payload("droid/SessionStart.json"), DROID)
    stop = HookInput.from_dict(load_payload("droid/Stop.json"), DROID)
    end = HookInput.from_dict(load_payload("droid/SessionEnd.json"), DROID)
    assert (start.event, start.source) == (E.SESSION_START, "startup")
    assert (stop.event, stop.stop_hook_active) == (E.AFTER_AGENT, False)
    assert (end.event, end.reason) == (E.SESSION_END, "other")


def test_the_project_dir_is_where_hookwrap_toml_is_not_droids_cwd(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    # Droid names the session's cwd; the registered command exports the project it found.
    monkeypatch.setenv("FACTORY_PROJECT_DIR", str(tmp_path / "sub"))
    monkeypatch.setenv("HOOKWRAP_PROJECT_DIR", str(tmp_path))
    hook_input = HookInput.from_dict(load_payload("droid/PreToolUse.Execute.json"), DROID)
    assert hook_input.project_dir == str(tmp_path)
    monkeypatch.delenv("HOOKWRAP_PROJECT_DIR")
    assert hook_input.project_dir == str(tmp_path / "sub")


def test_droid_deny_is_in_hook_specific_output() -> None:
    out = answer(HookOutput.block("no"), E.BEFORE_TOOL, "PreToolUse")
    assert out["hookSpecificOutput"] == {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                         "permissionDecisionReason": "no"}


def test_droid_ask_is_a_deny_that_says_to_ask() -> None:
    out = answer(HookOutput.ask("risky"), E.BEFORE_TOOL, "PreToolUse")
    hso = out["hookSpecificOutput"]
    assert hso["permissionDecision"] == "deny"
    assert hso["permissionDecisionReason"] == f"risky\n\n{ASK_NOTE}"


def test_droid_rewrite_is_an_allow_with_the_new_input() -> None:
    out = answer(HookOutput(updated_input={"command": "ls"}), E.BEFORE_TOOL, "PreToolUse")
    assert out["hookSpecificOutput"] == {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                         "updatedInput": {"command": "ls"}}


def test_droid_context_goes_where_droid_reads_it() -> None:
    pre = answer(HookOutput(context="c"), E.BEFORE_TOOL, "PreToolUse")
    assert "additionalContext" not in json.dumps(pre) and "systemMessage" not in pre
    post = answer(HookOutput(context="c"), E.AFTER_TOOL, "PostToolUse")
    assert post["hookSpecificOutput"] == {"hookEventName": "PostToolUse", "additionalContext": "c"}
    start = answer(HookOutput(context="c"), E.SESSION_START, "SessionStart")
    assert start["hookSpecificOutput"]["additionalContext"] == "c"


def test_droid_post_tool_block_becomes_context() -> None:
    out = answer(HookOutput.block("lint failed"), E.AFTER_TOOL, "PostToolUse")
    assert out["hookSpecificOutput"]["additionalContext"] == "lint failed"


def test_droid_stop_block_asks_for_another_turn() -> None:
    out = answer(HookOutput.block("tests fail"), E.AFTER_AGENT, "Stop")
    assert (out["decision"], out["reason"]) == ("block", "tests fail")


def test_droid_error_document_denies_the_tool() -> None:
    def hook(event: HookInput) -> HookOutput:
        raise ValueError("boom")

    run = run_in_process(hook, DROID, json.dumps(load_payload("droid/PreToolUse.Execute.json")))
    out = json.loads(run.stdout)
    hso = out["hookSpecificOutput"]
    assert (hso["hookEventName"], hso["permissionDecision"]) == ("PreToolUse", "deny")
    assert hso["permissionDecisionReason"].startswith("Hook Script Error")


def test_a_crash_on_stop_is_no_tool_deny() -> None:
    def hook(event: HookInput) -> HookOutput:
        raise ValueError("boom")

    run = run_in_process(hook, DROID, json.dumps(load_payload("droid/Stop.json")))
    assert "hookSpecificOutput" not in json.loads(run.stdout)


def test_a_hand_run_script_under_droid_is_droid(monkeypatch: pytest.MonkeyPatch) -> None:
    # FACTORY_PROJECT_DIR is set for Droid's hooks only (not for its Execute tool).
    from hookwrap.runner import _guess_platform

    for var in ("GEMINI_PROJECT_DIR", "COPILOT_PROJECT_DIR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("FACTORY_PROJECT_DIR", "/p")
    assert _guess_platform("{}") is DROID


def test_a_hand_run_droid_payload_is_read_as_droid_by_its_tool(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """PreToolUse is an event of several CLIs, but Execute is a tool of Droid's alone: a Droid
    payload piped to a script without --platform is Droid's (it was read as Claude Code's, and
    the guard answered {} to `rm -rf ~`)."""
    from hookwrap.runner import _guess_platform

    for agent_var in ("GEMINI_PROJECT_DIR", "COPILOT_PROJECT_DIR", "FACTORY_PROJECT_DIR"):
        monkeypatch.delenv(agent_var, raising=False)
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Execute",
               "tool_input": {"command": "ls"}}
    assert _guess_platform(json.dumps(payload)) is DROID
    assert capsys.readouterr().err == ""


def test_a_hand_run_says_what_it_guessed(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from hookwrap.runner import _guess_platform, _unknown_platform

    for agent_var in ("GEMINI_PROJECT_DIR", "COPILOT_PROJECT_DIR", "FACTORY_PROJECT_DIR"):
        monkeypatch.delenv(agent_var, raising=False)
    _unknown_platform(["--platform", "claud"])
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "ls"}}
    assert _guess_platform(json.dumps(payload)).value == "claude"
    err = capsys.readouterr().err
    assert err.startswith("hookwrap: --platform 'claud' is not a CLI hookwrap knows (")
    assert ("hookwrap: no --platform, and the payload does not say which CLI sent it: read as "
            "Claude Code's (pass --platform NAME to choose)\n") in err
