"""The guard's engine: reads a tool call, finds the first rule it breaks, and says why.

The rendered `.hookwrap/hooks/<name>.py` holds its user's policy and builds a ``Guard`` from it;
this module (copied with the runtime, refreshed by `hookwrap sync`) does the rest: it reads
shell lines with shell.py, matches the rules of guard_rules.py (and the policy's own), and
answers with a block that names the rule id and the safer way, or with nothing. `explain()`
shows how a line was read and which rule matched, or why none did
(`hookwrap test NAME --explain 'CMD'`). The named checks that a rule's fields cannot say are
in guard_checks.py (and the packs' in guard_packs.py), loaded when a rule gets that far: every
module a hook loads costs each call about 0.24 M instructions, so the guard's path is few.

Policy settings may also live in the hook's ``[hooks.<name>]`` table of hookwrap.toml
(``packs``, ``block_force_with_lease``, ``allow_secret_reads``, ``allowed_commands``,
``allowed_paths``, ``not_secrets``, ``disabled_rules``): lists add to the script's, a true or
false replaces it. Stdlib only, Python 3.9+; nothing here runs a command.
"""

from __future__ import annotations

import os
import posixpath

from .guard_rules import (
    DEFAULT_RULES,
    NOT_CREDENTIAL_FILES,
    NOT_SECRET_FILES,
    NOT_SECRETS,
    PACKS,
    VALUE_OPTIONS,
    Rule,
    all_rules,
    find_own,
    looks_destructive,
    pack_rules,
    rule_ids,
    secret_words,
)
from .guard_rules import (
    git_subcommand as _git_subcommand,
)
from .guard_rules import (
    is_block_device as _is_block_device,
)
from .hookoutput import HookOutput
from .shell import INTERPRETERS, SHELLS, Command
from .shell import cluster_or_long as _cluster_or_long
from .shell import copy_targets as _copy_targets
from .shell import glob_match as _fnmatch
from .shell import has_option as _has_option
from .shell import one_of as _one_of
from .shell import operands as _operands
from .shell import option_values as _values_of
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
        # The folder holding the policy (its hookwrap.toml); the project is that folder, except
        # at user scope (the launcher sets HOOKWRAP_SCOPE), where the policy is the user's.
        self.own = root or os.path.dirname(os.path.dirname(os.path.dirname(script)))
        self.root = _user_project() if os.environ.get("HOOKWRAP_SCOPE") == "user" and not root \
            else self.own
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
        self.allowed_roots = [os.path.normpath(os.path.join(self.root, path)) for path in (
            expand(given, self.root, self.root, self.home) for given in self.allowed_paths) if path]
        if self.disabled_rules:
            known = {*rule_ids(), *(rule.id for rule in self.extra_rules)}
            for unknown in sorted(self.disabled_rules - known):
                self.settings_problems.append(
                    f"DISABLED_RULES: {unknown!r} names no rule of the guard, so it switches "
                    "nothing off (a block names its rule id)")
        # The packs' rules only when a pack is on (they are made then): every pack is off by
        # default, and a rule that is off matches nothing.
        self._index([*DEFAULT_RULES, *(pack_rules() if self.packs else ()), *self.extra_rules])

    def _index(self, rules: List[Rule]) -> None:
        """The rules each kind of command meets; a program's own are picked on first use."""
        self.rules = rules
        self.file_rules = [rule for rule in rules if rule.files or rule.dirs]
        self.any_rules = [rule for rule in rules if not (rule.program or rule.files or rule.dirs)]
        self.program_rules = [rule for rule in rules if rule.program]
        self.glob_rules = [rule for rule in self.program_rules if _is_glob(" ".join(rule.program))]
        self.by_program: Dict[str, List[Rule]] = {}
        self._file_patterns: Dict[str, _FilePatterns] = {}  # rule id: its patterns, lowered

    def _table(self) -> Dict[str, Any]:
        """The guard's settings in its hookwrap.toml table ({} when it has none)."""
        path = os.path.join(self.own, "hookwrap.toml")
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError:
            return {}
        if not any(key.encode() in data for key in SETTINGS):
            return {}  # the usual case: skip parsing TOML on every call
        from .options import manifest_entry

        return manifest_entry(self.own, self.name)

    def _merge(self, table: Dict[str, Any]) -> None:
        for key, kind in SETTINGS.items():
            if key not in table:
                continue
            value = table[key]
            if kind is bool and isinstance(value, bool):
                setattr(self, key, value)
            elif kind is list and isinstance(value, list) and \
                    all(isinstance(item, str) for item in value):
                if key == "allowed_commands":
                    value = [" ".join(p.split()) for p in value]
                known = getattr(self, key)  # packs and disabled_rules are sets
                (known.update if isinstance(known, set) else known.extend)(value)
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
        """The hook: block the call when a rule matches, or a shell call whose command it
        cannot read (a fail-closed hook does not let an unread line through); otherwise no
        opinion (None)."""
        if event.tool_name == "shell" and not event.shell_lines:
            shown = repr(event.tool_input)
            shown = shown if len(shown) <= 200 else shown[:200] + "..."
            return HookOutput.block(
                f"Blocked by the {self.name} hook: it cannot read this shell call's command "
                f"(tool_input {shown}), so it cannot tell whether it is safe. Send the command "
                "as a string.")
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
        """A deny naming the rule; an ask for a rule about what the guard cannot know."""
        rule = finding.rule
        shown = finding.shown if len(finding.shown) <= 200 else finding.shown[:200] + "..."
        answer = HookOutput.ask if rule.asks else HookOutput.block
        return answer(
            f"{'Held' if rule.asks else 'Blocked'} by the {self.name} hook: {rule.what} "
            f"(`{shown}`; rule {rule.id}). "
            f"{rule.instead} {self._policy_note()}"
        )

    def _policy_note(self) -> str:
        """Where the policy is, and the command that explains a block: a user-scope guard's
        (the launcher sets HOOKWRAP_SCOPE) is in the user's folder, not the project's."""
        if os.environ.get("HOOKWRAP_SCOPE") == "user":
            return (f"(The policy is in {self.own}/.hookwrap/hooks/{self.name}.py; `hookwrap "
                    f"--user test {self.name} --explain` shows why.)")
        return (f"(The policy is in .hookwrap/hooks/{self.name}.py; `hookwrap test {self.name} "
                "--explain` shows why.)")

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
        if (("(" in line and "{" in line) or "fork" in line) and \
                _check("fork_bomb_line")(line, None):
            rule = self._rule("code.fork-bomb")
            if rule is not None and not self.active(rule):
                return Finding(rule, line if len(line) < 200 else line[:200])
        state = State(self, cwd)
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

    def _check_command(self, command: Command, state: State,
                       record: Optional[Dict[str, Any]]) -> Finding | None:
        text = " ".join(command.argv)
        if self.allowed_commands and command.argv and _glob_any(text, self.allowed_commands):
            if record is not None:
                record["notes"].append("allowed by ALLOWED_COMMANDS")
            return None
        program = command.program
        candidates = self.by_program.get(program)
        if candidates is None:  # its rules by name, then those whose program is a glob
            candidates = [rule for rule in self.program_rules if program in rule.program]
            if self.glob_rules and program:
                candidates += [rule for rule in self.glob_rules if _glob_any(
                    program, [p for p in rule.program if "*" in p or "?" in p])]
            self.by_program[program] = candidates
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
            targets = command.roots or (["."] if program == "find" else _operands(command.args))
            record["paths"] = {t: state.classify(t) for t in targets[:20]}
        for change, path in file_changes(command):
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
                   state: Optional[State] = None) -> Finding | None:
        """The first file rule a change (edit, write, remove, copy, read) to ``path`` breaks."""
        self._prepare()
        if not path or "\0" in path:
            return None
        rules = [rule for rule in self.file_rules
                 if change in rule.changes and not self.active(rule)]
        if not rules:
            return None
        home = self.home
        expanded = expand(path, cwd, self.root, home)
        if expanded is None:
            return None
        full = os.path.normpath(os.path.join(cwd, expanded))
        if change in ("read", "copy") and self._not_a_secret(full):
            rules = [rule for rule in rules if rule.id != "secrets.read"]
        candidates = [full]
        try:
            real = os.path.realpath(full)
            if real != full:
                candidates.append(real)
        except (OSError, ValueError):
            pass
        if change in ("edit", "write", "remove") and all(
                self._test_data(candidate) for candidate in candidates):
            # a key made for the project's tests is no login (`tests/fixtures/id_rsa`)
            rules = [rule for rule in rules if rule.id != "secrets.credentials-change"]
        bases = {self.root, self.real_root, home}
        # Each candidate as every rule compares it: lowered, its parts and name, and where it
        # is from the project root and from the home directory.
        views = []
        for candidate in candidates:
            parts = [part.lower() for part in candidate.split(os.sep) if part]
            relatives = [r for r in (_relative(candidate, base) for base in bases) if r is not None]
            views.append((candidate.lower(), parts, parts[-1] if parts else "", relatives,
                          _relative(candidate, home)))
        removes = change in ("remove", "copy")  # a folder copied out holds its files
        for rule in rules:
            for view in views:
                if self._path_matches(rule, view, removes):
                    return Finding(rule, shown)
        return None

    def _not_a_secret(self, full: str) -> bool:
        """A path whose name looks like a secret's but whose contents are not one: a template
        (`service-account.example.json`), a .pem or .key that holds certificates or a public
        key only, a source folder named credentials (`internal/credentials`, not
        `~/.aws/credentials`), the project's test data (`testdata/`, `fixtures/`: keys made for
        its tests)."""
        lowered = full.lower()
        name = lowered.rpartition("/")[2]
        if _TEMPLATE_WORDS & set(name.replace("-", ".").replace("_", ".").split(".")):
            return True  # service-account.example.json, credentials-template.json
        if name.endswith((".pem", ".key")) and _check("public_material")(full, None):
            return True
        inside = _relative(full, self.root) or _relative(full, self.real_root)
        if name == "credentials" and not os.path.isfile(full):
            # A file of a tool's settings sits in a hidden folder; a package does not.
            where = inside or _relative(full, self.home) or lowered
            if os.path.isdir(full) or not any(part[:1] == "." for part in where.split("/")[:-1]):
                return True
        return self._test_data(full, inside)

    def _test_data(self, full: str, inside: Optional[str] = None) -> bool:
        """Whether a path is in the project's test data (under `testdata/`, `fixtures/`...)."""
        if inside is None:
            inside = _relative(full, self.root) or _relative(full, self.real_root)
        return inside is not None and any(part in _TEST_DATA for part in inside.split("/")[:-1])

    def _path_matches(self, rule: Rule,
                      view: Tuple[str, List[str], str, List[str], Optional[str]],
                      removes: bool = False) -> bool:
        """Whether the path (``view``: lowered, its parts, its name, and its paths from the
        project root and the home directory) is one of the rule's files; ``removes``: it is
        deleted or moved, so a folder that holds one of the rule's paths counts too (`rm -rf
        .claude`)."""
        patterns = self._file_patterns.get(rule.id)
        if patterns is None or patterns.rule is not rule:
            patterns = self._file_patterns[rule.id] = _FilePatterns(rule, self.not_secrets)
        lowered, parts, name, relatives, from_home = view
        if patterns.exempt and any(_fnmatch(name, pattern) or name.startswith(pattern + ".")
                                   for pattern in patterns.exempt):
            return False
        if patterns.templates and _TEMPLATE_WORDS & set(
                name.replace("-", ".").replace("_", ".").split(".")):
            return False  # .env.local.example, .env.development.sample: a template, no secret
        if rule.dirs and any(_fnmatch(part, pattern) for part in parts for pattern in rule.dirs):
            return True
        if name in patterns.exact or lowered in patterns.exact or \
                any(_fnmatch(name, pattern) for pattern in patterns.name_globs):
            return True
        # `rm .env*`: the glob takes .env. A shell glob takes a name starting with a dot only
        # when it starts with one too.
        # (A bare `*` is the folder's contents, checked as the folder is below: `cp -r
        # upload/* site/` as `cp -r upload/ site/`.)
        if patterns.samples and ("*" in name or "?" in name or "[" in name) and \
                name.strip("*") and \
                any(_fnmatch(sample, name) for sample in patterns.samples
                    if name.startswith(".") or not sample.startswith(".")):
            return True
        if patterns.folders and lowered.startswith(patterns.folders):
            return True
        for relative in relatives if patterns.paths else ():
            if relative in patterns.path_exact or (relative + "/").startswith(
                    patterns.path_folders) or any(_fnmatch(relative, pattern)
                                                  for pattern in patterns.path_globs):
                return True
            if relative != "." and any(
                    (removes and pattern.startswith(relative + "/")) or (
                        _is_glob(relative) and _check("glob_takes")(relative, pattern))
                    for pattern in patterns.paths):
                return True  # `rm -rf .claude`; `rm -rf .c*` takes .claude/settings.json,
                # `cat .aws/*` .aws/credentials
        if from_home is not None and from_home != ".":
            for pattern in patterns.home_paths:  # `~/.claude/.credentials.json`: home only
                if from_home == pattern or (pattern[-1] == "/" and (from_home + "/").startswith(
                        pattern)) or (_is_glob(pattern) and _fnmatch(from_home, pattern)):
                    return True
                if (removes and pattern.startswith(from_home + "/")) or (
                        _is_glob(from_home) and _check("glob_takes")(from_home, pattern)):
                    return True
        return False

    # -- explain ------------------------------------------------------------------------------

    def explain(self, line: str, cwd: str = "") -> Dict[str, Any]:
        """How ``line`` is read and what the guard decides, as data (see hooktest)."""
        self._prepare()
        if len(self.rules) < len(all_rules()) + len(self.extra_rules):
            # The packs' rules too, so that the trace says which of them is off.
            self._index([*all_rules(), *self.extra_rules])
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
            "settings": {**{key: sorted(value) if isinstance(value, set) else value
                            for key in SETTINGS for value in [getattr(self, key)]},
                         "extra_rules": [rule.id for rule in self.extra_rules],
                         "problems": self.settings_problems},
        }


