"""One shell lexer for the runtime: the simple commands a shell line would run.

The command filter (commandfilter.py) and the guard (guard_engine.py) both read shell lines
through this module. Two layers:

- ``parse(line)``: the line as bash reads it, without running anything: simple commands (their
  words with quotes removed, their redirections and here-documents), and inside any word or
  redirection target the commands of ``$(...)``, backquotes, ``<(...)`` and ``>(...)``.
- ``commands(line)``: every command the line would run, flattened: also those inside
  substitutions (a redirection target included: ``echo x >$(rm -rf /)``), ``bash -c`` / ``sh -c``
  / ``$SHELL -c`` bodies, ``eval``, here-documents, here-strings and ``echo ... |`` pipes fed to a
  shell, behind wrappers (``sudo``, ``env``, ``nice``, ``timeout``, ``xargs``, ``busybox``...),
  after ``find -exec``, and in the code given to ``python -c``, ``node -e``, ``ruby -e``,
  ``perl -e``, ``awk``... Each one says how it was reached (``via``).

Stdlib only and Python 3.9+. It never raises, and it takes time in proportion to the length of
the line: one pass, no regular expression, nesting read up to ``MAX_NESTING`` levels (deeper
text is kept in ``Script.unread`` for callers that must fail closed) and command bodies re-read
up to ``MAX_BODIES`` levels (the text of a body deeper still goes to ``Reading.unread``).
``#`` starts no comment (zsh without ``interactive_comments`` reads it as a word), so a
``# rm -rf /`` is still a command here.
"""

from __future__ import annotations

import posixpath

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, List, Optional, Tuple

MAX_NESTING = 40  # $( ( <( ` ${ levels read inside one another
MAX_BODIES = 6  # bash -c, eval, interpreter code... read inside one another
MAX_ARGS_SHOWN = 60
# Steps read() may take per character of the line (on top of a constant): bodies read inside
# bodies (eval "$(eval ...)") stop there, and what is left counts as unread.
WORK_PER_CHARACTER = 40

_BLANKS = " \t\r"
_META = frozenset(" \t\r\n;&|()<>")
# Characters that end a run of plain word characters.
_WORD_SPECIAL = frozenset(" \t\r\n;&|()<>'\"\\$`")
_GLOB = frozenset("*?[")
_SEPARATORS = frozenset(("\n", ";", "&", "&&", "||", ";;", ";&", ";;&"))
_PIPES = frozenset(("|", "|&"))
_REDIRECTS = (">>", ">|", ">&", ">", "<<<", "<<-", "<<", "<>", "<&", "<")


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

    @property
    def dynamic(self) -> bool:
        """Whether the shell may turn it into other text (an expansion, a glob, a ~)."""
        return self.expands or self.glob or self.tilde

    def __repr__(self) -> str:
        return f"Word({self.text!r})"


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


# --- the lexer and parser ------------------------------------------------------------------


class _Level:
    """The state of one list of commands being read: the command so far, and case patterns."""

    __slots__ = ("case_depth", "current", "into", "pattern")

    def __init__(self, into: List[Simple], pipe_from: Optional[Simple]) -> None:
        self.into = into
        self.current = Simple()
        self.current.pipe_in = pipe_from
        self.case_depth = 0
        self.pattern = False  # reading a case pattern, up to its ")"

    def finish(self, pipe: bool) -> None:
        """The command so far is complete; the next one reads its output when ``pipe``."""
        done = self.current
        kept = bool(done.words or done.redirects)
        if kept:
            self.into.append(done)
        self.current = Simple()
        self.current.pipe_in = done if pipe and kept else None


