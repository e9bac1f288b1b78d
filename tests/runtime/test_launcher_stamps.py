"""While a hook script loads, the launcher imports the runtime's modules from their .pyc itself
(launcher._start_imports): with Python's own checks of each .pyc, a hookwrap checked-hash .pyc taken
without hashing its source while the source keeps the size, mtime and hash hookwrap stamped
(launcher.STAMPS), and the usual import for anything else.

Each run is a real interpreter in a throwaway project and HOME. To see which way a module was
loaded, its source is changed behind its .pyc: with the hash check Python sees the change and
runs the new text; without it, the .pyc's old one.
"""

from __future__ import annotations

import importlib.util
import json
import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest
from support import SRC
from support.projects import initialised
from test_old_pythons import PYTHONS, _interpreters

from hookwrap.generator.plan import stamp_runtime
from hookwrap.generator.project import compile_runtime
from hookwrap.generator.vendor import LAUNCHER_MODULE, RUNTIME_DIR, RUNTIME_MODULES
from hookwrap.launcher import STAMPS, STAMPS_HEADER

# Every interpreter at hand: this one, 3.9 and 3.10 (required in CI), 3.12 and 3.13 if found.
INTERPRETERS = {"this": sys.executable, **PYTHONS, **_interpreters(("3.12", "3.13"))}

# Imports a module and a package's module from .hookwrap/lib while the script loads, and one
# module once the hook would run (after what hookwrap's runner calls); says what each holds and
# whether the launcher's import is still in place.
PROBE = '''import builtins, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import mod_a
from pkg import sub
launcher = sys.modules.get("_hookwrap_launcher")
if launcher is not None:
    launcher.resume_gc_for_hook()
import mod_b
print(mod_a.VALUE, sub.VALUE, mod_b.VALUE,
      "builtin" if type(builtins.__import__) is type(len) else "launcher's")
'''

# Run by each interpreter: its own checked-hash .pyc of each file, as `hookwrap sync` writes
# them, and the stamps hookwrap writes for them (the stamps name this interpreter's cache tag).
COMPILE = """import importlib.util, os, py_compile, sys
lib, header = sys.argv[1], sys.argv[2]
lines = []
for rel in sys.argv[3:]:
    path = os.path.join(lib, rel)
    cache = importlib.util.cache_from_source(path)
    py_compile.compile(path, cfile=cache,
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    with open(cache, "rb") as file:
        digest = file.read()[8:16].hex()
    status = os.stat(path)
    lines.append(f"{status.st_size} {status.st_mtime!r} {digest} {rel}")
names = [rel[:-3].replace("/", ".") for rel in sys.argv[3:]]
names = [name[:-9] if name.endswith(".__init__") else name for name in names]
lines = [header + " " + sys.implementation.cache_tag, " ".join(names), " ".join(sys.argv[3:]),
         *lines]
with open(os.path.join(lib, "__pycache__", "hookwrap-sources.txt"), "w") as file:
    file.write("\\n".join(lines) + "\\n")
"""
SOURCES = {
    "mod_a.py": 'VALUE = "old"\n',
    "mod_b.py": 'VALUE = "old"\n',
    "pkg/__init__.py": "from .base import BASE\n",
    "pkg/base.py": 'BASE = "base"\n',
    "pkg/sub.py": 'from . import base\nVALUE = "old" if base.BASE == "base" else "?"\n',
}


def make_project(root: Path, python: str) -> Path:
    lib = root / ".hookwrap" / "lib"
    (lib / "pkg").mkdir(parents=True)
    (root / ".hookwrap" / "hooks").mkdir()
    (lib / "run.py").write_bytes((SRC / "hookwrap" / "launcher_stub.py").read_bytes())
    (lib / "_hookwrap_launcher.py").write_bytes((SRC / "hookwrap" / "launcher.py").read_bytes())
    (root / ".hookwrap" / "hooks" / "probe.py").write_text(PROBE)
    (root / "home").mkdir()
    for rel, text in SOURCES.items():
        (lib / rel).write_text(text)
    stamp(lib, python)
    return root


