"""CLIRecord: every fact hookwrap knows about one agent CLI, as data.

Each ``clis/<platform>.py`` holds one record and nothing else. A CLI that speaks another's
protocol is that CLI's record with its differences (``derive(CLAUDE, ...)``), so what one CLI does
differently is in one place. Behaviour that really differs between CLIs lives in a handful of
protocol families (``clis/_claude_protocol.py``, ...; the generator's in ``generator/clis/``),
which read the record's knobs; a record names its family in ``protocol``.

Every fact carries the CLI version it was checked against, in a comment; the pinned release
(``AgentSetup.version``) is in ``generator/pins.txt``, the one place pins are written. The record
is copied into each project with the rest of the runtime and imported on every hook call, so it
is plain data: no dataclass machinery, no typing at run time; and it holds only what a hook process reads
(what the hookwrap command alone reads is the CLI's ``CommandFacts``, in
``generator/clis/<platform>.py``).
"""

from __future__ import annotations

from ..names import NormalizedEvent

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    from typing_extensions import dataclass_transform

    from ..names import Platform

    _C = TypeVar("_C", bound=type)
    _V = TypeVar("_V")

    @dataclass_transform()
    def record_class(cls: _C) -> _C:
        """Type checkers read a record class as a dataclass: a typed constructor, each fact
        checked where a record is written (``derive`` is ``dataclasses.replace`` to them)."""
        return cls

    from dataclasses import replace as derive

    __all__ = ["CLAUDE_EXIT2_BLOCKS", "RUNTIME_FACTS", "CLIRecord", "derive", "pick",
               "record_class"]
else:
    def record_class(cls):
        """At run time a record class is the plain class (no dataclass machinery is imported)."""
        return cls

    def record_init(self, *args, **facts):
        """A record's constructor at run time: keyword facts over the class-level defaults (and
        ``platform`` first), so an instance holds only the facts it was given and ``derive`` knows
        which ones a dialect changed. Type checkers see record_class's typed constructor instead."""
        names = self.__class__.__annotations__
        for name, value in zip(names, args):
            facts[name] = value
        for name, value in facts.items():
            if name not in names:
                raise TypeError(f"{self.__class__.__name__} has no fact {name!r}")
            setattr(self, name, value)

    def derive(record, **changes):
        """``record`` with ``changes`` (``platform`` among them): the record of a CLI that speaks
        ``record``'s protocol."""
        return type(record)(**{**vars(record), **changes})

_E = NormalizedEvent

# The events whose answers Claude Code's protocol lets exit 2 block (or keep the agent working,
# or stop the turn: PostToolBatch, or skip the compaction: PreCompact); elsewhere exit 2's
# stderr is only shown to the user. Claude Code 2.1.328 shows PostToolUseFailure's stderr to
# Claude and ignores exit 2 on PermissionRequest (the permission flow reads only JSON:
# claude-code-schema.md).
CLAUDE_EXIT2_BLOCKS = frozenset({
    _E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE, _E.BEFORE_PROMPT, _E.AFTER_AGENT,
    _E.AFTER_TOOL_BATCH, _E.PRE_COMPACT, _E.BEFORE_MODEL, _E.AFTER_MODEL,
    _E.BEFORE_TOOL_SELECTION})


