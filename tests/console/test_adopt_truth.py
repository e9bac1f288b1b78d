"""What `hookwrap adopt` says and records is so: a dry run does not claim it created the
manifest, an MCP pattern that `add --matcher` takes moves too, and a hand-made entry without a
timeout keeps the wait its CLI gave it."""

from __future__ import annotations

import json
from pathlib import Path

from support.cli import hw

SETTINGS = {"hooks": {"PreToolUse": [
    {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "./mcp-audit.sh"}]},
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "./no-force.sh"}]},
]}}


def _repo(root: Path) -> Path:
    (root / ".claude").mkdir()
    (root / ".claude/settings.json").write_text(json.dumps(SETTINGS, indent=2) + "\n")
    return root


def test_a_dry_run_does_not_say_it_created_the_manifest(empty_dir: Path) -> None:
    result = hw(_repo(empty_dir), "adopt", "--dry-run")
    assert result.code == 0, result.err
    assert "would create  hookwrap.toml" in result.out
    assert "created" not in result.out and "adopted" not in result.out, result.out
    assert "note: hookwrap.toml is new: this repo had none" in result.out
    assert "note: .claude/settings.json hooks.PreToolUse[1].hooks[0] becomes [hooks.no-force]" \
        in result.out
    assert not (empty_dir / "hookwrap.toml").exists()


def test_an_mcp_pattern_moves_as_add_would_take_it(empty_dir: Path) -> None:
    result = hw(_repo(empty_dir), "adopt")
    assert result.code == 0, result.err
    assert "stays where it is" not in result.err, result.err
    manifest = (empty_dir / "hookwrap.toml").read_text()
    assert 'matcher = "mcp__.*"' in manifest


def test_an_entry_without_a_timeout_keeps_its_cli_default(empty_dir: Path) -> None:
    assert hw(_repo(empty_dir), "adopt").code == 0
    manifest = (empty_dir / "hookwrap.toml").read_text()
    table = manifest.split("[hooks.no-force]", 1)[1]
    # Claude Code waits 600 s for a command hook without a timeout (not hookwrap's 60 s).
    assert "\ntimeout = 600\n" in table.split("\n[", 1)[0]
    data = json.loads((empty_dir / ".claude/settings.json").read_text())
    handlers = [h for group in data["hooks"]["PreToolUse"] for h in group["hooks"]]
    assert {h.get("timeout") for h in handlers} == {600}
