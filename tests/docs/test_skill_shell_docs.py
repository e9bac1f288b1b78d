"""docs/guard.md says where the guard cannot see a shell command: slash commands' and skills'
inline commands bypass PreToolUse on every Claude Code release, 2.1.328 runs them with no hook,
and only 2.1.332 or newer can guard them (PreSkillShellCommand); the record says the same."""

from __future__ import annotations

import re
from pathlib import Path

from hookwrap.generator.clis import setup_of
from hookwrap.names import NormalizedEvent, Platform

REPO = Path(__file__).resolve().parents[2]
GUARD_DOC = REPO / "docs" / "guard.md"


def _section() -> str:
    text = GUARD_DOC.read_text(encoding="utf-8")
    return re.search(r"## Where it is registered\n(.*?)\n## ", text, re.S).group(1)


def test_the_guard_docs_say_inline_commands_bypass_pre_tool_use() -> None:
    words = " ".join(_section().split())
    assert "They never reach PreToolUse, on any release." in words
    assert "Claude Code 2.1.328 runs them with no hook at all: the guard cannot see them" in words
    assert "Claude Code 2.1.332 asks a new event first, `PreSkillShellCommand`" in words
    assert "with the matcher `Bash|PowerShell`" in words


def test_the_docs_the_record_and_the_e2e_test_agree() -> None:
    claude = setup_of(Platform.CLAUDE)
    assert claude.runtime.skill_shell_events == ("PreSkillShellCommand",)
    (since, event, note), = claude.facts.version_notes
    assert event is NormalizedEvent.BEFORE_TOOL and note.endswith(f"{since} or newer can")
    assert f"Claude Code {since} asks a new event first" in " ".join(_section().split())
    cited = re.findall(r"`(test_[a-z_0-9]+)`", _section())
    e2e = (REPO / "tests" / "e2e" / "test_claude_skill_shell.py").read_text(encoding="utf-8")
    assert cited and all(f"def {name}(" in e2e for name in cited)
