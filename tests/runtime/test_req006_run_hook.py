"""REQ-006.10: run_hook, in process and as a real hook process, plus main()."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from support import PAYLOADS
from support.runtime import (
    capture_name,
    cli_env,
    load_payload,
    payload_path,
    run_in_process,
    run_script,
    single_json_object,
)

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform, denormalize_output, main, run_hook

E = NormalizedEvent
CLAUDE = Platform.CLAUDE
GEMINI = Platform.GEMINI


def payload_text(name: str) -> str:
    return payload_path(name).read_text(encoding="utf-8")


def _boom(_: HookInput) -> HookOutput:
    raise RuntimeError("hook exploded")


# REQ-006.10.1-2


def test_req_006_10_1_accepts_a_hook_and_a_platform() -> None:
    seen: list[HookInput] = []

    def hook(inp: HookInput) -> HookOutput:
        seen.append(inp)
        return HookOutput()

    for platform in (GEMINI, "gemini"):
        run = run_in_process(hook, platform, payload_text("gemini/BeforeTool.json"))
        assert run.rc == 0
    assert [h.platform for h in seen] == [GEMINI, GEMINI]


def test_req_006_10_2_reads_normalizes_calls_denormalizes_and_writes() -> None:
    seen: list[HookInput] = []

    def hook(inp: HookInput) -> HookOutput:
        seen.append(inp)
        return HookOutput.block(f"no {inp.tool_name}: {inp.tool_input['command']}")

    run = run_in_process(hook, GEMINI, payload_text("gemini/BeforeTool.run_shell_command.json"))
    assert (seen[0].event, seen[0].tool_name, seen[0].raw_tool_name) == (E.BEFORE_TOOL, "shell", "run_shell_command")
    assert seen[0].raw_input == load_payload("gemini/BeforeTool.run_shell_command.json")
    assert single_json_object(run.stdout) == {
        "decision": "deny",
        "reason": "no shell: echo hello-from-tool | tee tool_ran.txt",
    }
    assert run.stdout == denormalize_output(HookOutput.block(
        "no shell: echo hello-from-tool | tee tool_ran.txt"), GEMINI, E.BEFORE_TOOL) + "\n"


def test_req_006_10_2_claude_block_of_a_real_pre_tool_use() -> None:
    run = run_in_process(lambda inp: HookOutput.block("nope"), CLAUDE, payload_text("claude/PreToolUse.json"))
    assert single_json_object(run.stdout) == {
        "decision": "block",
        "reason": "nope",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "nope",
        },
    }


# REQ-006.10.3-5


@pytest.mark.parametrize(
    "hook",
    [
        lambda inp: HookOutput(),
        lambda inp: None,
        lambda inp: HookOutput.block("blocked"),
        _boom,
    ],
    ids=["empty", "none", "block", "raises"],
)
@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_10_3_always_returns_zero(hook: Any, platform: Platform) -> None:
    run = run_in_process(hook, platform, payload_text(capture_name(platform, "SessionStart")))
    assert run.rc == 0
    single_json_object(run.stdout)


@pytest.mark.parametrize("platform", list(Platform))
def test_req_006_10_4_exception_becomes_the_error_json(platform: Platform) -> None:
    name = "claude/PreToolUse.json" if platform is CLAUDE else "gemini/BeforeTool.json"
    run = run_in_process(_boom, platform, payload_text(name))
    assert run.rc == 0
    document = single_json_object(run.stdout)
    assert set(document) == {"decision", "reason"}
    assert document["decision"] == "block"
    reason = document["reason"]
    assert reason.startswith("Hook Script Error\n")
    assert f"Context: {'PreToolUse' if platform is CLAUDE else 'BeforeTool'} hook" in reason
    assert "Error Type: RuntimeError" in reason
    assert "Error Message: hook exploded" in reason
    assert "in _boom" in reason


def test_req_006_10_5_blocking_is_in_the_json_not_the_exit_code() -> None:
    run = run_in_process(lambda inp: HookOutput.block("stop"), GEMINI, payload_text("gemini/AfterAgent.json"))
    assert run.rc == 0
    assert single_json_object(run.stdout)["decision"] == "deny"


@pytest.mark.parametrize(
    ("raised", "error_type"),
    [(SystemExit(3), "SystemExit"), (SystemExit("bye"), "SystemExit"), (KeyboardInterrupt(), "KeyboardInterrupt"),
     (RecursionError("deep"), "RecursionError"), (GeneratorExit(), "GeneratorExit")],
)
def test_base_exceptions_become_the_error_json(raised: BaseException, error_type: str) -> None:
    def hook(_: HookInput) -> HookOutput:
        raise raised

    run = run_in_process(hook, CLAUDE, payload_text("claude/PostToolUse.json"))
    assert run.rc == 0
    document = single_json_object(run.stdout)
    assert document["decision"] == "block"
    assert f"Error Type: {error_type}" in document["reason"]


@pytest.mark.parametrize("code", [None, 0])
def test_sys_exit_zero_means_no_opinion(code: int | None) -> None:
    def hook(_: HookInput) -> HookOutput:
        sys.exit(code)

    run = run_in_process(hook, CLAUDE, payload_text("claude/PreToolUse.json"))
    assert (run.rc, run.stdout) == (0, "{}\n")


@pytest.mark.parametrize("platform", list(Platform))
def test_hook_returning_none_means_no_opinion(platform: Platform) -> None:
    run = run_in_process(lambda inp: None, platform, payload_text(capture_name(platform, "SessionStart")))
    assert (run.rc, run.stdout) == (0, "{}\n")


def test_hook_returning_something_else_is_an_error() -> None:
    run = run_in_process(lambda inp: {"decision": "block"}, CLAUDE, payload_text("claude/Stop.json"))
    document = single_json_object(run.stdout)
    assert document["decision"] == "block"
    assert "Error Type: TypeError" in document["reason"]
    assert "hook returned dict; expected HookOutput or None" in document["reason"]


def test_unserializable_output_is_an_error_not_a_crash() -> None:
    run = run_in_process(lambda inp: HookOutput(raw_output={"x": {1, 2}}), GEMINI, payload_text("gemini/AfterTool.json"))
    assert run.rc == 0
    document = single_json_object(run.stdout)
    assert "Error Type: TypeError" in document["reason"]


@pytest.mark.parametrize(("platform", "name"), [
    (CLAUDE, "claude/PreToolUse.json"), (CLAUDE, "claude/PermissionRequest.DefaultMode.json"),
    (GEMINI, "gemini/BeforeTool.json"),
])
def test_unknown_decision_becomes_the_error_json(platform: Platform, name: str) -> None:
    run = run_in_process(lambda inp: HookOutput(decision="reject"), platform, payload_text(name))
    assert run.rc == 0
    document = single_json_object(run.stdout)
    assert document["decision"] == "block"
    assert "Error Type: ValueError" in document["reason"]
    assert "HookOutput.decision is 'reject'" in document["reason"]
    assert "hookSpecificOutput" not in document


def test_unknown_platform_is_an_error_not_a_crash() -> None:
    run = run_in_process(lambda inp: None, "vim", "{}")
    assert run.rc == 0
    document = single_json_object(run.stdout)
    assert document["decision"] == "block"
    assert "Error Type: ValueError" in document["reason"]


def test_hook_prints_go_to_stderr() -> None:
    def hook(_: HookInput) -> HookOutput:
        print("debug line")
        sys.stdout.write("more debug\n")
        return HookOutput(context="ctx")

    run = run_in_process(hook, GEMINI, payload_text("gemini/BeforeAgent.json"))
    assert single_json_object(run.stdout) == {
        "hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "ctx"},
    }
    assert run.stderr == "debug line\nmore debug\n"


def test_sys_stdout_is_restored_after_the_hook() -> None:
    out = io.StringIO()
    fake_in = io.TextIOWrapper(io.BytesIO(b"{}"), encoding="utf-8")
    with mock.patch.object(sys, "stdin", fake_in), mock.patch.object(sys, "stdout", out):
        run_hook(lambda inp: None, CLAUDE)
        assert sys.stdout is out
    assert out.getvalue() == "{}\n"


@pytest.mark.parametrize("stdin", [b"", b"not json", b"\xff\xfe\x00garbage", b"[1,2,3]"])
def test_bad_stdin_still_calls_the_hook_with_an_empty_payload(stdin: bytes) -> None:
    seen: list[HookInput] = []
    run = run_in_process(lambda inp: seen.append(inp), CLAUDE, stdin)
    assert (run.rc, run.stdout) == (0, "{}\n")
    assert seen[0].event is E.AFTER_AGENT
    assert seen[0].raw_input == {}


@pytest.mark.parametrize(
    ("platform", "name"),
    [(CLAUDE, "claude/Stop.json"), (GEMINI, "gemini/AfterAgent.stop_hook_active.json")],
)
def test_crash_inside_a_stop_retry_does_not_block_again(platform: Platform, name: str) -> None:
    data = dict(load_payload(name), stop_hook_active=True)
    run = run_in_process(_boom, platform, json.dumps(data))
    document = single_json_object(run.stdout)
    assert set(document) == {"systemMessage"}
    assert document["systemMessage"].startswith("Hook Script Error\n")
    assert "Error Message: hook exploded" in document["systemMessage"]


@pytest.mark.parametrize(("platform", "name"), [(CLAUDE, "claude/Stop.json"), (GEMINI, "gemini/AfterAgent.json")])
def test_crash_in_a_first_stop_blocks(platform: Platform, name: str) -> None:
    run = run_in_process(_boom, platform, payload_text(name))
    assert single_json_object(run.stdout)["decision"] == "block"


def test_subagent_stop_answers_under_its_own_name() -> None:
    data = {"hook_event_name": "SubagentStop", "stop_hook_active": False, "agent_type": "explorer"}
    run = run_in_process(lambda inp: HookOutput(context="c"), CLAUDE, json.dumps(data))
    assert single_json_object(run.stdout)["hookSpecificOutput"]["hookEventName"] == "SubagentStop"


def test_kebab_case_event_answers_under_the_platform_name() -> None:
    data = {"hook_event_name": "pre-tool-use", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    run = run_in_process(lambda inp: HookOutput.block("no"), CLAUDE, json.dumps(data))
    assert single_json_object(run.stdout)["hookSpecificOutput"]["hookEventName"] == "PreToolUse"


# Every real payload through run_hook: one JSON object, and on Claude a hookEventName equal to
# the running event (reference/claude-code-schema.md §2.1).

ALL_PAYLOADS = sorted(f"{p.parent.name}/{p.name}" for p in PAYLOADS.glob("*/*.json"))


@pytest.mark.parametrize(
    "name",
    ALL_PAYLOADS,
)
def test_every_payload_gets_one_valid_answer(name: str) -> None:
    platform = Platform(name.split("/")[0])
    run = run_in_process(lambda inp: HookOutput(context="ctx", reason="r"), platform, payload_text(name))
    assert run.rc == 0
    document = single_json_object(run.stdout)
    specific = document.get("hookSpecificOutput")
    if platform is CLAUDE and specific is not None:
        assert specific["hookEventName"] == load_payload(name)["hook_event_name"]


# Real hook processes: stdout is exactly one JSON object, whatever the hook does.

HOOK_SCRIPT = textwrap.dedent(
    """
    import os, subprocess, sys
    import hookwrap
    from hookwrap import HookOutput

    MODE, PLATFORM = sys.argv[1], sys.argv[2]

    def hook(inp):
        if MODE == "noisy":
            print("junk from print")
            sys.stdout.write("junk from sys.stdout.write\\n")
            sys.stdout.buffer.write(b"junk from the buffer\\n")
            os.write(1, b"junk from fd 1\\n")
            os.system("echo junk from os.system")
            subprocess.run(["echo", "junk from subprocess"])
            return HookOutput.block("noisy " + inp.tool_name)
        if MODE == "raise":
            raise ValueError("hook exploded")
        if MODE == "none":
            print("no opinion")
            return None
        if MODE == "exit0":
            print("leaving")
            sys.exit(0)
        if MODE == "exit3":
            sys.exit(3)
        if MODE == "interrupt":
            raise KeyboardInterrupt
        if MODE == "dunder":
            print("junk via sys.__stdout__", file=sys.__stdout__)
            return HookOutput(context="ctx")
        if MODE == "late-thread":
            import threading, time
            threading.Thread(target=lambda: (time.sleep(0.3), print("late from a thread"))).start()
            return HookOutput.block("b")
        if MODE == "close-dunder":
            sys.__stdout__.close()
            return HookOutput.block("b")
        if MODE == "echo":
            return HookOutput(context=inp.raw_event + ":" + inp.tool_name)
        raise AssertionError(MODE)

    raise SystemExit(hookwrap.run_hook(hook, PLATFORM))
    """
)


@pytest.fixture
def hook_script(tmp_path: Path) -> Path:
    script = tmp_path / "hook.py"
    script.write_text(HOOK_SCRIPT, encoding="utf-8")
    return script


def _stdout(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    return single_json_object(proc.stdout.decode("utf-8"))


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    ("platform", "name", "expected"),
    [
        (GEMINI, "gemini/BeforeTool.json", {"decision": "deny", "reason": "noisy shell"}),
        (CLAUDE, "claude/PreToolUse.json", {
            "decision": "block", "reason": "noisy shell",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "noisy shell",
            },
        }),
    ],
)
def test_process_noisy_hook_prints_exactly_one_json_object(
    hook_script: Path, buffered: bool, platform: Platform, name: str, expected: dict[str, Any]
) -> None:
    proc = run_script(hook_script, ["noisy", platform], payload_path(name).read_bytes(), buffered=buffered)
    assert _stdout(proc) == expected
    err = proc.stderr.decode()
    for junk in ("junk from print", "junk from sys.stdout.write", "junk from the buffer", "junk from fd 1",
                 "junk from os.system", "junk from subprocess"):
        assert junk in err


@pytest.mark.parametrize("platform", list(Platform))
def test_process_raising_hook_prints_the_error_json(hook_script: Path, platform: Platform) -> None:
    # Qwen: no SessionEnd captured in -p; OpenCode and Kilo CLI have none (hookwrap's plugin sends Stop).
    event = {Platform.QWEN: "Notification", Platform.OPENCODE: "Stop", Platform.KILO: "Stop",
             Platform.CLINE: "SessionShutdown"}.get(platform, "SessionEnd")
    proc = run_script(hook_script, ["raise", platform], payload_path(capture_name(platform, event)).read_bytes())
    document = _stdout(proc)
    assert document["decision"] == "block"
    assert f"Context: {event} hook" in document["reason"]
    assert "Error Type: ValueError" in document["reason"]
    assert "Error Message: hook exploded" in document["reason"]
    assert f'File "{hook_script}"' in document["reason"]


@pytest.mark.parametrize("mode", ["none", "exit0"])
def test_process_no_opinion_prints_empty_object(hook_script: Path, mode: str) -> None:
    proc = run_script(hook_script, [mode, "claude"], payload_path("claude/Stop.json").read_bytes())
    assert proc.returncode == 0
    assert proc.stdout == b"{}\n"


@pytest.mark.parametrize(("mode", "error_type"), [("exit3", "SystemExit"), ("interrupt", "KeyboardInterrupt")])
def test_process_exit_or_interrupt_is_reported_with_exit_code_zero(hook_script: Path, mode: str, error_type: str) -> None:
    proc = run_script(hook_script, [mode, "gemini"], payload_path("gemini/AfterTool.json").read_bytes())
    document = _stdout(proc)
    assert document["decision"] == "block"
    assert f"Error Type: {error_type}" in document["reason"]


def test_process_write_to_sys_dunder_stdout_unbuffered(hook_script: Path) -> None:
    proc = run_script(hook_script, ["dunder", "claude"], payload_path("claude/PostToolUse.json").read_bytes(),
                      buffered=False)
    assert _stdout(proc)["hookSpecificOutput"]["additionalContext"] == "ctx"


def test_process_write_to_sys_dunder_stdout_buffered(hook_script: Path) -> None:
    proc = run_script(hook_script, ["dunder", "claude"], payload_path("claude/PostToolUse.json").read_bytes())
    assert _stdout(proc)["hookSpecificOutput"]["additionalContext"] == "ctx"
    assert b"junk via sys.__stdout__" in proc.stderr


def test_process_thread_printing_after_the_hook_returns(hook_script: Path) -> None:
    proc = run_script(hook_script, ["late-thread", "gemini"], payload_path("gemini/BeforeTool.json").read_bytes())
    assert _stdout(proc) == {"decision": "deny", "reason": "b"}
    assert b"late from a thread" in proc.stderr


def test_process_hook_closing_sys_dunder_stdout(hook_script: Path) -> None:
    proc = run_script(hook_script, ["close-dunder", "gemini"], payload_path("gemini/BeforeTool.json").read_bytes())
    assert _stdout(proc) == {"decision": "deny", "reason": "b"}


def test_process_empty_stdin(hook_script: Path) -> None:
    proc = run_script(hook_script, ["echo", "claude"], b"")
    assert _stdout(proc) == {
        "systemMessage": ":",
        "hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": ":"},
    }


def test_process_closed_stdin(hook_script: Path) -> None:
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" <&-', sys.executable, str(hook_script), "none", "gemini"],
        capture_output=True, env=cli_env(), timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (0, b"{}\n")


def test_process_terminal_stdin(hook_script: Path) -> None:
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, str(hook_script), "none", "claude"],
            stdin=terminal, capture_output=True, env=cli_env(), timeout=60,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert (proc.returncode, proc.stdout) == (0, b"{}\n")


def test_process_payload_names_reach_the_hook(hook_script: Path) -> None:
    proc = run_script(hook_script, ["echo", "gemini"], payload_path("gemini/BeforeTool.write_file.json").read_bytes())
    assert _stdout(proc)["hookSpecificOutput"] == {"hookEventName": "BeforeTool", "additionalContext": "BeforeTool:write_file"}


# main(): the entry point of generated scripts


def _main(stdin: str, argv: list[str]) -> str:
    out = io.StringIO()
    fake_in = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    with mock.patch.object(sys, "stdin", fake_in), mock.patch.object(sys, "stdout", out), \
            mock.patch.object(sys, "stderr", io.StringIO()):
        assert main(lambda inp: HookOutput.block("x"), argv) == 0
    return out.getvalue()


@pytest.mark.parametrize("argv", [["--platform", "gemini"], ["--platform=gemini"]])
def test_main_platform_flag(argv: list[str]) -> None:
    assert json.loads(_main(payload_text("gemini/SessionStart.json"), argv)) == {"decision": "deny", "reason": "x"}


def test_main_infers_claude_from_the_event() -> None:
    document = json.loads(_main(payload_text("claude/PreToolUse.json"), []))
    assert document["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_main_infers_gemini_from_the_event() -> None:
    assert json.loads(_main(payload_text("gemini/BeforeTool.json"), [])) == {"decision": "deny", "reason": "x"}


def test_main_ambiguous_event_uses_the_gemini_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert json.loads(_main(payload_text("gemini/SessionStart.json"), []))["decision"] == "block"
    monkeypatch.setenv("GEMINI_PROJECT_DIR", "/proj")
    assert json.loads(_main(payload_text("gemini/SessionStart.json"), []))["decision"] == "deny"
