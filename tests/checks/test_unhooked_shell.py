"""doctor names the project files whose shell commands a CLI runs without calling any hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.projects import from_template

from hookwrap.checks import doctor
from hookwrap.checks.unhooked import check_unhooked_shell
from hookwrap.clis.gemini import GEMINI
from hookwrap.clis.kilo import KILO
from hookwrap.clis.opencode import OPENCODE
from hookwrap.clis.qwen import QWEN
from hookwrap.generator.clis.kit import WARN
from hookwrap.generator.pins import PINS
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.names import Platform

PUSH = "git push --force origin main"


def _gemini_guarded(project: Path) -> None:
    init_plan(project, platforms=(Platform.CLAUDE, Platform.GEMINI)).apply()
    add_plan(project, event="before_tool", name="guard").apply()


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def test_doctor_names_a_gemini_command_with_shell_injection(tmp_path: Path, isolated_home: Path) -> None:
    root = from_template(tmp_path / "repo", _gemini_guarded)
    write(root, ".gemini/commands/ship.toml", f'prompt = "Status: !{{touch marker && {PUSH}}}"\n')
    write(root, ".gemini/commands/plain.toml", 'prompt = "Summarise {{args}}"\n')

    found = [f for f in doctor.diagnose(root, home=isolated_home, run_hooks=False)
             if f.check == "unhooked-shell"]

    assert len(found) == 1, found
    assert found[0].status == WARN and found[0].fix
    assert found[0].message.startswith(f".gemini/commands/ship.toml: Gemini CLI {PINS['gemini'].version} ")
    assert "`!{...}`" in found[0].message and "never sees" in found[0].message


@pytest.mark.parametrize(("record", "rel", "text"), [
    (QWEN, ".qwen/commands/deep/ship.toml", f'prompt = "!{{{PUSH}}}"\n'),
    (QWEN, ".qwen/commands/ship.md", f"Run !{{{PUSH}}}\n"),
    (OPENCODE, ".opencode/command/ship.md", f"Status: !`{PUSH}`\n"),
    (OPENCODE, ".opencode/commands/ship.md", f"Status: !`{PUSH}`\n"),
    (KILO, ".kilo/commands/ship.md", f"Status: !`{PUSH}`\n"),
])
def test_each_cli_s_command_files(tmp_path: Path, record, rel: str, text: str) -> None:
    write(tmp_path, rel, text)
    found = check_unhooked_shell(tmp_path, None)
    assert [f.message.split(":")[0] for f in found] == [rel], found
    assert f"{record.label} {PINS[record.platform.value].version}" in found[0].message


def test_only_the_repo_s_clis_and_only_files_with_the_marker(tmp_path: Path) -> None:
    write(tmp_path, ".gemini/commands/ship.toml", f'prompt = "!{{{PUSH}}}"\n')
    write(tmp_path, ".opencode/commands/plain.md", "Explain `ls` and {x}\n")
    write(tmp_path, ".opencode/commands/shell.toml", f"!`{PUSH}`\n")  # not a command file
    assert check_unhooked_shell(tmp_path, (Platform.CLAUDE, Platform.OPENCODE)) == []
    assert len(check_unhooked_shell(tmp_path, (Platform.GEMINI,))) == 1
