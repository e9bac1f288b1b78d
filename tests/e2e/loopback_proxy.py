"""A dummy HTTP proxy on 127.0.0.1 for tests that set ``HTTP_PROXY``: it records the request
line of every connection it gets and relays a request for another loopback port (the mock model)
as it is, bytes both ways (or tunnels to it, for a ``CONNECT``); anything else gets a 502, so nothing
reaches the internet through it. A test reads ``requests`` to see what went through a proxy."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit

REFUSED = b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class LoopbackProxy:
    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.requests: list[str] = []  # the first request line of each connection
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> LoopbackProxy:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self) -> None:
        self._closed = True
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client:
            head = b""
            client.settimeout(10)
            try:
                while b"\r\n\r\n" not in head and len(head) < 65536:
                    chunk = client.recv(65536)
                    if not chunk:
                        break
                    head += chunk
            except OSError:
                return
            line = head.split(b"\r\n", 1)[0].decode("latin-1")
            with self._lock:
                self.requests.append(line)
            parts = line.split(" ")
            tunnel = len(parts) == 3 and parts[0] == "CONNECT"
            target = urlsplit(("//" if tunnel else "") + parts[1]) if len(parts) == 3 else None
            if target is None or target.hostname != "127.0.0.1" or not target.port \
                    or target.port == self.port:
                client.sendall(REFUSED)
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", target.port), timeout=10)
            except OSError:
                client.sendall(REFUSED)
                return
            with upstream:
                if tunnel:  # undici's proxy agent (pi's model client) tunnels http too
                    client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                    upstream.sendall(head.split(b"\r\n\r\n", 1)[1])
                else:
                    upstream.sendall(head)
                client.settimeout(None)
                upstream.settimeout(None)
                back = threading.Thread(target=_pipe, args=(upstream, client), daemon=True)
                back.start()
                _pipe(client, upstream)
                back.join(timeout=120)


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            chunk = source.recv(65536)
            if not chunk:
                break
            sink.sendall(chunk)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
