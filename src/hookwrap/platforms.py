"""The registry of the CLIs' runtime descriptions, and the seed's maps built from them.

What a hook process needs about one agent CLI lives in ``hookwrap/clis/<platform>.py``;
``runtime_of(platform)`` returns that module's description. ``Platform`` and ``NormalizedEvent``
live in ``names.py`` and are re-exported here. The maps the seed names
(``EVENT_TO_NORMALIZED``, ``NORMALIZED_TO_EVENT``, ``TOOL_TO_NORMALIZED``, ``NORMALIZED_TO_TOOL``,
REQ-006.1-3) are built from those modules on first use, so a hook process imports only the
module of the CLI that runs it.
"""

from __future__ import annotations

import sys

from .names import DEFAULT_PLATFORM, NormalizedEvent, Platform

__all__ = ["DEFAULT_PLATFORM", "NormalizedEvent", "Platform", "all_runtimes", "detect_platform",
           "runtime_of"]

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from .clis._base import AgentCLI

    EVENT_TO_NORMALIZED: dict[Platform, dict[str, NormalizedEvent]]
    NORMALIZED_TO_EVENT: dict[Platform, dict[NormalizedEvent, str]]
    TOOL_TO_NORMALIZED: dict[Platform, dict[str, str]]
    NORMALIZED_TO_TOOL: dict[Platform, dict[str, str]]


_LOADED: dict[Platform, AgentCLI] = {}


def runtime_of(platform: Platform | str) -> AgentCLI:
    """The runtime description of ``platform``'s CLI (``hookwrap.clis.<value>.CLI``), imported
    once."""
    platform = Platform(platform)
    found = _LOADED.get(platform)
    if found is None:
        name = f"{__package__}.clis.{platform.value}"
        __import__(name)  # not importlib.import_module: the importlib package costs ~0.5 ms
        record = getattr(sys.modules[name], platform.name)  # clis/claude.py holds CLAUDE
        found = _LOADED[platform] = record.protocol(record)
    return found


def all_runtimes() -> list[AgentCLI]:
    """Every CLI's runtime description, in Platform order."""
    return [runtime_of(platform) for platform in Platform]


def detect_platform(raw_event: str) -> Platform | None:
    """Guess the platform from an event name alone; None unless exactly one CLI knows it."""
    knowing = [c.platform for c in all_runtimes() if c.knows_event(raw_event)]
    return knowing[0] if len(knowing) == 1 else None


# The seed's maps (REQ-006.1-3): what each holds for one CLI.
SEED_MAPS: dict[str, Callable[[AgentCLI], dict[Any, Any]]] = {
    "EVENT_TO_NORMALIZED": lambda agent: dict(agent.events),
    "NORMALIZED_TO_EVENT": lambda agent: agent.event_names(),
    "TOOL_TO_NORMALIZED": lambda agent: dict(agent.tools),
    "NORMALIZED_TO_TOOL": lambda agent: agent.tool_names(),
}


def __getattr__(name: str) -> object:
    """The seed's maps, built from every CLI module on first use."""
    build = SEED_MAPS.get(name)
    if build is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = {agent.platform: build(agent) for agent in all_runtimes()}
    return value
