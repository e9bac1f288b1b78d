"""Golden settings files: the exact bytes `hookwrap add` writes for every template on both platforms.

Regenerate with `pytest tests/console --update-golden` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import ALL_ADDS as ADDS
from support import GOLDEN
from support.cli import CLAUDE, GEMINI, MANIFEST, hw
from support.projects import from_template

GOLDEN_SETTINGS = GOLDEN / "settings"
FILES = {CLAUDE: "claude.settings.json", GEMINI: "gemini.settings.json", MANIFEST: "hookwrap.toml"}


def _full_project(root: Path) -> None:
    assert hw(root, "init").code == 0
    for args in ADDS:
        result = hw(root, "add", *args)
        assert result.code == 0, result.err


@pytest.fixture
def full_project(empty_dir: Path) -> Path:
    """`init` and every ADDS (a copy of one template)."""
    return from_template(empty_dir, _full_project)


@pytest.mark.parametrize("rel", list(FILES))
def test_settings_and_manifest_match_the_golden_files(full_project: Path, update_golden: bool, rel: str) -> None:
    data = (full_project / rel).read_bytes()
    golden = GOLDEN_SETTINGS / FILES[rel]
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(data)
        return
    assert golden.is_file(), f"missing golden file {golden.name}: run pytest --update-golden"
    assert data == golden.read_bytes(), f"{rel} differs from {golden.name}: run pytest --update-golden and review"


@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
def test_settings_are_two_space_json_with_a_trailing_newline(full_project: Path, rel: str) -> None:
    text = (full_project / rel).read_text()
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"


def test_golden_files_cover_every_template_on_both_platforms() -> None:
    # Guards the golden files themselves: a regenerated set must still hold each template's entry.
    claude = (GOLDEN_SETTINGS / FILES[CLAUDE]).read_text()
    gemini = (GOLDEN_SETTINGS / FILES[GEMINI]).read_text()
    for name in ["guard", "context", "stop_gate", "format", "audit"]:
        assert f"/.hookwrap/lib/run.py {name} " in claude
        assert f'/.hookwrap/lib/run.py\\" {name} ' in gemini  # JSON text: the quote is escaped
    assert 'run.py\\" m ' in gemini and "run.py m " not in claude


def test_golden_project_is_in_sync_and_listed(full_project: Path) -> None:
    result = hw(full_project, "sync", "--check")
    assert result.code == 0, result.out
    rows = json.loads(hw(full_project, "list", "--json").out)
    assert [r["name"] for r in rows] == ["guard", "context", "stop_gate", "format", "audit", "m"]
    assert all(p["status"] in ("current", "not selected") for r in rows for p in r["platforms"].values())
