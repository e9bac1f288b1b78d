"""The launcher (.hookwrap/lib/run.py): a hook run through it behaves as the script run directly,
from checked-hash bytecode that is never stale.

Every run is a real interpreter in a throwaway project and HOME; the hooks here only print.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from support import SRC
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
    (root / ".hookwrap" / "lib" / "run.py").write_bytes((SRC / "hookwrap" / "launcher_stub.py").read_bytes())
    (root / ".hookwrap" / "lib" / "_hookwrap_launcher.py").write_bytes((SRC / "hookwrap" / "launcher.py").read_bytes())
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


# --- the end of a hook process: no interpreter teardown where nothing can be lost --------------
# An object alive at exit whose __del__ writes to fd 2: the usual exit (teardown) runs it, the
# launcher's quick exit does not. That is how these tests see which exit a run took.
# The quick exit is only taken once hookwrap's runner says the answer is out (answer_sealed);
# these scripts say it as the runner would, the last tests below run the real runtime.
TEARDOWN_WITNESS = '''import os, sys, types
class Witness:
    def __del__(self):
        os.write(2, b"teardown ran\\n")
witness = Witness()
sys.modules["hookwrap.runner"] = types.SimpleNamespace(answer_sealed=True)
'''


def test_a_finished_hook_ends_without_teardown_and_loses_no_output(project: Path) -> None:
    # Unflushed output on both streams, an atexit handler, and an exit code: all arrive.
    write_hook(project, "quick", TEARDOWN_WITNESS + '''import atexit
atexit.register(lambda: sys.stderr.write("atexit ran\\n"))
sys.stdout.write('{"decision": "block"}')
sys.stderr.write("said on stderr\\n")
raise SystemExit(3)
''')
    ran = launch(project, "quick")
    assert ran.returncode == 3
    assert ran.stdout == '{"decision": "block"}'
    assert ran.stderr == "said on stderr\natexit ran\n"  # no teardown: the witness never spoke


def test_a_hook_that_returns_without_sys_exit_ends_quickly_with_status_0(project: Path) -> None:
    write_hook(project, "plain", TEARDOWN_WITNESS + "print('{}')\n")
    ran = launch(project, "plain")
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "{}\n", "")


def test_a_file_the_hook_left_open_is_written_by_the_usual_exit(project: Path) -> None:
    # A buffered write to a file never closed: only the teardown flushes it.
    write_hook(project, "logs", TEARDOWN_WITNESS + '''log = open(os.path.join(os.path.dirname(__file__), "log.txt"), "w")
log.write("kept")
print("{}")
''')
    ran = launch(project, "logs")
    assert ran.returncode == 0 and ran.stdout == "{}\n"
    assert "teardown ran" in ran.stderr
    assert (project / ".hookwrap" / "hooks" / "log.txt").read_text() == "kept"


def test_a_thread_still_running_is_waited_for(project: Path) -> None:
    write_hook(project, "threads", TEARDOWN_WITNESS + '''import threading, time
def later():
    time.sleep(0.3)
    sys.stderr.write("thread done\\n")
threading.Thread(target=later).start()
print("{}")
''')
    ran = launch(project, "threads")
    assert ran.returncode == 0 and "thread done" in ran.stderr and "teardown ran" in ran.stderr


def test_a_message_exit_keeps_python_s_own_exit(project: Path) -> None:
    write_hook(project, "says", TEARDOWN_WITNESS + "raise SystemExit('hook refused')\n")
    ran = launch(project, "says")
    assert ran.returncode == 1 and ran.stderr.startswith("hook refused\n")


def test_descriptors_the_caller_passed_in_do_not_keep_the_usual_exit(project: Path) -> None:
    # A CLI that leaks a descriptor into its hooks: the quick exit still applies.
    write_hook(project, "inherits", TEARDOWN_WITNESS + "print('{}')\n")
    read_end, write_end = os.pipe()
    try:
        ran = subprocess.run([sys.executable, str(project / ".hookwrap" / "lib" / "run.py"), "inherits"],
                             capture_output=True, text=True, cwd=project, env=_env(project),
                             timeout=60, pass_fds=(write_end,))
    finally:
        os.close(read_end)
        os.close(write_end)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "{}\n", "")


# --- run.py is a stub; the launcher's code is a module beside it, from cached bytecode -------

def test_the_launcher_code_comes_from_bytecode_not_from_compiling_run_py(project: Path) -> None:
    write_hook(project, "probe", "import sys\nprint(sys.modules['_hookwrap_launcher'].__cached__)\n")
    first, second = launch(project, "probe"), launch(project, "probe")
    assert first.returncode == second.returncode == 0, first.stderr
    assert Path(second.stdout.strip()).is_file()  # the module's .pyc, written by the first run
    # What Python compiles on every call is only the stub.
    assert len((project / ".hookwrap" / "lib" / "run.py").read_text().splitlines()) < 25


@pytest.mark.parametrize("flags", [["-I"], ["-P"]] if sys.version_info >= (3, 11) else [["-I"]])
def test_the_stub_finds_the_launcher_when_python_does_not_add_the_script_folder(project: Path,
                                                                                flags: list[str]) -> None:
    write_hook(project, "probe", PROBE)
    ran = subprocess.run([sys.executable, *flags, str(project / ".hookwrap" / "lib" / "run.py"), "probe"],
                         capture_output=True, text=True, cwd=project, env=_env(project), timeout=60)
    plain = subprocess.run([sys.executable, *flags, str(project / ".hookwrap" / "hooks" / "probe.py")],
                           capture_output=True, text=True, cwd=project, env=_env(project), timeout=60)
    assert ran.returncode == plain.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["path0"] == json.loads(plain.stdout)["path0"]


def test_a_missing_launcher_module_exits_2_so_a_guard_still_blocks(project: Path) -> None:
    write_hook(project, "probe", PROBE)
    (project / ".hookwrap" / "lib" / "_hookwrap_launcher.py").unlink()
    ran = launch(project, "probe")
    assert ran.returncode == 2 and ran.stdout == ""
    assert ran.stderr == (f"hookwrap: the launcher cannot run on Python {platform.python_version()} "
                          "(No module named '_hookwrap_launcher'); run `hookwrap doctor`\n")


def test_a_script_whose_answer_hookwrap_did_not_seal_keeps_the_usual_exit(project: Path) -> None:
    # Its own writer over stdout's buffer, never flushed: only the teardown writes it out.
    write_hook(project, "ownout", TEARDOWN_WITNESS.replace("answer_sealed=True", "answer_sealed=False") +
               "import io\nout = io.TextIOWrapper(sys.stdout.buffer, encoding='utf-8')\n"
               "out.write('{\"decision\": \"block\"}')\n")
    ran = launch(project, "ownout")
    assert (ran.returncode, ran.stdout) == (0, '{"decision": "block"}')
    assert "teardown ran" in ran.stderr


def test_a_file_opened_on_a_descriptor_the_hook_closed_is_still_written(project: Path) -> None:
    # json.load(open(0)) closes stdin; the log then gets descriptor 0: same numbers as before.
    write_hook(project, "reuses", TEARDOWN_WITNESS + '''import json
data = json.load(open(0))
log = open(os.path.join(os.path.dirname(__file__), "log.txt"), "a")
log.write("saw " + data["tool"])
print("{}")
''')
    ran = subprocess.run([sys.executable, str(project / ".hookwrap" / "lib" / "run.py"), "reuses"],
                         input='{"tool": "Bash"}', capture_output=True, text=True, cwd=project,
                         env=_env(project), timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert (project / ".hookwrap" / "hooks" / "log.txt").read_text() == "saw Bash"


def test_an_atexit_error_never_changes_the_exit_status(project: Path) -> None:
    # 3.9 and 3.10 re-raise a handler's error from atexit._run_exitfuncs(): as they would.
    write_hook(project, "raises", TEARDOWN_WITNESS + '''import atexit
def _run():
    raise RuntimeError("a handler failed")
atexit._run_exitfuncs = _run
sys.exit(2)
''')
    ran = launch(project, "raises")
    assert ran.returncode == 2


@pytest.mark.parametrize("code", [256, 2**31, -1])
def test_an_exit_status_out_of_range_exits_as_python_does(project: Path, code: int) -> None:
    write_hook(project, "big", TEARDOWN_WITNESS + f"sys.exit({code})\n")
    plain = subprocess.run([sys.executable, str(project / ".hookwrap" / "hooks" / "big.py")],
                           capture_output=True, text=True, cwd=project, env=_env(project), timeout=60)
    ran = launch(project, "big")
    assert ran.returncode == plain.returncode


GC_PROBE = '''import gc, json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hookwrap import HookOutput, main
LOADING = gc.isenabled()
def hook(event):
    seen = {"loading": LOADING, "calling": gc.isenabled(), "frozen": gc.get_freeze_count() > 0}
    return HookOutput(system_message=json.dumps(seen))
raise SystemExit(main(hook))
'''


def _gc_seen(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(json.loads(done.stdout)["systemMessage"])


def test_the_collector_is_paused_while_the_script_loads_and_runs_for_the_hook(project: Path) -> None:
    (project / ".hookwrap" / "lib" / "hookwrap").symlink_to(SRC / "hookwrap")
    write_hook(project, "gcprobe", GC_PROBE)
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "ls"}, "cwd": str(project)})
    run = subprocess.run([sys.executable, str(project / ".hookwrap" / "lib" / "run.py"), "gcprobe",
                          "--platform", "claude"], input=payload, capture_output=True, text=True,
                         cwd=project, env=_env(project), timeout=60)
    assert _gc_seen(run) == {"loading": False, "calling": True, "frozen": True}
    plain = subprocess.run([sys.executable, str(project / ".hookwrap" / "hooks" / "gcprobe.py"),
                            "--platform", "claude"], input=payload, capture_output=True, text=True,
                           cwd=project, env=_env(project), timeout=60)
    assert _gc_seen(plain) == {"loading": True, "calling": True, "frozen": False}


def test_a_script_without_hookwrap_s_runner_gets_the_collector_back_for_its_exit(project: Path) -> None:
    # No runner resumes it during the script; Python's own exit (teardown) gets it back.
    write_hook(project, "plain", """import gc, atexit
print(gc.isenabled())
atexit.register(lambda: print("at exit:", gc.isenabled()))
""")
    done = launch(project, "plain")
    assert (done.returncode, done.stdout) == (0, "False\nat exit: True\n")
