"""Sentences of the docs that describe a transcript or the commands hookwrap writes say what the
transcript shows and what hookwrap writes (a transcript check alone passes while the sentence
above it drifts)."""

from __future__ import annotations

import re
from pathlib import Path

from hookwrap.generator.clis import setup_of
from hookwrap.names import Platform

REPO = Path(__file__).resolve().parents[2]


def _block_after(page: str, sentence: str) -> list[str]:
    """The output lines of the first console block after ``sentence`` (the $ lines left out)."""
    text = (REPO / page).read_text(encoding="utf-8")
    start = text.index(sentence)
    block = re.search(r"```console\n(.*?)```", text[start:], re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if not line.startswith("$ ")]


def test_the_matcher_example_shows_a_hook_that_is_not_run() -> None:
    lines = _block_after("docs/troubleshooting.md",
                         "A matcher that does not select the call. The hook is not run")
    verdicts = [line for line in lines if re.match(r"^[a-z]+: ", line)
                and ": running " not in line]
    assert verdicts and all(": not run: matcher " in line for line in verdicts), lines


def test_getting_started_names_the_command_hookwrap_writes() -> None:
    text = " ".join((REPO / "docs/getting-started.md").read_text(encoding="utf-8").split())
    claim = re.search(r"hookwrap only touches the entries (.*?)\.\s", text)
    assert claim is not None
    command = setup_of(Platform.CLAUDE).command("guard", "python3")
    assert ".hookwrap/lib/run.py" in command
    assert "`.hookwrap/lib/run.py NAME`" in claim.group(1), claim.group(1)


def test_the_pre_commit_hook_watches_every_file_add_writes(tmp_path: Path) -> None:
    """A commit that touches only one of them (Cline's .clinerules/hooks/PreToolUse) still
    runs `hookwrap sync --check`."""
    from hookwrap.generator.project import add_plan, init_plan

    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    pattern = re.compile(re.search(r"^  files: (.+)$", text, re.M).group(1))
    init_plan(tmp_path, tuple(Platform)).apply()
    plan = add_plan(tmp_path, event="before_tool", name="guard")
    written = [change.rel for change in plan.pending]
    assert ".clinerules/hooks/PreToolUse" in written
    assert [rel for rel in written if not pattern.match(rel)] == []


def test_readme_gives_the_command_that_makes_the_virtual_environment() -> None:
    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    note = text[text.index("Run it in a virtual environment"):][:200]
    assert "`python3 -m venv .venv && . .venv/bin/activate`" in note, note


def test_writing_hooks_says_a_block_skips_claude_codes_compaction() -> None:
    # claude-code-schema.md, PreCompact (2.1.328 binary): decision "block" or exit 2 skips the
    # compaction; an always-blocking PreCompact is reported to loop. Gemini CLI's PreCompress
    # consumes no decision (gemini-cli.md §2.4).
    text = (REPO / "docs/writing-hooks.md").read_text(encoding="utf-8")
    table = text[text.index("### What Claude Code and Gemini CLI then do"):]
    row = next(line for line in table.splitlines() if "`pre_compact`" in line)
    assert "compaction is skipped" in row and "loop" in row and "Gemini CLI: cannot block" in row