class _Parser:
    """One pass over ``source``; nested parsers (backquotes) share the step counter."""

    def __init__(self, source: str, depth: int, steps: List[int], script: Script) -> None:
        self.s = source
        self.n = len(source)
        self.i = 0
        self.depth = depth
        self.steps = steps
        self.script = script  # where problems and unread text go (the top script)
        self.pending: List[Redirect] = []  # here-documents whose body comes after the newline

    # -- command level ------------------------------------------------------------------

    def commands(self, depth: int, closer: str, into: List[Simple],
                 pipe_from: Optional[Simple] = None) -> None:
        """Read commands into ``into`` up to ``closer`` (")" or the end), consuming it."""
        s, n = self.s, self.n
        level = _Level(into, pipe_from)
        while self.i < n:
            self.steps[0] += 1
            c = s[self.i]
            if c in _BLANKS:
                self.i += 1
            elif c == "\\" and s.startswith("\\\n", self.i):
                self.i += 2  # a line continuation
                self.script.notes.add("continuation")
            elif c == "\n":
                self.i += 1
                level.finish(False)
                if self.pending:
                    self._read_heredocs()
            elif c == ")":
                self.i += 1
                if level.pattern:
                    level.pattern = False
                    continue
                level.finish(False)  # the end of this level, or an unbalanced ")": a separator
                if closer == ")":
                    return
            elif c == "(":
                self._open(level, depth)
            elif c in ";&|":
                self._separator(level, depth)
            elif c in "<>" and not s.startswith("(", self.i + 1):
                op = next(op for op in _REDIRECTS if s.startswith(op, self.i))
                self.i += len(op)
                self._redirect(level.current, "", op, depth)
            else:
                self._command_word(level, depth)
        level.finish(False)
        if self.pending:
            self._read_heredocs()

    def _open(self, level: _Level, depth: int) -> None:
        """A "(": a subshell, `name ()` of a function definition, or `((` arithmetic."""
        s = self.s
        self.i += 1
        if level.pattern:
            return
        current = level.current
        if current.words and s.startswith(")", self._skip_blanks(self.i)):
            self.i = self._skip_blanks(self.i) + 1
            current.words = []  # `name ()`: a definition; its body follows
            self.script.notes.add("function")
            return
        after = self._skip_blanks(self.i)
        if s.startswith("(", after):
            self.script.notes.add("arithmetic")  # ((...)), or a subshell in a subshell
        elif s.startswith(")", after):
            self.script.notes.add("function")  # `( )`: a function's parentheses, or nothing
        upstream = current.pipe_in if not (current.words or current.redirects) else None
        level.finish(False)
        self._group(depth, level.into, upstream)

    def _separator(self, level: _Level, depth: int) -> None:
        op = self._operator()
        if level.pattern and op == "|":
            return
        if op in ("&>", "&>>"):
            self._redirect(level.current, "", op, depth)
            return
        level.finish(op in _PIPES)
        if op in (";;", ";&", ";;&") and level.case_depth:
            level.pattern = True

    def _command_word(self, level: _Level, depth: int) -> None:
        s, n = self.s, self.n
        start = self.i
        word = self._word(depth)
        if self.i == start:  # cannot happen: every character starts some token; never loop
            self.i += 1
            return
        words = level.current.words
        if len(words) > 2 and not level.pattern and (self.i >= n or s[self.i] not in "<>"):
            words.append(word)  # a later argument: the usual case
            return
        if self.i < n and s[self.i] in "<>" and word.raw.isdigit() and \
                not s.startswith("(", self.i + 1):
            op = next(op for op in _REDIRECTS if s.startswith(op, self.i))
            self.i += len(op)
            self._redirect(level.current, word.raw, op, depth)
            return
        if level.pattern:  # a case pattern is no command
            if word.text == "esac" and not word.quoted:
                level.pattern = False
                level.case_depth -= 1
            return
        current = level.current
        if not current.words and not word.quoted and level.case_depth and word.text == "esac":
            level.case_depth -= 1
            level.finish(False)
            return
        self._add_word(current, word, level.into)
        words = current.words
        if len(words) == 3 and words[2].text == "in" and words[0].text == "case" and \
                not words[0].quoted:
            level.finish(False)
            level.case_depth += 1
            level.pattern = True
        elif len(words) == 2 and words[0].text == "function" and not words[0].quoted:
            current.words = []  # `function name`: a definition, then its body
            self.script.notes.add("function")

    def _add_word(self, current: Simple, word: Word, into: List[Simple]) -> None:
        if not current.words and current.redirects:
            current.lead_redirect = True
        current.words.append(word)

    def _group(self, depth: int, into: List[Simple], upstream: Optional[Simple]) -> None:
        if depth >= MAX_NESTING:
            self._unread_until_close(self.i)
            return
        self.commands(depth + 1, ")", into, upstream)

    def _skip_blanks(self, i: int) -> int:
        while i < self.n and self.s[i] in _BLANKS:
            i += 1
        return i

    def _operator(self) -> str:
        s, i = self.s, self.i
        for op in ("&&", "||", ";;&", ";;", ";&", "|&", "&>>", "&>", "&", "|", ";"):
            if s.startswith(op, i):
                self.i = i + len(op)
                return op
        self.i = i + 1  # cannot happen
        return s[i]

    def _redirect(self, current: Simple, fd: str, op: str, depth: int) -> None:
        self.i = self._skip_blanks(self.i)
        if self.i >= self.n or (self.s[self.i] in "\n;&|()<>" and not \
                (self.s[self.i] in "<>" and self.s.startswith("(", self.i + 1))):
            target = None  # `echo >` : a syntax error in bash
            self.script.problems.append(f"redirection {op} without a target")
        else:
            target = self._word(depth)
        redirect = Redirect(fd, op, target)
        if not current.words:
            current.lead_redirect = True
        current.redirects.append(redirect)
        if op in ("<<", "<<-", "<<<"):
            self.script.notes.add("here-document" if op != "<<<" else "here-string")
        if op in ("<<", "<<-") and target is not None:
            redirect.body_expands = not target.quoted
            self.pending.append(redirect)

    def _read_heredocs(self) -> None:
        s, n = self.s, self.n
        for redirect in self.pending:
            assert redirect.target is not None
            delimiter = redirect.target.text
            strip = redirect.op == "<<-"
            lines: List[str] = []
            closed = False
            while self.i < n:
                self.steps[0] += 1
                end = s.find("\n", self.i)
                end = n if end < 0 else end
                text = s[self.i:end]
                self.i = end + 1
                if (text.lstrip("\t") if strip else text) == delimiter:
                    closed = True
                    break
                lines.append(text.lstrip("\t") if strip else text)
            self.i = min(self.i, n)
            redirect.body = "\n".join(lines) + ("\n" if lines else "")
            if not closed:
                self.script.problems.append(f"here-document {delimiter!r} not closed")
            if redirect.body_expands and ("$" in redirect.body or "`" in redirect.body):
                redirect.body_subs = _body_subs(redirect.body, self.depth + 1, self.steps,
                                                self.script)
        self.pending = []

    # -- words ------------------------------------------------------------------------------

    def _word(self, depth: int) -> Word:
        """One word from here; stops before a blank or an operator character."""
        s, n = self.s, self.n
        start = j = self.i
        while j < n and s[j] not in _WORD_SPECIAL:
            j += 1
        if j == n or (s[j] in _META and not (s[j] in "<>" and j == start)):
            # A plain word (the usual case): no quote, no expansion.
            self.steps[0] += 1
            self.i = j
            raw = s[start:j]
            word = Word(raw, raw)
            word.glob = "*" in raw or "?" in raw or "[" in raw or "{" in raw
            word.tilde = raw[:1] == "~"
            return word
        text: List[str] = []
        subs: List[Sub] = []
        flags = [False, False, False]  # expands, glob, quoted
        while self.i < n:
            self.steps[0] += 1
            c = s[self.i]
            if c not in _WORD_SPECIAL:
                j = self.i + 1
                while j < n and s[j] not in _WORD_SPECIAL:
                    j += 1
                chunk = s[self.i:j]
                if not flags[1] and ("*" in chunk or "?" in chunk or "[" in chunk or
                                     "{" in chunk):
                    flags[1] = True
                text.append(chunk)
                self.i = j
            elif c in _META:
                if not (c in "<>" and self.i == start and s.startswith("(", self.i + 1)):
                    break
                self.i += 2  # <( or >( : a process substitution
                subs.append(Sub(c + "(", self._nested(depth, c + "(")))
                flags[0] = True
                text.append(s[start:self.i])
            elif c == "$":
                self._dollar(depth, text, subs, flags, quoted=False)
            elif c == "`":
                self._backquote(depth, text, subs)
                flags[0] = True
            else:
                self._quoted(depth, c, text, subs, flags)
        word = Word("".join(text), s[start:self.i])
        word.subs = subs
        word.expands, word.glob, word.quoted = flags
        word.tilde = start < n and s[start] == "~"
        return word

    def _quoted(self, depth: int, c: str, text: List[str], subs: List[Sub],
                flags: List[bool]) -> None:
        """'...', "..." or a backslash, at self.i inside a word."""
        s, n = self.s, self.n
        flags[2] = True
        if c == "'":
            end = s.find("'", self.i + 1)
            if end < 0:
                self.script.problems.append("unclosed single quote")
                end = n
            text.append(s[self.i + 1:end])
            self.i = min(end + 1, n)
        elif c == '"':
            self.i += 1
            self._double(depth, text, subs, flags, '"')
        elif self.i + 1 >= n:  # a backslash at the end
            text.append("\\")
            self.i += 1
        elif s[self.i + 1] == "\n":
            self.i += 2  # a line continuation inside a word
            self.script.notes.add("continuation")
        else:
            text.append(s[self.i + 1])
            self.i += 2

    def _double(self, depth: int, text: List[str], subs: List[Sub], flags: List[bool],
                end: str) -> None:
        """The inside of "..." (or of a here-document body when ``end`` is "")."""
        s, n = self.s, self.n
        if end:
            close = s.find(end, self.i)
            chunk = s[self.i:close]
            if close >= 0 and "\\" not in chunk and "$" not in chunk and "`" not in chunk:
                text.append(chunk)  # the usual case: nothing to expand
                self.i = close + 1
                return
        while self.i < n:
            self.steps[0] += 1
            c = s[self.i]
            if c == end:
                self.i += 1
                return
            if c == "\\" and self.i + 1 < n:
                nxt = s[self.i + 1]
                if nxt == "\n":
                    self.i += 2
                    self.script.notes.add("continuation")
                    continue
                if nxt in '$`"\\' and (nxt != '"' or end == '"'):
                    text.append(nxt)
                    self.i += 2
                    continue
                text.append(c)
                self.i += 1
            elif c == "$":
                self._dollar(depth, text, subs, flags, quoted=True)
            elif c == "`":
                self._backquote(depth, text, subs)
                flags[0] = True
            else:
                j = self.i + 1
                while j < n and s[j] not in '\\$`"':
                    j += 1
                if end != '"':
                    while j < n and s[j] == '"':  # a body: " is text
                        j += 1
                text.append(s[self.i:j])
                self.i = j
        if end:
            self.script.problems.append("unclosed double quote")

    def _dollar(self, depth: int, text: List[str], subs: List[Sub], flags: List[bool],
                quoted: bool) -> None:
        s, n = self.s, self.n
        start = self.i
        nxt = s[self.i + 1] if self.i + 1 < n else ""
        if nxt == "(":
            self.i += 2
            script = self._nested(depth, "$(")
            subs.append(Sub("$(", script))
            flags[0] = True
            text.append(s[start:self.i])
        elif nxt == "{":
            self.i += 2
            self._brace(depth, subs)
            flags[0] = True
            text.append(s[start:self.i])
        elif nxt == "'" and not quoted:
            self.i += 2
            text.append(self._ansi())
            flags[2] = True
        elif nxt == '"' and not quoted:
            self.i += 2
            self._double(depth, text, subs, flags, '"')
            flags[2] = True
        elif nxt and (nxt.isalnum() or nxt == "_"):
            j = self.i + 2
            if not nxt.isdigit():
                while j < n and (s[j].isalnum() or s[j] == "_"):
                    j += 1
            text.append(s[start:j])
            self.i = j
            flags[0] = True
        elif nxt and nxt in "@*#?-$!":
            text.append(s[start:self.i + 2])
            self.i += 2
            flags[0] = True
        else:
            text.append("$")
            self.i += 1

    def _brace(self, depth: int, subs: List[Sub]) -> None:
        """``${...}`` after its "${": up to the matching "}", reading nested substitutions."""
        s, n = self.s, self.n
        scratch: List[str] = []
        flags = [False, False, False]
        while self.i < n:
            self.steps[0] += 1
            c = s[self.i]
            if c == "}":
                self.i += 1
                return
            if c == "\\":
                self.i += 2
            elif c == "'":
                end = s.find("'", self.i + 1)
                self.i = n if end < 0 else end + 1
            elif c == '"':
                self.i += 1
                self._double(depth, scratch, subs, flags, '"')
            elif c == "$":
                self._dollar(depth, scratch, subs, flags, quoted=True)
            elif c == "`":
                self._backquote(depth, scratch, subs)
            else:
                self.i += 1
        self.script.problems.append("unclosed ${")

    def _ansi(self) -> str:
        """The inside of $'...', decoded (\\n, \\x72, \\162, \\u0072...), after its "$'"."""
        s, n = self.s, self.n
        out: List[str] = []
        while self.i < n:
            self.steps[0] += 1
            c = s[self.i]
            if c == "'":
                self.i += 1
                return "".join(out)
            if c != "\\" or self.i + 1 >= n:
                out.append(c)
                self.i += 1
                continue
            e = s[self.i + 1]
            self.i += 2
            simple = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
                      "v": "\v", "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"',
                      "?": "?"}
            if e in simple:
                out.append(simple[e])
            elif e in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[e]
                digits = ""
                while len(digits) < width and self.i < n and s[self.i] in "0123456789abcdefABCDEF":
                    digits += s[self.i]
                    self.i += 1
                code = int(digits, 16) if digits else None
                out.append(chr(code) if code is not None and code <= 0x10FFFF else "\\" + e)
            elif e in "01234567":
                digits = e
                while len(digits) < 3 and self.i < n and s[self.i] in "01234567":
                    digits += s[self.i]
                    self.i += 1
                out.append(chr(int(digits, 8) & 0xFF))
            elif e == "c" and self.i < n:
                out.append(chr(ord(s[self.i]) & 0x1F))
                self.i += 1
            else:
                out.append("\\" + e)
        self.script.problems.append("unclosed $'")
        return "".join(out)

    def _backquote(self, depth: int, text: List[str], subs: List[Sub]) -> None:
        """`...`: its text (with \\`, \\\\ and \\$ unescaped) read as a line of its own."""
        s, n = self.s, self.n
        start = self.i
        self.i += 1
        body: List[str] = []
        while self.i < n:
            self.steps[0] += 1
            c = s[self.i]
            if c == "`":
                break
            if c == "\\" and self.i + 1 < n and s[self.i + 1] in "`\\$":
                body.append(s[self.i + 1])
                self.i += 2
                continue
            j = self.i + 1
            while j < n and s[j] not in "`\\":
                j += 1
            body.append(s[self.i:j])
            self.i = j
        else:
            self.script.problems.append("unclosed backquote")
        self.i = min(self.i + 1, n)
        text.append(s[start:self.i])
        inner = "".join(body)
        if depth >= MAX_NESTING:
            self.script.unread.append(inner)
            subs.append(Sub("`", Script()))
            return
        script = Script()
        parser = _Parser(inner, depth + 1, self.steps, self.script)
        parser.commands(depth + 1, "", script.commands)
        subs.append(Sub("`", script))

    def _nested(self, depth: int, kind: str) -> Script:
        """The commands of $( <( >( up to the matching ")" (self.i is after the "(")."""
        script = Script()
        if depth >= MAX_NESTING:
            self._unread_until_close(self.i)
            return script
        self.commands(depth + 1, ")", script.commands)
        return script

    def _unread_until_close(self, start: int) -> None:
        """Skip to the ")" that closes the level opened before ``start``, without reading
        what is inside (only parentheses, quotes and backslashes are followed)."""
        s, n = self.s, self.n
        level = 1
        i = start
        while i < n:
            self.steps[0] += 1
            c = s[i]
            if c == "\\":
                i += 2
                continue
            if c == "'":
                end = s.find("'", i + 1)
                i = n if end < 0 else end + 1
                continue
            if c == '"':
                j = i + 1
                while j < n and s[j] != '"':
                    j += 2 if s[j] == "\\" else 1
                i = j + 1
                continue
            if c == "(":
                level += 1
            elif c == ")":
                level -= 1
                if level == 0:
                    break
            i += 1
        self.script.unread.append(s[start:min(i, n)])
        self.i = min(i + 1, n)


