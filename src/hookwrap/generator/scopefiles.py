"""Each CLI's registration file in the scope in force (scope.py): the project's, or its
user-level one (the record's ``user_file``) at user scope."""

from __future__ import annotations

from collections.abc import Iterable

from ..names import Platform
from .clis import setup_of
from .clis._base import fill_path
from .errors import UsageError
from .scope import current


def settings_rel(platform: Platform) -> str:
    """The CLI's registration file: project-relative, or at user scope its absolute path (so
    ``root / settings_rel(p)`` is the file in both).

    Raises:
        UsageError: at user scope, for a CLI with no user-level place hookwrap writes to.
    """
    agent, scope = setup_of(platform), current()
    if not scope.user:
        return agent.facts.settings_file
    if not agent.facts.user_file:
        raise UsageError(f"{agent.label} at user scope: {agent.facts.user_file_note}",
                         hint=f"leave {agent.platform.value} out of the user scope: `hookwrap "
                              "--user init --platform NAME` with the others, or register it "
                              "per repo (hookwrap init, without --user)")
    return fill_path(agent.facts.user_file, "", scope.home, scope.env)


def supports(platform: Platform) -> bool:
    """Whether the scope in force can register hooks on ``platform``."""
    return not current().user or bool(setup_of(platform).facts.user_file)


def require(platforms: Iterable[Platform | str]) -> None:
    """settings_rel's UsageError for the first of ``platforms`` the scope cannot register on."""
    for platform in platforms:
        settings_rel(Platform(platform))
