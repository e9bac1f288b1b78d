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
the line: one pass, no regular expression, nesting read up to ``shell_parser.MAX_NESTING``
levels (deeper text is kept in ``Script.unread`` for callers that must fail closed) and command
bodies re-read up to ``MAX_BODIES`` levels (the text of a body deeper still goes to
``Reading.unread``).
``#`` starts no comment (zsh without ``interactive_comments`` reads it as a word), so a
``# rm -rf /`` is still a command here.
"""

from __future__ import annotations

import posixpath

from .shell_syntax import Redirect, Script, Simple, Word, literal

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterable, List, Optional, Tuple

MAX_BODIES = 6  # bash -c, eval, interpreter code... read inside one another
# The words of a `for NAME in WORDS` loop read as NAME's values (a longer list: NAME is unknown).
LOOP_WORDS = 12
MAX_ARGS_SHOWN = 60
# Steps read() may take per character of the line (on top of a constant): bodies read inside
# bodies (eval "$(eval ...)") stop there, and what is left counts as unread.
WORK_PER_CHARACTER = 40


def parse(line: str, _steps: Optional[List[int]] = None) -> Script:
    """The line read as bash reads it (see the module docstring); never raises."""
    steps = _steps if _steps is not None else [0]
    quick = _plain_parse(line, steps)
    if quick is not None:
        return quick
    from .shell_parser import parse_line  # any other line (quotes, $, redirections...)

    return parse_line(line, steps)


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
        current.words.append(literal(token, True))
    if current.words:
        script.commands.append(current)
    return script


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
        "piped_to",
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
        if self.program == "git" and any(text[:5] == "--no-" for text in self.argv):
            self.argv = _git_negated(self.argv)
        self.redirects = redirects
        self.via = via
        self.inside = ""  # "$(", "`", "<(", ">(": the substitution it runs in
        self.host = ""  # the program that gets that substitution's output ("" = none)
        self.upstream: Tuple[str, ...] = ()  # the programs before it in its pipeline
        self.piped_to: Optional[Command] = None  # the command its output is piped into
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
    if not name.islower() and name not in _CASED and "$" not in name:
        name = name.lower()  # macOS and Windows find `RM` as rm: their file names ignore case
    if (name.startswith("python") and name[6:].replace(".", "").isdigit()) or name == "py":
        return "python"
    for base in ("ruby", "perl", "php", "node", "lua", "pip"):
        if name.startswith(base) and name[len(base):].replace(".", "").isdigit():
            return base
    return name


# Programs whose name is spelled with capitals (R's interpreters); any other is lowered.
_CASED = frozenset(("R", "Rscript"))


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
        known: dict[str, Optional[str]] = {}  # `NAME=value` earlier in the line (None: unknown)
        first = len(self.found)
        for original in script.commands:
            self.steps[0] += 1
            simple = original
            if known and any("$" in word.text for word in simple.words):
                from .shell_parser import resolved

                simple = resolved(simple, known)
            words = simple.words
            if words and (words[0].text in _DECLARERS or (
                    "=" in words[0].raw and _command_start(words) == len(words))):
                from .shell_parser import assignments

                assignments([word for word in words if is_assignment(word.raw)], known)
            if len(words) >= 3 and words[0].text in ("for", "select") and words[2].text == "in" \
                    and not words[0].quoted:
                loops[words[1].text] = [word.text for word in words[3:3 + LOOP_WORDS + 1]]
            if loops and any("$" in word.text for word in words):
                variants = _loop_variants(simple, loops)
                if variants and _loop_covers(simple, loops, script.commands):
                    simple, variants = variants[-1], variants[:-1]  # $d is only its words
                for variant in variants:
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
            seen[id(original)] = (command, upstream, simple)
        if generated:  # text a program made (awk '{print "rm -rf " $1}' | sh): arguments unknown
            for found in self.found[first:]:
                found.dynamic_args = True

    def simple(self, simple: Simple, via: Tuple[str, ...], depth: int, inside: str, host: str,
               upstream: Tuple[str, ...],
               feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]],
               source: str) -> Optional[Command]:
        """Add the commands of one simple command; return its own (after wrappers) or None."""
        words = simple.words
        if any("{" in word.text and "," in word.text and not word.quoted for word in words):
            from .shell_parser import brace_expanded

            simple = brace_expanded(simple)  # `rm -rf {~,x}`, `{rm,-rf,~}`
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
            if (words[start:] and [w.text for w in words[start:]] != ["exec"]) or \
                    not simple.redirects:
                return None  # `exec >file` keeps its redirections for the rest of the shell
            command = Command([], simple.redirects, via)  # redirections only: `> file`
            self._add(command, inside, host, upstream, source)
            return command
        index, wrappers, dynamic, string = unwrapped
        via = via + wrappers
        if string is not None:  # env -S '...', su -c '...', watch 'a b': a line of its own
            if depth < MAX_BODIES:
                self.body(string[1], (*via, string[0]), depth, inside, host)
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
        if "parallel" in wrappers:
            given, listed_inputs = _until_inputs(given), _parallel_inputs(given)
            if listed_inputs is not None:  # `parallel rm -rf ::: build dist`: each one named
                given = [w for w in given if w.text != "{}"] + listed_inputs
                dynamic = False
        command = Command(given, simple.redirects, via)
        command.dynamic_args = dynamic
        if feeder is not None and feeder[0] is not None:
            feeder[0].piped_to = command
            # `find build -name '*.o' | xargs rm -rf`: what it gets is what find lists
            listed = _listed(feeder[0]) if dynamic else None
            if listed is not None:
                command.roots, command.narrowed = listed
        if command.program in DATABASE_CLIENTS:
            command.input_text = _stdin_text(simple, feeder)[0]
        self._add(command, inside, host, upstream, source)
        if depth < MAX_BODIES:
            self.bodies(command, depth, simple, feeder, inside, host)
        elif has_body(command):
            self.too_deep([*_body_words(command), *_fed_text(simple.redirects)])
        return command

    def body(self, text: str, via: Tuple[str, ...], depth: int, inside: str, host: str,
             generated: bool = False) -> None:
        """Read ``text``, a line found inside a command at ``depth``, one level deeper."""
        self.script(parse(text, self.steps), via, depth + 1, inside, host, text, generated)

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

    def nested(self, found: Command, depth: int, inside: str, host: str, source: str = "") -> None:
        """Add ``found``, a command inside one at ``depth``, and the commands inside it."""
        self._add(found, inside, host, (), source)
        if depth + 1 < MAX_BODIES:
            self.bodies(found, depth + 1, Simple(), None, inside, host)
        elif has_body(found):
            self.too_deep(_body_words(found))

    def bodies(self, command: Command, depth: int, simple: Simple,
               feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]],
               inside: str, host: str) -> None:
        """The commands inside this one: a shell's -c string or stdin, eval's words, find's
        -exec, an interpreter's code."""
        program, args, via = command.program, command.args, command.via
        if (" " in program or "\n" in program or "\t" in program) and \
                not command.words[0].expands:  # a whole line as one word: `sudo 'rm -rf /'`
            self.body(command.argv[0], via, depth, inside, host)
            return
        if program in SHELLS or (program == "sh" and via[-1:] == ("busybox",)):
            body, reads_stdin = shell_body(args)
            if body is not None:
                self.body(body, (*via, f"{program} -c"), depth, inside, host)
            elif reads_stdin:
                text, how = _stdin_text(simple, feeder)
                command.stdin, command.input_text = how, text
                made = _generated(feeder)
                if made is not None:
                    text = made
                if text is not None:
                    self.body(text, (*via, f"{how} to {program}"), depth, inside, host,
                              generated=made is not None)
            return
        if program == "trap" and args:  # `trap 'cmd' EXIT`: runs when the shell gets the signal
            body = next((word for word in args if word != "--"), "")
            if body and body != "-" and not body.startswith("-"):
                self.body(body, (*via, "trap"), depth, inside, host)
            return
        if program == "git" and "config" in args:  # alias.x '!cmd', core.sshCommand 'cmd'
            from .shell_parser import git_config_command

            body = git_config_command(args)
            if body:
                self.body(body, (*via, "git config"), depth, inside, host)
            return
        if program == "eval" and args:
            self.body(" ".join(args), (*via, "eval"), depth, inside, host)
            return
        if program == "find":
            self._find(command, depth, inside, host)
            return
        if program in ("fd", "fdfind"):
            self._fd(command, depth, inside, host)
            return
        if program.lower() in ("remove-item", "ri"):  # PowerShell is the CLI's shell
            from .shell_code import code_commands

            # its words as written: PowerShell keeps the backslashes bash would take
            # (`$env:TEMP\cache`)
            for item in code_commands(" ".join(word.raw for word in command.words), "pwsh"):
                if isinstance(item, list) and item:
                    self._add(_synthetic(item, (*via, "PowerShell")), inside, host, (), "")
            return
        language = _interpreter(program)
        if language:
            self._code(command, language, depth, simple, feeder, inside, host)
        elif program not in _NO_SHAPE and args:
            self._given_commands(command, depth, inside, host)

    def _code(self, command: Command, language: str, depth: int, simple: Simple,
              feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]],
              inside: str, host: str) -> None:
        """The commands in the code an interpreter is given (-c, -e, stdin)."""
        program, args, via = command.program, command.args, command.via
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
                    self.body(item, (*via, how), depth, inside, host)
                elif item:
                    self.nested(_synthetic(item, (*via, how)), depth, inside, host, code)

    def _given_commands(self, command: Command, depth: int, inside: str, host: str) -> None:
        """A command line given to another program as its arguments, by shape rather than by
        a list of programs: the words after `--` or from the first word that names a program
        (`dotenv run -- rm ...`, `chronic rm ...`, `ssh host rm ...`), and an argument that
        is itself a line starting with one (`hyperfine 'rm ...'`, `tmux run-shell 'rm ...'`,
        `entr -s 'rm ...'`)."""
        words = command.words
        via = command.via
        for index in range(1, len(words)):
            word = words[index]
            text = word.text
            if text == "--" and index + 1 < len(words) and \
                    _names_program(words[index + 1].text):
                self._given(command, words[index + 1:], f"{command.program} --", depth, inside,
                            host)
                return
            if text[:1] == "-" or word.expands:
                continue
            if _names_program(text):
                self._given(command, words[index:], f"{command.program} {text}", depth,
                            inside, host)
                return
            parts = text.split(None, 1) if any(c in text for c in " \t\n") else ()
            if parts and _names_program(parts[0]):
                self.body(text, (*via, f"{command.program} argument"), depth, inside, host)

    def _given(self, host_command: Command, words: List[Word], label: str, depth: int,
               inside: str, host: str) -> None:
        unwrapped = _unwrapped(words)
        if unwrapped is None:
            return
        at, wrappers, dynamic, string = unwrapped
        via = (*host_command.via, label, *wrappers)
        if string is not None:
            self.body(string[1], (*via, string[0]), depth, inside, host)
            return
        found = Command(words[at:], [], via)
        found.dynamic_args = dynamic
        self.nested(found, depth, inside, host)

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
                unwrapped = _unwrapped(inner)
                if unwrapped is not None and unwrapped[3] is None:
                    found = Command(inner[unwrapped[0]:], [], (*command.via, f"fd {text}",
                                                               *unwrapped[1]))
                    found.dynamic_args = True
                    found.roots = tuple(operands[1:]) or (".",)
                    found.narrowed = bool(operands) and operands[0] not in (".", "", "^")
                    self.nested(found, depth, inside, host)
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
        command.narrowed = _narrows([word.text for word in words[index:]])
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
                unwrapped = _unwrapped(inner)
                if unwrapped is None:
                    continue
                at, wrappers, _, string = unwrapped
                via = (*command.via, f"find {action}", *wrappers)
                if string is not None:
                    self.body(string[1], (*via, string[0]), depth, inside, host)
                    continue
                found = Command(inner[at:], [], via)
                given = found.args
                if any("{}" in text for text in given):
                    found.dynamic_args = True
                    found.roots = command.roots or (".",)
                    found.narrowed = command.narrowed
                elif action in ("-execdir", "-okdir") and not any(
                        text[:1] in ("/", "~", "$") or ".." in text.split("/")
                        for text in given if not text.startswith("-")):
                    # `-execdir rm -rf build ;`: a named entry in each folder found
                    found.roots, found.narrowed = command.roots or (".",), True
                # else `-exec rm -rf build ;` runs `rm -rf build` as written
                self.nested(found, depth, inside, host)
            else:
                index += 1


