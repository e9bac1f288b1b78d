"""hookwrap's Cline hook files: rendered from hookwrap.json (golden), only hookwrap's own files
written or removed, a user's file of the same name kept and reported, and the file itself
answering a block when its hooks cannot (run with sh, as Cline runs it)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from hookwrap.checks import doctor
from hookwrap.generator.project import add_plan, init_plan, remove_plan, sync_plan
from hookwrap.names import Platform

HOOK_FILE = ".clinerules/hooks/PreToolUse"
JSON_FILE = ".clinerules/hooks/hookwrap.json"
FORCED_PUSH = "git push --force origin main"
DESTRUCTIVE = "rm -rf ~"  # data: the guard reads it, nothing runs it


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)
    init_plan(root, (Platform.CLINE,)).apply()
    return root


def _run_hook_file(root: Path, payload: dict, home: Path) -> dict:
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    done = subprocess.run(["sh", str(root / HOOK_FILE)], input=json.dumps(payload).encode(),
                          capture_output=True, cwd=root, env=env, timeout=60, check=False)
    return json.loads(done.stdout)


def _tool_call(root: Path, commands: list[str]) -> dict:
    return {"hookName": "tool_call", "taskId": "conv_1", "workspaceRoots": [str(root)],
            "tool_call": {"id": "call_0", "name": "run_commands", "input": {"commands": commands}}}


def test_the_hook_file_is_rendered_from_the_registrations(project: Path, check_golden) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    path = project / HOOK_FILE
    assert path.is_file() and not path.is_symlink()
    check_golden("settings/cline.PreToolUse", path.read_text(encoding="utf-8"))
    check_golden("settings/cline.hookwrap.json",
                 (project / ".clinerules/hooks/hookwrap.json").read_text(encoding="utf-8"))


def test_the_hook_file_runs_the_guard_and_answers_in_cline_s_words(project: Path, tmp_path: Path) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    blocked = _run_hook_file(project, _tool_call(project, ["ls", FORCED_PUSH]), tmp_path)
    assert blocked["overrideInput"] is None
    assert "rule git.push-force" in blocked["contextModification"]
    assert _run_hook_file(project, _tool_call(project, ["ls"]), tmp_path) == {}


def test_the_hook_file_blocks_itself_when_python_cannot_run(project: Path, tmp_path: Path) -> None:
    manifest = project / "hookwrap.toml"
    manifest.write_text('python = "/nonexistent/python3"\n' + manifest.read_text(), encoding="utf-8")
    add_plan(project, event="before_tool", name="guard").apply()
    answer = _run_hook_file(project, _tool_call(project, ["ls"]), tmp_path)
    assert answer["overrideInput"] is None
    assert answer["contextModification"].startswith("hookwrap: the fail-closed hooks of this call")


def test_a_user_s_file_of_the_same_name_is_kept_and_reported(project: Path) -> None:
    mine = project / HOOK_FILE
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("#!/bin/sh\necho '{}'\n", encoding="utf-8")
    (project / ".clinerules/hooks/TaskStart.sh").write_text("true\n", encoding="utf-8")
    plan = add_plan(project, event="before_tool", name="guard")
    plan.apply()
    assert mine.read_text(encoding="utf-8") == "#!/bin/sh\necho '{}'\n"
    [problem] = plan.problems
    assert problem.startswith(f"{HOOK_FILE} is not hookwrap's file: left as it is")
    assert "rename yours to .clinerules/hooks/PreToolUse.sh" in problem
    assert sync_plan(project).problems == plan.problems  # sync --check fails on it
    remove_plan(project, name="guard").apply()
    assert mine.is_file() and (project / ".clinerules/hooks/TaskStart.sh").is_file()


def test_remove_takes_out_only_hookwrap_s_file(project: Path) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    add_plan(project, event="after_tool", name="audit").apply()
    remove_plan(project, name="guard").apply()
    hooks = project / ".clinerules/hooks"
    assert sorted(p.name for p in hooks.iterdir()) == ["PostToolUse", "hookwrap.json"]
    remove_plan(project, name="audit").apply()
    assert not hooks.exists()


def test_a_symlinked_hook_file_is_reported(project: Path, tmp_path: Path) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    path = project / HOOK_FILE
    target = tmp_path / "elsewhere"
    path.rename(target)
    path.symlink_to(target)
    [problem] = sync_plan(project).problems
    assert problem.startswith(f"{HOOK_FILE} is a symlink, which Cline skips")


def test_doctor_fails_when_cline_looks_in_a_git_root_above(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True)
    root = tmp_path / "sub"
    root.mkdir()
    init_plan(root, (Platform.CLINE,)).apply()
    add_plan(root, event="before_tool", name="guard").apply()
    found = [f for f in doctor.diagnose(root, run_hooks=False) if f.check == "cline-workspace"]
    assert [f.status for f in found] == ["fail"]
    assert f"the git root is {tmp_path}" in found[0].message


def test_the_hook_file_answers_a_block_when_the_dispatcher_hangs(tmp_path: Path) -> None:
    # A python that never answers, and the watchdog shortened from 110 s to 2 s.
    from hookwrap.generator.clis.cline import SETUP, WATCHDOG_S, hook_file_text

    fake = tmp_path / "hanging-python"
    fake.write_text("#!/bin/sh\nexec sleep 60\n", encoding="utf-8")
    fake.chmod(0o755)
    handler = {"type": "command", "command": SETUP.command("guard", str(fake)), "name": "guard",
               "timeout": 10, "failClosed": True}
    text = hook_file_text("PreToolUse", [{"hooks": [handler]}])
    assert f"sleep {WATCHDOG_S} " in text
    hooks = tmp_path / "proj" / ".clinerules" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse").write_text(text.replace(f"sleep {WATCHDOG_S} ", "sleep 2 "),
                                      encoding="utf-8")
    start = time.monotonic()
    answer = _run_hook_file(tmp_path / "proj", _tool_call(tmp_path / "proj", ["ls"]), tmp_path)
    assert time.monotonic() - start < 15
    assert answer["overrideInput"] is None


def test_a_process_a_hook_leaves_behind_does_not_hold_the_answer(tmp_path: Path) -> None:
    """The hook answers and exits; a process it started in a session of its own keeps its
    stdout open for 20 s. The hook file answers at once (it waited for that process before,
    up to the hook's timeout and then to its 110 s watchdog)."""
    import signal
    import sys

    from hookwrap.generator.clis.cline import hook_file_text

    escaped = f"{sys.executable} -c 'import os, time; os.setsid(); time.sleep(20)'"
    command = f"cat > /dev/null; {escaped} & echo $! >&2; echo '{{\"contextModification\": \"seen\"}}'"
    handler = {"type": "command", "command": command, "name": "mine", "timeout": 10}
    root = tmp_path / "proj"
    hooks = root / ".clinerules" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse").write_text(hook_file_text("PreToolUse", [{"hooks": [handler]}]),
                                      encoding="utf-8")
    # The dispatcher the file runs, from the runtime as a project has it.
    lib = root / ".hookwrap" / "lib" / "hookwrap"
    lib.mkdir(parents=True)
    source = Path(__file__).resolve().parents[2] / "src" / "hookwrap"
    for module in ("hookproc.py", "clis/_cline_hooks.py"):
        (lib / module).parent.mkdir(parents=True, exist_ok=True)
        (lib / module).write_text((source / module).read_text(encoding="utf-8"), encoding="utf-8")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    start = time.monotonic()
    done = subprocess.run(["sh", str(hooks / "PreToolUse")], capture_output=True, cwd=root,
                          input=json.dumps(_tool_call(root, ["ls"])).encode(), env=env,
                          timeout=60, check=False)
    took = time.monotonic() - start
    for word in done.stderr.split():
        if word.isdigit():
            try:
                os.kill(int(word), signal.SIGKILL)
            except OSError:
                pass
    assert took < 5, (took, done.stderr)
    assert json.loads(done.stdout) == {"contextModification": "seen"}


