"""A UTF-8 byte order mark at the start of hookwrap.toml or a settings file is named as such."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli import CLAUDE, GEMINI, hw, hw_module as hw_process
from support.projects import init_project

BOM = b"\xef\xbb\xbf"
SAID = "starts with a UTF-8 byte order mark (BOM)"


@pytest.mark.parametrize("args", [("sync",), ("sync", "--check"), ("list",),
                                  ("add", "before_tool", "guard"), ("sync", "--dry-run")])
def test_manifest_with_a_bom_is_named(tmp_path: Path, args: tuple[str, ...]) -> None:
    root = init_project(tmp_path)
    manifest = root / "hookwrap.toml"
    manifest.write_bytes(BOM + manifest.read_bytes())
    before = manifest.read_bytes()
    result = hw_process(root, *args)
    assert result.returncode == 1, result.stderr
    assert f"error: hookwrap.toml: {SAID}" in result.stderr
    assert "without a BOM" in result.stderr
    assert "Traceback" not in result.stderr
    assert manifest.read_bytes() == before


@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
@pytest.mark.parametrize("args", [("add", "before_tool", "guard"), ("sync",), ("sync", "--check")])
def test_settings_file_with_a_bom_is_refused_and_left_alone(tmp_path: Path, rel: str,
                                                            args: tuple[str, ...]) -> None:
    root = init_project(tmp_path)
    if args[0] != "add":
        assert hw(root, "add", "before_tool", "guard").code == 0
    path = root / rel
    path.parent.mkdir(exist_ok=True)
    original = BOM + (path.read_bytes() if path.exists() else b'{"model": "x"}\n')
    path.write_bytes(original)
    result = hw(root, *args)
    assert result.code == 1, result.err
    assert f"error: {rel}: {SAID}" in result.err
    assert "without a BOM" in result.err
    assert path.read_bytes() == original
