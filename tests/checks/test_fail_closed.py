"""A fail-closed hook (the guard) blocks on all ten CLIs when it cannot judge a call.

Each case breaks a real project (`hookwrap init --platform all`, `hookwrap add before_tool
guard`) the way a teammate could, then runs the guard's registered command on every CLI as
`hookwrap test` does: through that CLI's shell, with its variables, on its payload, the answer
read by that CLI's rules. The bytes each CLI reads as a block are checked: exit 2, nothing on
stdout and the cause on stderr (Gemini CLI, Codex CLI and Qwen Code need stderr text with exit
2; Gemini CLI would prefer JSON on stdout to the exit code) when the hook cannot answer; the
CLI's own block document when the runtime could not read the call.
"""

from __future__ import annotations

import json
import os
import pwd
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import pytest
from support.cli import hw
from support.projects import from_template

from hookwrap.checks.hooktest import HookTestReport, run_hook_test
from hookwrap.generator.clis import setup_of
from hookwrap.names import Platform

GUARD = Path(".hookwrap/hooks/guard.py")
# pyenv's interpreters, in the real home (each test's HOME is a throwaway one).
PYENV = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".pyenv" / "versions"
OLD_PYTHONS = {"3.8": "3.8.18", "3.7": "3.7.16", "3.6": "3.6.15", "2.7": "2.7.18"}
BLOCKED = ", so the call is blocked; run `hookwrap doctor`"


def _ten_clis_with_a_guard(root: Path) -> None:
    assert hw(root, "init", "--platform", "all").code == 0
    # A 3 s timeout: the launcher's deadline is 2.1 s (3 s less answer_limit's 30%).
    assert hw(root, "add", "before_tool", "guard", "--timeout", "3").code == 0


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return from_template(tmp_path / "my project", _ten_clis_with_a_guard)


def _edit(root: Path, old: str, new: str) -> None:
    path = root / GUARD
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _typo(root: Path) -> str:
    _edit(root, "ALLOW_SECRET_READS = False\n", "ALLOW_SECRET_READS = False,,\n")
    return r"fails closed and could not start \(SyntaxError: invalid syntax \(guard\.py, line \d+\)\)"


def _missing_module(root: Path) -> str:
    (root / ".hookwrap/lib/hookwrap/guard_rules.py").unlink()
    return (r"fails closed and could not start \(ModuleNotFoundError: No module named "
            r"'hookwrap\.guard_rules'\)")


def _crash_at_import(root: Path) -> str:
    _edit(root, 'ALLOWED_PATHS: list[str] = []\n', 'ALLOWED_PATHS: list[str] = [] + None\n')
    return (r"fails closed and could not start \(TypeError: can only concatenate list \(not "
            r"\"NoneType\"\) to list\)")


def _hang(root: Path) -> str:
    """A guard that never answers, with the shortest timeout a user can set (1 s: the launcher's
    deadline is 0.6 s), through hookwrap.toml: a hang waits out the deadline on every CLI."""
    manifest = root / "hookwrap.toml"
    text = manifest.read_text(encoding="utf-8")
    assert "\ntimeout = 3\n" in text
    manifest.write_text(text.replace("\ntimeout = 3\n", "\ntimeout = 1\n", 1), encoding="utf-8")
    synced = hw(root, "sync")
    assert synced.code == 0 and "--fail-closed=0.6" in (root / ".claude/settings.json").read_text(
        encoding="utf-8"), synced.out + synced.err
    _edit(root, "\nGUARD = Guard(", "\nimport time; time.sleep(30)\nGUARD = Guard(")
    return r"fails closed and gave no answer within 0\.6 s"


CAUSES: dict[str, Callable[[Path], str]] = {
    "typo-in-policy": _typo, "runtime-module-deleted": _missing_module,
    "exception-at-import": _crash_at_import, "hang": _hang,
}


def _every_cli_once(report) -> None:
    """Every CLI ran the hook, each once per event it is registered on: Claude Code twice
    for a shell call (PreToolUse, and PreSkillShellCommand for a skill's inline commands)."""
    runs = sorted((test.platform, test.event) for test in report.tests)
    assert sorted({platform for platform, _ in runs}) == sorted(p.value for p in Platform), runs
    assert [event for platform, event in runs if platform == "claude"] == [
        "PreSkillShellCommand", "PreToolUse"], runs
    assert len(runs) == len(Platform) + 1, runs


