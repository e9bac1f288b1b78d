"""The hookwrap command's view of each agent CLI: both halves of its description in one object.

What a hook process needs about a CLI (names, answers) is in ``clis/<platform>.py``, copied
into every project and imported on every hook call, so it stays small; what only the hookwrap
command needs (the settings file, registrations, validation, the host rules ``hookwrap test``
emulates, doctor's checks, trust) is in ``clis/<platform>_setup.py``, whose class extends the
runtime one. ``cli(platform)`` here returns the latter; ``platforms.cli`` the former.
"""

from __future__ import annotations

from .platforms import Platform, load_cli

# For type checkers only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .clis._base_setup import AgentSetup

_LOADED: dict[Platform, AgentSetup] = {}


def cli(platform: Platform | str) -> AgentSetup:
    """The whole description of ``platform``'s CLI (``hookwrap.clis.<value>_setup.CLI``)."""
    platform = Platform(platform)
    found = _LOADED.get(platform)
    if found is None:
        found = _LOADED[platform] = load_cli(f"{platform.value}_setup")
    return found


def all_clis() -> list[AgentSetup]:
    """Every CLI's whole description, in Platform order."""
    return [cli(platform) for platform in Platform]
