"""The launcher takes a runtime module's checked-hash .pyc without hashing its source while the
source keeps the size and mtime hookwrap stamped (launcher.STAMPS), and checks every other one.

Each run is a real interpreter in a throwaway project and HOME. To see which way a module was
loaded, its source is changed behind its .pyc: with the hash check Python sees the change and
runs the new text; without it, the .pyc's old one.
"""

from __future__ import annotations

import importlib.util
import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest
from support import SRC
from support.projects import initialised
from test_old_pythons import PYTHONS

from hookwrap.generator.plan import stamp_runtime
from hookwrap.generator.project import compile_runtime
from hookwrap.generator.vendor import LAUNCHER_MODULE, RUNTIME_DIR, RUNTIME_MODULES
from hookwrap.launcher import STAMPS, STAMPS_HEADER

# Imports two modules from .hookwrap/lib, one while the script loads and one once the hook would
# run (after what hookwrap's runner calls), and says what each holds and how .pyc are checked.
PROBE = '''import _imp, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import mod_a
import _frozen_importlib_external as bootstrap
launcher = sys.modules.get("_hookwrap_launcher")
if launcher is not None:
    launcher.resume_gc_for_hook()
import mod_b
print(mod_a.VALUE, mod_b.VALUE, _imp.check_hash_based_pycs,
      bootstrap.SourceFileLoader.path_stats.__qualname__)
'''


COMPILE = """import importlib.util, py_compile, sys
for path in sys.argv[1:]:
    py_compile.compile(path, cfile=importlib.util.cache_from_source(path),
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "my project"
    lib = root / ".hookwrap" / "lib"
    lib.mkdir(parents=True)
    (root / ".hookwrap" / "hooks").mkdir()
    (lib / "run.py").write_bytes((SRC / "hookwrap" / "launcher_stub.py").read_bytes())
    (lib / "_hookwrap_launcher.py").write_bytes((SRC / "hookwrap" / "launcher.py").read_bytes())
    (root / ".hookwrap" / "hooks" / "probe.py").write_text(PROBE)
    (root / "home").mkdir()
    lines = [STAMPS_HEADER]
    for name in ("mod_a", "mod_b"):
        source = lib / f"{name}.py"
        source.write_text('VALUE = "old"\n')
        py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)),
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        lines.append(f"{source.stat().st_size} {source.stat().st_mtime!r} {name}.py")
    for python in PYTHONS.values():  # each interpreter's own checked-hash .pyc, as sync writes
        subprocess.run([python, "-c", COMPILE, str(lib / "mod_a.py"), str(lib / "mod_b.py")],
                       check=True, timeout=60)
    (lib / STAMPS).write_text("\n".join(lines) + "\n")
    return root


def _behind_its_pyc(source: Path, *, keep_mtime: bool) -> None:
    """The source changed, same size; its mtime kept as it was, or moved on a second."""
    before = source.stat()
    source.write_text('VALUE = "new"\n')
    later = before.st_mtime_ns + (0 if keep_mtime else 1_000_000_000)
    os.utime(source, ns=(before.st_atime_ns, later))


def launch(root: Path, python: str = sys.executable) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["HOME"] = str(root / "home")
    done = subprocess.run([python, str(root / ".hookwrap" / "lib" / "run.py"), "probe"],
                          capture_output=True, text=True, cwd=root, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("version", ["this", *PYTHONS])
def test_a_module_whose_source_keeps_its_stamp_is_taken_without_the_hash(project: Path,
                                                                         version: str) -> None:
    lib = project / ".hookwrap" / "lib"
    for name in ("mod_a", "mod_b"):
        _behind_its_pyc(lib / f"{name}.py", keep_mtime=True)
    # mod_a loads with the script: its .pyc as stamped. mod_b loads once the hook would run:
    # checked as Python checks it, so its new text; and the loader is importlib's own again.
    python = sys.executable if version == "this" else PYTHONS[version]
    assert launch(project, python) == ["old", "new", "default", "SourceFileLoader.path_stats"]


def test_a_source_whose_mtime_moved_is_checked_by_its_hash(project: Path) -> None:
    _behind_its_pyc(project / ".hookwrap" / "lib" / "mod_a.py", keep_mtime=False)
    assert launch(project)[:1] == ["new"]


def test_a_source_of_another_size_is_checked_by_its_hash(project: Path) -> None:
    source = project / ".hookwrap" / "lib" / "mod_a.py"
    before = source.stat()
    source.write_text('VALUE = "newer"\n')
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert launch(project)[:1] == ["newer"]


@pytest.mark.parametrize("damage", ["missing", "header", "not utf-8"])
def test_without_readable_stamps_every_pyc_is_checked(project: Path, damage: str) -> None:
    stamps = project / ".hookwrap" / "lib" / STAMPS
    if damage == "missing":
        stamps.unlink()
    elif damage == "header":
        stamps.write_text(stamps.read_text().replace(STAMPS_HEADER, "hookwrap runtime sources 0"))
    else:
        stamps.write_bytes(b"\xff" + stamps.read_bytes())
    _behind_its_pyc(project / ".hookwrap" / "lib" / "mod_a.py", keep_mtime=True)
    assert launch(project)[:1] == ["new"]


def test_a_direct_run_checks_every_pyc(project: Path) -> None:
    _behind_its_pyc(project / ".hookwrap" / "lib" / "mod_a.py", keep_mtime=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, str(project / ".hookwrap" / "hooks" / "probe.py")],
                          capture_output=True, text=True, cwd=project, env=env, timeout=60)
    assert done.stdout.split()[:1] == ["new"], done.stderr


def test_hookwrap_stamps_every_runtime_module_it_compiled(tmp_path: Path) -> None:
    root = initialised(tmp_path / "p")
    lib = root / LAUNCHER_MODULE.rsplit("/", 1)[0]
    # `init` wrote them; the copy of its project has new mtimes, so they are made again here by
    # what init and sync run (in the copy as it is, the launcher would check every .pyc).
    assert (lib / STAMPS).read_text().startswith(STAMPS_HEADER + "\n")
    compile_runtime(root)
    lines = (lib / STAMPS).read_text().splitlines()
    assert lines[0] == STAMPS_HEADER
    expected = {f"{RUNTIME_DIR}/{m}"[len(".hookwrap/lib/"):] for m in RUNTIME_MODULES}
    expected.add(LAUNCHER_MODULE[len(".hookwrap/lib/"):])
    stamped = {}
    for line in lines[1:]:
        size, mtime, rel = line.split(" ", 2)
        stamped[rel] = (int(size), float(mtime))
    assert set(stamped) == expected
    for rel, (size, mtime) in stamped.items():
        stat = (lib / rel).stat()
        assert (stat.st_size, stat.st_mtime) == (size, mtime), rel
    # A module whose .pyc no longer matches its source is left out when stamps are rewritten.
    shell = lib / "hookwrap" / "shell.py"
    shell.write_bytes(shell.read_bytes() + b"# edited\n")
    assert stamp_runtime(root)
    assert "hookwrap/shell.py" not in (lib / STAMPS).read_text()
    assert "hookwrap/guard_engine.py" in (lib / STAMPS).read_text()
