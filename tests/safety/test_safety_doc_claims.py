"""What the docs say about exit codes, `hookwrap test` and Gemini's after_tool block is so."""

from __future__ import annotations

import re
from pathlib import Path

from support.cli import hw_module as hw_process
from support.projects import init_project

REPO = Path(__file__).resolve().parents[2]


def _doc(name: str) -> str:
    return " ".join((REPO / name).read_text(encoding="utf-8").split())


def test_a_rejected_value_exits_2_as_documented(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    for args in (("add", "before_tol", "x"), ("add", "before_tool", "BAD"),
                 ("add", "before_tool", "x", "--timeout", "0")):
        assert hw_process(root, *args).returncode == 2, args
    assert hw_process(root, "remove", "nope").returncode == 1
    text = _doc("docs/troubleshooting.md")
    assert "an invalid hook name, a `--timeout` of 0) is a usage error and exits 2" in text
    assert "A value hookwrap rejects (an unknown event, a hook name that exists) exits 1" not in text
    assert "a value hookwrap rejects (an unknown event or template, an invalid hook name, a " \
           "`--timeout` of 0); 3" in _doc("docs/cli.md")


def test_a_hook_that_raises_makes_test_exit_1_as_documented(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw_process(root, "add", "before_tool", "broken").returncode == 0
    script = root / ".hookwrap/hooks/broken.py"
    script.write_text(re.sub(r"(def hook\(event: HookInput\).*?:\n)",
                             r'\1    raise ValueError("oops")\n', script.read_text(), count=1))
    done = hw_process(root, "test", "broken", "-p", "gemini", "--tool", "shell",
                      "--input", '{"command":"ls"}')
    assert done.returncode == 1
    assert "problem: the hook raised an exception" in done.stdout + done.stderr
    text = _doc("docs/troubleshooting.md")
    assert "`hookwrap test` names it as a problem, and the exit code is 1" in text
    assert "That counts as a clean run" not in text


def test_writing_hooks_try_it_shows_the_real_first_line(tmp_path: Path) -> None:
    root = init_project(tmp_path)
    assert hw_process(root, "add", "before_tool", "no-push", "--matcher", "shell").returncode == 0
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index('#!/usr/bin/env python3\n"""no-push')
    (root / ".hookwrap/hooks/no-push.py").write_text(readme[start:readme.index("```", start)])
    done = hw_process(root, "test", "no-push", "-v", "-p", "claude", "--tool", "shell",
                      "--input", '{"command":"pytest tests"}')
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == ('claude (PreToolUse): asks the user: no-push added -q to quieten pytest; '
                     'tool input rewritten to {"command": "pytest tests -q"}')
    assert f"\n{first}\n" in (REPO / "docs/writing-hooks.md").read_text(encoding="utf-8")


def test_gemini_after_tool_block_is_described_as_decisions_md_observed() -> None:
    assert '**Its result is replaced**: the model sees `{"error": "<reason>"}`' in \
        _doc("docs/decisions.md")
    for name in ("docs/writing-hooks.md", "docs/runner-contract.md"):
        text = _doc(name)
        assert 'the model sees `{"error": "<reason>"}`' in text, name
        assert "replaced by `Tool result blocked: <reason>`" not in text, name
        assert "with `Tool result blocked: <reason>`" not in text, name
