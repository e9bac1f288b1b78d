"""Plan, then apply: the list of file changes a command would make, and applying it."""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import fsutil, madedirs
from .errors import ProjectError, WriteError


@dataclass
class FileChange:
    """One file a command creates, rewrites, removes or leaves alone.

    ``data`` holds the new bytes for create/update; ``detail`` says why, one line each.
    """

    rel: str
    action: str
    data: bytes | None = None
    detail: list[str] = field(default_factory=list)


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


def _listed(rels: list[str]) -> str:
    return ", ".join(rels) if rels else "nothing"


@dataclass
class Plan:
    """Everything a command would do to the project, computed before anything is written."""

    root: Path
    changes: list[FileChange] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Found while planning and not hookwrap's to fix (an invalid foreign settings entry that
    # makes a CLI drop hookwrap's hooks too): reported, and `sync --check` fails on them.
    problems: list[str] = field(default_factory=list)
    # Python sources (project-relative) to cache as checked-hash bytecode once applied.
    bytecode: list[str] = field(default_factory=list)

    def add(self, rel: str, new: bytes | None, *, detail: list[str] | None = None,
            keep_link_as: bytes | None = None) -> FileChange:
        """Record that ``rel`` should hold ``new`` (None = should not exist); the action follows.

        Raises ConflictError when ``rel`` is reached through a symlink under .hookwrap/, a
        dangling symlink, or a file where a folder should be (see ``fsutil.check_path``).

        ``keep_link_as``: when ``new`` is None and ``rel`` is a symlink, write these bytes through
        the link instead of deleting it. Deleting only the link would leave its target (often a
        shared dotfile) holding exactly what this change meant to take out of it.
        """
        fsutil.check_path(self.root, rel, writing=new is not None)
        path = self.root / rel
        old = self._read(rel)
        notes = list(detail or [])
        if new is None and keep_link_as is not None and old is not None and path.is_symlink():
            new = keep_link_as
            notes.append(f"a symlink: kept, its target {os.readlink(path)} rewritten")
        if new is None:
            action = "remove" if old is not None else "unchanged"
        elif old is None:
            action = "create"
        else:
            action = "unchanged" if old == new else "update"
        change = FileChange(rel, action, new, notes)
        self.changes.append(change)
        return change

    def _read(self, rel: str) -> bytes | None:
        path = self.root / rel
        try:
            return path.read_bytes() if path.is_file() else None
        except OSError as error:
            raise ProjectError(f"{rel}: cannot read it ({_reason(error)})",
                               hint=f"check the permissions of {rel}, then run the command again"
                               ) from error

    @property
    def pending(self) -> list[FileChange]:
        """The changes that would write or remove something."""
        return [c for c in self.changes if c.action in ("create", "update", "remove")]

    def apply(self) -> None:
        """Write every pending change so that a failure leaves nothing half-done.

        Phase 1 writes each new content to a fsynced temp file beside its target; only when all
        exist does phase 2 rename them into place (`os.replace`, symlinks followed, modes kept);
        removals come last.

        Raises:
            ConflictError: a path became unsafe since planning (``fsutil.check_path``); nothing
                was changed.
            WriteError: a temp file could not be written (every temp file is deleted again and
                nothing was changed), or, rarely, a rename or removal failed (the message lists
                what was and was not written).
        """
        for change in self.pending:  # again: the tree may have changed since planning
            fsutil.check_path(self.root, change.rel)
        self._sweep()
        # hookwrap.toml first: when it cannot be written, nothing else is (a script left behind
        # by a failed `add` is a hook sync knows nothing of); once it is, sync can finish.
        writes = sorted((c for c in self.pending if c.action != "remove"),
                        key=lambda c: c.rel != "hookwrap.toml")
        removals = [c for c in self.pending if c.action == "remove"]
        made = madedirs.missing(self.root / c.rel for c in writes if self._outside(c.rel))
        done = self._commit(writes, self._stage(writes), removals)
        madedirs.record(self.root, made)
        for index, change in enumerate(removals):
            try:
                fsutil.remove_file(self.root / change.rel)
            except OSError as error:
                raise self._partial(change, error, done, removals[index:]) from error
            done.append(change.rel)
        self._tidy(removals)
        checked: dict[str, tuple[tuple[int, int, int, int], bytes]] = {}
        compile_bytecode(self.root, self.bytecode, checked)
        stamp_runtime(self.root, checked)

    def _tidy(self, removals: list[FileChange]) -> None:
        """After removals: the bytecode of a removed script, then each folder the removals left
        empty (.claude/ once its settings file goes), up to the project root. A folder holding
        anything else stays."""
        for change in removals:
            fsutil.remove_bytecode(self.root / change.rel)
        for change in removals:
            path = self.root / change.rel
            fsutil.remove_empty_dirs(self.root, path.parent / "__pycache__")
            fsutil.remove_empty_dirs(self.root, path.parent)
        madedirs.remove_emptied(self.root, [self.root / c.rel for c in removals
                                            if self._outside(c.rel)])

    def _outside(self, rel: str) -> bool:
        """Whether ``rel`` is a file outside the root (a CLI's user file, at user scope)."""
        return Path(rel).is_absolute() and self.root not in Path(rel).parents

    def _sweep(self) -> None:
        # Temp files a killed command left beside these files (hookwrap.toml's in the root);
        # writes sweep their own directory too, but a run with nothing to write tidies as well.
        parents = [self.root] + [(self.root / c.rel).parent for c in self.changes]
        for directory in dict.fromkeys(parents):
            if directory.is_dir() and not directory.is_symlink():
                fsutil.sweep_stale_temps(directory)

    def _stage(self, writes: list[FileChange]) -> list[fsutil.StagedWrite]:
        staged: list[fsutil.StagedWrite] = []
        for change in writes:
            try:
                staged.append(fsutil.stage_write(self.root / change.rel, change.data or b""))
            except OSError as error:
                fsutil.discard_staged(staged)
                directory = Path(change.rel).parent.as_posix()
                where = "the project directory" if directory == "." else f"{directory}/"
                raise WriteError(
                    f"{self._label(change.rel)}: cannot write it ({_reason(error)}); "
                    "nothing was changed",
                    hint=f"check the permissions of {where} and the free space, then run the "
                         "command again",
                ) from error
            except BaseException:
                fsutil.discard_staged(staged)
                raise
        return staged

    def _commit(self, writes: list[FileChange], staged: list[fsutil.StagedWrite],
                removals: list[FileChange]) -> list[str]:
        done: list[str] = []
        for index, (change, item) in enumerate(zip(writes, staged)):
            try:
                fsutil.commit_staged(item)
            except BaseException as error:
                fsutil.discard_staged(staged[index:])
                if not isinstance(error, OSError):
                    raise
                raise self._partial(change, error, done, writes[index:] + removals) from error
            done.append(change.rel)
        return done

    def _label(self, rel: str) -> str:
        path = self.root / rel
        return f"{rel} (-> {os.readlink(path)})" if path.is_symlink() else rel

    def _partial(self, change: FileChange, error: OSError, done: list[str],
                 rest: list[FileChange]) -> WriteError:
        verb = "remove" if change.action == "remove" else "replace"
        hint = "fix the cause, then run hookwrap sync to bring the other files in line with " \
            "hookwrap.toml" if done else "fix the cause, then run the command again"
        return WriteError(
            f"{self._label(change.rel)}: cannot {verb} it ({_reason(error)}); "
            f"changed: {_listed(done)}; not changed: {_listed([c.rel for c in rest])}",
            hint=hint,
        )


