"""hookwrap's OpenCode / Kilo CLI plugin posts a resident hook to `hookwrap serve` past any HTTP
proxy of the environment. Bun (the runtime of both CLIs) sends even a request for 127.0.0.1 to
``http_proxy`` / ``HTTP_PROXY`` unless ``NO_PROXY`` names the host, with ``fetch`` and with
``node:http``, and has no fetch option that turns it off; with a proxy set the plugin posts on a
loopback socket of its own. Run in node, and in the Bun inside the Kilo CLI binary of the CLI
cache when it is there (``BUN_BE_BUN=1``), with a dummy proxy on loopback that records whatever
reaches it. tests/e2e/test_resident_proxy.py runs the real CLIs."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e.harness import BINARIES

from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.opencode import plugin_text
from hookwrap.names import NormalizedEvent

DRIVER = r"""
const plugin = await import(process.argv[2]);
const hooks = await plugin.HookwrapPlugin({ directory: process.argv[3], worktree: process.argv[3] });
const out = {};
for (const [name, tool, command] of [["bad", "bash", "echo bad"], ["fine", "bash", "echo fine"],
                                     ["big", "bash", "echo " + "é".repeat(70000)],
                                     ["down", "read", "x"], ["hang", "glob", "x"]]) {
  const start = Date.now();
  try {
    await hooks["tool.execute.before"]({ tool, sessionID: "s", callID: name }, { args: { command } });
    out[name] = { value: "ran" };
  } catch (e) { out[name] = { error: String(e.message) }; }
  out[name].ms = Date.now() - start;
}
console.log(JSON.stringify(out));
"""
HOOK = '''\
from hookwrap import HookOutput


def hook(event):
    command = str(event.tool_input.get("command", ""))
    if "bad" in command:
        return HookOutput.block("RESIDENT-BLOCK")
    if len(command) > 1000:
        return HookOutput.block("BIG " + str(len(command)))
    return None
'''


class Listener:
    """A TCP listener on loopback that records each connection's first bytes and answers
    ``reply`` (or nothing at all: a hung server)."""

    def __init__(self, reply: bytes | None) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        self.got: list[bytes] = []
        self.held: list[socket.socket] = []  # the connections a hung server keeps open
        self.reply = reply
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self._serve(conn)

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            self.got.append(conn.recv(4096))
            if self.reply is None:
                self.held.append(conn)  # never answered, kept open until the test ends
                return
            conn.sendall(self.reply)
        except OSError:
            pass
        conn.close()

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


def _runtimes() -> list[tuple[str, list[str]]]:
    found = [("node", ["node"])] if shutil.which("node") else []
    kilo = BINARIES["kilo"].path()
    if kilo.exists():
        found.append(("bun", [str(kilo)]))  # Kilo CLI's binary is Bun with BUN_BE_BUN=1
    return found


@pytest.fixture
def project(tmp_path: Path, refused_port: int) -> Iterator[tuple[Path, dict[str, str]]]:
    """The project with a resident guard-like hook on bash, the plugin for Kilo CLI, a running
    server, a port nothing listens on (read) and a server that never answers (glob)."""
    from hookwrap.server import HookServer

    root = tmp_path / "proj"
    (root / ".hookwrap" / "hooks").mkdir(parents=True)
    (root / "hookwrap.toml").write_text("version = 1\n")
    (root / ".hookwrap" / "hooks" / "guard.py").write_text(HOOK)
    server = HookServer(str(root), 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    down = refused_port
    hung = Listener(None)
    agent = setup_of("kilo")

    def handler(port: int, path: str, timeout: int = 5) -> dict:
        return agent.registration.http_handler(agent, f"http://127.0.0.1:{port}/hookwrap/kilo/{path}", timeout_s=timeout,
                                  fail_closed=True, event=NormalizedEvent.BEFORE_TOOL)

    data = {"hooks": {"PreToolUse": [
        {"matcher": "^bash$", "hooks": [handler(server.server_address[1], "guard")]},
        {"matcher": "^read$", "hooks": [handler(down, "guard")]},
        {"matcher": "^glob$", "hooks": [handler(hung.port, "guard", timeout=1)]},
    ]}}
    plugin = root / agent.facts.settings_file
    plugin.parent.mkdir(parents=True)
    plugin.write_text(plugin_text(data, agent), encoding="utf-8")
    (root / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    home = Path(tempfile.mkdtemp(prefix="hw-proxy-"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "BUN_BE_BUN": "1",
           **{var: str(home / var.lower()) for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME",
                                                       "XDG_CACHE_HOME", "XDG_STATE_HOME")}}
    try:
        yield root, env
    finally:
        server.shutdown()
        server.server_close()
        hung.close()
        shutil.rmtree(home, ignore_errors=True)


def _drive(runtime: list[str], root: Path, env: dict[str, str]) -> dict:
    plugin = root / setup_of("kilo").facts.settings_file
    proc = subprocess.run([*runtime, str(root / "driver.mjs"), str(plugin), str(root)], env=env, cwd=root,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _check(out: dict, direct: bool) -> None:
    assert out["bad"]["error"] == "RESIDENT-BLOCK", out
    assert out["fine"]["value"] == "ran", out
    assert out["big"]["error"] == "BIG 70005", out  # a body far larger than one read
    assert "fail-closed hook could not run" in out["down"]["error"], out
    assert "hookwrap serve" in out["down"]["error"], out
    assert "ECONNREFUSED" in out["down"]["error"] or not direct, out
    assert "timed out after 1 s" in out["hang"]["error"] and out["hang"]["ms"] < 10_000, out


@pytest.mark.parametrize("variables", [("HTTP_PROXY",), ("http_proxy",), ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")])
@pytest.mark.parametrize(("name", "runtime"), _runtimes())
def test_a_resident_hook_is_posted_past_an_http_proxy(project: tuple[Path, dict[str, str]], name: str,
                                                      runtime: list[str], variables: tuple[str, ...]) -> None:
    root, env = project
    proxy = Listener(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 5\r\nConnection: close\r\n\r\nproxy")
    try:
        out = _drive(runtime, root, {**env, **dict.fromkeys(variables, f"http://127.0.0.1:{proxy.port}")})
    finally:
        proxy.close()
    assert proxy.got == [], proxy.got
    _check(out, direct=True)


@pytest.mark.parametrize(("name", "runtime"), _runtimes())
def test_a_resident_hook_is_posted_with_fetch_without_a_proxy(project: tuple[Path, dict[str, str]], name: str,
                                                              runtime: list[str]) -> None:
    root, env = project
    _check(_drive(runtime, root, env), direct=False)



# --- the post past a proxy keeps its connection --------------------------------------------

KEPT_DRIVER = r"""
const plugin = await import(process.argv[2]);
const hooks = await plugin.HookwrapPlugin({ directory: process.argv[3], worktree: process.argv[3] });
const out = [];
for (let i = 0; i < 3; i++) {
  try {
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: `c${i}` },
                                       { args: { command: `echo ${i}` } });
    out.push("ran");
  } catch (e) { out.push(String(e.message)); }
  await new Promise((resolve) => setTimeout(resolve, 200)); // a closed connection is noticed
}
console.log(JSON.stringify(out));
"""  # and then nothing: the process must end by itself, a kept connection must not hold it


class KeptServer(Listener):
    """A loopback HTTP server that answers every request `{}` with Content-Length, counting
    connections and requests; ``close_after`` closes each connection after its answer, as a
    server that restarts between two calls does (no `Connection: close` in the answer)."""

    def __init__(self, close_after: bool) -> None:
        self.connections = 0
        self.requests = 0
        self.close_after = close_after
        super().__init__(None)

    def _serve(self, conn: socket.socket) -> None:
        self.connections += 1
        threading.Thread(target=self._answer_each, args=(conn,), daemon=True).start()

    def _answer_each(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        buffer = b""
        with conn:
            while True:
                while b"\r\n\r\n" not in buffer:
                    try:
                        chunk = conn.recv(65536)
                    except OSError:
                        return
                    if not chunk:
                        return
                    buffer += chunk
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                while len(buffer) < length:
                    buffer += conn.recv(65536)
                buffer = buffer[length:]
                self.requests += 1
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 2\r\n\r\n{}")
                if self.close_after:
                    return


@pytest.mark.parametrize("close_after", [False, True], ids=["kept", "closed-by-the-server"])
@pytest.mark.parametrize(("name", "runtime"), _runtimes())
def test_posts_past_a_proxy_share_one_connection_and_the_process_still_ends(
        tmp_path: Path, name: str, runtime: list[str], close_after: bool) -> None:
    """With a proxy set, each post once opened a connection of its own (a handshake, and a
    thread of the server's, per call). Now a call reuses the connection the previous one left
    open; one the server has closed meanwhile is not reused; an open one does not keep the
    CLI's process alive."""
    server = KeptServer(close_after)
    agent = setup_of("kilo")
    handler = agent.registration.http_handler(agent, f"http://127.0.0.1:{server.port}/hookwrap/kilo/guard", timeout_s=5,
                                 fail_closed=True, event=NormalizedEvent.BEFORE_TOOL)
    plugin = tmp_path / agent.facts.settings_file
    plugin.parent.mkdir(parents=True)
    plugin.write_text(plugin_text({"hooks": {"PreToolUse": [{"matcher": "^bash$", "hooks": [handler]}]}},
                                  agent), encoding="utf-8")
    (tmp_path / "driver.mjs").write_text(KEPT_DRIVER, encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "BUN_BE_BUN": "1",
           "HTTP_PROXY": "http://127.0.0.1:9"}
    try:
        proc = subprocess.run([*runtime, str(tmp_path / "driver.mjs"), str(plugin), str(tmp_path)],
                              env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                              check=False)
    finally:
        server.close()
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == ["ran"] * 3, proc.stderr
    assert server.requests == 3
    assert server.connections == (3 if close_after else 1)
