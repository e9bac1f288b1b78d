"""hookwrap: write an AI-agent hook once in Python, run it on every agent CLI a team uses.

This package's import loads the standard library only: every generated hook imports it on
every tool call. The generator (the ``hookwrap`` command) lives in modules imported lazily,
and the per-CLI maps below are built on first use, so a hook imports only its own CLI's module.
"""

import sys

# Not dead code (ruff UP036 says so for a 3.9 target): this is what an older interpreter reports.
if sys.version_info < (3, 9):  # noqa: UP036  # pragma: no cover - checked by the 3.9 floor test
    raise ImportError(
        "hookwrap's runtime needs Python 3.9 or newer; this is Python "
        f"{sys.version_info[0]}.{sys.version_info[1]} ({sys.executable}). Install a newer python3, "
        "or set `python` in hookwrap.toml to one, then run `hookwrap sync`.")

from . import platforms
from .hookinput import HookInput, normalize_input
from .hookoutput import HookOutput, denormalize_output
from .names import NormalizedEvent, Platform
from .protocol import format_hook_error, output_hook_error, read_stdin, write_stdout
from .runner import main, run_hook
from .tools import normalize_tool, platform_tool_names

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .platforms import EVENT_TO_NORMALIZED, NORMALIZED_TO_EVENT, NORMALIZED_TO_TOOL, TOOL_TO_NORMALIZED

__version__ = "0.1.0"

__all__ = [
    "EVENT_TO_NORMALIZED",
    "NORMALIZED_TO_EVENT",
    "NORMALIZED_TO_TOOL",
    "TOOL_TO_NORMALIZED",
    "HookInput",
    "HookOutput",
    "NormalizedEvent",
    "Platform",
    "__version__",
    "denormalize_output",
    "format_hook_error",
    "main",
    "normalize_input",
    "normalize_tool",
    "output_hook_error",
    "platform_tool_names",
    "read_stdin",
    "run_hook",
    "write_stdout",
]


def __getattr__(name: str) -> object:
    """The four seed maps, built from every CLI's module on first use (REQ-006.1-3)."""
    if name not in platforms.SEED_MAPS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(platforms, name)
    return value
