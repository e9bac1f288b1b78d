"""Scenario 1: the ``guard`` template stops a dangerous call and lets a harmless one through."""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

# Matches the guard's "git push --force" rule. Harmless if it ever ran here (no git repo, no
# remote), but the touch before it would leave side_effect.txt behind.
DANGEROUS = "touch side_effect.txt && git push --force origin main"


def test_guard_blocks_a_dangerous_shell_call(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "guard")
    result = agent.run(repo.root, [agent.shell(DANGEROUS), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    assert len(result.requests) == 2, result.describe()
    [tool_result] = result.tool_results()
    assert tool_result["is_error"], result.describe()
    assert "Blocked by the guard hook: git push --force" in tool_result["text"], result.describe()
    assert result.hooks == [("guard", agent.name)], result.describe()
    assert not result.failed_hooks(), result.describe()
    assert result.final_text == "Finished."


def test_guard_lets_a_harmless_shell_call_run(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "guard")
    result = agent.run(repo.root, [agent.shell("echo harmless > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (repo.root / "side_effect.txt").read_text() == "harmless\n", result.describe()
    [tool_result] = result.tool_results()
    assert not tool_result["is_error"], result.describe()
    assert "guard" not in tool_result["text"], result.describe()
    assert result.hooks == [("guard", agent.name)], result.describe()
    assert not result.failed_hooks(), result.describe()
