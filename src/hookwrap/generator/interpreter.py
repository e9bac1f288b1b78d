"""The interpreter word a Windows-bound registered command names: the manifest's
``python_windows``, else what a probe at ``hookwrap sync`` on Windows finds, else ``py -3``.

Why a word of its own (docs/windows.md): on stock Windows 10/11 ``python3.exe`` and
``python.exe`` on PATH are the Microsoft Store's app execution aliases, zero-length files under
``%LOCALAPPDATA%\\Microsoft\\WindowsApps\\`` that, in a hook's non-interactive child, print
nothing and exit 49: the hook does nothing and a guard fails open. ``python3`` stays the word for
macOS and Linux (stock macOS has no ``python``).

The probe follows the OS's own rules (``Host``: its path module, PATH separator, PATHEXT, case),
so tests run the Windows rules on any machine against a fake PATH. It only ever yields one of
``WINDOWS_CANDIDATES``, never the path it resolved: a machine's own venv or install path must
not reach the files a team shares.
"""

from __future__ import annotations

import ntpath
import os
import posixpath
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType

from .errors import UsageError

# Cline 3.0.65 runs a .py hook file with `py -3`, then `python` on ENOENT; `python3` last, since
# on stock Windows it is the Store alias. Each is a bare word and plain arguments, which every
# Windows shell (PowerShell 5.1/7, cmd.exe, Git Bash) parses the same.
WINDOWS_CANDIDATES = ("py -3", "python", "python3")
# The word written when the manifest names none and sync does not run on Windows: the python.org
# installer puts the `py` launcher on PATH by default and `python.exe` only when asked.
WINDOWS_DEFAULT = WINDOWS_CANDIDATES[0]
# The runtime's floor (DESIGN.md: the vendored runtime runs on Python 3.9 or newer).
FLOOR = (3, 9)
_VERSION_CODE = "import sys;print(sys.version_info[0],sys.version_info[1])"
# A python_windows value: a Python interpreter's bare name and options, nothing a shell reads,
# and nothing that runs a file of the repo (`uv run python` would) when sync or doctor probes it.
_WORDS_RE = re.compile(r"^(py|python(3(\.\d+)?)?)( +-[A-Za-z0-9.]+)*$", re.I)
_STORE_DIR = "\\microsoft\\windowsapps\\"


class WindowsWords(str):
    """The interpreter words of Windows-bound commands; ``named`` when hookwrap.toml's
    ``python_windows`` set them: the team runs hooks on Windows, so a CLI with one command for
    every OS gets the Windows form there too (``winforms.windows_registration``)."""

    named = False


def named_words(value: str) -> WindowsWords:
    """``value`` (a python_windows setting) as WindowsWords that hookwrap.toml named."""
    words = WindowsWords(check_windows_words(value))
    words.named = True
    return words


@dataclass(frozen=True)
class Host:
    """The path rules of one OS, as the probe needs them."""

    path: ModuleType  # ntpath or posixpath
    pathsep: str
    windows: bool


WINDOWS = Host(ntpath, ";", True)
POSIX = Host(posixpath, ":", False)


@dataclass
class Probe:
    """What a probe found: the word to write (None when no candidate passed), and why each
    candidate before it was passed over."""

    word: str | None
    skipped: list[str] = field(default_factory=list)


def check_windows_words(value: str) -> str:
    """``value`` as a python_windows setting (``py -3``, ``python``), or UsageError."""
    if not _WORDS_RE.match(value.strip()):
        raise UsageError(
            f"{value!r} is not a Python interpreter's bare name and options; it goes into "
            "commands that PowerShell and cmd.exe run, and into files every machine shares",
            hint='e.g. python_windows = "py -3", "py -3.12" or "python" (no path, no quotes)')
    return " ".join(value.split())


def is_store_alias(path: str, size: int | None) -> bool:
    """Whether ``path`` (a Windows path) is an app execution alias in the WindowsApps folder:
    zero bytes to stat, and run in a hook it is the Store stub."""
    return size == 0 and _STORE_DIR in ntpath.normcase(path).replace("/", "\\")