# --- where a path lands ----------------------------------------------------------------------

_TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders",
              "/dev/shm")
_SYSTEM_DIRS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/opt",
                "/var", "/srv", "/root", "/home", "/Users", "/System", "/Library", "/Applications",
                "/private/etc", "/private/var", "/snap", "/nix", "/dev", "/proc", "/sys")
# The variables a CLI, or hookwrap itself, sets to the project's folder: every record's
# project_dir_vars (tests/safety/test_guard_project_vars.py derives them; written out here so a
# hook process imports no other CLI's record). CODEX_PROJECT_DIR is set by no CLI (Codex CLI
# 0.171.0 sets none) but stays: dropping it would let `rm -rf "$CODEX_PROJECT_DIR"` through.
PROJECT_VARS = ("CLAUDE_PROJECT_DIR", "COPILOT_PROJECT_DIR", "FACTORY_PROJECT_DIR",
                "GEMINI_PROJECT_DIR", "HOOKWRAP_PROJECT_DIR", "QWEN_PROJECT_DIR",
                "CODEX_PROJECT_DIR")


def _user_project() -> str:
    """A user-scope guard's project: the running CLI's project folder, else the git root at or
    above the working folder (a ``.git`` folder or file), else the working folder."""
    for var in PROJECT_VARS:
        if os.environ.get(var):
            return os.environ[var]
    start = folder = os.getcwd()
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent


class State:
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
            expanded = expand(target, self.cwd or "", self.guard.root, self.guard.home)
            if expanded is None and _fresh_temp_dir(target):
                expanded = "/tmp/mktemp.XXXXXX"  # `cd "$(mktemp -d)"`: a new folder in temp
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
        expanded = expand(path, self.cwd or "", guard.root, guard.home)
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
        if full in ("/", home) or under(home, full):
            return "root-or-home"
        if target.startswith("~") and not target.startswith(("~/", "~\\")) and target != "~":
            user = target[1:].split("/", 1)
            return "root-or-home" if len(user) == 1 or not user[1].strip("/.") else "outside"
        root = guard.root
        if full == root or under(root, full) or full == guard.real_root or \
                under(guard.real_root, full):
            return "project-root"
        if under(full, root) or under(full, guard.real_root):
            return "inside"
        if any(full == allowed or under(full, allowed) for allowed in guard.allowed_roots):
            return "allowed"
        climbs = ".." in target.replace("\\", "/").split("/")
        if not under(full, home) and not climbs and \
                any(full == t or under(full, t) for t in temp_dirs()):
            return "temp"
        if under(full, home):
            return "home"
        if under(full, "/usr/local") and not climbs and _installed_below_usr_local(full):
            return "allowed"
        if any(full == d or under(full, d) for d in _SYSTEM_DIRS):
            return "system"
        return "outside"


