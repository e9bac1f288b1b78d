"""The copied runtime ships with checked-hash bytecode, so hooks skip recompiling it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from hookwrap.generator.project import compile_runtime
from hookwrap.generator.vendor import RUNTIME_DIR, RUNTIME_MODULES


def _init(tmp_path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "hookwrap", "init"], cwd=tmp_path, check=True,
                   capture_output=True)
    return tmp_path


def _pyc(root: Path, module: str) -> Path:
    return Path(importlib.util.cache_from_source(str(root / RUNTIME_DIR / module)))


def test_init_writes_checked_hash_bytecode_for_every_runtime_module(tmp_path):
    root = _init(tmp_path)
    for module in RUNTIME_MODULES:
        data = _pyc(root, module).read_bytes()
        assert data[:4] == importlib.util.MAGIC_NUMBER
        assert int.from_bytes(data[4:8], "little") == 0b11  # hash-based, checked (PEP 552)
        source = (root / RUNTIME_DIR / module).read_bytes()
        assert data[8:16] == importlib.util.source_hash(source)


def test_compile_runtime_only_rewrites_stale_files(tmp_path):
    root = _init(tmp_path)
    assert compile_runtime(root) == []
    (root / RUNTIME_DIR / "tools.py").write_text("# edited\n")
    assert compile_runtime(root) == ["tools.py"]


def test_a_hook_uses_the_bytecode_when_python_may_not_write_any(tmp_path):
    root = _init(tmp_path)
    hook = root / ".hookwrap" / "hooks" / "probe.py"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("import os, sys\n"
                    "sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))\n"
                    "import hookwrap\n"
                    "import hookwrap.options\n"
                    "import hookwrap.commandfilter, hookwrap.server, hookwrap.bridge, hookwrap.hookproc  # on demand\n"
                    "import hookwrap.guard_engine, hookwrap.guard_checks, hookwrap.guard_packs  # the guard\n"
                    "import hookwrap.shell_code, hookwrap.shell_parser  # loaded on demand too\n"
                    "hookwrap.platforms.all_runtimes()  # every CLI module, not only the one a hook uses\n"
                    "import hookwrap.clis._views  # read by type checkers only; compiled all the same\n"
                    "import hookwrap.clis._cline_hooks  # run by Cline's hook files only\n")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, "-v", str(hook)], env=env, capture_output=True,
                          text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    loaded = [line for line in proc.stderr.splitlines()
              if line.startswith("# code object from") and "/lib/hookwrap/" in line
              and "/__pycache__/" in line]
    assert len(loaded) == len(RUNTIME_MODULES)


def test_the_bytecode_is_the_code_of_its_source_wherever_it_was_compiled(tmp_path):
    """The .pyc of each copied module (taken from hookwrap's own cache, or compiled once per
    process under its project-relative name) loads as the code compiling that very file gives,
    its path put in place as importlib and the launcher do (_imp._fix_co_filename)."""
    import _imp
    import marshal

    from hookwrap.generator.vendor import LAUNCHER_MODULE

    root = _init(tmp_path)
    for rel in [*(f"{RUNTIME_DIR}/{module}" for module in RUNTIME_MODULES), LAUNCHER_MODULE]:
        source = root / rel
        code = marshal.loads(Path(importlib.util.cache_from_source(str(source))).read_bytes()[16:])
        _imp._fix_co_filename(code, str(source))
        expected = compile(source.read_bytes(), str(source), "exec", dont_inherit=True)
        assert code == expected and code.co_filename == str(source), rel


def _own_copy(tmp_path: Path, monkeypatch, mode) -> tuple[Path, bytes]:
    """A stand-in for hookwrap's installed package holding names.py, with a .pyc of ``mode``."""
    import py_compile

    from hookwrap.generator import vendor

    package = tmp_path / "site-packages" / "hookwrap"
    package.mkdir(parents=True)
    own = package / "names.py"
    own.write_bytes((vendor.PACKAGE / "names.py").read_bytes())
    py_compile.compile(str(own), cfile=importlib.util.cache_from_source(str(own)), invalidation_mode=mode)
    monkeypatch.setattr(vendor, "PACKAGE", package)
    return own, Path(importlib.util.cache_from_source(str(own))).read_bytes()


def test_hookwraps_own_bytecode_is_taken_only_while_it_is_valid_for_the_same_source(tmp_path, monkeypatch):
    import py_compile

    from hookwrap.generator.plan import _installed_code

    own, cached = _own_copy(tmp_path, monkeypatch, py_compile.PycInvalidationMode.TIMESTAMP)
    data = own.read_bytes()
    digest = importlib.util.source_hash(data)
    rel = f"{RUNTIME_DIR}/names.py"
    assert _installed_code(rel, data, digest) == cached[16:]
    assert _installed_code(f"{RUNTIME_DIR}/tools.py", data, digest) is None  # no own copy
    assert _installed_code(".hookwrap/hooks/names.py", data, digest) is None  # not the runtime
    edited = data + b"\n# edited in the project\n"
    assert _installed_code(rel, edited, importlib.util.source_hash(edited)) is None
    stat = own.stat()
    os.utime(own, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))  # the cache is stale
    assert _installed_code(rel, data, digest) is None


def test_a_damaged_own_cache_is_compiled_around(tmp_path, monkeypatch):
    import py_compile

    from hookwrap.generator.plan import _installed_code

    own, cached = _own_copy(tmp_path, monkeypatch, py_compile.PycInvalidationMode.CHECKED_HASH)
    data = own.read_bytes()
    rel = f"{RUNTIME_DIR}/names.py"
    assert _installed_code(rel, data, importlib.util.source_hash(data)) == cached[16:]
    Path(importlib.util.cache_from_source(str(own))).write_bytes(cached[:40])
    assert _installed_code(rel, data, importlib.util.source_hash(data)) is None
