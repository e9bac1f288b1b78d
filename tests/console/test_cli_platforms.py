"""Which CLIs a project is for: `init` and `adopt` say which they chose and why, `init --platform`
adds a CLI to a project (its hooks included), and `init` refuses to nest a project in another."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support.cli import MANIFEST, hw, read_json, snapshot

from hookwrap.generator.manifest import Manifest
from hookwrap.names import Platform

ADD_HINT = "add one with `hookwrap init --platform NAME`"


def others(*chosen: str) -> str:
    """The note that lists the CLIs a new project does not have yet."""
    rest = [p.value for p in Platform if p.value not in chosen]
    return f"note: hookwrap also supports {', '.join(rest[:-1])} and {rest[-1]}; {ADD_HINT}"


def platforms(root: Path) -> list[str]:
    return [p.value for p in Manifest.load(root / MANIFEST).platforms]


@pytest.mark.parametrize(("folders", "args", "chosen", "note"), [
    ([".claude"], [], ["claude"], "note: platforms: claude (the repo has .claude/)"),
    ([".codex", ".claude"], [], ["claude", "codex"],
     "note: platforms: claude, codex (the repo has .claude/ and .codex/)"),
    ([".claude"], ["-p", "codex", "-p", "qwen"], ["codex", "qwen"],
     "note: platforms: codex, qwen (from --platform)"),
    ([], [], ["claude", "gemini"],
     "note: platforms: claude, gemini (the default: the repo has no CLI's folder yet)"),
    # Any GitHub repository has .github/: only Copilot CLI's hooks folder says it uses Copilot.
    ([".github/workflows"], [], ["claude", "gemini"],
     "note: platforms: claude, gemini (the default: the repo has no CLI's folder yet)"),
    ([".github/hooks"], [], ["copilot"], "note: platforms: copilot (the repo has .github/hooks/)"),
], ids=["claude folder", "two folders", "flag wins", "default", "github repo", "copilot hooks"])
def test_init_says_which_clis_it_chose_and_why(empty_dir: Path, folders: list[str],
                                                args: list[str], chosen: list[str],
                                                note: str) -> None:
    for folder in folders:
        (empty_dir / folder).mkdir(parents=True)
    result = hw(empty_dir, "init", *args)
    assert result.code == 0, result.err
    assert result.out_lines[-2:] == [note, others(*chosen)]
    assert platforms(empty_dir) == chosen


def test_init_with_every_cli_names_no_other(empty_dir: Path) -> None:
    result = hw(empty_dir, "init", "-p", "all")
    assert result.out_lines[-1] == "note: platforms: " + ", ".join(p.value for p in Platform) \
        + " (from --platform)"


def test_adopt_without_a_manifest_says_which_clis_it_chose(empty_dir: Path) -> None:
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.json").write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "./check.sh"}]}]}}))
    result = hw(empty_dir, "adopt")
    assert result.code == 0, result.err
    assert result.out_lines[-3:-1] == ["note: platforms: claude (the repo has .claude/)",
                                       others("claude")]
    assert platforms(empty_dir) == ["claude"]


COMMENTED = "# our team's hooks: keep this line\n"


@pytest.fixture
def two_cli_project(empty_dir: Path) -> Path:
    """A Claude Code + Gemini CLI project: a hook on both, one limited to Claude Code, and one
    on an event only Gemini CLI has; hookwrap.toml carries a comment of the team's."""
    assert hw(empty_dir, "init").code == 0
    for args in (["before_tool", "guard"], ["after_tool", "audit", "-p", "claude"],
                 ["before_model", "m"], ["session_start", "context"]):
        assert hw(empty_dir, "add", *args).code == 0
    path = empty_dir / MANIFEST
    path.write_text(COMMENTED + path.read_text())
    return empty_dir


def test_init_platform_adds_a_cli_and_registers_the_hooks_that_run_everywhere(
        two_cli_project: Path) -> None:
    root = two_cli_project
    result = hw(root, "init", "--platform", "codex")
    assert result.code == 0, result.err
    assert "create  .codex/hooks.json: create guard (PreToolUse); create context (SessionStart)" \
        in result.out_lines
    assert "note: platforms: claude, gemini, codex (added codex)" in result.out_lines
    assert "note: audit keeps its own platforms (claude): add codex to them in [hooks.audit] if " \
        "it should run there too" in result.out_lines
    assert "warning: Codex CLI has no before_model event: m is not registered there" \
        in result.err_lines
    text = (root / MANIFEST).read_text()
    assert text.startswith(COMMENTED)
    manifest = Manifest.load(root / MANIFEST)
    assert [p.value for p in manifest.platforms] == ["claude", "gemini", "codex"]
    assert {s.name: [p.value for p in s.platforms] for s in manifest.hooks} == {
        "guard": ["claude", "gemini", "codex"], "audit": ["claude"], "m": ["gemini"],
        "context": ["claude", "gemini", "codex"]}
    rows = {row["name"]: row["platforms"]["codex"]["status"]
            for row in json.loads(hw(root, "list", "--json").out)}
    assert rows == {"guard": "current", "audit": "not selected", "m": "not selected",
                    "context": "current"}
    assert list(read_json(root, ".codex/hooks.json")["hooks"]) == ["PreToolUse", "SessionStart"]
    assert hw(root, "sync", "--check").code == 0
    before = snapshot(root)
    again = hw(root, "init", "-p", "codex")
    assert (again.code, again.out_lines) == (0, ["nothing to change: everything matches "
                                                 "hookwrap.toml"])
    assert snapshot(root) == before
    # A hook added from now on goes to the new CLI too.
    assert hw(root, "add", "after_agent", "stop_gate").code == 0
    assert "Stop" in read_json(root, ".codex/hooks.json")["hooks"]


def test_init_platform_dry_run_writes_nothing(two_cli_project: Path) -> None:
    before = snapshot(two_cli_project)
    result = hw(two_cli_project, "init", "-p", "droid", "--dry-run")
    assert result.code == 0, result.err
    assert "would create  .factory/settings.json: create guard (PreToolUse); create context " \
        "(SessionStart)" in result.out_lines
    assert snapshot(two_cli_project) == before


def test_init_inside_a_project_is_refused(two_cli_project: Path) -> None:
    inner = two_cli_project / "src" / "pkg"
    inner.mkdir(parents=True)
    before = snapshot(two_cli_project)
    for args in (["init"], ["init", "--dry-run"], ["init", "-p", "codex"]):
        result = hw(inner, *args)
        assert (result.code, result.out) == (1, "")
        assert result.err_lines == [
            f"error: {inner} is inside the hookwrap project at {two_cli_project}: init here "
            "would start a second project nested in it",
            f"hint: every hookwrap command run here uses that project; to re-run init, run "
            f"`hookwrap -C {two_cli_project} init` (only a folder that is its own git "
            "repository can hold a project of its own)"]
        assert snapshot(two_cli_project) == before


def test_a_folder_that_is_its_own_git_repository_may_hold_a_project(two_cli_project: Path) -> None:
    nested = two_cli_project / "vendor" / "tool"
    inner = nested / "src"
    inner.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(nested)], check=True)
    assert hw(nested, "init").code == 0
    assert (nested / MANIFEST).is_file()
    # Below a repository's top, the project found is that repository's, not the outer one.
    listed = hw(inner, "list")
    assert (listed.code, listed.out_lines[0]) == (0, "no hooks yet: try `hookwrap add before_tool guard`")
