"""Kilo CLI: what the hookwrap command needs to know about it (a hook process needs only
``kilo.py`` of the runtime). Kilo loads OpenCode's plugin API, so its half is OpenCode's
behaviours with Kilo's record: the plugin ``.kilo/plugins/hookwrap.js``, rendered from the same
template with Kilo's words and settings (``KILO`` says what differs).
"""

from __future__ import annotations

from ...clis._record import derive
from ...clis.kilo import KILO
from .opencode import OPENCODE_COMMAND, plugin_setup

# The hookwrap command's facts (checked against the version in the record).
KILO_COMMAND = derive(
    OPENCODE_COMMAND,
    settings_file=".kilo/plugins/hookwrap.js",
    user_file="${XDG_CONFIG_HOME:-~/.config}/kilo/plugins/hookwrap.js",
    executable="kilo",
    config_folders=(".kilo", ".kilocode"),
    unknown_event_note="hookwrap's Kilo CLI plugin does not run it",
    # As observed in a hook process (7.7.9): Kilo keeps OpenCode's OPENCODE=1 too.
    hook_env_vars={"HOOKWRAP_PROJECT_DIR": "{project}", "HOOKWRAP_KILO": "1", "KILO": "1",
                   "OPENCODE": "1", "AGENT": "1", "KILO_PID": "{pid}",
                   "KILOCODE_VERSION": "{version}",  # the pinned release
                   "KILOCODE_FEATURE": "cli", "KILO_PROCESS_ROLE": "main"},
    system_message_shown="printed for the user on Kilo's stderr by the plugin",
    # benchmarks/run.py --cli: what Kilo CLI awaits of the plugin's handlers (docs/performance.md).
    resident_cost=('Kilo CLI 7.7.9 awaits even a plugin handler that only waits for one loopback answer '
                  '3.4-5.0 ms a call on a quiet machine, 4-6 ms on a busy one (its own work runs on the '
                  'same thread meanwhile): the resident guard is awaited 3.5-4.9 ms a call there, against '
                  '33-43 ms as a command, not the 3 ms hookwrap aims at (docs/performance.md)'),
    # As OpenCode's SessionPrompt.command (7.7.9): a command file's !`...` runs before
    # command.execute.before. A skill's runs too, when the skill is trusted.
    unhooked_shell=((".kilo/command*/**/*.md", r"!`",
                     "runs a command file's !`...` shell commands before any plugin hook is "
                     "called: the guard never sees them"),),
)

SETUP = plugin_setup(KILO, KILO_COMMAND)
