#!/usr/bin/env python3
"""guard: stops dangerous shell commands, and edits to secrets and hook files, before they run.

Rendered once by `hookwrap add` from the guard template; it is yours now. The rules are
plain data and small functions near the top: add, remove or loosen them. Anything no rule
matches is allowed. It is a seat belt against mistakes, not a sandbox.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import posixpath
import re
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'guard'
# This script lives in <project>/.hookwrap/hooks/.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Files that define which hooks run, relative to the project root or your home directory; a
# pattern ending in / covers everything under it. An agent that could edit them could switch
# this guard off.
HOOK_FILES = [
    ".hookwrap/", "hookwrap.toml",
    ".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json",
    ".codex/hooks.json", ".codex/config.toml", ".qwen/settings.json", ".github/hooks/",
    ".factory/settings.json", ".opencode/plugins/",
]

# File rules: (what it is, where the patterns apply, fnmatch patterns, what to do instead,
# which changes it covers). Where: "name" = the file name, "dir" = any component of the path,
# "root" = HOOK_FILES-style paths. Changes: "edit" = the files a call writes (write_file,
# edit_file, a Codex patch),
# "write" = a shell command that writes the file (`>`, tee, cp, mv, sed -i...: _changed_files),
# "remove" = a shell command that deletes or moves it away. Symlinks are followed: a link
# named notes.txt that points at .env is .env.
PATH_RULES = [
    (
        "a .env file, which holds secrets",
        "name",
        [".env", ".env.*"],
        "Edit .env.example instead and tell the user which values to set in their .env.",
        {"edit", "write"},
    ),
    (
        "a file inside .git/",
        "dir",
        [".git"],
        "Use git commands (git add, git commit, git config) instead of editing .git/ directly.",
        {"edit"},
    ),
    (
        "a file that defines which hooks run",
        "root",
        HOOK_FILES,
        "Hooks are changed by the user with the `hookwrap` command (hookwrap add, hookwrap "
        "remove, hookwrap sync); ask the user to make this change.",
        {"edit", "write", "remove"},
    ),
]
# File names the "name" rules let through: templates that hold no secrets by convention.
ALLOWED_NAMES = [".env.example", ".env.sample", ".env.template"]

# --- shell rules ---------------------------------------------------------------------------
# Each test gets one command the shell line would run, normalized by _commands: quotes
# removed; `sudo`, `env`, `timeout 5`, `xargs`, `nohup`, `VAR=value`... prefixes dropped
# (_WRAPPERS); the bodies of `bash -c '...'`, `env -S '...'`, `eval`, `$(...)`, `<(...)` and
# backquotes checked as commands of their own; the line split at ; && || & | ( ) and newlines.
# So the first rule also catches `sudo -Eu root rm -fr ~/`, `cd x && rm -r -f $HOME`,
# `find . | xargs -0 rm -rf ~` and `bash -x -c 'rm --recur --forc ..'`.
# Tests look at words, never search the whole line with a regex, so a long line costs time in
# proportion to its length (the hook has 10 seconds, and a regex can take hours).

_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish"}
_DOWNLOADERS = {"curl", "wget"}


def _deletes_everything(command: Command) -> bool:
    """rm with -r and -f, in any spelling (-rf, -Rf, -r -f, --recursive --force, --rec --fo),
    and a target of /, ~, $HOME, .. or an ancestor of them."""
    if command.program != "rm":
        return False
    given, operands = _options_and_operands(command.args)
    options = set(given)  # `rm -x -x -x ...` costs one look per distinct word
    recursive = any(_has_option(word, "rR", "--recursive") for word in options)
    forced = any(_has_option(word, "f", "--force") for word in options)
    return recursive and forced and any(_is_everything(word) for word in operands)


def _finds_and_deletes_everything(command: Command) -> bool:
    """find under /, ~, $HOME or .. that deletes what it finds (-delete, -exec rm ...)."""
    if command.program != "find":
        return False
    args = command.args
    start = 0
    while start < len(args) and (args[start] in ("-H", "-L", "-P", "-D") or args[start].startswith("-O")):
        start += 2 if args[start] == "-D" else 1  # -D takes a value
    roots = []
    for word in args[start:]:
        if word.startswith("-") or word in ("(", "!", ","):
            break
        roots.append(word)
    if not any(_is_everything(root) for root in roots):
        return False
    runs = [args[i + 1] for i in range(len(args) - 1) if args[i] in ("-exec", "-execdir", "-ok", "-okdir")]
    return "-delete" in args or any(posixpath.basename(word) in ("rm", "shred", "unlink") for word in runs)


def _pushes_with_force(command: Command) -> bool:
    return any(word == "--force" or _has_option(word, "f") for word in _git_push_args(command))


def _pushes_a_plus_refspec(command: Command) -> bool:
    return any(word.startswith("+") and len(word) > 1 for word in _git_push_args(command))


def _pushes_with_lease(command: Command) -> bool:
    # git takes any unambiguous prefix: --force-with, --force-w.
    return any(len(word.split("=", 1)[0]) > len("--force") and _has_option(word, "", "--force-with-lease")
               for word in _git_push_args(command))


def _shell_reads_a_download(command: Command) -> bool:
    """A shell fed by curl or wget earlier in its pipeline: `curl ... | sudo bash`."""
    return command.program in _SHELLS and bool(command.upstream & _DOWNLOADERS)


def _download_runs_as_code(command: Command) -> bool:
    """curl or wget inside $(...), <(...) or backquotes that a shell runs: `bash <(curl ..)`,
    `sh -c "$(curl ..)"`, `eval "$(wget ..)"`, or a bare `$(curl ..)`."""
    return command.program in _DOWNLOADERS and command.inside in _SHELLS | {"", "eval", "source", "."}


# Shell rules: (what it is, test, what to do instead). The first that matches blocks.
SHELL_RULES = [
    (
        "recursive forced delete of /, ~, $HOME or ..",
        _deletes_everything,
        "Delete only the specific paths you mean, inside the project (e.g. `rm -rf build`).",
    ),
    (
        "find that deletes under /, ~, $HOME or ..",
        _finds_and_deletes_everything,
        "Run find on the specific directory you mean, inside the project (e.g. `find build -delete`).",
    ),
    (
        "git push --force / -f",
        _pushes_with_force,
        "Push without force; if the remote history must be rewritten, ask the user to do it.",
    ),
    (
        "git push of a +refspec (a forced update)",
        _pushes_a_plus_refspec,
        "Push without the leading +; if the remote history must be rewritten, ask the user to do it.",
    ),
    # --force-with-lease refuses to overwrite commits it has not seen, but it still rewrites
    # the shared history: blocked too. Delete this rule to allow it.
    (
        "git push --force-with-lease",
        _pushes_with_lease,
        "Push without force; if the remote history must be rewritten, ask the user to do it.",
    ),
    # Only shells: `curl ... | python3 -m json.tool` is common and harmless.
    (
        "a download piped into a shell",
        _shell_reads_a_download,
        "Download the script to a file, read it, and ask the user before running it.",
    ),
    (
        "a download run by a shell",
        _download_runs_as_code,
        "Download the script to a file, read it, and ask the user before running it.",
    ),
]

# Words that run the rest of the line as a command: {word: (short options that take a value,
# long options that take a value, arguments before the command)}. Their options are skipped,
# with the value of a listed one: `-u root`, `-Eu root`, `-uroot`, `--user root`, `--user=root`.
# `timeout` takes one argument, its duration, before the command.
_WRAPPERS = {
    "sudo": ("ughpCDrtTUR", {"--user", "--group", "--host", "--prompt", "--close-from", "--chdir",
                             "--role", "--type", "--other-user", "--command-timeout", "--chroot"}, 0),
    "doas": ("uC", set(), 0),
    "env": ("uCS", {"--unset", "--chdir", "--split-string"}, 0),
    "nice": ("n", {"--adjustment"}, 0),
    "ionice": ("cnp", {"--class", "--classdata", "--pid"}, 0),
    "nohup": ("", set(), 0),
    "setsid": ("", set(), 0),
    "timeout": ("sk", {"--signal", "--kill-after"}, 1),
    "xargs": ("adEILnPs", {"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
                           "--max-lines", "--process-slot-var", "--replace", "--eof"}, 0),
    "stdbuf": ("ioe", {"--input", "--output", "--error"}, 0),
    "time": ("fo", {"--format", "--output"}, 0),
    "command": ("", set(), 0),
    "exec": ("a", set(), 0),
    "builtin": ("", set(), 0),
}
_KEYWORDS = {"{", "}", "!", "if", "then", "elif", "else", "do", "while", "until"}
# Shell options that take a value: `bash -o pipefail -c '...'`.
_SHELL_VALUE_OPTIONS = {"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}

# What arrives (before_tool): Claude Code PreToolUse; Gemini CLI BeforeTool.
#   event.tool_name      normalized (shell, write_file, edit_file, read_file, ...; an MCP
#                        tool is "mcp__<server>__<tool>" whatever the CLI calls it)
#   event.raw_tool_name  as the CLI sent it (shell, write_file, edit_file, read_file):
#                          Claude Code: Bash, Write, Edit, Read
#                          Gemini CLI: run_shell_command, write_file, replace, read_file
#   event.tool_input     the arguments as the CLI sent them (a dict), keyed per CLI:
#                          Claude Code: shell "command", "description"; write_file "file_path",
#                            "content"; edit_file "file_path", "old_string", "new_string",
#                            "replace_all"; read_file "file_path", "offset", "limit"
#                          Gemini CLI: shell "command", "description", "dir_path"; write_file
#                            "file_path", "content"; edit_file "file_path", "instruction",
#                            "old_string", "new_string"; read_file "file_path", "start_line",
#                            "end_line"
#   event.files, event.file_paths
#                        every file the call writes, edits, deletes or moves, on every CLI:
#                        check these, not tool_input (a patch or a multi-file edit names several
#                        files).
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd.
#   Sent by Claude Code only: event.prompt_id, event.permission_mode, event.get("effort"),
#      event.tool_use_id.
#   Sent by Gemini CLI only: event.timestamp.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Block the call when a rule matches; otherwise no opinion (None)."""
    # Every file the call writes: write_file's or edit_file's file_path, or each file a Codex
    # apply_patch adds, updates, deletes or moves (event.files has the details).
    for path in event.file_paths:
        blocked = _check_path(path, event.cwd or os.getcwd(), "edit", path)
        if blocked:
            return blocked
    if event.tool_name == "shell":
        return _check_command(event.tool_input.get("command"), event.cwd or os.getcwd())
    return None