_NARROWING = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                        "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime", "-amin",
                        "-ctime", "-cmin", "-size", "-user", "-group", "-lname", "-ilname",
                        "-samefile", "-inum", "-links", "-empty", "-perm", "-used", "-uid",
                        "-gid", "-nouser", "-nogroup"))


def _git_negated(argv: List[str]) -> List[str]:
    """git's words with each option a later --no-NAME turns off left out, as git reads them
    (`git rm --force --no-force` does not force); after `--` the words are paths."""
    kept: List[str] = []
    for index, text in enumerate(argv):
        if text == "--":
            return kept + argv[index:]
        if text[:5] == "--no-" and len(text) > 5:
            name = "--" + text[5:]
            kept = [word for word in kept if word != name and not word.startswith(name + "=")
                    and not (name == "--force" and word == "-f")]
        kept.append(text)
    return kept


def listed_by(line: str) -> Optional[Tuple[Tuple[str, ...], bool]]:
    """_listed() of a line that is one find or fd printing paths, and nothing else (the
    text of `rm -rf $(find . -name __pycache__)`'s substitution); None otherwise."""
    reading = read(line)
    if len(reading.commands) != 1 or reading.unread:
        return None
    command = reading.commands[0]
    if command.via or command.redirects or (command.program == "find" and any(
            word.startswith(("-exec", "-ok", "-delete", "-fprint")) for word in command.args)):
        return None
    return _listed(command)