def _body_subs(body: str, depth: int, steps: List[int], script: Script) -> List[Sub]:
    """The substitutions in an unquoted here-document's body (its $(...) and `...` run)."""
    if depth > MAX_NESTING:
        script.unread.append(body)
        return []
    parser = _Parser(body, depth, steps, script)
    text: List[str] = []
    subs: List[Sub] = []
    parser._double(depth, text, subs, [False, False, False], "")
    return subs


def parse(line: str, _steps: Optional[List[int]] = None) -> Script:
    """The line read as bash reads it (see the module docstring); never raises."""
    steps = _steps if _steps is not None else [0]
    quick = _plain_parse(line, steps)
    if quick is not None:
        return quick
    script = Script()
    parser = _Parser(line, 0, steps, script)
    parser.commands(0, "", script.commands)
    return script


_NOT_PLAIN = "'\"\\$`()<>\n"
_PLAIN_OPERATORS = {"&&": False, "||": False, ";;&": False, ";;": False, ";&": False,
                    "|&": True, ";": False, "&": False, "|": True}


def _plain_parse(line: str, steps: List[int]) -> Optional[Script]:
    """parse(line) for a line of plain words and operators with blanks between them, split
    at C speed (``git status && git diff | head``); None for any other line."""
    if any(c in line for c in _NOT_PLAIN):
        return None
    tokens = line.replace("\t", " ").replace("\r", " ").split(" ")
    script = Script()
    current = Simple()
    for token in tokens:
        if not token:
            continue
        steps[0] += 1
        pipe = _PLAIN_OPERATORS.get(token)
        if pipe is not None:
            if current.words:
                script.commands.append(current)
                done = current
                current = Simple()
                if pipe:
                    current.pipe_in = done
            else:
                current = Simple()
            continue
        if ";" in token or "&" in token or "|" in token or token in ("case", "esac",
                                                                        "function"):
            return None
        word = Word(token, token)
        word.glob = "*" in token or "?" in token or "[" in token or "{" in token
        word.tilde = token[:1] == "~"
        current.words.append(word)
    if current.words:
        script.commands.append(current)
    return script


def _shown_word(raw: str) -> str:
    return raw if len(raw) <= 80 else raw[:77] + "..."


# --- the commands a line runs ------------------------------------------------------------------

SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "posh",
                    "$SHELL", "${SHELL}", "$BASH", "${BASH}"))
# Programs that take code as an argument or on stdin: {name: (options whose value is code,
# options that take some other value)}; awk's code is its first operand.
INTERPRETERS = {
    "python": ("c", "WXmQ"), "node": ("ep", "r"), "nodejs": ("ep", "r"), "bun": ("ep", "r"),
    "deno": ("", ""), "ruby": ("e", "IrCEFx"), "perl": ("eE", "IMmx"), "php": ("r", "cdz"),
    "lua": ("e", "l"), "luajit": ("e", "l"), "awk": ("", "fvF"), "gawk": ("", "fvFEil"),
    "mawk": ("", "fvF"), "nawk": ("", "fvF"), "busybox awk": ("", "fvF"), "osascript": ("e", ""),
    "pwsh": ("c", ""), "powershell": ("c", ""), "tclsh": ("", ""), "jshell": ("", ""),
    "R": ("e", ""), "Rscript": ("e", ""), "sed": ("e", "f"), "vim": ("c", ""),
    "nvim": ("c", ""), "vi": ("c", ""), "ex": ("c", ""),
}
_LANGUAGES = {"nodejs": "node", "bun": "node", "deno": "node", "luajit": "lua", "gawk": "awk",
              "mawk": "awk", "nawk": "awk", "busybox awk": "awk", "Rscript": "R",
              "powershell": "pwsh", "nvim": "vim", "vi": "vim", "ex": "vim"}