def _check_command(line: object, cwd: str) -> HookOutput | None:
    if not isinstance(line, str):
        return None
    for command in _commands(line):
        for what, test, instead in SHELL_RULES:
            if test(command):
                return _block(what, command.shown(), instead)
        cwd = _after_cd(command, cwd)
        for change, target in _changed_files(command, cwd):
            blocked = _check_path(target, cwd, change, command.shown())
            if blocked:
                return blocked
    return None


def _check_path(path: str, cwd: str, change: str, shown: str) -> HookOutput | None:
    """Block a change to a file a PATH_RULE covers, by its own path or the one it links to."""
    # Gemini may send a path relative to cwd; normpath folds `a/../.git` into `.git`.
    full = os.path.normpath(os.path.join(cwd, _expand(path, cwd)))
    for candidate in {full, os.path.realpath(full)}:
        parts = [part.lower() for part in candidate.split(os.sep) if part]
        for what, where, patterns, instead, changes in PATH_RULES:
            if change in changes and _path_matches(candidate, parts, where, patterns):
                return _block(what, shown, instead)
    return None


def _path_matches(full: str, parts: list[str], where: str, patterns: list[str]) -> bool:
    name = parts[-1] if parts else ""
    if where == "name":
        if any(_fnmatch(name, allowed) for allowed in ALLOWED_NAMES):
            return False
        return any(_fnmatch(name, pattern) for pattern in patterns)
    if where == "dir":
        return any(_fnmatch(part, pattern) for part in parts for pattern in patterns)
    for base in {ROOT, os.path.realpath(ROOT), os.path.expanduser("~")}:
        relative = os.path.relpath(full, base).replace(os.sep, "/").lower()
        if relative == ".." or relative.startswith("../"):
            continue
        for pattern in patterns:
            pattern = pattern.lower()
            if pattern.endswith("/") and (relative + "/").startswith(pattern):
                return True
            if _fnmatch(relative, pattern):
                return True
    return False


