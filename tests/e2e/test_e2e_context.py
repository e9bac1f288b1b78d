"""Scenario 2: the text of a ``context`` hook's Markdown file reaches the model's request."""

from __future__ import annotations

import json

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e


def test_session_start_and_before_prompt_context_reach_the_first_request(agent: Agent,
                                                                        repo: HookwrapRepo) -> None:
    repo.add("session_start", "context")
    (repo.root / ".hookwrap" / "context.md").write_text(
        "<!-- a note for people, left out -->\nThe release codename is BLUE-HERON-4417.\n")
    repo.add("before_prompt", "prompt_notes", "--template", "context")
    (repo.root / ".hookwrap" / "prompt_notes.md").write_text("Answer in French: ORANGE-OTTER-2291.\n")
    result = agent.run(repo.root, [Reply("Noted.")])

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 1, result.describe()
    sent = result.conversation(0)
    assert "The release codename is BLUE-HERON-4417." in sent, result.describe()
    assert "a note for people" not in sent, result.describe()
    assert "Answer in French: ORANGE-OTTER-2291." in sent, result.describe()
    first = result.requests[0].body
    if agent.name == "claude":  # each a system-role message
        for text in ("SessionStart hook additional context: The release codename",
                     "UserPromptSubmit hook additional context: Answer in French"):
            assert any(m["role"] == "system" and text in json.dumps(m["content"])
                       for m in first["messages"]), (text, result.describe())
    else:  # session_start's is prepended to the prompt, before_prompt's an extra text part after it
        parts = [p.get("text") for p in first["contents"][-1]["parts"]]
        expected = ["<hook_context>The release codename is BLUE-HERON-4417.</hook_context>\n\n"
                    "Please do the task.",
                    "<hook_context>Answer in French: ORANGE-OTTER-2291.</hook_context>"]
        assert parts[-2:] == expected, result.describe()
    assert sorted(result.hooks) == [("context", agent.name), ("prompt_notes", agent.name)], result.describe()
    assert not result.failed_hooks(), result.describe()
