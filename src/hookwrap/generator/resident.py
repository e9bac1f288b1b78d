"""The generator's side of the resident mode: is the server up, start it, post to it, and the
service file that keeps it running (server.py is the server itself; docs/resident.md)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ConflictError, ProjectError, UsageError

if TYPE_CHECKING:
    import subprocess

HOST = "127.0.0.1"
HEALTH_PATH = "/hookwrap/health"  # server.HEALTH_PATH: not imported, it is a runtime module
UP, DOWN, HUNG, OTHER = "up", "down", "hung", "other"
SERVICE_KINDS = ("systemd", "launchd")


@dataclass(frozen=True)
class ServerState:
    """What answers on the resident port: up (this project), down, hung, or other (another
    project, or not hookwrap), with a sentence for messages, and the process id of the
    hookwrap server that answered (None when none did)."""

    state: str
    detail: str
    pid: int | None = None


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
    pid = data.get("pid") if isinstance(data.get("pid"), int) else None
    if os.path.realpath(served) != os.path.realpath(root):
        return ServerState(OTHER, f"{where} is a hookwrap server for {served} (pid {pid}), not "
                           "this project", pid)
    running = data.get("busy")
    if data.get("hung") and isinstance(running, dict):
        return ServerState(HUNG, f"{where} serves this project (pid {pid}) but hook "
                           f"{running.get('hook')!r} has run for {running.get('seconds')} s, past "
                           f"its timeout of {running.get('timeout')} s: every resident hook "
                           "waits on it; restart the server", pid)
    return ServerState(UP, f"{where} serves this project (pid {pid})", pid)


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
    """ConflictError naming who holds ``port`` when the server could not listen on it."""
    import socket

    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        # As the server binds (http.server sets it): a port whose connections just closed,
        # held in TIME_WAIT for about a minute, is free to listen on again. (On Windows the
        # option would let two programs share a port: there the probe goes without it.)
        if os.name != "nt":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((HOST, port))
    except OSError as error:
        state = server_state(root, port, timeout=1.0)
        if state.state == UP:
            raise ConflictError(f"a hookwrap server for this project already runs on {HOST}:{port} "
                                f"(pid {state.pid})",
                                hint=f"nothing to do; to start another, stop it first (kill "
                                     f"{state.pid})") from None
        hint = ("stop what holds it, or set another port in hookwrap.toml ([serve] port = N), "
                "then run `hookwrap sync`")
        if state.state != DOWN:
            raise ConflictError(f"port {port} on {HOST} is taken: {state.detail}", hint=hint) from None
        # Bound by a program that does not listen (a client, a server starting up).
        raise ConflictError(f"port {port} on {HOST} cannot be used ({error.strerror or error}), "
                            f"although {state.detail}", hint=hint) from None
    finally:
        probe.close()


@dataclass(frozen=True)
class ServerEnd:
    """How `hookwrap serve` ended: its exit code, and why the server stopped when nobody asked
    it to ("" when a signal to `hookwrap serve` or Ctrl-C stopped it)."""

    code: int
    problem: str = ""


def _ended(code: int) -> ServerEnd:
    """The end of a server process that stopped on its own: killed by a signal (another
    process's `kill`, the OOM killer) is 128 + its number, as a shell reports it; an exit is
    the server's own code (1: it could not listen, and said why)."""
    import signal

    if code < 0:
        try:
            name = f" ({signal.Signals(-code).name})"
        except ValueError:
            name = ""
        return ServerEnd(128 - code, f"the server stopped: killed by signal {-code}{name}")
    return ServerEnd(code, f"the server stopped: it exited with code {code}")


class _Stop(Exception):
    """SIGTERM or SIGHUP reached `hookwrap serve`: stop the server with it."""


def run_server(root: Path, port: int, python: str) -> ServerEnd:
    """Run the server in the foreground until Ctrl-C, SIGTERM or SIGHUP (a supervisor,
    `timeout`, `kill PID`, a closed terminal), which stop the server too; its log goes to
    stderr. The exit code is 128 + the signal's number (130 for Ctrl-C); when the server
    stops on its own, see ``_ended``."""
    import signal
    import subprocess

    check_port_free(root, port)
    command, env = server_command(root, port, python)
    received: list[int] = []
    started: list[subprocess.Popen[bytes]] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        if started and len(received) == 1:  # once: the clean-up below is not interrupted
            raise _Stop

    stops = (signal.SIGTERM, signal.SIGHUP)
    previous = {number: signal.signal(number, stop) for number in stops}
    try:
        process = subprocess.Popen(command, env={**os.environ, **env}, cwd=root)
        started.append(process)
        try:
            if received:  # it came while the server was starting
                raise _Stop
            return _ended(process.wait())
        except KeyboardInterrupt:  # a terminal's Ctrl-C reaches both; a lone SIGINT only this one
            _end(process, signal.SIGINT)
            return ServerEnd(128 + signal.SIGINT)
        except _Stop:
            _end(process, signal.SIGTERM)
            return ServerEnd(128 + received[0])
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _end(process: subprocess.Popen[bytes], signum: int) -> None:
    """Send the server ``signum``; kill it when it has not stopped 5 s later."""
    import subprocess

    if process.poll() is None:
        process.send_signal(signum)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _label(root: Path) -> str:
    import hashlib
    import re

    digest = hashlib.sha256(str(root).encode()).hexdigest()[:8]
    # ASCII letters and digits (a systemd unit's name is ASCII), one dash for each run of
    # other characters ("--" may not appear in the plist's XML comment).
    name = re.sub(r"[^a-z0-9]+", "-", root.name.lower()).strip("-") or "repo"
    return f"hookwrap-{name}-{digest}"


def _writable(what: str, text: str, kind: str) -> str:
    """``text`` when a service file can hold it: UTF-8 without control characters (a unit
    file is read line by line, a plist is XML), else a ProjectError that says so."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        bad = True
    else:
        bad = any(ord(c) < 32 or ord(c) == 127 for c in text)
    if bad:
        raise ProjectError(f"{what} {text!r} cannot be written in a {kind} service file (it "
                           "holds a control character or is not UTF-8)",
                           hint="run the server from a path without them, or start it by hand "
                                "with `hookwrap serve`")
    return text


# How systemd reads each directive hookwrap writes (systemd.unit(5), systemd.service(5),
# systemd.exec(5)); every value also has its specifiers expanded, so a literal % is %%.
# - Description=, WorkingDirectory=: the value as it stands, no quotes (a quoted
#   WorkingDirectory is "not absolute"); the line's leading and trailing blanks are dropped
#   and a trailing backslash continues the line.
# - Environment=: words in double quotes with C escapes (\\, \"); $ is not special.
# - ExecStart=: the same quoted words; in the arguments $$ stands for $ ($X and ${X} are
#   variables); the executable's own path is used as written and may hold no quote,
#   backslash or control character (systemd refuses it), nor, here, a $ (argv[0] would be
#   expanded and differ from it).

def _systemd_raw(what: str, text: str) -> str:
    """A value systemd takes as it stands (Description=, WorkingDirectory=)."""
    _writable(what, text, "systemd")
    if text != text.strip() or text.endswith("\\"):
        raise ProjectError(f"{what} {text!r} cannot be written in a systemd unit (it ends in "
                           "a blank or a backslash)",
                           hint="run the server from another path, or start it by hand with "
                                "`hookwrap serve`")
    return text.replace("%", "%%")


def _systemd_quoted(what: str, word: str, *, dollars: bool) -> str:
    """One double-quoted word (Environment=, and ExecStart='s arguments when ``dollars``)."""
    _writable(what, word, "systemd")
    text = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    return '"' + (text.replace("$", "$$") if dollars else text) + '"'


def _systemd_executable(path: str) -> str:
    """ExecStart='s first word: the interpreter's path, quoted for its blanks."""
    _writable("the interpreter", path, "systemd")
    if any(c in path for c in "\"'\\$"):
        raise ProjectError(f"systemd cannot run {path!r}: an executable's path may not hold "
                           "quotes, a backslash or $ in a unit",
                           hint="set python in hookwrap.toml to an interpreter on another path")
    return '"' + path.replace("%", "%%") + '"'


def service_text(kind: str, root: Path, port: int, python: str) -> str:
    """A systemd user unit or a launchd agent that keeps the server running; printed for the
    user to install (hookwrap writes nothing outside the project)."""
    if kind not in SERVICE_KINDS:
        raise UsageError(f"unknown service kind {kind!r}", hint="use systemd or launchd")
    command, env = server_command(root, port, python)
    label = _label(root)
    if kind == "systemd":
        here = _systemd_raw("the project's path", str(root))
        exec_start = [_systemd_executable(command[0])]
        exec_start += [_systemd_quoted("an argument", word, dollars=True) for word in command[1:]]
        environment = _systemd_quoted("PYTHONPATH", f"PYTHONPATH={env['PYTHONPATH']}",
                                      dollars=False)
        return "\n".join([
            f"# Save as ~/.config/systemd/user/{label}.service, then run:",
            "#   systemctl --user daemon-reload",
            f"#   systemctl --user enable --now {label}.service",
            "[Unit]",
            f"Description=hookwrap resident hooks for {here}",
            "",
            "[Service]",
            f"WorkingDirectory={here}",
            f"Environment={environment}",
            "ExecStart=" + " ".join(exec_start),
            "Restart=always",
            "RestartSec=1",
            "",
            "[Install]",
            "WantedBy=default.target",
            "",
        ])
    return _launchd_text(label, root, command, env)


def _launchd_text(label: str, root: Path, command: list[str], env: dict[str, str]) -> str:
    """The launchd agent, written by plistlib (so it is a valid plist whatever the paths)."""
    import plistlib

    for word in [*command, str(root), env["PYTHONPATH"]]:
        _writable("the path", word, "launchd")
    agent = {
        "Label": label,
        "ProgramArguments": command,
        "EnvironmentVariables": {"PYTHONPATH": env["PYTHONPATH"]},
        "WorkingDirectory": str(root),
        "RunAtLoad": True,
        "KeepAlive": True,
        "StandardErrorPath": str(root / ".hookwrap" / "logs" / "serve.log"),
    }
    text = plistlib.dumps(agent, sort_keys=False).decode("utf-8")
    declaration, _, rest = text.partition("\n")
    return (f"{declaration}\n<!-- Save as ~/Library/LaunchAgents/{label}.plist, then run:\n"
            f"       launchctl load -w ~/Library/LaunchAgents/{label}.plist -->\n{rest}")


def resident_hooks(manifest) -> list[str]:
    """Names of the manifest's hooks that some CLI posts to the server."""
    from .project import registrations_in

    names = []
    for spec in manifest.hooks:
        if not spec.resident:
            continue
        try:
            found, _ = registrations_in(spec, manifest)
        except Exception:
            continue
        if any(reg.handler.get("type") == "http" for reg in found) and spec.name not in names:
            names.append(spec.name)
    return names
