"""Skip shell calls a hook ignores: the ``commands`` patterns of its hookwrap.toml entry.

`hookwrap sync` writes every hook's patterns to ``.hookwrap/filters.json``; a hook with
patterns is called only for shell commands one of them matches (see docs/resident.md for the
exact rule). Anything this module cannot read for certain runs the hook: a filter may only ever
save a call, never hide a command from a hook that should see it.
"""

from __future__ import annotations

import json
import os
import re

from .shell import parse as _parse

FILTERS_FILE = ".hookwrap/filters.json"
# Words that run another command given as arguments or a string, or change what a later word
# runs (an alias, a function, a trap, a hashed path): what runs is not the first word, so a
# simple command starting with one of them always runs the hook.
_INDIRECT = frozenset((
    "env", "command", "builtin", "exec", "sudo", "doas", "pkexec", "runuser", "nohup", "time",
    "nice", "ionice", "timeout", "xargs", "eval", "source", ".", "bash", "sh", "zsh", "dash",
    "ksh", "mksh", "fish", "busybox", "watch", "stdbuf", "setsid", "chroot", "su", "find",
    "parallel", "flock", "script", "unbuffer", "strace", "ltrace", "trap", "alias", "unalias",
    "shopt", "hash", "enable", "function", "coproc", "declare", "typeset", "export", "readonly",
    "local", "fc", "compgen", "complete", "mapfile", "readarray", "let",
))
# Reserved words that may open a simple command: the command is what follows them.
_LEADING = frozenset(("!", "{", "}", "do", "done", "then", "else", "elif", "fi", "if", "while",
                      "until", "esac"))
# Reserved words whose words up to the next operator are no command (``for NAME in WORDS``).
_NOT_A_COMMAND = frozenset(("for", "select", "case", "in"))
# A program word the filter reads for certain: plain characters, no quote, expansion or glob.
# No `=` (zsh expands `=rm` to rm's path), no `#` (a comment only where the shell reads one:
# zsh's interactive_comments), no `[[` (its -eq evaluates a variable's text as arithmetic).
_PLAIN_PROGRAM = re.compile(r"[A-Za-z0-9_./+@:,-]+|\[")
# Characters that make an argument's text uncertain (an expansion or a glob may change it).
_UNCERTAIN = frozenset("$*?[{~\\")
_cache: dict[str, tuple[float, dict[str, list[str]]]] = {}


def load(root: str) -> dict[str, list[str]]:
    """Every hook's patterns from ``<root>/.hookwrap/filters.json``; {} when there is none."""
    path = os.path.join(root, FILTERS_FILE)
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        return {}
    cached = _cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError, RecursionError):
        data = None
    filters: dict[str, list[str]] = {}
    if isinstance(data, dict):
        for name, patterns in data.items():
            if isinstance(patterns, list) and all(isinstance(p, str) for p in patterns):
                filters[name] = patterns
    _cache[path] = (stamp, filters)
    return filters


def _simple_commands(command: str) -> list[tuple[str, str, bool]] | None:
    """The simple commands of a shell line: each one's program's file name, its words as the
    shell reads them, and whether that text is certain (False when an argument holds an
    expansion or a glob); None when one of them may run something its first word does not
    show. The filter skips a call only on what this reads for certain, so the rule is an
    allow-list: every program word must be a plain literal."""
    if any(mark in command for mark in ("$(", "`", "<(", ">(", "$'", '$"')):
        return None  # a substitution runs commands no first word shows; $'\x72m' is rm
    if (len(command) - len(command.rstrip("\\"))) % 2 == 1:
        return None  # a backslash at the end escapes nothing
    script = _parse(command)
    # An unclosed quote; a line continuation (it can join any two words); a here-document
    # (its text reaches the program); a function definition (a later word may run its body);
    # ((...)) arithmetic (as `let`).
    if script.problems or script.unread or script.notes:
        return None
    found: list[tuple[str, str, bool]] = []
    for simple in script.commands:
        if simple.lead_redirect:
            return None  # `>out rm -rf x`: the program word is not the first word
        words = simple.words
        index = 0
        while index < len(words) and words[index].raw in _LEADING:
            index += 1
        while index < len(words) and _is_assignment(words[index].raw):
            index += 1
        if index >= len(words) or words[index].raw in _NOT_A_COMMAND:
            continue
        word = words[index]
        if not _PLAIN_PROGRAM.fullmatch(word.raw):
            return None  # a variable, a glob, a brace, a quote...
        program = word.text.rsplit("/", 1)[-1]
        if program in _INDIRECT or not program:
            return None
        arguments = [argument.text for argument in words[index + 1:]]
        raws = [argument.raw for argument in words[index + 1:]]
        for redirect in simple.redirects:
            target = redirect.target
            arguments.append(redirect.fd + redirect.op)
            if target is not None:
                arguments.append(target.text)
                raws.append(target.raw)
        certain = not any(_UNCERTAIN.intersection(raw) for raw in raws)
        found.append((program, " ".join([program, *arguments]), certain))
    return found


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and name.isascii() \
        and not name[:1].isdigit()


def _may_match(pattern: str, program: str, text: str, certain: bool) -> bool:
    """Whether ``pattern`` matches a simple command, or may match once the shell expands the
    arguments."""
    from fnmatch import fnmatchcase

    bare = pattern[:-2] if pattern.endswith(" *") else None
    if fnmatchcase(text, pattern) or text == bare:
        return True
    if certain:
        return False
    # Expanded, the command still starts with its program: a pattern whose literal start
    # does not agree with it cannot match whatever the arguments become.
    prefix = re.split(r"[*?[]", pattern, maxsplit=1)[0]
    return (program + " ").startswith(prefix) or prefix.startswith(program)


def matches(patterns: list[str], command: str) -> bool:
    """Whether the hook must see ``command``: one sub-command matches (or, once expanded, may
    match) one pattern, or the line cannot be read for certain.

    A pattern is a glob over a whole simple command (``*`` matches anything, spaces too);
    ``git *`` also matches a bare ``git``, as Claude Code's ``Bash(git *)`` rule does.
    """
    commands = _simple_commands(command)
    if commands is None:
        return True
    wanted = [" ".join(pattern.split()) for pattern in patterns]
    return any(_may_match(pattern, *simple) for pattern in wanted for simple in commands)


def skips(script: str, lines: list[str]) -> bool:
    """Whether the ``commands`` patterns of the hook at ``script`` (``<root>/.hookwrap/hooks/
    <name>.py``) leave out every one of a shell call's ``lines`` (Cline's run_commands runs
    several: each must be left out)."""
    script = os.path.abspath(script)
    root = os.path.dirname(os.path.dirname(os.path.dirname(script)))
    patterns = load(root).get(os.path.splitext(os.path.basename(script))[0], [])
    return bool(patterns and lines) and not any(matches(patterns, line) for line in lines)