def _listed(command: Command) -> Optional[Tuple[Tuple[str, ...], bool]]:
    """Where the paths a find or fd prints are (its start paths), and whether its tests
    take some files only; None for any other program."""
    if command.program == "find":
        return command.roots or (".",), command.narrowed
    if command.program not in ("fd", "fdfind"):
        return None
    operands: List[str] = []
    words = command.args
    index = 0
    while index < len(words):
        if words[index] in ("-x", "--exec", "-X", "--exec-batch"):
            return None
        if words[index] in _FD_VALUES:
            index += 2
            continue
        if not words[index].startswith("-"):
            operands.append(words[index])
        index += 1
    return tuple(operands[1:]) or (".",), bool(operands) and operands[0] not in (".", "", "^")


def _narrows(words: List[str]) -> bool:
    """Whether find's tests take some files, not every one: a name, path, time, size, owner
    or mode test, empty files and folders only (-empty: nothing in them is lost), or links
    only (`-type l`, `-xtype l`: a link holds no data)."""
    for index, word in enumerate(words):
        if word in _NARROWING or word.startswith("-newer"):
            return True
        if word in ("-type", "-xtype") and index + 1 < len(words) and words[index + 1] == "l":
            return True
    return False
_FD_VALUES = frozenset(("-t", "--type", "-e", "--extension", "-E", "--exclude", "-d",
                        "--max-depth", "--min-depth", "--exact-depth", "-j", "--threads", "-S",
                        "--size", "-c", "--color", "--changed-within", "--changed-before",
                        "-o", "--owner", "--base-directory", "--search-path", "--format",
                        "--ignore-file", "--max-results", "--path-separator", "--batch-size"))


