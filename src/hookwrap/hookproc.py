"""Run a hook's command as a child process, within bounds that nothing it does can stretch.

One function, ``run``, for everything that starts a hook command and reads its answer: the
bridge of an external hook, Cline's dispatcher, `hookwrap test` and `doctor`. The command gets a
process group of its own (a new session), and:

- the wait ends at ``timeout``, then the whole group is killed (the command and the children it
  left in its group);
- the wait also ends ``grace`` seconds after the command itself exits, even when a process it
  started in the background still holds its stdout or stderr open: that process would otherwise
  set the length of the wait (a `sleep 600 &`, a daemon in a session of its own). What the
  command wrote before it exited is read by then; what is left in its group is killed, and a
  process that left the group is not waited for (``lingered``);
- at most ``cap`` bytes of each of stdout and stderr are kept; a command that writes more is
  stopped there (``overflow``), not read until memory runs out.

These bounds are POSIX's (a session, ``killpg``, ``select`` on pipes). On Windows, where only
Cline's dispatcher calls it (the Python form of its hook files), ``run`` bounds the wait by
``timeout`` alone (``_run_windows``): the command is then killed, what it started is not, and
output is capped only after it is read. Stdlib only; it imports nothing of hookwrap, so Cline's
dispatcher can load it from beside its own folder.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time

MAX_OUTPUT = 8 * 1024 * 1024  # bytes of stdout, and of stderr, kept from one run
GRACE_S = 0.5  # how long the pipes are read after the command exits
_POLL_S = 0.05  # how often a wait checks whether the command exited while its pipes stay open
_CHUNK = 65536
_WRITE = 512  # bytes written at a time: a pipe select() calls writable takes this many at once


class Finished:
    """What the command did. ``code``: its exit code, None when it did not exit on its own
    (``timed_out``, ``overflow``) or a signal ended it (``signal``). ``lingered``: a process it
    started still held its output when the wait ended. ``error``: why it could not start."""

    __slots__ = ("code", "error", "lingered", "overflow", "seconds", "signal", "stderr", "stdout",
                 "timed_out")

    def __init__(self, code: int | None, stdout: bytes = b"", stderr: bytes = b"",
                 seconds: float = 0.0, *, signum: int | None = None, timed_out: bool = False,
                 overflow: bool = False, lingered: bool = False, error: str = "") -> None:
        self.code, self.signal, self.stdout, self.stderr = code, signum, stdout, stderr
        self.seconds, self.timed_out, self.overflow = seconds, timed_out, overflow
        self.lingered, self.error = lingered, error

    def why(self, limit: float, cap: int = MAX_OUTPUT) -> str:
        """Why there is no answer ("" when the command exited on its own), in a few words."""
        if self.error:
            return self.error
        if self.timed_out:
            return f"timed out after {limit:g} seconds"
        if self.overflow:
            return f"wrote more than {cap // (1024 * 1024)} MiB and was stopped"
        if self.signal is not None:
            return f"killed by signal {self.signal}"
        return ""


def run(argv: list[str], data: bytes, *, timeout: float, cwd: str | None = None,
        env: dict[str, str] | None = None, cap: int = MAX_OUTPUT, grace: float = GRACE_S,
        term_wait: float = 0.0) -> Finished:
    """Run ``argv`` with ``data`` on its stdin; see the module docstring for the bounds.

    ``term_wait``: on timeout, send the group SIGTERM first and SIGKILL this many seconds later
    (a hook may end what it started in a session of its own on SIGTERM); 0: SIGKILL at once.
    """
    if os.name == "nt":
        return _run_windows(argv, data, timeout=timeout, cwd=cwd, env=env, cap=cap, grace=grace)
    start = time.monotonic()
    try:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0,
                                   start_new_session=True)
    except (OSError, ValueError) as error:
        return Finished(None, error=f"could not start {argv[0]}: {error}")
    out, err = bytearray(), bytearray()
    try:
        ended = _pump(process, data, out, err, start + max(timeout, 0.001), cap, grace)
    finally:
        for pipe in (process.stdin, process.stdout, process.stderr):
            _close(pipe)
    overflow = ended == "overflow"
    timed_out = ended == "timeout"
    if process.poll() is None:  # timed out, or wrote too much
        _kill_group(process, term_wait if timed_out else 0.0)
    lingered = ended == "lingered"
    if lingered:  # it exited; what it left in its group goes too
        _signal_group(process.pid, signal.SIGKILL)
    code = process.wait()
    seconds = time.monotonic() - start
    if timed_out or overflow:
        return Finished(None, bytes(out), bytes(err), seconds, timed_out=timed_out,
                        overflow=overflow, lingered=lingered)
    if code < 0:
        return Finished(None, bytes(out), bytes(err), seconds, signum=-code, lingered=lingered)
    return Finished(code, bytes(out), bytes(err), seconds, lingered=lingered)


def _run_windows(argv: list[str], data: bytes, *, timeout: float, cwd: str | None,
                 env: dict[str, str] | None, cap: int, grace: float) -> Finished:
    """``run`` without process groups or ``select`` on pipes (Windows has neither): the wait
    ends at ``timeout``; the command is then killed and its pipes read for ``grace`` s more."""
    start = time.monotonic()
    try:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, cwd=cwd, env=env)
    except (OSError, ValueError) as error:
        return Finished(None, error=f"could not start {argv[0]}: {error}")
    try:
        out, err = process.communicate(data, timeout=max(timeout, 0.001))
    except subprocess.TimeoutExpired:
        process.kill()
        try:
            out, err = process.communicate(timeout=grace)
        except subprocess.TimeoutExpired:  # what it started still holds the pipes
            out, err = b"", b""
        return Finished(None, out[:cap], err[:cap], time.monotonic() - start, timed_out=True)
    overflow = len(out) > cap or len(err) > cap
    return Finished(None if overflow else process.returncode, out[:cap], err[:cap],
                    time.monotonic() - start, overflow=overflow)


def _pump(process: subprocess.Popen[bytes], data: bytes, out: bytearray, err: bytearray,
          deadline: float, cap: int, grace: float) -> str:
    """Feed stdin and read stdout and stderr until both close and the command exits: "" then;
    else why the wait ended first ("timeout", "overflow", "lingered": a pipe still open
    ``grace`` s after the exit)."""
    pipes = (process.stdin, process.stdout, process.stderr)
    stdin, stdout, stderr = (pipe.fileno() for pipe in pipes)  # type: ignore[union-attr]
    sinks = {stdout: out, stderr: err}
    view = memoryview(data)
    with selectors.DefaultSelector() as selector:
        for fd in sinks:
            selector.register(fd, selectors.EVENT_READ)
        if data:
            selector.register(stdin, selectors.EVENT_WRITE)
        else:
            _close(process.stdin)
        exited = False
        while any(key.fd in sinks for key in selector.get_map().values()):
            if not exited and process.poll() is not None:
                exited = True
                deadline = min(deadline, time.monotonic() + grace)
            left = deadline - time.monotonic()
            if left <= 0:
                return "lingered" if exited else "timeout"
            for key, _ in selector.select(min(left, _POLL_S)):
                if key.fd == stdin:
                    view = _feed(selector, process.stdin, stdin, view)
                    continue
                chunk = _read(key.fd)
                if not chunk:
                    selector.unregister(key.fd)
                    continue
                sink = sinks[key.fd]
                sink += chunk[:cap - len(sink)]
                if len(sink) >= cap:
                    return "overflow"
    try:  # both pipes closed: the command may still run (it closed them itself)
        process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return "timeout"
    return ""


def _feed(selector: selectors.BaseSelector, pipe: object, fd: int, view: memoryview) -> memoryview:
    """Write the next piece of stdin; close it when all is written or the command stopped
    reading."""
    try:
        written = os.write(fd, view[:_WRITE])
    except OSError:  # BrokenPipeError: it exited without reading (all) of it
        written = len(view)
    view = view[written:]
    if not view:
        selector.unregister(fd)
        _close(pipe)
    return view


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, _CHUNK)
    except OSError:
        return b""


def _close(pipe: object) -> None:
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: None, no pipe
        pipe.close()  # type: ignore[attr-defined]


def _kill_group(process: subprocess.Popen[bytes], term_wait: float) -> None:
    """End the command's whole group: SIGTERM and ``term_wait`` seconds, then SIGKILL."""
    if term_wait > 0:
        _signal_group(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=term_wait)
    _signal_group(process.pid, signal.SIGKILL)


def _signal_group(pgid: int, number: int) -> None:
    with contextlib.suppress(OSError):  # ProcessLookupError: nothing is left in it
        os.killpg(pgid, number)