def _fnmatch(name: str, pattern: str) -> bool:
    """fnmatch.fnmatchcase(name, pattern), without compiling a regex for the usual shapes of
    pattern (`.env`, `*.pem`, `.env.*`, `id_rsa*`): each compiled pattern costs this hook
    process about 0.1 ms."""
    star = pattern.find("*")
    if not any(char in pattern for char in "?[") and pattern.count("*") <= 1:
        if star < 0:
            return name == pattern
        head, tail = pattern[:star], pattern[star + 1:]
        return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
    import fnmatch

    return fnmatch.fnmatchcase(name, pattern)


def _block(what: str, target: str, instead: str) -> HookOutput:
    if len(target) > 200:
        target = target[:200] + "..."
    return HookOutput.block(
        f"Blocked by the {HOOK_NAME} hook: {what} (`{target}`). {instead} "
        f"(The rules are in .hookwrap/hooks/{HOOK_NAME}.py.)"
    )


# --- what a rule looks at --------------------------------------------------------------------

def _options_and_operands(args: list[str]) -> tuple[list[str], list[str]]:
    """Split GNU-style: options may come anywhere, and everything after `--` is an operand."""
    end = args.index("--") if "--" in args else len(args)
    options = [word for word in args[:end] if word[:1] == "-" and word != "-"]
    operands = [word for word in args[:end] if word[:1] != "-" or word == "-"]
    return options, operands + args[end + 1:]


