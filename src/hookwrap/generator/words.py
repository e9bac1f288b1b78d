"""Every sentence hookwrap writes about CLIs, built from the CLIs' records.

Help texts, the manifest's header, the comments of rendered scripts and the docs name CLIs,
their event and tool names, their payload fields and their settings files. Written by hand,
such words drift from what the tool does (a comment that teaches a field three CLIs leave
empty makes a file guard that misses their writes), so they are made here, from the facts:
the records (``hookwrap/clis/<platform>.py``), the generator halves (settings files, timeout
units) and the payloads captured from each real CLI (``generator/samples/``). Nothing here says
"both" or counts CLIs: a text names the CLIs it is about.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..hookinput import ALIASES
from ..names import NormalizedEvent, Platform
from .clis import setup_of

if TYPE_CHECKING:
    from ..clis._base import AgentCLI

_E = NormalizedEvent

# Events whose payload names a tool call.
TOOL_EVENTS = frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE,
                         _E.PERMISSION_REQUEST, _E.PERMISSION_DENIED})
# The normalized tools whose names and arguments a script's comment spells out.
MAIN_TOOLS = ("shell", "write_file", "edit_file", "read_file")
# Payload keys that are HookInput fields (event.<key>); any other is event.get("<key>").
INPUT_FIELDS = frozenset({
    "session_id", "transcript_path", "cwd", "tool_name", "tool_input", "tool_response", "prompt",
    "permission_mode", "tool_use_id", "message", "notification_type", "stop_hook_active",
    "trigger", "source", "reason", "prompt_response", "last_assistant_message", "timestamp",
    "prompt_id", "agent_id", "agent_type", "error", "llm_request", "llm_response", "mcp_context",
})
_WIDTH = 96


def join(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def labels(platforms: Iterable[Platform | str] | None = None) -> str:
    """The CLIs' names, joined: every CLI hookwrap supports when ``platforms`` is None."""
    chosen = list(Platform) if platforms is None else [Platform(p) for p in platforms]
    return join(setup_of(p).label for p in chosen)


def block_labels(event: NormalizedEvent | str, platforms: Iterable[Platform | str]
                 ) -> tuple[str, str]:
    """The CLIs among ``platforms`` that have ``event``, joined: (those that act on a hook's
    block there, those that do not), as each CLI reads the answer hookwrap sends for
    ``HookOutput.block`` (the runtime's own reading of that CLI's protocol)."""
    from ..clis._base import BLOCKING
    from ..hookoutput import HookOutput, denormalize_output
    from ..platforms import runtime_of

    event = NormalizedEvent(event)
    acting: list[str] = []
    ignoring: list[str] = []
    for platform in (Platform(p) for p in platforms):
        runtime = runtime_of(platform)
        if event not in runtime.event_names():
            continue
        answer = denormalize_output(HookOutput.block("r"), platform, event)
        blocks = runtime.read_answer(event, 0, answer, "").get("decision") in BLOCKING
        (acting if blocks else ignoring).append(setup_of(platform).label)
    return join(acting), join(ignoring)


def settings_files(platforms: Iterable[Platform | str] | None = None) -> str:
    """Each CLI's registration file, joined."""
    chosen = list(Platform) if platforms is None else [Platform(p) for p in platforms]
    return join(setup_of(p).facts.settings_file for p in chosen)


def resident_labels() -> str:
    """The CLIs that can post a hook to `hookwrap serve` (their setup writes http entries)."""
    url = "http://127.0.0.1:1/"
    return join(a.label for a in map(setup_of, Platform)
                if a.registration.http_handler(a, url, timeout_s=1, fail_closed=False,
                                               event=_E.BEFORE_TOOL) is not None)


def timeout_units() -> str:
    """How a timeout in seconds is written for each CLI whose unit differs."""
    units: dict[str, list[str]] = {}
    for platform in Platform:
        agent = setup_of(platform)
        unit = (f"milliseconds from {agent.facts.timeout_ms_from} seconds on" if agent.facts.timeout_ms_from
                else "milliseconds" if agent.facts.timeout_scale == 1000 else "")
        if unit:
            units.setdefault(unit, []).append(agent.label)
    text = "seconds; written in each CLI's own unit"
    return f"{text} ({'; '.join(f'{u} for {join(c)}' for u, c in units.items())})" if units else text


