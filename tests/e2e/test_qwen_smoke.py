"""Qwen Code 0.24.4 smoke tests: raw hook scripts (no hookwrap) in ``.qwen/settings.json``.

They prove the harness drives ``qwen -p`` offline against the chat-completions mock, and pin the
hook facts hookwrap will rely on (docs/qwen-copilot-notes.md): Claude event names and output
fields, Qwen tool names in payloads, only exit 2 blocks, Stop blocks give another turn.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .chat_harness import ChatAgent, make_project, raw_hook
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

VAR = "QWEN_PROJECT_DIR"


def pre_tool_hook(qwen: ChatAgent, project: Path, label: str = "pre", **spec: object):
    hook = raw_hook(project, label, **spec)  # type: ignore[arg-type]
    qwen.add_hook(project, "PreToolUse", hook.command(VAR), matcher="Bash")
    return hook


def test_runs_offline_and_the_mock_scripts_a_shell_call(qwen: ChatAgent, git_project: Path) -> None:
    """The harness drives Qwen offline; and Qwen reads no hook from .claude/settings.json."""
    claude = raw_hook(git_project, "claude", stdout={})
    qwen.add_claude_hook(git_project, "PreToolUse", claude.command("CLAUDE_PROJECT_DIR"), matcher="Bash")
    result = qwen.run(git_project, [qwen.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (git_project / "side_effect.txt").read_text() == "x\n", result.describe()
    assert [r.turn for r in result.requests] == [0, 1], result.describe()
    assert all(r.path == "/v1/chat/completions" and r.status == 200 for r in result.all_requests)
    assert result.requests[0].body["stream"] is True
    [tool_result] = result.tool_results()
    assert tool_result["name"] == "run_shell_command"
    assert "Exit Code: 0" in tool_result["text"], result.describe()
    assert result.final_text == "Finished.", result.describe()
    assert result.hook_runs == [], result.describe()
    assert claude.calls() == [], result.describe()  # Claude's settings are not read


def test_pre_tool_hook_gets_the_payload(qwen: ChatAgent, git_project: Path) -> None:
    hook = pre_tool_hook(qwen, git_project)
    result = qwen.run(git_project, [qwen.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (git_project / "side_effect.txt").exists(), result.describe()
    [call] = hook.calls()
    payload = call["payload"]
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "run_shell_command"  # Qwen's name; the matcher said Bash
    assert payload["tool_input"] == {"command": "echo x > side_effect.txt"}
    assert payload["cwd"] == str(git_project)
    assert payload["permission_mode"] == "yolo"
    assert payload["tool_call_id"].startswith("call_mock_")
    assert not call["stdin"].endswith("\n")
    assert call["cwd"] == str(git_project)
    assert call["env"]["QWEN_PROJECT_DIR"] == call["env"]["CLAUDE_PROJECT_DIR"] == str(git_project)
    assert call["env"]["QWEN_CODE_PROJECT_DIR"] != str(git_project)  # the CLI's state dir, not the project
    # The CLI rewrote the project settings file it loaded.
    assert json.loads(qwen.settings_path(git_project).read_text())["$version"] == 4


def test_how_each_answer_of_a_pre_tool_hook_decides(qwen: ChatAgent, git_project: Path) -> None:
    """One run, four shell calls, the hook answering each its own way: a Claude-style JSON deny
    blocks with its reason reaching the model; exit 2 blocks with stderr as the reason; another
    exit code fails open and its text goes nowhere; JSON on stdout counts whatever the exit code
    but 2 (a deny printed before exiting 1 still blocks)."""
    def deny(reason: str) -> dict[str, object]:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                       "permissionDecisionReason": reason}}

    hook = pre_tool_hook(qwen, git_project, answers=[
        {"stdout": deny("QWEN-DENY-REASON")},
        {"stderr": "QWEN-EXIT2-REASON", "exit": 2},
        {"stderr": "QWEN-EXIT1", "exit": 1},
        {"stdout": deny("QWEN-JSON-EXIT1"), "exit": 1},
    ])
    steps = [qwen.shell(f"echo x > {name}.txt") for name in ("deny", "exit2", "exit1", "json")]
    result = qwen.run(git_project, [*steps, Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert len(hook.calls()) == 4, result.describe()
    results = [r["text"] for r in result.tool_results()]
    assert len(results) == 4, result.describe()
    # A Claude-style deny: blocked, the reason reaches the model.
    assert not (git_project / "deny.txt").exists(), result.describe()
    assert "QWEN-DENY-REASON" in results[0], result.describe()
    # Exit 2: blocked, stderr is the reason.
    assert not (git_project / "exit2.txt").exists(), result.describe()
    assert "QWEN-EXIT2-REASON" in results[1], result.describe()
    # Exit 1 with plain text: fails open, the text reaches no request.
    assert (git_project / "exit1.txt").exists(), result.describe()
    assert "QWEN-EXIT1" not in json.dumps(result.requests[-1].body), result.describe()
    # JSON on stdout, exit 1: the deny counts.
    assert not (git_project / "json.txt").exists(), result.describe()
    assert "QWEN-JSON-EXIT1" in results[3], result.describe()
    assert result.final_text == "Finished.", result.describe()


def test_additional_context_reaches_the_model(qwen: ChatAgent, git_project: Path) -> None:
    post = raw_hook(git_project, "post", stdout={"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "additionalContext": "QWEN-POST-CONTEXT"}})
    qwen.add_hook(git_project, "PostToolUse", post.command(VAR), matcher="Bash")
    prompt = raw_hook(git_project, "prompt", stdout={"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": "QWEN-PROMPT-CONTEXT"}})
    qwen.add_hook(git_project, "UserPromptSubmit", prompt.command(VAR))
    pre = raw_hook(git_project, "pre", stdout={"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "QWEN-PRE-CONTEXT"}})
    qwen.add_hook(git_project, "PreToolUse", pre.command(VAR), matcher="Bash")
    result = qwen.run(git_project, [qwen.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    [tool_result] = result.tool_results()
    assert tool_result["text"].endswith("\n\nQWEN-POST-CONTEXT"), result.describe()
    assert "<qwen:user-prompt-submit-context>\nQWEN-PROMPT-CONTEXT\n</qwen:user-prompt-submit-context>" in \
        result.user_messages(0)[-1], result.describe()
    # UserPromptSubmit runs before every model request; the continuation has an empty prompt.
    assert [p["prompt"] for p in prompt.payloads()] == ["Please do the task.", ""]
    # PreToolUse additionalContext is computed but never sent.
    assert len(pre.calls()) == 1
    assert "QWEN-PRE-CONTEXT" not in json.dumps(result.requests[-1].body), result.describe()


def test_stop_block_gives_another_turn(qwen: ChatAgent, git_project: Path) -> None:
    hook = raw_hook(git_project, "stop", stdout={"decision": "block", "reason": "QWEN-STOP-AGAIN"}, times=1)
    qwen.add_hook(git_project, "Stop", hook.command(VAR))
    result = qwen.run(git_project, [Reply("First answer."), Reply("Second answer.")])

    assert result.rc == 0, result.describe()
    assert [r.turn for r in result.requests] == [0, 1], result.describe()
    assert result.user_messages()[-1] == "QWEN-STOP-AGAIN", result.describe()
    assert [p["stop_hook_active"] for p in hook.payloads()] == [False, True]
    assert [p["last_assistant_message"] for p in hook.payloads()] == ["First answer.", "Second answer."]
    # -o json's result text joins the answers of both turns.
    assert result.final_text == "First answer.Second answer.", result.describe()


def test_project_path_with_a_space(qwen: ChatAgent, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    hook = pre_tool_hook(qwen, project, stdout={"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "SPACE-OK"}})
    result = qwen.run(project, [qwen.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert [p["cwd"] for p in hook.payloads()] == [str(project)], result.describe()
    assert not (project / "side_effect.txt").exists(), result.describe()
    assert "SPACE-OK" in result.tool_results()[0]["text"], result.describe()


def test_untrusted_folder_drops_project_hooks_when_folder_trust_is_on(qwen: ChatAgent, git_project: Path) -> None:
    hook = pre_tool_hook(qwen, git_project, stdout={})
    settings = qwen.qwen_home / "settings.json"  # type: ignore[attr-defined]
    qwen.env()  # writes the default user settings
    data = json.loads(settings.read_text())
    data["security"]["folderTrust"] = {"enabled": True}
    settings.write_text(json.dumps(data))
    result = qwen.run(git_project, [qwen.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert hook.calls() == [], result.describe()
    assert not (git_project / "side_effect.txt").exists(), result.describe()  # the shell is refused too
