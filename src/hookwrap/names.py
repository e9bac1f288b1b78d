"""The names every part of hookwrap shares: the CLIs (``Platform``), the normalized events, and
the normalized spelling of MCP tools. A leaf of the runtime: it imports nothing of hookwrap, so
every CLI's record and every runtime module can import it.
"""

from __future__ import annotations

import enum
import sys

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    _E = TypeVar("_E")


# Python 3.11+: enum's own quick constructor, which the standard library uses for its enums
# (re.RegexFlag, http.HTTPStatus). It builds the same StrEnum from a plain class in about a third
# of the time of a class statement: 0.6 -> 0.2 ms for the two below, on every hook call.
# tests/runtime/test_req006_platforms.py proves the result equal to a class statement's on every
# Python it finds. It is enum's own name, not a public one: where it is missing, fails, or
# gives other members, the public functional API builds the enum instead.
_simple_enum = getattr(enum, "_simple_enum", None) if sys.version_info >= (3, 11) else None

if TYPE_CHECKING or _simple_enum is None:
    if sys.version_info >= (3, 11):
        _StrEnum = enum.StrEnum  # novm: only read on 3.11 and newer
    else:  # pragma: no cover - Python 3.9 and 3.10, the floor of the vendored runtime

        class _StrEnum(str, enum.Enum):
            """enum.StrEnum as 3.11 has it: members are their values, in str() and f"{}" too."""

            __str__ = str.__str__
            __format__ = str.__format__

    def _fast(cls: type[_E]) -> type[_E]:
        return cls

else:

    class _StrEnum:  # a plain class until _fast makes the StrEnum of it
        pass

    def _fast(cls: type) -> type:
        members = {k: v for k, v in vars(cls).items() if not k.startswith("_")}
        try:
            made = _simple_enum(enum.StrEnum)(cls)  # novm: only read on 3.11 and newer
            if [(m.name, m.value) for m in made] == list(members.items()):
                return made  # type: ignore[no-any-return]
        except Exception:  # the public way below
            pass
        made = enum.StrEnum(cls.__name__, members, module=cls.__module__,  # novm
                            qualname=cls.__qualname__)
        made.__doc__ = cls.__doc__
        return made


@_fast
class Platform(_StrEnum):
    """The agent CLIs a hook can run under; each has its module in ``hookwrap/clis/``."""

    CLAUDE = "claude"
    GEMINI = "gemini"
    CODEX = "codex"
    QWEN = "qwen"
    COPILOT = "copilot"
    OPENCODE = "opencode"
    DROID = "droid"
    PI = "pi"
    KILO = "kilo"
    CLINE = "cline"


# Assumed by a hook run by hand, when neither --platform nor the payload says which CLI it is.
DEFAULT_PLATFORM = Platform.CLAUDE


@_fast
class NormalizedEvent(_StrEnum):
    """Platform-neutral event names; the value is the lower-case member name.

    The first eight are REQ-006's; the rest cover events that only one CLI (or both, under
    different names) fires, so a hook for them is written once too.
    """

    AFTER_AGENT = "after_agent"
    BEFORE_TOOL = "before_tool"
    BEFORE_PROMPT = "before_prompt"
    SESSION_START = "session_start"
    SESSION_END = "session_end"
    AFTER_TOOL = "after_tool"
    BEFORE_MODEL = "before_model"
    AFTER_MODEL = "after_model"
    AFTER_TOOL_FAILURE = "after_tool_failure"
    AFTER_TOOL_BATCH = "after_tool_batch"
    PERMISSION_REQUEST = "permission_request"
    PERMISSION_DENIED = "permission_denied"
    NOTIFICATION = "notification"
    PRE_COMPACT = "pre_compact"
    POST_COMPACT = "post_compact"
    SUBAGENT_START = "subagent_start"
    STOP_FAILURE = "stop_failure"
    BEFORE_TOOL_SELECTION = "before_tool_selection"


MCP_PREFIX = "mcp__"


def mcp_tool(server: str, tool: str) -> str:
    """The normalized name of an MCP tool: ``mcp__<server>__<tool>`` (Claude Code's spelling)."""
    return f"mcp__{server.lower()}__{tool.lower()}"


def split_mcp_tool(name: str) -> tuple[str, str] | None:
    """(server, tool) of a normalized MCP tool name, or None."""
    if not name.startswith("mcp__"):
        return None
    server, sep, tool = name[5:].partition("__")
    return (server, tool) if sep and server and tool else None