_LONG_CODE = {"--eval", "--print", "--command", "--exec"}
# Words that run the rest of their words as a command: {word: (short options that take a value,
# long options that take a value, words before the command, what else)}. "dynamic": the command
# gets more arguments when it runs (xargs, parallel); "string": the named option's value is a
# command line (env -S, flock -c, su -c...); "join": the words are joined and run by sh -c.
_WRAPPERS = {
    "sudo": ("ughpCDrtTUR", ("--user", "--group", "--host", "--prompt", "--close-from", "--chdir",
                             "--role", "--type", "--other-user", "--command-timeout", "--chroot"), 0, ""),
    "doas": ("uC", (), 0, ""),
    "pkexec": ("", ("--user",), 0, ""),
    "run0": ("uD", ("--user", "--chdir", "--unit", "--property", "--description"), 0, ""),
    "env": ("uCS", ("--unset", "--chdir", "--split-string"), 0, "string:S"),
    "nice": ("n", ("--adjustment",), 0, ""),
    "ionice": ("cnpP", ("--class", "--classdata", "--pid", "--pgid", "--uid"), 0, ""),
    "chrt": ("", (), 1, ""),
    "taskset": ("", ("--cpu-list",), 1, ""),
    "nohup": ("", (), 0, ""),
    "setsid": ("", (), 0, ""),
    "timeout": ("sk", ("--signal", "--kill-after"), 1, ""),
    "stdbuf": ("ioe", ("--input", "--output", "--error"), 0, ""),
    "time": ("fo", ("--format", "--output"), 0, ""),
    "command": ("", (), 0, ""),
    "builtin": ("", (), 0, ""),
    "exec": ("a", (), 0, ""),
    "busybox": ("", (), 0, ""),
    "toybox": ("", (), 0, ""),
    "npx": ("p", ("--package", "--call"), 0, "string:c"),
    "bunx": ("p", ("--package",), 0, ""),
    "pnpx": ("p", ("--package",), 0, ""),
    "uvx": ("", ("--from", "--with", "--python", "--index"), 0, ""),
    "uv": ("p", ("--with", "--python", "--from", "--project", "--directory", "--package",
                 "--extra", "--group", "--env-file", "--index", "--with-requirements"), 0,
           "sub:run"),
    "poetry": ("C", ("--directory", "--project"), 0, "sub:run"),
    "pipenv": ("", (), 0, "sub:run"),
    "pdm": ("p", ("--project",), 0, "sub:run"),
    "hatch": ("e", ("--env",), 0, "sub:run"),
    "rye": ("", (), 0, "sub:run"),
    "pixi": ("e", ("--environment", "--manifest-path"), 0, "sub:run"),
    "conda": ("np", ("--name", "--prefix", "--cwd"), 0, "sub:run"),
    "mamba": ("np", ("--name", "--prefix", "--cwd"), 0, "sub:run"),
    "micromamba": ("np", ("--name", "--prefix", "--cwd"), 0, "sub:run"),
    "pnpm": ("", (), 0, "sub:exec|dlx"),
    "yarn": ("", (), 0, "sub:exec|dlx"),
    "chroot": ("", ("--userspec", "--groups"), 1, ""),
    "unbuffer": ("", (), 0, ""),
    "shx": ("", (), 0, ""),  # npm's portable shell commands: `npx shx rm -rf dist`
    "caffeinate": ("tw", (), 0, ""),
    "proxychains": ("f", (), 0, ""),
    "proxychains4": ("f", (), 0, ""),
    "torsocks": ("uapP", (), 0, ""),
    "strace": ("abeEoOpPsSuUX", ("--output",), 0, ""),
    "ltrace": ("aeEfnoOpsuUXAD", ("--output",), 0, ""),
    "flock": ("wEc", ("--timeout", "--conflict-exit-code", "--command"), 1, "string:c"),
    "su": ("cgGsw", ("--command", "--group", "--supp-group", "--shell", "--whitelist-environment"),
           0, "string:c"),
    "runuser": ("cgGsuw", ("--command", "--group", "--supp-group", "--shell", "--user"), 0,
                "string:c"),
    "script": ("cEIOBT", ("--command", "--echo", "--log-in", "--log-out", "--log-io",
                          "--log-timing"), 0, "string:c"),
    "watch": ("nd", ("--interval", "--differences", "--chgexit"), 0, "join"),
    "xargs": ("adEILnPs", ("--arg-file", "--delimiter", "--eof", "--replace", "--max-lines",
                           "--max-args", "--max-procs", "--max-chars", "--process-slot-var"), 0,
              "dynamic"),
    "parallel": ("ajSdEINnPsLX", ("--jobs", "--sshlogin", "--arg-file", "--delimiter",
                                  "--colsep", "--joblog", "--results", "--tmpdir", "--workdir",
                                  "--retries", "--timeout", "--delay", "--memfree"), 0, "dynamic"),
}


def string_runners() -> frozenset[str]:
    """Wrappers that run a string of their own as a command line (su -c, watch, env -S...)."""
    return frozenset(name for name, spec in _WRAPPERS.items()
                     if spec[3].startswith("string") or spec[3] == "join")


_RESERVED = frozenset(("!", "{", "}", "(", ")", "if", "then", "elif", "else", "fi", "do", "done",
                       "while", "until", "esac", "coproc", "time", "[[", "]]"))
_NOT_COMMANDS = frozenset(("for", "select", "case", "in", "function"))
DATABASE_CLIENTS = frozenset((
    "psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "clickhouse",
    "cockroach", "sqlcmd", "bq", "snowsql", "pgcli", "mycli", "litecli", "usql", "trino",
    "cqlsh", "redis-cli", "valkey-cli", "keydb-cli", "mongosh", "mongo"))
_PASS_THROUGH = frozenset(("tee", "cat", "stdbuf", "pv", "buffer", "mbuffer"))
# Interpreter calls that delete: a literal path as their first argument becomes `rm -rf PATH`
# (recursive ones) or `rm PATH`.
class Command:
    """One command the line would run, after its wrappers: ``argv`` (each word's text), its
    redirections, and how it was reached (``via``, outermost first)."""

    __slots__ = (
        "argv",
        "dynamic_args",
        "host",
        "input_text",
        "inside",
        "narrowed",
        "program",
        "redirects",
        "roots",
        "source",
        "stdin",
        "upstream",
        "via",
        "words",
    )

    def __init__(self, words: List[Word], redirects: List[Redirect], via: Tuple[str, ...]) -> None:
        self.words = words
        self.argv = [word.text for word in words]
        self.program = program_name(self.argv[0]) if self.argv else ""
        self.redirects = redirects
        self.via = via
        self.inside = ""  # "$(", "`", "<(", ">(": the substitution it runs in
        self.host = ""  # the program that gets that substitution's output ("" = none)
        self.upstream: Tuple[str, ...] = ()  # the programs before it in its pipeline
        self.stdin = ""  # "here-document", "here-string", "pipe": a shell or an interpreter
        # that reads its code from stdin, and where that comes from
        self.input_text: Optional[str] = None  # that text, when the line holds it (also for
        # the database clients of DATABASE_CLIENTS)
        self.dynamic_args = False  # xargs, parallel, find -exec: more arguments when it runs
        self.roots: Tuple[str, ...] = ()  # find -exec: the paths find starts from
        self.narrowed = False  # find/fd with a name, path, time or size test: not every file
        self.source = ""  # the shell line or code text it was read from, when not the line

    @property
    def args(self) -> List[str]:
        return self.argv[1:]

    def shown(self) -> str:
        """The command as one line, quoted where a word holds blanks or operators."""
        words = " ".join(_quote(text) for text in self.argv[:MAX_ARGS_SHOWN])
        if len(self.argv) > MAX_ARGS_SHOWN:
            words += " ..."
        redirects = " ".join(r.shown() for r in self.redirects[:5])
        return " ".join(part for part in (words, redirects) if part)

    def __repr__(self) -> str:
        return f"Command({self.argv!r}, via={self.via!r})"


def program_name(word: str) -> str:
    """``/usr/bin/rm`` is ``rm``; ``python3.12`` is ``python``; ``mkfs.ext4`` stays."""
    name = word.rstrip("/").rsplit("/", 1)[-1] if "/" in word else word
    if (name.startswith("python") and name[6:].replace(".", "").isdigit()) or name == "py":
        return "python"
    for base in ("ruby", "perl", "php", "node", "lua", "pip"):
        if name.startswith(base) and name[len(base):].replace(".", "").isdigit():
            return base
    return name


