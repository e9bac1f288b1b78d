"""Settings files hookwrap rewrites stay JSON: huge numbers and lone surrogates round-trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import CLAUDE, GEMINI, hw, strict_json
from support.projects import init_project

from hookwrap.generator import jsonc

BIG = '{"big": 1e400, "neg": -2.5E+999, "list": [1E400, 3], "n": 1.5}\n'


def test_jsonc_keeps_the_text_of_numbers_beyond_double_range() -> None:
    data = jsonc.parse(BIG, label="x.json")
    assert data["big"] == float("inf") and data["neg"] == float("-inf")
    text = jsonc.dumps(data)
    strict_json(text.encode())
    assert '"big": 1e400' in text and '"neg": -2.5E+999' in text and "1E400," in text


def test_jsonc_keeps_integers_too_long_for_int() -> None:
    digits = "9" * 5000
    text = jsonc.dumps(jsonc.parse('{"n": %s}' % digits, label="x.json"))
    assert digits in text
    assert json.loads(text, parse_int=str)["n"] == digits


def test_rewrite_member_keeps_big_numbers_in_a_rewritten_part() -> None:
    text = '{\n  // note\n  "hooks": {"BeforeTool": [{"x": 1e400}]}\n}\n'
    new = jsonc.rewrite_member(text, "hooks", {"BeforeTool": [{"x": jsonc.parse(text, label="g")
                                                                ["hooks"]["BeforeTool"][0]["x"]},
                                                               {"y": 1}]}, label="g")
    assert "1e400" in new and "Infinity" not in new


@pytest.mark.parametrize("rel, text", [
    (CLAUDE, '{"model": 1e400, "deep": {"x": [-1e999]}}\n'),
    (GEMINI, '{\n  // mine\n  "ui": {"big": 1e400},\n  "hooks": {"BeforeTool": [{"matcher": "x", '
             '"hooks": [{"type": "command", "command": "echo hi"}], "big": 1e400}]}\n}\n'),
])
def test_add_never_writes_infinity(tmp_path: Path, rel: str, text: str) -> None:
    root = init_project(tmp_path)
    (root / rel).parent.mkdir(exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")
    result = hw(root, "add", "before_tool", "guard")
    assert result.code == 0, result.err
    data = (root / rel).read_bytes()
    assert b"Infinity" not in data
    assert b"1e400" in data
    if rel == CLAUDE:
        strict_json(data)
    assert hw(root, "sync", "--check").code == 0


SURROGATE = '{"name": "\\ud800", "\\udfff key": ["a\\udc00b"], "pair": "\\ud83d\\ude00"}\n'


def test_jsonc_escapes_lone_surrogates_back() -> None:
    text = jsonc.dumps(jsonc.parse(SURROGATE, label="x.json"))
    text.encode("utf-8")
    assert '"\\ud800"' in text and '"\\udfff key"' in text and "a\\udc00b" in text
    assert json.loads(text) == json.loads(SURROGATE)


@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
def test_lone_surrogate_in_settings_does_not_crash(tmp_path: Path, rel: str) -> None:
    root = init_project(tmp_path)
    (root / rel).parent.mkdir(exist_ok=True)
    (root / rel).write_text(SURROGATE, encoding="utf-8")
    check = hw(root, "sync", "--check")
    assert check.code == 0, check.err
    added = hw(root, "add", "before_tool", "guard")
    assert added.code == 0, added.err
    data = (root / rel).read_bytes()
    assert json.loads(data.decode("utf-8"))["name"] == "\ud800"
    assert b"\\ud800" in data
    for args in (("sync",), ("sync", "--check"), ("list",), ("remove", "guard")):
        result = hw(root, *args)
        assert result.code == 0, (args, result.err)
        assert "Traceback" not in result.err
    assert json.loads((root / rel).read_text(encoding="utf-8")) == json.loads(SURROGATE)