# /usr/local's own hierarchy: each of these folders holds what many programs installed.
_USR_LOCAL_TREE = frozenset(("bin", "sbin", "lib", "lib32", "lib64", "libexec", "include",
                             "share", "etc", "var", "man", "src", "opt", "cellar", "homebrew",
                             "caskroom", "frameworks"))


def _installed_below_usr_local(full: str) -> bool:
    """Whether a path below /usr/local is one program's (`/usr/local/go`,
    `/usr/local/lib/node_modules/npm`), not /usr/local's own hierarchy (`/usr/local/bin`):
    what you installed there you may remove, as Go's install steps do."""
    parts = full[len("/usr/local/"):].split("/")
    return len(parts) > 1 or parts[0].lower() not in _USR_LOCAL_TREE


def _fresh_temp_dir(word: str) -> bool:
    """Whether a word is the folder `mktemp -d` makes in the temp folder (`$(mktemp -d)`,
    `$(mktemp -d -t build.XXXXXX)`), not one it makes elsewhere (`mktemp -d ~/x.XXXX`)."""
    if not word.startswith(("$(mktemp ", "`mktemp ")) or not word.endswith((")", "`")):
        return False
    words = word[2 if word[0] == "$" else 1:-1].split()[1:]
    return any(w in ("-d", "--directory") or (w[:1] == "-" and "d" in w and w[1:2] != "-")
               for w in words) and not any("/" in w or w[:1] == "~" or w.startswith(
                   ("-p", "--tmpdir=")) for w in words)


def under(path: str, folder: str) -> bool:
    """Whether ``path`` is strictly inside ``folder`` (both normalized and absolute)."""
    return path.startswith(folder.rstrip("/") + "/") and path != folder


def temp_dirs() -> Tuple[str, ...]:
    tmpdir = os.environ.get("TMPDIR", "").rstrip("/")
    return _TEMP_DIRS + ((tmpdir,) if tmpdir.startswith("/") and len(tmpdir) > 1 else ())


def expand(path: str, cwd: str, root: str, home: str) -> Optional[str]:
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
                             (PROJECT_VARS, root), (("USER", "LOGNAME"),
                                                     os.environ.get("USER", ""))):
            for name in names:
                path = replace_var(path, name, value)
        for spelling in ("$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)"):
            if spelling in path:
                path = path.replace(spelling, cwd or "$?")
        if "$" in path or "`" in path:
            return None
    return path


def replace_var(path: str, name: str, value: str) -> str:
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


# --- what files a command changes ------------------------------------------------------------


# Programs whose file operands are read (and may be shown to the model). For those marked
# with a pattern first, the first operand is the pattern or script, not a file.
_READERS = frozenset((
    "cat", "tac", "less", "more", "most", "head", "tail", "bat", "batcat", "nl", "cut", "sort",
    "uniq", "strings", "xxd", "hexdump", "od", "base64", "base32", "diff", "cmp",
    "view", "fold", "fmt", "column", "paste", "pr", "expand", "comm", "join", "look", "iconv",
    "dos2unix", "unix2dos", "tr", "gpg", "source", ".", "envsubst", "split",
    "csplit", "ar", "cpio", "pax", "xclip", "xsel", "pbcopy", "wl-copy", "clip", "nc", "ncat",
    "socat", "telnet", "uuencode", "basenc", "zcat", "gzip", "bzip2", "xz", "zstd", "lz4",
    "vim", "vi", "nvim", "nano", "emacs", "code", "subl", "ed", "ex", "mcedit", "micro",
    "xargs", "md5sum", "sha1sum", "sha256sum", "wc", "file",
))
_PATTERN_FIRST = frozenset(("grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk",
                            "mawk", "nawk", "zgrep", "perl", "jq", "yq", "gojq", "jaq"))
