"""The guard's engine: reads a tool call, finds the first rule it breaks, and says why.

The rendered `.hookwrap/hooks/<name>.py` holds its user's policy and builds a ``Guard`` from it;
this module (copied with the runtime, refreshed by `hookwrap sync`) does the rest: it reads
shell lines with shell.py, matches the rules of guard_rules.py (and the policy's own), and
answers with a block that names the rule id and the safer way, or with nothing. `explain()`
shows how a line was read and which rule matched, or why none did
(`hookwrap test NAME --explain 'CMD'`).

Policy settings may also live in the hook's ``[hooks.<name>]`` table of hookwrap.toml
(``packs``, ``block_force_with_lease``, ``allow_secret_reads``, ``allowed_commands``,
``allowed_paths``, ``not_secrets``, ``disabled_rules``): lists add to the script's, a true or
false replaces it. Stdlib only, Python 3.9+; nothing here runs a command.
"""

from __future__ import annotations

import os
import posixpath

from .guard_rules import (
    NOT_CREDENTIAL_FILES,
    NOT_SECRET_FILES,
    NOT_SECRETS,
    PACKS,
    RULES,
    VALUE_OPTIONS,
    Rule,
    looks_destructive,
)
from .hookoutput import HookOutput
from .shell import INTERPRETERS, SHELLS, Command, program_name
from .shell import glob_match as _fnmatch
from .shell import has_option as _has_option
from .shell import one_of as _one_of
from .shell import operands as _operands
from .shell import read as read_line

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Optional, Tuple

    from .hookinput import HookInput

__all__ = ["PACKS", "Finding", "Guard", "Rule"]

# Settings a hook's hookwrap.toml table may hold, with the type each takes.
SETTINGS = {"packs": list, "block_force_with_lease": bool, "allow_secret_reads": bool,
            "allowed_commands": list, "allowed_paths": list, "not_secrets": list,
            "disabled_rules": list}
_TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders",
              "/dev/shm")
_SYSTEM_DIRS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/opt",
                "/var", "/srv", "/root", "/home", "/Users", "/System", "/Library", "/Applications",
                "/private/etc", "/private/var", "/snap", "/nix", "/dev", "/proc", "/sys")
_PROJECT_VARS = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "QWEN_PROJECT_DIR",
                 "FACTORY_PROJECT_DIR", "CODEX_PROJECT_DIR", "COPILOT_PROJECT_DIR")
_DOWNLOADERS = frozenset(("curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lynx",
                          "lwp-request", "httpie"))
_DECODERS = frozenset(("base64", "base32", "xxd", "openssl", "gunzip", "zcat", "gzip", "bzcat",
                       "bunzip2", "xzcat", "unxz", "uudecode", "rev", "zstdcat", "gpg"))
_CODE_RUNNERS = SHELLS | frozenset(INTERPRETERS)
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
_COPIERS = frozenset(("cp", "scp", "rsync", "install", "tar", "zip", "7z", "rclone", "gsutil",
                      "sftp"))
_SAFE_DEVICES = ("/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin",
                 "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full")
_BLOCK_DEVICES = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "loop", "md",
                  "dm-", "mapper/", "sr", "nbd", "zd", "ram", "mtd", "bcache")


class Finding:
    """A rule that a call breaks: the rule, and the command (as shown) that breaks it."""

    __slots__ = ("rule", "shown", "via")

    def __init__(self, rule: Rule, shown: str, via: Tuple[str, ...] = ()) -> None:
        self.rule = rule
        self.shown = shown
        self.via = via


