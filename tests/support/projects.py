"""Initialised projects, copied from a template instead of running ``hookwrap init`` per test.

``hookwrap init`` takes ~0.35 s (in-process; more as a subprocess) and copying its result takes
~0.02 s. ``initialised(dest, *options)`` runs ``hookwrap init OPTIONS`` once per process and per
distinct options into a template, then copies the template into ``dest``: files with their
bytes and modes, symlinks as links, the checked-hash ``.pyc`` files of the runtime (valid in the
copy: they hold the source's hash, and Python sets a module's file name from where it loads it).
``from_template(dest, build)`` does the same for any setup: ``build(root)`` runs once per process
(a fixture's ``init`` plus its ``add`` commands, its own files written first), and each test gets
a copy. Nothing hookwrap writes into a project holds the project's path, so a copy is what the
same commands would have made in ``dest``.

A template is built the first time a test asks for it, under that test's throwaway HOME
(``isolated_home`` in tests/conftest.py): ``build`` must write into the project only (trust a
folder, say, in the test's own fixture). ``tests/test_support_projects.py`` checks that a copy
equals a fresh ``hookwrap init``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

_TEMPLATES: dict[object, Path] = {}
_BASE: list[Path] = []


def set_template_dir(path: Path) -> None:
    """Build templates under ``path`` (the root conftest passes a session temp dir)."""
    _BASE[:] = [path]


def _base() -> Path:
    if not _BASE:
        path = Path(tempfile.mkdtemp(prefix="hookwrap-templates-"))
        atexit.register(shutil.rmtree, path, True)
        _BASE.append(path)
    return _BASE[0]


def _template(key: object, build: Callable[[Path], object]) -> Path:
    """The template of ``key``, made by ``build(root)`` on first use; never write to it."""
    if key not in _TEMPLATES:
        root = _base() / f"template-{len(_TEMPLATES)}" / "project"
        root.mkdir(parents=True)
        build(root)
        _TEMPLATES[key] = root
    return _TEMPLATES[key]


# A template's entries, read once: (directories with their modes, files with their bytes and
# modes, symlinks with their targets). Writing these is a third cheaper than shutil.copytree,
# which reads, stats and copies the times of every file again (~570 copies a run).
_Tree = tuple[list[tuple[str, int]], list[tuple[str, bytes, int]], list[tuple[str, str]]]
_TREES: dict[Path, _Tree] = {}


def _tree(source: Path) -> _Tree:
    if source not in _TREES:
        dirs: list[tuple[str, int]] = []
        files: list[tuple[str, bytes, int]] = []
        links: list[tuple[str, str]] = []
        for top, dirnames, filenames in os.walk(source):
            rel = os.path.relpath(top, source)
            for name in sorted(dirnames + filenames):
                path, at = os.path.join(top, name), os.path.normpath(os.path.join(rel, name))
                info = os.lstat(path)
                if stat.S_ISLNK(info.st_mode):
                    links.append((at, os.readlink(path)))
                elif stat.S_ISDIR(info.st_mode):
                    dirs.append((at, stat.S_IMODE(info.st_mode)))
                else:
                    with open(path, "rb") as file:
                        files.append((at, file.read(), stat.S_IMODE(info.st_mode)))
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(top, d))]
        _TREES[source] = (dirs, files, links)
    return _TREES[source]


def _write_tree(source: Path, dest: Path) -> None:
    """``source``'s entries into ``dest``, which holds none of them."""
    dirs, files, links = _tree(source)
    umask = os.umask(0)
    os.umask(umask)
    for rel, mode in dirs:
        os.mkdir(dest / rel, mode)
        if mode & umask:
            os.chmod(dest / rel, mode)
    for rel, data, mode in files:
        fd = os.open(dest / rel, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        if mode & umask:
            os.chmod(dest / rel, mode)
    for rel, target in links:
        os.symlink(target, dest / rel)


def _copy(source: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise ValueError(f"{dest} is not empty: copy a template only into an empty directory")
    _write_tree(source, dest)
    return dest


def _init(*options: str) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        from .cli import hw

        result = hw(root, "init", *options)
        if result.code != 0:
            raise AssertionError(f"hookwrap init {' '.join(options)} exited {result.code}: {result.err}")
    return build


def initialised(dest: Path, *options: str) -> Path:
    """``dest`` (made if missing; it must be empty) as ``hookwrap init OPTIONS`` leaves an empty
    directory; returns ``dest``."""
    return _copy(_template(("init", *options), _init(*options)), dest)


def initialised_repo(dest: Path, *options: str) -> Path:
    """``initialised`` for a fresh git repo: ``dest`` holds nothing but ``.git``, which `hookwrap
    init` does not look at (it chooses the CLIs by their folders), so the template's files are
    what init would write there."""
    extra = sorted(p.name for p in dest.iterdir() if p.name != ".git")
    if extra:
        raise ValueError(f"{dest} holds {extra}: copy a template only into a fresh git repo")
    _write_tree(_template(("init", *options), _init(*options)), dest)
    return dest


def from_template(dest: Path, build: Callable[[Path], object]) -> Path:
    """``dest`` (made if missing; it must be empty) as ``build(dest)`` would leave it: ``build``
    runs once per process into a template (keyed by the function, so pass a module-level one),
    which is copied. ``build`` writes into the project it is given and nowhere else."""
    return _copy(_template(build, build), dest)


def copied(dest: Path, key: object, build: Callable[[Path], object]) -> Path:
    """``from_template`` with the template named by ``key`` (for a ``build`` made per call, such as
    a ``functools.partial`` of a helper's arguments: the key holds those arguments)."""
    return _copy(_template(key, build), dest)


def init_project(tmp_path: Path) -> Path:
    """``tmp_path/proj`` as ``hookwrap init`` leaves it."""
    return initialised(tmp_path / "proj")
