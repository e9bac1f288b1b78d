"""Fixtures for the template, render and manifest tests (``check_golden`` and ``--update-golden``
are in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.hookrepo import HookRepo, make_hook_repo


@pytest.fixture
def hook_repo(tmp_path: Path) -> HookRepo:
    return make_hook_repo(tmp_path)