def _name_python_windows(root: Path, words: str = "python") -> str:
    manifest = root / "hookwrap.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(f'python_windows = "{words}"\n' + text, encoding="utf-8")
    sync_plan(root).apply()
    return text


def test_python_windows_gives_the_python_form_and_its_absence_the_sh_bytes(
        project: Path, check_golden) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    posix = {rel: (project / rel).read_bytes() for rel in (HOOK_FILE, JSON_FILE)}
    text = _name_python_windows(project)
    check_golden("settings/cline.PreToolUse.windows.py",
                 (project / HOOK_FILE).read_text(encoding="utf-8"))
    handler = json.loads((project / JSON_FILE).read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["argvWindows"] == ["python", ".hookwrap/lib/run.py", "guard",
                                      "--fail-closed=7", "--platform", "cline"]
    # doctor: the hook file is the one this hookwrap writes, the Windows form lints clean.
    found = [f for f in doctor.diagnose(project, run_hooks=False, windows=True)
             if f.check in ("cline-hook-files", "windows-commands") and f.status != "ok"]
    assert found == []
    (project / "hookwrap.toml").write_text(text, encoding="utf-8")
    sync_plan(project).apply()
    assert {rel: (project / rel).read_bytes() for rel in posix} == posix


def _run_python_hook_file(root: Path, payload: dict, home: Path, cwd: Path) -> dict:
    """As Cline 3.0.65 runs a file whose first line names python3 off Windows: python3 FILE."""
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    done = subprocess.run(["python3", str(root / HOOK_FILE)], input=json.dumps(payload).encode(),
                          capture_output=True, cwd=cwd, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_python_form_runs_the_guard_from_a_subfolder(project: Path, tmp_path: Path) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    _name_python_windows(project)
    deep = project / "src" / "deep"
    deep.mkdir(parents=True)
    blocked = _run_python_hook_file(project, _tool_call(project, ["ls", DESTRUCTIVE]), tmp_path,
                                    deep)
    assert blocked["overrideInput"] is None
    assert "rule fs.rm-root-or-home" in blocked["contextModification"]
    assert _run_python_hook_file(project, _tool_call(project, ["ls"]), tmp_path, deep) == {}


def test_the_python_form_blocks_itself_when_the_dispatcher_cannot_load(
        project: Path, tmp_path: Path) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    _name_python_windows(project)
    (project / ".hookwrap/lib/hookwrap/clis/_cline_hooks.py").unlink()
    answer = _run_python_hook_file(project, _tool_call(project, ["ls"]), tmp_path, project)
    assert answer["overrideInput"] is None
    assert answer["contextModification"].startswith("hookwrap: the fail-closed hooks of this call")


def test_the_dispatcher_spawns_argv_windows_without_a_shell_on_windows(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dispatcher's Windows branch (run here on Linux): the handler's argvWindows, its
    .hookwrap/ word resolved against the project, spawned as it is; no shell reads it."""
    import sys

    from hookwrap.clis import _cline_hooks

    add_plan(project, event="before_tool", name="guard").apply()
    _name_python_windows(project)
    groups = json.loads((project / JSON_FILE).read_text())["hooks"]["PreToolUse"]
    handler = groups[0]["hooks"][0]
    argv = _cline_hooks.handler_argv(str(project), handler, windows=True)
    assert argv == ["python", os.path.join(str(project), ".hookwrap/lib/run.py"), "guard",
                    "--fail-closed=7", "--platform", "cline"]
    assert _cline_hooks.handler_argv(str(project), {"command": "x"}, windows=True) is None
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    monkeypatch.setattr(_cline_hooks, "WINDOWS", True)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(_cline_hooks, "_run_bounded", lambda: _posix_run)
    raw = json.dumps(_tool_call(project, [DESTRUCTIVE])).encode()
    answer = _cline_hooks.dispatch(str(project), "PreToolUse", groups, raw)
    assert answer["overrideInput"] is None
    assert "rule fs.rm-root-or-home" in answer["contextModification"]
    # A fail-closed handler with no Windows form blocks there, and says why.
    del handler["argvWindows"]
    answer = _cline_hooks.dispatch(str(project), "PreToolUse", groups, raw)
    assert answer["overrideInput"] is None
    assert "no Windows form (argvWindows)" in answer["contextModification"]


def _posix_run(argv: list[str], data: bytes, **kwargs):
    from hookwrap import hookproc

    assert argv[0] == "python", argv  # no shell between
    return hookproc.run(argv, data, **kwargs)


def test_hookproc_s_windows_run_reads_exit_output_and_timeout(tmp_path: Path) -> None:
    import sys

    from hookwrap import hookproc

    code = "import sys; sys.stdout.write(sys.stdin.read().upper()); sys.exit(3)"
    done = hookproc._run_windows([sys.executable, "-c", code], b"abc", timeout=30, cwd=None,
                                 env=None, cap=hookproc.MAX_OUTPUT, grace=0.5)
    assert (done.code, done.stdout, done.why(30)) == (3, b"ABC", "")
    slow = hookproc._run_windows([sys.executable, "-c", "import time; time.sleep(30)"], b"",
                                 timeout=0.5, cwd=None, env=None, cap=10, grace=0.5)
    assert slow.timed_out and slow.code is None and "timed out" in slow.why(0.5)
    missing = hookproc._run_windows([str(tmp_path / "nothing")], b"", timeout=1, cwd=None,
                                    env=None, cap=10, grace=0.5)
    assert missing.error.startswith("could not start")


def test_a_timeout_past_what_the_hook_file_gives_is_capped_and_said(project: Path) -> None:
    """reference/cline.md §5: Cline 3.0.65 kills a hook file after 120 s and runs the tool; the
    hook file's dispatcher gives all its hooks 100 s. A longer timeout was written as given, so
    hookwrap.json (and `hookwrap test`) promised a hook time that Cline never gives."""
    plan = add_plan(project, event="before_tool", name="slow", timeout=300)
    plan.apply()
    handler = json.loads((project / JSON_FILE).read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["timeout"] == 100
    assert any(w.startswith("Cline: timeout 300 s is cut to 100 s") for w in plan.warnings), \
        plan.warnings
    fast = add_plan(project, event="after_tool", name="fast", timeout=30)
    fast.apply()
    assert not any("timeout" in w for w in fast.warnings), fast.warnings


def test_doctor_says_a_timeout_past_what_the_hook_file_gives_is_cut(project: Path) -> None:
    add_plan(project, event="before_tool", name="guard").apply()
    path = project / JSON_FILE
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 300  # edited by hand
    path.write_text(json.dumps(data))
    found = [f for f in doctor.diagnose(project, run_hooks=False)
             if f.check == "commands" and "timeout 300" in f.message]
    assert [f.status for f in found] == ["warn"], found
    assert "100 s" in found[0].message and found[0].fix == "use 100"


def test_hookwrap_test_gives_a_hook_no_longer_than_the_hook_file_does() -> None:
    from hookwrap.checks.host import effective_timeout
    from hookwrap.generator.clis.kit import HookCommand

    assert effective_timeout(HookCommand("cline", "PreToolUse", "x", timeout_s=300)) == 100
    assert effective_timeout(HookCommand("cline", "PreToolUse", "x", timeout_s=30)) == 30
