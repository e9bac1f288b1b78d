"""The runtime's stdin and stdout where Windows differs: a byte order mark before the payload,
and a stdout that Python on Windows opens in the ANSI code page with ``\\r\\n`` line ends.

The Windows stdout is reproduced as Python builds it there (a TextIOWrapper over the pipe with
``encoding="cp1252"`` and ``newline="\\r\\n"``), in a real subprocess writing to a real pipe.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hookwrap import normalize_input

BOM = b"\xef\xbb\xbf"
PAYLOAD = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "ls"}, "cwd": "C:\\Users\\Zoë"}

_WINDOWS_STDOUT = (
    "import io, sys\n"
    "sys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding='cp1252', newline='\\r\\n',\n"
    "                              errors='strict')\n"
)


def _python(code: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          timeout=30, check=False)


def test_a_bom_before_the_payload_is_dropped() -> None:
    data = BOM + json.dumps(PAYLOAD, ensure_ascii=False).encode("utf-8")
    proc = _python("import hookwrap, sys; sys.stderr.write(repr(hookwrap.read_stdin()))", data)
    read = eval(proc.stderr.decode("utf-8"))  # a repr of a str, written by the line above
    assert not read.startswith("\ufeff")
    # With the BOM left in, json.loads refuses the text and the hook sees an empty payload.
    assert normalize_input(read, "claude").tool_input == {"command": "ls"}


def test_a_bom_inside_the_text_is_kept() -> None:
    data = b'{"a": "' + BOM + b'x"}'
    proc = _python("import hookwrap, sys; sys.stderr.write(repr(hookwrap.read_stdin()))", data)
    assert eval(proc.stderr.decode("utf-8")) == '{"a": "\ufeffx"}'


@pytest.mark.parametrize("text", ["Zoë", "Zoë ✓"])  # cp1252 has ë, not ✓
def test_stdout_is_utf8_with_a_bare_newline_on_a_windows_stdout(text: str) -> None:
    code = _WINDOWS_STDOUT + f"import hookwrap; hookwrap.write_stdout({text!r})\n"
    proc = _python(code)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (text + "\n").encode()


def test_text_the_hook_printed_before_stays_before_the_answer() -> None:
    code = (_WINDOWS_STDOUT + "import hookwrap, sys\n"
            "sys.stdout.write('x')\n"  # buffered in the text layer, not yet on the pipe
            "hookwrap.write_stdout('{}')\n")
    assert _python(code).stdout == b"x{}\n"
