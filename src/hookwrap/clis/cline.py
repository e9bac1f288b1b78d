"""Cline 3.0.65: its record, checked against that release (/work/shared/reference/cline.md).

Cline runs one file per event, named after the event (``PreToolUse``, ``PostToolUse``,
``TaskStart``, ...), from ``<workspace>/.clinerules/hooks/`` (and ``.cline/hooks/``, and two
folders in the user's home), where ``<workspace>`` is the git root above the cwd, else the cwd.
No settings file, no matcher: every file of an event runs for every tool. hookwrap writes one
such file per event (a regular file: Cline skips a symlink), generated from the registrations
in ``.clinerules/hooks/hookwrap.json`` (a name Cline ignores); the generator's half is
``generator/clis/cline.py``, the answers ``_cline_protocol.py``.

Only PreToolUse and PostToolUse are awaited and read; every other event runs detached and its
answer is ignored. Cline has no stop event, cannot ask the user, and lets the tool run when a
hook's answer is not JSON or takes over 120 s: hookwrap's hook file answers within 110 s, a
block of its own when a fail-closed hook cannot.
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._cline_protocol import ClineProtocol
from ._record import CLIRecord

_E = NormalizedEvent

_DETACHED = ("runs detached (not awaited) and Cline ignores its answer")

CLINE = CLIRecord(
    Platform.CLINE,
    label="Cline",
    protocol=ClineProtocol,
    # The hook file names (case-insensitive for Cline); the payload's hookName is mapped to
    # them (knob hook_names).
    events={
        "PreToolUse": _E.BEFORE_TOOL,
        "PostToolUse": _E.AFTER_TOOL,
        "UserPromptSubmit": _E.BEFORE_PROMPT,
        "TaskStart": _E.SESSION_START,
        "TaskResume": _E.SESSION_START,  # instead of TaskStart with CLINE_HOOK_AGENT_RESUME=1
        "TaskComplete": _E.AFTER_AGENT,
        "TaskError": _E.STOP_FAILURE,
        "SessionShutdown": _E.SESSION_END,
    },
    preferred_events={_E.SESSION_START: "TaskStart"},
    # Cline's tool names (the schemas sent to the model, 3.0.65). There is no write tool:
    # editor creates, replaces and inserts (a call without old_text or insert_line writes a
    # whole file: write_file; see normalize_call).
    tools={
        "run_commands": "shell",
        "editor": "edit_file",
        "read_files": "read_file",
        "search_codebase": "grep",
        "fetch_web_content": "web_fetch",
        "spawn_agent": "task",
        "ask_question": "ask_user",
    },
    extra_tool_names={"write_file": ("editor",)},
    tool_fields={"shell": ("commands",),
                 "write_file": ("path", "new_text"),
                 "edit_file": ("path", "old_text", "new_text", "insert_line"),
                 "read_file": ("files",)},
    file_path_keys=("path", "file_path"),  # editor's path; file_path is read too
    mcp_prefix="",
    project_dir_vars=("HOOKWRAP_PROJECT_DIR",),  # set by hookwrap's hook file: its project
    marker_env="HOOKWRAP_CLINE",                 # set by hookwrap's hook file for hooks only
    tool_input_keys={"write_file": {"path": "file_path", "new_text": "content"},
                     "edit_file": {"path": "file_path", "old_text": "old_string",
                                   "new_text": "new_string"}},
    own_only_keys={"edit_file": ("insert_line",)},
    # Exit codes are never read; only JSON (or a HOOK_CONTROL<TAB> line) is an answer.
    text_is_context=frozenset(),
    exit2_blocks=frozenset(),
    ask_note=("This call needs the user's confirmation, and Cline hooks cannot ask for it, so it "
              "was blocked: ask the user, and run it only if they agree."),
    hook_names={
        "agent_start": "TaskStart", "agent_resume": "TaskResume",
        "prompt_submit": "UserPromptSubmit", "tool_call": "PreToolUse",
        "tool_result": "PostToolUse", "agent_end": "TaskComplete", "agent_error": "TaskError",
        "agent_abort": "TaskCancel", "session_shutdown": "SessionShutdown"},
    limits={
        _E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a block whose reason tells the "
                          "model to ask the user"),
                         ("allow", "every tool is auto-approved in the CLI: an allow changes "
                          "nothing"),
                         ("system_message", "has no message for the user: a system_message is "
                          "dropped")),
        _E.AFTER_TOOL: (("block", "the tool has run: a block's reason reaches the model as "
                         "context"),),
        _E.AFTER_AGENT: (("", "TaskComplete " + _DETACHED + ", after the task ended: it "
                          "cannot keep the agent working (Cline has no stop event)"),),
        _E.SESSION_START: (("", "TaskStart " + _DETACHED + ": no block, no context"),),
        _E.BEFORE_PROMPT: (("", "UserPromptSubmit " + _DETACHED + ", and never fires in a "
                            "headless `cline \"<prompt>\"` run"),),
        _E.SESSION_END: (("", "SessionShutdown " + _DETACHED + ", only after an aborted or "
                          "failed run (after_agent is TaskComplete)"),),
        _E.STOP_FAILURE: (("", "TaskError " + _DETACHED),),
    },
)