def _file_key(status: os.stat_result) -> tuple[int, int, int, int]:
    return status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns


def _pyc_header(path: Path) -> bytes:
    """A .pyc file's first 16 bytes (magic, flags, source hash), not the whole file."""
    with open(path, "rb") as handle:
        return handle.read(16)


def compile_bytecode(root: Path, rels: list[str],
                     checked: dict[str, tuple[tuple[int, int, int, int], bytes]] | None = None,
                     ) -> list[str]:
    """Write checked-hash .pyc files for ``rels``; returns the ones compiled. ``checked``, when
    given, gets each source whose .pyc already matched it: its file's identity (inode, size,
    mtime, ctime, unchanged while it was read) and its hash, which ``stamp_runtime`` then
    need not read and hash again (a sync that changes nothing: ~40 runtime files).

    Python caches bytecode itself, unless PYTHONDONTWRITEBYTECODE is set (common in
    containers) or the checkout is read-only: then every hook call recompiles the runtime,
    ~12 ms. Checked-hash files (PEP 552) stay valid across git checkouts, which reset mtimes.
    They are a cache, not project state: `sync --check` ignores them and git ignores them.
    """
    import importlib.util

    compiled = []
    for rel in rels:
        source = root / rel
        cache_rel = Path(importlib.util.cache_from_source(rel)).as_posix()
        # A cache: never written through a symlink (fsutil.check_path), just skipped.
        if not source.is_file() or not fsutil.is_safe_path(root, cache_rel):
            continue
        cache = root / cache_rel
        before = source.stat()
        data = source.read_bytes()
        expected = importlib.util.source_hash(data)
        try:
            current = _pyc_header(cache)[8:16]
        except OSError:
            current = b""
        if current == expected and checked is not None \
                and _file_key(before) == _file_key(after := source.stat()):
            checked[rel] = (_file_key(after), expected)
        if current != expected:
            pyc = _checked_hash_pyc(rel, data, expected)
            if pyc is not None:  # a source that does not compile is skipped, as py_compile does
                _write_pyc(source, cache, pyc)
            compiled.append(rel)
    return compiled


