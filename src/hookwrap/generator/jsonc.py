"""JSON and JSONC (comments, no trailing commas) parsing with positions, and comment-keeping edits.

Gemini CLI reads its settings with `JSON.parse(stripJsonComments(text))`: `//` and `/* */` are
allowed, trailing commas are not, and the top level must be an object. Claude Code reads plain
JSON. `parse_document` implements both and keeps the offsets of every object member and comment,
so `rewrite_member` can change one top-level member of a commented file and leave every other
byte (comments included) where it was.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from hookwrap.generator.errors import SettingsError

PARSE_HINT = "fix the file by hand, then run hookwrap sync"
SYNC = "hookwrap sync"


def comment_hint(key: str, then: str = SYNC) -> str:
    """What to do when comments sit inside the member ``key`` that must change."""
    return f'move the comments out of "{key}" (or delete them), then run {then}'


BOM_HINT = "save the file as UTF-8 without a BOM (the editor's encoding setting), then run hookwrap sync"
REMOVE = object()  # sentinel value for rewrite_member: drop the member

_WHITESPACE = " \t\n\r"
_NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_LITERALS = {"true": True, "false": False, "null": None}
# A lone surrogate ("\ud800" in the file) is valid JSON but cannot be encoded as UTF-8.
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


class BigNumber(float):
    """A JSON number beyond double range (`1e400`, a 5000-digit integer): ±inf to Python, and
    its source text, which is what hookwrap writes back. `json.dumps` would write `Infinity`,
    which is not JSON: both CLIs would then ignore the whole file."""

    text: str

    def __new__(cls, text: str) -> BigNumber:
        number = super().__new__(cls, "-inf" if text.startswith("-") else "inf")
        number.text = text
        return number

    def __copy__(self) -> BigNumber:
        return self

    def __deepcopy__(self, memo: dict) -> BigNumber:
        return self

    def __reduce__(self) -> tuple:
        return BigNumber, (self.text,)


@dataclass
class Node:
    """One parsed value: its Python value and where it sits in the text (`end` is exclusive)."""

    start: int
    end: int
    value: Any
    members: list[Member] = field(default_factory=list)  # objects only, in text order


@dataclass
class Member:
    """One `"key": value` of an object; `comma` is the offset of the comma after it, if any."""

    key: str
    key_start: int
    node: Node
    comma: int | None = None


@dataclass
class Document:
    """A parsed settings file: the text, the root object node and every comment's span."""

    text: str
    root: Node
    comments: list[tuple[int, int]]

    @property
    def data(self) -> dict[str, Any]:
        return self.root.value

    def has_comments_in(self, start: int, end: int) -> bool:
        return any(start <= c_start < end for c_start, _ in self.comments)


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def parse_error(text: str, offset: int, message: str, *, label: str) -> SettingsError:
    line, column = position(text, offset)
    return SettingsError(f"{label}:{line}:{column}: {message}", hint=PARSE_HINT)


def _number(text: str, is_float: bool) -> int | float:
    try:
        value: int | float = float(text) if is_float else int(text)
    except ValueError:  # an integer longer than Python's int/str conversion limit
        return BigNumber(text)
    return BigNumber(text) if value in (float("inf"), float("-inf")) else value


