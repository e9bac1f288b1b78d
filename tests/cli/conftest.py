"""Fixtures for the command tests: a project under a path with a space, and --update-golden."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import hw


def pytest_addoption(parser: pytest.Parser) -> None:
    # Same option as tests/test_templating/conftest.py; registered here too so that
    # `pytest tests/cli --update-golden` works when that conftest is not loaded first.
    try:
        parser.addoption("--update-golden", action="store_true", default=False,
                         help="rewrite tests/golden/ from the current templates instead of comparing")
    except ValueError:
        pass  # already registered by the other conftest; same meaning


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def empty_dir(tmp_path: Path) -> Path:
    """An empty directory (not a git repo) whose path contains a space."""
    root = tmp_path / "my project"
    root.mkdir()
    return root


@pytest.fixture
def project(empty_dir: Path) -> Path:
    """`hookwrap init` done in ``empty_dir``."""
    result = hw(empty_dir, "init")
    assert result.code == 0, result.err
    return empty_dir