class Guard:
    """A guard with its user's policy (see templates/guard.py.j2 for what each setting does).

    ``script``: the rendered guard's ``__file__``; it locates the project and its name. The
    hookwrap.toml table is read on the first check (settings there add to these)."""

    def __init__(self, script: str, *, packs: Iterable[str] | Dict[str, bool] = (),
                 block_force_with_lease: bool = False, allow_secret_reads: bool = False,
                 allowed_commands: Iterable[str] = (), allowed_paths: Iterable[str] = (),
                 not_secrets: Iterable[str] = (), disabled_rules: Iterable[str] = (),
                 extra_rules: Iterable[Rule] = (), name: str = "", root: str = "") -> None:
        script = os.path.abspath(script)
        self.name = name or os.path.splitext(os.path.basename(script))[0]
        self.root = root or os.path.dirname(os.path.dirname(os.path.dirname(script)))
        self.script = script
        if isinstance(packs, dict):
            packs = [pack for pack, on in packs.items() if on]
        self.packs = set(packs)
        self.block_force_with_lease = block_force_with_lease
        self.allow_secret_reads = allow_secret_reads
        self.allowed_commands = [" ".join(p.split()) for p in allowed_commands]
        self.allowed_paths = list(allowed_paths)
        self.not_secrets = list(not_secrets)
        self.disabled_rules = set(disabled_rules)
        self.extra_rules = list(extra_rules)
        self._ready = False
        self.settings_problems: List[str] = []

    # -- settings ---------------------------------------------------------------------------

    def _prepare(self) -> None:
        """Merge hookwrap.toml's settings and index the rules; once per process."""
        if self._ready:
            return
        self._ready = True
        self._merge(self._table())
        self.real_root = os.path.realpath(self.root)
        self._allowed = [p for p in (self._absolute(path) for path in self.allowed_paths) if p]
        rules = [*RULES, *self.extra_rules]
        self.rules = rules
        if self.disabled_rules:
            known = {rule.id for rule in rules}
            for unknown in sorted(self.disabled_rules - known):
                self.settings_problems.append(
                    f"DISABLED_RULES: {unknown!r} names no rule of the guard, so it switches "
                    "nothing off (a block names its rule id)")
        self.by_program: Dict[str, List[Rule]] = {}
        self.glob_rules: List[Rule] = []
        self.any_rules: List[Rule] = []
        self.file_rules: List[Rule] = []
        by_program = self.by_program
        for rule in rules:
            if rule.files or rule.dirs:
                self.file_rules.append(rule)
            elif not rule.program:
                self.any_rules.append(rule)
            for program in rule.program:
                if "*" in program or "?" in program or "[" in program:
                    self.glob_rules.append(rule)
                elif program in by_program:
                    by_program[program].append(rule)
                else:
                    by_program[program] = [rule]
        self._file_patterns: Dict[str, _FilePatterns] = {}  # rule id: its patterns, lowered

    def _table(self) -> Dict[str, Any]:
        """The guard's settings in its hookwrap.toml table ({} when it has none)."""
        path = os.path.join(self.root, "hookwrap.toml")
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError:
            return {}
        if not any(key.encode() in data for key in SETTINGS):
            return {}  # the usual case: skip parsing TOML on every call
        from .options import manifest_entry

        return manifest_entry(self.root, self.name)

    def _merge(self, table: Dict[str, Any]) -> None:
        for key, kind in SETTINGS.items():
            if key not in table:
                continue
            value = table[key]
            if kind is bool and isinstance(value, bool):
                setattr(self, key, value)
            elif kind is list and isinstance(value, list) and \
                    all(isinstance(item, str) for item in value):
                if key == "packs":
                    self.packs.update(value)
                elif key == "disabled_rules":
                    self.disabled_rules.update(value)
                elif key == "allowed_commands":
                    self.allowed_commands.extend(" ".join(p.split()) for p in value)
                else:
                    getattr(self, key).extend(value)
            else:
                self.settings_problems.append(f"hookwrap.toml: hooks.{self.name}.{key}: "
                                              f"{value!r} is not a {kind.__name__}")

    def active(self, rule: Rule) -> str:
        """"" when the rule is on, else why it is off."""
        if rule.id in self.disabled_rules:
            return "switched off by DISABLED_RULES"
        if rule.pack and rule.pack not in self.packs:
            return f"in the {rule.pack} pack, which is off"
        if rule.id == "git.push-force-with-lease" and not self.block_force_with_lease:
            return "off unless BLOCK_FORCE_WITH_LEASE is set"
        if rule.id in ("secrets.read", "secrets.print-credentials") and self.allow_secret_reads:
            return "off: ALLOW_SECRET_READS is set"
        return ""

    # -- the hook -----------------------------------------------------------------------------

    def check(self, event: HookInput) -> HookOutput | None:
        """The hook: block the call when a rule matches; otherwise no opinion (None)."""
        finding = self.finding(event)
        return None if finding is None else self.block(finding)

    def finding(self, event: HookInput) -> Finding | None:
        self._prepare()
        cwd = event.cwd or os.getcwd()
        # Every file the call writes: write_file's or edit_file's file_path, or each file an
        # apply_patch adds, updates, deletes or moves (event.files has the details).
        for path in event.file_paths:
            found = self.check_file(path, cwd, "edit", path)
            if found:
                return found
        if event.tool_name == "shell":
            # Every line the call runs (Cline's run_commands carries several), each on its own.
            for line in event.shell_lines:
                found = self.check_line(line, cwd)
                if found:
                    return found
            return None
        if event.tool_name == "read_file":
            for key in ("file_path", "filePath", "path", "absolute_path"):  # per CLI
                read = event.tool_input.get(key)
                if isinstance(read, str) and read:
                    return self.check_file(read, cwd, "read", read)
            files = event.tool_input.get("files")  # Cline's read_files: [{"path": ...}, ...]
            for item in files if isinstance(files, list) else ():
                read = item.get("path") if isinstance(item, dict) else None
                found = self.check_file(read, cwd, "read", read) \
                    if isinstance(read, str) and read else None
                if found:
                    return found
        return None

    def block(self, finding: Finding) -> HookOutput:
        rule = finding.rule
        shown = finding.shown if len(finding.shown) <= 200 else finding.shown[:200] + "..."
        return HookOutput.block(
            f"Blocked by the {self.name} hook: {rule.what} (`{shown}`; rule {rule.id}). "
            f"{rule.instead} (The policy is in .hookwrap/hooks/{self.name}.py; `hookwrap test "
            f"{self.name} --explain` shows why.)"
        )

    # -- shell lines --------------------------------------------------------------------------

    @property
    def home(self) -> str:
        return os.path.expanduser("~").rstrip("/") or "/"

    def check_line(self, line: str, cwd: str, trace: Optional[List[Dict[str, Any]]] = None
                   ) -> Finding | None:
        """The first rule a shell line breaks (None if none). ``trace``: when a list, one entry
        per command read, for explain()."""
        self._prepare()
        reading = read_line(line)
        commands, unread = reading.commands, reading.unread
        if unread:
            rule = self._rule("code.unreadable")
            if rule is not None and not self.active(rule) and looks_destructive(unread):
                return Finding(rule, line if len(line) < 200 else line[:200])
        state = _State(self, cwd)
        first: Optional[Finding] = None
        for command in commands:
            record: Optional[Dict[str, Any]] = None
            if trace is not None:
                record = {"argv": command.argv, "via": list(command.via),
                          "redirects": [r.shown() for r in command.redirects],
                          "cwd": state.cwd or "(unknown)", "notes": []}
                trace.append(record)
            found = self._check_command(command, state, record)
            state.after(command)
            if record is not None:
                record["rule"] = found.rule.id if found else None
            if found:
                if trace is None:
                    return found
                first = first or found  # explain() shows every command
        return first

    def _check_command(self, command: Command, state: _State,
                       record: Optional[Dict[str, Any]]) -> Finding | None:
        text = " ".join(command.argv)
        if self.allowed_commands and command.argv and _glob_any(text, self.allowed_commands):
            if record is not None:
                record["notes"].append("allowed by ALLOWED_COMMANDS")
            return None
        program = command.program
        candidates = list(self.by_program.get(program, ()))
        if self.glob_rules and program:
            candidates += [rule for rule in self.glob_rules
                           if _glob_any(program, [p for p in rule.program if "*" in p or "?" in p])]
        for rule in (*candidates, *self.any_rules):
            off = self.active(rule)
            if off:
                if record is not None and rule in candidates:
                    record["notes"].append(f"{rule.id}: {off}")
                continue
            if _matches(rule, command, text, state):
                return Finding(rule, self._shown(command), command.via)
            if record is not None and rule in candidates:
                record["notes"].append(f"{rule.id}: no match")
        if record is not None and program in ("rm", "find", "mv", "cd", "pushd"):
            targets = command.roots if command.roots else \
                (_find_roots(command) if program == "find" else _operands(command.args))
            record["paths"] = {t: state.classify(t) for t in targets[:20]}
        for change, path in _changes(command):
            found = self.check_file(path, state.cwd or state.start, change, self._shown(command),
                                    state)
            if found:
                return found
        return None

    def _shown(self, command: Command) -> str:
        shown = command.shown()
        return shown if not command.via else f"{shown} (via {', '.join(command.via)})"

    def _rule(self, rule_id: str) -> Optional[Rule]:
        return next((rule for rule in self.rules if rule.id == rule_id), None)

    # -- files --------------------------------------------------------------------------------

    def check_file(self, path: str, cwd: str, change: str, shown: str,
                   state: Optional[_State] = None) -> Finding | None:
        """The first file rule a change (edit, write, remove, copy, read) to ``path`` breaks."""
        self._prepare()
        if not path or "\0" in path:
            return None
        expanded = _expand(path, cwd, self.root, self.home)
        if expanded is None:
            return None
        full = os.path.normpath(os.path.join(cwd, expanded))
        candidates = {full}
        try:  # noqa: SIM105 (contextlib is not loaded in a hook process)
            candidates.add(os.path.realpath(full))
        except (OSError, ValueError):
            pass
        for rule in self.file_rules:
            if change not in rule.changes or self.active(rule):
                continue
            for candidate in candidates:
                if self._path_matches(rule, candidate, change == "remove"):
                    return Finding(rule, shown)
        return None

    def _path_matches(self, rule: Rule, full: str, removes: bool = False) -> bool:
        """Whether ``full`` is one of the rule's files; ``removes``: it is deleted or moved,
        so a folder that holds one of the rule's paths counts too (`rm -rf .claude`)."""
        patterns = self._file_patterns.get(rule.id)
        if patterns is None or patterns.rule is not rule:
            patterns = self._file_patterns[rule.id] = _FilePatterns(rule, self.not_secrets)
        parts = [part.lower() for part in full.split(os.sep) if part]
        name = parts[-1] if parts else ""
        if patterns.exempt and any(_fnmatch(name, pattern) or name.startswith(pattern + ".")
                                   for pattern in patterns.exempt):
            return False
        if rule.dirs and any(_fnmatch(part, pattern) for part in parts for pattern in rule.dirs):
            return True
        names = patterns.names
        if names and any(_fnmatch(name, pattern) for pattern in names):
            return True
        if patterns.samples and ("*" in name or "?" in name or "[" in name):
            # `rm .env*`: the glob takes .env. A shell glob takes a name starting with a dot
            # only when it starts with one too.
            if any(_fnmatch(sample, name) for sample in patterns.samples
                   if name.startswith(".") or not sample.startswith(".")):
                return True
        if patterns.absolute:
            lowered = full.lower()
            if any(lowered == p or (p.endswith("/") and lowered.startswith(p))
                   for p in patterns.absolute):
                return True
        paths = patterns.paths
        if not paths:
            return False
        for base in {self.root, self.real_root, self.home}:
            relative = _relative(full, base)
            if relative is None:
                continue
            for pattern in paths:
                if pattern.endswith("/") and (relative + "/").startswith(pattern):
                    return True
                if _fnmatch(relative, pattern):
                    return True
                if removes and relative != "." and pattern.startswith(relative + "/"):
                    return True
        return False

    def _absolute(self, path: str) -> str:
        expanded = _expand(path, self.root, self.root, self.home)
        if not expanded:
            return ""
        return os.path.normpath(os.path.join(self.root, expanded))

    # -- explain ------------------------------------------------------------------------------

    def explain(self, line: str, cwd: str = "") -> Dict[str, Any]:
        """How ``line`` is read and what the guard decides, as data (see hooktest)."""
        self._prepare()
        cwd = cwd or self.root
        trace: List[Dict[str, Any]] = []
        found = self.check_line(line, cwd, trace)
        reading = read_line(line)
        return {
            "line": line, "cwd": cwd, "commands": trace, "problems": reading.problems,
            "unread": reading.unread,
            "verdict": None if found is None else {
                "rule": found.rule.id, "category": found.rule.category, "what": found.rule.what,
                "instead": found.rule.instead, "command": found.shown,
                "reason": self.block(found).reason},
            "settings": {"packs": sorted(self.packs), "block_force_with_lease":
                         self.block_force_with_lease, "allow_secret_reads":
                         self.allow_secret_reads, "allowed_commands": self.allowed_commands,
                         "allowed_paths": self.allowed_paths, "not_secrets": self.not_secrets,
                         "disabled_rules": sorted(self.disabled_rules),
                         "extra_rules": [rule.id for rule in self.extra_rules],
                         "problems": self.settings_problems},
        }


