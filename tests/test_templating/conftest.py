"""Fixtures for the template, render and manifest tests, and the --update-golden option.

The option lives here because pytest only reads `pytest_addoption` from conftest files it
loads before parsing the command line: the rootdir's, the test paths', and `tests/test*/`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from templating_support import GOLDEN, HookRepo, make_hook_repo


def pytest_addoption(parser: pytest.Parser) -> None:
    try:
        parser.addoption("--update-golden", action="store_true", default=False,
                         help="rewrite tests/golden/ from the current templates instead of comparing")
    except ValueError:
        pass  # another conftest already defines it; same meaning


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def check_golden(update_golden: bool) -> Callable[[str, str], None]:
    """Compare text with tests/golden/<rel> byte for byte, or rewrite it with --update-golden."""

    def check(rel: str, text: str) -> None:
        path = GOLDEN / rel
        if update_golden:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
            return
        assert path.is_file(), f"missing golden file {rel}: run pytest --update-golden"
        assert text.encode("utf-8") == path.read_bytes(), f"{rel} differs: run pytest --update-golden and review the diff"

    return check


@pytest.fixture
def hook_repo(tmp_path: Path) -> HookRepo:
    return make_hook_repo(tmp_path)
