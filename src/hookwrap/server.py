"""The resident mode: one long-lived process answers a project's hooks over loopback HTTP.

Claude Code can POST a hook's payload to a URL (``type: "http"`` entries) instead of starting a
process per call. This server imports each hook script once (again when the file changes) and
answers through the same runtime path as a command run: normalize, filter, call, denormalize,
never crash. It runs with the repo's vendored runtime and a plain python3:

    PYTHONPATH=.hookwrap/lib python3 -m hookwrap.server --root . --port 48620

Routes: ``POST /hookwrap/<platform>/<name>`` runs ``.hookwrap/hooks/<name>.py``;
``GET /hookwrap/health`` says which project this process serves. A call whose ``cwd`` belongs
to another project is refused (409): a server started from another checkout must not answer
for this one, and a refusal makes a fail-closed hook block. See docs/resident.md.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .names import Platform
from .platforms import runtime_of

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

HOST = "127.0.0.1"
HEALTH_PATH = "/hookwrap/health"
SERVICE = "hookwrap-serve"
_ROUTE = re.compile(r"^/hookwrap/(?P<platform>[a-z]+)/(?P<name>[a-z][a-z0-9_-]{0,63})$")
_DIGITS = re.compile(r"[0-9]+")
_MAX_BODY = 64 * 1024 * 1024
# A refused request's body is read and dropped (the client then reads the refusal, not a
# reset); the server waits at most this long for each piece of it.
_DRAIN_WAIT = 5.0
# Hooks were written for a process of their own: one call at a time, as the process-wide
# state a call changes (cwd, environment, file descriptor 1) is not shared safely.
_CALL_LOCK = threading.Lock()
# A call waits for the one running at most its own timeout minus this margin (never less than
# _MIN_WAIT), so the server answers 503 before the CLI gives up on the call; it stops waiting
# at once when the running call has outlived its own timeout (hung).
_WAIT_MARGIN = 2.0
_MIN_WAIT = 0.5
_POLL = 0.1


class Refused(Exception):
    """A request answered with an HTTP error (``status``) and why, not with a hook's answer:
    503 when another hook's call holds the server past this call's wait."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


class _Running:
    """The call that holds _CALL_LOCK: which hook, since when (monotonic), its timeout."""

    __slots__ = ("name", "started", "timeout")

    def __init__(self, name: str, timeout: float) -> None:
        self.name = name
        self.started = time.monotonic()
        self.timeout = timeout

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def hung(self) -> bool:
        return self.seconds() > self.timeout


_running: list[_Running] = []  # the call holding _CALL_LOCK, if any (a list: no global statement)


def busy() -> dict[str, Any] | None:
    """The running call, as /hookwrap/health shows it; None when the server is idle."""
    current = _running[0] if _running else None
    if current is None:
        return None
    return {"hook": current.name, "seconds": round(current.seconds(), 3),
            "timeout": current.timeout, "hung": current.hung()}