# --- matching ----------------------------------------------------------------------------------


class _State:
    """What one line's commands share as they run: the working directory (`cd` moves it)."""

    def __init__(self, guard: Guard, cwd: str) -> None:
        self.guard = guard
        self.start = cwd
        self.cwd: Optional[str] = cwd  # None: not known (`cd $X`, `cd -`)
        self._classes: Dict[str, str] = {}

    def classes(self, targets: Iterable[str]) -> List[str]:
        """classify() of each distinct target (a long line repeats its words)."""
        found: List[str] = []
        for target in dict.fromkeys(targets):
            known = self._classes.get(target)
            if known is None:
                known = self._classes[target] = self.classify(target)
            found.append(known)
        return found

    def after(self, command: Command) -> None:
        if command.program in ("cd", "pushd", "popd"):
            self._classes = {}
        if command.program in ("cd", "pushd") and not command.inside:
            args = [a for a in command.args if not a.startswith("-") or a == "-"]
            if not args:
                self.cwd = self.guard.home
                return
            target = args[0]
            if target == "-":
                self.cwd = None
                return
            expanded = _expand(target, self.cwd or "", self.guard.root, self.guard.home)
            if expanded is None or (self.cwd is None and not expanded.startswith("/")):
                self.cwd = None
                return
            self.cwd = os.path.normpath(os.path.join(self.cwd or "/", expanded))
        elif command.program == "popd":
            self.cwd = None

    def classify(self, target: str) -> str:
        """Where a path lands: "root-or-home", "project-root", "inside", "temp", "allowed",
        "system" (/etc, /usr...), "home" (in your home directory), "outside",
        "all-of-unknown" (`*` or `.` where the directory is not known) or "unknown" (it
        depends on a variable or a command's output)."""
        guard = self.guard
        if not target:
            return "unknown"
        path = target
        whole = False  # `dir/*`, `dir/.*`: everything in dir
        last = path.rstrip("/").rpartition("/")[2]
        if last and not last.strip("*?.") and any(c in last for c in "*?"):
            path = path.rstrip("/")[: -len(last)] or "."
            whole = True
        expanded = _expand(path, self.cwd or "", guard.root, guard.home)
        if expanded is None:
            return "unknown"
        if not expanded.startswith("/"):
            if self.cwd is None:
                return "all-of-unknown" if whole or expanded.strip("./") == "" else "unknown"
            expanded = os.path.join(self.cwd, expanded)
        full = posixpath.normpath(expanded)
        if full.startswith("//"):
            full = "/" + full.lstrip("/")
        home = guard.home
        if full in ("/", home) or _under(home, full):
            return "root-or-home"
        if target.startswith("~") and not target.startswith(("~/", "~\\")) and target != "~":
            user = target[1:].split("/", 1)
            return "root-or-home" if len(user) == 1 or not user[1].strip("/.") else "outside"
        root = guard.root
        if full == root or _under(root, full) or full == guard.real_root or \
                _under(guard.real_root, full):
            return "project-root"
        if _under(full, root) or _under(full, guard.real_root):
            return "inside"
        if any(full == allowed or _under(full, allowed) for allowed in guard._allowed):
            return "allowed"
        climbs = ".." in target.replace("\\", "/").split("/")
        if not _under(full, home) and not climbs and \
                any(full == t or _under(full, t) for t in _temp_dirs()):
            return "temp"
        if _under(full, home):
            return "home"
        if any(full == d or _under(full, d) for d in _SYSTEM_DIRS):
            return "system"
        return "outside"


