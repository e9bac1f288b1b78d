"""GitHub Copilot CLI 1.0.102 smoke tests: raw hook scripts (no hookwrap) in ``.github/hooks/*.json``.

They prove the harness drives ``copilot -p`` offline (BYOK against the chat-completions mock), and
pin the hook facts hookwrap will rely on (docs/qwen-copilot-notes.md): Copilot's camelCase dialect
(top-level ``permissionDecision`` / ``additionalContext``), fail-closed exits, folder trust, and
that Copilot also runs the hooks in the repo's ``.claude/settings.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .chat_harness import ChatAgent, make_project, raw_hook
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

VAR = "COPILOT_PROJECT_DIR"
DENY = {"permissionDecision": "deny", "permissionDecisionReason": "COPILOT-DENY-REASON"}


def pre_tool_hook(copilot: ChatAgent, project: Path, label: str = "pre", **spec: object):
    hook = raw_hook(project, label, **spec)  # type: ignore[arg-type]
    copilot.add_hook(project, "preToolUse", hook.command(VAR), matcher="bash")
    return hook


def test_runs_offline_and_the_mock_scripts_a_shell_call(copilot: ChatAgent, git_project: Path) -> None:
    result = copilot.run(git_project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (git_project / "side_effect.txt").read_text() == "x\n", result.describe()
    assert [r.turn for r in result.requests] == [0, 1], result.describe()
    assert all(r.path == "/v1/chat/completions" and r.status == 200 for r in result.all_requests)
    first = result.requests[0]
    assert first.body["stream"] is True and first.body["stream_options"] == {"include_usage": True}
    assert first.headers["authorization"] == "Bearer sk-e2e-mock"
    [tool_result] = result.tool_results()
    assert tool_result["name"] == "bash"
    assert "exit code 0" in tool_result["text"], result.describe()
    assert result.final_text == "Finished.", result.describe()
    assert result.events[-1]["type"] == "result" and result.events[-1]["exitCode"] == 0
    assert result.hook_runs == [], result.describe()


def test_pre_tool_hook_gets_the_payload(copilot: ChatAgent, git_project: Path) -> None:
    hook = pre_tool_hook(copilot, git_project)
    result = copilot.run(git_project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (git_project / "side_effect.txt").exists(), result.describe()
    [call] = hook.calls()
    payload = call["payload"]
    assert set(payload) == {"sessionId", "timestamp", "cwd", "toolName", "toolArgs"}, payload
    assert payload["toolName"] == "bash"
    assert payload["toolArgs"] == {"command": "echo x > side_effect.txt", "description": "Run the command"}
    assert isinstance(payload["timestamp"], int)
    assert payload["cwd"] == str(git_project)
    assert call["cwd"] == str(git_project)
    assert call["env"]["COPILOT_PROJECT_DIR"] == call["env"]["CLAUDE_PROJECT_DIR"] == str(git_project)
    assert call["env"]["COPILOT_HOOK_DIR"] == str(git_project / ".github" / "hooks")


def test_how_each_answer_of_a_pre_tool_hook_decides(copilot: ChatAgent, git_project: Path) -> None:
    """One run, three shell calls, the hook answering each its own way: Copilot's own deny blocks
    and its reason reaches the model; a Claude-shaped deny is ignored in the camelCase dialect;
    any non-zero exit denies (fail-closed), and exit 1's stderr is not passed on."""
    hook = pre_tool_hook(copilot, git_project, answers=[
        {"stdout": DENY},
        {"stdout": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                           "permissionDecisionReason": "nope"}}},
        {"stderr": "COPILOT-EXIT1", "exit": 1},
    ])
    steps = [copilot.shell(f"echo x > {name}.txt") for name in ("deny", "claude-shaped", "exit1")]
    result = copilot.run(git_project, [*steps, Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert len(hook.calls()) == 3, result.describe()
    results = [r["text"] for r in result.tool_results()]
    assert len(results) == 3, result.describe()
    # Copilot's deny: blocked, with the reason.
    assert not (git_project / "deny.txt").exists(), result.describe()
    assert results[0] == "Denied by preToolUse hook: COPILOT-DENY-REASON", result.describe()
    # A Claude-shaped deny means nothing here: the call runs.
    assert (git_project / "claude-shaped.txt").exists(), result.describe()
    # Exit 1: blocked, the hook's stderr not passed on.
    assert not (git_project / "exit1.txt").exists(), result.describe()
    assert "hook errored" in results[2] and "COPILOT-EXIT1" not in results[2], result.describe()
    assert result.final_text == "Finished."


def test_additional_context_reaches_the_model(copilot: ChatAgent, git_project: Path) -> None:
    pre = pre_tool_hook(copilot, git_project, stdout={"additionalContext": "COPILOT-PRE-CONTEXT"})
    post = raw_hook(git_project, "post", stdout={"additionalContext": "COPILOT-POST-CONTEXT"})
    copilot.add_hook(git_project, "postToolUse", post.command(VAR), matcher="bash")
    result = copilot.run(git_project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (len(pre.calls()), len(post.calls())) == (1, 1), result.describe()
    assert (git_project / "side_effect.txt").exists(), result.describe()
    [tool_result] = result.tool_results()
    assert tool_result["text"].endswith(
        'Tool "bash" succeeded. Additional guidance from postToolUse hooks:\nCOPILOT-POST-CONTEXT'), result.describe()
    assert "Additional context from preToolUse hook:\nCOPILOT-PRE-CONTEXT" in result.user_messages(), \
        result.describe()


def test_agent_stop_block_gives_another_turn(copilot: ChatAgent, git_project: Path) -> None:
    hook = raw_hook(git_project, "stop", stdout={"decision": "block", "reason": "COPILOT-STOP-AGAIN"}, times=1)
    copilot.add_hook(git_project, "agentStop", hook.command(VAR))
    result = copilot.run(git_project, [Reply("First answer."), Reply("Second answer.")])

    assert result.rc == 0, result.describe()
    assert [r.turn for r in result.requests] == [0, 1], result.describe()
    assert "COPILOT-STOP-AGAIN" in result.user_messages()[-1], result.describe()
    assert [p["stop_hook_active"] for p in hook.payloads()] == [False, True]
    assert result.final_text == "Second answer.", result.describe()


def test_project_path_with_a_space(copilot: ChatAgent, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    hook = pre_tool_hook(copilot, project, stdout=DENY)
    result = copilot.run(project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert [p["cwd"] for p in hook.payloads()] == [str(project)], result.describe()
    assert not (project / "side_effect.txt").exists(), result.describe()
    assert "COPILOT-DENY-REASON" in result.tool_results()[0]["text"], result.describe()


def test_repo_hooks_and_claude_settings_hooks_need_a_trusted_folder(copilot: ChatAgent,
                                                                   git_project: Path) -> None:
    hook = pre_tool_hook(copilot, git_project, stdout=DENY)
    claude = raw_hook(git_project, "claude", stdout={})
    copilot.add_claude_hook(git_project, "PreToolUse", claude.command("CLAUDE_PROJECT_DIR"), matcher="Bash")
    copilot.trusted = False  # type: ignore[attr-defined]  # COPILOT_ALLOW_ALL=1: tools yes, trust no
    result = copilot.run(git_project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert hook.calls() == [], result.describe()
    assert claude.calls() == [], result.describe()
    assert (git_project / "side_effect.txt").exists(), result.describe()


def test_claude_dialect_hooks_from_both_places_each_run(copilot: ChatAgent, git_project: Path) -> None:
    """A PascalCase event in ``.github/hooks`` gets Claude's payload and tool names; Copilot CLI also
    runs the project's ``.claude/settings.json`` hooks (so hookwrap must not register a hook in
    both places): no de-duplication, even for an identical command in the same dialect."""
    pascal = raw_hook(git_project, "pascal", stdout={})
    copilot.add_hook(git_project, "PreToolUse", pascal.command(VAR), matcher="Bash")
    claude = raw_hook(git_project, "claude", stdout={})
    copilot.add_claude_hook(git_project, "PreToolUse", claude.command("CLAUDE_PROJECT_DIR"), matcher="Bash")
    both = raw_hook(git_project, "both", stdout={})
    copilot.add_hook(git_project, "PreToolUse", both.command("CLAUDE_PROJECT_DIR"), matcher="Bash")
    copilot.add_claude_hook(git_project, "PreToolUse", both.command("CLAUDE_PROJECT_DIR"), matcher="Bash")
    result = copilot.run(git_project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (git_project / "side_effect.txt").exists(), result.describe()
    for hook in (pascal, claude):
        [payload] = hook.payloads()
        assert payload["hook_event_name"] == "PreToolUse", (hook.label, result.describe())
        assert payload["tool_name"] == "Bash", payload
        assert payload["tool_input"]["command"] == "echo x > side_effect.txt", payload
    assert len(both.calls()) == 2, result.describe()


def test_claude_settings_deny_blocks_and_runs_alongside_github_hooks(copilot: ChatAgent, git_project: Path) -> None:
    claude = raw_hook(git_project, "claude", stdout={"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "FROM-CLAUDE"}})
    copilot.add_claude_hook(git_project, "PreToolUse", claude.command("CLAUDE_PROJECT_DIR"), matcher="Bash")
    github = pre_tool_hook(copilot, git_project, label="github", stdout={})
    result = copilot.run(git_project, [copilot.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert (len(claude.calls()), len(github.calls())) == (1, 1), result.describe()
    assert not (git_project / "side_effect.txt").exists(), result.describe()
    assert "FROM-CLAUDE" in result.tool_results()[0]["text"], result.describe()
    assert json.loads(claude.calls()[0]["stdin"])["tool_name"] == "Bash"
