"""CommandFacts: what only the hookwrap command knows about one agent CLI, as data.

A CLI's record (``hookwrap/clis/<platform>.py``) holds what a hook process reads, and is copied
into every project; these facts (its registration file, command and handler forms, what
`hookwrap test` and doctor emulate) are read by the hookwrap command alone, so they live beside
the CLI's setup in ``generator/clis/<platform>.py`` and are never copied. A Claude-dialect CLI's
facts are Claude Code's with its differences (``derive(CLAUDE_COMMAND, ...)``). Type checkers
read the class as a dataclass (a typed constructor); every fact carries the CLI version it was
checked against, in the record's ``version``.
"""

from __future__ import annotations

from ...clis._record import record_class
from ...names import NormalizedEvent

TYPE_CHECKING = False
if not TYPE_CHECKING:
    from ...clis._record import record_init


@record_class
class CommandFacts:
    """The command's facts of one CLI. Attributes not given keep the defaults below."""

    # --- the registration file ---------------------------------------------------------------
    settings_file: str = ""           # project-relative path of the file hookwrap edits
    # At user scope (`hookwrap --user`): the CLI's user-level file hookwrap edits, a path as in
    # scope_files (``~/...``, ``${VAR:-default}/...``); "" when there is none, and then
    # ``user_file_note`` says why.
    user_file: str = ""
    user_file_note: str = ""
    # --- the installed CLI (doctor reads its version) ----------------------------------------
    executable: str = ""              # the command that starts the CLI ("claude")
    # What a release older than the first one listed does to this repo's hooks on an event:
    # (first release that does better, the normalized event, what older releases do).
    version_notes: tuple[tuple[str, NormalizedEvent, str], ...] = ()
    # Folders whose presence says a repo uses this CLI (`init` picks the CLIs from them); by
    # default the settings file's top folder.
    config_folders: tuple[str, ...] = ()
    settings_comments: bool = False   # JSONC: comments are read, and kept
    # A file hookwrap generates whole (OpenCode's plugin): any byte that differs is drift; a JS
    # one from ``shim_template`` (beside this module), which messages call a ``shim_noun``.
    settings_generated: bool = False
    shim_template: str = ""
    shim_noun: str = "plugin"
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
    fail_closed_value: str | bool | None = None
    fail_closed_events: frozenset[NormalizedEvent] = frozenset()
    timeout_scale: int = 1            # manifest seconds -> the CLI's unit
    timeout_ms_from: int = 0          # from this many seconds on, the CLI reads milliseconds
    # The longest a hook runs on this CLI whatever its timeout says (0: its timeout; every
    # timer's own limit is hookentry.MAX_TIMEOUT): a longer timeout is registered cut to it,
    # and `add` and doctor say so, with why (``max_timeout_why``).
    max_timeout_s: int = 0
    max_timeout_why: str = ""
    tool_events: frozenset[NormalizedEvent] = frozenset()   # events matched by tool name
    lifecycle_values: dict[NormalizedEvent, tuple[str, ...]] = {}

    # --- what `hookwrap test` and doctor emulate ----------------------------------------------
    match_targets: dict[str, str] = {}   # event -> the payload key its matcher is tested against
    # Events the runtime does not map (hookwrap registers nothing there) whose answer the CLI
    # reads as another event's: event -> that event.
    reads_like: dict[str, str] = {}
    default_timeout_s: float = 60.0      # seconds the CLI waits for a hook without a timeout
    stdin_newline: bool = False          # the payload on stdin ends with a newline
    env_file_events: frozenset[str] = frozenset()  # events whose hooks get CLAUDE_ENV_FILE
    # The variables the CLI sets for its hooks: {project}, {session_id}, {pid} are filled in.
    hook_env_vars: dict[str, str] = {}
    hook_shell: tuple[str, ...] = ("bash", "-c")   # argv before the command text
    empty_tool_response: dict[str, object] | str = {}        # what every tool's response holds at least
    payload_has_timestamp: bool = False  # payloads carry a "timestamp" field
    # Where the CLI shows a hook's systemMessage, as `hookwrap test` words it ("shown to the
    # user"); "" when that was never observed.
    system_message_shown: str = ""
    # What a resident hook's call still costs this CLI where that is more than hookwrap's own
    # part (a post and the server's answer), measured (`hookwrap add --resident` prints it);
    # "" when nothing beyond hookwrap's part was measured.
    resident_cost: str = ""
    suspicious_timeout_s: float = 0      # doctor warns from this many seconds (likely ms)
    doctor_reported_paths: frozenset[str] = frozenset()  # schema paths a doctor check reports

    # --- what the command's behaviours read (generator/clis/_base.py composes them) ----------
    short_label: str = ""             # how messages name it in passing ("Droid"); label if ""
    # More names a tool's matcher selects it by: the CLI's tool name -> its aliases.
    matcher_aliases: dict[str, tuple[str, ...]] = {}
    # A timeout of 0 or less is the default timeout (Qwen Code), not "no time at all".
    nonpositive_timeout_is_default: bool = False
    # The CLI copies a payload's top-level strings into its hooks' environment (Factory Droid).
    payload_strings_in_env: bool = False
    # Doctor's checks of a registered command: (what is searched, regex, "warn"/"fail",
    # message, fix); what is "command", "matcher" (tool events only) or "stripped matcher";
    # the message may use {where}, {matcher} and {found} (the regex's first group, else its match).
    doctor_command_checks: tuple[tuple[str, str, str, str, str], ...] = ()
    # Shell commands the CLI runs from a project's files without calling any hook, so no guard
    # sees them (Gemini CLI's `!{...}` in a custom command): (glob under the project, regex of
    # the marker, what the CLI does, worded after "<label> <version>"). Doctor names each file
    # that holds one.
    unhooked_shell: tuple[tuple[str, str, str], ...] = ()

    if not TYPE_CHECKING:
        __init__ = record_init