# (project-relative path, source hash) -> the .pyc's bytes. The runtime copied into a project is
# the same ~40 sources in every project, and the bytes do not depend on where the project is:
# the code is compiled under its project-relative name, and both importlib and the launcher
# put the path actually loaded in its place (_imp._fix_co_filename), as they do for a .pyc
# compiled elsewhere. A process that sets up many projects (the tests: ~3,400 compiles, ~3 ms
# of CPU each) compiles each source once.
_PYC_BYTES: dict[tuple[str, bytes], bytes | None] = {}
_CHECKED_HASH = b"\x03\x00\x00\x00"


def _checked_hash_pyc(rel: str, data: bytes, source_hash: bytes) -> bytes | None:
    """A checked-hash .pyc (PEP 552) of ``data`` as py_compile writes it, or None when it
    does not compile."""
    import importlib.util
    import marshal

    key = (rel, source_hash)
    if key not in _PYC_BYTES:
        code = _installed_code(rel, data, source_hash)
        if code is None:
            try:
                code = marshal.dumps(compile(data, rel, "exec", dont_inherit=True))
            except Exception:  # py_compile's doraise=False: any failure to compile, skipped
                code = None
        _PYC_BYTES[key] = None if code is None else \
            importlib.util.MAGIC_NUMBER + _CHECKED_HASH + source_hash + code
    return _PYC_BYTES[key]