def stamp(lib: Path, python: str, header: str = STAMPS_HEADER) -> None:
    (lib / "__pycache__").mkdir(exist_ok=True)
    subprocess.run([python, "-c", COMPILE, str(lib), header, *SOURCES], check=True, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "my project", sys.executable)


def _behind_its_pyc(source: Path, *, keep_mtime: bool, text: str = 'VALUE = "new"\n') -> None:
    """The source changed, same size; its mtime kept as it was, or moved on a second."""
    before = source.stat()
    source.write_text(text)
    later = before.st_mtime_ns + (0 if keep_mtime else 1_000_000_000)
    os.utime(source, ns=(before.st_atime_ns, later))


def launch(root: Path, python: str = sys.executable, *options: str, script: str = "probe",
           ok: bool = True) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["HOME"] = str(root / "home")
    done = subprocess.run([python, *options, str(root / ".hookwrap" / "lib" / "run.py"), script],
                          capture_output=True, text=True, cwd=root, env=env, timeout=60)
    assert (done.returncode == 0) == ok, done.stderr
    return done.stdout.split() if ok else done.stderr.splitlines()


def _all_behind(lib: Path) -> None:
    """Each module's source says "new" now, with the size and mtime its .pyc was made for."""
    for rel in ("mod_a.py", "mod_b.py", "pkg/sub.py"):
        text = 'VALUE = "new"'
        _behind_its_pyc(lib / rel, keep_mtime=True,
                        text=text.ljust(len(SOURCES[rel]) - 1) + "\n")


@pytest.mark.parametrize("version", sorted(INTERPRETERS))
def test_a_module_whose_source_keeps_its_stamp_is_taken_without_the_hash(tmp_path: Path,
                                                                         version: str) -> None:
    python = INTERPRETERS[version]
    project = make_project(tmp_path / "p", python)
    _all_behind(project / ".hookwrap" / "lib")
    # mod_a and pkg.sub load with the script: their .pyc as stamped. mod_b loads once the hook
    # would run: imported as usual, so checked by its hash and its new text; and the builtin
    # __import__ is back.
    assert launch(project, python) == ["old", "old", "new", "builtin"]


def test_stamps_of_another_python_leave_checked_hash_pycs_to_the_hash(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    stamps = project / ".hookwrap" / "lib" / STAMPS
    first, rest = stamps.read_text().split("\n", 1)
    stamps.write_text(f"{STAMPS_HEADER} cpython-27\n{rest}")
    _all_behind(project / ".hookwrap" / "lib")
    assert launch(project) == ["new", "new", "new", "builtin"]


def test_a_source_whose_mtime_moved_is_checked_by_its_hash(project: Path) -> None:
    _behind_its_pyc(project / ".hookwrap" / "lib" / "mod_a.py", keep_mtime=False)
    assert launch(project)[:1] == ["new"]


def test_a_source_of_another_size_is_checked_by_its_hash(project: Path) -> None:
    source = project / ".hookwrap" / "lib" / "mod_a.py"
    before = source.stat()
    source.write_text('VALUE = "newer"\n')
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert launch(project)[:1] == ["newer"]


def test_a_pyc_not_the_one_stamped_is_checked_by_its_hash(project: Path) -> None:
    """Same source stat, but the .pyc was compiled from other text since the stamps were
    written: the hash in the stamps no longer matches the .pyc's."""
    lib = project / ".hookwrap" / "lib"
    source = lib / "mod_a.py"
    before = source.stat()
    source.write_text('VALUE = "pyc"\n')
    py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)),
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    source.write_text('VALUE = "new"\n')
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert launch(project)[:1] == ["new"]


