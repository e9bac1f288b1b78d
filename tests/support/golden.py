"""The golden files under tests/golden: compare byte for byte, or rewrite with --update-golden
(the option and the ``update_golden``/``check_golden`` fixtures live in tests/conftest.py)."""

from __future__ import annotations

from . import GOLDEN


def check_golden(rel: str, text: str, *, update: bool) -> None:
    """Compare ``text`` with ``tests/golden/<rel>`` byte for byte, or rewrite the file when ``update``."""
    path = GOLDEN / rel
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        return
    assert path.is_file(), f"missing golden file {rel}: run pytest --update-golden"
    assert text.encode("utf-8") == path.read_bytes(), f"{rel} differs: run pytest --update-golden and review the diff"