# Programs whose arguments are text, patterns or data rather than a command to run (`grep 'rm
# -rf' docs`, `git commit -m "rm ..."`), or whose commands are read by a rule of their own.
_NO_SHAPE = frozenset((
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git", "gh", "glab", "man",
    "info", "help", "which", "type", "whatis", "apropos", "tldr", "whereis", "alias", "unalias",
    "complete", "compgen", "hash", "test", "[", "[[", "read", "export", "declare", "local",
    "readonly", "typeset", "set", "unset", "logger", "notify-send", "say", "jq", "yq", "sort",
    "cut", "tr", "cat", "less", "more", "head", "tail", "wc", "ls", "cd", "pushd", "mkdir",
    "touch", "curl", "wget", "http", "https", "xh", "rm", "cp", "mv", "ln", "install", "chmod",
    "chown", "dd", "tar", "zip", "unzip", "trap", "eval", "find", "fd", "fdfind", "kill",
    "pkill", "killall", "pgrep", "ps", "diff", "cmp", "tee", "xclip", "pbcopy", "code",
    "vim", "vi", "nano", "emacs", "open", "xdg-open", "basename", "dirname", "realpath",
    "readlink", "stat", "file", "du", "df", "mktemp", "date", "sleep", "true", "false", ":",
    "exit", "return", "shift", "wait", "jobs", "fg", "bg", "disown", "umask", "ulimit",
    "history", "fc", "bind", "shopt", "getopts", "let", "expr", "seq", "yes", "base64",
    "sha256sum", "md5sum", "column", "fold", "fmt", "nl", "pr", "paste", "join", "comm",
    "uniq", "rev", "tac", "strings", "od", "xxd", "hexdump", "iconv", "patch",
    "hookwrap",  # `hookwrap test guard --explain 'rm -rf ~'` reads the line, never runs it
))
# Words that start a command a rule is about, when another program is given them.
_PROGRAM_WORDS = frozenset((
    "rm", "rmdir", "unlink", "shred", "srm", "wipe", "wipefs", "dd", "find", "git", "chmod",
    "chown", "chgrp", "mv", "cp", "truncate", "curl", "wget", "eval", "source", "rsync",
    "crontab", "tee", "tar", "mkfs", "fdisk", "parted", "diskutil", "launchctl", "gh",
    "kubectl", "terraform", "docker", "podman", "helm", "psql", "mysql", "redis-cli",
    "mongosh", "sqlite3", "aws", "gcloud", "az", "exec", "xargs",
))


