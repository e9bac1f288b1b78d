"""The hookwrap command's view of each agent CLI: its runtime description and its generator half.

What a hook process needs about a CLI (names, answers) is its record, ``hookwrap/clis/<platform>.py``,
copied into every project and imported on every hook call, so it stays small. What only the
hookwrap command needs (the settings file, registrations, validation, the host rules
``hookwrap test`` emulates, doctor's checks, trust) is the generator half: the class in
``generator/clis/<platform>.py`` when the CLI has one (Claude Code, Gemini CLI, Codex CLI,
OpenCode), else its protocol family's generator class built from the record alone (a
Claude-dialect CLI: ``_claude_dialect.ClaudeDialectSetup``, whose behaviour families the record
names). ``setup_of(platform)`` returns it; ``platforms.runtime_of`` the runtime description.
"""

from __future__ import annotations

import sys

from ...names import Platform

# For type checkers only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...clis._record import CLIRecord
    from ._base import AgentSetup

_LOADED: dict[Platform, AgentSetup] = {}
_PACKAGE = __name__.rsplit(".", 2)[0]  # hookwrap

# The generator class of each runtime protocol family, for a CLI that has no module here:
# (module, class), by the record's protocol class name.
SETUP_FAMILIES = {"ClaudeProtocol": ("_claude_dialect", "ClaudeDialectSetup")}


def setup_of(platform: Platform | str) -> AgentSetup:
    """The whole description of ``platform``'s CLI: ``hookwrap.generator.clis.<value>.CLI``,
    or, for a CLI without such a module, ``setup_from_record`` of its record."""
    platform = Platform(platform)
    found = _LOADED.get(platform)
    if found is None:
        name = f"{__name__}.{platform.value}"
        try:
            __import__(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            record_module = f"{_PACKAGE}.clis.{platform.value}"  # hookwrap/clis/<value>.py
            __import__(record_module)
            found = setup_from_record(getattr(sys.modules[record_module], platform.name))
        else:
            found = sys.modules[name].CLI
        _LOADED[platform] = found
    return found


def setup_from_record(record: CLIRecord) -> AgentSetup:
    """The generator half of a CLI that is a record only: its protocol family's generator class,
    built from ``record`` (any record, registered in Platform or not)."""
    family = SETUP_FAMILIES.get(record.protocol.__name__)
    if family is None:
        raise LookupError(f"{record.label}: no generator/clis/{record.platform.value}.py, and its "
                          f"protocol family {record.protocol.__name__} has no generator class in "
                          "SETUP_FAMILIES: write the module")
    module, klass = family
    name = f"{__name__}.{module}"
    __import__(name)
    setup: AgentSetup = getattr(sys.modules[name], klass)(record)
    return setup


def all_setups() -> list[AgentSetup]:
    """Every CLI's whole description, in Platform order."""
    return [setup_of(platform) for platform in Platform]
