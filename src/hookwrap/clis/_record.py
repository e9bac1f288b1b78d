"""CLIRecord: every fact hookwrap knows about one agent CLI, as data.

Each ``clis/<platform>.py`` holds one record and nothing else. A CLI that speaks another's
protocol is that CLI's record with its differences (``CLAUDE.derive(...)``), so what one CLI does
differently is in one place. Behaviour that really differs between CLIs lives in a handful of
protocol families (``clis/_claude_protocol.py``, ...; the generator's in ``generator/clis/``),
which read the record's knobs; a record names its family in ``protocol``.

Every fact carries the CLI version it was checked against, in a comment; the pinned release
(``AgentSetup.version``) is in ``generator/pins.txt``, the one place pins are written. The
record is copied into each project with the rest of the runtime and imported on every hook
call, so it is plain data: no dataclass machinery, no typing at run time.
"""

from __future__ import annotations

from ..names import NormalizedEvent

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..names import Platform

_E = NormalizedEvent

# The events whose answers Claude Code's protocol lets exit 2 block (or keep the agent working);
# elsewhere exit 2's stderr is only shown to the user.
CLAUDE_EXIT2_BLOCKS = frozenset({
    _E.BEFORE_TOOL, _E.AFTER_TOOL, _E.BEFORE_PROMPT, _E.AFTER_AGENT, _E.PERMISSION_REQUEST,
    _E.AFTER_TOOL_BATCH, _E.BEFORE_MODEL, _E.AFTER_MODEL, _E.BEFORE_TOOL_SELECTION})


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
    protocol: Any = None
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
    knobs: dict[str, Any] = {}

    # === What only the hookwrap command reads (generator/clis/): data, copied into projects
    # with the rest of the record but never read by a hook process. ===========================

    # --- the registration file ---------------------------------------------------------------
    settings_file: str = ""           # project-relative path of the file hookwrap edits
    # --- the installed CLI (doctor reads its version) ----------------------------------------
    executable: str = ""              # the command that starts the CLI ("claude")
    # What a release older than the first one listed does to this repo's hooks on an event:
    # (first release that does better, the normalized event, what older releases do).
    version_notes: tuple[tuple[str, NormalizedEvent, str], ...] = ()
    # Folders whose presence says a repo uses this CLI (`init` picks the CLIs from them); by
    # default the settings file's top folder.
    config_folders: tuple[str, ...] = ()
    settings_comments: bool = False   # JSONC: comments are read, and kept
    # A file hookwrap generates whole (OpenCode's plugin): any byte that differs is drift.
    settings_generated: bool = False
    # A file hookwrap owns (Copilot CLI's .github/hooks/hookwrap.json): it holds no hand-made
    # hooks, so `adopt --from` refuses it.
    settings_owned: bool = False
    known_settings_events: tuple[str, ...] = ()  # every event name the file may hold
    unknown_event_note: str = ""      # what the CLI does with another event key ("skips it")
    # One invalid entry makes the CLI drop every hook of its event (Claude Code).
    invalid_entry_drops_event: bool = False
    group_keys: frozenset[str] = frozenset({"matcher", "hooks"})  # a matcher group's keys
    hooks_not_a_list: str = "must be a list"   # what is wrong with a group whose hooks isn't
    no_matcher_events: frozenset[str] = frozenset()  # events whose matcher the CLI ignores
    disable_key: str = ""             # a top-level key whose true switches every hook off
    # (label, path, is the project's file) of every settings file that can hold hooks; a path
    # may hold {root}, {home} and {env:VAR|fallback}.
    scope_files: tuple[tuple[str, str, bool], ...] = ()

    # --- registrations -----------------------------------------------------------------------
    # The registered command: {python}, {script}, {args} (the hook's name after the launcher)
    # and {platform} are filled in; "" for a CLI whose command walks up to hookwrap.toml.
    command_form: str = ""
    # The keys of a command handler, in order: "type", "command", "timeout" and optionally
    # "name" (the hook's name) and "description".
    handler_keys: tuple[str, ...] = ("type", "command", "timeout")
    # What makes a crash or timeout of a fail-closed hook block, on which events: a handler key
    # and its value (Claude Code's onFailure: "block").
    fail_closed_key: str = ""
    fail_closed_value: Any = None
    fail_closed_events: frozenset[NormalizedEvent] = frozenset()
    timeout_scale: int = 1            # manifest seconds -> the CLI's unit
    timeout_ms_from: int = 0          # from this many seconds on, the CLI reads milliseconds
    max_timeout_s: int = 2_147_483    # Node timers fire at once past 2**31-1 ms
    tool_events: frozenset[NormalizedEvent] = frozenset()   # events matched by tool name
    lifecycle_values: dict[NormalizedEvent, tuple[str, ...]] = {}

    # --- what `hookwrap test` and doctor emulate ----------------------------------------------
    match_targets: dict[str, str] = {}   # event -> the payload key its matcher is tested against
    default_timeout_s: float = 60.0      # seconds the CLI waits for a hook without a timeout
    stdin_newline: bool = False          # the payload on stdin ends with a newline
    env_file_events: frozenset[str] = frozenset()  # events whose hooks get CLAUDE_ENV_FILE
    # The variables the CLI sets for its hooks: {project}, {session_id}, {pid} are filled in.
    hook_env_vars: dict[str, str] = {}
    hook_shell: tuple[str, ...] = ("bash", "-c")   # argv before the command text
    empty_tool_response: Any = {}        # what every tool's response holds at least
    payload_has_timestamp: bool = False  # payloads carry a "timestamp" field
    # Where the CLI shows a hook's systemMessage, as `hookwrap test` words it ("shown to the
    # user"); "" when that was never observed.
    system_message_shown: str = ""
    suspicious_timeout_s: float = 0      # doctor warns from this many seconds (likely ms)
    doctor_reported_paths: frozenset[str] = frozenset()  # schema paths a doctor check reports

    # --- the generator's behaviour families (generator/clis/_<family>.py documents each) -------
    # A Claude-dialect CLI needs no generator module: its behaviour is these families, each
    # named here (a CLI with a module of its own reads none of them).
    short_label: str = ""             # how messages name it in passing ("Droid"); label if ""
    matcher_rule: str = ""            # how a group's matcher is checked and matched (_matchers)
    # More names a tool's matcher selects it by: the CLI's tool name -> its aliases.
    matcher_aliases: dict[str, tuple[str, ...]] = {}
    handler_schema: str = ""          # what a handler may hold, and how it is read (_handlers)
    answer_reader: str = ""           # how `hookwrap test` reads a finished run (_answers)
    trust_store: str = ""             # where the CLI keeps its trust, if anywhere (_trust_stores)
    trust_facts: dict[str, Any] = {}  # that store's facts (its file, its finding's words)
    # A timeout of 0 or less is the default timeout (Qwen Code), not "no time at all".
    nonpositive_timeout_is_default: bool = False
    # The CLI copies a payload's top-level strings into its hooks' environment (Factory Droid).
    payload_strings_in_env: bool = False
    # Doctor's checks of a registered command: (what is searched, regex, "warn"/"fail",
    # message, fix); what is "command", "matcher" (tool events only) or "stripped matcher";
    # the message may use {where} and {matcher}.
    doctor_command_checks: tuple[tuple[str, str, str, str, str], ...] = ()
    # Shell commands the CLI runs from a project's files without calling any hook, so no guard
    # sees them (Gemini CLI's `!{...}` in a custom command): (glob under the project, regex of
    # the marker, what the CLI does, worded after "<label> <version>"). Doctor names each file
    # that holds one.
    unhooked_shell: tuple[tuple[str, str, str], ...] = ()

    def __init__(self, platform: Platform, **facts: Any) -> None:
        self.platform = platform
        for name, value in facts.items():
            if not hasattr(CLIRecord, name):
                raise TypeError(f"CLIRecord has no fact {name!r}")
            setattr(self, name, value)

    def derive(self, platform: Platform, **changes: Any) -> CLIRecord:
        """This record with ``changes``: the record of a CLI that speaks this one's protocol.
        ``knobs`` merge key by key."""
        facts = dict(vars(self))
        facts.pop("platform", None)
        if "knobs" in changes:
            changes["knobs"] = {**self.knobs, **changes["knobs"]}
        facts.update(changes)
        return CLIRecord(platform, **facts)

    def knob(self, name: str, default: Any = None) -> Any:
        """A protocol family's knob, or ``default``."""
        return self.knobs.get(name, default)


def pick(table: dict[str, Any], *names: str) -> dict[str, Any]:
    """The entries of ``table`` named, in that order: a CLI that has some of another CLI's
    events (``pick(CLAUDE.events, "Stop", "PreToolUse")``) says which, not what they mean."""
    return {name: table[name] for name in names}


_NAMES = list(CLIRecord.__annotations__)
# The facts a hook process reads (copied onto its runtime description), and the ones only the
# hookwrap command reads (copied onto the generator half's).
RUNTIME_FACTS = tuple(n for n in _NAMES[:_NAMES.index("settings_file")] if n != "protocol")
SETUP_FACTS = tuple(_NAMES[_NAMES.index("settings_file"):])
