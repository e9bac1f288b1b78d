"""Every CLI the end-to-end tests run, by name: one entry each, and how a fixture starts one.

``AGENTS`` maps a CLI's name (its row in ``harness.BINARIES``, and its fixture in conftest.py) to
what makes its agent from the binary, the test's sandbox and the version: an ``Agent`` subclass
(``Agent.start`` starts its mock) or any callable with that signature. Adding a CLI: a row in
``BINARIES``, an ``Agent`` (or a row-driven one) and an entry here; the fixture follows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .chat_harness import Copilot, Qwen
from .cline_harness import Cline
from .codex_harness import Codex
from .droid_harness import Droid
from .harness import Agent, Claude, Gemini, Sandbox, find_binary
from .kilo_harness import KiloAgent
from .opencode_harness import OpenCodeAgent
from .pi_harness import PiAgent

AgentFactory = Callable[[Path, Sandbox, str], Agent]

AGENTS: dict[str, AgentFactory] = {
    cls.name: cls.start for cls in (Claude, Gemini, Codex, Qwen, Copilot, OpenCodeAgent, Droid,
                                    PiAgent, KiloAgent, Cline)
}
# The CLIs the ``agent`` fixture runs each test on, and those of ``chat_agent``.
CLASSIC = ("claude", "gemini")
CHAT = ("qwen", "copilot")


def start_agent(name: str, sandbox: Sandbox) -> Iterator[Agent]:
    """The agent of CLI ``name`` with its mock running, for a fixture to yield; skips (with the
    reason) when the binary is missing or does not run."""
    path, info = find_binary(name)
    if path is None:
        pytest.skip(info)
    agent = AGENTS[name](path, sandbox, info)
    try:
        yield agent
    finally:
        agent.stop()