@record_class
class CLIRecord:
    """The facts of one CLI. Attributes not given keep the defaults below."""

    # --- who -------------------------------------------------------------------------------
    platform: Platform
    label: str = ""                  # "Claude Code"

    # --- names -----------------------------------------------------------------------------
    events: dict[str, NormalizedEvent] = {}           # the CLI's event name -> normalized
    preferred_events: dict[NormalizedEvent, str] = {}  # where several names share one event
    # Events before a shell command that runs without a tool call (a skill's inline command),
    # matched on the shell tool's names and answered in their own words: a before_tool hook
    # that selects the shell is also registered on each (Claude Code 2.1.332's
    # PreSkillShellCommand).
    skill_shell_events: tuple[str, ...] = ()
    tools: dict[str, str] = {}                        # the CLI's tool name -> normalized
    preferred_tools: dict[str, str] = {}              # normalized -> the name registrations use
    # More of this CLI's tool names that a normalized tool's matcher selects, beyond its own
    # (Codex CLI and OpenCode write new files with apply_patch: write_file selects it too).
    extra_tool_names: dict[str, tuple[str, ...]] = {}
    # This CLI's spelling of an MCP tool: prefix + server + separator + tool ("" prefix: the CLI
    # has no spelling hookwrap can tell from a built-in tool's name).
    mcp_prefix: str = "mcp__"
    mcp_separator: str = "__"

    # --- what a hook process receives --------------------------------------------------------
    # Environment variables that name the project, first set wins.
    project_dir_vars: tuple[str, ...] = ()
    # A variable only this CLI sets for its hooks: tells a hand-run script where it runs.
    marker_env: str = ""
    # Variables the CLI sets in every hook process (the resident server sets them per call).
    hook_process_env: dict[str, str] = {}
    # The tool_input keys that hold a written file's path, first present wins.
    file_path_keys: tuple[str, ...] = ("file_path",)
    # A tool that carries a whole patch in the apply_patch grammar, and the tool_input keys its
    # text may be under; ``patch_in_shell``: the shell tool may run ``apply_patch <<'EOF'`` too.
    patch_tool: str = ""
    patch_keys: tuple[str, ...] = ()
    patch_in_shell: bool = False
    # The fields each normalized tool's input carries on this CLI (the docs and the comments of
    # rendered scripts are written from these).
    tool_fields: dict[str, tuple[str, ...]] = {}
    # Qwen Code fires UserPromptSubmit with an empty prompt after each tool result: no prompt.
    empty_prompt_is_no_prompt: bool = False

    # --- which process hosts a hook ---------------------------------------------------------
    # Other CLIs that also run the commands registered in this CLI's settings file (Copilot
    # CLI runs .claude/settings.json), each with a variable that only that CLI sets, and only
    # for its hook processes: the guest hosts a call exactly when its variable is set.
    guest_clis: dict[str, str] = {}
    # This CLI's own registration file, relative to its first project_dir_var: when it exists,
    # the hooks run from there, so a guest run of another CLI's registration calls no hook.
    own_registration: str = ""
    # Variables this CLI exports to the commands its shell tool runs (inherited by any CLI
    # started from there); they never tell which CLI runs a hook.
    shell_tool_env: dict[str, str] = {}

    # --- answers ---------------------------------------------------------------------------
    # The protocol family that turns a HookOutput into this CLI's JSON (a class in
    # clis/_<family>_protocol.py), and reads an external hook's answer by this CLI's rules.
    protocol: type = object
    # Events on which context is also shown to the user as systemMessage (REQ-006.6.2).
    context_to_user: frozenset[NormalizedEvent] = frozenset()
    # The CLI cannot ask the user: an ask is sent as a deny whose reason ends with this note.
    ask_note: str = ""
    # The CLI cannot apply a rewritten tool input: a rewrite is sent as a deny whose reason
    # gives the model the new input after this note.
    rewrite_note: str = ""
    # What a HookOutput may ask on an event that this CLI cannot do, and what happens instead:
    # (the part of the answer it is about, the text). The part is "block", "ask", "allow",
    # "updated_input", "context", "system_message" or "continue_loop"; "" when the limit holds
    # whatever the hook answers. `hookwrap add` warns about the parts a hook can return.
    limits: dict[NormalizedEvent, tuple[tuple[str, str], ...]] = {}
    # Speaking this CLI's protocol to an external hook (bridge.py): tool_input keys of this CLI
    # that Claude Code spells otherwise, per normalized tool ({"write_file": {"path":
    # "file_path"}}), and keys Claude Code's tool has no counterpart for (left out, kept when a
    # rewrite comes back without them).
    tool_input_keys: dict[str, dict[str, str]] = {}
    own_only_keys: dict[str, tuple[str, ...]] = {}
    # Events on which plain (non-JSON) stdout at exit 0 is context for the model.
    text_is_context: frozenset[NormalizedEvent] = frozenset({_E.SESSION_START, _E.BEFORE_PROMPT})
    # Events on which exit 2 blocks (or keeps the agent working).
    exit2_blocks: frozenset[NormalizedEvent] = CLAUDE_EXIT2_BLOCKS
    # Payload keys this CLI's command hooks never receive, and whether it sends the git root as
    # ``worktree`` (OpenCode's plugin).
    payload_drops: tuple[str, ...] = ()
    payload_worktree: bool = False

    # --- knobs of a protocol family (documented where the family reads them) -----------------
    # ClaudeProtocol (clis/_claude_protocol.py)
    pre_tool_context: bool = True
    post_tool_block_as_context: bool = False
    context_top_level: bool = False
    permission_top_level: bool = False
    stop_continue_false: str = ""
    error_deny: str = ""
    # How an external hook's answer is read (None: Claude Code's reading, read_as_claude)
    answer_reading: Callable[[Any, NormalizedEvent, int, str, str], dict[str, Any]] | None = None
    # CodexProtocol: each event's answer schema (its top-level and hookSpecificOutput keys),
    # and the keys never sent on an event
    output_schemas: dict[str, tuple[frozenset[str], frozenset[str]] | None] = {}
    never_sent: dict[str, tuple[str, ...]] = {}
    # ClineProtocol: the payload's hookName -> the hook file's name
    hook_names: dict[str, str] = {}
    # The plugin families (OpenCode, Kilo, pi)
    keep_working: bool = False
    disable_vars: tuple[str, ...] = ()
    npm_plugin: str = ""
    config_folder: str = ""

    if not TYPE_CHECKING:
        __init__ = record_init


def pick(table: dict[str, _V], *names: str) -> dict[str, _V]:
    """The entries of ``table`` named, in that order: a CLI that has some of another CLI's
    events (``pick(CLAUDE.events, "Stop", "PreToolUse")``) says which, not what they mean."""
    return {name: table[name] for name in names}


# The facts copied onto a CLI's runtime description (cli.events, cli.ask_note).
RUNTIME_FACTS = tuple(n for n in CLIRecord.__annotations__ if n != "protocol")
