"""The hookwrap command's view of each agent CLI: its setup, composed from behaviours.

What a hook process needs about a CLI (names, answers) is its record, ``hookwrap/clis/<platform>.py``,
copied into every project and imported on every hook call, so it stays small. What only the
hookwrap command needs (the settings file, registrations, validation, the host rules
``hookwrap test`` emulates, doctor's checks, trust) is the CLI's ``AgentSetup``:
``generator/clis/<platform>.py`` composes it (``SETUP``) from the record and the behaviours that
fit. ``SETUPS`` names each CLI's module; ``setup_of(platform)`` returns its setup (imported on
first use); ``platforms.runtime_of`` the runtime description.
"""

from __future__ import annotations

import sys

from ...names import Platform

# For type checkers only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._base import AgentSetup

# Every CLI's setup module (its SETUP), imported on first use: the one list of them.
SETUPS: dict[Platform, str] = {
    Platform.CLAUDE: f"{__name__}.claude",
    Platform.GEMINI: f"{__name__}.gemini",
    Platform.CODEX: f"{__name__}.codex",
    Platform.QWEN: f"{__name__}.qwen",
    Platform.COPILOT: f"{__name__}.copilot",
    Platform.OPENCODE: f"{__name__}.opencode",
    Platform.DROID: f"{__name__}.droid",
    Platform.PI: f"{__name__}.pi",
    Platform.KILO: f"{__name__}.kilo",
    Platform.CLINE: f"{__name__}.cline",
}
_LOADED: dict[Platform, AgentSetup] = {}


def setup_of(platform: Platform | str) -> AgentSetup:
    """The whole description of ``platform``'s CLI: the ``SETUP`` of its module in ``SETUPS``."""
    platform = Platform(platform)
    found = _LOADED.get(platform)
    if found is None:
        name = SETUPS[platform]
        __import__(name)
        found = _LOADED[platform] = sys.modules[name].SETUP
    return found


def all_setups() -> list[AgentSetup]:
    """Every CLI's whole description, in Platform order."""
    return [setup_of(platform) for platform in Platform]
