"""`hookwrap test guard --explain 'CMD'`, and `sync` upgrading a guard rendered by an older hookwrap.

Nothing here runs a command line: the guard only reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

from support.cli import hw

from hookwrap.generator.guard_upgrade import OLD_GUARD_TEMPLATE, old_rendering

GUARD = ".hookwrap/hooks/guard.py"


def test_explain_shows_the_commands_the_rule_and_the_safer_way(project: Path) -> None:
    assert hw(project, "add", "before_tool", "guard").code == 0
    result = hw(project, "test", "guard", "--explain", "echo x >$(git reset --hard)")
    assert result.code == 0, result.err
    lines = result.out_lines
    assert lines[1] == "  1. git reset --hard  [via $(...)]"
    assert "     matches rule git.reset-hard" in lines
    assert lines[-2].startswith("verdict: blocked by rule git.reset-hard (git): git reset --hard")
    assert lines[-1].startswith("  instead: ") and "git stash" in lines[-1]


def test_explain_says_why_nothing_matched_and_reads_the_policy(project: Path) -> None:
    assert hw(project, "add", "before_tool", "guard").code == 0
    result = hw(project, "test", "guard", "--explain", "terraform destroy", "--json")
    report = json.loads(result.out)
    assert report["verdict"] is None
    assert "infra.terraform-destroy: in the infrastructure pack, which is off" in \
        report["commands"][0]["notes"]
    script = project / GUARD
    script.write_text(script.read_text().replace('"infrastructure": False', '"infrastructure": True'))
    report = json.loads(hw(project, "test", "guard", "--explain", "terraform destroy", "--json").out)
    assert report["verdict"]["rule"] == "infra.terraform-destroy"


def test_explain_needs_a_guard(project: Path) -> None:
    assert hw(project, "add", "before_tool", "mine").code == 0
    result = hw(project, "test", "mine", "--explain", "ls")
    assert result.code == 2
    assert "mine is a skeleton hook, not a guard" in result.err and "hint:" in result.err
    result = hw(project, "test", "nope", "--explain", "ls")
    assert result.code == 1 and "does not exist" in result.err


# --- upgrading a guard rendered by hookwrap before the engine -----------------------------------

def _old_guard(project: Path) -> str:
    """The project's guard as the 751-line template of hookwrap 424f00d renders it."""
    assert hw(project, "add", "before_tool", "guard").code == 0
    text = old_rendering("guard")
    (project / GUARD).write_text(text, encoding="utf-8")
    return text


def test_sync_replaces_an_unedited_old_guard(project: Path) -> None:
    old = _old_guard(project)
    assert len(old.splitlines()) == 751 and "_WRAPPERS" in old
    result = hw(project, "sync")
    assert result.code == 0, result.err
    new = (project / GUARD).read_text()
    assert "GUARD = Guard(__file__" in new and "_WRAPPERS" not in new
    assert any("upgraded" in line and GUARD in line for line in result.out_lines + result.err.splitlines())
    assert hw(project, "sync", "--check").code == 0  # nothing left to do


def test_sync_carries_the_policy_edits_of_an_old_guard(project: Path) -> None:
    old = _old_guard(project)
    edited = old.replace('ALLOWED_NAMES = [".env.example", ".env.sample", ".env.template"]',
                         'ALLOWED_NAMES = [".env.example", ".env.sample", ".env.template", ".env.ci"]')
    edited = edited.replace('''    (
        "git push --force-with-lease",
        _pushes_with_lease,
        "Push without force; if the remote history must be rewritten, ask the user to do it.",
    ),
''', "")
    edited = edited.replace('    ".factory/settings.json", ".opencode/plugins/",\n]',
                            '    ".factory/settings.json", ".opencode/plugins/", "deploy/hooks.yml",\n]')
    assert edited.count("\n") < old.count("\n")
    (project / GUARD).write_text(edited, encoding="utf-8")
    result = hw(project, "sync")
    assert result.code == 0, result.err
    new = (project / GUARD).read_text()
    assert "GUARD = Guard(__file__" in new
    assert 'NOT_SECRETS: list[str] = [".env.ci"]' in new
    assert "BLOCK_FORCE_WITH_LEASE = False" in new
    assert '"./deploy/hooks.yml"' in new  # a file of its own to protect, as a rule
    check = hw(project, "test", "guard", "--explain", "echo x > deploy/hooks.yml", "--json")
    assert json.loads(check.out)["verdict"]["rule"] == "hooks.files-extra"


def test_sync_keeps_an_old_guard_it_cannot_carry_and_says_what_to_do(project: Path) -> None:
    old = _old_guard(project)
    edited = old.replace('def _pushes_with_force(command: Command) -> bool:\n',
                         'def _pushes_with_force(command: Command) -> bool:\n    print("mine")\n')
    (project / GUARD).write_text(edited, encoding="utf-8")
    result = hw(project, "sync")
    assert result.code == 0, result.err
    assert (project / GUARD).read_text() == edited  # the user's file, byte for byte
    said = result.out + result.err
    assert "older hookwrap" in said and "mv .hookwrap/hooks/guard.py" in said
    doctor = hw(project, "doctor")
    assert "older hookwrap" in doctor.out


def test_the_old_template_is_kept_for_recognising_renderings() -> None:
    assert OLD_GUARD_TEMPLATE.is_file()
    assert "HOOK_NAME = 'guard'" in old_rendering("guard")