_DECLARERS = frozenset(("export", "declare", "local", "readonly", "typeset"))


def _names_program(text: str) -> bool:
    name = program_name(text)
    return name in _PROGRAM_WORDS or name in SHELLS or name in INTERPRETERS or \
        name in _WRAPPERS or name.startswith("mkfs.")


def _loop_covers(simple: Simple, loops: dict[str, List[str]], line: List[Simple]) -> bool:
    """Whether the variants of one loop variable are all the command can be: it names one
    loop variable, whose list is short enough to be read whole and holds no word only known
    when it runs, that nothing else on the line sets (`read d`, `printf -v d`, `d+=x`), and
    no other expansion (`for d in build dist; do rm -rf "$d"; done`)."""
    used = [name for name in loops if any(
        "$" + name in word.text or "${" + name + "}" in word.text for word in simple.words)]
    if len(used) != 1:
        return False
    name, values = used[0], loops[used[0]]
    if len(values) > LOOP_WORDS or any("$" in v or "`" in v for v in values):
        return False
    for other in line:
        for index, word in enumerate(other.words):
            raw = word.raw
            if index == 1 and other.words[0].text in ("for", "select"):
                continue
            if raw.strip("\"'") == name or name + "=" in raw or name + "+=" in raw or \
                    name + "[" in raw:
                return False
    for word in simple.words:
        text = word.text.replace("${" + name + "}", "").replace("$" + name, "")
        if "$" in text or "`" in text:
            return False
    return not any(r.target is not None and "$" in r.target.text for r in simple.redirects)


