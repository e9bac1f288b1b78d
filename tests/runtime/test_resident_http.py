"""The resident server's HTTP handling: a refused request never becomes two, the server holds
concurrent calls, and a kept-alive connection answers at once (docs/resident.md).

Everything here talks to an in-process ``HookServer`` on 127.0.0.1 over raw sockets, so the
exact bytes on the wire are what is checked. The hook records each run in a file: a request the
server refuses must leave it untouched.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookwrap.generator.project import add_plan, init_plan
from hookwrap.server import HookServer

MARKING_HOOK = '''\
import os

def hook(event):
    with open(os.path.join(os.path.dirname(__file__), "runs.log"), "a") as log:
        log.write(event.tool_input.get("command", "") + "\\n")
    return None
'''


def _start(root: Path) -> tuple[HookServer, int]:
    server = HookServer(str(root), 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, server.server_address[1]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    root = tmp_path / "repo"
    hooks = root / ".hookwrap" / "hooks"
    hooks.mkdir(parents=True)
    (root / "hookwrap.toml").write_text("version = 1\n")
    (hooks / "mark.py").write_text(MARKING_HOOK)
    server, port = _start(root)
    yield root, port
    server.shutdown()
    server.server_close()


def _runs(root: Path) -> list[str]:
    log = root / ".hookwrap" / "hooks" / "runs.log"
    return log.read_text().splitlines() if log.exists() else []


def _payload(cwd: Path, command: str) -> bytes:
    return json.dumps({"session_id": "s-1", "cwd": str(cwd), "hook_event_name": "PreToolUse",
                       "tool_name": "Bash", "tool_input": {"command": command}}).encode()


def _request(method: str, path: str, body: bytes, headers: dict[str, str]) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items())]
    if "Content-Length" not in headers and "Transfer-Encoding" not in headers:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _good(port: int, cwd: Path, command: str, *, last: bool = False) -> bytes:
    """A request the server answers with 200 and runs the hook for (``last``: the client
    closes the connection after it)."""
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    if last:
        headers["Connection"] = "close"
    return _request("POST", "/hookwrap/claude/mark", _payload(cwd, command), headers)


def _exchange(port: int, data: bytes, *, wait: float = 3.0) -> tuple[bytes, bool]:
    """Send ``data`` at once; everything the server sends back, and whether it closed the
    connection (False: it still waited for more after ``wait`` seconds)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        received = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    return received, True
                received += chunk
        except socket.timeout:
            return received, False
        except ConnectionResetError:
            return received, True


def _statuses(received: bytes) -> list[int]:
    return [int(line.split()[1]) for line in received.split(b"\r\n")
            if line.startswith(b"HTTP/1.")]


# (what is wrong with the outer request, its method, path, headers, the status it gets)
REFUSALS = [
    ("text/plain, as a page posts cross-site without a preflight", "POST", "/hookwrap/claude/mark",
     {"Content-Type": "text/plain"}, 415),
    ("a rebound DNS name in Host", "POST", "/hookwrap/claude/mark",
     {"Host": "rebound.example:{port}", "Content-Type": "application/json"}, 403),
    ("a path that is no hook's", "POST", "/hookwrap/claude/Not.A.Hook",
     {"Content-Type": "application/json"}, 404),
    ("a CLI hookwrap does not know", "POST", "/hookwrap/nosuchcli/mark",
     {"Content-Type": "application/json"}, 404),
    ("a GET of another path", "GET", "/hookwrap/nothing", {}, 404),
    ("a GET of health from a rebound name", "GET", "/hookwrap/health",
     {"Host": "rebound.example:{port}"}, 403),
    ("a method the server has no route for", "PUT", "/hookwrap/claude/mark",
     {"Content-Type": "application/json"}, 501),
]


@pytest.mark.parametrize(("why", "method", "path", "headers", "status"), REFUSALS,
                         ids=[row[0] for row in REFUSALS])
