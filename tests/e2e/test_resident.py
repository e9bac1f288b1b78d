"""Resident hooks (`hookwrap serve`, Claude's ``type: "http"`` entries) and command filters
(``commands`` -> Claude's ``if``; the runtime filter elsewhere), in the real CLIs.

The server runs as a teammate would run it: ``python3 -m hookwrap.server`` with only the repo's
vendored runtime on PYTHONPATH. It is started without the e2e probe, so ``result.hooks`` (every
python process the CLI started) stays empty when the server answers.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

DANGEROUS = "touch side_effect.txt && git push --force origin main"
CONTEXT_HOOK = '''\
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from hookwrap import HookInput, HookOutput, main

def hook(event: HookInput) -> HookOutput:
    return HookOutput(context=f"RESIDENT-MARK pid={os.getpid()} cwd={os.getcwd()} "
                              f"project={event.project_dir} session={event.session_id}")

if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _use_port(repo: HookwrapRepo, port: int) -> None:
    path = repo.root / "hookwrap.toml"
    path.write_text(path.read_text(encoding="utf-8") + f"\n[serve]\nport = {port}\n", encoding="utf-8")


class Server:
    """``python3 -m hookwrap.server`` for one project, with the vendored runtime only."""

    def __init__(self, repo: HookwrapRepo, port: int) -> None:
        self.repo, self.port = repo, port
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> Server:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.repo.sandbox.home),
               "PYTHONPATH": str(self.repo.root / ".hookwrap" / "lib")}
        self.process = subprocess.Popen(
            [str(self.repo.sandbox.python), "-m", "hookwrap.server", "--root", str(self.repo.root),
             "--port", str(self.port)], env=env, cwd="/", stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the server did not start: {self.log}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    @property
    def log(self) -> str:
        if self.process is None or self.process.stdout is None or self.process.poll() is None:
            return ""
        return self.process.stdout.read()


@pytest.fixture
def resident(repo: HookwrapRepo) -> Iterator[tuple[HookwrapRepo, Server]]:
    port = _free_port()
    _use_port(repo, port)
    server = Server(repo, port)
    yield repo, server
    server.stop()


def test_a_resident_guard_blocks_a_forced_push_without_a_hook_process(claude: Agent, resident) -> None:
    repo, server = resident
    repo.add("before_tool", "guard", "--resident")
    handler = repo.settings(".claude/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler == {"type": "http", "url": f"http://127.0.0.1:{server.port}/hookwrap/claude/guard",
                       "timeout": 10, "onFailure": "block"}
    server.start()
    result = claude.run(repo.root, [claude.shell(DANGEROUS), claude.shell("echo harmless > ok.txt"),
                                    Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    blocked, harmless = result.tool_results()
    assert blocked["is_error"], result.describe()
    assert "Blocked by the guard hook: git push --force" in blocked["text"], result.describe()
    assert not harmless["is_error"], result.describe()
    assert (repo.root / "ok.txt").read_text() == "harmless\n", result.describe()
    assert result.hooks == [], result.describe()  # no python process: the server answered
    responses = result.hook_events()
    assert [e.get("exit_code") for e in responses] == [200, 200], result.describe()


def test_a_resident_guard_fails_closed_when_the_server_is_down(claude: Agent, resident) -> None:
    repo, _server = resident  # never started
    repo.add("before_tool", "guard", "--resident")
    result = claude.run(repo.root, [claude.shell("echo harmless > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    [tool_result] = result.tool_results()
    assert tool_result["is_error"], result.describe()
    assert 'blocking because onFailure is "block"' in tool_result["text"], result.describe()
    assert "ECONNREFUSED" in tool_result["text"], result.describe()
    doctor = repo.hookwrap("doctor", check=False)
    assert doctor.returncode == 1
    assert "fail resident-server: nothing listens on" in doctor.stdout


def test_a_resident_context_hook_sees_the_call_and_reaches_the_model(claude: Agent, resident) -> None:
    repo, server = resident
    repo.add("before_prompt", "ctx", "--resident")
    repo.script("ctx").write_text(CONTEXT_HOOK, encoding="utf-8")
    server.start()  # from / : the hook must still see the call's cwd
    result = claude.run(repo.root, [Reply("Finished.")])

    assert result.rc == 0, result.describe()
    text = result.conversation(0)
    assert "RESIDENT-MARK" in text, result.describe()
    pid = str(server.process.pid if server.process else "")
    assert f"pid={pid} " in text, text
    assert f"cwd={repo.root} " in text or f"cwd={repo.root.resolve()} " in text, text
    assert f"project={repo.root} " in text or f"project={repo.root.resolve()} " in text, text
    session = [e for e in result.events if e.get("type") == "system" and e.get("session_id")]
    assert session and f"session={session[0]['session_id']}" in text, text
    assert result.hooks == [], result.describe()


def test_a_server_for_another_checkout_refuses_and_the_guard_blocks(claude: Agent, resident,
                                                                     tmp_path: Path) -> None:
    repo, server = resident
    repo.add("before_tool", "guard", "--resident")
    other = HookwrapRepo(tmp_path / "other", repo.sandbox)
    other.root.mkdir()
    other.init()
    other.add("before_tool", "guard")  # an allowing hook file of the same name
    stale = Server(other, server.port).start()  # the port this repo's entries post to
    try:
        result = claude.run(repo.root, [claude.shell("echo harmless > side_effect.txt"), Reply("Finished.")])
        doctor = repo.hookwrap("doctor", check=False)
    finally:
        stale.stop()
    assert "resident-server" in doctor.stdout and "not this project" in doctor.stdout, doctor.stdout
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    [tool_result] = result.tool_results()
    assert "HTTP 409" in tool_result["text"], result.describe()


def test_a_command_filter_spawns_nothing_for_other_commands_on_claude(claude: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "audit", "--matcher", "shell", "--commands", "git *")
    handler = repo.settings(".claude/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler["if"] == "Bash(git *)"
    result = claude.run(repo.root, [claude.shell("echo one > a.txt"),
                                    claude.shell("echo two > b.txt && git status"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert result.hooks == [("audit", "claude")], result.describe()  # only for the git call
    assert [line["tool_input"]["command"] for line in repo.log_lines("audit")] == \
        ["echo two > b.txt && git status"]
    started = result.hook_events("hook_started")
    assert len(started) == 1, result.describe()


def test_the_runtime_filter_skips_other_commands_on_gemini(gemini: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "audit", "--matcher", "shell", "--commands", "git *")
    assert json.loads((repo.root / ".hookwrap" / "filters.json").read_text()) == {"audit": ["git *"]}
    result = gemini.run(repo.root, [gemini.shell("echo one > a.txt"),
                                    gemini.shell("echo two > b.txt && git status"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    # Gemini CLI has no filter of its own: the hook process starts for both calls, and the
    # runtime answers the first without calling the hook.
    assert [name for name, _ in result.hooks] == ["audit", "audit"], result.describe()
    assert [line["tool_input"]["command"] for line in repo.log_lines("audit")] == \
        ["echo two > b.txt && git status"]
    assert (repo.root / "a.txt").exists() and (repo.root / "b.txt").exists()


STUCK_HOOK = '''\
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from hookwrap import main

def hook(event):
    if event.tool_input.get("command") == "hang":
        time.sleep(60)
    return None

if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def test_a_hung_resident_hook_makes_the_guard_fail_closed_at_once(claude: Agent, resident) -> None:
    import http.client

    repo, server = resident
    repo.add("before_tool", "guard", "--resident")
    repo.add("after_agent", "stuck", "--timeout", "1")  # its timeout is what the server reads
    repo.script("stuck").write_text(STUCK_HOOK, encoding="utf-8")
    server.start()
    payload = json.dumps({"session_id": "s", "cwd": str(repo.root), "hook_event_name": "PreToolUse",
                          "tool_name": "Bash", "tool_input": {"command": "hang"}})
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=0.5)
    try:
        connection.request("POST", "/hookwrap/claude/stuck", body=payload,
                            headers={"Content-Type": "application/json"})
        with pytest.raises(OSError):  # socket.timeout: the call sleeps on in the server
            connection.getresponse()
    finally:
        connection.close()
    time.sleep(1.0)  # past stuck's 1 s timeout: hung
    doctor = repo.hookwrap("doctor", check=False)
    started = time.monotonic()
    result = claude.run(repo.root, [claude.shell("echo harmless > side_effect.txt"), Reply("Finished.")])
    took = time.monotonic() - started

    assert "fail resident-server" in doctor.stdout and "past its timeout" in doctor.stdout, doctor.stdout
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    [tool_result] = result.tool_results()
    assert tool_result["is_error"], result.describe()
    assert "HTTP 503" in tool_result["text"], result.describe()
    assert took < 60, result.describe()  # the guard failed at once, not after the stuck call