def _quote(text: str) -> str:
    if not text:
        return "''"
    if any(c in text for c in " \t\n|;&<>()$`\"'\\*?"):
        if "'" not in text:
            return f"'{text}'"
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") \
            .replace("`", "\\`") + '"'
    return text


class Reading:
    """What ``read(line)`` found: the commands, the text nested too deep to be read (also
    inside bash -c bodies, and bodies more than MAX_BODIES levels down), and what the shell
    would choke on."""

    __slots__ = ("commands", "problems", "unread")

    def __init__(self, commands: List[Command], unread: List[str], problems: List[str]) -> None:
        self.commands = commands
        self.unread = unread
        self.problems = problems


def read(line: str, _steps: Optional[List[int]] = None) -> Reading:
    """Every command ``line`` would run, in the order it would run them (a substitution before
    the command it is in), each after its wrappers; see the module docstring."""
    steps = _steps if _steps is not None else [0]
    found: List[Command] = []
    script = parse(line, steps)
    walker = _Walker(found, steps, steps[0] + WORK_PER_CHARACTER * len(line) + 2000)
    walker.script(script, (), 0)
    if walker.over:  # bodies inside bodies: what was left is not read (callers fail closed)
        walker.unread.append(line)
    return Reading(found, walker.unread, script.problems)


def commands(line: str, _steps: Optional[List[int]] = None) -> List[Command]:
    """``read(line).commands``."""
    return read(line, _steps).commands


class _Walker:
    def __init__(self, found: List[Command], steps: List[int], budget: int) -> None:
        self.found = found
        self.steps = steps
        self.unread: List[str] = []
        self.budget = budget  # steps allowed: re-reading bodies inside bodies stays linear
        self.over = False

    def script(self, script: Script, via: Tuple[str, ...], depth: int, inside: str = "",
               host: str = "", source: str = "", generated: bool = False) -> None:
        if self.steps[0] > self.budget:
            self.over = True
            return
        self.unread.extend(script.unread)
        # The effective command and the programs before each simple command in its pipeline.
        seen: dict[int, Tuple[Optional[Command], Tuple[str, ...], Simple]] = {}
        loops: dict[str, List[str]] = {}  # `for NAME in WORDS`: what $NAME stands for
        first = len(self.found)
        for simple in script.commands:
            self.steps[0] += 1
            words = simple.words
            if len(words) >= 3 and words[0].text in ("for", "select") and words[2].text == "in" \
                    and not words[0].quoted:
                loops[words[1].text] = [word.text for word in words[3:9]]
            if loops and any("$" in word.text for word in words):
                for variant in _loop_variants(simple, loops):
                    self.simple(variant, via, depth, inside, host, (), None, source)
            upstream: Tuple[str, ...] = ()
            feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]] = None
            if simple.pipe_in is not None:
                feeder = seen.get(id(simple.pipe_in))
                if feeder is not None:
                    before = feeder[1]
                    program = feeder[0].program if feeder[0] is not None else ""
                    upstream = before if program in before or len(before) >= 64 else \
                        (*before, program)
            command = self.simple(simple, via, depth, inside, host, upstream, feeder, source)
            seen[id(simple)] = (command, upstream, simple)
        if generated:  # text a program made (awk '{print "rm -rf " $1}' | sh): arguments unknown
            for found in self.found[first:]:
                found.dynamic_args = True

    def simple(self, simple: Simple, via: Tuple[str, ...], depth: int, inside: str, host: str,
               upstream: Tuple[str, ...],
               feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]],
               source: str) -> Optional[Command]:
        """Add the commands of one simple command; return its own (after wrappers) or None."""
        words = simple.words
        start = _command_start(words)
        unwrapped = _unwrap(words, start) if start < len(words) else None
        # Substitutions run first: those in the words the command gets have it as their host.
        program_index = unwrapped[0] if unwrapped is not None else len(words)
        command_program = program_name(words[program_index].text) \
            if program_index < len(words) else ""
        for index, word in enumerate(words):
            for sub in word.subs:
                self.script(sub.script, (*via, sub.kind + "...)" if sub.kind != "`" else "`...`"),
                            depth, sub.kind, command_program if index > program_index else "",
                            source)
        for redirect in simple.redirects:
            for sub in (redirect.target.subs if redirect.target is not None else []):
                self.script(sub.script, (*via, sub.kind + "...)" if sub.kind != "`" else "`...`"),
                            depth, sub.kind, command_program, source)
            for sub in redirect.body_subs:
                self.script(sub.script, (*via, "here-document"), depth, sub.kind,
                            command_program, source)
        if unwrapped is None:
            if words[start:] or not simple.redirects:
                return None
            command = Command([], simple.redirects, via)  # redirections only: `> file`
            self._add(command, inside, host, upstream, source)
            return command
        index, wrappers, dynamic, string = unwrapped
        via = via + wrappers
        if string is not None:  # env -S '...', su -c '...', watch 'a b': a line of its own
            if depth < MAX_BODIES:
                self.script(parse(string[1], self.steps), (*via, string[0]), depth + 1,
                            inside, host, string[1])
            else:
                self.too_deep([string[1]])
            return None
        given = words[index:]
        if dynamic and "xargs" in wrappers and feeder is not None and feeder[0] is not None and \
                feeder[0].program in ("echo", "printf"):
            given, dynamic = _xargs_input(words, index, _printed(feeder[0])), False
            if given and " " in given[0].text and depth < MAX_BODIES:
                self.script(parse(" ".join(w.text for w in given), self.steps), via, depth + 1,
                            inside, host, source)
                return None
        command = Command(_until_inputs(given) if "parallel" in wrappers else given,
                          simple.redirects, via)
        command.dynamic_args = dynamic
        if command.program in DATABASE_CLIENTS:
            command.input_text = _stdin_text(simple, feeder)[0]
        self._add(command, inside, host, upstream, source)
        if depth < MAX_BODIES:
            self.bodies(command, depth, simple, feeder, inside, host)
        elif has_body(command):
            self.too_deep([*_body_words(command), *_fed_text(simple.redirects)])
        return command

    def too_deep(self, texts: List[str]) -> None:
        """A body one level past MAX_BODIES: not read, so its text counts as unread (the guard
        fails closed on it when it names a program a rule is about), with its words as a
        shell would hand them on (`r\\m` is rm)."""
        self.unread.append(" ".join(texts))
        for text in texts:
            if any(c in text for c in " \t\n\\'\"$`"):
                script = parse(text, self.steps)
                plain = " ".join(word.text for simple in script.commands
                                 for word in simple.words)
                if plain:
                    self.unread.append(plain)

    def _add(self, command: Command, inside: str, host: str, upstream: Tuple[str, ...],
             source: str) -> None:
        command.inside, command.host, command.upstream = inside, host, upstream
        command.source = source
        self.found.append(command)

    def bodies(self, command: Command, depth: int, simple: Simple,
               feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]],
               inside: str, host: str) -> None:
        """The commands inside this one: a shell's -c string or stdin, eval's words, find's
        -exec, an interpreter's code."""
        program, args, via = command.program, command.args, command.via
        if (" " in program or "\n" in program or "\t" in program) and \
                not command.words[0].expands:  # a whole line as one word: `sudo 'rm -rf /'`
            self.script(parse(command.argv[0], self.steps), via, depth + 1, inside, host,
                        command.argv[0])
            return
        if program in SHELLS or (program == "sh" and via[-1:] == ("busybox",)):
            body, reads_stdin = shell_body(args)
            if body is not None:
                self.script(parse(body, self.steps), (*via, f"{program} -c"), depth + 1,
                            inside, host, body)
            elif reads_stdin:
                text, how = _stdin_text(simple, feeder)
                command.stdin, command.input_text = how, text
                made = _generated(feeder)
                if made is not None:
                    text = made
                if text is not None:
                    self.script(parse(text, self.steps), (*via, f"{how} to {program}"),
                                depth + 1, inside, host, text, generated=made is not None)
            return
        if program == "eval" and args:
            body = " ".join(args)
            self.script(parse(body, self.steps), (*via, "eval"), depth + 1, inside, host, body)
            return
        if program == "find":
            self._find(command, depth, inside, host)
            return
        if program in ("fd", "fdfind"):
            self._fd(command, depth, inside, host)
            return
        if program.lower() in ("remove-item", "ri"):  # PowerShell is the CLI's shell
            from .shell_code import code_commands

            for item in code_commands(" ".join(command.argv), "pwsh"):
                if isinstance(item, list) and item:
                    self._add(_synthetic(item, (*via, "PowerShell")), inside, host, (), "")
            return
        language = _interpreter(program, via)
        if language:
            code = interpreter_code(language, args)
            how = f"{program} code"
            if code is None and _reads_stdin_code(language, args):
                code, stdin = _stdin_text(simple, feeder)
                command.stdin, command.input_text = stdin, code
                how = f"{stdin} to {program}"
            if code:
                from .shell_code import code_commands

                for item in code_commands(code, _LANGUAGES.get(language, language)):
                    if isinstance(item, str):
                        self.script(parse(item, self.steps), (*via, how), depth + 1, inside,
                                    host, item)
                    elif item:
                        found = _synthetic(item, (*via, how))
                        self._add(found, inside, host, (), code)
                        if depth + 1 < MAX_BODIES:
                            self.bodies(found, depth + 1, Simple(), None, inside, host)
                        elif has_body(found):
                            self.too_deep(_body_words(found))

    def _fd(self, command: Command, depth: int, inside: str, host: str) -> None:
        """fd PATTERN [PATHS] -x/--exec CMD: CMD runs on each file found under PATHS."""
        words = command.words[1:]
        operands: List[str] = []
        index = 0
        while index < len(words):
            text = words[index].text
            if text in ("-x", "--exec", "-X", "--exec-batch"):
                inner = words[index + 1:]
                end = next((i for i, w in enumerate(inner) if w.text == ";"), len(inner))
                inner = inner[:end]
                start = _command_start(inner)
                unwrapped = _unwrap(inner, start) if start < len(inner) else None
                if unwrapped is not None and unwrapped[3] is None:
                    found = Command(inner[unwrapped[0]:], [], (*command.via, f"fd {text}",
                                                               *unwrapped[1]))
                    found.dynamic_args = True
                    found.roots = tuple(operands[1:]) or (".",)
                    found.narrowed = bool(operands) and operands[0] not in (".", "", "^")
                    self._add(found, inside, host, (), "")
                    if depth + 1 < MAX_BODIES:
                        self.bodies(found, depth + 1, Simple(), None, inside, host)
                    elif has_body(found):
                        self.too_deep(_body_words(found))
                index += 1 + end + 1
                continue
            if text in _FD_VALUES:
                index += 2
                continue
            if not text.startswith("-"):
                operands.append(text)
            index += 1

    def _find(self, command: Command, depth: int, inside: str, host: str) -> None:
        words = command.words[1:]
        roots: List[str] = []
        index = 0
        while (index < len(words) and words[index].text in ("-H", "-L", "-P", "-D", "-O")) or \
                (index < len(words) and words[index].text.startswith("-O")):
            index += 2 if words[index].text == "-D" else 1
        while index < len(words) and not (words[index].text.startswith("-") or
                                          words[index].text in ("(", "!", ",")):
            roots.append(words[index].text)
            index += 1
        command.roots = tuple(roots)
        command.narrowed = any(word.text in _NARROWING for word in words[index:])
        while index < len(words):
            self.steps[0] += 1
            if words[index].text in ("-exec", "-execdir", "-ok", "-okdir"):
                action = words[index].text
                end = index + 1
                while end < len(words) and words[end].text not in (";", "+"):
                    end += 1
                inner = words[index + 1:end]
                index = end + 1
                if not inner:
                    continue
                start = _command_start(inner)
                unwrapped = _unwrap(inner, start) if start < len(inner) else None
                if unwrapped is None:
                    continue
                at, wrappers, _, string = unwrapped
                via = (*command.via, f"find {action}", *wrappers)
                if string is not None:
                    self.script(parse(string[1], self.steps), (*via, string[0]), depth + 1,
                                inside, host, string[1])
                    continue
                found = Command(inner[at:], [], via)
                found.dynamic_args = True
                found.roots = command.roots or (".",)
                found.narrowed = command.narrowed
                self._add(found, inside, host, (), "")
                if depth + 1 < MAX_BODIES:
                    self.bodies(found, depth + 1, Simple(), None, inside, host)
                elif has_body(found):
                    self.too_deep(_body_words(found))
            else:
                index += 1


