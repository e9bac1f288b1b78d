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


def test_guard_blocks_a_dangerous_shell_call_and_lets_a_harmless_one_run(agent: Agent,
                                                                         repo: HookwrapRepo) -> None:
    repo.add("before_tool", "guard")
    steps = [agent.shell(DANGEROUS), agent.shell("echo harmless > harmless.txt"), Reply("Finished.")]
    result = agent.run(repo.root, steps)

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 3, result.describe()
    blocked, harmless = result.tool_results()
    # The dangerous call: blocked before it ran, with the guard's reason.
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    assert blocked["is_error"], result.describe()
    assert "Blocked by the guard hook: git push --force" in blocked["text"], result.describe()
    # The harmless one ran, and the guard said nothing about it.
    assert (repo.root / "harmless.txt").read_text() == "harmless\n", result.describe()
    assert not harmless["is_error"], result.describe()
    assert "guard" not in harmless["text"], result.describe()
    assert result.hooks == [("guard", agent.name)] * 2, result.describe()
    assert not result.failed_hooks(), result.describe()
    assert result.final_text == "Finished."
