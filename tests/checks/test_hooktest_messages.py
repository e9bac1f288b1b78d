"""`hookwrap test`'s one-line summary carries the message the CLI shows its user (systemMessage),
on every CLI, and says where a CLI does not show it: a stop_gate whose check could not run and a
format hook whose formatter is missing answer "allowed" plus that message, which is the whole
point of their answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwrap.checks.hooktest import run_hook_test, shown_to_user
from hookwrap.generator.clis.kit import Verdict
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.names import Platform

MISSING = "hookwrap-test-no-such-program"
# Where each CLI shows a hook's systemMessage, as the summary words it.
SHOWN = {
    "claude": "(shown to the user: ",
    "gemini": "(shown to the user: ",
    "codex": "(for the user: shown in the TUI only, not by `codex exec`: ",
    "qwen": "(for the user, but `qwen -p` does not show it: ",
    "copilot": "(systemMessage, which Copilot CLI was not seen to show: ",
    "opencode": "(printed for the user on OpenCode's stderr by the plugin: ",
    "droid": "(systemMessage, which Factory Droid was not seen to show: ",
    "pi": "(printed for the user by the extension (stderr, or a notice in pi's UI): ",
    "kilo": "(printed for the user on Kilo's stderr by the plugin: ",
    "cline": "(dropped: Cline shows a hook's user no message: ",
}


@pytest.fixture
def seven(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    init_plan(root, tuple(Platform)).apply()
    return root


def _set(root: Path, old: str, new: str) -> None:
    manifest = root / "hookwrap.toml"
    text = manifest.read_text()
    assert old in text
    manifest.write_text(text.replace(old, new))


def test_stop_gate_whose_check_cannot_run_says_so_in_the_summary(seven: Path) -> None:
    add_plan(seven, event="after_agent", name="stop_gate").apply()
    _set(seven, 'check = "python3 -m pytest -q"', f'check = "{MISSING} -q"')
    report = run_hook_test(seven, "stop_gate")
    assert [t.platform for t in report.tests] == [p.value for p in Platform]
    for test in report.tests:
        assert test.summary.startswith("allowed " + SHOWN[test.platform]), test.summary
        assert f"stop_gate: the check `{MISSING} -q` could not run" in test.summary
        assert "\n" not in test.summary


def test_format_with_a_missing_formatter_says_so_in_the_summary(seven: Path) -> None:
    add_plan(seven, event="after_tool", name="format").apply()
    _set(seven, 'command = ["ruff", "format", "--quiet"]', f'command = ["{MISSING}"]')
    (seven / "x.py").write_text("x=1\n")  # the file the call wrote
    report = run_hook_test(seven, "format", tool="write_file",
                           tool_input={"file_path": str(seven / "x.py"), "content": "x=1"})
    # Codex CLI writes files with apply_patch: its call carries a patch.
    patch = "*** Begin Patch\n*** Update File: x.py\n@@\n-x=1\n+x = 1\n*** End Patch\n"
    codex = run_hook_test(seven, "format", platform="codex", tool="write_file",
                          tool_input={"command": patch})
    # pi's write names its file `path`.
    pi = run_hook_test(seven, "format", platform="pi", tool="write_file",
                       tool_input={"path": str(seven / "x.py"), "content": "x=1"})
    tests = [t for t in report.tests if t.platform not in ("codex", "pi")] + codex.tests + pi.tests
    assert sorted(t.platform for t in tests) == sorted(p.value for p in Platform)
    for test in tests:
        assert test.summary.startswith("allowed " + SHOWN[test.platform]), test.summary
        assert f"format: `{MISSING}` is not installed" in test.summary


def test_a_long_message_is_cut_and_an_answer_without_one_adds_nothing() -> None:
    assert shown_to_user("claude", Verdict()) == ""
    long = shown_to_user("claude", Verdict(system_message="word\n" * 300))
    assert long.startswith(" (shown to the user: word word") and long.endswith("(-v shows it whole))")
    assert "\n" not in long and len(long) < 500
