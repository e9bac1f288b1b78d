"""What `list`, `trust` and `remove` say about the project is so: a registration whose command
cannot start is not "current", a CLI the project does not use is named as such, and a note
about git is only made where there is git."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hookwrap.generator.inventory import format_table, list_hooks
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.names import Platform


@pytest.fixture
def root(tmp_path: Path) -> Path:
    init_plan(tmp_path, (Platform.CLAUDE, Platform.GEMINI)).apply()
    add_plan(tmp_path, event="before_tool", name="guard").apply()
    return tmp_path


def test_list_does_not_call_a_hook_current_without_the_runtime(root: Path) -> None:
    shutil.rmtree(root / ".hookwrap" / "lib")
    (row,) = list_hooks(root)
    assert {p["status"] for p in row["platforms"].values()} >= {"no runtime"}
    assert row["platforms"]["claude"] == {"status": "no runtime", "registered": True,
                                          "current": False, "event": "PreToolUse",
                                          "matcher": "Bash|PowerShell|Write|Edit|Read"}
    assert format_table([row]).endswith(
        "hint: no runtime: .hookwrap/lib is missing or incomplete, so no hook can start; "
        "`hookwrap sync` restores it")


def test_list_does_not_call_a_hook_current_without_its_script(root: Path) -> None:
    (root / ".hookwrap" / "hooks" / "guard.py").unlink()
    (row,) = list_hooks(root)
    assert row["platforms"]["gemini"]["status"] == "no script"
    assert "hint: no script: " in format_table([row])


def test_list_says_current_when_everything_is_in_place(root: Path) -> None:
    (row,) = list_hooks(root)
    assert row["platforms"]["claude"]["status"] == "current"


def test_trust_names_a_cli_the_project_does_not_use(root: Path) -> None:
    from hookwrap.generator.errors import ProjectError
    from hookwrap.generator.trust import trust_plan

    with pytest.raises(ProjectError) as caught:
        trust_plan(root, [Platform.CODEX])
    assert caught.value.message == ("codex is not among hookwrap.toml's platforms: no hook of "
                                    "this project runs there, so there is nothing to trust")
    assert caught.value.hint.startswith("add it with `hookwrap init --platform codex`")
    assert trust_plan(root, [Platform.GEMINI])  # a CLI it uses: planned as before


def test_remove_without_git_does_not_speak_of_commits(root: Path) -> None:
    from hookwrap.generator.project import remove_plan

    script = root / ".hookwrap" / "hooks" / "guard.py"
    script.write_text(script.read_text() + "# mine\n")
    plan = remove_plan(root, name="guard")
    assert plan.notes == ["kept .hookwrap/hooks/guard.py: it has edits, and no git repository "
                          "holds a copy (delete it by hand once you no longer need it)"]


def test_explain_on_a_hook_that_is_no_guard_says_so(root: Path) -> None:
    from hookwrap.checks.hooktest import explain_guard
    from hookwrap.generator.errors import UsageError

    add_plan(root, event="before_tool", name="nop", matcher="shell").apply()
    with pytest.raises(UsageError) as caught:
        explain_guard(root, "nop", "ls")
    assert caught.value.message == "nop is a skeleton hook, not a guard: --explain reads only a guard"
    assert "older guard" not in caught.value.hint


def test_sync_says_a_hook_still_lists_a_cli_the_project_dropped(tmp_path: Path) -> None:
    from hookwrap.generator.project import sync_plan

    init_plan(tmp_path, (Platform.CLAUDE, Platform.CODEX)).apply()
    add_plan(tmp_path, event="before_tool", name="guard").apply()
    manifest = tmp_path / "hookwrap.toml"
    text = manifest.read_text()
    top = 'platforms = ["claude", "codex"]\n'
    assert text.count(top) == 2  # the top-level list, then the hook's own
    manifest.write_text(text.replace(top, 'platforms = ["claude"]\n', 1))
    plan = sync_plan(tmp_path)
    assert plan.warnings == [
        "hookwrap.toml: platforms leaves out codex, but guard lists it: still registered on "
        "Codex CLI (remove codex from the hook's platforms too, or add it back to platforms)"]
    assert not plan.pending  # nothing changes: the hook's own list decides


def test_serve_without_a_resident_hook_says_no_cli_posts_to_it(root: Path) -> None:
    from hookwrap.generator.project import load_manifest, serve_port

    port, warnings = serve_port(load_manifest(root), 49001)
    assert port == 49001
    assert warnings == ["no hook in hookwrap.toml has resident = true, so no CLI posts to this "
                        "server (add one with `hookwrap add EVENT NAME --resident`)"]


def test_serve_port_takes_the_range_its_hint_gives(root: Path) -> None:
    from hookwrap.generator.errors import UsageError
    from hookwrap.generator.project import load_manifest, serve_port

    for bad in (80, 0, 99999):
        with pytest.raises(UsageError) as caught:
            serve_port(load_manifest(root), bad)
        assert caught.value.message == f"--port {bad} is not a port from 1024 to 65535"
    add_plan(root, event="after_tool", name="audit", resident=True).apply()
    assert serve_port(load_manifest(root), None)[1] == []
    assert serve_port(load_manifest(root), 49001)[1][0].startswith(
        "the registrations post to port 48620; set [serve] port = 49001")
