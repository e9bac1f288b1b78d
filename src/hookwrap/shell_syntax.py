"""The shell's syntax, as shell.py reads a line into it: words, substitutions, redirections,
simple commands, and the parsed line (``Script``). The parser that builds them from any line is
shell_parser.py; shell.py splits a line of plain words itself.

Stdlib only and Python 3.9+.
"""

from __future__ import annotations

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional


class Word:
    """One word: ``text`` as the program gets it (quotes and escapes removed; expansions such
    as ``$HOME``, ``${X:-y}`` or ``$(cmd)`` kept as written), ``raw`` as written."""

    __slots__ = ("expands", "glob", "quoted", "raw", "subs", "text", "tilde")

    def __init__(self, text: str, raw: str) -> None:
        self.text = text
        self.raw = raw
        self.subs: List[Sub] = []  # command and process substitutions inside it
        self.expands = False  # holds a $ expansion or a substitution: its value is not known
        self.glob = False  # holds an unquoted * ? [ (or a brace): may become other words
        self.quoted = False  # holds quotes or backslashes
        self.tilde = False  # starts with an unquoted ~

    def __repr__(self) -> str:
        return f"Word({self.text!r})"


def literal(text: str, braces: bool = False) -> Word:
    """A word as written, with no quote or expansion in it: a glob when it holds * ? [ (or a
    brace, where ``braces``: as the parser reads a line), a tilde word when it starts with ~."""
    word = Word(text, text)
    word.glob = "*" in text or "?" in text or "[" in text or (braces and "{" in text)
    word.tilde = text[:1] == "~"
    return word


class Sub:
    """A substitution inside a word: ``$(...)``, a backquote, ``<(...)`` or ``>(...)``."""

    __slots__ = ("kind", "script")

    def __init__(self, kind: str, script: Script) -> None:
        self.kind = kind
        self.script = script


class Redirect:
    """``fd op target``: ``2>>log``, ``<in``, ``&>out``, ``>&2``, ``<<<text``; a here-document
    has ``op`` ``<<`` or ``<<-``, its delimiter as ``target`` and its text as ``body``."""

    __slots__ = ("body", "body_expands", "body_subs", "fd", "op", "target")

    def __init__(self, fd: str, op: str, target: Optional[Word]) -> None:
        self.fd = fd
        self.op = op
        self.target = target
        self.body: Optional[str] = None
        self.body_expands = False  # an unquoted delimiter: $(...) in the body runs
        self.body_subs: List[Sub] = []

    @property
    def writes(self) -> bool:
        """Whether it opens its target for writing (a file, not a duplicated descriptor)."""
        if self.target is None or self.op in ("<", "<<", "<<-", "<<<", "<&"):
            return False
        return not (self.op in (">&", "<&") and (self.target.text.isdigit() or self.target.text == "-"))

    @property
    def reads(self) -> bool:
        return self.target is not None and self.op in ("<", "<>")

    def shown(self) -> str:
        if self.op in ("<<", "<<-"):
            return f"{self.fd}{self.op}{self.target.raw if self.target else ''}"
        return f"{self.fd}{self.op}{_shown_word(self.target.raw if self.target else '')}"


class Simple:
    """A simple command as written: its words and redirections, in order."""

    __slots__ = ("lead_redirect", "pipe_in", "redirects", "words")

    def __init__(self) -> None:
        self.words: List[Word] = []
        self.redirects: List[Redirect] = []
        self.lead_redirect = False  # a redirection came before its first word
        self.pipe_in: Optional[Simple] = None  # the command before it in its pipeline


class Script:
    """A parsed line: its simple commands in order; ``unread`` holds text nested deeper than
    MAX_NESTING (not read); ``problems`` what the shell itself would choke on; ``notes`` the
    constructs seen that make a later word's meaning depend on an earlier one ("function",
    "arithmetic", "here-document", "continuation")."""

    __slots__ = ("commands", "notes", "problems", "unread")

    def __init__(self) -> None:
        self.commands: List[Simple] = []
        self.unread: List[str] = []
        self.problems: List[str] = []
        self.notes: set[str] = set()


def _shown_word(raw: str) -> str:
    return raw if len(raw) <= 80 else raw[:77] + "..."
