"""A team's own Claude Code hooks, adopted by hookwrap, run unchanged on every CLI.

Two hooks written for Claude Code's protocol and registered by hand in .claude/settings.json:
a bash script (no Python in it) that blocks ``git push --force`` with exit 2 and a reason on
stderr, and a Node script that answers with Claude's JSON and adds context. ``hookwrap adopt``
moves them into hookwrap.toml; then each real CLI, offline against its loopback mock model,
blocks the forced push with the reason reaching the model, runs a harmless command, and gives
the model the context: the same behaviour as in Claude Code. One parametrized test: adding a
CLI is one entry in ``CLIS`` (its fixture name) and, where it differs, in ``CONTEXT_EVENT`` (the
event the Node hook is registered on) and ``USER_MESSAGE_CONTEXT``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .chat_harness import make_project
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

# Every CLI hookwrap supports, by the fixture that drives it (conftest.py, agents.AGENTS).
CLIS = ["claude", "gemini", "codex", "qwen", "copilot", "opencode", "droid"]
# The Claude event the team's Node hook is registered on, where it is not UserPromptSubmit:
# `droid exec` never fires UserPromptSubmit, so there the hook adds its context at SessionStart
# (which Claude Code reads the same way).
CONTEXT_EVENT = {"droid": "SessionStart"}
# CLIs whose model gets that context as a user message of the first request: OpenCode (the
# plugin adds UserPromptSubmit context to the prompt as a text part) and Droid (SessionStart
# context is a user message after the system prompt).
USER_MESSAGE_CONTEXT = ("opencode", "droid")

FORCE_MARKER = "force-ran.txt"
FORCED_PUSH = f"touch {FORCE_MARKER} && git push --force origin main"
HARMLESS = "echo harmless > harmless.txt"
REASON = "ADOPT-E2E: force pushes rewrite shared history; use --force-with-lease after review"
CONTEXT = "ADOPT-E2E-CONTEXT: the release codename is GREEN-FALCON-5521."

NO_FORCE_PUSH_SH = f"""#!/bin/bash
# A Claude Code PreToolUse hook, as a team would write it: no Python, no jq.
input=$(cat)
echo run >> "$CLAUDE_PROJECT_DIR/no-force-push.log"
case "$input" in
  *'git push --force'*|*'git push -f'*)
    echo "{REASON}" >&2
    exit 2;;
esac
exit 0
"""

TEAM_CONTEXT_JS = f"""// A Claude Code UserPromptSubmit hook answering with Claude's JSON.
let raw = '';
process.stdin.on('data', (chunk) => {{ raw += chunk; }});
process.stdin.on('end', () => {{
  const payload = JSON.parse(raw || '{{}}');
  process.stdout.write(JSON.stringify({{
    hookSpecificOutput: {{
      hookEventName: payload.hook_event_name,
      additionalContext: {json.dumps(CONTEXT)},
    }},
  }}));
}});
"""

def hand_made(context_event: str = "UserPromptSubmit") -> dict:
    """The team's .claude/settings.json, the Node hook on ``context_event``."""
    return {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "timeout": 10,
             "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-force-push.sh'}]}],
        context_event: [{"hooks": [
            {"type": "command", "command": "node .claude/hooks/team-context.js"}]}],
    }}


def adopted_repo(root: Path, sandbox, context_event: str = "UserPromptSubmit") -> HookwrapRepo:
    """A repo with the team's two hand-registered Claude hooks, after `hookwrap adopt`."""
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "no-force-push.sh").write_text(NO_FORCE_PUSH_SH, encoding="utf-8")
    (hooks / "no-force-push.sh").chmod(0o755)
    (hooks / "team-context.js").write_text(TEAM_CONTEXT_JS, encoding="utf-8")
    (root / ".claude" / "settings.json").write_text(json.dumps(hand_made(context_event), indent=2) + "\n",
                                                    encoding="utf-8")
    repo = HookwrapRepo(root, sandbox)
    repo.hookwrap("init", *[arg for name in CLIS for arg in ("--platform", name)])
    adopted = repo.hookwrap("adopt")
    assert "hooks.PreToolUse[0].hooks[0] becomes [hooks.no-force-push]" in adopted.stdout, \
        adopted.stdout
    assert f"hooks.{context_event}[0].hooks[0] becomes [hooks.team-context]" in adopted.stdout, \
        adopted.stdout
    assert repo.hookwrap("sync", "--check", check=False).returncode == 0
    commands = json.dumps(repo.settings(".claude/settings.json"))
    assert "no-force-push.sh" not in commands and "team-context.js" not in commands, commands
    return repo


def _everything_sent(result) -> str:
    return "\n".join(json.dumps(r.body) for r in result.requests)


@pytest.mark.parametrize("name", CLIS)
def test_adopted_claude_hooks_block_and_add_context_everywhere(
        name: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    agent = request.getfixturevalue(name)
    root = make_project(tmp_path, "team repo")
    adopted_repo(root, agent.sandbox, CONTEXT_EVENT.get(name, "UserPromptSubmit"))
    result = agent.run(root, [agent.shell(FORCED_PUSH), agent.shell(HARMLESS),
                              Reply("Finished.")])

    assert result.rc == 0, result.describe()
    # Blocked before it ran, with the hook's own reason reaching the model.
    assert not (root / FORCE_MARKER).exists(), result.describe()
    results = result.tool_results()
    assert len(results) == 2, result.describe()
    assert REASON in results[0]["text"], result.describe()
    # The harmless call ran.
    assert (root / "harmless.txt").read_text() == "harmless\n", result.describe()
    assert REASON not in results[1]["text"], result.describe()
    # The Node hook's context reached the model.
    assert CONTEXT in _everything_sent(result), result.describe()
    if name in USER_MESSAGE_CONTEXT:  # where it lands: a user message of the first request
        assert any(CONTEXT in text for text in result.user_messages(0)), result.describe()
    # The command ran once per shell call, with Claude's $CLAUDE_PROJECT_DIR set on every CLI
    # (a CLI that also runs .claude/settings.json, Copilot, starts hookwrap's claude entry,
    # which answers {} there without running the command).
    runs = (root / "no-force-push.log").read_text().splitlines()
    assert runs == ["run", "run"], (runs, result.describe())
    assert "no-force-push" in [run.name for run in result.hook_runs], result.describe()
