"""Safe file writes and the project lock: every file hookwrap changes goes through here."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from hookwrap.generator.errors import ConflictError, LockError, SettingsError
from hookwrap.generator.jsonc import PARSE_HINT

NEW_FILE_MODE = 0o644
OWN_DIR = ".hookwrap"
LOCK_RELPATH = Path(OWN_DIR) / ".lock"
_LOCK_POLL_SECONDS = 0.05
# `.<name>.hookwrap-<pid>-<random>.tmp`: a temp file a killed process left behind is known as
# hookwrap's by its name, and as abandoned by its dead pid or its age.
_TEMP_RE = re.compile(r"\..+\.hookwrap-(?P<pid>[0-9]+)-[A-Za-z0-9_]+\.tmp")
STALE_TEMP_SECONDS = 300.0


def _link_refused(shown: str, link: str, last: bool) -> ConflictError:
    kind = "file" if last else "folder"
    return ConflictError(
        f"{shown}: is a symlink (to {os.readlink(link)}); hookwrap never writes or deletes "
        f"through a link under {OWN_DIR}/, whose files it owns",
        hint=f"replace the link with a real {kind}: copy what it points to in its place, or "
             f"delete it and run hookwrap sync to recreate it",
    )


def _dangling_refused(shown: str, link: str) -> ConflictError:
    return ConflictError(
        f"{shown}: is a symlink to {os.readlink(link)}, which does not exist; hookwrap will not "
        "create files outside the project through it",
        hint=f"create the file it points to, or replace {shown} with a real file, then run the "
             "command again",
    )


def check_path(root: Path | str, rel: str | Path, *, writing: bool = True) -> None:
    """Refuse to write or delete `root/rel` when a part of the path is not what it looks like.

    Each component is looked at from the root down with `os.lstat`: under `.hookwrap/` none may
    be a symlink (a committed link there would make hookwrap overwrite or delete files outside
    the project), and every component but the last must be a folder. Elsewhere a link is
    followed (a symlinked settings file is written through), unless it is dangling and
    `writing`: writing through it would create folders and files outside the project. A file in
    the way elsewhere is left to the write itself, which fails with "nothing was changed".

    Raises:
        ConflictError: naming the link or the file in the way, with a hint.
    """
    parts = Path(rel).parts
    owned = bool(parts) and parts[0] == OWN_DIR
    current = os.fspath(root)  # strings, not Paths: a sync checks ~70 paths (~0.15 ms each)
    for index, part in enumerate(parts):
        current = os.path.join(current, part)
        shown, last = "/".join(parts[: index + 1]), index == len(parts) - 1
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return
        if stat.S_ISLNK(mode):
            if owned:
                raise _link_refused(shown, current, last)
            try:
                mode = os.stat(current).st_mode
            except (FileNotFoundError, NotADirectoryError):
                if writing:
                    raise _dangling_refused(shown, current) from None
                return
        if owned and not last and not stat.S_ISDIR(mode):
            raise ConflictError(
                f"{shown}: is a file, not a folder; hookwrap keeps its files in {shown}/",
                hint=f"move {shown} out of the way, then run the command again",
            )


def is_safe_path(root: Path | str, rel: str | Path) -> bool:
    """Whether `check_path` lets `root/rel` be written (for caches that are skipped instead)."""
    try:
        check_path(root, rel)
    except ConflictError:
        return False
    return True


def _write_target(path: Path) -> Path:
    """Where the bytes for `path` really go: a symlink is followed so the link itself survives."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _existing_mode(path: Path, new_mode: int = NEW_FILE_MODE) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return new_mode


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; some filesystems refuse to open a directory, which is fine.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temp_prefix(target: Path) -> str:
    return f".{target.name}.hookwrap-{os.getpid()}-"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if pid <= 0:  # kill(0) or kill(-1) would signal whole process groups
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, someone else's
        return True
    except (OverflowError, OSError):
        return False
    return True


def _stale(entry: os.DirEntry, now: float) -> bool:
    match = _TEMP_RE.fullmatch(entry.name)
    if match is None or not entry.is_file(follow_symlinks=False):
        return False
    try:
        age = now - entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return False
    return age > STALE_TEMP_SECONDS or not _pid_alive(int(match.group("pid")))


def sweep_stale_temps(directory: Path | str) -> list[Path]:
    """Delete the temp files a killed hookwrap left in `directory`; return what was deleted.

    Only names `stage_write` makes count; one is stale when its process is gone or it is older
    than STALE_TEMP_SECONDS (a pid may be reused). Errors are ignored: this is tidying only.
    """
    removed: list[Path] = []
    now = time.time()
    try:
        with os.scandir(directory) as entries:
            stale = [Path(entry.path) for entry in entries if _stale(entry, now)]
    except OSError:
        return removed
    for path in stale:
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed.append(path)
    return removed