def _has_option(word: str, letters: str, long: str = "") -> bool:
    """Whether the option word sets one of the short letters (also inside `-rfv`) or the long
    option, which GNU tools accept shortened to any unambiguous prefix (`--rec`, `--fo`)."""
    if word.startswith("--"):
        name = word.split("=", 1)[0]
        return bool(long) and len(name) >= 3 and long.startswith(name)
    return word.startswith("-") and any(letter in word[1:] for letter in letters)


def _is_everything(target: str) -> bool:
    """/, ~, $HOME, .. and what holds them: ~/., $HOME/, /*, ~/.*, ../.., ~/.., //."""
    path = target
    for home in ("$HOME", "${HOME}"):
        if path == home or path.startswith(home + "/"):
            path = "~" + path[len(home):]
    if path.startswith("~"):  # ~ and ~user: a home directory
        path = "/~/" + path.partition("/")[2]
    last = path.rstrip("/").rpartition("/")[2]
    if last and ("*" in last or "?" in last) and not last.strip("*?."):
        path = path.rstrip("/")[: -len(last)] or "."  # `dir/*`, `dir/.*`: all of dir
    path = posixpath.normpath(path)
    if path.startswith("/"):
        return path.strip("/") in ("", "~")
    return all(part == ".." for part in path.split("/"))


def _git_push_args(command: Command) -> list[str]:
    """The arguments after `git [global options] push`, or [] for anything else."""
    if command.program != "git":
        return []
    args = command.args
    index = 0
    while index < len(args) and args[index].startswith("-"):
        # These global options take the next word as their value: `git -C repo push`.
        index += 2 if args[index] in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") else 1
    return args[index + 1:] if index < len(args) and args[index] == "push" else []


