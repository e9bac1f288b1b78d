"""Fixtures for the end-to-end tests: the real CLIs, a loopback mock model each, a sandbox per test.

Every fixture is here. A test asks for a CLI by its name in ``agents.AGENTS`` (``claude``,
``gemini``, ``codex``, ``qwen``, ``copilot``, ``opencode``, ``droid``, ``pi``, ``kilo``), or for ``agent`` (Claude
Code and Gemini CLI in turn) or ``chat_agent`` (Qwen Code and Copilot CLI in turn); ask for it
first, so that a missing binary skips before anything else runs. Then a ``project`` dir, a
``git_project`` (``git init``-ed, no remote), or a ``repo``: the project after ``hookwrap init``.
A test that uses a CLI is marked ``e2e`` (``pytest -m "not e2e"`` leaves it out) and skips with
the reason when the binary is missing. Set ``HOOKWRAP_E2E_KEEP=1`` to keep each sandbox (HOME,
TMPDIR) for a look. Codex CLI's runs use ``<sandbox HOME>/.codex`` as CODEX_HOME.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .agents import AGENTS, CHAT, CLASSIC, start_agent
from .chat_harness import make_project
from .harness import RUN_TIMES, Agent, Sandbox, hook_python, installed_hookwrap_paths
from .hwrepo import HookwrapRepo

CLI_FIXTURES = {*AGENTS, "agent", "chat_agent", "sandbox"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test here that starts a real CLI is an e2e test, whether or not its module says so."""
    here = Path(__file__).resolve().parent
    inside: dict[Path, bool] = {}  # per test file: resolving each of ~5,600 tests' paths took ~0.2 s
    for item in items:
        if item.path not in inside:
            inside[item.path] = here in item.path.resolve().parents
        if inside[item.path] and CLI_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)


# Under xdist, a worker hands its runs to the controller; tests/conftest.py prints them.


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["hookwrap_e2e_run_times"] = list(RUN_TIMES)


# Sandbox and projects ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def hook_interpreter() -> Path:
    return hook_python()


@pytest.fixture
def sandbox(hook_interpreter: Path) -> Iterator[Sandbox]:
    """HOME, TMPDIR and runtime dir for this test's runs, under a short path that is removed after."""
    root = Path(tempfile.mkdtemp(prefix="hw-e2e-"))
    box = Sandbox(root, hook_interpreter, installed_hookwrap_paths()).create()
    yield box
    if not os.environ.get("HOOKWRAP_E2E_KEEP"):
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project dir; the CLIs run from here."""
    path = tmp_path / "proj"
    path.mkdir()
    return path


@pytest.fixture
def git_project(tmp_path: Path) -> Path:
    """An empty ``git init``-ed project dir (no remote, no commits); the CLIs run from here."""
    return make_project(tmp_path, "proj")


@pytest.fixture
def repo(project: Path, sandbox: Sandbox) -> HookwrapRepo:
    """The project after ``hookwrap init`` (run as a subprocess, with the sandbox's HOME)."""
    return HookwrapRepo(project, sandbox).init()


# The CLIs: one fixture per entry of agents.AGENTS -------------------------------------------------


def _cli_fixture(name: str) -> Callable[..., Iterator[Agent]]:
    def fixture(sandbox: Sandbox) -> Iterator[Agent]:
        yield from start_agent(name, sandbox)

    fixture.__name__ = fixture.__qualname__ = f"{name}_fixture"
    fixture.__doc__ = f"The real {name} with its mock model running, in this test's sandbox."
    return pytest.fixture(name=name)(fixture)


for _name in AGENTS:
    globals()[f"_{_name}_fixture"] = _cli_fixture(_name)


@pytest.fixture(params=CLASSIC)
def agent(request: pytest.FixtureRequest) -> Agent:
    """Claude Code and Gemini CLI in turn."""
    return request.getfixturevalue(request.param)


@pytest.fixture(params=CHAT)
def chat_agent(request: pytest.FixtureRequest) -> Agent:
    """Qwen Code and Copilot CLI in turn."""
    return request.getfixturevalue(request.param)