@dataclass(frozen=True)
class StagedWrite:
    """New bytes fsynced to a temp file next to their target, not yet renamed into place."""

    target: Path                  # the file `commit_staged` replaces (a symlink already followed)
    temp: Path
    made_dirs: tuple[Path, ...]   # directories created for it, outermost first


def _make_parents(directory: Path) -> tuple[Path, ...]:
    missing = []
    current = directory
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    made = tuple(reversed(missing))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except BaseException:
        _remove_dirs(made)
        raise
    return made


def _remove_dirs(dirs: tuple[Path, ...]) -> None:
    for directory in reversed(dirs):
        try:
            directory.rmdir()
        except FileNotFoundError:  # never made (a failed mkdir) or already gone
            continue
        except OSError:  # not empty any more: leave it and its parents
            return


def _fill(fd: int, data: bytes, mode: int) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fchmod(handle.fileno(), mode)
        os.fsync(handle.fileno())


def stage_write(path: Path | str, data: bytes, *, new_mode: int = NEW_FILE_MODE) -> StagedWrite:
    """Write `data` to a temp file beside `path`'s target and fsync it; the target is untouched.

    The temp file lives in the target's directory so `os.replace` stays a same-filesystem rename;
    its name, `.<name>.hookwrap-<pid>-<random>.tmp`, lets a later write there sweep it away
    should this process be killed before the rename (see `sweep_stale_temps`).
    An existing file's permission bits are given to it; a new file gets `new_mode`. A symlink is
    followed: its target is what `commit_staged` replaces, the link is left in place. Missing
    parent directories are created (and removed again if staging fails or is discarded).

    Raises:
        OSError: the temp file could not be created or written; nothing is left behind.
    """
    target = _write_target(Path(path))
    made = _make_parents(target.parent)
    try:
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        mode = _existing_mode(target, new_mode)
        sweep_stale_temps(target.parent)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target), suffix=".tmp")
    except BaseException:
        _remove_dirs(made)
        raise
    staged = StagedWrite(target, Path(temp), made)
    try:
        _fill(fd, data, mode)
    except BaseException:
        discard_staged([staged])
        raise
    return staged


def commit_staged(staged: StagedWrite) -> None:
    """Rename a staged temp file over its target: readers see the old or new bytes, never half."""
    os.replace(staged.temp, staged.target)
    _fsync_dir(staged.target.parent)


def discard_staged(staged: list[StagedWrite]) -> None:
    """Delete the temp files of writes not committed, then the directories made only for them."""
    for item in staged:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(item.temp)
    for item in reversed(staged):
        _remove_dirs(item.made_dirs)


def atomic_write(path: Path | str, data: bytes, *, new_mode: int = NEW_FILE_MODE) -> None:
    """Replace the file at `path` with `data` so readers see the old or the new bytes, never half.

    `stage_write` then `commit_staged`: same directory temp file, fsync, `os.replace`, the old
    mode kept (`new_mode` for a new file), a symlink followed and its target rewritten, missing
    parents created.
    """
    staged = stage_write(path, data, new_mode=new_mode)
    try:
        commit_staged(staged)
    except BaseException:
        discard_staged([staged])
        raise


def remove_file(path: Path | str) -> bool:
    """Delete `path` if it exists; return whether something was removed.

    A symlink is removed as a link: its target may be shared with other projects, so it is never
    deleted through the link.
    """
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    _fsync_dir(Path(path).parent)
    return True


def remove_bytecode(source: Path | str) -> None:
    """Delete the bytecode caches of a removed ``.py`` file, every interpreter's: they are made
    from it alone, are stale without it, and would keep its folder from ever being empty."""
    source = Path(source)
    cache = source.parent / "__pycache__"
    if source.suffix != ".py" or cache.is_symlink() or not cache.is_dir():
        return
    # <stem>.<cache tag>[.opt-N].pyc, as importlib.util.cache_from_source names them.
    own = re.compile(re.escape(source.stem) + r"\.[A-Za-z0-9_-]+(\.opt-[0-9]+)?\.pyc")
    for pyc in cache.iterdir():
        if own.fullmatch(pyc.name) and pyc.is_file() and not pyc.is_symlink():
            with contextlib.suppress(OSError):
                os.unlink(pyc)


