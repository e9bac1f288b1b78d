"""Scenario 5: a hook written by hand with the runtime API rewrites the tool input, and the
rewritten command is what actually runs."""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

REWRITE_HOOK = '''\
"""Send every shell write aimed at original.txt to rewritten.txt instead."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402


def hook(event: HookInput) -> HookOutput | None:
    command = event.tool_input.get("command")
    if event.tool_name != "shell" or not isinstance(command, str) or "original.txt" not in command:
        return None
    # Both CLIs replace the whole input: keep every other key the model sent.
    rewritten = command.replace("original.txt", "rewritten.txt")
    return HookOutput(updated_input={**event.tool_input, "command": rewritten})


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def test_updated_input_changes_what_runs(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "rewrite", "--matcher", "shell")
    repo.script("rewrite").write_text(REWRITE_HOOK)
    result = agent.run(repo.root, [agent.shell("echo payload > original.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (repo.root / "original.txt").exists(), result.describe()
    assert (repo.root / "rewritten.txt").read_text() == "payload\n", result.describe()
    [tool_result] = result.tool_results()
    assert not tool_result["is_error"], result.describe()
    # Only Gemini tells the model that the input was changed.
    notice = "[System] Tool input parameters were modified by a hook before execution."
    assert (notice in tool_result["text"]) == (agent.name == "gemini"), result.describe()
    assert result.hooks == [("rewrite", agent.name)], result.describe()
    assert not result.failed_hooks(), result.describe()
