"""Stdin/stdout I/O and the error document a failed hook prints (REQ-006.8-9)."""

from __future__ import annotations

import json
import os
import sys

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO


def read_stdin() -> str:
    """Read the whole payload from stdin.

    Returns:
        The text read, decoded as UTF-8 (undecodable bytes replaced, a leading byte order mark
        dropped); ``""`` when stdin is a TTY, closed, or reading it fails for any reason
        (REQ-006.8.1-2).
    """
    try:
        stream = sys.stdin
        if stream is None or stream.isatty():
            return ""
        buffer: BinaryIO | None = getattr(stream, "buffer", None)
        if buffer is None:
            return stream.read()
        data = buffer.read()
        # A byte order mark before the payload (a PowerShell layer may add one) would make
        # json.loads refuse the whole text: drop it, and only there.
        return data.decode("utf-8-sig" if data[:3] == b"\xef\xbb\xbf" else "utf-8",
                           errors="replace")
    except Exception:
        return ""


def write_stdout(data: str) -> None:
    """Print ``data`` and a newline to stdout and flush (REQ-006.8.3), as UTF-8 bytes and
    ``\n`` on every OS.

    A closed pipe is ignored: the CLI has stopped listening and there is nobody to tell.
    """
    encoded = (data + "\n").encode("utf-8", errors="replace")
    try:
        stream = sys.stdout
        buffer: BinaryIO | None = getattr(stream, "buffer", None)
        if buffer is None:  # a stream without bytes below it (a test's StringIO): text it is
            print(data, file=stream, flush=True)
            return
        # UTF-8 and a bare \n whatever the text layer's encoding and newline: on Windows a
        # piped stdout is the ANSI code page with \r\n, and the CLIs decode UTF-8.
        stream.flush()
        buffer.write(encoded)
        buffer.flush()
    except ValueError:
        # The hook closed the stream object; file descriptor 1 itself is still the CLI's pipe.
        # (Not contextlib.suppress: that would import contextlib in every hook process.)
        try:  # noqa: SIM105
            os.write(1, encoded)
        except OSError:
            pass
    except OSError:
        pass


def _safe_str(value: object) -> str:
    try:
        return str(value)
    except Exception:
        return f"<unprintable {type(value).__name__}>"


def _traceback_text(error: BaseException) -> str:
    import traceback  # only on the error path: it is slow to import

    try:
        return "".join(traceback.format_exception(type(error), error, error.__traceback__))
    except Exception:
        return "<traceback unavailable>"


def format_hook_error(error: BaseException, context: str = "") -> dict[str, Any]:
    """Describe a hook failure as a blocking decision (REQ-006.9.1-2).

    Args:
        error: the exception the hook raised.
        context: optional words on where it happened (hook name, event).

    Returns:
        ``{"decision": "block", "reason": ...}`` where reason holds a "Hook Script Error" header,
        the context, the error type, its message and the full traceback.
    """
    lines = ["Hook Script Error"]
    if context:
        lines.append(f"Context: {context}")
    lines.append(f"Error Type: {type(error).__name__}")
    lines.append(f"Error Message: {_safe_str(error)}")
    lines.append("")
    lines.append("Traceback:")
    lines.append(_traceback_text(error).rstrip("\n"))
    return {"decision": "block", "reason": "\n".join(lines)}


def output_hook_error(error: BaseException, context: str = "") -> None:
    """Print format_hook_error's document as JSON on stdout (REQ-006.9.3)."""
    write_stdout(json.dumps(format_hook_error(error, context)))
