"""The bridge: an external hook written for one CLI's protocol, run on another CLI.

Payload translation is checked against the captured payloads of every CLI; answer translation
against each way a Claude Code hook answers (exit 2, JSON deny, context, updatedInput, garbage,
a failure); the whole path by running the generated bridge script as the CLIs run it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookwrap import bridge
from hookwrap.hookinput import normalize_input
from hookwrap.hookoutput import HookOutput
from hookwrap.platforms import NormalizedEvent, Platform, runtime_of

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"

# One captured before_tool shell call per CLI, and the same call's command.
SHELL_CALLS = {
    "claude": ("claude/PreToolUse.json", "echo hello-from-tool | tee side_effect.txt"),
    "gemini": ("gemini/BeforeTool.json", "echo hello-from-tool | tee tool_ran.txt"),
    "codex": ("codex/pre-tool-use.bash.json", "echo hello > ran.txt"),
    "qwen": ("qwen/PreToolUse.run_shell_command.json", "echo hi > ran.txt"),
    "copilot": ("copilot/PreToolUse.Bash.pascal.json", "echo hi > ran.txt"),
    "opencode": ("opencode/PreToolUse.bash.plugin.json", "echo hi > ran.txt"),
    "droid": ("droid/PreToolUse.Execute.json", "echo hi > ran.txt"),
}


def _input(rel: str, platform: str):
    return normalize_input((PAYLOADS / rel).read_text(encoding="utf-8"), Platform(platform))


@pytest.mark.parametrize("source", list(SHELL_CALLS))
@pytest.mark.parametrize("target", list(SHELL_CALLS))
def test_a_shell_call_reads_as_the_target_cli_would_send_it(source: str, target: str) -> None:
    rel, command = SHELL_CALLS[source]
    hook_input = _input(rel, source)
    payload = runtime_of(target).payload_for(hook_input, runtime_of(source))
    assert payload is not None
    assert payload["hook_event_name"] == runtime_of(target).event_names()[NormalizedEvent.BEFORE_TOOL]
    assert payload["tool_name"] == runtime_of(target).tool_names()["shell"]
    assert payload["tool_input"]["command"] == command
    assert payload["session_id"] == hook_input.session_id
    assert payload["cwd"] == "/home/user/project"
    # The payload reads back, in the target's own terms, as the same call.
    again = normalize_input(json.dumps(payload), Platform(target))
    assert (again.event, again.tool_name) == (NormalizedEvent.BEFORE_TOOL, "shell")


def test_names_seen_by_a_claude_hook() -> None:
    gemini = runtime_of("gemini").payload_for(_input("gemini/BeforeTool.json", "gemini"), runtime_of("gemini"))
    claude = runtime_of("claude").payload_for(_input("gemini/BeforeTool.json", "gemini"), runtime_of("gemini"))
    assert (gemini["hook_event_name"], gemini["tool_name"]) == ("BeforeTool", "run_shell_command")
    assert (claude["hook_event_name"], claude["tool_name"]) == ("PreToolUse", "Bash")


def test_copilot_write_arguments_are_renamed_both_ways() -> None:
    hook_input = _input("copilot/PreToolUse.Write.pascal.json", "copilot")
    payload = runtime_of("claude").payload_for(hook_input, runtime_of("copilot"))
    assert payload["tool_name"] == "Write"
    assert payload["tool_input"] == {"file_path": "/home/user/project/w.txt", "content": "hello\n"}
    back = runtime_of("copilot").own_tool_input("write_file", payload["tool_input"])
    assert back == {"path": "/home/user/project/w.txt", "file_text": "hello\n"}


@pytest.mark.parametrize(("source", "rel", "keys"), [
    ("opencode", "opencode/PreToolUse.edit.plugin.json",
     {"filePath": "/home/user/project/w.txt", "oldString": "written", "newString": "edited"}),
    ("droid", "droid/PreToolUse.Edit.json",
     {"file_path": "/home/user/project/notes.txt", "old_str": "hello", "new_str": "bye"}),
])
def test_edit_arguments_reach_a_claude_hook_in_claude_keys(source: str, rel: str,
                                                          keys: dict) -> None:
    hook_input = _input(rel, source)
    assert hook_input.tool_input == keys
    payload = runtime_of("claude").payload_for(hook_input, runtime_of(source))
    assert payload["tool_name"] == "Edit"
    values = list(keys.values())
    assert payload["tool_input"] == {"file_path": values[0], "old_string": values[1],
                                     "new_string": values[2]}
    assert runtime_of(source).own_tool_input("edit_file", payload["tool_input"]) == keys


def test_opencode_write_path_is_renamed_and_its_payload_has_a_worktree() -> None:
    payload = runtime_of("claude").payload_for(_input("opencode/PreToolUse.write.plugin.json",
                                               "opencode"), runtime_of("opencode"))
    assert (payload["tool_name"], payload["tool_input"]) == (
        "Write", {"file_path": "/home/user/project/w.txt", "content": "written\n"})
    # Speaking the plugin's protocol: OpenCode's keys, a worktree, no transcript.
    back = runtime_of("opencode").payload_for(_input("claude/PreToolUse.json", "claude"), runtime_of("claude"))
    assert (back["hook_event_name"], back["tool_name"]) == ("PreToolUse", "bash")
    assert back["worktree"] == "/home/user/project" and "transcript_path" not in back
    again = runtime_of("opencode").payload_for(_input("opencode/PreToolUse.write.plugin.json",
                                               "opencode"), runtime_of("opencode"))
    assert again["tool_input"] == {"filePath": "/home/user/project/w.txt", "content": "written\n"}


def test_droid_risk_fields_are_left_out_for_claude_and_kept_on_a_rewrite(tmp_path: Path) -> None:
    hook_input = _input("droid/PreToolUse.Execute.json", "droid")
    payload = runtime_of("claude").payload_for(hook_input, runtime_of("droid"))
    assert payload["tool_input"] == {"command": "echo hi > ran.txt"}
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                     "updatedInput": {"command": "echo safer > ran.txt"}}}
    output = bridge.bridged_output(hook_input, Platform.CLAUDE,
                                   f"cat > /dev/null; echo '{json.dumps(answer)}'",
                                   str(tmp_path), {})
    assert output.updated_input == {"command": "echo safer > ran.txt", "riskLevel": "low",
                                    "riskLevelReason": "a test command"}
    text = json.loads(bridge.denormalize_output(output, Platform.DROID, BEFORE))
    assert text["hookSpecificOutput"]["updatedInput"]["riskLevel"] == "low"


def test_a_hook_speaking_droid_sees_droid_names_on_claude(tmp_path: Path) -> None:
    hook_input = _input("claude/PreToolUse.json", "claude")
    payload = runtime_of("droid").payload_for(hook_input, runtime_of("claude"))
    assert (payload["hook_event_name"], payload["tool_name"]) == ("PreToolUse", "Execute")
    seen = tmp_path / "seen.json"
    output = bridge.bridged_output(hook_input, Platform.DROID,
                                   f"cat > '{seen}'; echo 'not on Execute' >&2; exit 2",
                                   str(tmp_path), {})
    assert json.loads(seen.read_text())["tool_name"] == "Execute"
    assert (output.decision, output.reason) == ("block", "not on Execute")


def test_prompt_and_stop_fields_carry_over() -> None:
    prompt = runtime_of("claude").payload_for(_input("gemini/BeforeAgent.json", "gemini"), runtime_of("gemini"))
    assert prompt["hook_event_name"] == "UserPromptSubmit"
    assert prompt["prompt"] == "please run the tool"
    stop = runtime_of("claude").payload_for(_input("gemini/AfterAgent.stop_hook_active.json", "gemini"),
                                     runtime_of("gemini"))
    assert stop["hook_event_name"] == "Stop" and stop["stop_hook_active"] is True


def test_an_event_the_command_cli_lacks_has_no_payload() -> None:
    hook_input = _input("gemini/BeforeModel.json", "gemini") \
        if (PAYLOADS / "gemini/BeforeModel.json").is_file() else \
        normalize_input('{"hook_event_name": "BeforeModel"}', Platform.GEMINI)
    assert runtime_of("claude").payload_for(hook_input, runtime_of("gemini")) is None


# --- answers -----------------------------------------------------------------------------------

BEFORE = NormalizedEvent.BEFORE_TOOL


@pytest.mark.parametrize(("code", "stdout", "stderr", "expected"), [
    (2, "", "no force pushes\n", {"decision": "block", "reason": "no force pushes"}),
    (2, "", "", {"decision": "block", "reason": "blocked by hook"}),
    (0, json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                           "permissionDecision": "deny",
                                           "permissionDecisionReason": "not here"}}), "",
     {"decision": "deny", "reason": "not here"}),
    (0, json.dumps({"decision": "block", "reason": "old style"}), "",
     {"decision": "block", "reason": "old style"}),
    (0, json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                           "permissionDecision": "allow",
                                           "updatedInput": {"command": "ls -la"}}}), "",
     {"decision": "allow", "updated_input": {"command": "ls -la"}}),
    (0, json.dumps({"continue": False, "stopReason": "done", "systemMessage": "hi"}), "",
     {"continue_loop": False, "stop_reason": "done", "system_message": "hi"}),
    (0, "{not json", "", {}),
    (0, "[1, 2]", "", {}),
    (0, "plain text", "", {}),
    (1, json.dumps({"decision": "block", "reason": "ignored"}), "oops", {}),
    (127, "", "bash: nope: command not found", {}),
])
def test_claude_answers(code: int, stdout: str, stderr: str, expected: dict) -> None:
    assert runtime_of("claude").read_answer(BEFORE, code, stdout, stderr) == expected


@pytest.mark.parametrize(("code", "stdout", "expected"), [
    (0, json.dumps({"decision": "block", "reason": "no"}), {"decision": "block", "reason": "no"}),
    (0, json.dumps({"additionalContext": "ctx", "systemMessage": "hi"}),
     {"context": "ctx", "system_message": "hi"}),
    (0, "plain words", {}),
    (2, json.dumps({"decision": "block", "reason": "no"}), {}),
    (1, "", {}),
])
def test_opencode_plugin_answers(code: int, stdout: str, expected: dict) -> None:
    """Speaking the plugin's protocol: only JSON at exit 0 answers (exit 2 is a failed hook)."""
    for event in (BEFORE, NormalizedEvent.BEFORE_PROMPT):
        assert runtime_of("opencode").read_answer(event, code, stdout, "python3: can't open") == expected