def which(program: str, env: Mapping[str, str], host: Host,
          size_of: Callable[[str], int | None]) -> str | None:
    """The first file on ``env``'s PATH that ``program`` names under ``host``'s rules (Windows:
    ``;``-separated, PATHEXT tried when the name has no extension), as the shell finds it;
    ``size_of(path)`` is the file's size, None when there is no such file."""
    path_value = _get(env, "PATH", host) or ""
    names = [program]
    if host.windows and not host.path.splitext(program)[1]:
        exts = (_get(env, "PATHEXT", host) or ".COM;.EXE;.BAT;.CMD").split(";")
        names = [program + ext.lower() for ext in exts if ext]
    for folder in filter(None, path_value.split(host.pathsep)):
        for name in names:
            candidate = host.path.join(folder, name)
            if size_of(candidate) is not None:
                return candidate
    return None


def probe(env: Mapping[str, str], host: Host, size_of: Callable[[str], int | None],
          run: Callable[[Sequence[str]], str | None],
          candidates: Sequence[str] = WINDOWS_CANDIDATES) -> Probe:
    """The first of ``candidates`` that resolves on PATH to a real interpreter (not the Store
    alias) of Python 3.9 or newer. ``run(argv)`` returns the program's stdout, None when it
    could not run or failed."""
    result = Probe(None)
    for words in candidates:
        program, *args = words.split()
        found = which(program, env, host, size_of)
        if found is None:
            result.skipped.append(f"{words}: not on PATH")
        elif host.windows and is_store_alias(found, size_of(found)):
            result.skipped.append(f"{words}: {found} is the Microsoft Store alias (exits 49 "
                                  "with no output in a hook)")
        else:
            # -I: nothing of the cwd (a repo nobody trusted yet) is imported at start-up.
            version = _version(run([found, *args, "-I", "-c", _VERSION_CODE]))
            if version is None:
                result.skipped.append(f"{words}: {found} did not report a version")
            elif version < FLOOR:
                result.skipped.append(f"{words}: {found} is Python {version[0]}.{version[1]}, "
                                      f"older than {FLOOR[0]}.{FLOOR[1]}")
            else:
                result.word = words
                return result
    return result


def windows_python(setting: str | None, *, on_windows: bool | None = None,
                   env: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """The word Windows-bound commands name, and notes for sync to print: the manifest's
    ``python_windows`` when set; on Windows, the probe's choice; elsewhere ``WINDOWS_DEFAULT``."""
    if setting:
        return named_words(setting), []
    if not (os.name == "nt" if on_windows is None else on_windows):
        return WINDOWS_DEFAULT, []
    found = probe(os.environ if env is None else env, WINDOWS, size_of, run)
    if found.word is None:
        return WINDOWS_DEFAULT, [
            "no Python 3.9+ found for Windows hooks (" + "; ".join(found.skipped) + "); wrote "
            f"{WINDOWS_DEFAULT!r}: install Python from python.org, or set python_windows in "
            "hookwrap.toml"]
    if found.word == WINDOWS_DEFAULT:
        return found.word, []
    return found.word, [
        f"Windows hooks run with {found.word!r} ({'; '.join(found.skipped)}); set "
        f'python_windows = "{found.word}" in hookwrap.toml so every machine writes the same']


def _get(env: Mapping[str, str], name: str, host: Host) -> str | None:
    if not host.windows:
        return env.get(name)
    # Windows environment names are case-insensitive (Path, PATH).
    return next((value for key, value in env.items() if key.upper() == name), None)


def _version(output: str | None) -> tuple[int, int] | None:
    parts = (output or "").split()
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        return None
    return int(parts[0]), int(parts[1])


def size_of(path: str) -> int | None:
    """A file's size (an alias's own, where stat cannot follow it); None for no file."""
    import stat

    try:
        info = os.stat(path)
    except OSError:
        try:  # an app execution alias is a reparse point that stat may refuse to follow
            info = os.lstat(path)
        except OSError:
            return None
    return None if stat.S_ISDIR(info.st_mode) else info.st_size


def run(argv: Sequence[str]) -> str | None:
    """What ``argv`` prints, None when it cannot start, fails or takes over 10 s."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None
