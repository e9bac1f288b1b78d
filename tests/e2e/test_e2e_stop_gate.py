"""Scenario 3: ``stop_gate`` keeps the agent working while its check fails, and lets it stop once the
check passes or the retry cap is reached."""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

CHECK_OK_FILE = "python3 -c \"import os, sys; sys.exit(0 if os.path.exists('ok') else 1)\""
CHECK_FAILS = "python3 -c \"import sys; print('E2E-CHECK-FAILED'); sys.exit(1)\""


def test_stop_gate_keeps_the_agent_working_until_the_check_passes(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("after_agent", "stop_gate")
    repo.set_options("stop_gate", check=CHECK_OK_FILE, max_retries=3)
    repo.add("before_prompt", "prompt_audit", "--template", "audit")
    steps = [Reply("All done."), agent.shell("touch ok"), Reply("Now it is really done.")]
    result = agent.run(repo.root, steps)

    assert result.rc == 0, result.describe()
    assert (repo.root / "ok").exists(), result.describe()
    # 1: "All done." -> blocked; 2: the model fixes it (touch ok); 3: final answer -> check passes.
    assert [r.turn for r in result.requests] == [0, 1, 2], result.describe()
    assert "attempt 1 of 3" in result.conversation(1), result.describe()
    if agent.name == "claude":  # the reason comes back as user text
        assert "Stop hook feedback:\n`python3 -c" in result.conversation(1), result.describe()
    else:  # the reason is the next user message, and starts a new agent turn
        last_user = [c for c in result.requests[1].body["contents"] if c["role"] == "user"][-1]
        assert "attempt 1 of 3" in last_user["parts"][0]["text"], result.describe()
    # On Gemini the retry is a new prompt: before_prompt hooks fire again.
    prompts = 1 if agent.name == "claude" else 2
    assert len(repo.log_lines("prompt_audit")) == prompts, result.describe()
    expected = [("prompt_audit", agent.name)] * prompts + [("stop_gate", agent.name)] * 2
    assert sorted(result.hooks) == expected, result.describe()
    assert not result.failed_hooks(), result.describe()
    assert result.final_text.endswith("Now it is really done."), result.describe()


def test_stop_gate_lets_the_agent_stop_at_the_retry_cap(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("after_agent", "stop_gate")
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    result = agent.run(repo.root, [Reply("All done.")])

    assert result.rc == 0, result.describe()
    # The first answer and two retries; the third stop is let through.
    assert len(result.requests) == 3, result.describe()
    assert "attempt 1 of 2" in result.conversation(1), result.describe()
    assert "attempt 2 of 2" in result.conversation(2), result.describe()
    assert "E2E-CHECK-FAILED" in result.conversation(2), result.describe()
    assert result.hooks == [("stop_gate", agent.name)] * 3, result.describe()
    assert not result.failed_hooks(), result.describe()