def _changed_files(command: Command, cwd: str) -> list[tuple[str, str]]:
    """(change, path) for each file the command writes ("write") or deletes or moves
    away ("remove"): redirections, and the usual file tools. Not every program: a script
    (`python -c "open('.env', 'w')"`) can write anything."""
    changes = [("write", target) for target in command.writes]
    program, args = command.program, command.args
    _, operands = _options_and_operands(args)
    if program in ("tee", "truncate", "sed", "perl"):
        if program in ("sed", "perl") and not _edits_in_place(args):
            operands = []
        elif program == "truncate":
            operands = _operands_skipping(args, {"-s", "-r", "--size", "--reference"})
        changes += [("write", word) for word in operands]
    elif program in ("cp", "mv", "install", "ln"):
        changes += [("write", target) for target in _copy_targets(args, cwd)]
        if program == "mv":
            changes += [("remove", word) for word in _operands_skipping(args, {"-t", "-S"})[:-1]]
    elif program == "dd":
        changes += [("write", word[3:]) for word in args if word.startswith("of=")]
    elif program in ("rm", "unlink", "shred", "rmdir"):
        changes += [("remove", word) for word in operands]
    return changes


def _edits_in_place(args: list[str]) -> bool:
    """sed -i, -i.bak, -Ei, --in-place; perl -i, -pi (an `e` first means `-e SCRIPT`)."""
    for word in args:
        if word.startswith("--"):
            if _has_option(word, "", "--in-place"):
                return True
        elif word.startswith("-"):
            for letter in word[1:]:
                if letter == "i":
                    return True
                if letter in "efl":  # the rest of the word is this option's value
                    break
    return False


def _operands_skipping(args: list[str], with_value: set[str]) -> list[str]:
    """Operands, not counting the values of the listed options (`-s 0`, `-t dir`)."""
    operands: list[str] = []
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word in with_value:
            skip = True
        elif not word.startswith("-") or word == "-":
            operands.append(word)
    return operands


def _copy_targets(args: list[str], cwd: str) -> list[str]:
    """Where cp, mv, install and ln write: `-t DIR` or the last operand; into a directory,
    each source's name (`cp x/.env .` writes ./.env)."""
    operands = _operands_skipping(args, {"-t", "-S", "-m", "-o", "-g", "--target-directory", "--suffix"})
    directory = next((args[i + 1] for i in range(len(args) - 1) if args[i] in ("-t", "--target-directory")), None)
    directory = directory or next((w.split("=", 1)[1] for w in args if w.startswith("--target-directory=")), None)
    if directory is None:
        if len(operands) < 2:
            return []
        directory, operands = operands[-1], operands[:-1]
        if not directory.endswith("/") and not os.path.isdir(os.path.join(cwd, _expand(directory, cwd))):
            return [directory]
    return [directory] + [posixpath.join(directory, posixpath.basename(word.rstrip("/"))) for word in operands]


def _after_cd(command: Command, cwd: str) -> str:
    """The working directory after `cd DIR`, so that `cd .hookwrap && ...` is seen."""
    if command.program not in ("cd", "pushd") or command.args[-1:] == ["-"]:
        return cwd
    target = command.args[-1] if command.args else "~"
    return os.path.normpath(os.path.join(cwd, _expand(target, cwd)))


def _expand(path: str, cwd: str) -> str:
    """~, $HOME, $PWD and the CLIs' project-dir variables at the start of a path."""
    for names, value in ((("$HOME", "${HOME}", "~"), os.path.expanduser("~")), (("$PWD", "${PWD}"), cwd),
                         (("$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}", "$GEMINI_PROJECT_DIR",
                           "${GEMINI_PROJECT_DIR}"), ROOT)):
        for name in names:
            if path == name or path.startswith(name + "/"):
                return value + path[len(name):]
    return path


# --- reading the shell line --------------------------------------------------------------------

class Command:
    """One simple command the line would run, after its wrappers (sudo, env...) are dropped."""

    def __init__(self, words: list[str], writes: list[str], upstream: frozenset[str], pipeline: list[Command]) -> None:
        self.words = words
        self.program = words[0] if words else ""
        self.args = words[1:]
        self.writes = writes  # the files its redirections write: `> f`, `2>> f`, `&> f`
        self.upstream = upstream  # the programs before it in its pipeline
        self.inside: str | None = None  # in $(...), <(...) or `...`: the program it is an argument of ("" = none)
        self._pipeline = pipeline

    def shown(self) -> str:
        """The pipeline up to this command, for the block reason."""
        stages = self._pipeline[: self._pipeline.index(self) + 1]
        shown = " | ".join(" ".join(_quoted(word) for word in stage.words[:60]) for stage in stages[-5:])
        return shown + "".join(f" > {target}" for target in self.writes[:5])


