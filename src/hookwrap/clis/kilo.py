"""Kilo CLI 7.7.9: OpenCode's record with Kilo's differences (checked against that release;
/work/shared/reference/kilo.md, docs/kilo-notes.md).

Kilo is a fork of OpenCode and loads OpenCode's plugin API unchanged (same hooks, payloads, block
by throwing, rewrite in place), so hookwrap writes it the same generated plugin, from
``.kilo/plugins/`` (Kilo ignores ``.opencode/``). What differs: the plugin's folder and marker
variable, the tools Kilo adds (``background_process`` runs a command: it is a shell tool to the
hooks; ``cron_create`` and ``schedule_wakeup`` schedule a prompt for later), and a Stop block
keeps the agent working (the plugin sends the reason as the next user message).
"""

from __future__ import annotations

from ..names import NormalizedEvent, Platform
from ._record import derive
from .opencode import OPENCODE

_E = NormalizedEvent

KILO = derive(
    OPENCODE,
    platform=Platform.KILO,
    label="Kilo CLI",
    tools={
        **OPENCODE.tools,
        # Kilo's own tools (the `code` agent's schemas, 7.7.9). background_process starts (or
        # monitors) {"command"} as a tracked process: a shell call to every hook and matcher.
        "background_process": "shell",
        # They schedule a prompt the session is resumed with later (the tool calls it leads to
        # pass the hooks then): "schedule" to a matcher.
        "cron_create": "schedule",
        "schedule_wakeup": "schedule",
    },
    tool_fields={**OPENCODE.tool_fields,
                 # bash's; background_process: {action, command, workdir, description, ready}
                 "shell": ("command", "timeout", "workdir", "description", "action"),
                 "schedule": ("prompt", "cron", "when", "delay", "reason")},
    marker_env="HOOKWRAP_KILO",  # set by the plugin for hook processes only
    ask_note=("This call needs the user's confirmation, and Kilo CLI plugins cannot ask for it, "
              "so it was blocked: ask the user, and run it only if they agree."),
    limits={
        **OPENCODE.limits,
        _E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a block whose reason tells the "
                          "model to ask the user"),
                         ("allow", "an allow does not skip Kilo's own permission rules"),
                         ("updated_input", "a rewrite (updated_input) of an apply_patch call "
                          "blocks it instead: the plugin never rewrites a patch")),
        _E.AFTER_AGENT: (),  # the plugin sends a block's reason as the next user message
        _E.BEFORE_PROMPT: (("block", "a block refuses the prompt, and `kilo run` then exits 1 "
                            "with an opaque error (the reason is printed by the plugin)"),),
    },
    keep_working=True, disable_vars=("KILO_DISABLE_PROJECT_CONFIG", "KILO_PURE"),
    npm_plugin="@kilocode/plugin", config_folder="~/.config/kilo",
)
