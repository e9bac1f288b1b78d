"""What files a shell command writes, removes, copies or reads, for the guard's file rules:
its redirections, and the usual file tools (tee, cp, mv, rm, sed -i, curl -d @file, cat...).
Part of the guard's engine (guard_engine.py), copied with the runtime.

Stdlib only, Python 3.9+.
"""

from __future__ import annotations

import posixpath

from .guard_rules import VALUE_OPTIONS
from .shell import Command
from .shell import has_option as _has_option
from .shell import operands as _operands

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, List, Tuple

# Programs whose file operands are read (and may be shown to the model). For those marked
# with a pattern first, the first operand is the pattern or script, not a file.
_READERS = frozenset((
    "cat", "tac", "less", "more", "most", "head", "tail", "bat", "batcat", "nl", "cut", "sort",
    "uniq", "strings", "xxd", "hexdump", "od", "base64", "base32", "diff", "cmp", "jq", "yq",
    "view", "fold", "fmt", "column", "paste", "pr", "expand", "comm", "join", "look", "iconv",
    "dos2unix", "unix2dos", "tr", "gpg", "openssl", "ssh-keygen", "source", ".", "envsubst",
    "xargs", "md5sum", "sha1sum", "sha256sum", "wc", "file",
))
_PATTERN_FIRST = frozenset(("grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk",
                            "mawk", "nawk", "zgrep", "perl"))
_NOT_READS = frozenset(("md5sum", "sha1sum", "sha256sum", "wc", "file"))

_SAFE_DEVICES = ("/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin",
                 "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full")
_BLOCK_DEVICES = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "loop", "md",
                  "dm-", "mapper/", "sr", "nbd", "zd", "ram", "mtd", "bcache")


def file_changes(command: Command) -> List[Tuple[str, str]]:
    """(change, path) for each file the command writes, removes, copies or reads: its
    redirections, and the usual file tools."""
    changes: List[Tuple[str, str]] = []
    for redirect in command.redirects:
        target = redirect.target
        if target is None:
            continue
        if redirect.writes:
            changes.append(("write", target.text))
        elif redirect.reads:
            changes.append(("read", target.text))
    program, args = command.program, command.args
    if not program:
        return changes
    operands = _operands(args)
    if program in ("tee", "truncate", "sed", "perl"):
        if program in ("sed", "perl") and not _edits_in_place(args):
            changes += [("read", word) for word in operands[1:]] if program == "sed" else []
            return changes
        if program == "truncate":
            operands = _operands_skipping(args, {"-s", "-r", "--size", "--reference"})
        if program in ("sed", "perl"):
            operands = operands[1:] if not any(a.startswith(("-e", "-f")) or a in (
                "--expression", "--file") for a in args) else operands
        changes += [("write", word) for word in operands]
    elif program in ("cp", "mv", "install", "ln", "scp", "rsync"):
        targets, sources = copy_targets(args)
        if program == "mv":
            changes += [("remove", word) for word in sources]
        elif program != "ln":
            changes += [("copy", word) for word in sources]
        changes += [("write", target) for target in targets]
    elif program == "find" and "-delete" in args:  # find . -name .env -delete
        changes += [("remove", args[i + 1]) for i in range(len(args) - 1)
                    if args[i] in ("-name", "-iname")]
    elif program == "dd":
        changes += [("write", word[3:]) for word in args if word.startswith("of=")]
        changes += [("read", word[3:]) for word in args if word.startswith("if=")]
    elif program in ("rm", "unlink", "shred", "rmdir", "srm"):
        changes += [("remove", word) for word in operands]
    elif program in ("tar", "zip", "7z"):
        changes += [("copy", word) for word in operands]
    elif program == "git":
        sub, rest = git_subcommand(command)
        if sub == "add":
            changes += [("commit", word) for word in _operands(rest)]
    elif program in ("curl", "http", "https", "xh", "wget"):
        changes += _uploads(args)
    elif program in _READERS and program not in _NOT_READS:
        changes += [("read", word) for word in operands]
    elif program in _PATTERN_FIRST:
        changes += _searched(args, operands)
    return changes