class HookLoader:
    """Each hook script's ``hook`` function, imported once and again when the file changes.

    The script runs as a module whose ``__name__`` is not ``"__main__"``, so its last lines
    (``raise SystemExit(main(hook))``) do not run; ``__file__`` is the script's real path.
    """

    def __init__(self, root: str) -> None:
        self.root = root
        self.hooks = os.path.join(root, ".hookwrap", "hooks")
        self._loaded: dict[str, tuple[tuple[int, int] | None, Callable[..., Any]]] = {}  # stamp, hook
        # Helper modules the scripts imported from .hookwrap/hooks/, with their file's stamp.
        self._helpers: dict[str, tuple[int, int] | None] = {}
        self._timeouts: dict[str, tuple[tuple[int, int] | None, float]] = {}
        self._lock = threading.Lock()
        # _helper_modules' last answer, and the state of sys.modules it was read from.
        self._scanned: tuple[tuple[int, str], dict[str, str]] | None = None

    def script(self, name: str) -> str:
        return os.path.join(self.hooks, f"{name}.py")

    def timeout(self, name: str) -> float:
        """``name``'s timeout in hookwrap.toml (what the CLI waits for an answer), in seconds."""
        from .options import manifest_entry, timeout_of

        stamp = _stamp(os.path.join(self.root, "hookwrap.toml"))
        with self._lock:
            cached = self._timeouts.get(name)
            if cached is not None and cached[0] == stamp:
                return cached[1]
        seconds = float(timeout_of(manifest_entry(self.root, name)))
        with self._lock:
            self._timeouts[name] = (stamp, seconds)
        return seconds

    def get(self, name: str) -> Callable[..., Any]:
        """The hook function; OSError when the script is missing, any error its import raises."""
        path = self.script(name)
        stamp = _stamp(path)
        with self._lock:
            if self._helpers_changed():
                self._forget_helpers()
            loaded = self._loaded.get(name)
            if loaded is None or loaded[0] != stamp:
                loaded = self._loaded[name] = (stamp, _import(path, name))
            return loaded[1]

    def note_helpers(self) -> None:
        """Record the stamp of each helper module a call imported for the first time."""
        with self._lock:
            for module, path in self._helper_modules().items():
                if module not in self._helpers:
                    self._helpers[module] = _stamp(path)

    def _helper_modules(self) -> dict[str, str]:
        """Modules imported from .hookwrap/hooks/ (not the scripts themselves): their files.
        Read again only when sys.modules has changed (its size, or its newest entry): going
        through every module twice a call was most of the server's own Python work a call."""
        modules = sys.modules
        state = (len(modules), next(reversed(modules.keys())))
        scanned = self._scanned
        if scanned is None or scanned[0] != state:
            scanned = self._scanned = (state, self._scan_modules())
        return scanned[1]

    def _scan_modules(self) -> dict[str, str]:
        prefix = self.hooks + os.sep
        found = {}
        for module, value in list(sys.modules.items()):
            path = getattr(value, "__file__", None)
            if isinstance(path, str) and path.startswith(prefix) \
                    and not module.startswith("hookwrap_resident."):
                found[module] = path
        return found

    def _helpers_changed(self) -> bool:
        return any(module in self._helpers and self._helpers[module] != _stamp(path)
                   for module, path in self._helper_modules().items())

    def _forget_helpers(self) -> None:
        """Drop every helper module and every script: each script imports them afresh."""
        import importlib

        for module in self._helper_modules():
            sys.modules.pop(module, None)
        self._helpers.clear()
        self._loaded.clear()
        importlib.invalidate_caches()


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


def _import(path: str, name: str) -> Callable[..., Any]:
    import types

    with open(path, "rb") as file:
        source = file.read()
    code = compile(source, path, "exec")
    module_name = f"hookwrap_resident.{name}"
    module = types.ModuleType(module_name)
    module.__file__ = path
    saved_path = list(sys.path)
    sys.modules[module_name] = module  # dataclasses and pickling look a module up by name
    try:
        exec(code, module.__dict__)
    finally:
        sys.path[:] = saved_path  # the script puts .hookwrap/lib in front: it is there already
    hook: Callable[..., Any] | None = module.__dict__.get("hook")
    if not callable(hook):
        raise TypeError(f"{path} defines no hook() function")
    return hook


def answer(loader: HookLoader, platform: Platform, name: str, raw: str, cwd: str) -> str:
    """The JSON document a command run of ``name`` would print for ``raw``, run as the CLI runs
    a command hook: in the call's ``cwd``, with the CLI's variables set."""
    from .runner import run_raw

    agent = runtime_of(platform)
    env = dict.fromkeys(agent.project_dir_vars[:1], loader.root)
    env.update(agent.hook_process_env)
    timeout = loader.timeout(name)
    _acquire(timeout)
    try:  # the lock goes back whatever fails below, a restore included (a deleted cwd)
        saved_path, saved_out, saved_cwd = list(sys.path), sys.stdout, os.getcwd()
        saved_env = {key: os.environ.get(key) for key in env}
        try:
            _running.append(_Running(name, timeout))
            # As in a command run, the script's directory comes first on the import path (its
            # helper modules import), and whatever the call adds to sys.path does not last.
            sys.path.insert(0, loader.hooks)
            hook = loader.get(name)
            os.environ.update(env)
            os.chdir(cwd)
            sys.stdout = out = io.StringIO()
            run_raw(hook, platform, raw)
            loader.note_helpers()
        finally:
            sys.path[:], sys.stdout = saved_path, saved_out
            for key, value in saved_env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            os.chdir(saved_cwd)
    finally:
        _running.clear()
        _CALL_LOCK.release()
    return out.getvalue().strip() or "{}"


