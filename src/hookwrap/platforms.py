"""Platforms, normalized events, and the way to the one module that describes each CLI.

Everything hookwrap knows about one agent CLI lives in ``hookwrap/clis/<platform>.py``;
``cli(platform)`` returns that module's description. The maps the seed names
(``EVENT_TO_NORMALIZED``, ``NORMALIZED_TO_EVENT``, REQ-006.1-2) are built from those modules on
first use, so a hook process imports only the module of the CLI that runs it.
"""

from __future__ import annotations

import enum
import sys

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from .clis._base import AgentCLI

    _E = TypeVar("_E")

    EVENT_TO_NORMALIZED: dict[Platform, dict[str, NormalizedEvent]]
    NORMALIZED_TO_EVENT: dict[Platform, dict[NormalizedEvent, str]]


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


_LOADED: dict[Platform, AgentCLI] = {}


def cli(platform: Platform | str) -> AgentCLI:
    """The description of ``platform``'s CLI (``hookwrap.clis.<value>.CLI``), imported once."""
    platform = Platform(platform)
    found = _LOADED.get(platform)
    if found is None:
        found = _LOADED[platform] = load_cli(platform.value)
    return found


def load_cli(module: str) -> Any:
    """The ``CLI`` of ``hookwrap.clis.<module>``, imported."""
    name = f"{__package__}.clis.{module}"
    __import__(name)  # not importlib.import_module: the importlib package costs ~0.5 ms
    return sys.modules[name].CLI


def all_clis() -> list[AgentCLI]:
    """Every CLI's description, in Platform order."""
    return [cli(platform) for platform in Platform]


def canonical_event_name(raw: str, platform: Platform) -> str:
    """Return the platform's spelling of ``raw`` (``pre-tool-use`` -> ``PreToolUse``), or ``raw``."""
    return cli(platform).canonical_event_name(raw)


def normalize_event(raw: str, platform: Platform) -> NormalizedEvent:
    """Map a platform event name to a NormalizedEvent; unknown names give AFTER_AGENT (REQ-006.4.4)."""
    return cli(platform).normalize_event(raw)


def detect_platform(raw_event: str) -> Platform | None:
    """Guess the platform from an event name alone; None unless exactly one CLI knows it."""
    knowing = [c.platform for c in all_clis() if c.knows_event(raw_event)]
    return knowing[0] if len(knowing) == 1 else None


def __getattr__(name: str) -> object:
    """EVENT_TO_NORMALIZED and NORMALIZED_TO_EVENT, built from every CLI module on first use."""
    if name == "EVENT_TO_NORMALIZED":
        value: object = {c.platform: dict(c.events) for c in all_clis()}
    elif name == "NORMALIZED_TO_EVENT":
        value = {c.platform: c.event_names() for c in all_clis()}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
