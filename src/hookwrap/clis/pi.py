"""pi 0.73.1 (``@mariozechner/pi-coding-agent``): OpenCode's record with pi's differences
(checked against that release; /work/shared/reference/pi.md, docs/pi-notes.md).

pi has no command hooks, only JS/TS extensions, loaded from ``<cwd>/.pi/extensions/`` with no
trust prompt. hookwrap writes one plain-JS extension, ``.pi/extensions/hookwrap.js`` (rendered
from ``pi_extension.js`` in generator/clis/), that runs the repo's hookwrap hooks as commands and
applies their answers through pi's extension API, as OpenCode's plugin does: the registrations
live in it as one JSON object, and its answers are the plugin protocol's flat JSON.

The payload a hook gets is the one the extension builds (docs/pi-notes.md): ``PreToolUse``
(``tool_call``), ``PostToolUse`` / ``PostToolUseFailure`` (``tool_result``, split on its
``isError``: pi fires it for failed tools too), ``UserPromptSubmit`` (``input``),
``SessionStart`` (``session_start``), ``Stop`` (``agent_end``) and ``SessionEnd``
(``session_shutdown``). ``tool_name`` and ``tool_input`` are pi's own: ``bash {command}``,
``write {path, content}``, ``edit {path, edits: [{oldText, newText}, ...]}``.

What pi does with an answer: a PreToolUse block is ``{block: true, reason}`` (the tool does not
run, the model gets the reason, the run goes on); a rewrite changes ``event.input`` in place;
context is appended to the tool's result, or added as a message after the prompt (SessionStart's
to the system prompt); a prompt block drops the prompt. pi cannot keep the agent working: its
``agent_end`` is not awaited and its result ignored.

The hookwrap command's half (the extension's text, validation, `hookwrap test`'s host rules,
doctor) is in generator/clis/pi.py.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._pi_protocol import PiProtocol
from .opencode import OPENCODE

_E = NormalizedEvent

PI = OPENCODE.derive(
    Platform.PI,
    label="pi",
    protocol=PiProtocol,
    events={
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "PostToolUseFailure": _E.AFTER_TOOL_FAILURE,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "SessionStart": _E.SESSION_START,
        "Stop": _E.AFTER_AGENT,
        "SessionEnd": _E.SESSION_END,
    },
    # pi's built-in tools (0.73.1): read, bash, edit and write are offered by default; grep,
    # find and ls when `--tools` names them. Extensions may add tools of any name.
    tools={
        "bash": "shell",
        "write": "write_file",
        "edit": "edit_file",
        "read": "read_file",
        "grep": "grep",
        "find": "glob",
        "ls": "list_directory",
    },
    extra_tool_names={},
    # The file argument is `path` (relative to the session cwd, or absolute); edit takes an
    # `edits` array, every entry a replacement in that one file.
    tool_fields={"shell": ("command", "timeout"),
                 "write_file": ("path", "content"),
                 "edit_file": ("path", "edits"),
                 "read_file": ("path", "offset", "limit")},
    file_path_keys=("path",),
    patch_tool="",
    patch_keys=(),
    marker_env="HOOKWRAP_PI",  # set by the extension for hook processes only
    # Speaking to an external hook of another protocol (bridge.py): `path` is Claude's
    # file_path; an edit's `edits` array is reshaped by the protocol (PiProtocol); bash's
    # timeout is in seconds where Claude's is in milliseconds, so it is pi's own.
    tool_input_keys={"write_file": {"path": "file_path"}, "edit_file": {"path": "file_path"},
                     "read_file": {"path": "file_path"}},
    own_only_keys={"shell": ("timeout",)},
    # The extension's payload: no permission_mode (pi has no permission system); the session
    # file is transcript_path; no worktree (pi knows no git root).
    payload_drops=("permission_mode",),
    payload_worktree=False,
    ask_note=("This call needs the user's confirmation, and pi has no way to ask for it, so it "
              "was blocked: ask the user, and run it only if they agree."),
    limits={
        _E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a block whose reason tells the "
                          "model to ask the user"),
                         ("allow", "has no permission system: an allow changes nothing")),
        _E.AFTER_AGENT: (("block", "cannot keep the agent working: the hook runs at agent_end, "
                          "which pi does not wait for (`pi -p` prints the answer and exits); a "
                          "block's reason is printed for the user"),),
        _E.BEFORE_PROMPT: (("block", "a block drops the prompt: `pi -p` then exits 0 with no "
                            "answer (the extension prints the reason)"),),
        _E.SESSION_START: (("block", "a block cannot stop a session: ignored"),),
    },

    # --- the hookwrap command's facts: the extension is the registration file ---------------
    settings_file=".pi/extensions/hookwrap.js",
    executable="pi",
    config_folders=(".pi",),
    known_settings_events=("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
                           "SessionStart", "Stop", "SessionEnd"),
    unknown_event_note="hookwrap's pi extension does not run it",
    tool_events=frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL, _E.AFTER_TOOL_FAILURE}),
    # session_start's and session_shutdown's `reason` (0.73.1's types); `pi -p` sends startup
    # and quit.
    lifecycle_values={_E.SESSION_START: ("startup", "reload", "new", "resume", "fork"),
                      _E.SESSION_END: ("quit", "reload", "new", "resume", "fork")},
    match_targets={"PreToolUse": "tool_name", "PostToolUse": "tool_name",
                   "PostToolUseFailure": "tool_name", "SessionStart": "source",
                   "SessionEnd": "reason"},
    # pi itself exports PI_CODING_AGENT (cli.js), so every process it starts inherits it.
    hook_env_vars={"HOOKWRAP_PROJECT_DIR": "{project}", "HOOKWRAP_PI": "1",
                   "PI_CODING_AGENT": "true"},
    empty_tool_response={"content": [], "isError": False},
    system_message_shown="printed for the user by the extension (stderr, or a notice in pi's UI)",
    # 0.73.1 runs no shell from a project file (OpenCode's command files are not pi's); a
    # user's `!cmd` goes to the user_bash extension event, which the extension hooks.
    unhooked_shell=(),
)