_NOT_READS = frozenset(("md5sum", "sha1sum", "sha256sum", "wc", "file"))


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
    for word in args:  # curl file:///home/me/.ssh/id_rsa, --config=file://...
        if "file://" in word:
            changes.append(("read", word[word.index("file://") + 7:]))
    return changes + _tool_changes(command, program, args)


def _edits(program: str, args: List[str], operands: List[str]) -> List[Tuple[str, str]]:
    """What tee, truncate, sed and perl write (sed -i, perl -i) or read."""
    # sed -i, -i.bak, -Ei, --in-place; perl -i, -pi (an `e` first means `-e SCRIPT`)
    if program in ("sed", "perl") and not _cluster_or_long(
            args, "i", "efl", lambda name: _has_option([name], "--in-place"), False):
        if program == "perl":
            return _searched(args, operands)
        return [("read", word) for word in operands[1:]] + (
            _check("sed_writes")(args, None) if any(" " in word for word in args) else [])
    if program == "truncate":
        operands = _operands(args, {"-s", "-r", "--size", "--reference"})
    if program in ("sed", "perl"):
        operands = operands[1:] if not any(a.startswith(("-e", "-f")) or a in (
            "--expression", "--file") for a in args) else operands
    return [("write", word) for word in operands]


def _tool_changes(command: Command, program: str, args: List[str]) -> List[Tuple[str, str]]:
    """file_changes() of the program itself, by what it is known to do."""
    changes: List[Tuple[str, str]] = []
    operands = _operands(args)
    if program in ("tee", "truncate", "sed", "perl"):
        changes += _edits(program, args, operands)
    elif program in ("cp", "mv", "install", "ln", "scp", "rsync", "ditto"):
        targets, sources = _copy_targets(args, program)
        if program == "mv":
            changes += [("remove", word) for word in sources]
        elif program != "ln":
            changes += [("copy", word) for word in sources]
        changes += [("write", target) for target in targets]
        if program in ("mv", "ditto") or _has_option(args, "-r|-R|-a|--recursive|--archive"):
            # a folder copied or moved over another replaces what it held (`cp -r x/.claude .`)
            changes += [("remove", target) for target in targets]
    elif program == "find":
        own = find_own(args)
        if "-delete" in own:  # find . -name .env -delete, find .hookwrap -delete
            changes += [("remove", own[i + 1]) for i in range(len(own) - 1)
                        if own[i] in ("-name", "-iname", "-path", "-wholename")]
            changes += [("remove", root) for root in command.roots if root not in (".", "./")]
    elif program == "dd":
        changes += [("write", word[3:]) for word in args if word.startswith("of=")]
        changes += [("read", word[3:]) for word in args if word.startswith("if=")]
    elif program in ("rm", "unlink", "shred", "rmdir", "srm", "trash", "trash-put", "rmtrash"):
        changes += [("remove", word) for word in operands]
        # run by find -exec: what it removes is under find's start paths
        changes += [("remove", root) for root in command.roots if root not in (".", "./")]
    elif program in ("chmod", "chown", "chgrp", "chattr", "setfacl"):
        # the mode or owner of a system file (`chmod u+s /bin/bash`); the first operand is it
        changes += [("mode", word) for word in operands[1:]]
    elif program in ("tar", "zip", "7z"):
        changes += [("copy", word) for word in operands]
    elif program == "git":
        changes += _git_changes(command)
    elif program in ("curl", "http", "https", "xh", "wget", "aria2c"):
        changes += _uploads(args) + _downloads(program, args)
    elif program == "openssl":
        changes += _openssl_changes(args, operands)
    elif program == "ssh-keygen":
        changes += _ssh_keygen_changes(args)
    elif program == "keytool":
        changes += _keytool_changes(args)
    elif program in _READERS and program not in _NOT_READS:
        changes += [("read", word) for word in operands]
    elif program in _PATTERN_FIRST:
        if program not in _SEARCHERS or not _cluster_or_long(args, *_SEARCHERS[program],
                                                              _NO_LINE_LONGS.__contains__):
            changes += _searched(args, operands)
        if program in INTERPRETERS:  # awk's getline < "~/.ssh/id_rsa", perl's open
            changes += [("read", word) for word in _check("code_paths")(args, None)]
    elif program not in _USES_PATHS:
        # Any other program given a protected path may show it or send it on (`ar`, `gcp`,
        # `xclip`, an editor, a script): the path counts as read.
        changes += [("read", word) for word in secret_words(args)]
    return changes + [("write", word) for word in _output_files(program, args)]