def test_context_from_json_and_from_plain_text() -> None:
    answer = json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                                "additionalContext": "the codeword"}})
    prompt = NormalizedEvent.BEFORE_PROMPT
    assert runtime_of("claude").read_answer(prompt, 0, answer, "") == {"context": "the codeword"}
    assert runtime_of("claude").read_answer(prompt, 0, "plain words\n", "") == {"context": "plain words"}
    assert runtime_of("claude").read_answer(BEFORE, 0, "plain words\n", "") == {}


@pytest.mark.parametrize("target", list(SHELL_CALLS))
def test_a_block_reads_as_a_block_in_every_cli(target: str) -> None:
    fields = runtime_of("claude").read_answer(BEFORE, 2, "", "no force pushes")
    text = bridge.denormalize_output(HookOutput(**fields), Platform(target), BEFORE)
    assert "no force pushes" in text
    document = json.loads(text)
    decisions = json.dumps(document)
    assert "deny" in decisions or "block" in decisions


# --- running the command ----------------------------------------------------------------------

def test_the_command_s_whole_group_is_killed_at_the_limit(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "child-survived"
    started = time.monotonic()
    output = bridge.bridged_output(_input("claude/PreToolUse.json", "claude"), Platform.CLAUDE,
                                   f"(sleep 1; touch '{marker}') & sleep 30", str(tmp_path), {}, 0.5)
    assert output == HookOutput() and "timed out after 0.5 seconds" in capsys.readouterr().err
    assert time.monotonic() - started < 5
    time.sleep(max(0.0, started + 2.0 - time.monotonic()))  # a second after the touch was due
    assert not marker.exists(), "the command's background child outlived the timeout"


def test_the_command_reads_the_payload_and_its_streams_are_read(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    command = "cat > payload.json; echo '{\"decision\": \"block\", \"reason\": \"out\"}'; echo err >&2"
    output = bridge.bridged_output(_input("claude/PreToolUse.json", "claude"), Platform.CLAUDE,
                                   command, str(tmp_path), {})
    assert (output.decision, output.reason) == ("block", "out")
    assert capsys.readouterr().err == "err\n"
    assert json.loads((tmp_path / "payload.json").read_text())["hook_event_name"] == "PreToolUse"


# --- the generated bridge script, run as each CLI runs it ---------------------------------------

HOOK_SH = """#!/bin/bash
input=$(cat)
printf '%s' "$input" > "$CLAUDE_PROJECT_DIR/seen.json"
pwd > "$CLAUDE_PROJECT_DIR/cwd.txt"
case "$input" in
  *'git push --force'*) echo "force push is not allowed" >&2; exit 2;;
esac
exit 0
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    from hookwrap.console.app import main

    root = tmp_path / "my project"
    (root / ".claude" / "hooks").mkdir(parents=True)
    script = root / ".claude" / "hooks" / "no-force.sh"
    script.write_text(HOOK_SH, encoding="utf-8")
    script.chmod(0o755)
    assert main(["-C", str(root), "init", "-p", "claude", "-p", "gemini", "-p", "codex",
                 "-p", "qwen", "-p", "copilot", "-p", "opencode", "-p", "droid"]) == 0
    assert main(["-C", str(root), "add", "before_tool", "no-force", "--matcher", "shell",
                 "--command", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-force.sh']) == 0
    return root


def _run_bridge(root: Path, platform: str, payload: dict, env: dict[str, str] | None = None,
                cwd: Path | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    environment.update(env or {})
    return subprocess.run([sys.executable, str(root / ".hookwrap/hooks/no-force.py"),
                           "--platform", platform], input=json.dumps(payload), text=True,
                          capture_output=True, cwd=cwd or root, env=environment, timeout=60, check=False)


def test_gemini_runs_a_claude_hook_through_the_bridge(project: Path) -> None:
    payload = json.loads((PAYLOADS / "gemini/BeforeTool.json").read_text())
    payload["tool_input"]["command"] = "git push --force origin main"
    done = _run_bridge(project, "gemini", payload, {"GEMINI_PROJECT_DIR": str(project)})
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "deny" and "force push is not allowed" in answer["reason"]
    seen = json.loads((project / "seen.json").read_text())
    assert (seen["hook_event_name"], seen["tool_name"]) == ("PreToolUse", "Bash")


@pytest.mark.parametrize("platform", ["gemini", "claude"])
def test_a_cli_started_in_a_subfolder_runs_the_command_at_the_root(project: Path,
                                                                    platform: str) -> None:
    """A CLI that sets CLAUDE_PROJECT_DIR to its launch dir (Gemini CLI, Droid) in a subfolder:
    the command still sees the project root, as its path and its working directory."""
    sub = project / "sub"
    sub.mkdir()
    rel = "gemini/BeforeTool.json" if platform == "gemini" else "claude/PreToolUse.json"
    payload = json.loads((PAYLOADS / rel).read_text())
    payload["tool_input"]["command"] = "git push --force origin main"
    env = {"CLAUDE_PROJECT_DIR": str(sub), "GEMINI_PROJECT_DIR": str(sub)}
    done = _run_bridge(project, platform, payload, env, cwd=sub)
    if platform == "gemini":
        assert json.loads(done.stdout)["decision"] == "deny", done.stderr
    else:
        assert (done.returncode, done.stderr) == (2, "force push is not allowed\n")
    assert (project / "cwd.txt").read_text().strip() == str(project)
    assert not (sub / "seen.json").exists()


def test_a_harmless_call_is_allowed(project: Path) -> None:
    payload = json.loads((PAYLOADS / "qwen/PreToolUse.run_shell_command.json").read_text())
    done = _run_bridge(project, "qwen", payload, {"QWEN_PROJECT_DIR": str(project)})
    assert (done.returncode, done.stdout.strip()) == (0, "{}"), done.stderr


def test_droid_in_a_subfolder_gives_a_claude_hook_the_project_root(project: Path) -> None:
    """Droid sets CLAUDE_PROJECT_DIR to the session's cwd; Claude Code, to the project root."""
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    payload = json.loads((PAYLOADS / "droid/PreToolUse.Execute.json").read_text())
    payload["tool_input"]["command"] = "git push --force"
    env = {name: str(sub) for name in ("CLAUDE_PROJECT_DIR", "FACTORY_PROJECT_DIR",
                                       "DROID_PROJECT_DIR")}
    done = _run_bridge(project, "droid", {**payload, "cwd": str(sub)},
                       {**env, "HOOKWRAP_PROJECT_DIR": str(project)})
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny", done.stderr
    assert "force push is not allowed" in answer["permissionDecisionReason"]
    seen = json.loads((project / "seen.json").read_text())
    assert (seen["tool_name"], seen["tool_input"]) == ("Bash", {"command": "git push --force"})


def test_claude_runs_the_command_itself(project: Path) -> None:
    """Pass-through: stdin bytes, stderr and exit code are the command's own."""
    payload = json.loads((PAYLOADS / "claude/PreToolUse.json").read_text())
    payload["tool_input"]["command"] = "git push --force"
    done = _run_bridge(project, "claude", payload, {"CLAUDE_PROJECT_DIR": str(project)})
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "force push is not allowed\n")
    assert json.loads((project / "seen.json").read_text()) == payload


def test_a_failing_command_fails_open_unless_fail_closed(project: Path) -> None:
    manifest = project / "hookwrap.toml"
    text = manifest.read_text().replace('.claude/hooks/no-force.sh"', '.claude/hooks/gone.sh"')
    manifest.write_text(text)
    payload = json.loads((PAYLOADS / "gemini/BeforeTool.json").read_text())
    env = {"GEMINI_PROJECT_DIR": str(project)}
    open_run = _run_bridge(project, "gemini", payload, env)
    assert (open_run.returncode, open_run.stdout.strip()) == (0, "{}")
    assert "gone.sh" in open_run.stderr
    manifest.write_text(text.replace('speaks = "claude"', 'speaks = "claude"\nfail_closed = true'))
    closed = _run_bridge(project, "gemini", payload, env)
    assert json.loads(closed.stdout)["decision"] == "deny"


def test_exit_2_where_nothing_can_be_blocked_is_a_notice() -> None:
    fields = runtime_of("claude").read_answer(NormalizedEvent.SESSION_START, 2, "", "not now\n")
    assert fields == {"system_message": "not now"}


@pytest.mark.parametrize(("platform", "tool_name"), [("opencode", "bash"), ("droid", "Execute")])
def test_hookwrap_test_runs_the_external_hook_as_each_cli_would(
        project: Path, platform: str, tool_name: str) -> None:
    from hookwrap.checks.hooktest import run_hook_test

    env = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    blocked = run_hook_test(project, "no-force", platform=platform, tool="shell",
                            tool_input={"command": "git push --force origin main"}, env=env)
    [test] = blocked.tests
    assert test.payload["tool_name"] == tool_name
    assert test.verdict is not None and test.verdict.outcome == "blocked", test
    assert "force push is not allowed" in test.verdict.reason
    # The command saw Claude's payload, whichever CLI ran the bridge.
    seen = json.loads((project / "seen.json").read_text())
    assert (seen["hook_event_name"], seen["tool_name"]) == ("PreToolUse", "Bash")
    assert seen["tool_input"]["command"] == "git push --force origin main"
    allowed = run_hook_test(project, "no-force", platform=platform, tool="shell",
                            tool_input={"command": "ls"}, env=env)
    assert allowed.tests[0].verdict.outcome == "allowed", allowed.tests[0]


# --- Codex's apply_patch, for a hook that speaks Claude's protocol ------------------------------

ADD_ONE = "*** Begin Patch\n*** Add File: notes.txt\n+hello\n+two\n*** End Patch\n"
UPDATE_ONE = ("*** Begin Patch\n*** Update File: src/a.py\n@@ def f():\n x = 1\n-y = 2\n+y = 3\n"
              "*** End Patch\n")


@pytest.mark.parametrize(("patch", "tool", "shaped"), [
    (ADD_ONE, "Write", {"file_path": "notes.txt", "content": "hello\ntwo\n"}),
    (UPDATE_ONE, "Edit", {"file_path": "src/a.py", "old_string": "x = 1\ny = 2",
                          "new_string": "x = 1\ny = 3"}),
])
def test_a_one_file_patch_reads_as_claudes_write_or_edit(patch: str, tool: str,
                                                          shaped: dict) -> None:
    payload = json.loads((PAYLOADS / "codex/pre-tool-use.apply_patch.json").read_text())
    payload["tool_input"]["command"] = patch
    hook_input = normalize_input(json.dumps(payload), Platform.CODEX)
    claude = runtime_of("claude").payload_for(hook_input, runtime_of("codex"))
    assert (claude["tool_name"], claude["tool_input"]) == (tool, shaped)
    # A rewrite in Claude's shape goes back to Codex as a one-file patch that reads the same.
    back = runtime_of("codex").own_tool_input(hook_input.tool_name, claude["tool_input"])
    assert set(back) == {"command"} and back["command"].startswith("*** Begin Patch\n")
    assert runtime_of("codex").common_tool_input(hook_input.tool_name, back) == shaped


@pytest.mark.parametrize("patch", [
    "*** Begin Patch\n*** Add File: a\n+x\n*** Add File: b\n+y\n*** End Patch\n",
    "*** Begin Patch\n*** Delete File: a\n*** End Patch\n",
    "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch\n",
    "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n@@ later\n-z\n+w\n*** End Patch\n",
])
def test_any_other_patch_stays_a_patch(patch: str) -> None:
    tool = runtime_of("codex").normalize_call("apply_patch", {"command": patch})
    assert runtime_of("codex").common_tool_input(tool, {"command": patch}) == {"command": patch}


def test_a_claude_write_reaches_a_codex_hook_as_apply_patch() -> None:
    hook_input = normalize_input(json.dumps({
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/p", "tool_name": "Write",
        "tool_input": {"file_path": "/p/w.txt", "content": "hi\n"}}), Platform.CLAUDE)
    payload = runtime_of("codex").payload_for(hook_input, runtime_of("claude"))
    assert payload["tool_name"] == "apply_patch"
    assert payload["tool_input"] == {
        "command": "*** Begin Patch\n*** Add File: /p/w.txt\n+hi\n*** End Patch\n"}
    again = normalize_input(json.dumps(payload), Platform.CODEX)
    assert (again.tool_name, again.file_paths) == ("write_file", ["/p/w.txt"])


@pytest.mark.parametrize("timeout", [1, 2, 3, 5, 10, 15, 33, 60, 600, 1200])
def test_the_command_limit_fits_inside_every_timeout(timeout: int) -> None:
    """Every CLI is registered with the timeout in whole seconds (Gemini: x1000 ms): the
    bridge must stop the command early enough to answer inside it."""
    from hookwrap.options import answer_limit

    limit = answer_limit({"timeout": timeout})
    assert 0.5 <= limit <= timeout - min(10, 0.3 * timeout) + 1e-9
    assert limit >= timeout - 10


# --- each CLI's own rules for an answer (the reference's observed behaviour) ---------------------

_DENY = '{"decision": "deny", "reason": "no"}'
_CLAUDE_DENY = ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
                '"permissionDecision": "deny", "permissionDecisionReason": "no"}}')
