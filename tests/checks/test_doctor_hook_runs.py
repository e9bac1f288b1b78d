"""Doctor's hook-runs check: every registered hook runs as its CLI runs it (the registered command,
the CLI's shell and variables, the interpreter the command names, a sample payload of its event)
and must answer what that CLI reads. Each test sets up what the file checks cannot see."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from hookwrap.checks import doctor, hookruns
from hookwrap.console.app import main
from hookwrap.generator.adopt import add_external_plan
from hookwrap.generator.clis.kit import FAIL, OK, WARN, Finding
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.generator.trust import record_trust
from hookwrap.names import Platform

LABELS = ("Claude Code", "Gemini CLI", "Codex CLI", "Qwen Code", "Copilot CLI", "OpenCode",
          "Factory Droid", "pi")
# What Python 3.9 prints for `def hook(event: HookInput) -> HookOutput | None:` at import.
TYPE_ERROR_3_9 = "TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'"


def runs(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.check == "hook-runs"]


def status(findings: list[Finding], check: str) -> set[str]:
    return {f.status for f in findings if f.check == check}


def trusted(root: Path, home: Path) -> None:
    """Every CLI with a trust gate trusts ``root``, so doctor's trust checks are ok."""
    record_trust(root, home=home, env={})


@pytest.fixture
def seven(tmp_path: Path) -> Path:
    """A project on every CLI hookwrap supports, with no hook yet."""
    root = tmp_path / "my repo"
    (root / ".git").mkdir(parents=True)  # Codex CLI loads .codex/ from a git repo's root
    init_plan(root, tuple(Platform)).apply()
    return root


def write_hook(root: Path, name: str, body: str) -> None:
    (root / ".hookwrap" / "hooks" / f"{name}.py").write_text(body)


def test_a_healthy_seven_cli_project_is_all_ok(seven: Path, isolated_home: Path) -> None:
    """Every kind of registration the project can have runs and answers: rendered templates,
    an external hook, Codex CLI's and Droid's walk-up commands, OpenCode's plugin command."""
    add_plan(seven, event="before_tool", name="guard").apply()
    add_plan(seven, event="after_tool", name="audit").apply()
    add_plan(seven, event="after_tool", name="format").apply()
    add_plan(seven, event="after_agent", name="stop_gate").apply()
    add_plan(seven, event="session_start", name="context").apply()
    add_external_plan(seven, event="before_tool", name="ext", command="cat > /dev/null; echo '{}'",
                      speaks=None, matcher="shell", platforms=[], timeout=None,
                      fail_closed=False).apply()
    manifest = seven / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace('check = "python3 -m pytest -q"',
                                                     'check = "true"'))
    trusted(seven, isolated_home)
    findings = doctor.diagnose(seven)
    assert [f for f in findings if f.status != OK] == []
    [ok] = runs(findings)
    assert ok.message.startswith("every hook ran as its CLI runs it") and ok.message.endswith(
        f"({6 * len(Platform) + 1} runs of 6 hooks)")  # 6 hooks on every CLI; Claude Code
    # also runs the before_tool one (the guard) before skills' inline shell commands


def test_a_hook_that_cannot_start_on_the_python_the_hooks_use_fails(
        seven: Path, tmp_path: Path) -> None:
    """README's example on Python 3.9: `-> HookOutput | None` without the __future__ import
    raises at import, exit 1, no JSON. A `python3` first on PATH that fails that way for hook
    runs (and is a working interpreter otherwise) stands in for 3.9."""
    add_plan(seven, event="before_tool", name="guard").apply()
    real = shutil.which("python3")
    assert real
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text(
        "#!/bin/sh\n"
        'case "$*" in *run.py*)\n'
        "  echo 'Traceback (most recent call last):' >&2\n"
        f'  echo "{TYPE_ERROR_3_9}" >&2\n'
        "  exit 1;;\n"
        "esac\n"
        f'exec "{real}" "$@"\n')
    (fake / "python3").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    findings = doctor.diagnose(seven, env=env, run_untrusted=True)
    # What only reads the files sees nothing wrong...
    assert status(findings, "startup") == status(findings, "python") == {OK}
    # ...and running the hook as each CLI would does.
    [found] = runs(findings)
    assert found.status == FAIL
    assert found.message.startswith(f"guard cannot start on any of its {len(Platform)} CLIs (exit 1: "
                                    + TYPE_ERROR_3_9)
    # What each CLI then does: the fail-closed guard blocks where it can, the rest fail open.
    assert "blocked on Claude Code" in found.message and "goes on without it on Gemini CLI" in found.message
    assert "from __future__ import annotations" in found.fix
    assert doctor.exit_code(findings) == 1
    # Without the hook runs, doctor would pass this project's hook.
    assert runs(doctor.diagnose(seven, env=env, run_hooks=False)) == []


