"""Where a path in a shell line lands, for the guard: the project, its root, your home
directory, a temporary folder, the system, outside; and the working directory a line's `cd`s
move. Part of the guard's engine (guard_engine.py), copied with the runtime.

Stdlib only, Python 3.9+; nothing here touches the file system.
"""

from __future__ import annotations

import os
import posixpath

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, Iterable, List, Optional, Protocol, Tuple

    from .shell import Command

    class Places(Protocol):
        """What the guard knows of the places a line's paths may land in."""

        root: str
        real_root: str
        allowed_roots: List[str]

        @property
        def home(self) -> str: ...


_TEMP_DIRS = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders",
              "/dev/shm")
_SYSTEM_DIRS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/opt",
                "/var", "/srv", "/root", "/home", "/Users", "/System", "/Library", "/Applications",
                "/private/etc", "/private/var", "/snap", "/nix", "/dev", "/proc", "/sys")
_PROJECT_VARS = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "QWEN_PROJECT_DIR",
                 "FACTORY_PROJECT_DIR", "CODEX_PROJECT_DIR", "COPILOT_PROJECT_DIR")


class State:
    """What one line's commands share as they run: the working directory (`cd` moves it)."""

    def __init__(self, guard: Places, cwd: str) -> None:
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
        if any(full == d or under(full, d) for d in _SYSTEM_DIRS):
            return "system"
        return "outside"


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
                             (_PROJECT_VARS, root), (("USER", "LOGNAME"),
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
