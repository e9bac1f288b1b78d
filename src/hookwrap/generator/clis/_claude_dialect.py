"""The hookwrap command's half of every CLI that speaks Claude Code's hook protocol, built from
its record alone.

A Claude-dialect CLI (Qwen Code, Copilot CLI, Factory Droid: records derived from Claude Code's)
needs no generator module: ``setup_of`` builds this class from its record, and each behaviour is
a family the record names (``matcher_rule``, ``handler_schema``, ``answer_reader``,
``trust_store``; see ``_matchers``, ``_handlers``, ``_answers``, ``_trust_stores``), or a fact
it reads (an empty ``command_form``: the command walks up to hookwrap.toml;
``nonpositive_timeout_is_default``, ``payload_strings_in_env``, ``doctor_command_checks``).
Claude Code's own module extends it with what only Claude Code does.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...clis._claude_protocol import ClaudeProtocol
from ._answers import ANSWER_READERS
from ._base import AgentSetup, walk_up_command, walk_up_fail_closed, walk_up_fail_open
from ._handlers import HANDLER_SCHEMAS
from ._matchers import MATCHER_RULES
from ._trust_stores import TRUST_STORES
from .kit import FAIL, WARN, Finding

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Mapping

    from ...names import NormalizedEvent
    from .kit import HookCommand, Problem, RunResult, Scope, TrustEdit, Verdict

_LEVELS = {"warn": WARN, "fail": FAIL}


class ClaudeDialectSetup(ClaudeProtocol, AgentSetup):
    """A Claude-dialect CLI's registrations, validation, host rules, doctor checks and trust,
    each from the family its record names."""

    # --- registrations: an empty command_form walks up to hookwrap.toml ----------------------
    def command(self, name: str, python: str, *, launcher: bool = True) -> str:
        if self.command_form:
            return super().command(name, python, launcher=launcher)
        return walk_up_command(self.platform.value, name, python, launcher)

    def owned_name(self, command: str) -> str | None:
        return super().owned_name(command if self.command_form else walk_up_fail_open(command))

    def handler(self, command: str, *, name: str, timeout_s: int, fail_closed: bool,
                event: NormalizedEvent, description: str) -> dict[str, Any]:
        if fail_closed and not self.command_form:
            command = walk_up_fail_closed(command)
        return super().handler(command, name=name, timeout_s=timeout_s, fail_closed=fail_closed,
                               event=event, description=description)

    # --- validation ------------------------------------------------------------------------
    def validate_group_keys(self, group: dict[str, Any], event: str, path: str) -> list[Problem]:
        return MATCHER_RULES[self.matcher_rule].group_problems(self, group, event, path)

    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        return HANDLER_SCHEMAS[self.handler_schema].validate(self, handler, event, path)

    # --- host rules ------------------------------------------------------------------------
    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:
        return MATCHER_RULES[self.matcher_rule].matches(self, event, matcher, target)

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:
        return HANDLER_SCHEMAS[self.handler_schema].read(self, event, group, handler)

    def dedup_key(self, cmd: HookCommand) -> str:
        return HANDLER_SCHEMAS[self.handler_schema].dedup_key(cmd)

    def runs_sequentially(self, commands: tuple[HookCommand, ...]) -> bool:
        return HANDLER_SCHEMAS[self.handler_schema].runs_sequentially(commands)

    def effective_timeout(self, cmd: HookCommand) -> float:
        if self.nonpositive_timeout_is_default and (not cmd.timeout_s or cmd.timeout_s <= 0):
            return self.default_timeout_s
        return super().effective_timeout(cmd)

    def hook_env(self, payload: Mapping[str, Any], project_dir: str,
                 env: dict[str, str]) -> dict[str, str]:
        if self.payload_strings_in_env:
            env.update({k: v for k, v in payload.items() if isinstance(v, str) and k.isidentifier()})
        return super().hook_env(payload, project_dir, env)

    def interpret(self, event: str, result: RunResult, on_failure: str | None) -> Verdict:
        return ANSWER_READERS[self.answer_reader](self, event, result, on_failure)

    # --- doctor and trust -------------------------------------------------------------------
    def trust_findings(self, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        return TRUST_STORES[self.trust_store].findings(self, root, home, scopes, env)

    def trust_edits(self, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        return TRUST_STORES[self.trust_store].edits(self, root, home, env, settings_text)

    def command_findings(self, scope: Scope, cmd: HookCommand) -> list[Finding]:
        """The record's ``doctor_command_checks``, then the suspicious-timeout check."""
        where = f"{scope.label}: {cmd.event} {cmd.command!r}"
        out = []
        for what, pattern, level, message, fix in self.doctor_command_checks:
            if what == "command":
                text = cmd.command
            elif not self.is_tool_event(cmd.event):
                continue
            else:
                text = (cmd.matcher or "").strip() if what == "stripped matcher" else cmd.matcher or ""
            if re.search(pattern, text):
                out.append(Finding("commands", _LEVELS[level],
                                   message.format(where=where, matcher=text), fix))
        return out + super().command_findings(scope, cmd)
