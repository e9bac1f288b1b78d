"""HookInput: one normalized view of whatever payload either CLI sent (REQ-006.4)."""

from __future__ import annotations

import json
import os

from .names import NormalizedEvent, Platform, mcp_tool
from .platforms import all_runtimes, runtime_of

# Imported for type checkers only: `typing` costs ~5 ms on an interpreter whose start-up has not
# loaded it already, and with `from __future__ import annotations` no annotation here is evaluated
# at run time. (TYPE_CHECKING is false when run and true for mypy and pyright.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass as lazy_dataclass
    from dataclasses import field
    from typing import Any, Iterable

    from .clis._base import AgentCLI
else:  # no dataclass machinery at import: see _dataclasses.py
    from ._dataclasses import field, lazy_dataclass


# The HookInput fields taken from the payload key of their name as they are: as text, or as any
# value. Every key a real payload carries stays reachable through raw_input / get() too.
_STR_FIELDS = (
    "session_id", "transcript_path", "cwd", "prompt", "permission_mode", "tool_use_id",
    "message", "notification_type", "trigger", "source", "reason", "prompt_response",
    "last_assistant_message", "timestamp", "prompt_id", "agent_id", "agent_type",
)
_ANY_FIELDS = ("tool_response", "error", "llm_request", "llm_response", "mcp_context")

# Other spellings of a field, besides its camelCase one (seed 004): Gemini's older
# `tool_parameters` (seed 001), and Copilot CLI's `tool_result` (its after-tool payloads).
ALIASES = {"tool_input": ("toolInput", "tool_parameters", "toolParameters"),
           "tool_response": ("tool_result", "toolResult")}


def _camel(key: str) -> str:
    head, _, rest = key.partition("_")
    return head + rest.title().replace("_", "")  # title() starts again after each "_"


_SPELLINGS: dict[str, tuple[str, ...]] = {}  # a key's other spellings, made on first use


def _pick(data: dict[str, Any], key: str, default: Any = None) -> Any:
    """data[key], else its camelCase or alias spelling, else default."""
    if key in data:
        return data[key]
    spellings = _SPELLINGS.get(key)
    if spellings is None:
        spellings = _SPELLINGS[key] = (_camel(key), *ALIASES.get(key, ()))
    for alias in spellings:
        if alias in data:
            return data[alias]
    return default


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _tool_name(agent: AgentCLI, raw_tool: str, tool_input: Any, mcp_context: Any) -> str:
    """The normalized tool name; an MCP tool by the server and tool its payload names, where it
    names them (Gemini's mcp_context), else by the CLI's own spelling."""
    if not raw_tool:
        return ""
    if isinstance(mcp_context, dict):
        server, tool = mcp_context.get("server_name"), mcp_context.get("tool_name")
        if isinstance(server, str) and isinstance(tool, str) and server and tool:
            return mcp_tool(server, tool)
    return agent.normalize_call(raw_tool, tool_input)


def _unwrap(data: dict[str, Any]) -> dict[str, Any]:
    """Accept the multi-CLI daemon's envelope {"hook_type": ..., "input_data": {...}}."""
    inner = data.get("input_data")
    if isinstance(inner, dict) and "hook_type" in data and "hook_event_name" not in data:
        merged = dict(inner)
        merged.setdefault("hook_event_name", data["hook_type"])
        return merged
    return data