def _quoted(word: str) -> str:
    """A word holding spaces or operators (a quoted argument) stays quoted, so that
    `grep 'curl x | sh'` cannot look like a pipeline to the reader."""
    return f"'{word}'" if any(char in word for char in " \t|;&") else word


# One token of a shell line: an operator, or a whole word made of pieces (plain text, '...',
# "...", $'...', \x). The pieces start with different characters, so the regex never has two
# ways to match the same text and runs in time proportional to the line (no backtracking).
# _TOKEN and _PIECE are compiled on first use, by re.compile(_TOKEN, re.S), which re caches
# for the rest of the process: compiling them costs about 1 ms, and a command of plain words
# and operators (`git status && git diff | head`) never needs them.
_TOKEN = (
    r"[^\S\n]*(?:(?P<op>\n|&&|\|\||;;&?|;&|\|&|&>>?|[;&|]|\$\(|[<>]\(|[()`]"
    r"|\d*(?:>>|>\||>&|<<<|<<-?|<>|<&|[<>]))"
    r"|(?P<word>(?:[^\s'\"\\;&|()<>`$]+|'[^']*'?|\$'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?"
    r"|\\.?|\$(?![(']))+)|(?P<end>$))"
)
_PIECE = r"""'([^']*)'?|\$'((?:[^'\\]|\\.)*)'?|"((?:[^"\\]|\\.)*)"?|\\(.?)|([^'"\\$]+|\$)"""
_DOUBLE_SPECIAL = re.compile(r'["\\\\$`]')
_SPECIAL = re.compile(r"[\n'\"\\$;&|()<>`]")
_QUOTING = "\n'\"\\$()<>`"  # _SPECIAL's characters but the operators ; & |
# The operators _TOKEN reads that are made of ; & | alone.
_PLAIN_OPERATORS = {"&&", "||", ";;&", ";;", ";&", "|&", ";", "&", "|"}
_SEPARATORS = {"\n", ";", ";;", ";;&", ";&", "&", "&&", "||"}
_PIPES = {"|", "|&"}
_MAX_DEPTH = 5  # bash -c inside bash -c...: deeper bodies are not read


