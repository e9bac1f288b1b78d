"""Will the hooks start at all? The faults that make every call of a hook fail before it runs.

The syntax check is best effort: each script is parsed with Python 3.9's grammar (``ast``'s
``feature_version``, which misses a few 3.10+ forms) and compiled, in hookwrap's own process:
sync never runs the interpreter the manifest names (the repo chooses it: a path into the repo,
`uv run python`). Only doctor's `python` check runs it, for its version.

A hook script with a syntax error (or syntax newer than Python 3.9), a missing runtime under
.hookwrap/lib, or an interpreter older than the runtime's floor: Claude Code then blocks every
call the hook matches (the guard's onFailure) or shows an error each time, and other CLIs skip
the hook. `sync --check` (so CI and pre-commit) and `doctor` both report them, from here.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from .fsutil import NotARegularFile, read_capped
from .registrations import script_path

FLOOR = (3, 9)  # the oldest Python the vendored runtime and rendered scripts run on
_VERSION = "import sys; print('%d.%d' % sys.version_info[:2])"


def script_errors(root: Path, names: Sequence[str], closed: Collection[str] = ()) -> list[str]:
    """One line per hook script that Python 3.9 cannot compile (syntax errors included);
    ``closed``: the hooks that then block every call they match (fail-closed ones)."""
    found = []
    for name in names:
        rel = script_path(name)
        try:
            source = read_capped(root / rel)
        except NotARegularFile as error:  # a link to /dev/zero would be read without end
            found.append(f"{rel}: {error}: the hook cannot start, so every call it matches fails")
            continue
        except OSError:
            continue  # a missing script is planned for re-rendering; unreadable ones surface there
        try:
            # The compiler refuses what the parser takes (`return` outside a function);
            # dont_inherit: none of this module's __future__ flags.
            compile(ast.parse(source, filename=rel, feature_version=FLOOR), rel, "exec",
                    dont_inherit=True)
        except SyntaxError as error:
            where = f"line {error.lineno}" if error.lineno else "?"
            effect = "it fails closed, so every call it matches is blocked on each of its CLIs" \
                if name in closed else "most CLIs go on without it (`hookwrap test " \
                f"{name}` shows what each does)"
            found.append(f"{rel}: {where}: {error.msg}: the hook cannot start; {effect}")
        except ValueError as error:  # null bytes
            found.append(f"{rel}: {error}: the hook cannot start")
    return found


def missing_runtime(root: Path, runtime_dir: str, modules: Sequence[str]) -> list[str]:
    """The runtime files a hook imports that are not in the repo."""
    return [f"{runtime_dir}/{m}" for m in modules if not (root / runtime_dir / m).is_file()]


def runtime_gaps(root: Path) -> list[str]:
    """Every file of the runtime a registered command starts (the launcher first) that is not
    in the repo: with any missing, no hook can start."""
    from .vendor import LAUNCHER, LAUNCHER_MODULE, RUNTIME_DIR, RUNTIME_MODULES

    missing = [path for path in (LAUNCHER, LAUNCHER_MODULE) if not (root / path).is_file()]
    return missing + missing_runtime(root, RUNTIME_DIR, RUNTIME_MODULES)


def _argv(python: str, env: Mapping[str, str] | None) -> list[str] | None:
    """The interpreter's words with the first resolved on PATH, or None when it is not found."""
    from .registrations import python_words

    words = python_words(python)
    path = shutil.which(words[0], path=env.get("PATH") if env is not None else None)
    return None if path is None else [path, *words[1:]]


def interpreter_missing(python: str, env: Mapping[str, str] | None = None) -> str:
    """Why ``python`` cannot run the hooks, as far as a look at PATH tells ("" when it is
    found): nothing is run."""
    return f"{python} is not on PATH: no hook can start" if _argv(python, env) is None else ""


def check_interpreter(python: str, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(why ``python`` cannot run the hooks or "", its version such as "3.11"), from one run
    of it (doctor's `python` check)."""
    argv = _argv(python, env)
    if argv is None:
        return f"{python} is not on PATH: no hook can start", ""
    try:
        done = subprocess.run([*argv, "-c", _VERSION], capture_output=True, text=True,
                              timeout=60, env=dict(env) if env is not None else None, check=False)
        major, minor = (int(x) for x in done.stdout.strip().split("."))
    except (OSError, ValueError, subprocess.SubprocessError):
        return f"{argv[0]} does not run: no hook can start", ""
    if (major, minor) < FLOOR:
        return (f"{python} is Python {major}.{minor}; the hooks need {FLOOR[0]}.{FLOOR[1]} or "
                "newer, so none can start", f"{major}.{minor}")
    return "", f"{major}.{minor}"
