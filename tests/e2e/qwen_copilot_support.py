"""Helpers for the hookwrap end-to-end tests on Qwen Code and Copilot CLI (chat-completions mock)."""

from __future__ import annotations

from pathlib import Path

from .chat_harness import ChatAgent
from .hwrepo import HookwrapRepo

# A harmless stand-in for a dangerous command: the guard blocks it, and with no remote it
# could push nothing even if it ran.
FORCED_PUSH = "git push --force origin main"
CONTEXT_MARKER = "E2E-CONTEXT-MARKER-7c1"
CHECK_FAILS = "python3 -c \"import sys; print('E2E-CHECK-FAILED'); sys.exit(1)\""


def hookwrap_repo(agent: ChatAgent, project: Path, *platforms: str) -> HookwrapRepo:
    """``hookwrap init --platform ...`` in ``project``, with the agent's sandbox HOME."""
    repo = HookwrapRepo(project, agent.sandbox)
    args = [arg for platform in platforms for arg in ("--platform", platform)]
    repo.hookwrap("init", *args)
    return repo


def add_guard_audit_context(repo: HookwrapRepo) -> None:
    """guard (every default tool), audit (shell calls) and context (before_prompt)."""
    repo.add("before_tool", "guard")
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("before_prompt", "context")
    (repo.root / ".hookwrap" / "context.md").write_text(CONTEXT_MARKER + "\n", encoding="utf-8")

# A hand-written before_tool hook: rewrites writes to original.txt, asks on "risky".
REWRITE_OR_ASK_HOOK = '''\
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402


def hook(event: HookInput) -> HookOutput | None:
    command = event.tool_input.get("command")
    if not isinstance(command, str):
        return None
    if "risky" in command:
        return HookOutput.ask("E2E-ASK-REASON")
    if "original.txt" in command:
        return HookOutput(updated_input={**event.tool_input,
                                         "command": command.replace("original.txt", "rewritten.txt")})
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def add_rewrite_or_ask(repo: HookwrapRepo) -> None:
    repo.add("before_tool", "rewrite", "--template", "skeleton", "--matcher", "shell")
    repo.script("rewrite").write_text(REWRITE_OR_ASK_HOOK, encoding="utf-8")
