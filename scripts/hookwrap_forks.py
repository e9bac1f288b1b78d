"""`hookwrap` for the transcripts' sandboxes (gen_transcripts.py) without a fresh interpreter per
command: each `hookwrap ARGS` is forked from one server that has already imported hookwrap
(hookwrap.console.app, which ``python -m hookwrap`` imports before it runs: typer and every
CLI's module, and the modules the commands import as they run: ~85 ms of CPU a command), and
runs as that command would run: its argv, environment, working folder, stdin, stdout and
stderr, its exit code, what the end of its process does (threads joined, atexit callbacks).

    serve FD      (FD: a listening Unix socket; stdin: a pipe whose end stops the server)
                  imports hookwrap, then forks a child per connection, which forks the
                  command and answers its exit status
    connect PATH ARGS...
                  (a sandbox's `hookwrap`, run as ``python -I -S``) hands the server its
                  stdin, stdout, stderr, argv, environment and folder, waits, and exits as
                  the command did

The server starts in a sandbox's environment (its own throwaway HOME), and hookwrap reads
nothing of the environment at import, so a command sees what a fresh process sees.
Standard library only.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import socket
import sys
import threading


def _recv_all(conn: socket.socket) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _run_command(request: dict, fds: list[int]) -> None:
    """In the command's process: become ``python -m hookwrap ARGS`` and run it (never returns:
    SystemExit ends the process as it ends a fresh one)."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[0] = request["cwd"]  # as `python -m` puts the folder it starts in
    sys.argv = [request["main"], *request["argv"]]
    from hookwrap.console.app import main

    code: object
    try:
        code = main()
    except SystemExit as stop:
        code = stop.code
    # What the end of a fresh process does that anyone can see (threading's and atexit's
    # callbacks, the flush), without freeing the server's imports object by object.
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120  # what Python exits with when the final flush fails
    os._exit(int(code or 0))


def _serve_one(conn: socket.socket, listener: socket.socket, main: str) -> None:
    """In a child of the server: run one command in a child of its own, answer its status."""
    listener.close()  # (stdin, the server's stop pipe, stays open: no fd received is 0)
    _, fds, _, _ = socket.recv_fds(conn, 1, 3)
    request = {**json.loads(_recv_all(conn)), "main": main}
    pid = os.fork()
    if pid == 0:
        conn.close()
        _run_command(request, fds)
    for fd in fds:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    conn.sendall(os.waitstatus_to_exitcode(status).to_bytes(4, "big", signed=True))
    conn.close()
    os._exit(0)


def serve(fd: int) -> None:
    import importlib
    import importlib.util
    import pkgutil

    import hookwrap.checks
    import hookwrap.console.app  # what every command's process imports first
    import hookwrap.generator

    # and what the commands import when they run (a module's import defines names only)
    for package in (hookwrap.generator, hookwrap.checks):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)

    listener = socket.socket(fileno=fd)
    stop = sys.stdin.fileno()
    spec = importlib.util.find_spec("hookwrap.__main__")
    assert spec is not None and spec.origin is not None
    main = spec.origin  # sys.argv[0] of `python -m hookwrap`

    while True:
        ready, _, _ = select.select([listener, stop], [], [], 1.0)
        while True:  # reap the finished connection children
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if stop in ready and not os.read(stop, 1):
            return
        if listener in ready:
            conn, _ = listener.accept()
            if os.fork() == 0:
                _serve_one(conn, listener, main)
            conn.close()


def connect(path: str, argv: list[str]) -> int:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    socket.send_fds(conn, [b"\0"], [0, 1, 2])
    conn.sendall(json.dumps({"argv": argv, "env": dict(os.environ), "cwd": os.getcwd()}).encode())
    conn.shutdown(socket.SHUT_WR)
    code = int.from_bytes(_recv_all(conn), "big", signed=True)
    if code < 0:  # killed by a signal: so is this process
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    else:
        sys.exit(connect(sys.argv[2], sys.argv[3:]))