def test_a_script_that_raises_at_import_fails_on_every_cli(seven: Path) -> None:
    add_plan(seven, event="before_tool", name="mine", platforms=["claude", "gemini", "codex"]).apply()
    write_hook(seven, "mine", f'raise TypeError("{TYPE_ERROR_3_9[len("TypeError: "):]}")\n')
    [found] = runs(doctor.diagnose(seven, run_untrusted=True))
    assert found.status == FAIL
    assert found.message.startswith("mine cannot start on any of its 3 CLIs (exit 1: " + TYPE_ERROR_3_9)
    assert "goes on without it on every one" in found.message


def test_a_hook_that_raises_in_hook_is_a_fail(seven: Path) -> None:
    add_plan(seven, event="before_tool", name="mine", platforms=["claude", "gemini"]).apply()
    script = seven / ".hookwrap" / "hooks" / "mine.py"
    script.write_text(script.read_text().replace("    return None", "    raise KeyError('x')", 1))
    [found] = runs(doctor.diagnose(seven, run_untrusted=True))
    assert found.status == FAIL and found.message.startswith("mine crashes on Claude Code and Gemini CLI")
    assert "KeyError" in found.message


def test_a_hanging_hook_fails_within_its_timeout_and_is_killed(seven: Path, tmp_path: Path) -> None:
    add_plan(seven, event="before_tool", name="slow", timeout=2).apply()
    pid_file = tmp_path / "pid"
    write_hook(seven, "slow", f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                              "time.sleep(60)\n")
    start = time.monotonic()
    [found] = runs(doctor.diagnose(seven, run_untrusted=True))
    took = time.monotonic() - start
    assert took < 30  # the 60 s sleep did not run out: the 2 s timeout stopped it
    assert found.status == FAIL
    assert found.message.startswith("slow hangs on Claude Code: it did not answer within its "
                                    "timeout (2 s) and was killed")
    # Once is enough: the hook is not started on the other CLIs to hang there too.
    assert found.message.endswith("(not started on Gemini CLI, Codex CLI, Qwen Code, Copilot CLI, "
                                  "OpenCode, Factory Droid, pi, Kilo CLI and Cline: it would take "
                                  "as long there)")
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_a_hook_slower_than_doctors_wait_is_not_judged(seven: Path, monkeypatch) -> None:
    monkeypatch.setattr(hookruns, "WAIT_S", 1.0)
    add_plan(seven, event="before_tool", name="slow", timeout=30,
             platforms=["claude", "gemini"]).apply()
    write_hook(seven, "slow", "import time\ntime.sleep(60)\n")
    start = time.monotonic()
    [found] = runs(doctor.diagnose(seven, run_untrusted=True))
    assert time.monotonic() - start < 20
    assert found.status == WARN
    assert found.message.startswith("slow did not answer on Claude Code within 1 s, doctor's wait "
                                    "(its timeout is 30 s): stopped, not judged")
    assert "not started on Gemini CLI" in found.message
    # A stop_gate's test suite may rightly take longer than doctor waits: the warning says
    # which command waits the hook's whole timeout, and how to skip the runs.
    assert found.fix.startswith("`hookwrap test slow -p claude` waits for it")
    assert "--no-run" in found.fix


def test_a_hook_answering_json_the_cli_ignores_fails(seven: Path) -> None:
    add_plan(seven, event="before_tool", name="odd", platforms=["claude", "gemini"]).apply()
    # Not hookwrap's runtime: the script prints a decision Claude Code does not know.
    write_hook(seven, "odd", 'import sys\nsys.stdin.read()\nprint(\'{"decision": "deny"}\')\n')
    found = runs(doctor.diagnose(seven, run_untrusted=True))
    assert [(f.status, f.message.split(":")[0]) for f in found] == [
        (FAIL, "odd on Claude Code answered what Claude Code does not read")]
    assert 'decision must be "approve" or "block"' in found[0].message