_NARROWING = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                        "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime", "-amin",
                        "-ctime", "-cmin", "-size", "-user", "-group", "-lname", "-ilname",
                        "-samefile", "-inum", "-links"))
_FD_VALUES = frozenset(("-t", "--type", "-e", "--extension", "-E", "--exclude", "-d",
                        "--max-depth", "--min-depth", "--exact-depth", "-j", "--threads", "-S",
                        "--size", "-c", "--color", "--changed-within", "--changed-before",
                        "-o", "--owner", "--base-directory", "--search-path", "--format",
                        "--ignore-file", "--max-results", "--path-separator", "--batch-size"))


def _loop_variants(simple: Simple, loops: dict[str, List[str]]) -> List[Simple]:
    """The simple command with each loop variable ($d, ${d}) replaced by each of its words."""
    variants: List[Simple] = []
    for name, values in loops.items():
        spellings = ("$" + name, "${" + name + "}")
        if not any(any(s in word.text for s in spellings) for word in simple.words):
            continue
        for value in values[:6]:
            variant = Simple()
            variant.redirects = simple.redirects
            for word in simple.words:
                text = word.text
                for spelling in spellings:
                    text = text.replace(spelling, value)
                copy = Word(text, word.raw)
                copy.quoted, copy.tilde = word.quoted, text[:1] == "~"
                copy.glob = word.glob or any(c in value for c in "*?[")
                copy.expands = "$" in text or "`" in text
                variant.words.append(copy)
            variants.append(variant)
    return variants


def _xargs_input(words: List[Word], index: int, text: str) -> List[Word]:
    """The command xargs runs when fed ``text``: with `-I R` each R replaced by the text,
    else its words appended."""
    replace = None
    for at in range(index):
        option = words[at].text
        if option in ("-I", "--replace") and at + 1 < index:
            replace = words[at + 1].text
        elif option.startswith("-I") and len(option) > 2:
            replace = option[2:]
        elif option.startswith(("-i", "--replace=")):
            replace = option.split("=", 1)[1] if "=" in option else (option[2:] or "{}")
    line = text.strip()
    if replace:
        made = []
        for word in words[index:]:
            copy = Word(word.text.replace(replace, line), word.raw)
            copy.tilde = copy.text[:1] == "~"
            made.append(copy)
        return made
    extra = []
    for part in line.split():
        added = Word(part, part)
        added.tilde = part[:1] == "~"
        added.glob = any(c in part for c in "*?[")
        extra.append(added)
    return [*words[index:], *extra]


def _generated(feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]]
               ) -> Optional[str]:
    """The strings of the code of a program whose output a shell runs (`awk '{print "rm -rf "
    $1}' | sh`): the commands it prints are made of them."""
    if feeder is None or feeder[0] is None:
        return None
    command = feeder[0]
    language = _interpreter(command.program, command.via)
    if not language:
        return None
    code = interpreter_code(language, command.args)
    if not code:
        return None
    from .shell_code import _literals

    texts = [text for _, _, text, _ in _literals(code, _LANGUAGES.get(language, language))]
    return "\n".join(texts) + "\n" if texts else None


def _until_inputs(words: List[Word]) -> List[Word]:
    """GNU parallel's command words: up to its first `:::` (the inputs follow)."""
    for index, word in enumerate(words):
        if word.text in (":::", "::::", ":::+", "::::+"):
            return words[:index]
    return words


def _command_start(words: List[Word]) -> int:
    """The index of the command word after reserved words and NAME=value assignments; the
    length of ``words`` when there is no command (an assignment, `for x in ...`)."""
    index = 0
    while index < len(words):
        word = words[index]
        text = word.text
        if not word.quoted and text in _RESERVED:
            index += 1
            if text == "time":  # bash's keyword: `time -p cmd`
                while index < len(words) and words[index].text in ("-p", "--"):
                    index += 1
            elif text == "coproc" and index + 1 < len(words) and \
                    words[index + 1].text.isidentifier() and index + 2 < len(words) and \
                    words[index + 2].text == "{":
                index += 1  # `coproc NAME { ...; }`
            continue
        if not word.quoted and text in _NOT_COMMANDS:
            return len(words)
        if is_assignment(word.raw):
            index += 1
            continue
        return index
    return index