# Programs whose -o names the file they write (`gpg --dearmor -o KEYRING`, `sort -o`, a
# compiler's output); any program's --output, --output-file or --outfile does too.
_DASH_O_WRITES = frozenset(("gpg", "gpg2", "sort", "gcc", "g++", "cc", "c++", "clang",
                            "clang++", "go", "rustc", "pandoc", "zstd", "xz", "age"))
_OUTPUT_OPTIONS = ("--output", "--output-file", "--outfile")


def _output_files(program: str, args: List[str]) -> List[str]:
    """The files an -o/--output option makes the program write."""
    files = []
    dash_o = program in _DASH_O_WRITES
    for index, word in enumerate(args):
        if word == "--":
            break
        name, glued, value = word.partition("=")
        if name in _OUTPUT_OPTIONS:
            if glued:
                files.append(value)
            elif index + 1 < len(args):
                files.append(args[index + 1])
        elif dash_o and word == "-o" and index + 1 < len(args):
            files.append(args[index + 1])
    return files


# Programs whose path operands are used, not shown: listing, permissions, ssh's own use of a
# key, container and cluster tools given a config path, shell builtins.
_USES_PATHS = frozenset((
    "ls", "ll", "stat", "test", "[", "[[", "file", "wc", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "b2sum", "cksum", "du", "realpath", "readlink", "dirname", "basename", "touch",
    "mkdir", "chmod", "chown", "chgrp", "chattr", "lsattr", "getfacl", "setfacl", "ssh",
    "ssh-add", "ssh-copy-id", "mosh", "autossh", "sshfs", "echo", "printf", "export", "cd",
    "pushd", "popd", "find", "fd", "fdfind", "tree", "eza", "exa", "lsd", "namei", "docker",
    "podman", "kubectl", "helm", "terraform", "tofu", "gcloud", "aws", "az", "age",
    "ansible", "ansible-playbook", "vagrant", "packer", "direnv", "dotenv", "alias", "unset",
    "set", "declare", "local", "which", "type", "command", "git", "watch", "inotifywait",
    "fswatch", "entr", "open", "xdg-open", "sops", "chezmoi", "stow", "dotenv-cli", "dotenvx",
    "env-cmd", "op", "doppler", "infisical", "chamber", "aws-vault", "teller",
    # PowerShell's cmdlets that test, list or name a path (Claude Code's PowerShell tool)
    "test-path", "resolve-path", "convert-path", "split-path", "join-path", "get-childitem",
    "gci", "get-item", "gi",
))
def _option_values(args: List[str]) -> List[str]:
    """The values of -in/-out style options glued with `=` (`-in=key.pem`)."""
    return [word.split("=", 1)[1] for word in args if word.startswith("-") and "=" in word]


def _openssl_changes(args: List[str], operands: List[str]) -> List[Tuple[str, str]]:
    """What openssl writes (-out, -keyout) and reads: its inputs, unless the subcommand shows
    a certificate's details (x509, req...) or what it prints is public only (`-pubout`, or
    `-noout` without `-text`: `openssl rsa -in key.pem -pubout`, `-check -noout`)."""
    written = _values_of(args, ("-out", "-keyout"))
    changes = [("write", word) for word in written]
    if operands and operands[0] in _OPENSSL_SHOWS_NO_KEY:
        return changes
    if ("-pubout" in args or "-noout" in args) and "-text" not in args:
        return changes
    if operands and operands[0] == "pkcs12" and "-nokeys" in args:
        return changes  # certificates in, certificates out: no private key
    inputs = [word for word in operands[1:] + _option_values(args) if word not in written]
    return changes + [("read", word) for word in inputs]


def _ssh_keygen_changes(args: List[str]) -> List[Tuple[str, str]]:
    """ssh-keygen shows a key file's text only when it converts one (-i); it writes the -f
    file when it makes a key or changes one (-t, -p, -c). Fingerprints (-l), public keys (-y,
    -e) and known_hosts work (-F, -R) show nothing secret."""
    files = [args[i + 1] for i in range(len(args) - 1)
             if args[i].startswith("-") and not args[i].startswith("--") and
             args[i].endswith("f")]
    files += [word[2:] for word in args if word.startswith("-f") and len(word) > 2]
    if _has_option(args, "-i"):
        return [("read", word) for word in files]
    if _has_option(args, "-t|-p|-c"):
        return [("write", word) for word in files]
    return []


def _keytool_changes(args: List[str]) -> List[Tuple[str, str]]:
    """keytool never prints a private key (-list and -exportcert show certificates); it
    copies keys out of a keystore only with -importkeystore, from -srckeystore."""
    if "-importkeystore" not in args:
        return []
    return [("copy", value) for value in _values_of(args, ("-srckeystore",))]


_OPENSSL_SHOWS_NO_KEY = frozenset(("x509", "req", "crl", "verify", "s_client", "s_server",
                                   "ocsp", "ciphers", "version", "crl2pkcs7", "dgst",
                                   "rand", "speed", "list", "help"))