@pytest.mark.parametrize("damage", ["missing", "header", "not utf-8", "names", "short"])
def test_without_readable_stamps_every_pyc_is_checked(project: Path, damage: str) -> None:
    stamps = project / ".hookwrap" / "lib" / STAMPS
    if damage == "missing":
        stamps.unlink()
    elif damage == "names":  # a name fewer than sources
        lines = stamps.read_text().split("\n")
        lines[1] = lines[1].split(" ", 1)[1]
        stamps.write_text("\n".join(lines))
    elif damage == "short":
        stamps.write_text(stamps.read_text().split("\n", 1)[0] + "\n")
    elif damage == "header":
        stamps.write_text(stamps.read_text().replace(STAMPS_HEADER, "hookwrap runtime sources 1"))
    else:
        stamps.write_bytes(b"\xff" + stamps.read_bytes())
    _all_behind(project / ".hookwrap" / "lib")
    assert launch(project) == ["new", "new", "new", "builtin"]


def test_a_direct_run_checks_every_pyc(project: Path) -> None:
    _behind_its_pyc(project / ".hookwrap" / "lib" / "mod_a.py", keep_mtime=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, str(project / ".hookwrap" / "hooks" / "probe.py")],
                          capture_output=True, text=True, cwd=project, env=env, timeout=60)
    assert done.stdout.split()[:1] == ["new"], done.stderr


def test_pythons_own_timestamp_pyc_is_checked_as_python_checks_it(project: Path) -> None:
    """A .pyc Python wrote itself (mtime and size in its header): taken while they match, as
    Python takes it; a moved mtime makes it stale, as for Python."""
    lib = project / ".hookwrap" / "lib"
    source = lib / "mod_a.py"
    py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)),
                       invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    _behind_its_pyc(source, keep_mtime=True)
    assert launch(project)[:1] == ["old"]
    _behind_its_pyc(source, keep_mtime=False)
    assert launch(project)[:1] == ["new"]


def test_an_import_profile_is_left_to_python(project: Path) -> None:
    # -X importtime: every module goes through importlib (and shows in the profile), so the
    # checked-hash .pyc behind a changed source is checked by its hash.
    _all_behind(project / ".hookwrap" / "lib")
    assert launch(project, sys.executable, "-X", "importtime")[:2] == ["new", "new"]


@pytest.mark.parametrize("options", [["-O"], ["-X", "pycache_prefix=PREFIX"],
                                     ["--check-hash-based-pycs", "always"]])
def test_other_pycs_or_checks_asked_for_are_left_to_python(project: Path,
                                                           options: list[str]) -> None:
    options = [o.replace("PREFIX", str(project / "prefix")) for o in options]
    _all_behind(project / ".hookwrap" / "lib")
    assert launch(project, sys.executable, *options)[:2] == ["new", "new"]


def _probe_first(project: Path, lines: str) -> None:
    probe = project / ".hookwrap" / "hooks" / "probe.py"
    probe.write_text(lines + PROBE)


def test_a_module_found_elsewhere_first_is_imported_from_there(project: Path) -> None:
    other = project / "other"
    other.mkdir()
    (other / "mod_a.py").write_text('VALUE = "other"\n')
    # The script puts lib first (PROBE), then a folder of its own before it.
    probe = project / ".hookwrap" / "hooks" / "probe.py"
    probe.write_text(PROBE.replace("import mod_a\n",
                                   f"sys.path.insert(0, {str(other)!r})\nimport mod_a\n"))
    assert launch(project)[:2] == ["other", "old"]


def test_a_finder_of_the_scripts_own_is_asked_first(project: Path) -> None:
    _probe_first(project, '''import sys
class Finder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "mod_a":
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, Finder)
    @staticmethod
    def create_module(spec):
        return None
    @staticmethod
    def exec_module(module):
        module.VALUE = "finder"
sys.meta_path.insert(0, Finder)
''')
    assert launch(project)[:2] == ["finder", "old"]


