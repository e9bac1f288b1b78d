"""The shell parser: any line read as bash reads it, into shell_syntax's words and commands
(see shell.py, whose ``parse`` hands it every line that is not plain words and operators).
Loaded only for such a line, so that a hook process does not pay for it on every call; the
rarer forms shell.py reads after parsing (brace expansion, values assigned earlier in the line,
`su USER -c`, git config's commands) live here for the same reason.

Stdlib only and Python 3.9+; one pass, no regular expression; never raises.
"""

from __future__ import annotations

from .shell_syntax import Redirect, Script, Simple, Sub, Word, literal

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional

MAX_NESTING = 40  # $( ( <( ` ${ levels read inside one another
_BLANKS = " \t\r"
_META = frozenset(" \t\r\n;&|()<>")
# Characters that end a run of plain word characters.
_WORD_SPECIAL = frozenset(" \t\r\n;&|()<>'\"\\$`")
_PIPES = frozenset(("|", "|&"))
_REDIRECTS = (">>", ">|", ">&", ">", "<<<", "<<-", "<<", "<>", "<&", "<")



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
        current.words.append(word)  # (a redirection before it made it lead_redirect)
        words = current.words
        if len(words) == 3 and words[2].text == "in" and words[0].text == "case" and \
                not words[0].quoted:
            level.finish(False)
            level.case_depth += 1
            level.pattern = True
        elif len(words) == 2 and words[0].text == "function" and not words[0].quoted:
            current.words = []  # `function name`: a definition, then its body
            self.script.notes.add("function")

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
            return literal(s[start:j], True)
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
                subs.append(Sub(c + "(", self._nested(depth)))
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
        end = self._arithmetic_end(self.i + 3) if s.startswith("((", self.i + 1) else -1
        if end > 0:  # $((...)): arithmetic; only the $(...) and `...` inside it run
            self._arithmetic(depth, end, subs)
            flags[0] = True
            text.append(s[start:end])
        elif nxt == "(":
            self.i += 2
            script = self._nested(depth)
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

    def _arithmetic_end(self, start: int) -> int:
        """The index after the "))" that closes an arithmetic $(( (``start`` is after it), or
        -1 when the "((" opens a command substitution of a subshell instead (`$( (a) )`, or
        `$((a) )`: bash reads it so when the parentheses do not close as "))")."""
        i = self._closing(start, 2)
        return i + 2 if i < self.n and self.s.startswith(")", i + 1) else -1

    def _arithmetic(self, depth: int, end: int, subs: List[Sub]) -> None:
        """The $(...) and `...` inside an arithmetic $((...)), read as commands; the rest is
        an expression (`$(( (a+b) * c ))` runs nothing)."""
        s = self.s
        self.i += 3
        scratch: List[str] = []
        flags = [False, False, False]
        while self.i < end - 2:
            self.steps[0] += 1
            if s[self.i] == "$":
                self._dollar(depth, scratch, subs, flags, quoted=True)
            elif s[self.i] == "`":
                self._backquote(depth, scratch, subs)
            else:
                self.i += 1
        self.i = end

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

    def _nested(self, depth: int) -> Script:
        """The commands of $( <( >( up to the matching ")" (self.i is after the "(")."""
        script = Script()
        self._group(depth, script.commands, None)
        return script

    def _unread_until_close(self, start: int) -> None:
        """Skip to the ")" that closes the level opened before ``start``, without reading
        what is inside (only parentheses, quotes and backslashes are followed)."""
        i = self._closing(start, 1)
        self.script.unread.append(self.s[start:min(i, self.n)])
        self.i = min(i + 1, self.n)

    def _closing(self, start: int, level: int) -> int:
        """The index of the ")" that takes ``level`` open parentheses down by one (the length
        of the line when none does), following quotes and backslashes only. One step per
        character, as a loop over each would count; the runs between a ")", a quote and a
        backslash are skipped with ``str.find`` and their "(" counted (a deep ``eval $(`` line
        is scanned to its end once per nesting cap reached: shell.read of 4,000 of them took
        1.4 s of CPU, now 0.5 s)."""
        s, n, steps = self.s, self.n, self.steps
        stop = level - 1
        i = start
        ahead = {c: s.find(c, i) for c in "\\'\")"}  # the next of each, -1: none
        while i < n:
            for c, at in ahead.items():
                if 0 <= at < i:
                    ahead[c] = s.find(c, i)
            j = min((at for at in ahead.values() if at >= 0), default=n)
            level += s.count("(", i, j)
            steps[0] += min(j + 1, n) - i  # the characters skipped, and this one
            if j == n:
                return n
            c, i = s[j], j
            if c == "\\":
                i += 2
            elif c == "'":
                end = s.find("'", i + 1)
                i = n if end < 0 else end + 1
            elif c == '"':
                j = i + 1
                while j < n and s[j] != '"':
                    j += 2 if s[j] == "\\" else 1
                i = j + 1
            else:
                level -= 1
                if level == stop:
                    return i
                i += 1
        return n

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


