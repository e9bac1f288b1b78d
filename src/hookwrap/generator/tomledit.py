"""Set one value in a TOML text, whatever shape the file is written in, and keep the rest.

A user's TOML file (Codex CLI's ``config.toml``) may spell the same table as a ``[a."b"]``
section, split over several sections, as a super-table, with dotted keys (``a."b".c = 1``), as
an inline table (``a = { "b" = {...} }``), beside arrays of tables. ``set_value`` edits the text
the least it can: an existing value is replaced where it is written; a value missing from a
table that exists goes into that table (after its last line, spelled as its siblings are); a
table that does not exist becomes a new section at the end; inside an inline table, the value
goes into the inline table. Each edit is checked before it is returned (the text parses with
``tomllib``, holds the value, keeps every other value and every comment); when no edit passes,
the file is refused with a line that says what to add by hand. Pure: nothing is written.

Only the standard library and tomlkit (for inline tables); a leaf of the generator.
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .errors import SettingsError

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_HINT = "then run `hookwrap trust` again"


def set_value(text: str, keys: tuple[str, ...], value: Any, *, label: str) -> tuple[str, str]:
    """``text`` with ``keys`` (a path of tables, the last naming the value) set to ``value``.

    Returns the new text and what was done: "create", "update" or "unchanged".

    Raises:
        SettingsError: the text is not valid TOML, a table on the path is another kind of value,
            or the value cannot be set without changing something else.
    """
    data = load(text, label=label)
    node: Any = data
    table_exists = True
    for depth, key in enumerate(keys[:-1]):
        if key not in node:
            table_exists = False
            break
        node = node[key]
        if not isinstance(node, dict):
            where = dotted(keys[:depth + 1])
            raise SettingsError(
                f"{label}: {where} is {_kind(node)}, not a table, so {shown(keys, value)} "
                "cannot be added",
                hint=f"make {where} a table ([{where}.\"...\"] sections) or move the file away, "
                     f"{_HINT}")
    last = keys[-1]
    if table_exists and last in node and same(node[last], value):
        return text, "unchanged"
    action = "update" if table_exists and last in node else "create"
    expected = copy.deepcopy(data)
    target = expected
    for key in keys[:-1]:
        target = target.setdefault(key, {})
    target[last] = value
    edits = (_edit_lines, _edit_tomlkit, _append_table) if table_exists else \
        (_append_table, _edit_tomlkit)
    comments = _comments(text)
    for edit in edits:
        new = edit(text, keys, value)
        if new is not None and _keeps(new, expected, comments):
            return new, action
    raise SettingsError(f"{label}: hookwrap cannot add {shown(keys, value)} without changing "
                        "other values, the way this file is written",
                        hint=f"add {quote(last)} = {render(value)} to the table "
                             f"{dotted(keys[:-1])} by hand, {_HINT}")


def load(text: str, *, label: str) -> dict[str, Any]:
    """``tomllib.loads`` (strict TOML 1.0, as the CLIs read it); the error names the line."""
    import tomllib  # novm: the generator half runs in the installed hookwrap (Python 3.11+)

    if text.startswith("\ufeff"):
        raise SettingsError(f"{label}: starts with a UTF-8 byte order mark (BOM)",
                            hint=f"save the file as UTF-8 without a BOM, {_HINT}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        where = _error_position(text) or str(error)
        raise SettingsError(f"{label}: {where}: not valid TOML",
                            hint=f"fix the file by hand (or move it away), {_HINT}") from None


def _error_position(text: str) -> str:
    import tomlkit
    from tomlkit.exceptions import ParseError

    try:
        tomlkit.parse(text)
    except ParseError as error:
        return f"line {error.line}, column {error.col}"
    except Exception:  # tomlkit failing its own way: tomllib's message says where
        return ""
    return ""


# --- spelling keys and values ------------------------------------------------------------------

def string(text: str) -> str:
    """A TOML basic string: every control character (and DEL) escaped, the rest as it is."""
    escaped = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
               "\r": "\\r"}
    return '"' + "".join(escaped.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 or c == "\x7f"
                                            else c) for c in text) + '"'


def quote(key: str) -> str:
    """A TOML key: bare when it may be, else a basic string."""
    return key if _BARE_KEY.fullmatch(key) else string(key)


def dotted(keys: tuple[str, ...]) -> str:
    return ".".join(quote(k) for k in keys)


def render(value: Any) -> str:
    """A scalar as TOML spells it."""
    if isinstance(value, str):
        return string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    import tomlkit

    return tomlkit.item(value).as_string()


def shown(keys: tuple[str, ...], value: Any) -> str:
    """``[projects."/p"] trust_level = "trusted"``: where a value sits and what it is."""
    return f"[{dotted(keys[:-1])}] {quote(keys[-1])} = {render(value)}"


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array of tables" if value and all(isinstance(v, dict) for v in value) \
            else "an array"
    return {str: "a string", bool: "a boolean", int: "an integer", float: "a number"}.get(
        type(value), "a value")


# --- checking an edit --------------------------------------------------------------------------

def _keeps(new: str, expected: dict[str, Any], comments: list[str]) -> bool:
    """Whether ``new`` parses to exactly ``expected`` and still holds every comment."""
    import tomllib  # novm: the generator half runs in the installed hookwrap (Python 3.11+)

    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        return False
    return same(parsed, expected) and not Counter(comments) - Counter(_comments(new))


def same(left: Any, right: Any) -> bool:
    """Equal as TOML values: same types (1 is not 1.0 nor true), nan equal to nan."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    if isinstance(left, float) and math.isnan(left):
        return math.isnan(right)
    return bool(left == right)