def test_a_request_inside_a_refused_request_s_body_is_never_run(
        served, why: str, method: str, path: str, headers: dict[str, str], status: int) -> None:
    root, port = served
    inner = _good(port, root, "SMUGGLED")
    outer_headers = {"Host": f"127.0.0.1:{port}",
                     **{k: v.format(port=port) for k, v in headers.items()}}
    received, closed = _exchange(port, _request(method, path, inner, outer_headers))
    assert _statuses(received) == [status], received
    assert closed, "the connection stayed open after a refusal: its body could be read as a request"
    assert _runs(root) == []
    # The server is fine afterwards: a proper call runs the hook once.
    received, _ = _exchange(port, _good(port, root, "proper", last=True))
    assert _statuses(received) == [200] and _runs(root) == ["proper"]


def test_a_gets_body_is_not_read_as_a_second_request(served) -> None:
    """A health check answers 200, but a body it came with is read and dropped, never parsed."""
    root, port = served
    inner = _good(port, root, "SMUGGLED")
    received, closed = _exchange(port, _request("GET", "/hookwrap/health", inner,
                                                {"Host": f"127.0.0.1:{port}"}))
    assert _statuses(received) == [200] and closed, received
    assert _runs(root) == []


@pytest.mark.parametrize("case", ["another project's cwd (409)", "a missing script (500)",
                                  "bad Content-Length (400)", "chunked body (501)"])
def test_any_error_answer_closes_the_connection(served, tmp_path: Path, case: str) -> None:
    """After a 4xx/5xx nothing more is read from the connection, even a well-formed request
    that follows the refused one's body."""
    root, port = served
    host = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    follower = _good(port, root, "FOLLOWER")
    if case.startswith("another project"):
        first = _request("POST", "/hookwrap/claude/mark", _payload(tmp_path, "x"), host)
        status = 409
    elif case.startswith("a missing script"):
        first = _request("POST", "/hookwrap/claude/nosuch", _payload(root, "x"), host)
        status = 500
    elif case.startswith("bad Content-Length"):
        first = _request("POST", "/hookwrap/claude/mark", b"", {**host, "Content-Length": "-5"})
        status = 400
    else:  # the body's length is not in the headers: it cannot be told from what follows
        first = _request("POST", "/hookwrap/claude/mark", b"", {**host, "Transfer-Encoding": "chunked"})
        status = 501
    received, closed = _exchange(port, first + follower)
    assert _statuses(received) == [status], received
    assert closed and b"Connection: close" in received
    assert _runs(root) == []


# Header values arrive as Latin-1: "\xb2" is "²", which str.isdigit() takes and int() does not.
ODD_HEADERS = [
    ("a superscript digit in Content-Length", [b"Content-Length: \xb2"], 400),
    ("a superscript one in Content-Length", [b"Content-Length: 1\xb9"], 400),
    ("two Host headers, the second a rebound name", [b"Host: rebound.example"], 403),
]


@pytest.mark.parametrize(("why", "extra", "status"), ODD_HEADERS, ids=[row[0] for row in ODD_HEADERS])
def test_an_odd_header_is_refused_not_crashed_on(served, why: str, extra: list[bytes],
                                                 status: int) -> None:
    """Only ASCII digits make a Content-Length, and only one Host header addresses the server:
    anything else is refused with an answer (a crash would leave the client none)."""
    root, port = served
    body = _payload(root, "ODD")
    lines = [b"POST /hookwrap/claude/mark HTTP/1.1", f"Host: 127.0.0.1:{port}".encode(),
             b"Content-Type: application/json", *extra]
    if not any(line.startswith(b"Content-Length") for line in extra):
        lines.append(f"Content-Length: {len(body)}".encode())
    received, closed = _exchange(port, b"\r\n".join(lines) + b"\r\n\r\n" + body)
    assert _statuses(received) == [status], received
    assert closed and _runs(root) == []


