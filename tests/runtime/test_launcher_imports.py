"""The launcher's own import of the runtime (launcher._import) where a script does what a usual
import copes with: imports a submodule before its package, puts a relative folder on sys.path,
keeps a reference to __import__, adds a path hook, imports from two threads, or asks for an
import profile. Each script runs directly too, as the reference."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_launcher_stamps import PROBE, launch, make_project

LIB = 'sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))\n'


def _script(project: Path, text: str) -> None:
    (project / ".hookwrap" / "hooks" / "probe.py").write_text(text)


def _direct(project: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, str(project / ".hookwrap" / "hooks" / "probe.py")],
                          capture_output=True, text=True, cwd=project, env=env, timeout=60, check=False)
    return done.stdout.split()


def test_a_submodule_imported_first_runs_once(tmp_path: Path) -> None:
    """pkg/__init__.py imports pkg.base; `import pkg.base` first must not run base twice."""
    project = make_project(tmp_path / "p", sys.executable)
    (project / ".hookwrap" / "lib" / "pkg" / "base.py").write_text(
        'import builtins\nbuiltins.RUNS = getattr(builtins, "RUNS", 0) + 1\nBASE = "base"\n')
    from test_launcher_stamps import stamp
    stamp(project / ".hookwrap" / "lib", sys.executable)
    _script(project, "import builtins, os, sys\n" + LIB +
            "import pkg.base\nimport pkg\nprint(builtins.RUNS, pkg.BASE is pkg.base.BASE)\n")
    assert _direct(project) == ["1", "True"]
    assert launch(project) == ["1", "True"]


def test_a_relative_sys_path_entry_gives_absolute_module_paths(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    _script(project, "import os, sys\nsys.path.insert(0, '.hookwrap/lib')\nimport pkg\n"
                     "os.chdir(os.sep)\nfrom pkg import sub\nprint(os.path.isabs(pkg.__file__))\n")
    assert _direct(project) == ["True"]
    assert launch(project) == ["True"]


def test_a_saved_import_still_works_once_the_hook_runs(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    _script(project, "import builtins\nsaved = builtins.__import__\n"
                     "builtins.__import__ = lambda *a, **k: saved(*a, **k)\n" + PROBE)
    assert launch(project) == ["old", "old", "old", "launcher's"]


def test_a_path_hook_of_the_scripts_own_is_asked(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    _script(project, '''import os, sys, importlib.machinery as m
class F:
    def __init__(self, p):
        if not p.endswith("lib"):
            raise ImportError
    def find_spec(self, name, target=None):
        return m.ModuleSpec(name, self) if name == "mod_a" else None
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        module.VALUE = "hook"
    def invalidate_caches(self):
        pass
sys.path_hooks.insert(0, F)
sys.path_importer_cache.clear()
''' + LIB + "import mod_a\nprint(mod_a.VALUE)\n")
    assert _direct(project) == ["hook"]
    assert launch(project) == ["hook"]


def test_two_threads_importing_a_runtime_module_wait_for_it(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    (project / ".hookwrap" / "lib" / "mod_a.py").write_text(
        'import time\ntime.sleep(0.5)\nVALUE = "old"\n')
    from test_launcher_stamps import stamp
    stamp(project / ".hookwrap" / "lib", sys.executable)
    _script(project, "import os, sys, threading, time\n" + LIB + '''out = []
def load():
    import mod_a
    out.append(getattr(mod_a, "VALUE", "half"))
threads = [threading.Thread(target=load) for _ in range(2)]
threads[0].start(); time.sleep(0.1); threads[1].start()
for t in threads:
    t.join()
print(*out)
''')
    assert _direct(project) == ["old", "old"]
    assert launch(project) == ["old", "old"]


def test_profileimporttime_in_the_environment_is_left_to_python(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPROFILEIMPORTTIME"] = "1"
    done = subprocess.run([sys.executable, str(project / ".hookwrap" / "lib" / "run.py"), "probe"],
                          capture_output=True, text=True, cwd=project, env=env, timeout=60, check=False)
    assert "| mod_a" in done.stderr


def test_odd_import_arguments_get_the_builtins_own_errors(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", sys.executable)
    _script(project, "import os, sys\n" + LIB + '''calls = [
    lambda: __import__("base", ["x"], None, (), 1),
    lambda: __import__([]),
    lambda: __import__("base", {"__package__": "pkg"}, None, (), -1),
    lambda: __import__("base", {"__package__": "pkg"}, None, (), "1"),
    lambda: __import__("mod_a", None, None, 1),
    lambda: __import__(""),
]
for call in calls:
    try:
        call()
        print("ok")
    except Exception as error:
        print(type(error).__name__, str(error).replace(" ", "_") or "-")
print("pkg" in sys.modules, "pkg.base" in sys.modules)
''')
    direct = _direct(project)
    assert len(direct) == 13 and direct[-2:] == ["False", "False"]
    assert launch(project) == direct