def _acquire(timeout: float) -> None:
    """Take _CALL_LOCK, or refuse (503): when the running call has outlived its own timeout, or
    when this call has waited all it may (its ``timeout`` less a margin)."""
    deadline = time.monotonic() + max(_MIN_WAIT, timeout - _WAIT_MARGIN)
    while True:
        left = deadline - time.monotonic()
        if _CALL_LOCK.acquire(timeout=max(0.0, min(_POLL, left))):
            return
        current = _running[0] if _running else None
        if current is not None and current.hung():
            raise Refused(503, f"hook {current.name!r} has run for {current.seconds():.0f} s, "
                               f"past its timeout of {current.timeout:g} s: restart the server")
        if left <= 0:
            what = f"hook {current.name!r}" if current is not None else "another call"
            raise Refused(503, f"{what} still runs after "
                               f"{max(_MIN_WAIT, timeout - _WAIT_MARGIN):g} s")


def _declared_length(headers: Any) -> int | None:
    """The body's length by Content-Length (0 when there is none); None when it cannot be
    told: a Transfer-Encoding, or a Content-Length that is not one non-negative number."""
    if "Transfer-Encoding" in headers:
        return None
    values = headers.get_all("Content-Length") or []
    if not values:
        return 0
    # ASCII digits only: str.isdigit() and int() also take "²" or "٣", which no client sends.
    if len(values) != 1 or _DIGITS.fullmatch(values[0].strip()) is None:
        return None
    return int(values[0])


