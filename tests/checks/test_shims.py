"""hookwrap.checks.shims and doctor's python-shim check, on fake version-manager shims in a temp PATH."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hookwrap.checks import doctor
from hookwrap.checks.shims import Shim, find_shim, measure
from hookwrap.generator.clis.kit import OK, WARN

pytestmark = pytest.mark.skipif(os.name == "nt", reason="shell-script shims")


def _real_python(folder: Path) -> Path:
    """A folder whose python3 is the interpreter itself (a symlink, as a venv has it)."""
    folder.mkdir(parents=True)
    (folder / "python3").symlink_to(os.path.realpath(sys.executable))
    return folder


def _script_shim(folder: Path, manager: str, real: Path, delay: float = 0.02) -> Path:
    """A shim as pyenv and asdf write them: a script that hands over to the manager."""
    folder.mkdir(parents=True)
    shim = folder / "python3"
    shim.write_text(f'#!/bin/sh\n# {manager} shim\nsleep {delay}\nexec "{real}/python3" "$@"\n')
    shim.chmod(0o755)
    return shim


def _env(*folders: Path) -> dict[str, str]:
    return {**os.environ, "PATH": os.pathsep.join([*map(str, folders), "/usr/bin", "/bin"])}


@pytest.mark.parametrize("manager", ["pyenv", "asdf"])
def test_a_script_shim_is_found_with_its_manager_and_target(tmp_path: Path, manager: str) -> None:
    real = _real_python(tmp_path / "versions" / "3.x" / "bin")
    shim = _script_shim(tmp_path / f".{manager}" / "shims", manager, real)
    found = find_shim("python3", _env(shim.parent, real))
    assert found is not None
    assert (found.manager, found.path) == (manager, str(shim))
    assert os.path.realpath(found.target) == os.path.realpath(sys.executable)


def test_a_symlink_to_the_manager_binary_is_a_shim(tmp_path: Path) -> None:
    # mise's shims are symlinks to the mise binary itself.
    binary = tmp_path / "bin" / "mise"
    binary.parent.mkdir()
    binary.write_text("#!/bin/sh\nexit 3\n")
    binary.chmod(0o755)
    shims = tmp_path / "mise" / "shims"
    shims.mkdir(parents=True)
    (shims / "python3").symlink_to(binary)
    found = find_shim("python3", _env(shims))
    assert found is not None and found.manager == "mise" and found.target == ""
    assert "mise activate" in found.advice()


def test_an_interpreter_first_on_path_is_no_shim(tmp_path: Path) -> None:
    # The advice doctor gives: the interpreter's folder before the shims on PATH.
    real = _real_python(tmp_path / "versions" / "3.x" / "bin")
    shim = _script_shim(tmp_path / ".pyenv" / "shims", "pyenv", real)
    assert find_shim("python3", _env(real, shim.parent)) is None
    assert find_shim("no-such-python", _env(real)) is None


def test_measure_times_the_shim_against_its_target(tmp_path: Path) -> None:
    real = _real_python(tmp_path / "versions" / "3.x" / "bin")
    # The fake shim sleeps 0.5 s before handing over: the median of 3 starts of each is within
    # 0.2 s of its cost on a busy machine.
    shim = _script_shim(tmp_path / ".pyenv" / "shims", "pyenv", real, delay=0.5)
    env = _env(shim.parent, real)
    found = find_shim("python3", env)
    assert found is not None
    timed = measure(found, env, runs=3)
    assert timed.shim_ms > timed.target_ms + 300 > 300
    assert timed.cost_ms == pytest.approx(timed.shim_ms - timed.target_ms)


def test_advice_names_a_per_machine_fix_and_no_shared_file() -> None:
    shim = Shim("pyenv", "/home/u/.pyenv/shims/python3", "/home/u/.pyenv/versions/3.12.1/bin/python3.12")
    advice = shim.advice()
    assert 'export PATH="/home/u/.pyenv/versions/3.12.1/bin:$PATH"' in advice
    assert "before /home/u/.pyenv/shims on PATH" in advice
    assert "not in hookwrap.toml" in advice


def test_doctor_warns_with_the_cost_and_the_fix(tmp_path: Path, isolated_home: Path) -> None:
    real = _real_python(tmp_path / "versions" / "3.x" / "bin")
    shim = _script_shim(tmp_path / ".pyenv" / "shims", "pyenv", real)
    [finding] = doctor.check_shim("python3", _env(shim.parent, real))
    assert finding.status == WARN
    assert f"pyenv's shim {shim}" in finding.message and "ms" in finding.message
    assert str(real) in finding.fix or os.path.dirname(os.path.realpath(sys.executable)) in finding.fix
    [clean] = doctor.check_shim("python3", _env(real, shim.parent))
    assert clean.status == OK