def is_assignment(word: str) -> bool:
    """``NAME=value``, ``NAME+=value``, ``a[i]=value`` as written."""
    name, equals, _ = word.partition("=")
    if not equals:
        return False
    name = name[:-1] if name.endswith("+") else name
    if name.endswith("]") and "[" in name:
        name = name[:name.index("[")]
    return bool(name) and name.isascii() and (name[0].isalpha() or name[0] == "_") and \
        name.replace("_", "a").isalnum()


def _unwrap(words: List[Word], index: int
            ) -> Optional[Tuple[int, Tuple[str, ...], bool, Optional[Tuple[str, str]]]]:
    """Skip wrappers from ``index``: (the command word's index, the wrappers passed, whether
    the command gets more arguments when it runs, (label, line) when a wrapper's string is the
    command); None when nothing runs (`command -v x`, a bare `sudo`)."""
    wrappers: List[str] = []
    dynamic = False
    while index < len(words):
        text = words[index].text
        name = program_name(text)
        if is_assignment(words[index].raw) and wrappers and wrappers[-1] == "env":
            index += 1
            continue
        if name not in _WRAPPERS or (words[index].quoted and name != text):
            return index, tuple(wrappers), dynamic, None
        short, long, positional, what = _WRAPPERS[name]
        if what.startswith("sub:"):  # `uv run CMD`, `pnpm exec CMD`: only that subcommand
            at = index + 1
            while at < len(words) and words[at].text.startswith("-"):
                at += 1
            if at >= len(words) or words[at].text not in what[4:].split("|"):
                return index, tuple(wrappers), dynamic, None
            wrappers.append(f"{name} {words[at].text}")
            index, _ = _skip_options(words, at + 1, short, long, "")
            continue
        if name == "command" and index + 1 < len(words) and \
                words[index + 1].text[:2] in ("-v", "-V"):
            return None
        wrappers.append(name)
        index, string = _skip_options(words, index + 1, short, long,
                                      what[7:] if what.startswith("string:") else "")
        if string is not None:
            label = f"{name} -{what[7:]}"
            return index, tuple(wrappers), dynamic, (label, string)
        if what == "join" and index < len(words):
            line = " ".join(word.text for word in words[index:])
            return index, tuple(wrappers[:-1]), dynamic, (name, line)
        if name in ("su", "runuser") and index < len(words) and \
                not words[index].text.startswith("-") and \
                not any(w.text in ("-u", "--user") or w.text.startswith("--user=")
                        for w in words[:index]):
            return None  # `su user` alone: a login shell, no command from this line
        if name == "chroot":
            index += 1  # the new root
            continue
        if name == "flock":
            index += 1  # the lock file
            continue
        index += positional
        if what == "dynamic":
            dynamic = True
    return None


def _skip_options(words: List[Word], index: int, short: str, long: Tuple[str, ...],
                  string_option: str) -> Tuple[int, Optional[str]]:
    """The index after the options at words[index:], and the value of ``string_option`` (a
    short option letter whose value is a command line: env -S, su -c) when given."""
    found: Optional[str] = None
    long_string = {"S": "--split-string", "c": "--command"}.get(string_option, "")
    while index < len(words):
        word = words[index].text
        if not word.startswith("-") or word == "-":
            break
        index += 1
        if word == "--":
            break
        value: Optional[str] = None
        takes = False
        name = word
        if word.startswith("--"):
            name, equals, rest = word.partition("=")
            matches = [option for option in long if option.startswith(name)] if len(name) >= 3 \
                else []
            if equals:
                value = rest
            else:
                takes = bool(matches)
            if matches:
                name = matches[0]
        else:
            letters = word[1:]
            at = next((i for i, letter in enumerate(letters) if letter in short), -1)
            if at >= 0:
                name = "-" + letters[at]
                if at == len(letters) - 1:
                    takes = True
                else:
                    value = letters[at + 1:]
        if takes and index < len(words):
            value = words[index].text
            index += 1
        if value is not None and string_option and name in (f"-{string_option}", long_string):
            found = value
    return index, found


def shell_body(args: List[str]) -> Tuple[Optional[str], bool]:
    """(the command string of `sh -c STRING`, else None; whether the shell reads its script
    from stdin: no -c and no script file, or -s)."""
    reads_string = False
    index = 0
    from_stdin = False
    while index < len(args):
        word = args[index]
        if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            index += 2
            continue
        if word in ("-", "--"):
            if reads_string and index + 1 < len(args):
                return args[index + 1], False
            return None, from_stdin or index + 1 >= len(args) or word == "-"
        if word[:1] in ("-", "+") and len(word) > 1:
            if not word.startswith("--"):
                reads_string = reads_string or "c" in word[1:]
                from_stdin = from_stdin or "s" in word[1:]
                if word[-1] in "oO":  # `-euo pipefail`: the option's value follows
                    index += 1
            elif word == "--command":
                reads_string = True
            index += 1
            continue
        if reads_string:
            return word, False
        return None, from_stdin
    return None, not reads_string


def has_body(command: Command) -> bool:
    """Whether _Walker.bodies() would read commands inside this one (a shell's -c string or
    stdin, eval's words, find -exec, fd -x, an interpreter's code)."""
    program, args = command.program, command.args
    if any(c in program for c in " \t\n"):
        return True
    if program in SHELLS or (program == "sh" and command.via[-1:] == ("busybox",)):
        body, reads_stdin = shell_body(args)
        return body is not None or reads_stdin
    if program == "eval":
        return bool(args)
    if program == "find":
        return any(word in ("-exec", "-execdir", "-ok", "-okdir") for word in args)
    if program in ("fd", "fdfind"):
        return any(word in ("-x", "--exec", "-X", "--exec-batch") for word in args)
    language = _interpreter(program, command.via)
    return bool(language) and (interpreter_code(language, args) is not None or
                               _reads_stdin_code(language, args))


def _body_words(command: Command) -> List[str]:
    """The words that hold a command's body: its arguments (the program is known), or the
    whole command when its program is a line of its own (`sudo 'a b'`); for an interpreter
    also the strings of its code, as the code hands them on."""
    if any(c in command.program for c in " \t\n"):
        return command.argv
    language = _interpreter(command.program, command.via)
    code = interpreter_code(language, command.args) if language else None
    if not code:
        return command.args
    from .shell_code import _literals

    return [*command.args, *(text for _, _, text, _ in
                             _literals(code, _LANGUAGES.get(language, language)))]


def _fed_text(redirects: Iterable[Redirect]) -> List[str]:
    """The text of a command's here-documents and here-strings."""
    texts: List[str] = []
    for redirect in redirects:
        if redirect.body is not None:
            texts.append(redirect.body)
        elif redirect.op == "<<<" and redirect.target is not None:
            texts.append(redirect.target.text)
    return texts


def _interpreter(program: str, via: Tuple[str, ...]) -> str:
    """The INTERPRETERS key for a program name, or ""."""
    if program in INTERPRETERS:
        return program
    if program.lower() in ("pwsh", "powershell", "pwsh.exe", "powershell.exe"):
        return "pwsh"
    if program in ("awk",) and via[-1:] == ("busybox",):
        return "awk"
    return ""


