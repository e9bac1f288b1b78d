"""Drift: entries deleted, edited, duplicated or reordered by hand or by Claude Code, and orphans.
`list` reports it, `sync --check` fails on it, `sync` repairs it and a second `sync` writes nothing."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from support.cli import (
    CLAUDE,
    GEMINI,
    GEMINI_NOTE,
    MANIFEST,
    canonical,
    hw,
    owned_names,
    read_json,
    snapshot,
    strip_owned,
    write_json,
)
from support.projects import from_template

IN_SYNC = "nothing to change: everything matches hookwrap.toml"
FOREIGN_CLAUDE = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./lint.sh", "timeout": 5, "__marker__": True}]}],
        "Stop": [{"hooks": [{"type": "prompt", "prompt": "done? $ARGUMENTS"}]}],
    },
    "env": {"FOO": "bar"},
}
FOREIGN_GEMINI = {
    "general": {"vimMode": True},
    "hooks": {"BeforeTool": [{"matcher": "read_file", "hooks": [
        {"name": "lint", "type": "command", "command": "./lint.sh"}]}]},
}


def _drifty(project: Path) -> None:
    assert hw(project, "init").code == 0
    write_json(project, CLAUDE, FOREIGN_CLAUDE)
    write_json(project, GEMINI, FOREIGN_GEMINI)
    for args in (["before_tool", "guard"], ["session_start", "context"], ["before_tool", "audit"]):
        assert hw(project, "add", *args).code == 0
    assert hw(project, "sync", "--check").code == 0


@pytest.fixture
def drifty(empty_dir: Path) -> Path:
    """A project with foreign hooks in both files and three hookwrap hooks (a copy of one template)."""
    return from_template(empty_dir, _drifty)


def foreign(root: Path, rel: str) -> str:
    return canonical(strip_owned(read_json(root, rel)))


def statuses(root: Path) -> dict[str, dict[str, str]]:
    rows = json.loads(hw(root, "list", "--json").out)
    return {row["name"]: {p: v["status"] for p, v in row["platforms"].items()
                          if v["status"] != "not selected"} for row in rows}


def drop_handler(data: dict[str, Any], name: str) -> None:
    for groups in data["hooks"].values():
        for group in groups:
            group["hooks"] = [h for h in group["hooks"] if f"/run.py {name} " not in h.get("command", "")]
        groups[:] = [g for g in groups if g["hooks"]]


def mtimes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def assert_second_sync_is_a_no_op(root: Path) -> None:
    before, times = snapshot(root), mtimes(root)
    result = hw(root, "sync")
    assert (result.code, result.out_lines) == (0, [IN_SYNC])
    assert snapshot(root) == before and mtimes(root) == times


def test_entry_deleted_by_hand_is_missing_and_sync_recreates_it(drifty: Path) -> None:
    data = read_json(drifty, CLAUDE)
    drop_handler(data, "guard")
    write_json(drifty, CLAUDE, data)
    foreign_before = foreign(drifty, CLAUDE)
    assert statuses(drifty)["guard"] == {"claude": "missing", "gemini": "current"}
    table = hw(drifty, "list").out_lines
    assert re.fullmatch(r"guard +before_tool +shell\|write_file\|edit_file\|read_file +missing +current", table[1])
    assert table[-1] == "hint: run `hookwrap sync` to repair missing or drifted registrations"
    check = hw(drifty, "sync", "--check")
    both = "create guard (PreToolUse); create guard (PreSkillShellCommand)"
    assert (check.code, check.out_lines) == (1, [f"would update  .claude/settings.json: {both}"])
    result = hw(drifty, "sync")
    assert (result.code, result.out_lines) == (0, [f"update  .claude/settings.json: {both}"])
    assert statuses(drifty)["guard"] == {"claude": "current", "gemini": "current"}
    assert foreign(drifty, CLAUDE) == foreign_before
    assert_second_sync_is_a_no_op(drifty)


def test_entry_edited_by_hand_is_drifted_and_sync_restores_it(drifty: Path) -> None:
    data = read_json(drifty, GEMINI)
    for group in data["hooks"]["BeforeTool"]:
        for handler in group["hooks"]:
            if handler.get("name") == "guard":
                handler["timeout"] = 1
    write_json(drifty, GEMINI, data)
    assert statuses(drifty)["guard"] == {"claude": "current", "gemini": "drifted"}
    result = hw(drifty, "sync")
    assert result.out_lines == ["update  .gemini/settings.json: update guard (changed timeout)", GEMINI_NOTE]
    assert statuses(drifty)["guard"]["gemini"] == "current"
    assert_second_sync_is_a_no_op(drifty)


def test_duplicate_copied_by_hand_is_collapsed(drifty: Path) -> None:
    data = read_json(drifty, CLAUDE)
    guard = next(g for g in data["hooks"]["PreToolUse"] if "/run.py guard " in g["hooks"][0]["command"])
    data["hooks"].setdefault("PostToolUse", []).append(json.loads(json.dumps(guard)))
    write_json(drifty, CLAUDE, data)
    assert statuses(drifty)["guard"]["claude"] == "drifted"
    result = hw(drifty, "sync")
    # The guard is on two events here (PreToolUse, PreSkillShellCommand): a copy on a third goes.
    assert result.out_lines == ["update  .claude/settings.json: remove guard (PostToolUse)"]
    assert owned_names(drifty, CLAUDE) == ["guard", "audit", "guard", "audit", "context"]
    assert "PostToolUse" not in read_json(drifty, CLAUDE)["hooks"]
    assert_second_sync_is_a_no_op(drifty)


def test_script_deleted_by_hand_is_rendered_again(drifty: Path) -> None:
    script = drifty / ".hookwrap/hooks/audit.py"
    original = script.read_bytes()
    script.unlink()
    # The registrations are as written, but their command has nothing to run.
    assert statuses(drifty)["audit"] == {"claude": "no script", "gemini": "no script"}
    result = hw(drifty, "sync")
    assert result.out_lines == ["create  .hookwrap/hooks/audit.py: script was missing"]
    assert script.read_bytes() == original
    assert statuses(drifty)["audit"] == {"claude": "current", "gemini": "current"}


def test_edited_script_is_never_overwritten(drifty: Path) -> None:
    script = drifty / ".hookwrap/hooks/guard.py"
    script.write_text(script.read_text() + "\n# our own rule\n")
    before = snapshot(drifty)
    for args in (["sync"], ["init"]):
        assert hw(drifty, *args).out_lines == [IN_SYNC]
    # Only the bytecode cache follows the edit (git-ignored; the launcher would write it too).
    after = snapshot(drifty)
    assert {rel: v for rel, v in after.items() if "__pycache__" not in rel} == \
        {rel: v for rel, v in before.items() if "__pycache__" not in rel}
    cache = next(rel for rel in after if rel.startswith(".hookwrap/hooks/__pycache__/guard."))
    assert after[cache][0][8:16] == importlib.util.source_hash(script.read_bytes())


def claude_code_rewrite(value: Any) -> Any:
    """What a Claude Code rewrite may do: other key order, unknown keys dropped."""
    if isinstance(value, dict):
        return {k: claude_code_rewrite(v) for k, v in reversed(list(value.items())) if not k.startswith("__")}
    if isinstance(value, list):
        return [claude_code_rewrite(v) for v in value]
    return value


def test_claude_code_rewrite_is_repaired_and_foreign_content_left_as_rewritten(drifty: Path) -> None:
    rewritten = claude_code_rewrite(read_json(drifty, CLAUDE))
    (drifty / CLAUDE).write_text(json.dumps(rewritten, indent=2))  # no trailing newline either
    foreign_before = canonical(strip_owned(rewritten))
    gemini_before = (drifty / GEMINI).read_bytes()
    # recognised from the command alone
    assert sorted(set(owned_names(drifty, CLAUDE))) == ["audit", "context", "guard"]
    assert hw(drifty, "sync", "--check").code == 1
    result = hw(drifty, "sync")
    assert result.code == 0
    assert result.out_lines == [
        "update  .claude/settings.json: update guard (key order); update guard (key order); "
        "update context (key order); update audit (key order); update audit (key order)"]
    assert foreign(drifty, CLAUDE) == foreign_before
    assert (drifty / GEMINI).read_bytes() == gemini_before
    assert statuses(drifty)["guard"]["claude"] == "current"
    assert_second_sync_is_a_no_op(drifty)


def test_list_and_sync_check_agree_after_a_claude_code_rewrite(drifty: Path) -> None:
    (drifty / CLAUDE).write_text(json.dumps(claude_code_rewrite(read_json(drifty, CLAUDE)), indent=2) + "\n")
    check = hw(drifty, "sync", "--check")
    in_list = statuses(drifty)
    assert check.code == 1
    assert any(in_list[name]["claude"] != "current" for name in ("guard", "context", "audit"))


def test_orphan_left_by_a_manifest_edit_is_listed_and_removed_by_sync(drifty: Path) -> None:
    text = (drifty / MANIFEST).read_text()
    start = text.index("[hooks.audit]")
    (drifty / MANIFEST).write_text(text[:start].rstrip("\n") + "\n")
    foreign_claude, foreign_gemini = foreign(drifty, CLAUDE), foreign(drifty, GEMINI)
    listed = hw(drifty, "list")
    assert listed.out_lines[-1] == "hint: orphaned entries are removed by `hookwrap sync`"
    rows = json.loads(hw(drifty, "list", "--json").out)
    orphans = [(r["name"], list(r["platforms"])) for r in rows if r.get("orphan")]
    # One row per entry: on Claude Code, PreToolUse and PreSkillShellCommand.
    assert orphans == [("audit", ["claude"]), ("audit", ["claude"]), ("audit", ["gemini"])]
    result = hw(drifty, "sync")
    assert result.out_lines == ["update  .claude/settings.json: remove audit (PreToolUse, "
                                "PreSkillShellCommand)",
                                "update  .gemini/settings.json: remove audit (BeforeTool)", GEMINI_NOTE]
    assert owned_names(drifty, CLAUDE) == ["guard", "guard", "context"]
    assert owned_names(drifty, GEMINI) == ["guard", "context"]
    assert foreign(drifty, CLAUDE) == foreign_claude and foreign(drifty, GEMINI) == foreign_gemini
    assert read_json(drifty, CLAUDE)["hooks"]["PreToolUse"][0] == FOREIGN_CLAUDE["hooks"]["PreToolUse"][0]
    assert (drifty / ".hookwrap/hooks/audit.py").is_file()  # the script is the user's code: kept
    assert_second_sync_is_a_no_op(drifty)


def test_foreign_hooks_in_hookwrap_style_paths_elsewhere_are_not_claimed(drifty: Path) -> None:
    data = read_json(drifty, CLAUDE)
    lookalike = {"type": "command", "command": "python3 tools/my.hookwrap/hooks/x.py"}
    data["hooks"]["Stop"][0]["hooks"].append(lookalike)
    write_json(drifty, CLAUDE, data)
    assert hw(drifty, "sync").out_lines == [IN_SYNC]
    assert lookalike in read_json(drifty, CLAUDE)["hooks"]["Stop"][0]["hooks"]


def test_sync_leaves_a_reformatted_but_equal_file_alone(drifty: Path) -> None:
    text = json.dumps(read_json(drifty, GEMINI), indent=4)
    (drifty / GEMINI).write_text(text)
    os.utime(drifty / GEMINI, ns=(1, 1))
    assert hw(drifty, "sync").out_lines == [IN_SYNC]
    assert (drifty / GEMINI).read_text() == text and (drifty / GEMINI).stat().st_mtime_ns == 1