def _test_on_every_cli(root: Path) -> HookTestReport:
    """`hookwrap test guard` with a shell call, its CLIs run side by side (a hang waits out the
    deadline once, not once per CLI), in the order `hookwrap test` runs them."""
    with ThreadPoolExecutor(len(Platform)) as pool:
        reports = list(pool.map(lambda p: run_hook_test(root, "guard", platform=p.value, tool="shell",
                                                        tool_input={"command": "ls"}), Platform))
    return HookTestReport("guard", [test for report in reports for test in report.tests])


def _assert_blocked_by_the_launcher(root: Path, cause: str) -> None:
    report = _test_on_every_cli(root)
    _every_cli_once(report)
    for test in report.tests:
        result, verdict = test.result, test.verdict
        assert result is not None and verdict is not None, test.summary
        # What every CLI reads as a block from a command: exit 2, stdout empty, stderr text.
        assert (result.exit_code, result.stdout, result.timed_out) == (2, "", False), \
            (test.platform, result)
        last = result.stderr.strip().splitlines()[-1]
        assert re.fullmatch(rf"hookwrap: (?:guard {cause}{BLOCKED} in the project|{cause})", last), \
            (test.platform, last)
        assert verdict.outcome == "blocked", (test.platform, verdict)


@pytest.mark.parametrize("cause", CAUSES)
def test_a_guard_that_cannot_answer_blocks_on_every_cli(project: Path, cause: str) -> None:
    _assert_blocked_by_the_launcher(project, CAUSES[cause](project))


@pytest.mark.parametrize("version", OLD_PYTHONS)
def test_a_guard_on_a_python_below_3_9_blocks_on_every_cli(project: Path, version: str) -> None:
    python = PYENV / OLD_PYTHONS[version] / "bin" / "python"
    if not python.is_file():
        pytest.skip(f"no Python {version} here ({python})")
    manifest = project / "hookwrap.toml"
    manifest.write_text(f'python = "{python}"\n' + manifest.read_text(encoding="utf-8"),
                        encoding="utf-8")
    synced = hw(project, "sync")  # writes the commands (it runs no interpreter the repo names)
    assert synced.code == 0 and "update  .claude/settings.json" in synced.out, synced.err
    assert str(python) in (project / ".claude" / "settings.json").read_text(encoding="utf-8")
    if version == "2.7":  # the launcher module does not even compile: run.py blocks
        cause = (r"the launcher cannot run on Python 2\.7\.\d+ \(invalid syntax "
                 r"\(_hookwrap_launcher\.py, line \d+\)\); run `hookwrap doctor`")
    else:
        cause = (rf"fails closed and could not start \(Python {re.escape(version)} is older than "
                 r"3\.9, the runtime's floor; set `python` in hookwrap\.toml\)")
    _assert_blocked_by_the_launcher(project, cause)


def test_hookwrap_test_says_blocked_on_every_cli(project: Path) -> None:
    """N-H1: `gemini: allowed`, `codex: allowed`, `qwen: allowed`, `droid: allowed` before."""
    _typo(project)
    result = hw(project, "test", "guard", "--tool", "shell", "--input", '{"command": "ls"}')
    verdicts = dict(line.split(": ", 2)[:2] for line in result.out_lines
                    if line.split(":")[0].split(" (")[0] in {p.value for p in Platform})
    assert {label.split(" (")[0] for label in verdicts} == {p.value for p in Platform}
    assert set(verdicts.values()) == {"blocked"}, verdicts


def test_doctor_names_the_hook_and_the_cause_on_every_cli(project: Path) -> None:
    _missing_module(project)
    out = hw(project, "doctor", "--run-untrusted").out  # a throwaway HOME trusts no folder
    assert ("fail hook-runs: guard cannot start on any of its 10 CLIs (exit 2: "
            "ModuleNotFoundError: No module named 'hookwrap.guard_rules'); blocked on every one"
            ) in out


def test_doctor_says_a_hang_cut_by_the_deadline_is_a_hang(project: Path) -> None:
    _hang(project)
    out = hw(project, "doctor", "--run-untrusted").out  # a throwaway HOME trusts no folder
    assert ("fail hook-runs: guard hangs on any of its 10 CLIs: it gave no answer within 0.6 s "
            "(its fail-closed deadline, inside its 1 s timeout); blocked on every one") in out


