"""Scripted loopback model server: the shared part of the Anthropic and Gemini mocks.

A test scripts the model as a list of steps (call this tool with this input, or answer with this
text). Each request to the model picks its step by counting the assistant/model turns already in
the conversation it carries, not by counting requests: the CLIs insert system messages (hook
context, environment blocks) and may retry, so only the history tells where the agent is. Every
request received is recorded, whatever its path.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

MAX_BODY_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_REQUESTS = 40


@dataclass(frozen=True)
class ToolCall:
    """The model calls one tool (platform tool name, full input) and waits for its result."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """The model answers with text and ends its turn."""

    text: str


Step = ToolCall | Reply


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    turn: int | None = None  # assistant/model turns already in the history; None: not a model call
    step: Step | None = None  # what the server answered with
    status: int = 200
    received_at: float = field(default_factory=time.monotonic)

    @property
    def text(self) -> str:
        """The whole body as JSON text, for substring checks."""
        return json.dumps(self.body, ensure_ascii=False)


class ScriptError(AssertionError):
    """A run did not follow the script (too many requests, unreadable body)."""


@dataclass
class _Script:
    steps: list[Step] = field(default_factory=list)
    final: Reply = field(default_factory=lambda: Reply("Done."))

    def pick(self, turn: int) -> Step:
        if turn < len(self.steps):
            return self.steps[turn]
        # Past the script (a stop hook asked for more work): keep ending the turn with text.
        last = self.steps[-1] if self.steps else None
        return last if isinstance(last, Reply) else self.final


class ScriptedModelServer:
    """Base class: a ThreadingHTTPServer on 127.0.0.1, an ephemeral port, one script at a time.

    Subclasses implement ``dispatch`` for their API. Bounded: bodies over ``MAX_BODY_BYTES`` are
    refused, and after ``max_requests`` model calls every further call gets a non-retryable 400,
    so a hook that loops forever ends the run instead of hanging it.
    """

    api_name = "model"

    def __init__(self, *, max_requests: int = DEFAULT_MAX_REQUESTS) -> None:
        self.max_requests = max_requests
        self._lock = threading.Lock()
        self._script = _Script()
        self._requests: list[Recorded] = []
        self._model_calls = 0
        self._counter = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle -----------------------------------------------------------------------------

    def start(self) -> ScriptedModelServer:
        handler = type("Handler", (_Handler,), {"owner": self})
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"mock-{self.api_name}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    # scripting and recording -----------------------------------------------------------------

    def script(self, steps: list[Step], *, final: str = "Done.") -> None:
        """Replace the script and forget earlier requests."""
        with self._lock:
            self._script = _Script(list(steps), Reply(final))
            self._requests = []
            self._model_calls = 0

    @property
    def requests(self) -> list[Recorded]:
        """Every request received since the last ``script`` call, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def model_requests(self) -> list[Recorded]:
        """Only the requests that were answered from the script."""
        return [r for r in self.requests if r.step is not None]

    def _record(self, rec: Recorded) -> None:
        with self._lock:
            self._requests.append(rec)

    def _next_step(self, turn: int) -> Step | None:
        """The scripted step for ``turn``, or None once the request budget is spent."""
        with self._lock:
            self._model_calls += 1
            if self._model_calls > self.max_requests:
                return None
            return self._script.pick(turn)

    def _next_id(self) -> int:
        with self._lock:
            self._counter += 1
            return self._counter

    # API-specific ------------------------------------------------------------------------------

    def dispatch(self, method: str, path: str, body: Any, rec: Recorded) -> tuple[int, str, bytes]:
        """Answer one request: (status, content type, body bytes). Fill ``rec.turn``/``rec.step``."""
        raise NotImplementedError


def sse(events: list[tuple[str | None, Any]]) -> bytes:
    """Encode server-sent events; a None event name writes a bare ``data:`` line."""
    out = []
    for name, data in events:
        if name is not None:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data, separators=(',', ':'))}\n\n")
    return "".join(out).encode()


def json_bytes(data: Any) -> bytes:
    return json.dumps(data).encode()


class _Handler(BaseHTTPRequestHandler):
    owner: ScriptedModelServer
    protocol_version = "HTTP/1.1"
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # keep test output clean; everything is in the recordings

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._serve("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._serve("POST")

    def do_HEAD(self) -> None:  # noqa: N802
        self._serve("HEAD")

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self._send(413, "application/json", b'{"error": "body too large"}')
            return
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items()}
        rec = Recorded(method, parts.path, parts.query, headers, body)
        try:
            status, ctype, payload = self.owner.dispatch(method, parts.path, body, rec)
        except Exception as exc:  # a broken mock must fail the test, not hang the CLI
            status, ctype, payload = 500, "application/json", json_bytes({"error": repr(exc)})
        rec.status = status
        self.owner._record(rec)
        self._send(status, ctype, payload if method != "HEAD" else b"")

    def _send(self, status: int, ctype: str, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        if ctype == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()
        self.close_connection = True