def interpreter_code(language: str, args: List[str]) -> Optional[str]:
    """The code given on the command line: ``-c CODE``, ``-e CODE`` (each -e of perl and ruby
    joined), awk's first operand; None when the code comes from a file or stdin."""
    if language in ("deno", "pwsh", "vim", "nvim", "vi", "ex", "sed"):
        return _special_code(language, args)
    code_letters, value_letters = INTERPRETERS[language]
    if language in ("awk", "gawk", "mawk", "nawk", "busybox awk"):
        index = 0
        while index < len(args):
            word = args[index]
            if word == "--":
                index += 1
                break
            if not word.startswith("-") or word == "-":
                break
            if word[:2] in ("-f",) or word in ("--file",):
                return None
            if len(word) == 2 and word[1] in value_letters:
                index += 2
                continue
            index += 1
        return args[index] if index < len(args) else None
    pieces: List[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--" or not word.startswith("-") or word == "-":
            break
        index += 1
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            if name in _LONG_CODE:
                if equals:
                    pieces.append(value)
                elif index < len(args):
                    pieces.append(args[index])
                    index += 1
            continue
        letters = word[1:]
        for at, letter in enumerate(letters):
            if letter in code_letters:
                rest = letters[at + 1:]
                if rest:
                    pieces.append(rest)
                elif index < len(args):
                    pieces.append(args[index])
                    index += 1
                break
            if letter in value_letters:
                if at == len(letters) - 1:
                    index += 1
                break
        if language == "python" and pieces:
            break  # python -c: the rest are the code's own arguments
    return "\n".join(pieces) if pieces else None


def _special_code(language: str, args: List[str]) -> Optional[str]:
    """interpreter_code() for deno eval, pwsh -Command, vim -c/+CMD and sed's script."""
    if language == "deno":
        return args[1] if args[:1] == ["eval"] and len(args) > 1 else None
    if language == "pwsh":
        for at, word in enumerate(args):
            if word.lower() in ("-c", "-command", "-com", "-comm", "-comma", "-comman") and \
                    at + 1 < len(args):
                return " ".join(args[at + 1:])
        return None
    if language in ("vim", "nvim", "vi", "ex"):
        found = [args[at + 1] for at, word in enumerate(args[:-1]) if word == "-c"]
        found += [word[1:] for word in args if word.startswith("+") and len(word) > 1]
        return "\n".join(found) or None
    if language == "sed":
        found = [args[at + 1] for at, word in enumerate(args[:-1]) if word in ("-e",
                                                                            "--expression")]
        found += [word[2:] for word in args if word.startswith("-e") and len(word) > 2]
        if not found and not any(word in ("-f", "--file") for word in args):
            operands = [word for word in args if not word.startswith("-")]
            found = operands[:1]
        return "\n".join(found) or None
    return None


def _reads_stdin_code(language: str, args: List[str]) -> bool:
    """Whether the interpreter runs code from stdin: no script operand, or `-`."""
    if language.endswith("awk") or language in ("sed", "vim", "nvim", "vi", "ex", "deno",
                                                  "pwsh", "R", "Rscript", "osascript"):
        return False
    _code_letters, value_letters = INTERPRETERS[language]
    index = 0
    while index < len(args):
        word = args[index]
        if word == "-":
            return True
        if word == "--":
            return index + 1 >= len(args) or args[index + 1] == "-"
        if not word.startswith("-"):
            return False
        if language == "python" and word[1:2] == "m":
            return False
        if len(word) == 2 and word[1] in value_letters:
            index += 1
        index += 1
    return True


def _stdin_text(simple: Simple,
                feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]]
                ) -> Tuple[Optional[str], str]:
    """The text a command reads on stdin when the line gives it: a here-document, a
    here-string, or the output of `echo`/`printf`/`cat <<EOF` piped into it."""
    for redirect in reversed(simple.redirects):
        if redirect.op in ("<<", "<<-"):
            return redirect.body, "here-document"
        if redirect.op == "<<<" and redirect.target is not None:
            return redirect.target.text + "\n", "here-string"
        if redirect.op == "<":
            return None, "file"
    hops = 0
    while feeder is not None and hops < 8:
        hops += 1
        command, _, source = feeder
        if command is None:
            return None, "pipe"
        if command.program in ("echo", "printf"):
            return _printed(command), "pipe"
        if command.program in _PASS_THROUGH:
            for redirect in reversed(source.redirects):
                if redirect.op in ("<<", "<<-"):
                    return redirect.body, "pipe"
                if redirect.op == "<<<" and redirect.target is not None:
                    return redirect.target.text + "\n", "pipe"
            if command.program == "cat" and any(not a.startswith("-") for a in command.args):
                return None, "pipe"
            feeder = None  # the stage before is not known here; only its programs
            return None, "pipe"
        return None, "pipe"
    return None, "pipe" if feeder is not None else ""


def _printed(command: Command) -> str:
    """What `echo ARGS` or `printf FORMAT ARGS` prints, near enough to read as a script."""
    args = command.args
    if command.program == "echo":
        while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
            args = args[1:]
    text = " ".join(args)
    return text.replace("\\n", "\n").replace("\\t", "\t") + "\n"


# --- code given to interpreters -------------------------------------------------------------


def _synthetic(argv: List[str], via: Tuple[str, ...]) -> Command:
    """A command that interpreter code amounts to (shell_code.code_commands)."""
    words = []
    for text in argv:
        word = Word(text, text)
        word.tilde = text[:1] == "~"
        word.glob = any(c in text for c in "*?[")
        words.append(word)
    return Command(words, [], via)


# --- argv helpers the guard's rules use -------------------------------------------------------


def glob_match(name: str, pattern: str) -> bool:
    """fnmatch.fnmatchcase(name, pattern), without compiling a regex for the usual shapes of
    pattern (`.env`, `*.pem`, `.env.*`): each compiled pattern costs this process ~0.1 ms."""
    star = pattern.find("*")
    if "?" not in pattern and "[" not in pattern and pattern.count("*") <= 1:
        if star < 0:
            return name == pattern
        head, tail = pattern[:star], pattern[star + 1:]
        return len(name) >= len(head) + len(tail) and name.startswith(head) and \
            name.endswith(tail)
    import fnmatch

    return fnmatch.fnmatchcase(name, pattern)


def one_of(word: str, alternatives: str) -> bool:
    for alternative in alternatives.split("|"):
        if alternative == word or (("*" in alternative or "?" in alternative) and
                                   glob_match(word, alternative)):
            return True
    return False


def operands(args: List[str], with_value: Iterable[str] = ()) -> List[str]:
    """The words that are not options (nor the values of the listed options); after `--`
    every word is an operand."""
    found: List[str] = []
    skip = False
    values = set(with_value)
    for index, word in enumerate(args):
        if skip:
            skip = False
            continue
        if word == "--":
            found.extend(args[index + 1:])
            break
        if word.startswith("-") and word != "-":
            if word in values:
                skip = True
            continue
        found.append(word)
    return found


def has_option(args: List[str], group: str) -> bool:
    """Whether one option of ``group`` (``-f|--force``) is given before any `--`: a short
    letter also inside a cluster (``-rf``), a long one also shortened to a prefix GNU takes
    (``--forc``) or with a value (``--force=x``)."""
    letters = ""
    longs: List[str] = []
    for option in group.split("|"):
        if option.startswith("--"):
            longs.append(option)
        elif option.startswith("-") and len(option) == 2:
            letters += option[1]
    end = args.index("--") if "--" in args else len(args)
    for word in set(args[:end]) if end > 8 else args[:end]:
        if word.startswith("--"):
            name = word.split("=", 1)[0]
            if any(name == long or (len(name) >= 3 and long.startswith(name)) for long in longs):
                return True
        elif word.startswith("-") and len(word) > 1 and letters and \
                any(letter in word[1:] for letter in letters):
            return True
    return False


def copy_targets(args: List[str]) -> Tuple[List[str], List[str]]:
    """(where cp, mv, install and ln write, what they take from): `-t DIR` or the last
    operand; into a directory (a trailing /, or more than one source), each source's name."""
    with_value = {"-t", "-S", "-m", "-o", "-g", "--target-directory", "--suffix", "-e", "-i",
                  "-P", "--rsh", "-F"}
    found = operands(args, with_value)
    directory = next((args[i + 1] for i in range(len(args) - 1)
                      if args[i] in ("-t", "--target-directory")), None)
    directory = directory or next((w.split("=", 1)[1] for w in args
                                   if w.startswith("--target-directory=")), None)
    if directory is None:
        if len(found) < 2:
            return [], found
        directory, found = found[-1], found[:-1]
        if ":" in directory.split("/", 1)[0]:
            return [], found  # scp / rsync to a remote host
        if not directory.endswith("/") and len(found) == 1:
            named = posixpath.join(directory, posixpath.basename(found[0].rstrip("/")))
            return [directory, named], found
    return [directory] + [posixpath.join(directory, posixpath.basename(word.rstrip("/")))
                          for word in found], found