# --- calls the runtime cannot read --------------------------------------------------------------

def _tool_input(platform: Platform, payload: dict[str, Any]) -> dict[str, Any]:
    """What holds the payload's tool input: Cline's is tool_call.input (`hookwrap test` also puts
    --input at the top, where Cline 3.0.65 sends nothing: dropped here)."""
    if platform is Platform.CLINE:
        payload.pop("tool_input", None)
        return payload["tool_call"]
    return payload


def _list_command(platform: Platform, payload: dict[str, Any]) -> bytes:
    holder = _tool_input(platform, payload)
    key = "input" if platform is Platform.CLINE else "tool_input"
    holder[key] = {"commands": [["rm", "-rf", "/"]]} if platform is Platform.CLINE else \
        {"command": ["rm", "-rf", "/"]}
    return json.dumps(payload).encode()


def _string_input(platform: Platform, payload: dict[str, Any]) -> bytes:
    holder = _tool_input(platform, payload)
    holder["input" if platform is Platform.CLINE else "tool_input"] = "rm -rf /"
    return json.dumps(payload).encode()


BAD_INPUT: dict[str, tuple[Callable[[Platform, dict[str, Any]], bytes], str]] = {
    "not-json": (lambda p, payload: b"rm -rf /\n", "the payload is not JSON"),
    "empty-stdin": (lambda p, payload: b"", "stdin was empty"),
    "command-is-a-list": (_list_command, "its command"),
    "tool-input-is-a-string": (_string_input, "its tool_input is a string, not an object"),
}


class _Fed:
    """A CLI's host rules, but that it writes ``make(its payload)`` to the hook's stdin."""

    def __init__(self, host: Any, make: Callable[[Platform, dict[str, Any]], bytes]) -> None:
        self.host, self.make = host, make

    def __getattr__(self, name: str) -> Any:
        return getattr(self.host, name)

    def stdin_bytes(self, agent: Any, payload: dict[str, Any]) -> bytes:
        return self.make(agent.platform, dict(payload))


def _feed(monkeypatch: pytest.MonkeyPatch, make: Callable[[Platform, dict[str, Any]], bytes]) -> None:
    """Every CLI writes ``make(its payload)`` to the hook's stdin."""
    for platform in Platform:
        agent = setup_of(platform)
        monkeypatch.setattr(agent, "host", _Fed(agent.host, make))


@pytest.mark.parametrize("kind", BAD_INPUT)
def test_a_guard_blocks_a_call_it_cannot_read_on_every_cli(project: Path, kind: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    make, why = BAD_INPUT[kind]
    _feed(monkeypatch, make)
    report = run_hook_test(project, "guard", tool="shell", tool_input={"command": "ls"})
    _every_cli_once(report)
    for test in report.tests:
        result, verdict = test.result, test.verdict
        assert result is not None and verdict is not None, test.summary
        assert result.exit_code == 0 and len(result.stdout.strip().splitlines()) == 1, result
        json.loads(result.stdout)  # the CLI's own block document
        assert verdict.outcome == "blocked", (test.platform, result.stdout)
        assert verdict.reason.startswith(f"hookwrap: guard could not read the call ({why}"), \
            (test.platform, verdict.reason)
        assert verdict.reason.endswith("); it fails closed, so the call is blocked")


def _skeleton_too(root: Path) -> None:
    _ten_clis_with_a_guard(root)
    assert hw(root, "add", "before_tool", "probe", "--matcher", "shell").code == 0


@pytest.mark.parametrize("kind", ["not-json", "empty-stdin"])
def test_a_hook_that_is_not_fail_closed_still_answers_nothing(tmp_path: Path, kind: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = from_template(tmp_path / "p", _skeleton_too)
    _feed(monkeypatch, BAD_INPUT[kind][0])
    report = run_hook_test(root, "probe", tool="shell", tool_input={"command": "ls"})
    _every_cli_once(report)
    for test in report.tests:
        assert test.result is not None and test.verdict is not None, test.summary
        assert (test.result.exit_code, test.result.stdout) == (0, "{}\n"), test.platform
        assert test.verdict.outcome == "allowed"