def _project_of(cwd: str) -> str:
    """The nearest directory at or above ``cwd`` that holds hookwrap.toml ("" when none): a
    call from a project nested in this one, or from outside it, is not this server's."""
    directory = os.path.realpath(cwd)
    while True:
        if os.path.isfile(os.path.join(directory, "hookwrap.toml")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return ""
        directory = parent


class _Handler(BaseHTTPRequestHandler):
    server: HookServer
    protocol_version = "HTTP/1.1"
    # Claude Code keeps its connection open between calls: with Nagle's algorithm a small
    # answer would wait for the client's delayed acknowledgement (~40 ms). Each answer also
    # goes out in one write (_send).
    disable_nagle_algorithm = True
    # The bytes of the current request's body not read yet; None when they cannot be told (no
    # request parsed, or a body without a usable Content-Length): then the connection closes.
    _unread: int | None = None

    def log_message(self, format: str, *args: Any) -> None:
        self.server.log(format % args)

    def handle_one_request(self) -> None:
        self._unread = None
        try:
            super().handle_one_request()
        except Refused as refused:
            self._send(refused.status, {"error": str(refused)})

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        self._unread = _declared_length(self.headers)
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's own refusals (an unknown method, a malformed request) go the same
        way as the server's: JSON, the body read, the connection closed."""
        short = message or self.responses.get(code, ("error",))[0]
        self._send(code, {"error": short})

    def _send(self, status: int, document: dict[str, Any] | str) -> None:
        """Answer in one write. A body this request left unread is read and dropped first, and
        after an error (4xx/5xx) or such a body the connection closes: a body is never parsed
        as a request of its own."""
        status = int(status)  # the base class passes HTTPStatus members
        body = (document if isinstance(document, str) else json.dumps(document)).encode("utf-8")
        if self._unread != 0:
            self._discard_body()
            self.close_connection = True
        if status >= 400:
            self.close_connection = True
        self.log_request(status)
        reason = self.responses.get(status, ("",))[0]
        head = [f"{self.protocol_version} {status} {reason}",
                f"Server: {self.version_string()}",
                f"Date: {self.date_time_string()}",
                "Content-Type: application/json",
                f"Content-Length: {len(body)}"]
        if self.close_connection:
            head.append("Connection: close")
        try:
            self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        except OSError:  # the client went away: nothing to answer
            self.close_connection = True

    def _discard_body(self) -> None:
        """Read and drop what is left of the body (when its length is known and within
        _MAX_BODY), so the client reads the answer rather than a reset; at most _DRAIN_WAIT
        seconds without a byte."""
        left = self._unread
        self._unread = 0
        if left is None or not 0 < left <= _MAX_BODY:
            return
        try:
            self.connection.settimeout(_DRAIN_WAIT)
            while left > 0:
                chunk = self.rfile.read(min(left, 65536))
                if not chunk:
                    return
                left -= len(chunk)
        except OSError:
            return

    def _read_body(self) -> bytes:
        """The request's body; refused (501, 400) when it cannot be read."""
        if "Transfer-Encoding" in self.headers:
            raise Refused(501, "Transfer-Encoding is not supported: send Content-Length")
        length = self._unread
        if length is None or length > _MAX_BODY:
            raise Refused(400, "bad Content-Length")
        self._unread = 0
        return self.rfile.read(length)

    def _check_host(self) -> None:
        """Refuse (403) a request not addressed to this very host and port: a page that
        rebinds its DNS name to 127.0.0.1 shows its own name in Host."""
        expected = f"{HOST}:{self.server.server_address[1]}"
        if self.headers.get_all("Host") != [expected]:  # one Host header: a second may differ
            raise Refused(403, f"Host must be {expected}")

    def do_GET(self) -> None:
        self._check_host()
        if self.path != HEALTH_PATH:
            raise Refused(404, f"no route {self.path}")
        running = busy()
        self._send(200, {"service": SERVICE, "root": self.server.root, "pid": os.getpid(),
                         "busy": running, "hung": bool(running and running["hung"])})

    def do_POST(self) -> None:
        match = _ROUTE.match(self.path)
        if match is None or match.group("platform") not in {p.value for p in Platform}:
            raise Refused(404, f"no route {self.path}")
        platform, name = Platform(match.group("platform")), match.group("name")
        # A web page can post to 127.0.0.1 too: only a JSON request (which a browser sends
        # cross-site only after a preflight this server never answers) addressed to this
        # very host and port (no DNS rebinding) is a CLI's.
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise Refused(415, "Content-Type must be application/json")
        self._check_host()
        raw = self._read_body().decode("utf-8", errors="replace")
        cwd = _cwd_of(raw)
        refusal = self._refusal(cwd)
        if refusal:
            self.server.log(f"{name}: refused: {refusal}")
            raise Refused(409, refusal)
        try:
            text = answer(self.server.loader, platform, name, raw,
                          cwd if cwd and os.path.isdir(cwd) else self.server.root)
        except Refused as error:  # a hung or slow call holds the server: fail, do not queue
            self.server.log(f"{name}: not run: {error}")
            raise
        except BaseException as error:  # a broken script: fail as a command run would
            self.server.log(f"{name}: cannot run {self.server.loader.script(name)}: "
                            f"{type(error).__name__}: {error}")
            raise Refused(500, f"{type(error).__name__}: {error}") from None
        self._send(200, text)

    def _refusal(self, cwd: str) -> str:
        """Why this server must not answer a call from ``cwd`` (empty: it may)."""
        if not cwd:
            return ""
        project = _project_of(cwd)
        if project != self.server.root:
            return f"this server answers for {self.server.root}, not for {project or cwd}"
        return ""


def _cwd_of(raw: str) -> str:
    """The payload's ``cwd`` ("" when there is none, or the payload is not JSON: the runtime
    answers a bad payload as a command run does). The body is parsed once here."""
    try:
        data = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        return ""
    cwd = data.get("cwd") if isinstance(data, dict) else None
    return cwd if isinstance(cwd, str) else ""


class HookServer(ThreadingHTTPServer):
    """The resident server of one project (loopback only)."""

    daemon_threads = True
    # Connections waiting to be accepted (socketserver's default of 5 resets a burst of calls;
    # the kernel caps it at net.core.somaxconn).
    request_queue_size = 1024

    def __init__(self, root: str, port: int, log: Callable[[str], None] | None = None) -> None:
        self.root = os.path.realpath(root)
        self.loader = HookLoader(self.root)
        self._log = log
        super().__init__((HOST, port), _Handler)

    def log(self, message: str) -> None:
        if self._log is not None:
            self._log(message)


def _stderr_log(message: str) -> None:
    try:
        sys.stderr.write(f"hookwrap serve: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    """``python3 -m hookwrap.server --root DIR --port N``: serve until interrupted."""
    import argparse

    parser = argparse.ArgumentParser(prog="python3 -m hookwrap.server",
                                     description="Answer a project's hooks over loopback HTTP.")
    parser.add_argument("--root", default=".", help="the project root (holds hookwrap.toml)")
    parser.add_argument("--port", type=int, required=True, help="TCP port on 127.0.0.1")
    args = parser.parse_args(argv)
    try:
        server = HookServer(args.root, args.port, _stderr_log)
    except OSError as error:
        _stderr_log(f"cannot listen on {HOST}:{args.port}: {error.strerror or error}")
        return 1
    _stderr_log(f"serving {server.root} on http://{HOST}:{args.port}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        return 130
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
