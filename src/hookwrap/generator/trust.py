"""`hookwrap trust`: record the project's trust where a CLI would otherwise skip its hooks silently.

Each CLI's setup module says what it needs (``AgentSetup.trust_edits``: the entries of which file);
this module holds the generic parts: planning over the CLIs, and recording a plan. The files a
plan names are the user's own (``$CODEX_HOME/config.toml``, ``~/.gemini/trustedFolders.json``...)
and several projects may record their trust in them at once, so each is read again and written
under its lock (``fsutil.shared_file_lock``): no project's entry is ever lost to another's write.
Only the entries a plan names are ever touched; nothing else outside the project is written.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..names import Platform
from .clis import all_setups, setup_of
from .clis.kit import TrustEdit
from .errors import ConflictError, SettingsError, WriteError


def trust_plan(root: Path, platforms: list[Platform] | None = None, *, home: Path | None = None,
               env: Mapping[str, str] | None = None) -> list[TrustEdit]:
    """What `hookwrap trust` would write for each CLI (every CLI when ``platforms`` is None).

    Pure: files are read, nothing is written (``--dry-run`` shows this plan).
    """
    env = dict(os.environ if env is None else env)
    home = Path(home) if home is not None else Path.home()
    if platforms:
        _refuse_unused(root, platforms)
    agents = [setup_of(p) for p in platforms] if platforms else all_setups()
    return [edit for agent in agents for edit in agent.trust_edits(root, home, env)]


def record_trust(root: Path, platforms: list[Platform] | None = None, *,
                 home: Path | None = None, env: Mapping[str, str] | None = None) -> list[TrustEdit]:
    """Plan and write: every file with a change is locked, read again, planned again and written
    (atomic write: temp file, fsync, rename; its mode kept, a symlink followed). Returns the plan
    that was written.

    Raises:
        SettingsError: a trust file cannot be read or safely edited (nothing is written to it).
        ConflictError: a trust file is a symlink to nothing.
        LockError: another process held a trust file's lock too long.
        WriteError: a lock file or a trust file could not be written.
    """
    from .fsutil import atomic_write, shared_file_lock, shared_lock_path

    edits = trust_plan(root, platforms, home=home, env=env)
    for _ in range(3):  # a file that only needs a change once another process wrote: lock it too
        files = {shared_lock_path(e.path): e.path for e in edits if e.pending}
        if not files:
            return edits
        for path in files.values():
            _refuse_dangling(path)
        with contextlib.ExitStack() as locks:
            for target in sorted(files):  # always in one order: two commands never wait on each other
                with _unchanged_on_error(files[target], target):
                    locks.enter_context(shared_file_lock(files[target]))
            edits = trust_plan(root, platforms, home=home, env=env)
            if {shared_lock_path(e.path) for e in edits if e.pending} <= set(files):
                for edit in edits:
                    if edit.pending and edit.new_text is not None:
                        with _unchanged_on_error(edit.path):
                            _note_user_trust(root, edit)
                            atomic_write(edit.path, edit.new_text.encode("utf-8"), new_mode=0o600)
                return edits
    raise SettingsError("the trust files kept changing while hookwrap recorded trust",
                        hint="run `hookwrap trust` again")


def _note_user_trust(root: Path, edit: TrustEdit) -> None:
    """At user scope, what the trust file held before, so the last user hook's removal can give
    it back (originals.py)."""
    from .fsutil import read_text
    from .originals import record_trust_write
    from .scope import current

    if current().user:
        record_trust_write(root, edit.platform, edit.path, read_text(edit.path, edit.label),
                           [change.entry.keys for change in edit.pending])


def _refuse_unused(root: Path, platforms: list[Platform]) -> None:
    """A CLI named with --platform that no hook of the project is registered on has nothing
    to trust: say that, rather than that nothing here needs trust."""
    from .errors import ProjectError
    from .manifest import Manifest

    name = "hookwrap.toml"  # project.MANIFEST (project imports this module)
    if not (root / name).is_file():
        return
    manifest = Manifest.read(root / name)
    used = set(manifest.platforms) | {p for spec in manifest.hooks for p in spec.platforms}
    unused = [p for p in platforms if p not in used]
    if unused:
        names = ", ".join(p.value for p in unused)
        verb = "is" if len(unused) == 1 else "are"
        raise ProjectError(f"{names} {verb} not among {name}'s platforms: no hook of this "
                           "project runs there, so there is nothing to trust",
                           hint=f"add it with `hookwrap init --platform {unused[0].value}`, or "
                                "leave --platform out to trust every CLI the project uses")


@contextlib.contextmanager
def _unchanged_on_error(path: Path, lock: Path | None = None) -> Iterator[None]:
    """An OSError while locking (with ``lock``) or writing ``path`` as a WriteError: ``path`` is
    unchanged (atomic write), though a trust file written before it keeps its new entries."""
    try:
        yield
    except OSError as error:
        why = error.strerror or str(error)
        message = f"{lock}: cannot lock {path.name} with it ({why})" if lock else \
            f"{path}: cannot write it ({why})"
        raise WriteError(f"{message}; {path} is unchanged",
                         hint="fix what the message names, then run `hookwrap trust` again") from None


def _refuse_dangling(path: Path) -> None:
    if path.is_symlink() and not path.exists():
        raise ConflictError(f"{path}: is a symlink to {os.readlink(path)}, which does not exist; "
                            "hookwrap will not create files through it",
                            hint="create the file it points to (or remove the link), then run "
                                 "`hookwrap trust` again")


def untrusted_note(platform: Platform, root: Path, settings_text: str | None) -> str | None:
    """A note for `sync` and `add` when the settings they are writing leave a hook untrusted
    (new, or changed: any edit of a command, matcher or timeout untrusts it again)."""
    agent = setup_of(platform)
    if settings_text is None:
        return None
    try:
        edits = agent.trust_edits(root, Path.home(), dict(os.environ), settings_text)
    except SettingsError:
        return None  # doctor and `hookwrap trust` report a broken file
    from .scope import current

    command = "hookwrap --user trust" if current().user else "hookwrap trust"
    hooks = [c.entry.hook for e in edits for c in e.pending if c.entry.hook]
    project = any(not c.entry.hook for e in edits for c in e.pending)
    todo = [line for e in edits for line in e.todo]
    if todo:
        return f"{agent.label} runs none of this project's hooks: {todo[0]}"
    if hooks:
        what = ", ".join(dict.fromkeys(hooks))
        return (f"{agent.label} skips {what} without a word until you run "
                f"`{command} --platform {platform.value}`")
    if project:
        return (f"{agent.label} runs none of this project's hooks until the folder is trusted: "
                f"run `hookwrap trust --platform {platform.value}`")
    return None