def _under(path: str, folder: str) -> bool:
    """Whether ``path`` is strictly inside ``folder`` (both normalized and absolute)."""
    return path.startswith(folder.rstrip("/") + "/") and path != folder


def _temp_dirs() -> Tuple[str, ...]:
    tmpdir = os.environ.get("TMPDIR", "").rstrip("/")
    return _TEMP_DIRS + ((tmpdir,) if tmpdir.startswith("/") and len(tmpdir) > 1 else ())


def _expand(path: str, cwd: str, root: str, home: str) -> Optional[str]:
    """~, $HOME, $PWD, $TMPDIR, $USER and the CLIs' project-dir variables at the start of a
    path; None when the path still holds an expansion whose value is not known."""
    if path.startswith("~"):
        head, slash, rest = path.partition("/")
        if head == "~":
            path = home + slash + rest
        else:
            path = "/home/" + head[1:] + slash + rest  # another user's home
    if "$" in path or "`" in path:
        for names, value in ((("HOME",), home), (("PWD",), cwd or ""),
                             (("TMPDIR",), os.environ.get("TMPDIR", "/tmp") or "/tmp"),
                             (_PROJECT_VARS, root), (("USER", "LOGNAME"),
                                                     os.environ.get("USER", ""))):
            for name in names:
                path = _replace_var(path, name, value)
        for spelling in ("$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)"):
            if spelling in path:
                path = path.replace(spelling, cwd or "$?")
        if "$" in path or "`" in path:
            return None
    return path


