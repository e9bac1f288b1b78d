"""Tool names: each platform's names to normalized snake_case and back (REQ-006.3).

The tables live in each CLI's module (``hookwrap/clis/``); the seed's maps are built from them
on first use.
"""

from __future__ import annotations

from .names import Platform
from .platforms import all_runtimes, runtime_of

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    TOOL_TO_NORMALIZED: dict[Platform, dict[str, str]]
    NORMALIZED_TO_TOOL: dict[Platform, dict[str, str]]


def normalize_tool(name: str, platform: Platform) -> str:
    """Map a platform tool name to its normalized name; unknown names are lower-cased."""
    return runtime_of(platform).normalize_tool(name)


def platform_tool_names(tool: str, platform: Platform) -> list[str]:
    """Every name ``platform`` uses for the normalized ``tool``, preferred name first.

    ``platform_tool_names("task", "claude")`` gives ``["Task", "Agent"]``. A name the maps do
    not know is returned as given (MCP tools, tools newer than this table).
    """
    return runtime_of(platform).platform_tool_names(tool)


def __getattr__(name: str) -> object:
    """TOOL_TO_NORMALIZED and NORMALIZED_TO_TOOL, built from every CLI module on first use."""
    if name == "TOOL_TO_NORMALIZED":
        value: object = {c.platform: dict(c.tools) for c in all_runtimes()}
    elif name == "NORMALIZED_TO_TOOL":
        value = {c.platform: c.tool_names() for c in all_runtimes()}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
