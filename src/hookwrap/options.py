"""A hook's own table of hookwrap.toml, read when the hook runs, so edits apply at once.

Rendered scripts call these instead of carrying the code themselves: a script is the user's
file once rendered, while this module is refreshed by ``hookwrap sync``. Python 3.11+ reads the
file with tomllib; on 3.9 and 3.10 (macOS's and Ubuntu 22.04's python3) a small reader takes
the part of TOML that hookwrap.toml's hook tables use (strings, numbers, booleans and arrays of
them). A value either reader cannot take counts as missing: the hook falls back to its default.
"""

from __future__ import annotations

import os
import re

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MANIFEST = "hookwrap.toml"
DEFAULT_TIMEOUT = 60  # the CLIs' default for a hook without a timeout
# The margin kept back inside a hook's timeout (the external-hook bridge's command, stop_gate's
# check, format's formatter): 30% of the timeout, at least 0.4 s (Python's start and the
# answer), at most 10 s, so it always fits inside the timeout.
_MARGIN_SHARE, _MARGIN_MIN, _MARGIN_MAX = 0.3, 0.4, 10.0


def project_root(script: str) -> str:
    """The repo root of a hook script at ``<root>/.hookwrap/hooks/<name>.py``."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(script))))


def manifest_entry(root: str, name: str) -> dict[str, Any]:
    """The ``[hooks.<name>]`` table of ``<root>/hookwrap.toml``; {} when it cannot be read."""
    try:
        with open(os.path.join(root, MANIFEST), "rb") as file:
            data = file.read()
        text = data.decode("utf-8")
    except (OSError, ValueError):
        return {}
    try:
        import tomllib  # novm: Python 3.11+; older ones take the fallback reader below
    except ImportError:
        tomllib = None  # type: ignore[assignment]
    try:
        if tomllib is None:
            return _read_table(text, name)
        entry = tomllib.loads(text).get("hooks", {}).get(name, {})
    except (ValueError, AttributeError, RecursionError):  # a broken file: the defaults
        return {}
    return entry if isinstance(entry, dict) else {}


def option(entry: dict[str, Any], key: str, default: Any) -> Any:
    """entry[key] when it has the default's type; else the default."""
    value = entry.get(key, default)
    return value if isinstance(value, type(default)) and not isinstance(value, bool) else default


def timeout_of(entry: dict[str, Any]) -> int:
    """A hook's timeout in whole seconds (what the CLI waits for it): the entry's, else the
    default."""
    timeout = entry.get("timeout")
    if not isinstance(timeout, int) or isinstance(timeout, bool) or timeout <= 0:
        timeout = DEFAULT_TIMEOUT
    return timeout


def time_limit(entry: dict[str, Any]) -> float:
    """Seconds for a hook's own subprocess (stop_gate's check, format's formatter): inside the
    hook's timeout, with the margin of `answer_limit`, so the hook answers before the CLI gives
    up on it (a 1 s timeout gives 0.6 s)."""
    return round(answer_limit(entry), 1)


def answer_limit(entry: dict[str, Any]) -> float:
    """Seconds for an external hook's command: inside the timeout every CLI is given (whole
    seconds; 1 s is 0.6 s, 3 s is 2.1 s, 60 s is 50 s), so the bridge answers in time."""
    timeout = timeout_of(entry)
    return timeout - min(_MARGIN_MAX, max(_MARGIN_MIN, timeout * _MARGIN_SHARE))


# --- the fallback reader ---------------------------------------------------------------------

_HEADER = re.compile(r"""^[ \t]*\[[ \t]*hooks[ \t]*\.[ \t]*(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))"""
                     r"""[ \t]*\][ \t]*(?:#.*)?$""")
_TABLE = re.compile(r"^[ \t]*\[")
_KEY = re.compile(r"""[ \t]*(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*=[ \t]*""")
_NUMBER = re.compile(r"[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9]+)?")
_BASIC = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_LITERAL = re.compile(r"'([^'\n]*)'")


class _Unreadable(Exception):
    """A value the fallback reader does not take."""


def _read_table(text: str, name: str) -> dict[str, Any]:
    """The ``[hooks.<name>]`` table of a TOML text, by the fallback reader."""
    # Only "\n" ends a TOML line (splitlines() would also split at "\x85" inside a string).
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    inside = _in_multiline_string(lines)
    start = next((i for i, line in enumerate(lines) if not inside[i] and _is_header(line, name)),
                 None)
    if start is None:
        return {}
    body = "\n".join(_table_lines(lines[start + 1:], inside[start + 1:]))
    entry: dict[str, Any] = {}
    position = 0
    while position < len(body):
        position = _skip_blank(body, position)
        match = _KEY.match(body, position)
        if match is None:
            position = _next_line(body, position)
            continue
        key = next(group for group in match.groups() if group is not None)
        try:
            value, position = _value(body, match.end())
            entry[key] = value
        except _Unreadable:
            position = _next_line(body, match.end())
    return entry


