"""Fixtures of the generator tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.projects import initialised


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A directory where `hookwrap init` has run (a copy of one initialised template)."""
    return initialised(tmp_path)
