"""pi: what the hookwrap command needs to know about it (a hook process needs only
``clis/pi.py``).

OpenCode's behaviours with pi's differences: the extension hookwrap renders,
``.pi/extensions/hookwrap.js`` (from ``pi_extension.js`` and the hook runner OpenCode's plugin
shares, ``hook_runner.js``), with the registrations in the same marked block as OpenCode's
plugin; what `hookwrap test` emulates where the extension differs from the plugin (a
fail-closed hook that times out blocks, a PostToolUseFailure block replaces the result);
doctor's checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...clis._record import derive
from ...clis.pi import PI
from ...names import NormalizedEvent
from ._base import AgentSetup, TrustStore
from ._matchers import RegexSearch
from .kit import OK, Finding, RunResult, Scope, Verdict, fail_closed_block, failure_line
from .opencode import OPENCODE_COMMAND, PluginHandlers, PluginRegistration, changed_file, plugin_text
from .opencode import read_answer as read_plugin_answer

# The hookwrap command's facts: the extension is the registration file (checked against the version in the record).
PI_COMMAND = derive(
    OPENCODE_COMMAND,
    settings_file=".pi/extensions/hookwrap.js",
    user_file="${PI_CODING_AGENT_DIR:-~/.pi/agent}/extensions/hookwrap.js",
    executable="pi",
    shim_template="pi_extension.js",
    shim_noun="extension",
    config_folders=(".pi",),
    known_settings_events=("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
                           "SessionStart", "Stop", "SessionEnd"),
    unknown_event_note="hookwrap's pi extension does not run it",
    # benchmarks/run.py --cli: what pi awaits of the extension's handlers (docs/performance.md).
    resident_cost=('pi 0.73.1 awaits the resident guard 1.2-1.5 ms a call on a quiet 2-core machine '
                  "and 5.3 ms at a load average of 7, where the server's answer waits for a CPU (the "
                  "extension's own CPU is 1.1-1.5 ms a call): under 3 ms only on a machine that is not "
                  'busy; the guard as a command 22-62 ms (docs/performance.md)'),
    tool_events=frozenset({NormalizedEvent.BEFORE_TOOL, NormalizedEvent.AFTER_TOOL, NormalizedEvent.AFTER_TOOL_FAILURE}),
    # session_start's and session_shutdown's `reason` (0.73.1's types); `pi -p` sends startup
    # and quit.
    lifecycle_values={NormalizedEvent.SESSION_START: ("startup", "reload", "new", "resume", "fork"),
                      NormalizedEvent.SESSION_END: ("quit", "reload", "new", "resume", "fork")},
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

def read_answer(agent: AgentSetup, event: str, result: RunResult, on_failure: str | None) -> Verdict:
    """The plugin's reading, except that a fail-closed PreToolUse hook that times out blocks
    the call, and a PostToolUseFailure block replaces the result as PostToolUse's does."""
    if result.timed_out and on_failure == "block" and event == "PreToolUse":
        return fail_closed_block(failure_line(result), "a fail-closed hook could not run")
    verdict = read_plugin_answer(agent, "PostToolUse" if event == "PostToolUseFailure"
                                 else event, result, on_failure)
    if event == "Stop" and verdict.notes:
        verdict = replace(verdict, notes=("pi cannot keep the agent working: the extension "
                                          "prints the reason and the run ends",))
    return verdict


class PiTrust(TrustStore):
    """No trust gate (said so), where pi looks for project extensions, and the extension's code."""

    def trust_findings(self, agent: AgentSetup, root: Any, home: Any, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        mine = [s for s in scopes if s.data and s.data.get("hooks")]
        if not mine:
            return [Finding("pi-trust", OK, "no pi extension to check")]
        out = [Finding("pi-trust", OK, f"pi loads {agent.facts.settings_file} (and every other project "
                       "extension) with no trust prompt: whoever can change .pi/ runs code in "
                       "every pi session started here"),
               Finding("pi-cwd", OK, "pi looks for project extensions only in the folder it is "
                       f"started in: start pi in {root}, not in a subfolder (and not with "
                       "`--no-extensions`), or no hookwrap hook runs")]
        for scope in mine:
            out += changed_file(scope, plugin_text(scope.data or {}, agent), "pi-extension",
                                "the extension's code")
        return out


SETUP = AgentSetup(PI, PI_COMMAND, registration=PluginRegistration(), matchers=RegexSearch(javascript=True),
                   handlers=PluginHandlers(), answers=read_answer, trust=PiTrust())
