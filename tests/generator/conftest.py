"""Fixtures of the generator tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from gen_support import hookwrap


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A directory where `hookwrap init` has run."""
    assert hookwrap("init", cwd=tmp_path).returncode == 0
    return tmp_path