_BT, _PROMPT = NormalizedEvent.BEFORE_TOOL, NormalizedEvent.BEFORE_PROMPT


@pytest.mark.parametrize(("speaks", "event", "code", "stdout", "stderr", "expected"), [
    # Qwen: a JSON answer counts at any exit code but 2; exit 2 reads stderr, empty = nothing.
    ("qwen", _BT, 1, _CLAUDE_DENY, "", {"decision": "deny", "reason": "no"}),
    ("qwen", _BT, 3, "", _CLAUDE_DENY, {"decision": "deny", "reason": "no"}),
    ("qwen", _BT, 2, "", "", {}),
    ("qwen", _BT, 2, "", "stop", {"decision": "block", "reason": "stop"}),
    ("qwen", _BT, 1, "plain", "oops", {}),
    # Copilot: any non-zero exit denies PreToolUse, its stderr not passed on (copilot-cli.md
    # 7: "Denied by preToolUse hook: hook exited with code 2"); top-level "deny" is ignored.
    ("copilot", _BT, 1, "", "", {"decision": "deny", "reason": "hook exited with code 1"}),
    ("copilot", _BT, 2, "", "stop", {"decision": "deny", "reason": "hook exited with code 2"}),
    ("copilot", _BT, 0, _DENY, "", {"reason": "no"}),
    ("copilot", _BT, 0, '{"decision": "block", "reason": "no"}', "", {"reason": "no"}),
    ("copilot", _BT, 0, '{"permissionDecision": "deny", "permissionDecisionReason": "r"}', "",
     {"decision": "deny", "reason": "r"}),
    ("copilot", _PROMPT, 0, '{"decision": "block", "reason": "no"}', "",
     {"decision": "block", "reason": "no"}),
    ("copilot", _PROMPT, 0, '{"hookSpecificOutput": {"additionalContext": "x"}}', "", {}),
    ("copilot", _PROMPT, 0, '{"additionalContext": "x"}', "", {"context": "x"}),
    # Gemini: JSON at any exit code; plain text by exit code; Claude's fields ignored.
    ("gemini", _BT, 0, _CLAUDE_DENY, "", {}),
    ("gemini", _BT, 1, _DENY, "", {"decision": "deny", "reason": "no"}),
    ("gemini", _BT, 0, "", _DENY, {"decision": "deny", "reason": "no"}),
    ("gemini", _BT, 127, "", "bash: x.sh: No such file", {"decision": "deny",
                                                          "reason": "bash: x.sh: No such file"}),
    ("gemini", _BT, 1, "", "Traceback", {"system_message": "Warning: Traceback"}),
    ("gemini", _BT, 2, '{"decision": "allow"}', "blocked", {}),
    ("gemini", _BT, 0, '{"hookSpecificOutput": {"tool_input": {"command": "ls"}}}', "",
     {"updated_input": {"command": "ls"}}),
    ("gemini", _PROMPT, 0, '{"decision": "ask"}', "", {}),
    # Codex: exit 2 needs stderr; what Codex does not accept on PreToolUse fails open.
    ("codex", _BT, 2, "", "", {}),
    ("codex", _BT, 2, "", "stop", {"decision": "block", "reason": "stop"}),
    ("codex", _BT, 0, _DENY, "", {}),
    ("codex", _BT, 0, '{"hookSpecificOutput": {"permissionDecision": "deny"}}', "", {}),
    ("codex", _BT, 0, '{"hookSpecificOutput": {"permissionDecision": "ask"}}', "", {}),
    ("codex", _BT, 0, _CLAUDE_DENY, "", {"decision": "deny", "reason": "no"}),
    ("codex", _BT, 0, '{"hookSpecificOutput": {"updatedInput": {"command": "ls"}}}', "", {}),
])
def test_each_cli_reads_an_answer_by_its_own_rules(speaks: str, event: NormalizedEvent,
                                                   code: int, stdout: str, stderr: str,
                                                   expected: dict) -> None:
    assert runtime_of(speaks).read_answer(event, code, stdout, stderr) == expected


