"""The generator's side of the resident mode: is the server up, start it, post to it, and the
service file that keeps it running (server.py is the server itself; docs/resident.md)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import ConflictError, ProjectError, UsageError

HOST = "127.0.0.1"
HEALTH_PATH = "/hookwrap/health"  # server.HEALTH_PATH: not imported, it is a runtime module
UP, DOWN, HUNG, OTHER = "up", "down", "hung", "other"
SERVICE_KINDS = ("systemd", "launchd")


@dataclass(frozen=True)
class ServerState:
    """What answers on the resident port: up (this project), down, hung, or other (another
    project, or not hookwrap), with a sentence for messages."""

    state: str
    detail: str


def server_state(root: Path, port: int, *, timeout: float = 2.0) -> ServerState:
    """Ask ``GET /hookwrap/health`` on 127.0.0.1:``port`` which project it serves."""
    import http.client
    import socket

    where = f"{HOST}:{port}"
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("GET", HEALTH_PATH)
        response = connection.getresponse()
        body = response.read()
    except ConnectionRefusedError:
        return ServerState(DOWN, f"nothing listens on {where}")
    except (socket.timeout, TimeoutError):
        return ServerState(HUNG, f"{where} accepted the connection but did not answer in "
                           f"{timeout:g} s")
    except (OSError, http.client.HTTPException) as error:
        return ServerState(DOWN, f"{where} cannot be reached ({error})")
    finally:
        connection.close()
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if response.status != 200 or not isinstance(data, dict) or data.get("service") != "hookwrap-serve":
        return ServerState(OTHER, f"{where} is not a hookwrap server (HTTP {response.status})")
    served = str(data.get("root", ""))
    if os.path.realpath(served) != os.path.realpath(root):
        return ServerState(OTHER, f"{where} is a hookwrap server for {served}, not this project")
    running = data.get("busy")
    if data.get("hung") and isinstance(running, dict):
        return ServerState(HUNG, f"{where} serves this project (pid {data.get('pid')}) but hook "
                           f"{running.get('hook')!r} has run for {running.get('seconds')} s, past "
                           f"its timeout of {running.get('timeout')} s: every resident hook "
                           "waits on it; restart the server")
    return ServerState(UP, f"{where} serves this project (pid {data.get('pid')})")


def post(port: int, path: str, payload: bytes, *, timeout: float) -> tuple[int, str]:
    """POST a payload as Claude Code does; (HTTP status, body). OSError when unreachable."""
    import http.client

    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("POST", path, body=payload,
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", errors="replace")
    finally:
        connection.close()


def server_command(root: Path, port: int, python: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run the server with the repo's vendored runtime
    (what a teammate without hookwrap installed runs too)."""
    import shutil

    from .registrations import python_words

    lib = root / ".hookwrap" / "lib"
    if not (lib / "hookwrap" / "server.py").is_file():
        raise ProjectError(f"{lib / 'hookwrap' / 'server.py'} is missing",
                         hint="run `hookwrap sync` to refresh the runtime under .hookwrap/lib")
    words = python_words(python)
    found = shutil.which(words[0])
    if found is None:
        raise ProjectError(f"{words[0]!r} is not on PATH",
                         hint="set python in hookwrap.toml to an interpreter that exists")
    env = {"PYTHONPATH": str(lib)}
    return [found, *words[1:], "-m", "hookwrap.server", "--root", str(root),
            "--port", str(port)], env


def check_port_free(root: Path, port: int) -> None:
    """UsageError naming who holds ``port`` when it is taken."""
    import socket

    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind((HOST, port))
    except OSError:
        state = server_state(root, port, timeout=1.0)
        if state.state == UP:
            raise ConflictError(f"a hookwrap server for this project already runs on {HOST}:{port}",
                             hint="nothing to do; stop it first to start another") from None
        raise ConflictError(f"port {port} on {HOST} is taken: {state.detail}",
                         hint="stop what holds it, or set another port in hookwrap.toml "
                              "([serve] port = N), then run `hookwrap sync`") from None
    finally:
        probe.close()


def run_server(root: Path, port: int, python: str) -> int:
    """Run the server in the foreground until Ctrl-C; its log goes to stderr."""
    import subprocess

    check_port_free(root, port)
    command, env = server_command(root, port, python)
    process = subprocess.Popen(command, env={**os.environ, **env}, cwd=root)
    try:
        return process.wait()
    except KeyboardInterrupt:  # a terminal's Ctrl-C reaches both; a lone SIGINT only this one
        import signal
        import subprocess as sp

        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=5)
        except sp.TimeoutExpired:
            process.kill()
            process.wait()
        return 130


def _label(root: Path) -> str:
    import hashlib

    digest = hashlib.sha256(str(root).encode()).hexdigest()[:8]
    name = "".join(c if c.isalnum() else "-" for c in root.name.lower()).strip("-") or "repo"
    return f"hookwrap-{name}-{digest}"


def _systemd_quote(word: str) -> str:
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%") + '"'


def service_text(kind: str, root: Path, port: int, python: str) -> str:
    """A systemd user unit or a launchd agent that keeps the server running; printed for the
    user to install (hookwrap writes nothing outside the project)."""
    from xml.sax.saxutils import escape

    if kind not in SERVICE_KINDS:
        raise UsageError(f"unknown service kind {kind!r}", hint="use systemd or launchd")
    command, env = server_command(root, port, python)
    label = _label(root)
    if kind == "systemd":
        return "\n".join([
            f"# Save as ~/.config/systemd/user/{label}.service, then run:",
            "#   systemctl --user daemon-reload",
            f"#   systemctl --user enable --now {label}.service",
            "[Unit]",
            f"Description=hookwrap resident hooks for {root}",
            "",
            "[Service]",
            f"WorkingDirectory={_systemd_quote(str(root))}",
            "Environment=" + _systemd_quote(f"PYTHONPATH={env['PYTHONPATH']}"),
            "ExecStart=" + " ".join(_systemd_quote(word) for word in command),
            "Restart=always",
            "RestartSec=1",
            "",
            "[Install]",
            "WantedBy=default.target",
            "",
        ])
    log = root / ".hookwrap" / "logs" / "serve.log"
    arguments = "".join(f"\n    <string>{escape(word)}</string>" for word in command)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Save as ~/Library/LaunchAgents/{label}.plist, then run:
       launchctl load -w ~/Library/LaunchAgents/{label}.plist -->
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>{label}</string>
  <key>ProgramArguments</key>
  <array>{arguments}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
    <key>PYTHONPATH</key>
    <string>{escape(env['PYTHONPATH'])}</string>
  </dict>
  <key>WorkingDirectory</key>
  <string>{escape(str(root))}</string>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
  <key>StandardErrorPath</key>
  <string>{escape(str(log))}</string>
</dict>
</plist>
"""


def resident_hooks(manifest) -> list[str]:
    """Names of the manifest's hooks that some CLI posts to the server."""
    from .project import _port, _python, spec_registrations

    names = []
    for spec in manifest.hooks:
        if not spec.resident:
            continue
        try:
            found, _ = spec_registrations(spec, _python(manifest), _port(manifest))
        except Exception:
            continue
        if any(reg.handler.get("type") == "http" for reg in found) and spec.name not in names:
            names.append(spec.name)
    return names