def remove_empty_dirs(root: Path | str, start: Path | str,
                      mine: Callable[[Path], bool] | None = None) -> list[Path]:
    """Remove ``start``, then each parent below ``root`` (or each that is ``mine``), while it
    is an empty real folder; returns the folders removed.

    Only what a removal left empty goes: ``os.rmdir`` refuses a folder holding anything at all
    (a file of the user's, a hidden one), and a symlink to a folder is never followed.
    """
    root, folder = Path(root), Path(start)
    removed: list[Path] = []
    while (mine(folder) if mine else root in folder.parents) and not folder.is_symlink() \
            and folder.is_dir():
        try:
            os.rmdir(folder)
        except OSError:
            break
        removed.append(folder)
        folder = folder.parent
    if removed:
        _fsync_dir(folder)
    return removed


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


@contextlib.contextmanager
def project_lock(root: Path | str, timeout: float = 10.0) -> Iterator[Path]:
    """Hold an exclusive lock on `root/.hookwrap/.lock` for the duration of the block.

    flock is released by the kernel when the process dies, so a crashed command never leaves a
    stale lock behind. The lock is per open file: taking it twice in one process blocks too.

    Raises:
        LockError: another process kept the lock for longer than `timeout` seconds.
    """
    check_path(root, LOCK_RELPATH)
    lock_path = Path(root) / LOCK_RELPATH
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with _flock(lock_path, timeout, NEW_FILE_MODE):
        yield lock_path


@contextlib.contextmanager
def _flock(lock_path: Path, timeout: float, mode: int) -> Iterator[None]:
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), mode)
    try:
        deadline = time.monotonic() + timeout
        while not _try_flock(fd):
            if time.monotonic() >= deadline:
                raise LockError(
                    f"{lock_path}: another hookwrap command has held the lock for over {timeout:g}s",
                    hint="wait for the other hookwrap command to finish, then run this one again",
                )
            time.sleep(_LOCK_POLL_SECONDS)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def shared_lock_path(path: Path | str) -> Path:
    """The lock file of a file outside the project: `.<name>.hookwrap-lock` beside the file a
    symlink points to, so two links to one file share one lock."""
    target = _write_target(Path(path))
    return target.parent / f".{target.name}.hookwrap-lock"


@contextlib.contextmanager
def shared_file_lock(path: Path | str, timeout: float = 10.0) -> Iterator[Path]:
    """Hold an exclusive lock for a read-modify-write of `path`, a file several projects share
    (a CLI's user config that `hookwrap trust` records trust in): read it again inside the block.

    The lock is an flock on `shared_lock_path(path)` (created 0o600 with its folder, kept
    afterwards: deleting a lock file would let two processes lock two different files); the
    kernel drops it when the process dies.

    Raises:
        LockError: another process kept the lock for longer than `timeout` seconds.
    """
    lock_path = shared_lock_path(path)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with _flock(lock_path, timeout, 0o600):
        yield lock_path


# The most hookwrap reads of a file it is given (a settings file, hookwrap.toml, a trust store):
# far above any real one (Claude Code's ~/.claude.json grows to a few MiB).
MAX_FILE_BYTES = 32 * 1024 * 1024

_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


class NotARegularFile(OSError):
    """What ``read_capped`` refuses; ``str()`` says why, after the file's label."""


def read_capped(path: Path | str) -> bytes:
    """A file's bytes, when it is a regular file of at most MAX_FILE_BYTES (a symlink is
    followed). A symlink committed to a repo can point anywhere: /dev/zero or /dev/urandom would
    be read until memory runs out, a FIFO until something writes to it, so they are refused
    (NotARegularFile), and the file is left as it is. FileNotFoundError and other OSErrors as
    ``open`` raises them."""
    # O_NONBLOCK: opening a FIFO for reading would wait for a writer; a regular file ignores it.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((what for test, what in _KINDS if test(mode)), "not a regular file")
            raise NotARegularFile(f"{kind}, and hookwrap reads only regular files")
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise NotARegularFile(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, and hookwrap "
                              "reads only regular files of a sane size")
    return data


ODD_FILE_HINT = ("make it a regular file (a symlink must point to one), or remove it; hookwrap left "
                 "it as it is")


def read_text(path: Path | str, label: str) -> str | None:
    """A settings file's text; None when it does not exist. The one reader of settings files,
    so each fault has one message."""
    try:
        raw = read_capped(path)
    except FileNotFoundError:
        return None
    except NotARegularFile as error:
        raise SettingsError(f"{label}: {error}", hint=ODD_FILE_HINT) from None
    except OSError as error:
        raise SettingsError(f"{label}: cannot read it ({error.strerror})",
                            hint="fix or remove it, then run hookwrap sync") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SettingsError(f"{label}: not UTF-8 text (byte {error.start})", hint=PARSE_HINT) from None
