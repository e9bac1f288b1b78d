"""The guard knows every variable a CLI (or hookwrap itself) sets to the project's folder.

The guard's list (guard_engine.PROJECT_VARS) is written out so that a hook process never imports
every CLI's record; this test derives it from the records' ``project_dir_vars`` and asks the guard
about ``rm -rf`` of each variable, and of everything under it. Nothing is executed: the guard
only classifies.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookwrap import guard_engine
from hookwrap.guard_engine import Guard
from hookwrap.platforms import all_runtimes

RECORD_VARS = sorted({var for cli in all_runtimes() for var in cli.project_dir_vars})
# In the guard's list though no CLI sets it (see guard_engine.PROJECT_VARS).
KEPT = ["CODEX_PROJECT_DIR"]


def test_the_guard_s_list_is_the_records_list() -> None:
    assert "HOOKWRAP_PROJECT_DIR" in RECORD_VARS  # hookwrap sets it where a CLI names no root
    assert sorted(guard_engine.PROJECT_VARS) == sorted(RECORD_VARS + KEPT)


@pytest.mark.parametrize("variable", RECORD_VARS + KEPT)
@pytest.mark.parametrize("form", ['rm -rf "${var}"', 'rm -rf "${var}"/*', "rm -rf ${{{var}}}/"])
def test_removing_the_project_by_its_variable_is_blocked(variable: str, form: str) -> None:
    root = Path(os.environ["HOME"]) / "work" / "proj"   # the test's throwaway home
    (root / ".hookwrap" / "hooks").mkdir(parents=True, exist_ok=True)
    guard = Guard(str(root / ".hookwrap" / "hooks" / "guard.py"))
    line = form.replace("{var}", variable).replace("{{", "{").replace("}}", "}")
    finding = guard.check_line(line, str(root))
    assert finding is not None and finding.rule.id == "fs.rm-project-root", (line, finding)
