"""Initialised projects, copied from a template instead of running ``hookwrap init`` per test.

``hookwrap init`` takes ~0.35 s (in-process; more as a subprocess) and copying its result takes
~0.02 s. ``initialised(dest, *options)`` runs ``hookwrap init OPTIONS`` once per process and per
distinct options into a template, then copies the template into ``dest``: files with their
bytes and modes, symlinks as links, the checked-hash ``.pyc`` files of the runtime (valid in the
copy: they hold the source's hash, and Python sets a module's file name from where it loads it).

The template is built the first time a test asks for it, so under that test's throwaway HOME
(``isolated_home`` in tests/conftest.py). ``tests/test_support_projects.py`` checks that a copy
equals a fresh ``hookwrap init``.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

_TEMPLATES: dict[tuple[str, ...], Path] = {}
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


def template(*options: str) -> Path:
    """The template project of ``hookwrap init OPTIONS``, built on first use; never write to it."""
    from .cli import hw

    if options not in _TEMPLATES:
        root = _base() / f"template-{len(_TEMPLATES)}" / "project"
        root.mkdir(parents=True)
        result = hw(root, "init", *options)
        if result.code != 0:
            raise AssertionError(f"hookwrap init {' '.join(options)} exited {result.code}: {result.err}")
        _TEMPLATES[options] = root
    return _TEMPLATES[options]


def initialised(dest: Path, *options: str) -> Path:
    """``dest`` (made if missing; it must be empty) as ``hookwrap init OPTIONS`` leaves an empty
    directory; returns ``dest``."""
    source = template(*options)
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise ValueError(f"{dest} is not empty: copy a template only into an empty directory")
    shutil.copytree(source, dest, symlinks=True, dirs_exist_ok=True)
    return dest


def init_project(tmp_path: Path) -> Path:
    """``tmp_path/proj`` as ``hookwrap init`` leaves it."""
    return initialised(tmp_path / "proj")
