"""The hookwrap command's view of each agent CLI: its runtime description and its generator half.

What a hook process needs about a CLI (names, answers) is in ``hookwrap/clis/<platform>.py``,
copied into every project and imported on every hook call, so it stays small; what only the
hookwrap command needs (the settings file, registrations, validation, the host rules
``hookwrap test`` emulates, doctor's checks, trust) is in ``generator/clis/<platform>.py`` here,
whose class extends the runtime one. ``setup_of(platform)`` returns the latter;
``platforms.runtime_of`` the former.
"""

from __future__ import annotations

import sys

from ...names import Platform

# For type checkers only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._base import AgentSetup

_LOADED: dict[Platform, AgentSetup] = {}


def setup_of(platform: Platform | str) -> AgentSetup:
    """The whole description of ``platform``'s CLI (``hookwrap.generator.clis.<value>.CLI``)."""
    platform = Platform(platform)
    found = _LOADED.get(platform)
    if found is None:
        name = f"{__name__}.{platform.value}"
        __import__(name)
        found = _LOADED[platform] = sys.modules[name].CLI
    return found


def all_setups() -> list[AgentSetup]:
    """Every CLI's whole description, in Platform order."""
    return [setup_of(platform) for platform in Platform]