def test_a_refused_request_s_body_is_read_before_the_connection_closes(served) -> None:
    """The body is drained, so the client reads the refusal instead of a connection reset even
    when the body is large and arrives after the headers."""
    root, port = served
    body = b"x" * 300_000
    head = _request("POST", "/hookwrap/claude/mark", b"",
                    {"Host": f"127.0.0.1:{port}", "Content-Type": "text/plain",
                     "Content-Length": str(len(body))})
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head)
        time.sleep(0.2)  # the server answers before the body comes
        sock.sendall(body)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    assert _statuses(received) == [415] and received.endswith(b"}"), received[:200]
    assert _runs(root) == []


# --- load -------------------------------------------------------------------------------------

@pytest.fixture
def guarded(tmp_path: Path, isolated_home: Path) -> Iterator[tuple[Path, int]]:
    """A project with the rendered guard, resident, and its server."""
    root = tmp_path / "repo"
    root.mkdir()
    init_plan(root).apply()
    add_plan(root, event="before_tool", name="guard", resident=True).apply()
    server, port = _start(root)
    yield root, port
    server.shutdown()
    server.server_close()


def _post_guard_3(port: int, root: Path, commands: list[str]) -> list[tuple[int | str, dict]]:
    """Calls as Claude Code makes them, each on a connection of its own, all open at once:
    (status or the error, answer) for each."""
    import http.client

    connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in commands]
    results: list[tuple[int | str, dict]] = []
    try:
        sent = []
        for connection, command in zip(connections, commands):
            try:
                connection.request("POST", "/hookwrap/claude/guard", body=_payload(root, command),
                                   headers={"Content-Type": "application/json"})
                sent.append(connection)
            except OSError as error:
                results.append((type(error).__name__, {}))
        for connection in sent:
            try:
                response = connection.getresponse()
                text = response.read().decode()
                results.append((response.status, json.loads(text) if response.status == 200 else {}))
            except OSError as error:
                results.append((type(error).__name__, {}))
    finally:
        for connection in connections:
            connection.close()
    return results


def test_the_listen_backlog_holds_a_burst_of_connections(served) -> None:
    assert HookServer.request_queue_size >= 128  # socketserver's default of 5 resets a burst


def test_48_concurrent_calls_from_16_threads_all_get_their_answer(guarded) -> None:
    """48 calls at once, each thread holding 3 connections open: every call gets 200 (or the
    documented 503, never a reset), and the guard allows every fine call: load never makes
    it block one. Bounded: 48 calls, 30 s at most each, to 127.0.0.1."""
    root, port = guarded
    results: list[tuple[int | str, dict]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(16)

    def worker(index: int) -> None:
        barrier.wait()
        got = _post_guard_3(port, root, [f"ls -la dir{index}-{call}" for call in range(3)])
        with lock:
            results.extend(got)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    statuses = Counter(status for status, _ in results)
    assert len(results) == 48 and set(statuses) <= {200, 503}, statuses
    assert statuses[200] == 48, statuses  # a guard's call waits up to 8 s: no 503 at this load
    denied = [answer for _, answer in results
              if answer.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"]
    assert denied == []
    # ... and the guard still blocks what it must, with the same server.
    [(status, answer)] = _post_guard_3(port, root, ["git push --force origin main"])
    assert status == 200 and answer["hookSpecificOutput"]["permissionDecision"] == "deny"


# --- keep-alive -------------------------------------------------------------------------------

def test_a_kept_alive_answer_goes_out_whole_in_one_piece(served) -> None:
    """Claude Code keeps its connection open between calls. An answer written in two pieces
    (headers, then body) waits for the client's delayed acknowledgement, ~40 ms a call; one
    write arrives whole, so one read gets the headers and the complete body."""
    root, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        for call in range(5):
            sock.sendall(_good(port, root, f"call{call}"))
            first = sock.recv(65536)  # blocks until the first bytes arrive, takes what has
            head, _, body = first.partition(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            assert head.startswith(b"HTTP/1.1 200") and len(body) == length, first
            assert b"connection: close" not in head.lower()  # still kept alive
    assert _runs(root) == [f"call{i}" for i in range(5)]