def _git_changes(command: Command) -> List[Tuple[str, str]]:
    """git add commits its paths; git rm removes them (not --cached); git mv moves them."""
    sub, rest = _git_subcommand(command)
    operands = _operands(rest)
    if sub == "add":
        return [("commit", word) for word in operands]
    if sub == "rm" and not _has_option(rest, "--cached"):
        return [("remove", word) for word in operands]
    if sub == "mv" and len(operands) >= 2:
        return [*(("remove", word) for word in operands[:-1]), ("write", operands[-1])]
    return []


def _downloads(program: str, args: List[str]) -> List[Tuple[str, str]]:
    """Where a downloader writes: curl -o/--output, wget -O/--output-document and -P, httpie
    and xh --output, aria2c -o/-d."""
    names = {"curl": ("-o", "--output", "--output-dir"), "wget": ("-O", "--output-document",
                                                                  "-P", "--directory-prefix"),
             "aria2c": ("-o", "--out", "-d", "--dir")}.get(program, ("-o", "--output"))
    changes: List[Tuple[str, str]] = []
    for index, word in enumerate(args):
        if word in names and index + 1 < len(args):
            changes.append(("write", args[index + 1]))
        elif word.startswith("--") and "=" in word and word.split("=", 1)[0] in names:
            changes.append(("write", word.split("=", 1)[1]))
        elif len(word) > 2 and word[:2] in names and not word.startswith("--"):
            changes.append(("write", word[2:]))  # -o~/.bashrc
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


# grep's and rg's modes that print no line of what they search: names (-l; grep's -L), counts
# (-c), an exit status (-q); and each one's short options that take a value, whose letter ends
# a cluster (`-el` searches for "l"). rg's -L follows links: it prints lines.
_SEARCHERS = {
    **dict.fromkeys(("grep", "egrep", "fgrep", "zgrep"), ("lLcq", "efmABCdD")),
    "rg": ("lcq", "efmABCdgtTjMEr"),
}
_NO_LINE_LONGS = ("--files-with-matches", "--files-without-match", "--count", "--count-matches",
                  "--quiet", "--silent")


def writes_device(command: Command, state: Optional[State] = None) -> bool:
    """Whether the command writes onto a block device (`> /dev/sda`, `cp img /dev/sdb`)."""
    if not command.redirects and command.program not in ("cp", "tee", "cat", "mv", "install",
                                                         "pv", "ddrescue", "cpio"):
        return False
    return any(change == "write" and _is_block_device(path) for change, path in
               file_changes(command)) or (command.program == "ddrescue" and
                                      any(_is_block_device(a) for a in command.args))


# --- matching ----------------------------------------------------------------------------------


def _matches(rule: Rule, command: Command, text: str, state: State) -> bool:
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
    if rule.check and not _check(rule.check, rule.pack)(command, state):
        return False
    if rule.category in ("git", "remote") and command.program == "git" and (
            _git_help(args) or (rule.category == "git" and _git_in_temp(command, state))):
        return False
    return bool(rule.program or rule.pattern or rule.check)


def _git_help(args: List[str]) -> bool:
    """-h or --help before `--`: git prints the usage and does nothing else."""
    for word in args:
        if word == "--":
            return False
        if word in ("-h", "--help"):
            return True
    return False


def _git_in_temp(command: Command, state: State) -> bool:
    """Whether git works on a repository in a temporary folder (`git -C /tmp/clone ...`,
    `cd "$(mktemp -d)" && git ...`): what its local rules protect is not there, as rm may
    delete there too."""
    folders: List[str] = []
    args = command.args
    index = 0
    while index < len(args) and args[index].startswith("-"):
        if args[index] == "-C" and index + 1 < len(args):
            folders.append(args[index + 1])
        elif args[index].startswith(("--git-dir", "--work-tree")):
            return False  # (where the work tree is, is then a question of two paths)
        index += 2 if args[index] in VALUE_OPTIONS["git"] else 1
    folder = "."
    for given in folders:
        folder = given if given.startswith(("/", "~", "$")) else posixpath.join(folder, given)
    return state.classify(folder) == "temp"


# A name with one of these words is a template of a secret file, without the secret (as
# NOT_SECRETS says of .env.example): read only.
_TEMPLATE_WORDS = frozenset(("example", "sample", "template"))
# Folders of a project's test data: what they hold was made for its tests (a key, a .env).
_TEST_DATA = frozenset(("testdata", "test-data", "test_data", "fixtures", "__fixtures__",
                        "test-fixtures", "test_fixtures"))


def _glob_any(text: str, patterns: Iterable[str]) -> bool:
    for pattern in patterns:
        bare = pattern[:-2] if pattern.endswith(" *") else None
        if text == bare or _fnmatch(text, pattern):
            return True
    return False