class _Parser:
    """Recursive descent over the text; every value becomes a Node."""

    def __init__(self, text: str, label: str, allow_comments: bool) -> None:
        self.text = text
        self.label = label
        self.allow_comments = allow_comments
        self.pos = 0
        self.comments: list[tuple[int, int]] = []

    def fail(self, message: str, offset: int | None = None) -> SettingsError:
        return parse_error(self.text, self.pos if offset is None else offset, message, label=self.label)

    def skip(self) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in _WHITESPACE:
                self.pos += 1
            elif text.startswith("//", self.pos) or text.startswith("/*", self.pos):
                self._comment()
            else:
                return

    def _comment(self) -> None:
        start = self.pos
        if not self.allow_comments:
            raise self.fail("comments are not allowed in a plain JSON file")
        if self.text.startswith("//", start):
            newline = self.text.find("\n", start)
            end = len(self.text) if newline < 0 else newline
        else:
            close = self.text.find("*/", start + 2)
            if close < 0:
                raise self.fail("unterminated /* comment")
            end = close + 2
        self.comments.append((start, end))
        self.pos = end

    def document(self) -> Node:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("the file is empty; expected a JSON object")
        if self.text[self.pos] != "{":
            raise self.fail("the top level must be a JSON object")
        root = self.value()
        self.skip()
        if self.pos < len(self.text):
            raise self.fail("unexpected text after the top-level object")
        return root

    def value(self) -> Node:
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of file; expected a value")
        char = self.text[self.pos]
        if char in "{[":
            return self._container()
        if char == '"':
            start = self.pos
            text = self._string()
            return Node(start, self.pos, text)
        return self._scalar()

    def _string(self) -> str:
        try:
            # json.decoder.scanstring exists (JSONDecoder parses strings with it); typeshed omits it.
            value, end = json.decoder.scanstring(self.text, self.pos + 1, True)  # type: ignore[attr-defined]
        except json.JSONDecodeError as exc:
            message = exc.msg.removesuffix(" at").removesuffix(" starting")
            raise self.fail(message[0].lower() + message[1:], exc.pos) from None
        self.pos = end
        return value

    def _scalar(self) -> Node:
        start = self.pos
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, start):
                self.pos += len(word)
                return Node(start, self.pos, literal)
        match = _NUMBER_RE.match(self.text, start)
        if not match:
            raise self.fail("expected a value")
        self.pos = match.end()
        return Node(start, self.pos, _number(match.group(), bool(match.group(1) or match.group(2))))

    def _container(self) -> Node:
        """An object or an array, from its opening bracket to its closing one."""
        close = "}" if self.text[self.pos] == "{" else "]"
        node = Node(self.pos, self.pos, {} if close == "}" else [])
        self.pos += 1
        self.skip()
        if self.text.startswith(close, self.pos):
            self.pos += 1
            node.end = self.pos
            return node
        while True:
            if close == "}":
                node.members.append(self._member())
                node.value[node.members[-1].key] = node.members[-1].node.value
            else:
                node.value.append(self.value().value)
            self.skip()
            if self.text.startswith(",", self.pos):
                if node.members:  # an object's: where its comma stands
                    node.members[-1].comma = self.pos
                self.pos += 1
                self.skip()
                if self.text.startswith(close, self.pos):
                    raise self.fail(f"trailing comma before '{close}' is not allowed")
            elif self.text.startswith(close, self.pos):
                self.pos += 1
                node.end = self.pos
                return node
            else:
                raise self.fail(f"expected ',' or '{close}'")

    def _member(self) -> Member:
        if not self.text.startswith('"', self.pos):
            raise self.fail("expected a double-quoted property name")
        key_start = self.pos
        key = self._string()
        self.skip()
        if not self.text.startswith(":", self.pos):
            raise self.fail("expected ':'")
        self.pos += 1
        self.skip()
        return Member(key, key_start, self.value())

