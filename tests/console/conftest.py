"""Fixtures for the command tests: a project under a path with a space (``--update-golden`` and
``update_golden`` are in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.projects import initialised


@pytest.fixture
def empty_dir(tmp_path: Path) -> Path:
    """An empty directory (not a git repo) whose path contains a space."""
    root = tmp_path / "my project"
    root.mkdir()
    return root


@pytest.fixture
def project(empty_dir: Path) -> Path:
    """``empty_dir`` as `hookwrap init` leaves it (a copy of one initialised template)."""
    return initialised(empty_dir)