def _installed_code(rel: str, data: bytes, source_hash: bytes) -> bytes | None:
    """The marshalled code Python cached for hookwrap's own copy of the runtime module ``rel``
    (its __pycache__: pip compiles it at install), when that copy is the same source and the
    cache is valid for it, as an import would check it; else None. A project's runtime is such
    a copy, so `hookwrap init` (and a sync after an upgrade) need not compile ~40 modules,
    ~130 ms of CPU."""
    import importlib.util
    import marshal

    from .vendor import LAUNCHER_MODULE, LAUNCHER_MODULE_SOURCE, PACKAGE, RUNTIME_DIR

    if rel == LAUNCHER_MODULE:
        own = PACKAGE / LAUNCHER_MODULE_SOURCE
    elif rel.startswith(f"{RUNTIME_DIR}/"):
        own = PACKAGE / rel[len(RUNTIME_DIR) + 1:]
    else:
        return None
    try:
        status = own.stat()
        if own.read_bytes() != data:
            return None
        with open(importlib.util.cache_from_source(str(own)), "rb") as handle:
            cached = handle.read()
    except (OSError, ValueError):
        return None
    flags = cached[4:8]
    if cached[:4] != importlib.util.MAGIC_NUMBER:
        return None
    if flags == b"\x00\x00\x00\x00":  # timestamp-checked: Python's own, pip's
        if cached[8:12] != (int(status.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") or \
                cached[12:16] != (status.st_size & 0xFFFFFFFF).to_bytes(4, "little"):
            return None
    elif flags not in (b"\x01\x00\x00\x00", _CHECKED_HASH) or cached[8:16] != source_hash:
        return None
    try:
        code = marshal.loads(cached[16:])
    except Exception:  # a damaged .pyc (EOFError, ValueError...): compiled instead
        return None
    return cached[16:] if type(code) is type(_installed_code.__code__) else None


def _write_pyc(source: Path, cache: Path, pyc: bytes) -> None:
    """Write ``cache`` as py_compile does: never through a link or over a folder, to a temp
    file renamed into place, with the source's permissions (plus the owner's write)."""
    if cache.is_symlink() or (cache.exists() and not cache.is_file()):
        raise FileExistsError(f"{cache} is a symlink or not a regular file")
    cache.parent.mkdir(exist_ok=True)
    try:
        mode = source.stat().st_mode | 0o200
    except OSError:
        mode = 0o666
    temp = f"{cache}.{id(cache)}"
    handle = os.open(temp, os.O_EXCL | os.O_CREAT | os.O_WRONLY, mode & 0o666)
    try:
        with open(handle, "wb") as file:
            file.write(pyc)
        os.replace(temp, cache)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise



def stamp_runtime(root: Path,
                  checked: dict[str, tuple[tuple[int, int, int, int], bytes]] | None = None,
                  ) -> bool:
    """Write the size, mtime and hash of each copied runtime source whose checked-hash .pyc
    matches it now, for the launcher (``launcher.STAMPS``: while a source keeps them, a hook
    takes its .pyc without hashing the source; a module not listed is imported as usual).
    A cache like the .pyc files: git ignores it, and a missing or stale one only means that
    every .pyc is checked. Returns whether it was written. ``checked``: the hashes
    ``compile_bytecode`` took, used for a source whose identity is still the same."""
    import importlib.util

    from ..launcher import STAMPS, STAMPS_HEADER
    from .vendor import LAUNCHER_MODULE, RUNTIME_DIR, RUNTIME_MODULES

    lib = LAUNCHER_MODULE.rsplit("/", 1)[0]
    stamps_rel = f"{lib}/{Path(STAMPS).as_posix()}"
    if not fsutil.is_safe_path(root, stamps_rel):
        return False
    lines = []
    for rel in [*(f"{RUNTIME_DIR}/{module}" for module in RUNTIME_MODULES), LAUNCHER_MODULE]:
        source = root / rel
        cache = root / Path(importlib.util.cache_from_source(rel)).as_posix()
        try:
            before = source.stat()
            known = (checked or {}).get(rel)
            if known is not None and known[0] == _file_key(before):
                after, source_hash = before, known[1]
            else:
                data = source.read_bytes()
                after, source_hash = source.stat(), importlib.util.source_hash(data)
            header = _pyc_header(cache)
        except OSError:
            continue
        if header[:4] == importlib.util.MAGIC_NUMBER and header[4:8] == b"\x03\x00\x00\x00" \
                and header[8:16] == source_hash \
                and (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
            lines.append(f"{after.st_size} {after.st_mtime!r} {header[8:16].hex()} "
                         f"{rel[len(lib) + 1:]}")
    sources = [line.rpartition(" ")[2] for line in lines]
    names = [source[:-3].replace("/", ".").removesuffix(".__init__") for source in sources]
    lines = [f"{STAMPS_HEADER} {sys.implementation.cache_tag}", " ".join(names), " ".join(sources),
             *lines]
    data = ("\n".join(lines) + "\n").encode()
    target = root / stamps_rel
    try:
        if not target.is_file() or target.read_bytes() != data:  # a sync that changes nothing
            fsutil.atomic_write(target, data)                     # writes nothing
    except OSError:  # a cache: without it every .pyc is checked, as Python does
        return False
    return True