class _FilePatterns:
    """A file rule's patterns as _path_matches compares them (lowered), made once per rule."""

    __slots__ = (
        "exact",
        "exempt",
        "folders",
        "home_paths",
        "name_globs",
        "path_exact",
        "path_folders",
        "path_globs",
        "paths",
        "rule",
        "samples",
        "templates",
    )

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
        self.templates = rule.id.startswith("secrets.env-")
        # One pass, split so that most compare at C speed: exact names and paths in sets,
        # folders as startswith tuples, and only true globs through glob_match.
        names: List[str] = []
        paths: List[str] = []
        name_globs: List[str] = []
        exact: List[str] = []
        folders: List[str] = []
        path_exact: List[str] = []
        path_folders: List[str] = []
        path_globs: List[str] = []
        home_paths: List[str] = []
        for given in rule.files:
            pattern = given.lower()
            glob = _is_glob(pattern)
            if pattern[:2] == "~/":
                home_paths.append(pattern[2:])
            elif "/" not in pattern:
                names.append(pattern)
                (name_globs if glob else exact).append(pattern)
            elif pattern[0] == "/":
                (folders if pattern[-1] == "/" else exact).append(pattern)
            else:
                path = pattern[2:] if pattern[:2] == "./" else pattern
                paths.append(path)
                if glob:
                    path_globs.append(path)
                elif path[-1] == "/":
                    path_folders.append(path)
                else:
                    path_exact.append(path)
        self.paths = paths
        self.name_globs, self.exact, self.folders = name_globs, frozenset(exact), tuple(folders)
        self.path_exact, self.path_folders = frozenset(path_exact), tuple(path_folders)
        self.path_globs = path_globs
        self.home_paths = home_paths
        self.samples = [] if rule.id == "secrets.credentials-change" else \
            [p.replace("*", "local") for p in names if "[" not in p and "?" not in p]


def _is_glob(pattern: str) -> bool:
    return "*" in pattern or "?" in pattern or "[" in pattern


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


# --- the checks of rules with no program: every command meets them --------------------------

_DOWNLOADERS = frozenset(("curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lynx",
                          "lwp-request", "httpie", "nc", "ncat", "netcat", "socat", "telnet"))
_DECODERS = frozenset(("base64", "base32", "xxd", "openssl", "gunzip", "zcat", "gzip", "bzcat",
                       "bunzip2", "xzcat", "unxz", "uudecode", "rev", "zstdcat", "gpg"))
_CODE_RUNNERS = SHELLS | frozenset(INTERPRETERS)


def _download_piped(command: Command, state: State) -> bool:
    return command.stdin == "pipe" and command.program in _CODE_RUNNERS and \
        any(program in _DOWNLOADERS for program in command.upstream)


def _download_substituted(command: Command, state: State) -> bool:
    return command.program in _DOWNLOADERS and bool(command.inside) and \
        (command.host in _CODE_RUNNERS or command.host in ("", "eval", "source", "."))


def _decoded_piped(command: Command, state: State) -> bool:
    return command.stdin == "pipe" and command.program in _CODE_RUNNERS and \
        any(program in _DECODERS for program in command.upstream) and \
        not any(program in _DOWNLOADERS for program in command.upstream)


def _unknown_program(command: Command, state: State) -> bool:
    """A program word made when the line runs (`$X -rf ~`): guard_checks.py tries it as the
    programs rules are about."""
    if not command.words or not command.words[0].expands or command.program in SHELLS or \
            not command.args:
        return False
    return bool(_check("unknown_program_as")(command, state))


_NETCATS = frozenset(("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat"))


def _reverse_shell(command: Command, state: State) -> bool:
    """A shell (or a bare exec) with a /dev/tcp or /dev/udp redirection; netcat and socat
    are looked at by guard_checks.py."""
    if command.program in _NETCATS:
        return bool(_check("netcat_shell")(command, state))
    if command.program in INTERPRETERS and any(
            "socket" in word and ("dup2" in word or "pty.spawn" in word or "/bin/" in word)
            for word in command.args):  # python -c 'import socket...; os.dup2(...)'
        return True
    return (command.program in SHELLS or not command.program) and any(
        r.target is not None and r.target.text.startswith(("/dev/tcp/", "/dev/udp/"))
        for r in command.redirects)


def _check(name: str, pack: str = "") -> Any:
    """The named check: guard_checks.py's, or guard_packs.py's (a pack's rule, ``pack``, looks
    there first); each module is loaded the first time one of its rules gets this far. An
    unknown name matches nothing (a test keeps every rule's check known)."""
    check = _CHECKS.get(name)
    if check is None:
        if not pack:
            from .guard_checks import CHECKS

            check = CHECKS.get(name)
        if check is None:
            from .guard_packs import PACK_CHECKS

            check = PACK_CHECKS.get(name, _no_match)
        _CHECKS[name] = check
    return check


def _no_match(command: Command, state: State) -> bool:
    return False


# The named checks loaded so far: those here (code.unreadable's and code.fork-bomb's are
# line-level checks: see Guard.check_line); the others are loaded on first use (see _check).
_CHECKS: Dict[str, Any] = {
    "download_piped": _download_piped, "download_substituted": _download_substituted,
    "decoded_piped": _decoded_piped, "unreadable": _no_match, "device_write": writes_device,
    "unknown_program": _unknown_program, "reverse_shell": _reverse_shell, "fork_bomb": _no_match}
