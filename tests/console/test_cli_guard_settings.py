"""The guard's settings in its `[hooks.<name>]` table of hookwrap.toml: what `sync` accepts and
refuses (with the key, the line and a hint), what the rendered guard does with them, and the
warnings for a DISABLED_RULES entry that names no rule (`doctor`, `test --explain`).

Nothing here runs a command line: `--explain` only reads it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import tomlkit
from support.cli import hw

from hookwrap.generator.catalogue import TEMPLATES
from hookwrap.generator.hookentry import _OPTION_CHECKS
from hookwrap.guard_engine import SETTINGS
from hookwrap.guard_rules import rule_ids

GUARD = ".hookwrap/hooks/guard.py"


def _set(project: Path, **settings: object) -> None:
    path = project / "hookwrap.toml"
    document = tomlkit.parse(path.read_text(encoding="utf-8"))
    for key, value in settings.items():
        document["hooks"]["guard"][key] = value  # type: ignore[index]
    path.write_text(tomlkit.dumps(document), encoding="utf-8")


def _rule(project: Path, line: str) -> str | None:
    result = hw(project, "test", "guard", "--explain", line, "--json")
    assert result.code == 0, result.err
    verdict = json.loads(result.out)["verdict"]
    return verdict["rule"] if verdict else None


@pytest.fixture
def guarded(project: Path) -> Path:
    assert hw(project, "add", "before_tool", "guard").code == 0
    return project


def test_the_engine_the_catalogue_and_the_manifest_checks_know_the_same_settings() -> None:
    assert set(TEMPLATES["guard"].settings) == set(SETTINGS)
    for key in SETTINGS:
        assert key in _OPTION_CHECKS, key


def test_settings_in_the_table_reach_the_rendered_guard(guarded: Path) -> None:
    before = {line: _rule(guarded, line) for line in (
        "git reset --hard", "psql -c 'DROP TABLE users'", "cat .env", "git push --force-with-lease",
        "git push --force origin scratch", "cat .env.ci")}
    assert before == {"git reset --hard": "git.reset-hard", "psql -c 'DROP TABLE users'": None,
                      "cat .env": "secrets.read", "git push --force-with-lease": None,
                      "git push --force origin scratch": "git.push-force", "cat .env.ci": "secrets.read"}
    _set(guarded, packs=["databases"], disabled_rules=["git.reset-hard"], allow_secret_reads=True,
         block_force_with_lease=True, allowed_commands=["git push --force origin scratch"],
         not_secrets=[".env.ci"])
    sync = hw(guarded, "sync")
    assert sync.code == 0, sync.err
    assert _rule(guarded, "git reset --hard") is None
    assert _rule(guarded, "psql -c 'DROP TABLE users'") == "db.sql-drop"
    assert _rule(guarded, "cat .env") is None
    assert _rule(guarded, "rm .env") == "secrets.env-remove"  # reads only: a delete stays blocked
    assert _rule(guarded, "git push --force-with-lease") == "git.push-force-with-lease"
    assert _rule(guarded, "git push --force origin scratch") is None
    assert _rule(guarded, "git push --force origin main") == "git.push-force"
    _set(guarded, allow_secret_reads=False)  # a true or false replaces the script's
    assert _rule(guarded, "cat .env.ci") is None and _rule(guarded, "cat .env") == "secrets.read"


def test_allowed_paths_in_the_table(guarded: Path) -> None:
    """A folder in the (throwaway) home, outside the project: blocked until allowed."""
    assert _rule(guarded, "rm -rf ~/scratch/old") == "fs.rm-outside-project"
    _set(guarded, allowed_paths=["~/scratch"])
    assert hw(guarded, "sync").code == 0
    assert _rule(guarded, "rm -rf ~/scratch/old") is None
    assert _rule(guarded, "rm -rf ~/Documents") == "fs.rm-outside-project"


BAD = {
    "packs": (["database"], r"hooks\.guard\.packs: \['database'\] must be a list of rule packs: "
                            r"infrastructure, databases, backups"),
    "block_force_with_lease": ("yes", r'hooks\.guard\.block_force_with_lease: "yes" must be true or false'),
    "allow_secret_reads": (1, r"hooks\.guard\.allow_secret_reads: 1 must be true or false"),
    "allowed_commands": ("git push", r"hooks\.guard\.allowed_commands: .* must be a list of non-empty strings"),
    "allowed_paths": ([""], r"hooks\.guard\.allowed_paths: .* must be a list of non-empty strings"),
    "not_secrets": ([1], r"hooks\.guard\.not_secrets: .* must be a list of non-empty strings"),
    "disabled_rules": (["git.reset-hrad"], r"hooks\.guard\.disabled_rules: .* names no rule of the "
                                           r"guard: 'git\.reset-hrad'"),
}


@pytest.mark.parametrize("key", list(BAD))
def test_a_bad_setting_is_a_manifest_error_naming_the_key_and_line(guarded: Path, key: str) -> None:
    value, message = BAD[key]
    _set(guarded, **{key: value})
    before = (guarded / GUARD).read_text()
    result = hw(guarded, "sync")
    assert result.code != 0
    assert result.err.startswith("error: hookwrap.toml: "), result.err
    assert re.search(message, result.err), result.err
    assert "(line " in result.err
    assert (guarded / GUARD).read_text() == before  # nothing written


def test_an_unknown_rule_id_gets_the_closest_one_as_a_hint(guarded: Path) -> None:
    _set(guarded, disabled_rules=["git.branch-force-delete", "git.reset-hrad", "team.nothing-like-it"])
    result = hw(guarded, "sync")
    assert result.code != 0
    assert "names no rule of the guard: 'git.reset-hrad', 'team.nothing-like-it'" in result.err
    assert "hint: did you mean 'git.reset-hrad' -> 'git.reset-hard'?" in result.err
    assert "--explain" in result.err
    _set(guarded, disabled_rules=list(rule_ids()))  # every real id is fine
    assert hw(guarded, "sync").code == 0, hw(guarded, "sync").err


def _disable_in_script(project: Path, names: list[str]) -> None:
    script = project / GUARD
    text = script.read_text()
    assert "DISABLED_RULES: list[str] = []" in text
    script.write_text(text.replace("DISABLED_RULES: list[str] = []", f"DISABLED_RULES: list[str] = {names!r}"))


def test_doctor_and_explain_warn_about_a_script_disabling_no_rule(guarded: Path) -> None:
    assert "DISABLED_RULES" not in hw(guarded, "doctor", "--no-run").out
    _disable_in_script(guarded, ["git.stash-drop", "git.stash-dorp"])
    doctor = hw(guarded, "doctor", "--no-run")
    line = next(line for line in doctor.out_lines if "DISABLED_RULES" in line)
    assert "names no rule of the guard: 'git.stash-dorp'" in line, doctor.out
    assert "did you mean 'git.stash-dorp' -> 'git.stash-drop'" in doctor.out
    explain = hw(guarded, "test", "guard", "--explain", "git stash drop")
    assert explain.code == 0
    assert "warning: guard's settings: DISABLED_RULES: 'git.stash-dorp' names no rule" in explain.err
    assert "verdict: allowed" in explain.out  # the real id still switches its rule off


def test_a_rule_of_the_scripts_own_may_be_disabled(guarded: Path) -> None:
    script = guarded / GUARD
    text = script.read_text().replace(
        "EXTRA_RULES: list[Rule] = [",
        'EXTRA_RULES: list[Rule] = [\n    Rule("team.no-publish", "publishing", "Ask the user.", pattern="npm publish*"),')
    script.write_text(text)
    _disable_in_script(guarded, ["team.no-publish"])
    assert "DISABLED_RULES" not in hw(guarded, "doctor", "--no-run").out
    explain = hw(guarded, "test", "guard", "--explain", "npm publish")
    assert explain.err == "" and "verdict: allowed" in explain.out
