"""format when its formatter is missing or fails: the user is told, the model gets the error."""

from __future__ import annotations

import sys

import pytest
from support.hookrepo import HookRepo
from test_templates_behaviour import (  # noqa: F401
    PLATFORMS,
    after_write_payload,
    context_of,
    format_repo,
    write_format_manifest,
)

# --- format: a missing formatter is reported; a failing one explains itself ------------------

@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("command", ["no-such-formatter-xyz --fix", "sh -c 'exit 127'"])
def test_format_reports_a_missing_formatter_to_the_user(format_repo: HookRepo, platform: str, command: str) -> None:
    target = format_repo.write("src/app.py", "x = 1\n")
    write_format_manifest(format_repo, command=command)
    output = format_repo.run("format", platform, after_write_payload(platform, format_repo, str(target)))
    message = output["systemMessage"]
    assert command.split()[0] in message
    assert "command" in message and "hookwrap.toml" in message
    assert "decision" not in output and not context_of(platform, output)
    assert target.read_text() == "x = 1\n"


def test_format_gives_the_model_the_error_of_a_quiet_formatter(format_repo: HookRepo) -> None:
    # A stand-in for `ruff format --quiet`: with --quiet it fails without a word.
    format_repo.write("quiet_fmt.py", (
        "import sys\n"
        "if 'syntax error' in open(sys.argv[-1]).read():\n"
        "    if '--quiet' not in sys.argv:\n"
        "        print('error: Failed to parse ' + sys.argv[-1] + ':1:8: Expected an expression')\n"
        "    sys.exit(2)\n"
    ))
    write_format_manifest(format_repo, command=[sys.executable, "quiet_fmt.py", "--quiet"])
    target = format_repo.write("bad.py", "syntax error\n")
    output = format_repo.run("format", "claude", after_write_payload("claude", format_repo, str(target)))
    context = context_of("claude", output)
    assert "decision" not in output
    assert str(target) in context and "exit code 2" in context
    assert "Failed to parse" in context and "Expected an expression" in context


def test_format_passes_stderr_and_stdout_cut_to_a_bounded_size(format_repo: HookRepo) -> None:
    format_repo.write("loud_fmt.py", (
        "import sys\n"
        "print('stdout: ' + 'x' * 5000)\n"
        "sys.stderr.write('stderr: cannot parse line 3\\n')\n"
        "sys.exit(1)\n"
    ))
    write_format_manifest(format_repo, command=[sys.executable, "loud_fmt.py"])
    target = format_repo.write("bad.py", "x\n")
    output = format_repo.run("format", "gemini", after_write_payload("gemini", format_repo, str(target)))
    context = context_of("gemini", output)
    assert "stderr: cannot parse line 3" in context and "stdout: xxx" in context
    assert len(context) < 2500
