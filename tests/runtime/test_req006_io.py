"""REQ-006.8-9: read_stdin, write_stdout, format_hook_error, output_hook_error."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys

import pytest

from hookwrap import format_hook_error, output_hook_error, read_stdin, write_stdout


class _TtyStdin(io.StringIO):
    reads = 0

    def isatty(self) -> bool:
        return True

    def read(self, *args: object) -> str:
        type(self).reads += 1
        return "should not be read"


class _BrokenStdin:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    def isatty(self) -> bool:
        return False

    def read(self, *args: object) -> str:
        raise self.error

    @property
    def buffer(self) -> "_BrokenStdin":
        return self


# REQ-006.8.1-2


def test_req_006_8_1_tty_stdin_gives_empty_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _TtyStdin("{}"))
    assert read_stdin() == ""
    assert _TtyStdin.reads == 0


def test_req_006_8_1_real_terminal_gives_empty_string() -> None:
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", "import hookwrap; print(repr(hookwrap.read_stdin()))"],
            stdin=terminal, capture_output=True, timeout=30,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"''\n"


@pytest.mark.parametrize("error", [OSError("gone"), ValueError("I/O operation on closed file"), RuntimeError("x")])
def test_req_006_8_2_read_error_gives_empty_string(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    monkeypatch.setattr(sys, "stdin", _BrokenStdin(error))
    assert read_stdin() == ""


def test_req_006_8_2_closed_stdin_gives_empty_string(monkeypatch: pytest.MonkeyPatch) -> None:
    closed = io.StringIO("{}")
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    assert read_stdin() == ""


def test_req_006_8_2_missing_stdin_gives_empty_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert read_stdin() == ""


def test_read_stdin_reads_everything_as_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    data = '{"prompt": "héllo ✓"}\n'.encode() + b"\xff"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="latin-1"))
    assert read_stdin() == '{"prompt": "héllo ✓"}\n\ufffd'


def test_read_stdin_from_a_pipe_in_a_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import hookwrap, sys; sys.stderr.write(hookwrap.read_stdin())"],
        input=b'{"a": "\xc3\xa9"}', capture_output=True, timeout=30,
    )
    assert proc.stderr.decode("utf-8") == '{"a": "é"}'


# REQ-006.8.3


def test_req_006_8_3_write_stdout_prints_the_data(capsys: pytest.CaptureFixture[str]) -> None:
    write_stdout('{"decision": "block"}')
    captured = capsys.readouterr()
    assert captured.out == '{"decision": "block"}\n'
    assert captured.err == ""


def test_write_stdout_ignores_a_closed_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stdout", closed)
    write_stdout("{}")  # must not raise


def test_write_stdout_ignores_a_broken_pipe() -> None:
    code = (
        "import hookwrap, time, sys\n"
        "time.sleep(0.3)\n"
        "hookwrap.write_stdout('x' * 200000)\n"
        "sys.stderr.write('survived')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader goes away before the hook writes
    _, err = proc.communicate(timeout=30)
    assert b"survived" in err
    assert b"Traceback" not in err


# REQ-006.9


def _raise_value_error() -> None:
    raise ValueError("the disk is full")


def _caught() -> BaseException:
    try:
        _raise_value_error()
    except ValueError as error:
        return error
    raise AssertionError("unreachable")


def test_req_006_9_1_error_is_a_block_with_a_reason() -> None:
    document = format_hook_error(_caught())
    assert set(document) == {"decision", "reason"}
    assert document["decision"] == "block"
    assert isinstance(document["reason"], str)


def test_req_006_9_2_reason_has_header_context_type_message_and_traceback() -> None:
    reason = format_hook_error(_caught(), "PreToolUse hook")["reason"]
    lines = reason.splitlines()
    assert lines[0] == "Hook Script Error"
    assert "Context: PreToolUse hook" in lines
    assert "Error Type: ValueError" in lines
    assert "Error Message: the disk is full" in lines
    assert "Traceback (most recent call last):" in reason
    assert "in _raise_value_error" in reason
    assert 'raise ValueError("the disk is full")' in reason
    assert lines[-1] == "ValueError: the disk is full"
    order = [reason.index(s) for s in ("Hook Script Error", "Context:", "Error Type:", "Error Message:", "Traceback (")]
    assert order == sorted(order)


def test_req_006_9_2_context_is_optional() -> None:
    reason = format_hook_error(_caught())["reason"]
    assert "Context:" not in reason
    assert reason.startswith("Hook Script Error\nError Type: ValueError\nError Message: the disk is full\n")


def test_req_006_9_2_traceback_keeps_the_chained_cause() -> None:
    try:
        try:
            _raise_value_error()
        except ValueError as inner:
            raise KeyError("lookup") from inner
    except KeyError as error:
        reason = format_hook_error(error)["reason"]
    assert "The above exception was the direct cause" in reason
    assert "ValueError: the disk is full" in reason
    assert "Error Type: KeyError" in reason


def test_format_hook_error_survives_an_unprintable_exception() -> None:
    class Nasty(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no str for you")

    reason = format_hook_error(Nasty())["reason"]
    assert "Error Type: Nasty" in reason
    assert "Error Message: <unprintable Nasty>" in reason


def test_format_hook_error_of_an_unraised_exception() -> None:
    reason = format_hook_error(OSError(28, "No space left on device"))["reason"]
    assert "Error Type: OSError" in reason
    assert "Error Message: [Errno 28] No space left on device" in reason


def test_req_006_9_3_output_hook_error_prints_the_json(capsys: pytest.CaptureFixture[str]) -> None:
    error = _caught()
    output_hook_error(error, "Stop hook")
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 1
    assert json.loads(captured.out) == format_hook_error(error, "Stop hook")
