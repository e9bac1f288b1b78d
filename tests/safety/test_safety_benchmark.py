"""The benchmark's set-up works from the venv hookwrap is installed in (its python is a link)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("hookwrap_bench", REPO / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_the_interpreter_is_this_one_not_the_base_one(bench) -> None:
    assert bench.interpreter(sys.executable) == str(Path(sys.executable).absolute())


def test_import_and_guard_rows_can_be_measured_from_this_venv(bench, tmp_path: Path) -> None:
    python = bench.interpreter(sys.executable)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(python)
    rows = bench.import_rows(tmp_path, python) + bench.guard_rows(tmp_path, python, bindir)[:1]
    for row in rows:
        assert not row.unavailable, (row.label, row.unavailable)
        assert bench.measure(row) > 0, row.label


def test_help_runs() -> None:
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "run.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--no-peer" in done.stdout and "--quick" in done.stdout


def test_the_serve_figures_can_be_measured_from_this_venv(bench) -> None:
    """`run.py --serve` end to end on a tiny scale: every call is answered 200 (nothing timed)."""
    spec = importlib.util.spec_from_file_location("hookwrap_serve_bench",
                                                  REPO / "benchmarks" / "serve_bench.py")
    serve_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve_bench)
    python = bench.interpreter(sys.executable)
    data = serve_bench.measure(python, bench._hookwrap(python), bench.child_env(Path(python).parent),
                               calls=3, rounds=2, bursts=(6,))
    assert len(data["kept"]) == len(data["new"]) == 6 and data["first"] > 0
    [(total, results, took)] = data["bursts"]
    assert total == 6 and dict(results) == {200: 6} and took > 0
