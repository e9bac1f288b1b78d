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