def test_a_resident_hook_needs_the_server(seven: Path, refused_port: int) -> None:
    port = refused_port  # a port nothing listens on
    manifest = seven / "hookwrap.toml"
    manifest.write_text(manifest.read_text() + f"\n[serve]\nport = {port}\n")
    add_plan(seven, event="before_tool", name="guard", resident=True, platforms=["claude"]).apply()
    found = runs(doctor.diagnose(seven, run_untrusted=True))
    assert [f.status for f in found] == [FAIL]
    assert found[0].message.startswith("guard on Claude Code is resident, and `hookwrap serve` did "
                                       "not answer it")
    assert found[0].fix.startswith("run `hookwrap serve`")


def test_no_run_skips_the_hooks(seven: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    add_plan(seven, event="before_tool", name="mine", platforms=["claude"]).apply()
    marker = tmp_path / "ran"
    write_hook(seven, "mine", f"open({str(marker)!r}, 'w').close()\nraise SystemExit(1)\n")
    monkeypatch.chdir(seven)
    assert main(["doctor", "--no-run"]) in (0, 1)
    assert "hook-runs" not in capsys.readouterr().out and not marker.exists()
    assert main(["doctor", "--run-untrusted"]) == 1
    assert "fail hook-runs: mine" in capsys.readouterr().out and marker.exists()


# --- only what a CLI would run: a folder the user trusts ------------------------------------------

MARKING = "import os, sys\nopen({marker!r} + '-' + sys.argv[-1], 'w').close()\nprint('{{}}')\n"


def _marking_hook(root: Path, tmp_path: Path, platforms: list[str] | None = None) -> Path:
    """A hook that leaves a file per CLI it runs on (``ran-<platform>``), on ``platforms``."""
    add_plan(root, event="session_start", name="mine", template="skeleton",
             platforms=platforms or []).apply()
    marker = tmp_path / "ran"
    write_hook(root, "mine", MARKING.format(marker=str(marker)))
    return marker


def _ran(marker: Path) -> set[str]:
    return {p.name.removeprefix("ran-") for p in marker.parent.glob("ran-*")}


def test_doctor_runs_nothing_of_a_folder_no_cli_trusts(seven: Path, tmp_path: Path) -> None:
    """A repo cloned to look at: Gemini CLI, Codex CLI and Copilot CLI would not run its hooks,
    and nothing records that the user trusts it, so no CLI's run is made; doctor says so."""
    marker = _marking_hook(seven, tmp_path)
    found = runs(doctor.diagnose(seven))
    assert _ran(marker) == set()
    messages = "\n".join(f.message for f in found)
    assert {f.status for f in found} == {WARN}, messages
    for label, check in (("Gemini CLI", "gemini-trust"), ("Codex CLI", "codex-trust"),
                         ("Copilot CLI", "copilot-trust")):
        said = next(f.message for f in doctor.diagnose(seven, run_hooks=False) if f.check == check)
        assert f"not run on {label} (1 registration): {said} ({check})" in messages, messages
    assert "not run on Claude Code, Qwen Code, OpenCode, Factory Droid, pi, Kilo CLI and Cline " \
           "(7 registrations): they do not ask for trust here" in messages, messages
    assert all("--run-untrusted" in f.fix for f in found)


def test_run_untrusted_runs_them_all(seven: Path, tmp_path: Path) -> None:
    marker = _marking_hook(seven, tmp_path)
    runs(doctor.diagnose(seven, run_untrusted=True))
    assert _ran(marker) == {p.value for p in Platform}


def test_trusting_the_folder_lets_doctor_run_every_cli_s_hooks(
        seven: Path, tmp_path: Path, isolated_home: Path) -> None:
    marker = _marking_hook(seven, tmp_path)
    trusted(seven, isolated_home)
    [ok] = runs(doctor.diagnose(seven))
    assert ok.status == OK and _ran(marker) == {p.value for p in Platform}


def test_a_claude_code_project_runs_once_its_trust_dialog_was_accepted(
        tmp_path: Path, isolated_home: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    init_plan(root, (Platform.CLAUDE,)).apply()
    marker = _marking_hook(root, tmp_path)
    [withheld] = runs(doctor.diagnose(root))
    assert withheld.status == WARN and _ran(marker) == set()
    assert withheld.message.startswith("not run on Claude Code (1 registration): it does not ask "
                                       "for trust here (it would run them once started here)")
    accepted = {"projects": {str(root): {"hasTrustDialogAccepted": True}}}
    (isolated_home / ".claude.json").write_text(json.dumps(accepted))
    [ok] = runs(doctor.diagnose(root))
    assert ok.status == OK and _ran(marker) == {"claude"}


def test_doctor_help_says_what_running_for_real_means(capsys) -> None:
    assert main(["doctor", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--run-untrusted" in text and "For real: each hook's code runs with your rights" in text


# --- bounded: nothing a hook does makes doctor wait past its bounds, or outlives it --------------

def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for init only
        return stat.read().rsplit(")", 1)[1].split()[0] == "Z"


def test_a_background_child_holding_stdout_does_not_hold_doctor(seven: Path, tmp_path: Path) -> None:
    """The hook answers and exits; a process it started (in a session of its own, out of reach
    of a kill of the hook's group) keeps stdout open for 30 s. doctor reads the answer and goes
    on (it waited for that child before: 46 s against its own 10 s bound)."""
    add_plan(seven, event="session_start", name="bg", template="skeleton",
             platforms=["claude"]).apply()
    pid_file = tmp_path / "pid"
    write_hook(seven, "bg", "import subprocess, sys\n"
               "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'], "
               "start_new_session=True)\n"
               f"open({str(pid_file)!r}, 'w').write(str(child.pid))\nprint('{{}}')\n")
    start = time.monotonic()
    try:
        [found] = runs(doctor.diagnose(seven, run_untrusted=True))
        took = time.monotonic() - start
    finally:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert took < 8, took
    assert found.status == OK, found.message


def test_a_flood_is_cut_and_reported_not_read_to_the_end(seven: Path) -> None:
    """A hook that writes 40 MiB: doctor keeps 8 MiB and stops it (an endless flood ended in a
    MemoryError)."""
    add_plan(seven, event="session_start", name="flood", template="skeleton",
             platforms=["claude"]).apply()
    write_hook(seven, "flood", "import sys\nfor _ in range(640):\n"
               "    sys.stdout.write('x' * 65536)\n")
    [found] = runs(doctor.diagnose(seven, run_untrusted=True))
    assert found.status == FAIL
    assert found.message.startswith("flood floods its output on Claude Code: it wrote more than "
                                    "8 MiB and was stopped"), found.message


def test_a_stop_gates_check_ends_with_the_hook_when_doctor_stops_waiting(
        seven: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(hookruns, "WAIT_S", 1.0)
    add_plan(seven, event="after_agent", name="stop_gate", platforms=["claude"]).apply()
    pid_file = tmp_path / "check-pid"
    manifest = seven / "hookwrap.toml"
    manifest.write_text(manifest.read_text().replace(
        'check = "python3 -m pytest -q"', f'check = "echo $$ > {pid_file}; exec sleep 30"'))
    try:
        [found] = runs(doctor.diagnose(seven, run_untrusted=True))
        assert found.status == WARN and "stopped, not judged" in found.message
        pid = int(pid_file.read_text())
        time.sleep(0.2)
        assert _gone(pid), "the check runs on after doctor"
    finally:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


def test_the_manifests_python_is_not_run_either_in_a_folder_nobody_trusts(
        tmp_path: Path, isolated_home: Path, monkeypatch) -> None:
    """`python = "bash tools/py.sh"` would run the repo's own script on doctor's interpreter
    check, even with --no-run: held like the hooks, run once the folder is trusted."""
    root = tmp_path / "repo"
    root.mkdir()
    init_plan(root, (Platform.CLAUDE, Platform.GEMINI)).apply()
    add_plan(root, event="before_tool", name="guard").apply()
    marker = tmp_path / "ran"
    (root / "tools").mkdir()
    (root / "tools" / "py.sh").write_text(f"touch {marker}\nexec python3 \"$@\"\n")
    manifest = root / "hookwrap.toml"
    manifest.write_text('python = "bash tools/py.sh"\n' + manifest.read_text())
    monkeypatch.chdir(root)
    found = [f for f in doctor.diagnose(root, run_hooks=False) if f.check == "python"]
    assert not marker.exists()
    assert [f.status for f in found] == [WARN]
    assert found[0].message.startswith("not run: hookwrap.toml's python = 'bash tools/py.sh' runs "
                                       "bash with the arguments it names")
    doctor.diagnose(root, run_hooks=False, run_untrusted=True)
    assert marker.exists()
    marker.unlink()
    trusted(root, isolated_home)
    found = [f for f in doctor.diagnose(root, run_hooks=False) if f.check == "python"]
    assert marker.exists() and [f.status for f in found] == [OK]