def _tokens(line: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(kind, text, nested): kind "op" or "word"; nested holds the double-quoted parts of a
    word that run commands ("$(...)", backquotes). Here-document bodies are skipped: they are
    text, not commands."""
    line = line.replace("\\\n", " ")
    if not _SPECIAL.search(line):  # plain words only: split at C speed
        return [("word", word, ()) for word in line.split()]
    if not any(char in line for char in _QUOTING):  # words and operators apart by spaces: `a && b | c`
        plain = _plain_tokens(line)
        if plain is not None:
            return plain
    return _parsed_tokens(line)


def _plain_tokens(line: str) -> list[tuple[str, str, tuple[str, ...]]] | None:
    """_parsed_tokens(line) for a line of words and operators with a space between each,
    without the regex engine; None when a word holds an operator (`a|b`)."""
    tokens: list[tuple[str, str, tuple[str, ...]]] = []
    for word in line.split():
        if word in _PLAIN_OPERATORS:
            tokens.append(("op", word, ()))
        elif ";" in word or "&" in word or "|" in word:
            return None
        else:
            tokens.append(("word", word, ()))
    return tokens


def _parsed_tokens(line: str) -> list[tuple[str, str, tuple[str, ...]]]:
    token = re.compile(_TOKEN, re.S)
    if "<<" not in line:  # no here-document to skip: let the regex engine walk the line
        return [("op", op, ()) if op else ("word", *_unquote(word)) for op, word, _ in token.findall(line) if op or word]
    tokens: list[tuple[str, str, tuple[str, ...]]] = []
    heredocs: list[tuple[str, bool]] = []
    position = 0
    while position < len(line):
        match = token.match(line, position)
        if match is None:  # cannot happen: every character starts some token; but never loop
            break
        position = match.end()
        if match.lastgroup == "op":
            text = match.group("op")
            if text == "\n" and heredocs:
                position = _skip_heredocs(line, position, heredocs)
                heredocs = []
            tokens.append(("op", text, ()))
        elif match.lastgroup == "word":
            text, nested = _unquote(match.group("word"))
            if tokens and tokens[-1][0] == "op" and tokens[-1][1] in ("<<", "<<-"):
                heredocs.append((text, tokens[-1][1] == "<<-"))
            tokens.append(("word", text, nested))
    return tokens


def _unquote(word: str) -> tuple[str, tuple[str, ...]]:
    """The word as the program gets it, and its double-quoted parts that hold $( or `."""
    if "'" not in word and '"' not in word and "\\" not in word and "$" not in word:
        return word, ()
    inner = word[1:-1]
    if len(word) > 1 and word[0] == word[-1] == "'" and "'" not in inner:
        return inner, ()  # 'one quoted word'
    if len(word) > 1 and word[0] == word[-1] == '"' and not _DOUBLE_SPECIAL.search(inner):
        return inner, ()
    parts: list[str] = []
    nested: list[str] = []
    for single, ansi, double, escaped, plain in re.findall(_PIECE, word, re.S):
        if double and ("$(" in double or "`" in double):
            nested.append(double)
        if "\\" in double:
            double = re.sub(r'\\([\\"$`])', r"\1", double)
        parts.append(single or ansi or double or escaped or plain)
    return "".join(parts), tuple(nested)


def _skip_heredocs(line: str, position: int, heredocs: list[tuple[str, bool]]) -> int:
    for delimiter, strip_tabs in heredocs:
        while position < len(line):
            end = line.find("\n", position)
            end = len(line) if end < 0 else end
            text = line[position:end]
            position = end + 1
            if (text.lstrip("\t") if strip_tabs else text) == delimiter:
                break
    return position


class _Level:
    """The line itself, or one ( $( <( ` level inside it, while the line is read."""

    def __init__(self, kind: str, parent: _Level | None = None) -> None:
        self.kind = kind  # "top", "group" for ( ), "sub" for $( ) <( ) >( ) and backquotes
        self.parent = parent
        self.words: list[str] = []  # of the command being read
        self.writes: list[str] = []
        self.subs: list[tuple[list[Command], int]] = []  # its substitutions, at which word
        self.nested: list[tuple[str, int]] = []  # its double-quoted "$(...)" words, at which word
        self.pipeline: list[Command] = []
        self.upstream: frozenset[str] = frozenset()
        self.commands: list[Command] = []  # every command read at this level

    def new_command(self) -> None:
        self.words, self.writes, self.subs, self.nested = [], [], [], []


def _commands(line: str, depth: int = 0, outer: str | None = None) -> list[Command]:
    """Every simple command the line would run, normalized as described above SHELL_RULES.
    outer: the line is the inside of a double-quoted word of that program; then only its
    substitutions are commands."""
    found: list[Command] = []
    stack = [_Level("top")]
    redirect = ""
    for kind, text, nested in _tokens(line):
        level = stack[-1]
        if kind == "word":
            if redirect:
                # `>&2` and `2>&1` point at a file descriptor, not at a file.
                if ">" in redirect and not (redirect.endswith("&") and (text.isdigit() or text == "-")):
                    level.writes.append(text)
                # `bash <<< "$(curl ..)"`: what the program reads.
                level.nested.extend((body, len(level.words)) for body in nested)
                redirect = ""
            else:
                level.words.append(text)
                if nested:
                    level.nested.extend((body, len(level.words) - 1) for body in nested)
        elif text in _SEPARATORS or text in _PIPES or text in ("(", ")") or (text == "`" and level.kind == "`"):
            _finish(level, depth, outer if len(stack) == 1 else None, found)
            if text not in _PIPES:
                level.pipeline, level.upstream = [], frozenset()
            if text == "(":
                stack.append(_Level("group", level))
            elif text in (")", "`") and len(stack) > 1:
                _close(stack.pop())
        elif text in ("$(", "<(", ">(", "`"):
            stack.append(_Level("`" if text == "`" else "sub", level))
        else:
            redirect = text
    while stack:
        level = stack.pop()
        _finish(level, depth, outer if not stack else None, found)
        if stack:
            _close(level)
    return found


def _close(level: _Level) -> None:
    """A substitution ends: it becomes one word of the command around it."""
    parent = level.parent
    if level.kind != "group" and parent is not None:
        parent.subs.append((level.commands, len(parent.words)))
        parent.words.append("$(...)")


def _finish(level: _Level, depth: int, outer: str | None, found: list[Command]) -> None:
    """The command being read is complete: normalize it, add it and what it runs to found."""
    raw, writes, subs, nested = level.words, level.writes, level.subs, level.nested
    level.new_command()
    words = _strip_wrappers(raw)
    program = words[0] if words else ""
    prefix = len(raw) - len(words)  # how many words the wrappers took: `sudo $(curl ..)`
    for inner, index in subs:
        for command in inner:
            command.inside = outer if outer is not None else (
                "" if index <= prefix else program)
    for body, index in nested:
        if depth < _MAX_DEPTH:
            found.extend(_commands(body, depth + 1, "" if index <= prefix else program))
    shell_body = _shell_body(words)
    if shell_body is not None and depth < _MAX_DEPTH:
        found.extend(_commands(shell_body, depth + 1))
    if outer is not None or not (words or writes):
        return
    command = Command(words, writes, level.upstream, level.pipeline)
    level.pipeline.append(command)
    level.commands.append(command)
    found.append(command)
    # The programs before the next stage; capped, so a pipeline of thousands stays linear.
    if program not in level.upstream and len(level.upstream) < 100:
        level.upstream = level.upstream | {program}


def _strip_wrappers(words: list[str]) -> list[str]:
    index = 0
    while index < len(words):
        first = posixpath.basename(words[index]) or words[index]
        if first in _KEYWORDS or _is_assignment(words[index]):
            index += 1
        elif first in _WRAPPERS:
            short, long, arguments = _WRAPPERS[first]
            index, split = _skip_options(words, index + 1, short, long)
            if split is not None:  # env -S 'rm -rf /': the string is the command
                return _strip_wrappers([t for k, t, _ in _tokens(split) if k == "word"] + words[index:])
            index += arguments
        else:
            return [first] + words[index + 1:]
    return []


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.isidentifier()


def _skip_options(words: list[str], index: int, short: str, long: set[str]) -> tuple[int, str | None]:
    """The index after the options at words[index:], and the value of env's -S if given."""
    split = None
    while index < len(words) and words[index].startswith("-") and words[index] != "-":
        word = words[index]
        index += 1
        if word == "--":  # the end of the options
            break
        value = None
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            takes = not equals and any(option.startswith(name) for option in long) and len(name) >= 3
            value = value if equals else None
        else:
            letters = word[1:]
            at = next((i for i, letter in enumerate(letters) if letter in short), -1)
            takes = at >= 0 and at == len(letters) - 1
            name = f"-{letters[at]}" if at >= 0 else word
            value = letters[at + 1:] if 0 <= at < len(letters) - 1 else None
        if takes and index < len(words):
            value = words[index]
            index += 1
        if value is not None and (name == "-S" or "--split-string".startswith(name) and len(name) > 3):
            split = value
    return index, split


def _shell_body(words: list[str]) -> str | None:
    """The command string of `bash -c '...'` (also `bash -x -c`, `sh -ec`, `bash -o pipefail -c`,
    `bash --norc -c`) or `eval ...`, or None."""
    if words and words[0] == "eval":
        return " ".join(words[1:])
    if not words or words[0] not in _SHELLS:
        return None
    reads_string = False
    index = 1
    while index < len(words):
        word = words[index]
        if word in _SHELL_VALUE_OPTIONS:
            index += 1
        elif word in ("-", "--"):
            reads_string = reads_string and index + 1 < len(words)
            return words[index + 1] if reads_string else None
        elif word[:1] in ("-", "+") and len(word) > 1:
            reads_string = reads_string or (not word.startswith("--") and "c" in word[1:])
        else:
            return word if reads_string else None
        index += 1
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