def _loop_variants(simple: Simple, loops: dict[str, List[str]]) -> List[Simple]:
    """The simple command with each loop variable ($d, ${d}) replaced by each of its words."""
    variants: List[Simple] = []
    for name, values in loops.items():
        spellings = ("$" + name, "${" + name + "}")
        if not any(any(s in word.text for s in spellings) for word in simple.words):
            continue
        for value in values[:LOOP_WORDS]:
            variant = Simple()
            variant.redirects, variant.pipe_in = simple.redirects, simple.pipe_in
            variant.lead_redirect = simple.lead_redirect
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
    return [*words[index:], *map(literal, line.split())]


def _generated(feeder: Optional[Tuple[Optional[Command], Tuple[str, ...], Simple]]
               ) -> Optional[str]:
    """The strings of the code of a program whose output a shell runs (`awk '{print "rm -rf "
    $1}' | sh`): the commands it prints are made of them."""
    if feeder is None or feeder[0] is None:
        return None
    command = feeder[0]
    language = _interpreter(command.program)
    if not language:
        return None
    code = interpreter_code(language, command.args)
    if not code:
        return None
    from .shell_code import string_literals

    texts = [text for _, _, text, _ in string_literals(code, _LANGUAGES.get(language, language))]
    return "\n".join(texts) + "\n" if texts else None


def _until_inputs(words: List[Word]) -> List[Word]:
    """GNU parallel's command words: up to its first `:::` (the inputs follow)."""
    for index, word in enumerate(words):
        if word.text in (":::", "::::", ":::+", "::::+"):
            return words[:index]
    return words


def _parallel_inputs(words: List[Word]) -> Optional[List[Word]]:
    """The inputs GNU parallel is given on the line (`::: a b`, `:::+ c d`): None when there
    are none or some come from files (`::::`) or stdin."""
    inputs: List[Word] = []
    marker = ""
    for word in words:
        if word.text in (":::", ":::+"):
            marker = word.text
        elif word.text in ("::::", "::::+"):
            return None
        elif marker:
            inputs.append(word)
    return inputs or None


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
                    words[index].text.isidentifier() and words[index + 1].text == "{":
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


def _unwrapped(words: List[Word]
               ) -> Optional[Tuple[int, Tuple[str, ...], bool, Optional[Tuple[str, str]]]]:
    """``_unwrap`` from the command word of ``words`` (None when there is none)."""
    start = _command_start(words)
    return _unwrap(words, start) if start < len(words) else None


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
        options_at = index + 1
        index, string = _skip_options(words, index + 1, short, long,
                                      what[7:] if what.startswith("string:") else "")
        if name == "parallel" and any(word.text in ("--dry-run", "--dryrun")
                                      for word in words[options_at:index]):
            return None  # it prints the commands it would run
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
            from .shell_parser import su_command

            given = su_command(words, index + 1)  # `su root -c 'cmd'`: options after the user
            if given is not None:
                return index, tuple(wrappers), dynamic, (f"{name} -c", given)
            return None  # `su user` alone: a login shell, no command from this line
        index += positional  # (chroot's new root, flock's lock file, timeout's duration...)
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
    language = _interpreter(program)
    return bool(language) and (interpreter_code(language, args) is not None or
                               _reads_stdin_code(language, args))


def _body_words(command: Command) -> List[str]:
    """The words that hold a command's body: its arguments (the program is known), or the
    whole command when its program is a line of its own (`sudo 'a b'`); for an interpreter
    also the strings of its code, as the code hands them on."""
    if any(c in command.program for c in " \t\n"):
        return command.argv
    language = _interpreter(command.program)
    code = interpreter_code(language, command.args) if language else None
    if not code:
        return command.args
    from .shell_code import string_literals

    return [*command.args, *(text for _, _, text, _ in
                             string_literals(code, _LANGUAGES.get(language, language)))]