def test_a_module_that_fails_to_load_is_not_left_half_imported(project: Path) -> None:
    lib = project / ".hookwrap" / "lib"
    (lib / "mod_a.py").write_text('raise ValueError("mod_a broke")\n')
    stamp(lib, sys.executable)
    _probe_first(project, '''import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
try:
    import mod_a
except ValueError as error:
    print("raised", error.args[0].replace(" ", "_"), "mod_a" in sys.modules)
raise SystemExit(0)
''')
    assert launch(project) == ["raised", "mod_a_broke", "False"]


# What a module's attributes are after an import, as JSON: the fields importlib sets.
ATTRIBUTES = '''import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import builtins
LOADER = "launcher's" if type(builtins.__import__) is not type(len) else "python's"
import hookwrap
from hookwrap import shell
import hookwrap.clis.claude
from hookwrap.clis import _base

def attrs(module):
    spec = module.__spec__
    return {
        "file": module.__file__, "cached": module.__cached__, "package": module.__package__,
        "path": getattr(module, "__path__", None), "loader": type(module.__loader__).__name__,
        "loader_path": module.__loader__.path, "loader_name": module.__loader__.name,
        "keys": list(vars(module))[:9],
        "spec": [spec.name, spec.origin, spec.cached, spec.has_location, spec.parent,
                 spec.submodule_search_locations, spec.loader is module.__loader__,
                 spec.loader_state, getattr(spec, "_initializing", None)],
        "code_file": next((f.__code__.co_filename for f in vars(module).values()
                           if getattr(f, "__module__", None) == module.__name__
                           and hasattr(f, "__code__")), None),
    }

names = ["hookwrap", "hookwrap.names", "hookwrap.shell", "hookwrap.clis", "hookwrap.clis.claude",
         "hookwrap.clis._base"]
print(json.dumps({"loader": LOADER, "modules": {n: attrs(sys.modules[n]) for n in names},
                  "children": [getattr(hookwrap, "shell") is sys.modules["hookwrap.shell"],
                               hookwrap.clis.claude is sys.modules["hookwrap.clis.claude"]],
                  "loaded": sorted(n for n in sys.modules if n.startswith("hookwrap"))}))
'''


@pytest.mark.parametrize("version", sorted(INTERPRETERS))
def test_the_runtime_imported_by_the_launcher_is_as_python_imports_it(tmp_path: Path,
                                                                      version: str) -> None:
    """hookwrap's real runtime, in a project made by `hookwrap init`: the launcher imports it
    from the .pyc sync wrote (no module goes through importlib, `python -v` shows), and each
    module and package ends up with the attributes a usual import gives it."""
    python = INTERPRETERS[version]
    root = initialised(tmp_path / "p")
    compile_runtime(root)  # the copy has new mtimes: stamped again, as `hookwrap sync` does
    lib = root / ".hookwrap" / "lib"
    if version != "this":  # that interpreter's own .pyc and stamps, as its sync would write
        rels = [f"hookwrap/{m}" for m in RUNTIME_MODULES if m.endswith(".py")]
        subprocess.run([python, "-c", COMPILE, str(lib), STAMPS_HEADER, *rels], check=True,
                       timeout=120)
    (root / ".hookwrap" / "hooks").mkdir(exist_ok=True)
    (root / ".hookwrap" / "hooks" / "attrs.py").write_text(ATTRIBUTES)
    (root / "home").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["HOME"] = str(root / "home")
    launched = subprocess.run([python, "-v", str(lib / "run.py"), "attrs"], capture_output=True,
                              text=True, cwd=root, env=env, timeout=60)
    assert launched.returncode == 0, launched.stderr
    assert "import 'hookwrap" not in launched.stderr  # importlib loaded none of them
    direct = subprocess.run([python, str(root / ".hookwrap" / "hooks" / "attrs.py")],
                            capture_output=True, text=True, cwd=root, env=env, timeout=60)
    assert direct.returncode == 0, direct.stderr
    ours, pythons = json.loads(launched.stdout), json.loads(direct.stdout)
    assert (ours.pop("loader"), pythons.pop("loader")) == ("launcher's", "python's")
    assert ours == pythons
    # As the script put it on sys.path, and as Python's FileFinder joins it.
    assert ours["modules"]["hookwrap.clis"]["path"] == [f"{root}/.hookwrap/hooks/../lib/hookwrap"
                                                       "/clis"]


