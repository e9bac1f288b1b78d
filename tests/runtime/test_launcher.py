"""The launcher (.hookwrap/lib/run.py): a hook run through it behaves as the script run directly,
from checked-hash bytecode that is never stale.

Every run is a real interpreter in a throwaway project and HOME; the hooks here only print.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runtime_support import SRC
from test_old_pythons import PYTHONS

# Prints what a script sees of how it was started, and the marker line of this version.
PROBE = '''import json, sys
MARK = "one"
print(json.dumps({"mark": MARK, "name": __name__, "file": __file__, "argv": sys.argv,
                  "path0": sys.path[0], "main": sys.modules["__main__"].__dict__ is globals()}))
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "my project"  # a space, as in real paths
    (root / ".hookwrap" / "lib").mkdir(parents=True)
    (root / ".hookwrap" / "hooks").mkdir()
    (root / ".hookwrap" / "lib" / "run.py").write_bytes((SRC / "hookwrap" / "launcher.py").read_bytes())
    (root / "home").mkdir()
    return root


def _env(root: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(HOME=str(root / "home"), **extra)
    return env


def launch(root: Path, name: str, *, python: str = sys.executable, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([python, str(root / ".hookwrap" / "lib" / "run.py"), name, "--platform", "claude"],
                          capture_output=True, text=True, cwd=root, env=_env(root, **env), timeout=60)


def direct(root: Path, name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / ".hookwrap" / "hooks" / f"{name}.py"), "--platform",
                           "claude"], capture_output=True, text=True, cwd=root, env=_env(root), timeout=60)


def cache_of(root: Path, name: str, tag: str | None = None) -> Path:
    tag = tag or sys.implementation.cache_tag
    return root / ".hookwrap" / "hooks" / "__pycache__" / f"{name}.{tag}.pyc"


def write_hook(root: Path, name: str, text: str) -> Path:
    path = root / ".hookwrap" / "hooks" / f"{name}.py"
    path.write_text(text)
    return path


def test_a_hook_sees_what_a_direct_run_shows_it(project: Path) -> None:
    write_hook(project, "probe", PROBE)
    ran, plain = launch(project, "probe"), direct(project, "probe")
    assert ran.returncode == plain.returncode == 0, ran.stderr
    seen, expected = json.loads(ran.stdout), json.loads(plain.stdout)
    assert seen == expected
    assert seen["name"] == "__main__" and seen["main"] is True
    assert seen["argv"] == [str(project / ".hookwrap" / "hooks" / "probe.py"), "--platform", "claude"]
    assert seen["path0"] == str(project / ".hookwrap" / "hooks")


def test_the_first_run_writes_a_checked_hash_pyc_and_the_next_runs_from_it(project: Path) -> None:
    source = write_hook(project, "probe", PROBE).read_bytes()
    assert json.loads(launch(project, "probe").stdout)["mark"] == "one"
    data = cache_of(project, "probe").read_bytes()
    assert data[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(data[4:8], "little") == 0b11  # hash-based, checked
    assert data[8:16] == importlib.util.source_hash(source)
    # A pyc whose header matches the source is used as it is: its code is what runs.
    cached = compile(PROBE.replace('"one"', '"from the cache"'), "x", "exec")
    cache_of(project, "probe").write_bytes(data[:16] + marshal.dumps(cached))
    assert json.loads(launch(project, "probe").stdout)["mark"] == "from the cache"


def test_an_edit_within_the_same_second_and_size_takes_effect(project: Path) -> None:
    path = write_hook(project, "probe", PROBE)
    assert json.loads(launch(project, "probe").stdout)["mark"] == "one"
    stat = path.stat()
    path.write_text(PROBE.replace('"one"', '"two"'))  # the same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    assert path.stat().st_size == stat.st_size
    assert json.loads(launch(project, "probe").stdout)["mark"] == "two"
    assert cache_of(project, "probe").read_bytes()[8:16] == importlib.util.source_hash(path.read_bytes())


@pytest.mark.parametrize("damage", ["foreign magic", "truncated", "garbage code", "timestamp pyc"])
def test_a_damaged_or_foreign_pyc_is_ignored_and_replaced(project: Path, damage: str) -> None:
    source = write_hook(project, "probe", PROBE).read_bytes()
    assert launch(project, "probe").returncode == 0
    good = cache_of(project, "probe").read_bytes()
    bad = {"foreign magic": b"\x00\x00\r\n" + good[4:],
           "truncated": good[:20],
           "garbage code": good[:16] + b"\xff\xfe not marshal",
           "timestamp pyc": good[:4] + bytes(4) + good[8:]}[damage]
    cache_of(project, "probe").write_bytes(bad)
    ran = launch(project, "probe")
    assert ran.returncode == 0 and json.loads(ran.stdout)["mark"] == "one", ran.stderr
    assert cache_of(project, "probe").read_bytes()[8:16] == importlib.util.source_hash(source)
    assert cache_of(project, "probe").read_bytes()[4] == 0b11


def test_no_pyc_where_bytecode_cannot_or_may_not_be_written(project: Path) -> None:
    write_hook(project, "probe", PROBE)
    ran = launch(project, "probe", PYTHONDONTWRITEBYTECODE="1")
    assert ran.returncode == 0 and not cache_of(project, "probe").exists()
    # __pycache__ that cannot be a folder (a read-only checkout fails the same way): still runs.
    (project / ".hookwrap" / "hooks" / "__pycache__").write_text("not a folder")
    ran = launch(project, "probe")
    assert ran.returncode == 0 and json.loads(ran.stdout)["mark"] == "one", ran.stderr
    assert ran.stderr == ""
    assert not list((project / ".hookwrap" / "hooks").glob("*.tmp"))


def test_a_missing_script_fails_as_a_direct_run_does(project: Path) -> None:
    ran, plain = launch(project, "gone"), direct(project, "gone")
    assert ran.returncode == plain.returncode == 2  # exit 2: Claude Code blocks, fail closed
    assert ran.stdout == ""
    tail = f"can't open file {str(project / '.hookwrap' / 'hooks' / 'gone.py')!r}: [Errno 2] " \
           "No such file or directory\n"
    assert ran.stderr.endswith(tail) and plain.stderr.endswith(tail)


def test_a_syntax_error_fails_as_a_direct_run_does(project: Path) -> None:
    write_hook(project, "broken", "import sys\ndef broken(:\n    pass\n")
    ran, plain = launch(project, "broken"), direct(project, "broken")
    assert ran.returncode == plain.returncode == 1
    assert ran.stderr == plain.stderr and "SyntaxError" in ran.stderr
    assert not cache_of(project, "broken").exists()


def test_an_exception_in_the_hook_exits_1_with_the_hook_s_traceback_only(project: Path) -> None:
    write_hook(project, "crash", "def f():\n    raise ValueError('bad payload')\nf()\n")
    ran, plain = launch(project, "crash"), direct(project, "crash")
    assert ran.returncode == plain.returncode == 1
    assert ran.stderr == plain.stderr and "ValueError: bad payload" in ran.stderr
    assert "run.py" not in ran.stderr


def test_sys_exit_codes_pass_through(project: Path) -> None:
    write_hook(project, "blocks", "import sys\nsys.stderr.write('no')\nsys.exit(2)\n")
    ran = launch(project, "blocks")
    assert (ran.returncode, ran.stderr) == (2, "no")


@pytest.mark.parametrize("name", ["", "../hooks/probe", "Probe", "probe.py", "/tmp/probe", "1probe",
                                  "a" * 65, "pro be"])
def test_anything_but_a_hook_name_is_refused(project: Path, name: str) -> None:
    write_hook(project, "probe", PROBE)
    ran = launch(project, name)
    assert ran.returncode == 2 and ran.stdout == ""
    assert "needs a hook name" in ran.stderr


@pytest.mark.skipif("3.9" not in PYTHONS, reason="no python3.9 on this machine")
def test_python_3_9_runs_and_caches_with_its_own_tag(project: Path) -> None:
    write_hook(project, "probe", PROBE)
    first, second = (launch(project, "probe", python=PYTHONS["3.9"]) for _ in range(2))
    assert first.returncode == second.returncode == 0, first.stderr
    assert json.loads(second.stdout)["mark"] == "one"
    assert cache_of(project, "probe", "cpython-39").is_file()