def _replace_var(path: str, name: str, value: str) -> str:
    """$NAME and ${NAME...} (``${HOME:?}``, ``${HOME:-x}``) replaced by value."""
    if not value or "$" not in path:
        return path
    out: List[str] = []
    i = 0
    while i < len(path):
        j = path.find("$", i)
        if j < 0:
            out.append(path[i:])
            break
        out.append(path[i:j])
        if path.startswith("${" + name, j):
            end = path.find("}", j)
            after = path[j + 2 + len(name):j + 3 + len(name)]
            if end > 0 and (after == "}" or after in ":-%#?/+="):
                out.append(value)
                i = end + 1
                continue
        if path.startswith("$" + name, j):
            nxt = path[j + 1 + len(name):j + 2 + len(name)]
            if not (nxt.isalnum() or nxt == "_"):
                out.append(value)
                i = j + 1 + len(name)
                continue
        out.append("$")
        i = j + 1
    return "".join(out)


def _matches(rule: Rule, command: Command, text: str, state: _State) -> bool:
    if rule.pattern and not _glob_any(text, [rule.pattern]):
        return False
    if rule.program and not command.program:
        return False
    args = command.args
    if rule.sub or rule.args:
        operands = _operands(args, VALUE_OPTIONS.get(command.program, ()))
        for position, alternatives in enumerate(rule.sub):
            if position >= len(operands) or not _one_of(operands[position], alternatives):
                return False
        if rule.args and not any(_one_of(word, "|".join(rule.args)) for word in operands):
            return False
    for group in rule.options:
        if not _has_option(args, group):
            return False
    if rule.unless and _has_option(args, rule.unless):
        return False
    if rule.check:
        check = CHECKS.get(rule.check)
        if check is None and rule.check in PACK_CHECKS:
            from .guard_packs import PACK_CHECKS as found

            check = CHECKS[rule.check] = found[rule.check]
        return bool(check(command, state)) if check is not None else False
    return bool(rule.program or rule.pattern)


def _glob_any(text: str, patterns: Iterable[str]) -> bool:
    for pattern in patterns:
        bare = pattern[:-2] if pattern.endswith(" *") else None
        if text == bare or _fnmatch(text, pattern):
            return True
    return False