def _is_header(line: str, name: str) -> bool:
    match = _HEADER.match(line)
    return match is not None and name in match.groups()


def _in_multiline_string(lines: list[str]) -> list[bool]:
    """Per line: does it start inside a multi-line string (\"\"\" or \'\'\'), where a "[hooks.x]"
    is text, not a header. A quote inside a one-line string or a comment opens nothing."""
    flags, delimiter = [], None
    for line in lines:
        flags.append(delimiter is not None)
        position = 0
        while position <= len(line):
            if delimiter is not None:
                close = _MULTI_CLOSE[delimiter].match(line, position)
                if close is None:
                    break
                position, delimiter = close.end(), None
                continue
            token = _LINE_TOKEN.search(line, position)
            if token is None or token.group() == "#":
                break
            if token.group() in ('"""', "'''"):
                delimiter = token.group()
            position = token.end()
    return flags


# Outside a multi-line string: its opening, a one-line string (skipped whole) or a comment.
_LINE_TOKEN = re.compile(r'"""|\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#')
# Inside one: its end (in a basic one, an escaped quote ends nothing). Up to two more quotes may
# belong to the string's text ('\'\'\'\'' ends after the fourth quote).
_MULTI_CLOSE = {'"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""(?:""|")?'),
                "'''": re.compile(r"(?:[^']|'(?!''))*'''(?:''|')?")}


def _table_lines(lines: list[str], inside: list[bool]) -> list[str]:
    """The lines up to the next table header (a "[" that does not continue an open array)."""
    kept, depth = [], 0
    for line, quoted in zip(lines, inside):
        if depth == 0 and not quoted and _TABLE.match(line):
            break
        kept.append(line)
        depth = max(0, depth + _bracket_balance(line))
    return kept


def _bracket_balance(line: str) -> int:
    stripped = _BASIC.sub("", _LITERAL.sub("", line)).split("#", 1)[0]
    return stripped.count("[") - stripped.count("]")


def _skip_blank(text: str, position: int) -> int:
    while position < len(text):
        if text[position] in " \t\r\n,":
            position += 1
        elif text[position] == "#":
            position = _next_line(text, position)
        else:
            break
    return position


def _next_line(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end < 0 else end + 1


def _value(text: str, position: int) -> tuple[Any, int]:
    """One value at ``position``: (value, the position after it)."""
    if text.startswith(('"""', "'''"), position):
        raise _Unreadable(position)
    for pattern, decode in ((_BASIC, _unescape), (_LITERAL, str)):
        match = pattern.match(text, position)
        if match:
            return decode(match.group(1)), match.end()
    if text.startswith("[", position):
        return _array(text, position + 1)
    for word, value in (("true", True), ("false", False)):
        if re.match(word + r"\b", text[position:]):
            return value, position + len(word)
    match = _NUMBER.match(text, position)
    if match and match.group():
        number = match.group().replace("_", "")
        is_float = any(c in number for c in ".eE")
        return (float(number) if is_float else int(number)), match.end()
    raise _Unreadable(position)


def _array(text: str, position: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    while True:
        position = _skip_blank(text, position)
        if position >= len(text):
            raise _Unreadable(position)
        if text[position] == "]":
            return items, position + 1
        item, position = _value(text, position)
        items.append(item)


_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\",
            "e": "\x1b"}


def _unescape(raw: str) -> str:
    """A TOML basic string's escapes (\\b \\t \\n \\f \\r \\" \\\\ \\e \\uXXXX \\UXXXXXXXX), read left
    to right so that an escaped backslash is never the start of another escape."""

    def one(match: re.Match[str]) -> str:
        hex_digits = match.group(1) or match.group(2)
        if hex_digits is not None:
            code = int(hex_digits, 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:  # not a Unicode scalar value
                raise _Unreadable(raw)
            return chr(code)
        short = match.group(3)
        if short is None or short not in _ESCAPES:  # a lone backslash at the end, or \x, \q ...
            raise _Unreadable(raw)
        return _ESCAPES[short]

    if any((ord(c) < 0x20 and c != "\t") or c == "\x7f" for c in raw):
        raise _Unreadable(raw)  # control characters must be escaped
    return re.sub(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.)|$)", one, raw, flags=re.S)
