"""The guard protects every file that defines which hooks run, on every CLI hookwrap knows.

The guard's list of hook files (guard_rules.HOOK_FILES) is written by hand so that a hook
process never imports every CLI's record; this test derives the files from the CLIs' facts (the
settings file hookwrap edits, and every other file each CLI reads hooks from, in the project
and in the home directory) and asks the guard about a shell write to each. A CLI added without
its files in the list fails here. Nothing is executed: the guard only classifies.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from hookwrap.generator.clis import setup_of
from hookwrap.guard_engine import Guard
from hookwrap.platforms import Platform

_FALLBACK = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}")


def _hook_files(platform: Platform, root: Path, home: Path) -> list[Path]:
    record = setup_of(platform).facts
    found = [root / record.settings_file] if record.settings_file else []
    for _label, where, _is_project in record.scope_files:
        path = _FALLBACK.sub(lambda m: m.group(1), where)   # ${CODEX_HOME:-~/.codex} -> ~/.codex
        path = path.replace("{root}", str(root))
        path = re.sub(r"^~(?=/|$)", str(home), path)
        found.append(Path(path))
    return found


@pytest.fixture
def project() -> Path:
    root = Path(os.environ["HOME"]) / "work" / "proj"   # the test's throwaway home
    (root / ".hookwrap" / "hooks").mkdir(parents=True, exist_ok=True)
    return root


@pytest.mark.parametrize("platform", list(Platform), ids=lambda p: p.value)
def test_every_file_a_cli_reads_hooks_from_is_protected(platform: Platform, project: Path) -> None:
    guard = Guard(str(project / ".hookwrap" / "hooks" / "guard.py"))
    files = _hook_files(platform, project, Path(os.environ["HOME"]))
    assert files, f"{platform.value}'s record names no file that holds hooks"
    unprotected = []
    for path in files:
        finding = guard.check_line(f"echo '{{}}' > '{path}'", str(project))
        if finding is None or finding.rule.id != "hooks.files":
            unprotected.append(str(path))
    assert not unprotected, (f"the guard lets an agent rewrite {platform.value}'s hook files "
                             f"(add them to guard_rules.HOOK_FILES): {unprotected}")


def test_the_derivation_finds_home_files(project: Path) -> None:
    home = Path(os.environ["HOME"])
    files = _hook_files(Platform.CODEX, project, home)
    assert home / ".codex" / "hooks.json" in files