class _FilePatterns:
    """A file rule's patterns as _path_matches compares them (lowered), made once per rule."""

    __slots__ = ("absolute", "exempt", "names", "paths", "rule", "samples")

    def __init__(self, rule: Rule, not_secrets: List[str]) -> None:
        self.rule = rule
        exempt: Tuple[str, ...] = ()
        if rule.category == "secrets":
            exempt = (*NOT_SECRETS, *not_secrets)
            if rule.id == "secrets.read":
                exempt = (*exempt, *NOT_SECRET_FILES)
            elif rule.id == "secrets.credentials-change":
                exempt = (*exempt, *NOT_CREDENTIAL_FILES)
        self.exempt = tuple(pattern.lower() for pattern in exempt)
        self.names = [p.lower() for p in rule.files if "/" not in p]
        self.samples = [] if rule.id == "secrets.credentials-change" else \
            [p.replace("*", "local") for p in self.names if "[" not in p and "?" not in p]
        self.absolute = [p.lower() for p in rule.files if p.startswith("/")]
        self.paths = [p.lower()[2:] if p.startswith("./") else p.lower() for p in rule.files
                      if "/" in p and not p.startswith("/")]


def _relative(full: str, base: str) -> Optional[str]:
    """``full`` relative to ``base``, "/"-separated and lowered ("." for base itself); None
    when it is not inside. Both absolute; as os.path.relpath, without its system calls."""
    if not full.startswith("/") or not base.startswith("/"):
        relative = os.path.relpath(full, base).replace(os.sep, "/")
        return None if relative == ".." or relative.startswith("../") else relative.lower()
    # One or more leading slashes name the same folder to relpath (it compares the parts).
    full = "/" + posixpath.normpath(full).lstrip("/")
    base = "/" + posixpath.normpath(base).lstrip("/")
    if full == base:
        return "."
    prefix = base if base.endswith("/") else base + "/"
    return full[len(prefix):].lower() if full.startswith(prefix) else None


# --- what a command changes --------------------------------------------------------------------


def _changes(command: Command) -> List[Tuple[str, str]]:
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
        targets, sources = _copy_targets(args)
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
        sub, rest = _git(command)
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


def _copy_targets(args: List[str]) -> Tuple[List[str], List[str]]:
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


# --- the named checks --------------------------------------------------------------------------


def _targets(command: Command) -> List[str]:
    """What an rm removes: its operands; for an rm run by find -exec, find's start paths."""
    if command.roots:
        return list(command.roots)
    return _operands(command.args)


def _target_classes(command: Command, state: _State) -> List[str]:
    classes = state.classes(_targets(command))
    if command.roots and command.narrowed:  # find . -name '*.pyc' -exec rm -rf {} +
        classes = ["inside" if c == "project-root" else c for c in classes]
    return classes


def _rm_root_or_home(command: Command, state: _State) -> bool:
    return "root-or-home" in _target_classes(command, state)


def _rm_project_root(command: Command, state: _State) -> bool:
    return "project-root" in _target_classes(command, state)


def _rm_outside(command: Command, state: _State) -> bool:
    """-r of /etc, /usr..., of your home's folders, or of `*` where the directory is not
    known; with -f also anywhere else outside the project (not temp or ALLOWED_PATHS)."""
    classes = _target_classes(command, state)
    if any(c in ("system", "home", "all-of-unknown") for c in classes):
        return True
    return "outside" in classes and _has_option(command.args, "-f|--force")


def _rm_found_outside(command: Command, state: _State) -> bool:
    """rm (any options) of each file that find -exec or fd -x finds outside the project."""
    return bool(command.roots) and any(
        c in ("root-or-home", "system", "home", "outside", "all-of-unknown")
        for c in _target_classes(command, state))


def _rm_git_dir(command: Command, state: _State) -> bool:
    return any(posixpath.basename(target.rstrip("/")) == ".git" for target in _targets(command))


def _rm_dynamic(command: Command, state: _State) -> bool:
    return command.dynamic_args and not command.roots


def _find_roots(command: Command) -> List[str]:
    return list(command.roots) or ["."]


def _find_delete(command: Command, state: _State) -> bool:
    """find -delete outside the project, or of all of it (no name, path, time or size test);
    find -exec rm (any options) outside it."""
    args = command.args
    classes = [state.classify(root) for root in _find_roots(command)]
    if command.narrowed:
        classes = ["inside" if c == "project-root" else c for c in classes]
    if "-delete" in args:
        return any(c not in ("inside", "temp", "allowed", "unknown") for c in classes)
    runs = [args[i + 1] for i in range(len(args) - 1)
            if args[i] in ("-exec", "-execdir", "-ok", "-okdir")]
    if any(program_name(word) in ("rm", "unlink", "shred", "srm") for word in runs):
        return any(c in ("root-or-home", "outside", "system", "home", "all-of-unknown")
                   for c in classes)
    return False


def _rsync_delete(command: Command, state: _State) -> bool:
    """rsync --delete (any --delete-*) into / , your home, or outside the project."""
    if not any(word.startswith("--delete") or word in ("--remove-source-files",)
               for word in command.args):
        return False
    operands = _operands(command.args, {"-e", "--rsh", "--exclude", "--include", "--filter",
                                        "-f", "--files-from", "--exclude-from", "--chmod"})
    if len(operands) < 2 or ":" in operands[-1].split("/", 1)[0]:
        return False
    return state.classify(operands[-1]) in ("root-or-home", "system", "home", "outside",
                                            "project-root")