# --- a command that leaves a process behind ----------------------------------------------------

ESCAPED = f"{sys.executable} -c 'import os, time; os.setsid(); time.sleep(30)'"


@pytest.mark.parametrize(("command", "decision"), [
    (f"{ESCAPED} & echo $! >&2; sleep 30", "deny"),  # hangs: fail-closed blocks, in time
    (f"{ESCAPED} & echo $! >&2; exit 0", None),      # answers at once: allowed, at once
])
def test_a_process_the_command_leaves_behind_does_not_hold_the_answer_past_gemini_s_timeout(
        tmp_path: Path, command: str, decision: str | None) -> None:
    """Gemini CLI 0.61.0 gives up on a hook at its timeout (2000 ms here) and lets the call
    through. The command leaves a process in a session of its own holding its pipes: the
    bridge answers within the timeout all the same (it waited for that process before)."""
    from hookwrap.console.app import main

    root = tmp_path / "repo"
    root.mkdir()
    assert main(["-C", str(root), "init", "-p", "claude", "-p", "gemini"]) == 0
    assert main(["-C", str(root), "add", "before_tool", "ext", "--matcher", "shell",
                 "--timeout", "2", "--command", command]) == 0
    manifest = root / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('speaks = "claude"',
                                                     'speaks = "claude"\nfail_closed = true'))
    payload = json.loads((PAYLOADS / "gemini/BeforeTool.json").read_text())
    started = time.monotonic()
    done = subprocess.run([sys.executable, str(root / ".hookwrap/hooks/ext.py"), "--platform",
                           "gemini"], input=json.dumps(payload), text=True, capture_output=True,
                          cwd=root, env={**os.environ, "GEMINI_PROJECT_DIR": str(root)},
                          timeout=60, check=False)
    took = time.monotonic() - started
    for word in done.stderr.split():
        if word.isdigit():
            with contextlib.suppress(OSError):
                os.kill(int(word), signal.SIGKILL)
    assert took < 2.0, (took, done.stderr)
    assert json.loads(done.stdout).get("decision") == decision, done.stdout


def test_a_long_lived_caller_gives_the_command_its_whole_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the hook process counts its own start against the limit: called from a process that
    # has run for minutes (a test worker, anything that imports the bridge), the command still
    # gets the entry's whole limit, not the 0.1 s floor of what is left.
    monkeypatch.setattr(bridge, "_time_left", lambda limit: 0.1)
    hook_input = _input("claude/PreToolUse.json", "claude")
    output = bridge.bridged_output(hook_input, Platform.CLAUDE,
                                   "cat > /dev/null; sleep 0.4; echo 'slow but sure' >&2; exit 2",
                                   str(tmp_path), {})
    assert (output.decision, output.reason) == ("block", "slow but sure")
