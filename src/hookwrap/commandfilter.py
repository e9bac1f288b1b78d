"""Skip shell calls a hook ignores: the ``commands`` patterns of its hookwrap.toml entry.

`hookwrap sync` writes every hook's patterns to ``.hookwrap/filters.json``; a hook with
patterns is called only for shell commands one of them matches (see docs/resident.md for the
exact rule). Anything this module cannot read for certain runs the hook: a filter may only ever
save a call, never hide a command from a hook that should see it.
"""

from __future__ import annotations

import json
import os

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FILTERS_FILE = ".hookwrap/filters.json"
# Words that run another command given as arguments, or a string: what they run is not the
# first word, so a sub-command starting with one of them always runs the hook.
_INDIRECT = frozenset((
    "env", "command", "builtin", "exec", "sudo", "doas", "nohup", "time", "nice", "ionice",
    "timeout", "xargs", "eval", "source", ".", "bash", "sh", "zsh", "dash", "ksh", "fish",
    "busybox", "watch", "stdbuf", "setsid", "chroot", "su", "find", "parallel",
))
_SEPARATORS = frozenset((";", "&", "&&", "|", "||", "|&", ";;", "(", ")", "{", "}", "\n", "!"))
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


def _words(command: str) -> list[str] | None:
    """Shell words and operators (quotes removed); None when the text cannot be read for sure."""
    import shlex

    if "$(" in command or "`" in command or "<(" in command or ">(" in command:
        return None  # a command substitution runs commands no first word shows
    lexer = shlex.shlex(command.replace("\r", " "), posix=True, punctuation_chars=";&|(){}!\n")
    lexer.whitespace = " \t"
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unclosed quote
        return None


def sub_commands(command: str) -> list[str] | None:
    """The simple commands of a shell line, each as its words joined by one space, without
    leading ``NAME=value`` assignments and with the program's directory dropped; None when
    one of them runs another command in a way a first word does not show (``bash -c``,
    ``env``, ``sudo``, ``eval``, ``$(...)``...)."""
    words = _words(command)
    if words is None:
        return None
    found: list[str] = []
    current: list[str] = []
    for word in [*words, ";"]:
        if word not in _SEPARATORS and not (word and set(word) <= set(";&|(){}!\n")):
            current.append(word)
            continue
        while current and _is_assignment(current[0]):
            current.pop(0)
        if current:
            program = current[0].rsplit("/", 1)[-1]
            if program in _INDIRECT or not program or "<" in current[0] or ">" in current[0]:
                return None
            found.append(" ".join([program, *current[1:]]))
        current = []
    return found


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and not name[:1].isdigit()


def matches(patterns: list[str], command: str) -> bool:
    """Whether the hook must see ``command``: one sub-command matches one pattern, or the line
    cannot be read for certain.

    A pattern is a glob over a whole simple command (``*`` matches anything, spaces too);
    ``git *`` also matches a bare ``git``, as Claude Code's ``Bash(git *)`` rule does.
    """
    from fnmatch import fnmatchcase

    commands = sub_commands(command)
    if commands is None:
        return True
    for pattern in patterns:
        wanted = " ".join(pattern.split())
        bare = wanted[:-2] if wanted.endswith(" *") else None
        for sub in commands:
            if fnmatchcase(sub, wanted) or sub == bare:
                return True
    return False


def skips(hook: Any, command: Any) -> bool:
    """Whether a rendered hook's patterns leave out this shell ``command`` (the hook's name and
    project come from its script's path, ``<root>/.hookwrap/hooks/<name>.py``)."""
    script = getattr(hook, "__globals__", {}).get("__file__")
    if not isinstance(script, str) or not isinstance(command, str):
        return False
    script = os.path.abspath(script)
    root = os.path.dirname(os.path.dirname(os.path.dirname(script)))
    name = os.path.splitext(os.path.basename(script))[0]
    patterns = load(root).get(name)
    return patterns is not None and bool(patterns) and not matches(patterns, command)
