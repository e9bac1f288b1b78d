"""Tool names: each platform's names to normalized snake_case and back (REQ-006.3).

The tables live in each CLI's module (``hookwrap/clis/``); the seed's maps are built from them
on first use (``platforms.SEED_MAPS``).
"""

from __future__ import annotations

from .names import Platform
from .platforms import runtime_of


def normalize_tool(name: str, platform: Platform) -> str:
    """Map a platform tool name to its normalized name; unknown names are lower-cased."""
    return runtime_of(platform).normalize_tool(name)


def platform_tool_names(tool: str, platform: Platform) -> list[str]:
    """Every name ``platform`` uses for the normalized ``tool``, preferred name first.

    ``platform_tool_names("task", "claude")`` gives ``["Task", "Agent"]``. A name the maps do
    not know is returned as given (MCP tools, tools newer than this table).
    """
    return runtime_of(platform).platform_tool_names(tool)