def _fed_text(redirects: Iterable[Redirect]) -> List[str]:
    """The text of a command's here-documents and here-strings."""
    texts: List[str] = []
    for redirect in redirects:
        if redirect.body is not None:
            texts.append(redirect.body)
        elif redirect.op == "<<<" and redirect.target is not None:
            texts.append(redirect.target.text)
    return texts


def _interpreter(program: str) -> str:
    """The INTERPRETERS key for a program name, or ""."""
    if program in INTERPRETERS:
        return program
    if program.lower() in ("pwsh", "powershell", "pwsh.exe", "powershell.exe"):
        return "pwsh"
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
    if feeder is None:
        return None, ""
    command, _, source = feeder
    if command is None:
        return None, "pipe"
    if command.program in ("echo", "printf"):
        return _printed(command), "pipe"
    if command.program in _PASS_THROUGH:  # (the stage before it is not known here)
        for redirect in reversed(source.redirects):
            if redirect.op in ("<<", "<<-"):
                return redirect.body, "pipe"
            if redirect.op == "<<<" and redirect.target is not None:
                return redirect.target.text + "\n", "pipe"
    return None, "pipe"


def _printed(command: Command) -> str:
    """What `echo ARGS` or `printf FORMAT ARGS` prints, near enough to read as a script."""
    args = command.args
    escapes = command.program == "printf"
    if command.program == "echo":
        while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
            escapes = escapes or "e" in args[0]
            args = args[1:]
    elif args and "%" in args[0]:  # printf FORMAT ARGS: %s and %b take the arguments
        text, rest = args[0], list(args[1:])
        for spec in ("%s", "%b"):
            while spec in text and rest:
                text = text.replace(spec, rest.pop(0), 1)
        args = [text, *rest]
    text = " ".join(args)
    if escapes and "\\" in text:  # \x72\x6d, \162\155, \u0072: what the shell then reads
        from .shell_parser import decode_escapes

        text = decode_escapes(text.replace("\\0", "\\") if command.program == "echo" else text)
    return text.replace("\\n", "\n").replace("\\t", "\t") + "\n"


# --- code given to interpreters -------------------------------------------------------------


def _synthetic(argv: List[str], via: Tuple[str, ...]) -> Command:
    """A command that interpreter code amounts to (shell_code.code_commands)."""
    return Command(list(map(literal, argv)), [], via)


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


def option_values(args: List[str], names: Iterable[str]) -> List[str]:
    """The values of the options ``names`` (`-out FILE`, `--command=SQL`), in order: the
    word after one, or what follows its `=`."""
    found: List[str] = []
    for index, word in enumerate(args):
        name, glued, value = word.partition("=")
        if name in names:
            if glued:
                found.append(value)
            elif index + 1 < len(args):
                found.append(args[index + 1])
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


def cluster_or_long(args: List[str], letters: str, values: str, long: Callable[[str], bool],
                    upto_dashes: bool = True) -> bool:
    """Whether a short option of ``letters`` is in a cluster ahead of any of ``values`` (an
    option whose value is the rest of the word: grep's `-el` searches for "l"), or ``long``
    takes the name of a long option (before `=`); only before `--` when ``upto_dashes``."""
    for word in args:
        if word == "--" and upto_dashes:
            return False
        if word.startswith("--"):
            if long(word.split("=", 1)[0]):
                return True
        elif word.startswith("-"):
            for letter in word[1:]:
                if letter in letters:
                    return True
                if letter in values:
                    break
    return False


def copy_targets(args: List[str], program: str = "") -> Tuple[List[str], List[str]]:
    """(where cp, mv, install and ln write, what they take from): `-t DIR` or the last
    operand; into a directory (a trailing /, or more than one source), each source's name.
    scp's and rsync's -i, -P, -e and -F take a value; cp's and mv's -i asks, cp's -P is a
    flag (`mv -i notes.md ~/` moves notes.md, not ~/)."""
    with_value = {"-t", "-S", "-m", "-o", "-g", "--target-directory", "--suffix"}
    if program not in ("cp", "mv", "install", "ln", "ditto"):
        with_value |= {"-e", "-i", "-P", "--rsh", "-F"}
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
