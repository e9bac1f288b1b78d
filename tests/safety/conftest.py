"""Fixtures of the guard's corpus and file-tool tests: the benchmark module (benchmarks/guard.py),
its corpus, and the guard rendered for every platform in a throwaway home and project outside
/tmp (one with the default policy, one with every opt-in pack on, copied from the first).
Nothing is executed: the guard only classifies the calls it is sent.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def bench():
    module = _load("hookwrap_guard_bench", REPO / "benchmarks" / "guard.py")
    yield module
    del sys.modules["hookwrap_guard_bench"]


@pytest.fixture(scope="session")
def cases(bench):
    return bench.load_corpus()


def _sandbox(bench):
    base = bench.sandbox_base()
    if bench.in_temp_dir(base):
        pytest.skip(f"the sandbox base {base} is in a temp dir; set HOOKWRAP_GUARD_SANDBOX elsewhere")
    return bench.make_sandbox(sys.executable)


def _registered(bench, box):
    from hookwrap.platforms import Platform

    regs = bench.registrations(box, [p.value for p in Platform])
    assert sorted(regs) == sorted(p.value for p in Platform)
    return regs


@pytest.fixture(scope="session")
def sandbox(bench):
    """The guard rendered for every platform, default policy."""
    box = _sandbox(bench)
    yield box
    shutil.rmtree(box.base, ignore_errors=True)


@pytest.fixture(scope="session")
def registered(bench, sandbox):
    return _registered(bench, sandbox)


@pytest.fixture(scope="session")
def verdicts(bench, sandbox, registered, cases):
    return bench.run_batches(sandbox, registered, cases, sys.executable)


@pytest.fixture(scope="session")
def packs_sandbox(bench, sandbox):
    """The guard rendered for every platform with every opt-in pack on (hookwrap.toml): a copy
    of the default policy's sandbox, the packs set and synced."""
    box = bench.copy_sandbox(sandbox, sys.executable, {"packs": list(bench.PACKS)})
    yield box
    shutil.rmtree(box.base, ignore_errors=True)


@pytest.fixture(scope="session")
def packs_registered(bench, packs_sandbox):
    return _registered(bench, packs_sandbox)