@lazy_dataclass
class HookInput:
    """A hook payload, normalized.

    The first ten fields are REQ-006's. ``event`` and ``tool_name`` are normalized
    (``before_tool``, ``shell``); ``raw_tool_name`` keeps the tool name exactly as received,
    ``raw_event`` the platform's own event name (``pre-tool-use`` is stored as ``PreToolUse``,
    the spelling a reply must name), and ``raw_input`` the whole payload as received. Any other key is reachable with ``get()``.
    """

    platform: Platform
    event: NormalizedEvent
    session_id: str = ""
    transcript_path: str = ""
    cwd: str = ""
    tool_name: str = ""
    tool_input: dict[str, Any] = field(default_factory=dict)
    tool_response: Any = None
    prompt: str = ""
    raw_input: dict[str, Any] = field(default_factory=dict)
    raw_event: str = ""
    raw_tool_name: str = ""
    permission_mode: str = ""
    tool_use_id: str = ""
    message: str = ""
    notification_type: str = ""
    stop_hook_active: bool = False
    trigger: str = ""
    source: str = ""
    reason: str = ""
    prompt_response: str = ""
    last_assistant_message: str = ""
    timestamp: str = ""
    prompt_id: str = ""
    agent_id: str = ""
    agent_type: str = ""
    error: Any = None
    llm_request: Any = None
    llm_response: Any = None
    mcp_context: Any = None

    @classmethod
    def from_dict(cls, data: dict[str, Any], platform: Platform) -> HookInput:
        """Build a HookInput from a decoded payload.

        Args:
            data: the JSON object the CLI wrote to stdin (anything else counts as ``{}``).
            platform: the CLI that sent it.

        Returns:
            The normalized input; an unknown event becomes ``AFTER_AGENT`` (REQ-006.4.4).
        """
        if not isinstance(data, dict):
            data = {}
        platform = Platform(platform)
        agent = runtime_of(platform)
        fields = agent.payload_fields(_unwrap(data))
        raw_event = _text(_pick(fields, "hook_event_name", ""))
        raw_tool = _text(_pick(fields, "tool_name", ""))
        tool_input = _pick(fields, "tool_input", {})
        extras: dict[str, Any] = {key: _text(_pick(fields, key)) for key in _STR_FIELDS}
        extras.update({key: _pick(fields, key) for key in _ANY_FIELDS})
        return cls(
            platform=platform,
            event=agent.normalize_event(raw_event),
            tool_name=_tool_name(agent, raw_tool, tool_input, extras.get("mcp_context")),
            tool_input=tool_input if isinstance(tool_input, dict) else {},
            raw_input=data,
            raw_event=agent.canonical_event_name(raw_event) if raw_event else "",
            raw_tool_name=raw_tool,
            stop_hook_active=_pick(fields, "stop_hook_active") is True,
            **extras,
        )

    def get(self, key: str, default: Any = None) -> Any:
        """Any payload key by its snake_case name (camelCase spellings are found too)."""
        return _pick(runtime_of(self.platform).payload_fields(_unwrap(self.raw_input)), key,
                     default)

    @property
    def shell_lines(self) -> list[str]:
        """The shell lines a shell call runs, each read on its own: ``tool_input["command"]``,
        or on Cline every entry of run_commands' ``commands`` list. [] for any other call."""
        if self.tool_name != "shell":
            return []
        return runtime_of(self.platform).shell_lines(self.tool_input)

    @property
    def files(self) -> list[dict[str, Any]]:
        """The files this tool call writes, each ``{"path", "action", "move_to"}``.

        ``action`` is ``write`` (write_file), ``update`` (edit_file), or for an
        ``apply_patch`` (Codex CLI, OpenCode): ``add``, ``update`` or ``delete``; ``move_to`` is where an update moves
        the file (else None). Paths are as the CLI sent them. [] for any other call.
        """
        return runtime_of(self.platform).tool_files(self.tool_name, self.raw_tool_name, self.tool_input)

    @property
    def file_paths(self) -> list[str]:
        """Every path this call writes, deletes or moves a file to (see ``files``), in order."""
        paths: list[str] = []
        for item in self.files:
            for path in (item.get("path"), item.get("move_to")):
                if isinstance(path, str) and path and path not in paths:
                    paths.append(path)
        return paths

    @property
    def project_dir(self) -> str:
        """The project root: the running CLI's project-dir variable (else another CLI's), else
        the payload's cwd."""
        value = _first_set(runtime_of(self.platform).project_dir_vars)
        # Only when the running CLI's own variable is unset: the others' modules cost imports.
        if not value:
            value = _first_set(var for agent in all_runtimes() for var in agent.project_dir_vars)
        return value or self.cwd or os.getcwd()


def _first_set(names: Iterable[str]) -> str:
    return next((value for value in map(os.environ.get, names) if value), "")


def normalize_input(raw: str, platform: Platform) -> HookInput:
    """Parse a raw stdin string into a HookInput.

    Args:
        raw: the text read from stdin; empty or invalid JSON counts as ``{}`` (REQ-006.4.6).
        platform: the CLI that sent it.

    Returns:
        The normalized input.
    """
    try:
        data = json.loads(raw) if raw and raw.strip() else {}
    except (ValueError, RecursionError):
        data = {}
    return HookInput.from_dict(data if isinstance(data, dict) else {}, platform)
