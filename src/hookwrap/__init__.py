"""hookwrap: write an AI-agent hook once in Python, run it on Claude Code and Gemini CLI.

This package's import loads the standard library only: every generated hook imports it on
every tool call. The generator (the ``hookwrap`` command) lives in modules imported lazily.
"""

from .hookinput import HookInput, normalize_input
from .hookoutput import HookOutput, denormalize_output
from .platforms import EVENT_TO_NORMALIZED, NORMALIZED_TO_EVENT, NormalizedEvent, Platform
from .protocol import format_hook_error, output_hook_error, read_stdin, write_stdout
from .runner import main, run_hook
from .tools import NORMALIZED_TO_TOOL, TOOL_TO_NORMALIZED, normalize_tool, platform_tool_names

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
