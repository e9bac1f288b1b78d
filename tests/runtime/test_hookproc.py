"""hookproc.run: no hook command stretches a wait past its bounds (hookproc.py's docstring).

Each case is a command that would hold a plain ``communicate()`` for 30 s or more (a background
child holding the pipes, in the command's group or in a session of its own; a hang; a flood);
the bounds here are fractions of a second, so a pass takes about one.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookwrap import hookproc

# A process that leaves the command's group and session, then holds what it inherited.
ESCAPE = f"{sys.executable} -c 'import os, time; os.setsid(); time.sleep(30)'"


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    """Pids a case printed on stderr; killed after it, whatever happened."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _run(command: str, data: bytes = b"{}", **bounds: float) -> tuple[hookproc.Finished, float]:
    start = time.monotonic()
    done = hookproc.run(["/bin/sh", "-c", command], data, **{"timeout": 5.0, "grace": 0.3, **bounds})
    return done, time.monotonic() - start


def _pids(done: hookproc.Finished, leftovers: list[int]) -> list[int]:
    found = [int(word) for word in done.stderr.split() if word.isdigit()]
    leftovers.extend(found)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): it is dead, waiting for its parent (init) to reap it.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_background_child_in_its_group_neither_holds_the_answer_nor_outlives_it(
        leftovers: list[int]) -> None:
    done, took = _run("echo '{\"ok\": 1}'; sleep 30 & echo $! >&2")
    [pid] = _pids(done, leftovers)
    assert took < 2 and done.code == 0 and done.stdout == b'{"ok": 1}\n' and done.lingered
    time.sleep(0.1)
    assert not _alive(pid)


def test_a_child_in_a_session_of_its_own_does_not_hold_the_answer(leftovers: list[int]) -> None:
    done, took = _run(f"{ESCAPE} & echo $! >&2; echo answered")
    _pids(done, leftovers)
    assert took < 2, took
    assert (done.code, done.stdout, done.lingered, done.timed_out) == (0, b"answered\n", True, False)


def test_a_hang_ends_at_the_timeout_even_with_an_escaped_child(leftovers: list[int]) -> None:
    done, took = _run(f"{ESCAPE} & echo $! >&2; sleep 30", timeout=0.5)
    _pids(done, leftovers)
    assert took < 2, took
    assert done.timed_out and done.code is None and done.why(0.5) == "timed out after 0.5 seconds"


def test_a_command_that_closes_its_pipes_and_runs_on_is_still_timed_out() -> None:
    done, took = _run("exec >&- 2>&-; sleep 30", timeout=0.5)
    assert took < 2 and done.timed_out and done.code is None


def test_a_flood_stops_at_the_cap() -> None:
    done, took = _run("yes hookwrap", cap=1024 * 1024)
    assert took < 3 and done.overflow and done.code is None
    assert len(done.stdout) == 1024 * 1024 and done.stdout.startswith(b"hookwrap\nhookwrap\n")
    assert done.why(5.0, 1024 * 1024) == "wrote more than 1 MiB and was stopped"


def test_sigterm_comes_first_when_asked_so_a_hook_can_end_what_it_started(tmp_path: Path) -> None:
    mark = tmp_path / "mark"
    done, took = _run(f"trap 'echo ended by TERM > {mark}; exit 0' TERM; sleep 30 & wait",
                      timeout=0.3, term_wait=3.0)
    assert took < 3 and done.timed_out and mark.read_text() == "ended by TERM\n"


def test_stdin_goes_whole_to_a_reader_and_is_dropped_by_a_command_that_exits() -> None:
    data = bytes(range(256)) * 2000  # 512 kB: more than a pipe holds, both ways
    done, _ = _run("cat", data)
    assert done.code == 0 and done.stdout == data and not done.lingered
    done, took = _run("exit 3", data)
    assert took < 2 and done.code == 3


def test_a_signal_and_a_missing_program_are_told() -> None:
    done, _ = _run("kill -9 $$")
    assert (done.code, done.signal, done.why(5.0)) == (None, 9, "killed by signal 9")
    done = hookproc.run(["/nonexistent/hook"], b"", timeout=1.0)
    assert done.code is None and done.why(1.0).startswith("could not start /nonexistent/hook:")