# --- the payload comment of a rendered script ---------------------------------------------

def _wrap(first: str, words: str, indent: int, width: int = _WIDTH) -> list[str]:
    """``first`` then ``words`` as comment lines no wider than ``width``, continued at
    ``indent``."""
    lines: list[str] = []
    line = first
    for word in words.split(" "):
        if len(line) + 1 + len(word) > width and line.strip("# "):
            lines.append(line.rstrip())
            line = "#" + " " * (indent - 1)
        line += ("" if line.endswith(" ") else " ") + word
    lines.append(line.rstrip())
    return lines


def payload_field(key: str) -> str:
    """How a hook reads the payload key ``key``: ``event.<field>`` for a HookInput field (under
    its name or one of its other spellings: ``tool_result`` is ``event.tool_response``), else
    ``event.get("<key>")``."""
    key = _FIELD_OF.get(key, key)
    return f"event.{key}" if key in INPUT_FIELDS else f'event.get("{key}")'


_FIELD_OF = {alias: field for field, aliases in ALIASES.items() for alias in aliases}


def _sample_keys(platform: Platform, name: str) -> list[str] | None:
    from .samples import has_sample, load_sample

    if not has_sample(platform, name):
        return None
    # The keys the hook reads, as the runtime names them (Cline's session id is
    # sessionContext.rootSessionId in its payload, and event.session_id all the same).
    return [k for k in setup_of(platform).runtime.payload_fields(load_sample(platform, name))
            if k != "hook_event_name"]


def _event_names(event: NormalizedEvent, platforms: list[Platform]) -> str:
    parts = []
    for platform in platforms:
        agent = setup_of(platform)
        names = [n for n, e in agent.runtime.events.items() if e is event]
        parts.append(f"{agent.label} {', '.join(names) if names else '(no such event)'}")
    return "; ".join(parts)


def payload_comment(event: NormalizedEvent | str, platforms: Iterable[Platform | str]) -> str:
    """The comment a rendered script opens its hook with: what arrives for ``event`` on each of
    ``platforms``, from their records and the payloads captured from each real CLI."""
    event = NormalizedEvent(event)
    chosen = [Platform(p) for p in platforms]
    agents = [setup_of(p).runtime for p in chosen]
    lines = _wrap(f"# What arrives ({event.value}):", _event_names(event, chosen) + ".", 5)
    if event in TOOL_EVENTS:
        lines += _tool_lines(agents)
    lines += _field_lines(event, chosen)
    lines.append("#   Any other payload key: event.get(\"key\"); the whole payload: event.raw_input.")
    return "\n".join(lines)


def _tool_lines(agents: list[AgentCLI]) -> list[str]:
    tools = [t for t in MAIN_TOOLS if any(t in a.tools.values() or a.extra_tool_names.get(t)
                                          for a in agents)]
    lines = ["#   event.tool_name      normalized (shell, write_file, edit_file, read_file, ...; an MCP",
             "#                        tool is \"mcp__<server>__<tool>\" whatever the CLI calls it)",
             f"#   event.raw_tool_name  as the CLI sent it ({', '.join(tools)}):"]
    for agent in agents:
        names = [agent.platform_tool_names(t)[0] if t in agent.tools.values()
                 or agent.extra_tool_names.get(t) else "-" for t in tools]
        lines += _wrap(f"#                          {agent.label}:", ", ".join(names), 29)
    lines.append("#   event.tool_input     the arguments as the CLI sent them (a dict), keyed per CLI:")
    for agent in agents:
        parts = [f"{tool} " + ", ".join(f'"{f}"' for f in agent.tool_fields[tool])
                 + (" (a patch)" if agent.patch_tool in agent.platform_tool_names(tool) else "")
                 for tool in tools if agent.tool_fields.get(tool)]
        if parts:
            lines += _wrap(f"#                          {agent.label}:", "; ".join(parts), 29)
    paths = {a.tool_fields.get("write_file", ("file_path",))[0] for a in agents}
    why = ("the key of a path differs between these CLIs, and a patch names several files"
           if paths != {"file_path"} else "a patch or a multi-file edit names several files")
    lines.append("#   event.files, event.file_paths")
    lines += _wrap("#                        every file the call writes, edits, deletes or moves,",
                   f"on every CLI: check these, not tool_input ({why}).", 25)
    return lines


