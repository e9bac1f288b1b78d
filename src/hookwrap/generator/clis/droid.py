"""Factory Droid: its command half, composed from Claude-dialect behaviours (a hook process needs
only ``clis/droid.py``, whose record holds every fact read here)."""

from __future__ import annotations

from ...clis.droid import DROID
from ._answers import read_droid
from ._base import AgentSetup
from ._handlers import CommandOnlyHandlers
from ._matchers import SearchInName
from ._trust_stores import NoPrompt

SETUP = AgentSetup(DROID, matchers=SearchInName(), handlers=CommandOnlyHandlers(),
                   answers=read_droid, trust=NoPrompt(binary="droid"))
