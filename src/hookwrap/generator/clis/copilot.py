"""Copilot CLI: its command half, composed from Claude-dialect behaviours (a hook process needs
only ``clis/copilot.py``, whose record holds every fact read here)."""

from __future__ import annotations

from ...clis.copilot import COPILOT
from ._answers import read_copilot
from ._base import AgentSetup
from ._handlers import ShellChoiceHandlers
from ._matchers import FullMatch
from ._trust_stores import FolderList

SETUP = AgentSetup(
    COPILOT, matchers=FullMatch(), handlers=ShellChoiceHandlers(), answers=read_copilot,
    # Repo hooks load only in a trusted folder (and so do .claude/settings.json hooks; 1.0.102).
    trust=FolderList(file="${COPILOT_HOME:-~/.copilot}/config.json",
                     shown="~/.copilot/config.json", legacy_key="trusted_folders",
                     allow_all_var="COPILOT_ALLOW_ALL",
                     untrusted="(nor .claude/settings.json hooks)"))
