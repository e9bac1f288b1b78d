"""What is wrong with a TOML text that does not parse, as one line naming its place and a hint.

tomlkit (which hookwrap edits TOML with) reports a repeated key with no position at all, and
words other faults after its own parser's state ("Unexpected character: '['"). The stdlib's
tomllib places every fault; this module asks it, and says the common hand-edit faults (a key or
table written twice, a string left open, an unquoted value) in the file's own terms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SYNTAX_HINT = "fix the TOML syntax there, then run the command again"

_AT = re.compile(r"^(?P<message>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|"
                 r"(?P<end>end of document))\)$", re.S)
_TOMLKIT_AT = re.compile(r" at line \d+ col \d+$")
_HEADER = re.compile(r"^\s*\[\[?\s*(?P<name>[^\]#]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*(?P<key>(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
                  r"""(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*)\s*=""")


@dataclass(frozen=True)
class TomlFault:
    """Where a TOML text stops parsing (1-based; 0 when unknown) and what to do about it."""

    line: int
    column: int
    message: str
    hint: str = SYNTAX_HINT

    def where(self, label: str) -> str:
        """``label:line:column``, as compilers and hookwrap's JSON errors place a fault."""
        return f"{label}:{self.line}:{self.column}" if self.line else label


def toml_fault(text: str, error: Exception | None = None) -> TomlFault:
    """The fault of ``text``, which a TOML parser rejected with ``error`` (tomlkit's, used
    when the stdlib parser accepts the text)."""
    import tomllib

    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as found:
        placed = _AT.match(str(found))
        lines = text.splitlines()
        if placed and placed["end"]:  # the last line, past its end
            return _explain(lines, len(lines), len(lines[-1]) + 1 if lines else 1,
                            placed["message"])
        if placed:
            return _explain(lines, int(placed["line"]), int(placed["column"]), placed["message"])
    except RecursionError:
        pass
    line, column = getattr(error, "line", 0) or 0, getattr(error, "col", 0) or 0
    message = _TOMLKIT_AT.sub("", str(error)) if error is not None else "not valid TOML"
    repeated = re.match(r'Key "(.*)" already exists\.?$', message)
    if repeated:
        return TomlFault(line, column, f'key "{repeated[1]}" appears twice', _TWICE_HINT)
    return TomlFault(line, column + 1 if line else 0, _sentence(message))


_TWICE_HINT = "keep one of the two lines: TOML allows a key only once in a table"


def _explain(lines: list[str], line: int, column: int, message: str) -> TomlFault:
    if message == "Cannot overwrite a value":
        header = _HEADER.match(lines[line - 1]) if 0 < line <= len(lines) else None
        if header:
            return TomlFault(line, 1, f"table [{_key_name(header['name'])}] goes inside a key "
                             "that is already set to a value above",
                             hint="rename or remove one of the two")
        return _repeated_key(lines, line) or TomlFault(line, column, "a key is set twice",
                                                       _TWICE_HINT)
    if message.startswith("Cannot declare"):
        return _repeated_table(lines, line)
    inline = re.match(r"Duplicate inline table key '(.*)'$", message)
    if inline:
        return TomlFault(line, column, f'key "{inline[1]}" appears twice in an inline table '
                         "{ ... }", "keep one of the two: TOML allows a key only once in a table")
    if message == "Illegal character '\\n'":
        return TomlFault(line, column, "a string is not closed before the end of the line",
                         'close it with the quote it opened with; a line break inside a string '
                         'needs """triple quotes"""')
    if message == "Unclosed array":
        return TomlFault(line, column, "a list [ ... ] is not closed",
                         "end it with ] after its last item (items are separated by commas)")
    if message == "Invalid value":
        return TomlFault(line, column, "invalid value",
                         'text goes in double quotes, e.g. event = "before_tool"; numbers, '
                         "true/false and [lists] do not")
    return TomlFault(line, column, _sentence(message))


def _repeated_key(lines: list[str], line: int) -> TomlFault | None:
    """A ``key = ...`` written twice in one table; tomllib places the second one's value end,
    which a multi-line value puts below the key itself."""
    at = next((i for i in range(min(line, len(lines)) - 1, -1, -1) if _KEY.match(lines[i])
               or _HEADER.match(lines[i])), None)
    found = _KEY.match(lines[at]) if at is not None else None
    if at is None or found is None:
        return None
    key = _key_name(found["key"])
    start, table = -1, "at the top of the file"
    for i in range(at - 1, -1, -1):
        header = _HEADER.match(lines[i])
        if header:
            start, table = i, f"in [{_key_name(header['name'])}]"
            break
    first = next((i for i in range(start + 1, at) if (m := _KEY.match(lines[i]))
                  and _key_name(m["key"]) == key), None)
    also = f" (first on line {first + 1})" if first is not None else ""
    column = len(lines[at]) - len(lines[at].lstrip()) + 1
    return TomlFault(at + 1, column, f'key "{key}" appears twice {table}{also}', _TWICE_HINT)


def _repeated_table(lines: list[str], line: int) -> TomlFault:
    header = _HEADER.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if header is None:
        return TomlFault(line, 1, "a table is declared twice",
                         "merge the two into one table: TOML allows each table only once")
    name = _key_name(header["name"])
    first = next((i for i in range(line - 1) if (m := _HEADER.match(lines[i]))
                  and _key_name(m["name"]) == name), None)
    also = f" (first on line {first + 1})" if first is not None else " (its keys are set above)"
    return TomlFault(line, 1, f"table [{name}] appears twice{also}",
                     f"merge the two into one [{name}] table: TOML allows each table only once")


def _key_name(key: str) -> str:
    """A dotted key as written, without its spaces; a quoted bare-safe part loses its quotes."""
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'""", key)
    plain = [p[1:-1] if p[0] in "\"'" and re.fullmatch(r"[A-Za-z0-9_-]+", p[1:-1]) else p
             for p in parts]
    return ".".join(plain)


def _sentence(message: str) -> str:
    return message[:1].lower() + message[1:] if message[:2] != message[:2].upper() else message
