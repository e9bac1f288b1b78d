"""Tests for jsonc: JSON/JSONC parsing with line:column errors, and comment-keeping rewrites."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwrap.generator import jsonc
from hookwrap.generator.errors import SettingsError

LABEL = ".gemini/settings.json"

COMMENTED = """// project settings for the team
{
  "$schema": "https://example.com/schema.json", // keep this
  /* hooks are on */
  "hooksConfig": { "enabled": true },
  "hooks": {
    // guards writes
    "BeforeTool": [
      { "matcher": "^write_file$", "hooks": [ { "type": "command", "command": "scan" } ] } // inline
    ],
    "AfterTool": []
  },
  "ui": { "theme": "dark" } /* trailing block */
}
"""


def _error(text: str, *, allow_comments: bool = True) -> SettingsError:
    with pytest.raises(SettingsError) as info:
        jsonc.parse(text, label=LABEL, allow_comments=allow_comments)
    return info.value


def test_parse_plain_json_keeps_key_order_and_types() -> None:
    data = jsonc.parse('{"b": 1, "a": [true, null, 1.5, "x\\u00e9"], "c": {}}', label=LABEL)
    assert list(data) == ["b", "a", "c"]
    assert data == {"b": 1, "a": [True, None, 1.5, "xé"], "c": {}}
    assert isinstance(data["b"], int)


def test_parse_jsonc_comments_are_ignored_but_recorded() -> None:
    doc = jsonc.parse_document(COMMENTED, label=LABEL, allow_comments=True)
    assert list(doc.data) == ["$schema", "hooksConfig", "hooks", "ui"]
    assert doc.data["hooks"]["BeforeTool"][0]["matcher"] == "^write_file$"
    assert len(doc.comments) == 6
    assert COMMENTED[slice(*doc.comments[0])] == "// project settings for the team"


def test_comment_markers_inside_strings_are_not_comments() -> None:
    data = jsonc.parse('{"url": "http://x/*y*/", "c": "//"}', label=LABEL, allow_comments=False)
    assert data == {"url": "http://x/*y*/", "c": "//"}


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('{\n  "a": 1,\n}', "3:1", "trailing comma before '}' is not allowed"),
        ('{"a": [1,]}', "1:10", "trailing comma before ']' is not allowed"),
        ('{\n  "a": 1\n  "b": 2\n}', "3:3", "expected ',' or '}'"),
        ('{"a": [1 2]}', "1:10", "expected ',' or ']'"),
        ('{"a" 1}', "1:6", "expected ':'"),
        ("{a: 1}", "1:2", "expected a double-quoted property name"),
        ('{"a": tru}', "1:7", "expected a value"),
        ('{"a": "x', "1:7", "unterminated string"),
        ("{} {}", "1:4", "unexpected text after the top-level object"),
        ("[1, 2]", "1:1", "the top level must be a JSON object"),
        ('"text"', "1:1", "the top level must be a JSON object"),
        ("  \n", "2:1", "the file is empty; expected a JSON object"),
        ("{ /* open", "1:3", "unterminated /* comment"),
        ('{"a": 1', "1:8", "expected ',' or '}'"),
    ],
)
def test_parse_errors_name_file_line_and_column(text: str, where: str, message: str) -> None:
    error = _error(text)
    assert str(error) == f"{LABEL}:{where}: {message}"
    assert error.hint == "fix the file by hand, then run hookwrap sync"


def test_plain_json_rejects_comments_with_position() -> None:
    error = _error('{\n  "a": 1 // no\n}', allow_comments=False)
    assert str(error) == f"{LABEL}:2:10: comments are not allowed in a plain JSON file"


def test_column_counts_characters_not_bytes() -> None:
    error = _error('{"é": 1 2}')
    assert str(error).startswith(f"{LABEL}:1:9:")


def test_dumps_format() -> None:
    assert jsonc.dumps({"a": ["é"]}) == '{\n  "a": [\n    "é"\n  ]\n}\n'


def test_rewrite_keeps_comments_outside_changed_parts() -> None:
    hooks = jsonc.parse(COMMENTED, label=LABEL)["hooks"]
    changed = dict(hooks, AfterTool=[{"hooks": [{"type": "command", "command": "fmt"}]}])
    new_text = jsonc.rewrite_member(COMMENTED, "hooks", changed, label=LABEL)
    assert jsonc.parse(new_text, label=LABEL)["hooks"] == changed
    for comment in ["// project settings", "// keep this", "/* hooks are on */", "// guards writes",
                    "// inline", "/* trailing block */"]:
        assert comment in new_text
    assert '    "AfterTool": [\n      {\n        "hooks": [\n' in new_text


def test_rewrite_add_then_remove_restores_bytes() -> None:
    hooks = jsonc.parse(COMMENTED, label=LABEL)["hooks"]
    added = dict(hooks, Notification=[{"hooks": [{"type": "command", "command": "n"}]}])
    with_new = jsonc.rewrite_member(COMMENTED, "hooks", added, label=LABEL)
    assert list(jsonc.parse(with_new, label=LABEL)["hooks"]) == ["BeforeTool", "AfterTool", "Notification"]
    assert jsonc.rewrite_member(with_new, "hooks", hooks, label=LABEL) == COMMENTED


def test_rewrite_adds_and_removes_top_level_member_with_comma() -> None:
    text = '{\n  "a": 1 // about a\n}\n'
    added = jsonc.rewrite_member(text, "hooks", {"Stop": []}, label=LABEL)
    assert added == '{\n  "a": 1, // about a\n  "hooks": {\n    "Stop": []\n  }\n}\n'
    assert jsonc.rewrite_member(added, "hooks", jsonc.REMOVE, label=LABEL) == text


def test_rewrite_removes_first_member_with_its_comma() -> None:
    text = '// c\n{\n  "hooks": {},\n  "b": 2\n}\n'
    assert jsonc.rewrite_member(text, "hooks", jsonc.REMOVE, label=LABEL) == '// c\n{\n  "b": 2\n}\n'


def test_rewrite_into_empty_object() -> None:
    text = "// nothing yet\n{\n}\n"
    new_text = jsonc.rewrite_member(text, "hooks", {}, label=LABEL)
    assert new_text == '// nothing yet\n{\n  "hooks": {}\n}\n'
    assert jsonc.rewrite_member(new_text, "hooks", jsonc.REMOVE, label=LABEL) == text


def test_rewrite_single_line_object() -> None:
    text = '/*x*/ {"a": 1}'
    new_text = jsonc.rewrite_member(text, "hooks", {"Stop": []}, label=LABEL)
    assert jsonc.parse(new_text, label=LABEL) == {"a": 1, "hooks": {"Stop": []}}
    assert new_text.startswith("/*x*/ ")


def test_rewrite_refuses_when_a_comment_inside_the_changed_value_would_be_lost() -> None:
    hooks = jsonc.parse(COMMENTED, label=LABEL)["hooks"]
    changed = dict(hooks, BeforeTool=[])
    with pytest.raises(SettingsError) as info:
        jsonc.rewrite_member(COMMENTED, "hooks", changed, label=LABEL)
    assert str(info.value) == (
        f'{LABEL}: comments inside "hooks" would be lost (in hooks.BeforeTool); '
        "hookwrap will not rewrite this file"
    )
    assert info.value.hint


def test_rewrite_refuses_removing_hooks_that_hold_comments() -> None:
    with pytest.raises(SettingsError, match='comments inside "hooks" would be lost'):
        jsonc.rewrite_member(COMMENTED, "hooks", jsonc.REMOVE, label=LABEL)


def test_rewrite_unchanged_returns_same_text() -> None:
    hooks = jsonc.parse(COMMENTED, label=LABEL)["hooks"]
    assert jsonc.rewrite_member(COMMENTED, "hooks", hooks, label=LABEL) is COMMENTED


def test_rewrite_nested_indent_follows_file() -> None:
    text = '{\n    "x": 1, // four spaces\n    "hooks": {\n        "Stop": []\n    }\n}\n'
    new_text = jsonc.rewrite_member(text, "hooks", {"Stop": [], "AfterAgent": [1]}, label=LABEL)
    assert '        "AfterAgent": [\n          1\n        ]\n    }\n}\n' in new_text


_json_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
_json_values = st.recursive(
    _json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _json_values, max_size=5))
def test_parse_matches_json_loads(data: dict) -> None:
    for indent in (None, 2):
        text = json.dumps(data, indent=indent, ensure_ascii=False)
        parsed = jsonc.parse(text, label=LABEL, allow_comments=False)
        assert json.dumps(parsed) == json.dumps(json.loads(text))
        # parse reads plain JSON with json.loads: what the parser itself reads, exactly.
        by_parser = jsonc.parse_document(text, label=LABEL, allow_comments=False).data
        assert jsonc.to_json(parsed) == jsonc.to_json(by_parser)


@pytest.mark.parametrize("text", [
    '{"a": 1e400, "b": -1e400, "c": 1.5, "d": 10, "e": -0}',
    '{"big": ' + "9" * 5000 + "}",  # beyond int's string-conversion limit
    '{"a": 1, "b": 2, "a": 3}',  # a duplicate key: the first one's place, the last value
    '{"s": "\\ud800 \\u00e9"}',
])
def test_plain_json_is_read_as_the_parser_reads_it(text: str) -> None:
    fast = jsonc.parse(text, label=LABEL, allow_comments=False)
    slow = jsonc.parse_document(text, label=LABEL, allow_comments=False).data
    assert list(fast) == list(slow)
    assert jsonc.to_json(fast) == jsonc.to_json(slow)
    assert [type(v) for v in fast.values()] == [type(v) for v in slow.values()]


@pytest.mark.parametrize(("text", "message"), [
    ('{"a": NaN}', "1:7: expected a value"),
    ('\ufeff{"a": 1}', "byte order mark"),
    ('[1]', "the top level must be a JSON object"),
    ('{"a": 1} x', "unexpected text after the top-level object"),
])
def test_what_json_loads_would_take_or_refuse_differently_goes_to_the_parser(text: str,
                                                                              message: str) -> None:
    assert message in str(_error(text, allow_comments=False))


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text(max_size=6).filter(lambda k: k != "hooks"), _json_values, max_size=4),
    st.dictionaries(st.sampled_from(["A", "B", "C"]), st.lists(st.integers(), max_size=2), max_size=3),
    st.dictionaries(st.sampled_from(["A", "B", "D"]), st.lists(st.integers(), max_size=2), max_size=3),
)
def test_rewrite_keeps_every_comment_outside_hooks(foreign: dict, before: dict, after: dict) -> None:
    body = ",\n".join(f"  // c{i}\n  {json.dumps(k)}: {json.dumps(v)} /* d{i} */"
                      for i, (k, v) in enumerate(foreign.items()))
    text = "// head\n{\n" + body + "\n}\n"
    with_hooks = jsonc.rewrite_member(text, "hooks", before, label=LABEL)
    final = jsonc.rewrite_member(with_hooks, "hooks", after, label=LABEL)
    parsed = jsonc.parse(final, label=LABEL)
    assert parsed == dict(foreign, hooks=after)
    assert list(parsed) == [*foreign, "hooks"]
    for i in range(len(foreign)):
        assert f"// c{i}\n" in final and f"/* d{i} */" in final
    assert jsonc.rewrite_member(final, "hooks", jsonc.REMOVE, label=LABEL) == text
