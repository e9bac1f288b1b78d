"""Scenario 6: after the settings file was rewritten by hand, ``hookwrap sync`` restores a working hook."""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

DANGEROUS = "touch side_effect.txt && git push --force origin main"
# A key of the user's own, valid in each CLI's settings, that sync must keep.
USER_KEYS = {"claude": {"env": {"E2E_USER_SETTING": "kept"}}, "gemini": {"ui": {"hideTips": True}}}


def test_sync_restores_a_hook_removed_by_hand(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "guard")
    # The user rewrites the file by hand: their own key stays, hookwrap's registration is gone.
    repo.write_settings(agent.settings_file, USER_KEYS[agent.name])

    broken = agent.run(repo.root, [agent.shell(DANGEROUS), Reply("Finished.")])
    assert broken.hook_runs == [], broken.describe()
    assert (repo.root / "side_effect.txt").exists(), broken.describe()  # nothing guarded the call
    (repo.root / "side_effect.txt").unlink()

    repo.sync()
    settings = repo.settings(agent.settings_file)
    assert settings.items() >= USER_KEYS[agent.name].items(), settings

    fixed = agent.run(repo.root, [agent.shell(DANGEROUS), Reply("Finished.")])
    assert fixed.rc == 0, fixed.describe()
    assert not (repo.root / "side_effect.txt").exists(), fixed.describe()
    [tool_result] = fixed.tool_results()
    assert tool_result["is_error"] and "Blocked by the guard hook" in tool_result["text"], fixed.describe()
    assert fixed.hooks == [("guard", agent.name)], fixed.describe()
    assert not fixed.failed_hooks(), fixed.describe()