def _uploads(args: List[str]) -> List[Tuple[str, str]]:
    """The files curl and wget send: `-d @file`, `-F x=@file`, `-T file`, `--post-file=`."""
    changes: List[Tuple[str, str]] = []
    for index, word in enumerate(args):
        value = word
        if word in ("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F",
                    "--form", "-T", "--upload-file") and index + 1 < len(args):
            value = args[index + 1]
        elif word.startswith(("--post-file=", "--body-file=")):
            changes.append(("copy", word.split("=", 1)[1]))
            continue
        if "@" in value:
            changes.append(("copy", value.rsplit("@", 1)[1].split(";", 1)[0]))
        elif word in ("-T", "--upload-file") and index + 1 < len(args):
            changes.append(("copy", value))
    return changes


def _searched(args: List[str], operands: List[str]) -> List[Tuple[str, str]]:
    """The files grep, rg, sed, awk read: operands after the pattern or script (all of them
    with -e/-f), and the globs of --include / -g."""
    explicit = any(a.startswith(("-e", "-f")) or a in ("--regexp", "--file") for a in args)
    changes = [("read", word) for word in (operands if explicit else operands[1:])]
    for index, word in enumerate(args):  # grep -r --include='.env*', rg -g '.env*'
        if word.startswith(("--include=", "--glob=")):
            changes.append(("read", word.split("=", 1)[1]))
        elif word in ("--include", "-g", "--glob", "--iglob") and index + 1 < len(args):
            changes.append(("read", args[index + 1]))
    return changes


def _edits_in_place(args: List[str]) -> bool:
    """sed -i, -i.bak, -Ei, --in-place; perl -i, -pi (an `e` first means `-e SCRIPT`)."""
    for word in args:
        if word.startswith("--"):
            if _has_option([word], "--in-place"):
                return True
        elif word.startswith("-"):
            for letter in word[1:]:
                if letter == "i":
                    return True
                if letter in "efl":  # the rest of the word is this option's value
                    break
    return False


def _operands_skipping(args: List[str], with_value: Iterable[str]) -> List[str]:
    """Operands, not counting the values of the listed options (`-s 0`, `-t dir`)."""
    return _operands(args, with_value)


def copy_targets(args: List[str]) -> Tuple[List[str], List[str]]:
    """(where cp, mv, install and ln write, what they take from): `-t DIR` or the last
    operand; into a directory (a trailing /, or more than one source), each source's name."""
    with_value = {"-t", "-S", "-m", "-o", "-g", "--target-directory", "--suffix", "-e", "-i",
                  "-P", "--rsh", "-F"}
    operands = _operands(args, with_value)
    directory = next((args[i + 1] for i in range(len(args) - 1)
                      if args[i] in ("-t", "--target-directory")), None)
    directory = directory or next((w.split("=", 1)[1] for w in args
                                   if w.startswith("--target-directory=")), None)
    if directory is None:
        if len(operands) < 2:
            return [], operands
        directory, operands = operands[-1], operands[:-1]
        if ":" in directory.split("/", 1)[0]:
            return [], operands  # scp / rsync to a remote host
        if not directory.endswith("/") and len(operands) == 1:
            named = posixpath.join(directory, posixpath.basename(operands[0].rstrip("/")))
            return [directory, named], operands
    return [directory] + [posixpath.join(directory, posixpath.basename(word.rstrip("/")))
                          for word in operands], operands


def git_subcommand(command: Command) -> Tuple[str, List[str]]:
    """(the git subcommand, its arguments) after git's own options."""
    args = command.args
    index = 0
    values = VALUE_OPTIONS["git"]
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in values else 1
    if index >= len(args):
        return "", []
    return args[index], args[index + 1:]


def is_block_device(path: str) -> bool:
    if not path.startswith("/dev/") or path in _SAFE_DEVICES:
        return False
    name = path[5:]
    return name.startswith(_BLOCK_DEVICES)


def writes_device(command: Command) -> bool:
    """Whether the command writes onto a block device (`> /dev/sda`, `cp img /dev/sdb`)."""
    if not command.redirects and command.program not in ("cp", "tee", "cat", "mv", "install",
                                                         "pv", "ddrescue", "cpio"):
        return False
    return any(change == "write" and is_block_device(path) for change, path in
               file_changes(command)) or (command.program == "ddrescue" and
                                      any(is_block_device(a) for a in command.args))
