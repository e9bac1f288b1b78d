"""Matchers of the Claude dialects: how a CLI checks a group's ``matcher`` and which calls it selects.

A CLI's setup is composed with one of these; each reads the record's ``no_matcher_events``
(events whose matcher the CLI ignores), ``match_targets`` (through ``is_tool_event``) and
``matcher_aliases`` (more names a tool's matcher selects it by):

- ``ExactListOrSearch`` (Claude Code): plain names joined by ``|`` or ``,`` are an exact list (``|`` only
  on StopFailure and FileChanged), anything else a regex searched in the name; aliases count
  both ways (a legacy name and its successor). A null matcher voids the entry.
- ``NameAliasOrSearch`` (Qwen Code, hook-matcher.ts): an exact name or alias, a split ``|`` list, else an
  unanchored regex over the name itself; ``sequential`` is a group key too.
- ``FullMatch`` (Copilot CLI): a full-match regex over the tool name; any non-empty string.
- ``SearchInName`` (Factory Droid): a case-sensitive regex searched in the name (``Exec`` matches
  ``Execute``).
- ``RegexSearch`` (OpenCode's, Kilo's and pi's plugins; Cline's hook files): a regex searched in
  the tool name; any non-empty string.
"""

from __future__ import annotations

import re
from typing import Any

from ._base import AgentSetup, Matchers
from .kit import Problem, js_regex, sequential_problems

# Patterns as text, compiled (and cached by re) on first use.
_SIMPLE_LIST = r"^[a-zA-Z0-9_|, -]+$"
_SIMPLE_LIST_STRICT = r"^[a-zA-Z0-9_|]+$"  # StopFailure, FileChanged


class ExactListOrSearch(Matchers):
    null_message = "must be a string (null is not allowed)"

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None,
                        target: str | None) -> bool:
        if target is None or matcher is None or matcher in ("", "*"):
            return True
        names = {target, *agent.facts.matcher_aliases.get(target, ())} if agent.is_tool_event(event) \
            else {target}
        simple = _SIMPLE_LIST_STRICT if event in ("StopFailure", "FileChanged") else _SIMPLE_LIST
        if re.match(simple, matcher):
            separators = r"[|,]" if simple is _SIMPLE_LIST else r"\|"
            return bool({p.strip() for p in re.split(separators, matcher)} & names)
        compiled = js_regex(matcher)  # an invalid regex matches nothing
        return compiled is not None and any(compiled.search(n) for n in names)


class NameAliasOrSearch(Matchers):
    def validate_group_keys(self, agent: AgentSetup, group: dict[str, Any], event: str,
                       path: str) -> list[Problem]:
        return super().validate_group_keys(agent, group, event, path) + sequential_problems(group, path)

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None,
                        target: str | None) -> bool:
        if event in agent.facts.no_matcher_events or target is None or matcher is None:
            return True
        matcher = matcher.strip()
        if matcher in ("", "*", ".*"):
            return True
        names = {target, *agent.facts.matcher_aliases.get(target, ())} if agent.is_tool_event(event) \
            else {target}
        if matcher in names:
            return True
        split = "|" in matcher and not matcher.startswith(("^", "("))
        if split and {part.strip() for part in matcher.split("|")} & names:
            return True
        compiled = js_regex(matcher)  # an invalid regex matches nothing
        return compiled is not None and compiled.search(target) is not None


class SearchInName(Matchers):
    def ignored(self, group: dict[str, Any]) -> bool:
        return bool(group.get("matcher"))  # an empty matcher is no matcher

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None,
                        target: str | None) -> bool:
        if event in agent.facts.no_matcher_events or target is None or matcher is None:
            return True
        if matcher.strip() in ("", "*"):
            return True
        compiled = js_regex(matcher)  # an invalid regex matches nothing
        return compiled is not None and compiled.search(target) is not None



class RegexSearch(Matchers):
    """A regex searched in the tool name (hookwrap anchors the ones it writes); any non-empty
    string. ``javascript``: the plugin's ``new RegExp(matcher)``; else Python's ``re.search``
    (Cline's hook-file dispatcher)."""

    def __init__(self, *, javascript: bool = False) -> None:
        self.javascript = javascript

    def validate_group_keys(self, agent: AgentSetup, group: dict[str, Any], event: str,
                            path: str) -> list[Problem]:
        if "matcher" in group and (not isinstance(group["matcher"], str) or not group["matcher"]):
            return [Problem(f"{path}.matcher", "must be a non-empty string")]
        return []

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None,
                        target: str | None) -> bool:
        if target is None or matcher is None or matcher in ("", "*"):
            return True
        compiled = js_regex(matcher) if self.javascript else _python_regex(matcher)
        return compiled is not None and compiled.search(target) is not None


class FullMatch(RegexSearch):
    """A full-match regex over the tool name (Python's ``re``); any non-empty string."""

    def matcher_matches(self, agent: AgentSetup, event: str, matcher: str | None,
                        target: str | None) -> bool:
        if target is None or matcher is None or matcher.strip() in ("", "*"):
            return True
        try:
            return re.fullmatch(matcher, target) is not None
        except re.error:
            return False


def _python_regex(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:
        return None
