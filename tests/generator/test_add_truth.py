"""`hookwrap add` says what it did and what will happen: a template name with a typo is refused
(not rendered as an empty skeleton), a CLI's own event name gets the normalized one, a Cline hook
below the git root is said to never run, and a CRLF hookwrap.toml keeps its line endings."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookwrap.generator.errors import EntryError, UsageError
from hookwrap.generator.project import add_plan, init_plan, remove_plan
from hookwrap.names import Platform


@pytest.fixture
def root(tmp_path: Path) -> Path:
    init_plan(tmp_path, (Platform.CLAUDE,)).apply()
    return tmp_path


def test_a_typo_of_a_template_name_is_refused_with_both_ways_out(root: Path) -> None:
    with pytest.raises(UsageError) as caught:
        add_plan(root, event="before_tool", name="gaurd")
    assert caught.value.message == ("'gaurd' is not a template, but close to 'guard': add would "
                                    "render an empty before_tool skeleton named gaurd")
    assert caught.value.hint == ("for the guard template: `hookwrap add before_tool guard` (or "
                                 "`--template guard`); for a skeleton: `hookwrap add before_tool "
                                 "gaurd --template skeleton`")
    assert not (root / ".hookwrap/hooks/gaurd.py").exists()


def test_an_explicit_template_keeps_a_name_close_to_another(root: Path) -> None:
    add_plan(root, event="before_tool", name="gaurd", template="skeleton").apply()
    add_plan(root, event="before_tool", name="my-guard").apply()  # not close enough to ask
    assert (root / ".hookwrap/hooks/gaurd.py").is_file()


@pytest.mark.parametrize(("typed", "hint"), [
    ("PreToolUse", "PreToolUse is Claude Code's name for before_tool: hookwrap names an event "
                   "the same way for every CLI, so use before_tool"),
    ("BeforeTool", "BeforeTool is Gemini CLI's name for before_tool: hookwrap names an event "
                   "the same way for every CLI, so use before_tool"),
    ("pre_tool_use", "PreToolUse is Claude Code's name for before_tool: hookwrap names an event "
                     "the same way for every CLI, so use before_tool"),
])
def test_a_cli_own_event_name_is_answered_with_hookwraps(root: Path, typed: str, hint: str) -> None:
    with pytest.raises(EntryError) as caught:
        add_plan(root, event=typed, name="x")
    assert caught.value.message == f'"{typed}" is not an event'
    assert caught.value.hint == hint


def test_a_close_event_name_gets_a_did_you_mean(root: Path) -> None:
    with pytest.raises(EntryError) as caught:
        add_plan(root, event="before_tol", name="x")
    assert caught.value.hint.startswith("did you mean before_tool? valid events: after_agent, ")


def test_cline_below_the_git_root_is_said_to_run_nothing(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    init_plan(pkg, (Platform.CLAUDE, Platform.CLINE)).apply()
    plan = add_plan(pkg, event="before_tool", name="guard")
    assert plan.warnings == [
        f"Cline: the git root is {tmp_path}, above this project: Cline looks for "
        ".clinerules/hooks/ there, so no hookwrap hook runs on Cline (put hookwrap.toml at the "
        "git root)"]


def test_cline_at_the_git_root_is_not_warned_about(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    init_plan(tmp_path, (Platform.CLAUDE, Platform.CLINE)).apply()
    assert add_plan(tmp_path, event="before_tool", name="guard").warnings == []


def test_a_crlf_manifest_keeps_its_line_endings_through_add_and_remove(root: Path) -> None:
    manifest = root / "hookwrap.toml"
    crlf = manifest.read_bytes().replace(b"\n", b"\r\n")
    manifest.write_bytes(crlf)
    add_plan(root, event="after_tool", name="audit").apply()
    written = manifest.read_bytes()
    assert b"[hooks.audit]\r\n" in written
    assert written.count(b"\n") == written.count(b"\r\n")
    remove_plan(root, name="audit").apply()
    assert manifest.read_bytes() == crlf


def test_an_add_that_cannot_write_the_manifest_writes_nothing(root: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from hookwrap.generator import fsutil
    from hookwrap.generator.errors import WriteError

    real = fsutil.commit_staged

    def refuse_manifest(staged) -> None:
        if staged.target.name == "hookwrap.toml":
            raise PermissionError(errno.EPERM, "Operation not permitted")
        real(staged)

    monkeypatch.setattr(fsutil, "commit_staged", refuse_manifest)
    before = (root / "hookwrap.toml").read_bytes()
    with pytest.raises(WriteError) as caught:
        add_plan(root, event="after_tool", name="audit").apply()
    assert "changed: nothing;" in caught.value.message
    assert caught.value.hint == "fix the cause, then run the command again"
    assert not (root / ".hookwrap/hooks/audit.py").exists()  # no orphan script
    assert (root / "hookwrap.toml").read_bytes() == before