def _field_lines(event: NormalizedEvent, platforms: list[Platform]) -> list[str]:
    keys: dict[str, list[str]] = {}
    captured = []
    for platform in platforms:
        agent = setup_of(platform)
        name = agent.runtime.event_names().get(event)
        found = _sample_keys(platform, name) if name else None
        if found is None:
            continue
        captured.append(agent.label)
        for key in found:
            if key not in ("tool_name", "tool_input"):
                keys.setdefault(key, []).append(agent.label)
    if not captured:
        return []
    common = [k for k, clis in keys.items() if len(clis) == len(captured)]
    lines = []
    if common:
        where = "each of them" if len(captured) > 1 else captured[0]
        lines += _wrap(f"#   Sent by {where}:", ", ".join(payload_field(k) for k in common) + ".", 7)
    for label in captured:
        own = [k for k, clis in keys.items() if label in clis and k not in common]
        if own and len(captured) > 1:
            # "only" where no other CLI sends any of them; else "also" (some others do too).
            only = all(keys[k] == [label] for k in own)
            head = f"#   Sent by {label} only:" if only else f"#   Also sent by {label}:"
            lines += _wrap(head, ", ".join(payload_field(k) for k in own) + ".", 7)
    missing = [setup_of(p).label for p in platforms if setup_of(p).label not in captured]
    if missing:
        lines += _wrap("#   No payload of it was captured from", join(missing) + ".", 7)
    lines += [line for key, text in _NOTES.get(event, ()) if key in keys
              for line in _wrap(f"#   {payload_field(key)}:", text, 7)]
    return lines


# What a field means, written where the field arrives on one of the hook's CLIs.
_NOTES: dict[NormalizedEvent, tuple[tuple[str, str], ...]] = {
    _E.AFTER_AGENT: (("stop_hook_active", "True when the agent is already working again because "
                      "a stop hook blocked: check it, or a hook that always blocks loops."),
                     ("last_assistant_message", "the agent's final text."),
                     ("prompt", "the user's request."),
                     ("prompt_response", "the agent's answer.")),
    _E.BEFORE_PROMPT: (("prompt", "the user's message."),),
    _E.SESSION_START: (("source", "why the session started (\"startup\", \"resume\", ...)."),),
    _E.SESSION_END: (("reason", "why the session ended; keep the hook fast, some CLIs give it "
                      "very little time."),),
    _E.AFTER_TOOL: (("tool_response", "the tool's result; its shape differs per CLI and tool."),),
}


# --- the manifest's header ----------------------------------------------------------------

def manifest_header(platforms: Iterable[Platform | str]) -> str:
    """The first lines of the hookwrap.toml `hookwrap init` writes, for the repo's CLIs."""
    from .scope import current

    chosen = [Platform(p) for p in platforms]
    if current().user:  # `hookwrap --user init`: every repo's, from each CLI's user file
        files = join(user_file_shown(p) for p in chosen)
        lines = _wrap("# hookwrap.toml: your agent hooks for every repo on this machine (user "
                      "scope), for", labels(chosen) + ".", 2, 92)
        lines += _wrap("# Edit it by hand or with `hookwrap --user add` / `remove`, then run",
                       "`hookwrap --user sync` to write " + files + ". Comments here are kept.",
                       2, 92)
        return "\n".join(lines) + "\n"
    lines = _wrap("# hookwrap.toml: this repo's agent hooks, for", labels(chosen) + ".", 2, 92)
    lines += _wrap("# Edit it by hand or with `hookwrap add` / `hookwrap remove`, then run "
                   "`hookwrap sync` to", "write " + settings_files(chosen) + ". Comments here are kept.",
                   2, 92)
    return "\n".join(lines) + "\n"


def user_file_shown(platform: Platform | str) -> str:
    """A CLI's user-level file as people write it: ``~/.claude/settings.json`` (a variable's
    default), or why it has none."""
    import re

    spec = setup_of(platform).facts.user_file
    match = re.match(r"\$\{([A-Z0-9_]+):-([^}]*)\}(.*)", spec)
    return match.group(2) + match.group(3) if match else spec