def parse_document(text: str, *, label: str, allow_comments: bool) -> Document:
    """Parse a settings file whose top level must be an object.

    Raises:
        SettingsError: `label:line:column: what is wrong`, with a hint.
    """
    if text.startswith("\ufeff"):
        # Refused rather than dropped: writing the file back would silently change its bytes.
        raise SettingsError(f"{label}: starts with a UTF-8 byte order mark (BOM)", hint=BOM_HINT)
    parser = _Parser(text, label, allow_comments)
    try:
        root = parser.document()
    except RecursionError:
        raise parser.fail("the file is nested too deeply") from None
    return Document(text, root, parser.comments)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _plain(text: str) -> dict[str, Any] | None:
    """`text` read by `json.loads` when it is plain JSON with an object at the top: the value the
    parser gives (its numbers too: ints, floats, BigNumber), at C speed. None for anything else
    (comments, a mistake to report, a BOM, NaN), which the parser reads or refuses with its
    line and column. Duplicate keys come out the same way: the first one's place, the last value."""
    try:
        value = json.loads(text, parse_int=lambda digits: _number(digits, False),
                           parse_float=lambda digits: _number(digits, True),
                           parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def parse(text: str, *, label: str, allow_comments: bool = True) -> dict[str, Any]:
    """Parse `text` and return its top-level object (key order kept)."""
    plain = _plain(text)
    if plain is not None:
        return plain
    return parse_document(text, label=label, allow_comments=allow_comments).data


def has_comments(text: str, *, label: str) -> bool:
    """Whether the JSONC `text` holds a comment."""
    return _plain(text) is None and bool(parse_document(text, label=label, allow_comments=True).comments)


def _swap_big_numbers(value: Any, marker: str, found: list[str]) -> Any:
    """`value` with each BigNumber replaced by the string `marker<n>`; its text goes to `found`."""
    if isinstance(value, BigNumber):
        found.append(value.text)
        return f"{marker}{len(found) - 1}"
    if isinstance(value, dict):
        return {key: _swap_big_numbers(item, marker, found) for key, item in value.items()}
    if isinstance(value, list):
        return [_swap_big_numbers(item, marker, found) for item in value]
    return value


def to_json(value: Any, indent: int | None = None) -> str:
    """`json.dumps(value, indent=indent, ensure_ascii=False)`, but always JSON that encodes as
    UTF-8: a BigNumber is written as its source text, a lone surrogate as a `\\uXXXX` escape.

    Raises:
        ValueError: a plain float is NaN or infinite (only a BigNumber has text to write).
    """
    found: list[str] = []
    marker = f"hookwrap-number-{uuid.uuid4().hex}-"  # random: no string in a file can equal it
    swapped = _swap_big_numbers(value, marker, found)
    text = json.dumps(swapped, indent=indent, ensure_ascii=False, allow_nan=False)
    for index, number in enumerate(found):
        text = text.replace(f'"{marker}{index}"', number, 1)
    return _SURROGATE_RE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def dumps(data: Any) -> str:
    """The one whole-file format hookwrap writes: 2-space indent, UTF-8 kept, final newline."""
    return to_json(data, indent=2) + "\n"


# --- Comment-keeping edits -------------------------------------------------------------------
# Each edit works on offsets taken from a fresh parse, changes one member of one object, and
# leaves every other byte alone. Several edits are applied one after the other, re-parsing in
# between, so no offset is ever used after the text moved.


def _same(left: Any, right: Any) -> bool:
    # Key order is part of what hookwrap promises to keep, so compare serialised forms.
    return to_json(left) == to_json(right)


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _line_end(text: str, offset: int) -> int:
    newline = text.find("\n", offset)
    return len(text) if newline < 0 else newline


def _blank(text: str, start: int, end: int) -> bool:
    return text[start:end].strip(" \t\r") == ""


def _line_indent(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    line = text[start:_line_end(text, start)]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _member_indent(text: str, obj: Node, first: Member | None = None) -> str:
    """The indent of ``first``'s line, else of ``obj``'s first member to start a line."""
    for member in ([first] if first else []) + obj.members:
        start = _line_start(text, member.key_start)
        if _blank(text, start, member.key_start):
            return text[start:member.key_start]
    return _line_indent(text, obj.start) + "  "


def _value_text(value: Any, indent: str) -> str:
    return to_json(value, indent=2).replace("\n", "\n" + indent)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    # Back to front, so earlier offsets stay valid; at one offset, later-listed edits land first.
    for start, end, new in sorted(edits, key=lambda edit: edit[0], reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _find(obj: Node, key: str) -> int | None:
    # JSON.parse keeps the last of duplicate keys, so the last one is the one that counts.
    found = [index for index, member in enumerate(obj.members) if member.key == key]
    return found[-1] if found else None


def _present(obj: Node, key: str) -> int:
    """_find for a key the caller has seen in ``obj``."""
    index = _find(obj, key)
    assert index is not None, key
    return index


def _replace_value(text: str, obj: Node, member: Member, value: Any) -> str:
    new = _value_text(value, _member_indent(text, obj, member))
    return _apply(text, [(member.node.start, member.node.end, new)])


def _add_member(text: str, obj: Node, key: str, value: Any) -> str:
    indent = _member_indent(text, obj)
    entry = f"{to_json(key)}: {_value_text(value, indent)}"
    closing = obj.end - 1
    line_start = _line_start(text, closing)
    if line_start > obj.start and _blank(text, line_start, closing):
        edits = [(line_start, line_start, f"{indent}{entry}\n")]
    else:
        edits = [(closing, closing, f"\n{indent}{entry}\n{_line_indent(text, closing)}")]
    if obj.members:
        # The comma goes right after the last value, before any comment that follows it.
        end = obj.members[-1].node.end
        edits.append((end, end, ","))
    return _apply(text, edits)


def _remove_member(text: str, obj: Node, index: int) -> str:
    member = obj.members[index]
    start = member.key_start
    end = member.comma + 1 if member.comma is not None else member.node.end
    line_start, line_end = _line_start(text, start), _line_end(text, end)
    if _blank(text, line_start, start) and _blank(text, end, line_end):
        start, end = line_start, min(line_end + 1, len(text))
    edits = [(start, end, "")]
    previous_comma = obj.members[index - 1].comma if index > 0 else None
    if member.comma is None and previous_comma is not None:
        edits.append((previous_comma, previous_comma + 1, ""))
    return _apply(text, edits)


def _refuse_if_commented(doc: Document, node: Node, key: str, path: str, label: str,
                         then: str = SYNC) -> None:
    if doc.has_comments_in(node.start, node.end):
        raise SettingsError(
            f'{label}: comments inside "{key}" would be lost (in {path}); '
            "hookwrap will not rewrite this file",
            hint=comment_hint(key, then),
        )


def _child_ops(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    ops = [("remove", sub) for sub in old if sub not in new]
    ops += [("replace", sub) for sub in old if sub in new and not _same(old[sub], new[sub])]
    return ops + [("add", sub) for sub in new if sub not in old]


def _rewrite_children(text: str, key: str, new: dict[str, Any], label: str, then: str) -> str:
    """Edit the object member `key` one child at a time, so comments between children survive."""
    doc = parse_document(text, label=label, allow_comments=True)
    old = doc.root.members[_present(doc.root, key)].node.value
    for op, sub in _child_ops(old, new):
        doc = parse_document(text, label=label, allow_comments=True)
        obj = doc.root.members[_present(doc.root, key)].node
        if op == "add":
            text = _add_member(text, obj, sub, new[sub])
            continue
        index = _present(obj, sub)
        child = obj.members[index]
        _refuse_if_commented(doc, child.node, key, f"{key}.{sub}", label, then)
        if op == "remove":
            text = _remove_member(text, obj, index)
        else:
            text = _replace_value(text, obj, child, new[sub])
    return text


def _rewrite(text: str, doc: Document, key: str, value: Any, label: str, then: str) -> str:
    index = _find(doc.root, key)
    if index is None:
        return text if value is REMOVE else _add_member(text, doc.root, key, value)
    member = doc.root.members[index]
    if value is REMOVE:
        _refuse_if_commented(doc, member.node, key, key, label, then)
        return _remove_member(text, doc.root, index)
    if isinstance(value, dict) and isinstance(member.node.value, dict):
        candidate = _rewrite_children(text, key, value, label, then)
        # Child edits cannot reorder keys; when the order changed, the whole value is rewritten.
        if _same(parse(candidate, label=label).get(key), value):
            return candidate
    _refuse_if_commented(doc, member.node, key, key, label, then)
    return _replace_value(text, doc.root, member, value)


def rewrite_member(text: str, key: str, value: Any, *, label: str, then: str = SYNC) -> str:
    """Return `text` with top-level member `key` set to `value` (or dropped, for REMOVE).

    Comments outside the parts that change are kept byte for byte. When `value` and the old
    value are both objects, only their changed children are rewritten, so comments inside
    unchanged children survive too. A new member goes last; JSON is indented 2 spaces per level.

    ``then`` is the command the hints end with (`hookwrap trust` for a CLI's user config).

    Raises:
        SettingsError: the text does not parse, or a comment sits inside a part that must change.
    """
    doc = parse_document(text, label=label, allow_comments=True)
    expected = dict(doc.data)
    if value is REMOVE:
        expected.pop(key, None)
    else:
        expected[key] = value
    if _same(expected, doc.data):
        return text
    new_text = _rewrite(text, doc, key, value, label, then)
    if not _same(parse(new_text, label=label), expected):
        # Only duplicate keys can get here: the edit hit one copy and another one still shows.
        raise SettingsError(
            f'{label}: "{key}" cannot be rewritten safely (is a key repeated?); '
            "hookwrap will not rewrite this file",
            hint=f'remove the repeated "{key}" by hand, then run {then}',
        )
    return new_text