def _mv_root_or_home(command: Command, state: _State) -> bool:
    _, sources = _copy_targets(command.args)
    return any(state.classify(source) in ("root-or-home", "system", "project-root")
               for source in sources)


def _recursive_root_or_home(command: Command, state: _State) -> bool:
    return any(state.classify(word) == "root-or-home" for word in _operands(command.args)[1:])


def _git(command: Command) -> Tuple[str, List[str]]:
    """(the git subcommand, its arguments) after git's own options."""
    args = command.args
    index = 0
    values = VALUE_OPTIONS["git"]
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in values else 1
    if index >= len(args):
        return "", []
    return args[index], args[index + 1:]


def _checkout_discards(command: Command, state: _State) -> bool:
    _, rest = _git(command)
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


def _restore_discards(command: Command, state: _State) -> bool:
    _, rest = _git(command)
    if _has_option(rest, "-h|--help"):
        return False
    staged = _has_option(rest, "-S|--staged")
    worktree = _has_option(rest, "-W|--worktree")
    if staged and not worktree:
        return False
    return bool(_operands(rest, {"-s", "--source"})) or command.dynamic_args or \
        any(word.startswith("--pathspec-from-file") for word in rest)


def _branch_force_delete(command: Command, state: _State) -> bool:
    _, rest = _git(command)
    if any(word.startswith("-") and not word.startswith("--") and "D" in word for word in rest):
        return True
    return _has_option(rest, "-d|--delete") and _has_option(rest, "-f|--force")


def _reflog_expire(command: Command, state: _State) -> bool:
    sub, rest = _git(command)
    now = any(word.split("=", 1)[-1] in ("now", "all") for word in rest if "=" in word) or \
        any(a in ("now", "all") for a in rest)
    if sub == "reflog":
        return bool(rest) and (rest[0] == "delete" or (rest[0] == "expire" and now))
    if sub == "gc":
        return any(word.startswith("--prune=") and word.split("=", 1)[1] in ("now", "all")
                   for word in rest)
    return sub == "prune"


def _git_rm_force(command: Command, state: _State) -> bool:
    """git rm -f (not --cached): deletes files with changes git has not stored."""
    _, rest = _git(command)
    return _has_option(rest, "-f|--force") and not _has_option(rest, "--cached") and \
        not _has_option(rest, "-n|--dry-run")


def _update_ref_delete(command: Command, state: _State) -> bool:
    _, rest = _git(command)
    return _has_option(rest, "-d") or (bool(rest) and rest[0] == "--stdin")


def _push_args(command: Command) -> List[str]:
    sub, rest = _git(command)
    return rest if sub == "push" else []


def _push_force(command: Command, state: _State) -> bool:
    rest = _push_args(command)
    if any(word == "--force" or (word.startswith("--forc") and "--force".startswith(word))
           for word in rest if word != "--"):
        return True
    if any(word.startswith("-") and not word.startswith("--") and "f" in word[1:]
           for word in rest):
        return True
    return any(word.startswith("+") and len(word) > 1 for word in _operands(rest, {"-o"}))


def _push_lease(command: Command, state: _State) -> bool:
    rest = _push_args(command)
    return any(len(word.split("=", 1)[0]) > len("--force") and
               "--force-with-lease".startswith(word.split("=", 1)[0]) for word in rest)


def _push_deletes(command: Command, state: _State) -> bool:
    rest = _push_args(command)
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
    "npm": (("token", "list"),), "op": (("read",),),
}


def _prints_credentials(command: Command, state: _State) -> bool:
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
            return True
    return False


def _download_piped(command: Command, state: _State) -> bool:
    return command.stdin == "pipe" and command.program in _CODE_RUNNERS and \
        any(program in _DOWNLOADERS for program in command.upstream)


def _download_substituted(command: Command, state: _State) -> bool:
    return command.program in _DOWNLOADERS and bool(command.inside) and \
        (command.host in _CODE_RUNNERS or command.host in ("", "eval", "source", "."))


def _decoded_piped(command: Command, state: _State) -> bool:
    return command.stdin == "pipe" and command.program in _CODE_RUNNERS and \
        any(program in _DECODERS for program in command.upstream) and \
        not any(program in _DOWNLOADERS for program in command.upstream)


def _unreadable(command: Command, state: _State) -> bool:
    return False  # a line-level check: see Guard.check_line


def _is_block_device(path: str) -> bool:
    if not path.startswith("/dev/") or path in _SAFE_DEVICES:
        return False
    name = path[5:]
    return name.startswith(_BLOCK_DEVICES)


def _dd_device(command: Command, state: _State) -> bool:
    """dd of= a device, or over a file outside the project (`of=~/.zshrc`)."""
    return any(word.startswith("of=") and (_is_block_device(word[3:]) or (
        not word.startswith("of=/dev/") and state.classify(word[3:]) in (
            "root-or-home", "system", "home"))) for word in command.args)


