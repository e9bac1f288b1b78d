"""Fixtures for the end-to-end tests: the real CLIs, a loopback mock model each, a sandbox per test.

Tests ask for ``claude``, ``gemini`` or ``agent`` (both, parametrized; ask for it first, so that a
missing binary skips before anything else runs) and a ``project`` dir, or a ``repo``: the project
after ``hookwrap init``. A test that uses a CLI is marked ``e2e`` (``pytest -m "not e2e"`` leaves it
out) and skips with the reason when the binary is missing. Set ``HOOKWRAP_E2E_KEEP=1`` to keep
each sandbox (HOME, TMPDIR) for a look.

Codex CLI tests ask for ``codex`` (not part of ``agent`` yet; see docs/e2e.md): it skips when the
binary is missing, and its runs use ``<sandbox HOME>/.codex`` as CODEX_HOME.
Qwen Code and GitHub Copilot CLI (``chat_harness.py``, chat-completions mock): ask for ``qwen``,
``copilot`` or ``chat_agent`` (both, parametrized) and usually ``git_project``; they skip the same way.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from .chat_harness import CHAT_AGENTS, ChatAgent, find_chat_cli, make_project, new_agent
from .codex_harness import CODEX_VERSION, Codex, find_codex
from .harness import (
    AGENTS,
    RUN_TIMES,
    Agent,
    Sandbox,
    find_cli,
    hook_python,
    installed_hookwrap_paths,
)
from .hwrepo import HookwrapRepo
from .mock_openai_responses import ResponsesMock

CLI_FIXTURES = {"claude", "gemini", "agent", "sandbox", "qwen", "copilot", "chat_agent"}
CLI_FIXTURES |= {"codex", "codex_binary"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test here that starts a real CLI is an e2e test, whether or not its module says so."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents and CLI_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per CLI: how many runs and how long they took (the suite must stay under 5 minutes)."""
    for name in [*AGENTS, *CHAT_AGENTS, "opencode", "droid"]:
        times = [t for agent, t in RUN_TIMES if agent == name]
        if times:
            terminalreporter.write_line(
                f"e2e {name}: {len(times)} runs, {sum(times):.1f}s total, "
                f"{sum(times) / len(times):.1f}s mean, {max(times):.1f}s max")


@pytest.fixture(scope="session")
def cli_binaries() -> dict[str, tuple[Path | None, str]]:
    """Each CLI's binary and version (or None and why not), looked up once per session."""
    found = {}
    for name, (_, _, pinned) in AGENTS.items():
        path, info = find_cli(name)
        if path is not None and pinned not in info:
            warnings.warn(f"e2e: {name} is {info!r}, these tests were written against {pinned}", stacklevel=1)
        found[name] = (path, info)
    return found


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


def _agent(name: str, cli_binaries: dict[str, tuple[Path | None, str]], sandbox: Sandbox) -> Iterator[Agent]:
    path, info = cli_binaries[name]
    if path is None:
        pytest.skip(info)
    agent_cls, server_cls, _ = AGENTS[name]
    server = server_cls().start()
    try:
        yield agent_cls(path, server, sandbox, info)
    finally:
        server.stop()


@pytest.fixture
def claude(cli_binaries: dict[str, tuple[Path | None, str]], sandbox: Sandbox) -> Iterator[Agent]:
    """Claude Code with its Anthropic mock running."""
    yield from _agent("claude", cli_binaries, sandbox)


@pytest.fixture
def gemini(cli_binaries: dict[str, tuple[Path | None, str]], sandbox: Sandbox) -> Iterator[Agent]:
    """Gemini CLI with its Gemini API mock running."""
    yield from _agent("gemini", cli_binaries, sandbox)


@pytest.fixture(params=["claude", "gemini"])
def agent(request: pytest.FixtureRequest) -> Agent:
    """Each CLI in turn."""
    return request.getfixturevalue(request.param)


@pytest.fixture
def repo(project: Path, sandbox: Sandbox) -> HookwrapRepo:
    """The project after ``hookwrap init`` (run as a subprocess, with the sandbox's HOME)."""
    return HookwrapRepo(project, sandbox).init()


# Codex CLI (tests/e2e/codex_harness.py) ----------------------------------------------------------


@pytest.fixture(scope="session")
def codex_binary() -> tuple[Path, str]:
    """The Codex CLI binary and its version; skips (with the reason) when it is not installed."""
    path, info = find_codex()
    if path is None:
        pytest.skip(info)
    if CODEX_VERSION not in info:
        warnings.warn(f"e2e: codex is {info!r}, these tests were written against {CODEX_VERSION}", stacklevel=1)
    return path, info


@pytest.fixture
def codex(codex_binary: tuple[Path, str], sandbox: Sandbox) -> Iterator[Codex]:
    """Codex CLI with its Responses API mock running; CODEX_HOME is ``<sandbox HOME>/.codex``."""
    path, info = codex_binary
    with ResponsesMock() as server:
        yield Codex(path, server, sandbox, info)  # type: ignore[arg-type]


class _CodexTimingSummary:
    """The timing line of the Codex runs (the summary above covers the CLIs in ``AGENTS``)."""

    @staticmethod
    def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
        times = [t for agent, t in RUN_TIMES if agent == "codex" and "codex" not in AGENTS]
        if times:
            terminalreporter.write_line(
                f"e2e codex: {len(times)} runs, {sum(times):.1f}s total, "
                f"{sum(times) / len(times):.1f}s mean, {max(times):.1f}s max")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_CodexTimingSummary(), "hookwrap-e2e-codex-timing")
# Qwen Code and GitHub Copilot CLI (chat-completions mock; see chat_harness.py) ------------------


@pytest.fixture(scope="session")
def chat_cli_binaries() -> dict[str, tuple[Path | None, str]]:
    """Qwen Code's and Copilot CLI's binary and version (or None and why not), looked up once."""
    found = {}
    for name, (_, _, pinned) in CHAT_AGENTS.items():
        path, info = find_chat_cli(name)
        if path is not None and pinned not in info:
            warnings.warn(f"e2e: {name} is {info!r}, these tests were written against {pinned}", stacklevel=1)
        found[name] = (path, info)
    return found


def _chat_agent(name: str, chat_cli_binaries: dict[str, tuple[Path | None, str]],
                sandbox: Sandbox) -> Iterator[ChatAgent]:
    path, info = chat_cli_binaries[name]
    if path is None:
        pytest.skip(info)
    agent = new_agent(name, path, sandbox, info)
    try:
        yield agent
    finally:
        agent.server.stop()


@pytest.fixture
def qwen(chat_cli_binaries: dict[str, tuple[Path | None, str]], sandbox: Sandbox) -> Iterator[ChatAgent]:
    """Qwen Code with its chat-completions mock running."""
    yield from _chat_agent("qwen", chat_cli_binaries, sandbox)


@pytest.fixture
def copilot(chat_cli_binaries: dict[str, tuple[Path | None, str]], sandbox: Sandbox) -> Iterator[ChatAgent]:
    """GitHub Copilot CLI (BYOK, offline) with its chat-completions mock running."""
    yield from _chat_agent("copilot", chat_cli_binaries, sandbox)


@pytest.fixture(params=list(CHAT_AGENTS))
def chat_agent(request: pytest.FixtureRequest) -> ChatAgent:
    """Qwen Code and Copilot CLI in turn."""
    return request.getfixturevalue(request.param)


@pytest.fixture
def git_project(tmp_path: Path) -> Path:
    """An empty ``git init``-ed project dir (no remote); the CLIs run from here."""
    return make_project(tmp_path, "proj")