def _string_end(text: str, index: int) -> int:
    """The offset after the string starting at ``index`` (any of TOML's four kinds)."""
    char = text[index]
    delimiter = char * 3 if text.startswith(char * 3, index) else char
    index += len(delimiter)
    size = len(text)
    while index < size and not text.startswith(delimiter, index):
        if len(delimiter) == 1 and text[index] == "\n":
            return index  # not valid TOML; never read past the line
        index += 2 if char == '"' and text[index] == "\\" else 1
    index += len(delimiter)
    while len(delimiter) == 3 and index < size and text[index] == char:
        index += 1  # up to two quotes of the string's own before its closing three
    return index


def _comments(text: str) -> list[str]:
    """Every comment of a valid TOML text, as written (``#`` outside a string, to the line's end)."""
    found, index, size = [], 0, len(text)
    while index < size:
        char = text[index]
        if char == "#":
            end = text.find("\n", index)
            end = size if end < 0 else end
            found.append(text[index:end].rstrip("\r"))
            index = end
        elif char in "\"'":
            index = _string_end(text, index)
        else:
            index += 1
    return found


# --- the three ways of editing -----------------------------------------------------------------

def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _append_table(text: str, keys: tuple[str, ...], value: Any) -> str | None:
    """The value in a new ``[a."b"]`` section at the end of the file (None for a top-level key,
    which cannot follow a section)."""
    if len(keys) < 2:
        return None
    nl = _newline(text)
    if text and not text.endswith("\n"):
        text += nl
    gap = nl if text.strip() and not text.endswith(nl + nl) else ""
    return f"{text}{gap}[{dotted(keys[:-1])}]{nl}{quote(keys[-1])} = {render(value)}{nl}"


def _edit_tomlkit(text: str, keys: tuple[str, ...], value: Any) -> str | None:
    """The value set through tomlkit where its table is (inline tables included); a missing
    table only inside an inline table, as nested inline tables. None when tomlkit cannot."""
    import tomlkit
    from tomlkit.items import InlineTable

    try:
        document = tomlkit.parse(text)
        node: Any = document
        for depth, key in enumerate(keys[:-1]):
            if key in node:
                node = node[key]
                continue
            if not isinstance(node, InlineTable):
                return None
            item: Any = value
            for inner in reversed(keys[depth + 1:]):
                table = tomlkit.inline_table()
                table[inner] = item
                item = table
            node[key] = item
            return tomlkit.dumps(document)
        node[keys[-1]] = value
        return tomlkit.dumps(document)
    except Exception:  # any tomlkit failure just means this way of editing does not apply
        return None


@dataclass(frozen=True)
class _Line:
    """A ``key = value`` line (or a section header, ``value`` then empty) of a TOML text."""

    section: tuple[str, ...]  # the header the line sits under; () at the top
    array: bool               # the section is an element of an array of tables
    keys: tuple[str, ...]     # the key as written (dotted parts); () for a header
    value: tuple[int, int]    # where the value is written
    end: int                  # the end of the line (its comment included), before the newline
    indent: str

    @property
    def path(self) -> tuple[str, ...]:
        return self.section + self.keys