def test_hookwrap_stamps_every_runtime_module_it_compiled(tmp_path: Path) -> None:
    root = initialised(tmp_path / "p")
    lib = root / LAUNCHER_MODULE.rsplit("/", 1)[0]
    # `init` wrote them; the copy of its project has new mtimes, so they are made again here by
    # what init and sync run (in the copy as it is, the launcher would check every .pyc).
    header = f"{STAMPS_HEADER} {sys.implementation.cache_tag}"
    assert (lib / STAMPS).read_text().startswith(header + "\n")
    compile_runtime(root)
    lines = (lib / STAMPS).read_text().splitlines()
    assert lines[0] == header
    expected = {f"{RUNTIME_DIR}/{m}"[len(".hookwrap/lib/"):] for m in RUNTIME_MODULES}
    expected.add(LAUNCHER_MODULE[len(".hookwrap/lib/"):])
    # The modules' names, then their sources, in the same order.
    assert dict(zip(lines[1].split(), lines[2].split())) == {
        rel[:-3].replace("/", ".").removesuffix(".__init__"): rel for rel in expected}
    assert lines[2].split() == [line.rpartition(" ")[2] for line in lines[3:]]
    stamped = {}
    for line in lines[3:]:
        size, mtime, digest, rel = line.split(" ", 3)
        stamped[rel] = (int(size), float(mtime), digest)
    assert set(stamped) == expected
    for rel, (size, mtime, digest) in stamped.items():
        stat = (lib / rel).stat()
        assert (stat.st_size, stat.st_mtime) == (size, mtime), rel
        source = (lib / rel).read_bytes()
        assert digest == importlib.util.source_hash(source).hex(), rel
    # A module whose .pyc no longer matches its source is left out when stamps are rewritten.
    shell = lib / "hookwrap" / "shell.py"
    shell.write_bytes(shell.read_bytes() + b"# edited\n")
    assert stamp_runtime(root)
    assert "hookwrap/shell.py" not in (lib / STAMPS).read_text()
    assert "hookwrap/guard_engine.py" in (lib / STAMPS).read_text()


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 65537, 300_000])
def test_the_launcher_reads_a_file_whole(tmp_path: Path, size: int) -> None:
    from hookwrap.launcher import _read

    path = tmp_path / "f.bin"
    data = os.urandom(size)
    path.write_bytes(data)
    assert _read(str(path)) == data


def test_a_source_changed_after_sync_checked_it_is_not_stamped_from_that_check(tmp_path: Path) -> None:
    """Plan.apply hands the hashes compile_bytecode took to stamp_runtime: one taken before a
    source changed (same size, so only its mtime and ctime say so) is not used."""
    from hookwrap.generator.plan import compile_bytecode

    root = initialised(tmp_path / "p")
    lib = root / LAUNCHER_MODULE.rsplit("/", 1)[0]
    rels = [f"{RUNTIME_DIR}/{module}" for module in RUNTIME_MODULES]
    compile_runtime(root)  # every .pyc matches its source now
    checked: dict = {}
    assert compile_bytecode(root, rels, checked) == []
    assert sorted(checked) == sorted(rels)
    shell = lib / "hookwrap" / "shell.py"
    text = shell.read_bytes()
    assert text.endswith(b"\n")
    shell.write_bytes(text[:-1] + b" ")  # the same size
    assert stamp_runtime(root, checked)
    stamps = (lib / STAMPS).read_text()
    assert "hookwrap/shell.py" not in stamps
    assert "hookwrap/guard_engine.py" in stamps