def decode_escapes(text: str) -> str:
    """Text with its backslash escapes decoded as $'...' decodes them (printf, echo -e)."""
    parser = _Parser(text.replace("'", "\\'") + "'", 0, [0], Script())
    return parser._ansi()


def parse_line(line: str, steps: List[int]) -> Script:
    """``shell.parse`` for a line that is not plain words (see shell.py)."""
    script = Script()
    parser = _Parser(line, 0, steps, script)
    parser.commands(0, "", script.commands)
    return script


# --- forms shell.py reads after parsing (loaded with this module, when a line needs them) ------


def git_config_command(args: List[str]) -> str:
    """The command line a git config value holds: `alias.x '!cmd'`, core.sshCommand,
    core.editor, core.pager, credential.helper '!cmd' ("" for any other)."""
    values = [word for word in args[args.index("config") + 1:] if not word.startswith("-")]
    if values[:1] == ["set"]:
        values = values[1:]
    if len(values) < 2:
        return ""
    key, value = values[0].lower(), values[1]
    if value.startswith("!"):
        return value[1:]
    return value if key in ("core.sshcommand", "core.editor", "core.pager",
                            "sequence.editor", "core.fsmonitor") else ""


def su_command(words: List[Word], index: int) -> Optional[str]:
    """The -c/--command value among su's words after the user (`su root -c 'cmd'`)."""
    while index < len(words):
        text = words[index].text
        if text in ("-c", "--command") and index + 1 < len(words):
            return words[index + 1].text
        if text.startswith("--command="):
            return text.split("=", 1)[1]
        if text.startswith("-c") and len(text) > 2:
            return text[2:]
        index += 1
    return None


def assignments(words: List[Word], known: dict[str, Optional[str]]) -> None:
    """Record each `NAME=value` word (shell.py hands on those of a command that only assigns,
    or of export/declare/local/readonly) for later commands of the line; a value only known
    when it runs is recorded as unknown, except `$(mktemp ...)`, a new temporary path."""
    for word in words:
        name, _, value = word.text.partition("=")
        if name.endswith("+") or name.endswith("]"):
            known[name.rstrip("+").split("[", 1)[0]] = None  # appended to, or an array
        elif value.startswith(("$(mktemp", "`mktemp")):
            known[name] = "/tmp/mktemp.XXXXXXXXXX"
        elif "$" in value or "`" in value:
            known[name] = None
        else:
            known[name] = value


def resolved(simple: Simple, known: dict[str, Optional[str]]) -> Simple:
    """The simple command with the values assigned earlier in the line put in place of
    $NAME and ${NAME} (those whose value is not known stay)."""
    made = Simple()
    made.redirects, made.pipe_in, made.lead_redirect = \
        simple.redirects, simple.pipe_in, simple.lead_redirect
    for word in simple.words:
        text = word.text
        if "$" in text:
            for name, value in known.items():
                if value is not None and name in text:
                    text = put_value(text, name, value)
        if text == word.text:
            made.words.append(word)
            continue
        copy = Word(text, word.raw)
        copy.quoted, copy.tilde, copy.subs = word.quoted, text[:1] == "~", word.subs
        copy.glob = word.glob
        copy.expands = "$" in text or "`" in text
        made.words.append(copy)
    return made


def put_value(text: str, name: str, value: str) -> str:
    """$NAME and ${NAME} in text replaced by value (not $NAMEX)."""
    text = text.replace("${" + name + "}", value)
    out: List[str] = []
    at = 0
    spelled = "$" + name
    while True:
        found = text.find(spelled, at)
        if found < 0:
            out.append(text[at:])
            return "".join(out)
        after = text[found + len(spelled):found + len(spelled) + 1]
        out.append(text[at:found])
        out.append(spelled if after.isalnum() or after == "_" else value)
        at = found + len(spelled)


def brace_expanded(simple: Simple) -> Simple:
    """The simple command with its unquoted brace lists expanded into words, as bash does
    before running it (`{rm,-rf,~}` is `rm -rf ~`; at most 32 words from one)."""
    made = Simple()
    made.redirects, made.pipe_in, made.lead_redirect = \
        simple.redirects, simple.pipe_in, simple.lead_redirect
    for word in simple.words:
        texts = braces(word.text, 32) if not word.quoted and "{" in word.text else [word.text]
        if texts == [word.text]:
            made.words.append(word)
            continue
        for text in texts:
            copy = literal(text)
            copy.expands = word.expands
            made.words.append(copy)
    return made


def braces(text: str, limit: int) -> List[str]:
    """Brace expansion of one word: `a{b,c}d` is abd acd; `${x}` and `{a}` stay."""
    start = -1
    depth = 0
    commas: List[int] = []
    for at, c in enumerate(text):
        if c == "{" and (at == 0 or text[at - 1] != "$"):
            if depth == 0:
                start, commas = at, []
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0 and commas:
                head, tail = text[:start], text[at + 1:]
                bounds = [start, *commas, at]
                found: List[str] = []
                for left, right in zip(bounds, bounds[1:]):
                    for rest in braces(head + text[left + 1:right] + tail, limit):
                        if len(found) < limit:
                            found.append(rest)
                return found
        elif c == "," and depth == 1:
            commas.append(at)
    return [text]
