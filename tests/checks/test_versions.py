"""Doctor's version check, with fake CLI executables on a PATH: which release is installed, read
from its npm package where it can be (nothing runs), else from ``--version`` with a timeout; and
what that release means for this repo's hooks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookwrap.checks import versions
from hookwrap.checks.doctor import diagnose
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import OK, WARN
from hookwrap.names import Platform

CLAUDE = setup_of(Platform.CLAUDE)
CODEX = setup_of(Platform.CODEX)
SKILL_NOTE = ("runs slash commands' and skills' inline shell commands (!`cmd`) without any hook: "
              "the guard cannot see them; 2.1.332 or newer can")


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def _npm_install(prefix: Path, package: str, command: str, version: str, ran: Path) -> Path:
    """An npm prefix holding ``package`` at ``version`` whose command would leave ``ran`` if
    it were ever run; returns the prefix's .bin folder."""
    folder = prefix / "node_modules" / package
    _script(folder / "bin" / "cli.js", f'touch "{ran}"\necho "{version}"')
    (folder / "package.json").write_text(json.dumps(
        {"name": package, "version": version, "bin": {command: "bin/cli.js"}}), encoding="utf-8")
    bin_dir = prefix / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / command).symlink_to(os.path.relpath(folder / "bin" / "cli.js", bin_dir))
    return bin_dir


def _env(*folders: Path) -> dict[str, str]:
    return {"PATH": os.pathsep.join(map(str, folders))}


def test_an_npm_install_is_read_from_its_package_without_running_it(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    bin_dir = _npm_install(tmp_path / "npm", "@anthropic-ai/claude-code", "claude", "2.1.328", ran)
    path, version, why = versions.installed_version(CLAUDE, tmp_path / "proj", _env(bin_dir))
    assert (path, version, why) == (bin_dir / "claude", "2.1.328", "")
    assert not ran.exists()


def test_2_1_328_says_the_guard_cannot_see_inline_commands(tmp_path: Path) -> None:
    # In the tested range (2.1.328 to the pin), but without PreSkillShellCommand.
    found = versions.version_findings(CLAUDE, "2.1.328", Path("/x/claude"), {"before_tool"})
    assert [(f.status, f.message) for f in found] == [(WARN, f"Claude Code 2.1.328 {SKILL_NOTE}")]
    assert found[0].fix == "update Claude Code to 2.1.332 or newer"
    # Only a repo with before_tool hooks is concerned; 2.1.332 is not.
    assert versions.version_findings(CLAUDE, "2.1.328", Path("/x/claude"), {"after_tool"}) == []
    since = CLAUDE.facts.version_notes[0][0]
    assert versions.version_findings(CLAUDE, since, Path("/x/claude"), {"before_tool"}) == []


def test_a_release_outside_the_tested_range_is_named(tmp_path: Path) -> None:
    newer = versions.version_findings(CLAUDE, "2.2.0", Path("/x/claude"), set())
    assert len(newer) == 1 and newer[0].status == WARN
    assert newer[0].message == ("Claude Code 2.2.0 (/x/claude) is newer than the releases "
                                f"hookwrap's tests cover ({CLAUDE.oldest_version} to "
                                f"{CLAUDE.version}): its hooks may read or answer differently")
    older = versions.version_findings(CODEX, "0.100.0", Path("/x/codex"), set())
    assert [f.message for f in older] == [
        f"Codex CLI 0.100.0 (/x/codex) is older than the releases hookwrap's tests cover "
        f"({CODEX.oldest_version} to {CODEX.version})"]


def test_without_a_package_the_version_comes_from_a_version_run(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    _script(bin_dir / "codex", 'pwd > "$0.cwd"; echo "codex-cli 0.170.1"')
    path, version, _ = versions.installed_version(CODEX, tmp_path / "proj", _env(bin_dir))
    assert (path, version) == (bin_dir / "codex", "0.170.1")
    # It ran from its own folder, never the project.
    assert (bin_dir / "codex.cwd").read_text().strip() == str(bin_dir.resolve())


def test_a_version_run_that_hangs_is_cut_short(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    monkeypatch.setattr(versions, "VERSION_TIMEOUT_S", 0.5)
    bin_dir = tmp_path / "bin"
    _script(bin_dir / "codex", "exec /bin/sleep 30")
    path, version, why = versions.installed_version(CODEX, tmp_path / "proj", _env(bin_dir))
    assert (path, version, why) == (bin_dir / "codex", "",
                                    "`codex --version` did not answer within 0.5 s")


def test_a_command_inside_the_project_is_never_run(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    ran = tmp_path / "ran"
    _script(project / "bin" / "claude", f'touch "{ran}"; echo 2.1.332')
    path, version, why = versions.installed_version(CLAUDE, project, _env(project / "bin"))
    assert (version, why) == ("", "not run: it is inside this project")
    assert not ran.exists()


def test_a_native_install_is_read_from_its_file_name(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    release = _script(tmp_path / "share" / "claude" / "versions" / "2.1.330", f'touch "{ran}"')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "claude").symlink_to(release)
    assert versions.installed_version(CLAUDE, tmp_path / "proj", _env(bin_dir))[1] == "2.1.330"
    assert not ran.exists()


def test_doctor_reports_the_versions_of_the_projects_clis(tmp_path: Path) -> None:
    from support.cli import hw  # the hookwrap command, in-process

    project = tmp_path / "proj"
    project.mkdir()
    assert hw(project, "init", "--platform", "claude", "--platform", "codex").code == 0
    assert hw(project, "add", "before_tool", "guard").code == 0
    ran = tmp_path / "ran"
    claude_bin = _npm_install(tmp_path / "a", "@anthropic-ai/claude-code", "claude", "2.1.328", ran)
    codex_bin = _npm_install(tmp_path / "b", "@openai/codex", "codex", CODEX.version, ran)
    env = {**os.environ, **_env(claude_bin, codex_bin, Path(os.defpath.split(os.pathsep)[-1]))}
    found = [f for f in diagnose(project, home=tmp_path / "home", env=env, run_hooks=False)
             if f.check == versions.CHECK]
    assert [(f.status, f.message) for f in found] == [
        (WARN, f"Claude Code 2.1.328 {SKILL_NOTE}"),
        (OK, f"tested releases on PATH: Codex CLI {CODEX.version}")]
    assert not ran.exists()