def _formats_device(command: Command, state: _State) -> bool:
    """mkfs and friends on a device (or a path only known when it runs), not on an image
    file in the project (`mkfs.ext4 -F build/disk.img`)."""
    return any(word.startswith("/dev/") or "$" in word or state.classify(word) in (
        "system", "root-or-home") for word in _operands(command.args, {"-L", "-b", "-t", "-n",
                                                                       "-O", "-E", "-U", "-N"}))


def _wipes(command: Command, state: _State) -> bool:
    """shred/srm/wipe of a device or of files outside the project; wipefs that erases."""
    if command.program == "wipefs":
        return _has_option(command.args, "-a|--all|-o|--offset") and \
            not _has_option(command.args, "-n|--no-act")
    return any(_is_block_device(word) or state.classify(word) in (
        "root-or-home", "system", "home", "outside", "project-root", "all-of-unknown")
        for word in _operands(command.args, {"-n", "--iterations", "-s", "--size",
                                             "--random-source"}))


def _volume_destroy(command: Command, state: _State) -> bool:
    """Deleting volumes, pools or their headers: lvremove, vgremove, zpool destroy, zfs
    destroy, cryptsetup luksFormat/erase, mdadm --zero-superblock, hdparm's security erase."""
    program, args = command.program, command.args
    operands = _operands(args)
    if program in ("lvremove", "vgremove", "pvremove"):
        return True
    if program == "zpool":
        return operands[:1] in (["destroy"], ["labelclear"])
    if program == "zfs":
        return operands[:1] == ["destroy"]
    if program == "cryptsetup":
        return bool(operands) and operands[0] in ("luksFormat", "erase", "luksErase",
                                                  "luksKillSlot", "reencrypt")
    if program == "mdadm":
        return _has_option(args, "--zero-superblock")
    if program == "hdparm":
        return any(word.startswith(("--security-erase", "--trim-sector", "--make-bad-sector"))
                   for word in args)
    if program == "nvme":
        return operands[:1] in (["format"], ["sanitize"])
    return False


def _device_write(command: Command, state: _State) -> bool:
    if not command.redirects and command.program not in ("cp", "tee", "cat", "mv", "install",
                                                         "pv", "ddrescue", "cpio"):
        return False
    return any(change == "write" and _is_block_device(path) for change, path in
               _changes(command)) or (command.program == "ddrescue" and
                                      any(_is_block_device(a) for a in command.args))


def _partition_edit(command: Command, state: _State) -> bool:
    args = command.args
    program = command.program
    if _has_option(args, "-l|--list|-h|--help|-V|--version|-d|--dump|-J|--json|-s|--show-size"):
        return program == "parted" and any(
            word in ("mklabel", "mktable", "mkpart", "rm", "resizepart", "rescue")
            for word in args)
    if program == "parted":
        return any(word in ("mklabel", "mktable", "mkpart", "mkpartfs", "rm", "resizepart",
                            "resize", "move", "rescue") for word in args)
    if program == "sgdisk":
        return not all(_has_option([word], "-p|--print|-i|--info|-v|--verify") or
                       not word.startswith("-") for word in args)
    return bool(_operands(args))


def _diskutil_erase(command: Command, state: _State) -> bool:
    operands = _operands(command.args)
    if operands and operands[0] == "apfs":
        return len(operands) > 1 and operands[1].startswith(("delete", "erase"))
    return True


CHECKS: Dict[str, Any] = {
    "rm_root_or_home": _rm_root_or_home,
    "rm_project_root": _rm_project_root,
    "rm_outside": _rm_outside,
    "rm_dynamic": _rm_dynamic,
    "find_delete": _find_delete,
    "mv_root_or_home": _mv_root_or_home,
    "recursive_root_or_home": _recursive_root_or_home,
    "checkout_discards": _checkout_discards,
    "restore_discards": _restore_discards,
    "branch_force_delete": _branch_force_delete,
    "reflog_expire": _reflog_expire,
    "push_force": _push_force,
    "push_lease": _push_lease,
    "push_deletes": _push_deletes,
    "download_piped": _download_piped,
    "download_substituted": _download_substituted,
    "decoded_piped": _decoded_piped,
    "unreadable": _unreadable,
    "dd_device": _dd_device,
    "device_write": _device_write,
    "partition_edit": _partition_edit,
    "diskutil_erase": _diskutil_erase,
    "rm_git_dir": _rm_git_dir,
    "rm_found_outside": _rm_found_outside,
    "rsync_delete": _rsync_delete,
    "formats_device": _formats_device,
    "wipes": _wipes,
    "volume_destroy": _volume_destroy,
    "git_rm_force": _git_rm_force,
    "update_ref_delete": _update_ref_delete,
    "prints_credentials": _prints_credentials,
}
# The opt-in packs' checks: guard_packs.py, loaded only when a pack is on.
PACK_CHECKS = frozenset(("terraform_destroy", "pulumi_destroy", "container_prune", "cloud_delete", "sql_destroys", "redis_flush", "mongo_drop", "database_reset", "backup_delete", "secret_manager_delete", "terragrunt_destroy", "kubectl_scale_zero", "ansible_shell", "http_delete"))