def _edit_lines(text: str, keys: tuple[str, ...], value: Any) -> str | None:
    """Edit the text itself: replace the value where it is written, or add a line for it
    after the last line of its table, spelled relative to that line's section. None when the
    value is not written in a plain section (inline tables, arrays of tables: see tomlkit)."""
    lines = _scan(text)
    if lines is None:
        return None
    table = keys[:-1]
    arrays = {line.section for line in lines if line.array}
    if any(keys[:n] in arrays for n in range(1, len(keys) + 1)):
        return None  # the path runs through an array of tables
    written = [line for line in lines if line.keys and line.path == keys and not line.array]
    if written:
        start, end = written[-1].value
        return text[:start] + render(value) + text[end:]
    # Lines that belong to the table: in its own section, or dotted keys of a section above it.
    members = [line for line in lines if not line.array and line.path[:len(table)] == table
               and table[:len(line.section)] == line.section
               and (line.keys or line.section == table)]
    if not members:
        return None
    own = [line for line in members if line.section == table]
    after = (own or members)[-1]
    relative = keys[len(after.section):]
    nl = _newline(text)
    line = f"{nl}{after.indent if after.keys else ''}{dotted(relative)} = {render(value)}"
    return text[:after.end] + line + text[after.end:]


class _Unreadable(Exception):
    """The scanner met something it does not read (the other ways of editing may)."""


def _scan(text: str) -> list[_Line] | None:
    """Every key line and section header of a valid TOML text, in order."""
    try:
        return list(_Scanner(text).lines())
    except (_Unreadable, IndexError):
        return None


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def lines(self) -> Any:
        text = self.text
        section: tuple[str, ...] = ()
        array = False
        while self.pos < len(text):
            line_start = self.pos
            self._blanks()
            indent = text[line_start:self.pos]
            if self.pos >= len(text):
                return
            char = text[self.pos]
            if char in "\r\n":
                self.pos += 1
            elif char == "#":
                self._to_line_end()
            elif char == "[":
                array = text.startswith("[[", self.pos)
                self.pos += 2 if array else 1
                section = self._key()
                closing = "]]" if array else "]"
                if not text.startswith(closing, self.pos):
                    raise _Unreadable
                self.pos += len(closing)
                self._rest_of_line()
                yield _Line(section, array, (), (self.pos, self.pos), self.pos, indent)
            else:
                keys = self._key()
                if not text.startswith("=", self.pos):
                    raise _Unreadable
                self.pos += 1
                self._blanks()
                start = self.pos
                self._value()
                end = self.pos
                self._rest_of_line()
                yield _Line(section, array, keys, (start, end), self.pos, indent)

    def _blanks(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def _to_line_end(self) -> None:
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end
        if self.text[self.pos - 1:self.pos] == "\r":
            self.pos -= 1

    def _rest_of_line(self) -> None:
        self._blanks()
        if self.text.startswith("#", self.pos):
            self._to_line_end()
        elif self.pos < len(self.text) and self.text[self.pos] not in "\r\n":
            raise _Unreadable

    def _key(self) -> tuple[str, ...]:
        import tomllib  # novm: the generator half runs in the installed hookwrap (Python 3.11+)

        text, keys = self.text, []
        while True:
            self._blanks()
            if text.startswith(('"""', "'''"), self.pos):
                raise _Unreadable
            if text[self.pos] in "\"'":
                end = _string_end(text, self.pos)
                keys.append(tomllib.loads(f"k = {text[self.pos:end]}")["k"])
                self.pos = end
            else:
                match = _BARE_KEY.match(text, self.pos)
                if match is None:
                    raise _Unreadable
                keys.append(match.group())
                self.pos = match.end()
            self._blanks()
            if not text.startswith(".", self.pos):
                return tuple(keys)
            self.pos += 1

    def _value(self) -> None:
        text = self.text
        char = text[self.pos]
        if char in "\"'":
            self.pos = _string_end(text, self.pos)
        elif char in "[{":
            closing = "]" if char == "[" else "}"
            self.pos += 1
            while True:
                self._space_in(char == "[")
                if text.startswith(closing, self.pos):
                    self.pos += 1
                    return
                if text.startswith(",", self.pos):
                    self.pos += 1
                    continue
                if char == "{":
                    self._key()
                    if not text.startswith("=", self.pos):
                        raise _Unreadable
                    self.pos += 1
                    self._blanks()
                self._value()
        else:
            match = re.compile(r"[^,\]}#\r\n]*").match(text, self.pos)
            assert match is not None  # the pattern matches the empty string
            self.pos = self.pos + len(match.group().rstrip(" \t"))
            if self.pos == match.start():
                raise _Unreadable

    def _space_in(self, array: bool) -> None:
        """Blanks, and in an array also newlines and comments."""
        while self.pos < len(self.text):
            self._blanks()
            if array and self.text.startswith("#", self.pos):
                self._to_line_end()
            elif array and self.pos < len(self.text) and self.text[self.pos] in "\r\n":
                self.pos += 1
            else:
                return
        raise _Unreadable
