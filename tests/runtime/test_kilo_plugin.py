"""hookwrap's plugin as rendered for Kilo CLI, run in node with Kilo's (OpenCode's) plugin API
calls faked: a Stop block keeps the agent working through ``client.session.prompt``, with
``stop_hook_active`` and a cap; a fail-closed hook that hangs past its timeout blocks the call.
The real binary is exercised in tests/e2e/test_kilo_hookwrap.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hookwrap.generator.clis import setup_of
from hookwrap.names import NormalizedEvent
from hookwrap.generator.clis.opencode import plugin_text

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

DRIVER = r"""
const plugin = await import(process.argv[2]);
const prompts = [];
const hooks = await plugin.HookwrapPlugin({
  directory: process.argv[3], worktree: process.argv[3],
  client: { session: { prompt: async (request) => {
    prompts.push(request);
    // As in Kilo: the message the plugin sends passes chat.message like any other.
    const output = { message: { id: "m" }, parts: request.body.parts.map((p) => ({ ...p, id: "p" })) };
    await hooks["chat.message"]({ sessionID: request.path.id }, output);
  } } },
});
const out = {};
async function attempt(name, fn) {
  const start = Date.now();
  try { out[name] = { value: await fn() }; } catch (e) { out[name] = { error: String(e.message) }; }
  out[name].ms = Date.now() - start;
}
const idle = (sessionID) => hooks.event({ event: { type: "session.idle", properties: { sessionID } } });
await attempt("hang", () => hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c1" },
                                                       { args: { command: "echo hi" } }));
await attempt("stop", async () => { await idle("s"); await idle("s"); return prompts.length; });
await attempt("user", async () => {
  await hooks["chat.message"]({ sessionID: "s" }, { message: { id: "m" }, parts: [{ type: "text", text: "go on" }] });
  await idle("s");
  return prompts.length;
});
await attempt("loop", async () => {
  for (let i = 0; i < 9; i++) await idle("always");
  return prompts.filter((p) => p.path.id === "always").length;
});
console.log(JSON.stringify({ out, prompts: prompts.map((p) => [p.path.id, p.body.parts[0].text]) }));
"""

# Blocks a fresh stop, lets a kept-working one stop: what stop_gate does with a passing retry.
STOP = ("python3 -c \"import json, sys; d = json.load(sys.stdin); "
        "open(sys.argv[1], 'a').write(json.dumps([d['session_id'], d['stop_hook_active']]) + chr(10)); "
        "print(json.dumps({} if d['stop_hook_active'] or d['session_id'] == 'never' else "
        "{'decision': 'block', 'reason': 'E2E-KEEP-GOING ' + d['session_id']}))\" "
        "\"$HOOKWRAP_PROJECT_DIR/stops.log\"")
ALWAYS = "echo '{\"decision\": \"block\", \"reason\": \"again\"}'"
PROMPT_SEEN = "cat >> \"$HOOKWRAP_PROJECT_DIR/prompts.log\"; echo >> \"$HOOKWRAP_PROJECT_DIR/prompts.log\""


def _run(root: Path, data: dict, platform: str = "kilo") -> dict:
    agent = setup_of(platform)
    plugin = root / agent.facts.settings_file
    plugin.parent.mkdir(parents=True, exist_ok=True)
    plugin.write_text(plugin_text(data, agent), encoding="utf-8")
    driver = root / "driver.mjs"
    driver.write_text(DRIVER, encoding="utf-8")
    proc = subprocess.run(["node", str(driver), str(plugin), str(root)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _handler(command: str, timeout: int = 10, fail_closed: bool = False) -> dict:
    handler: dict = {"type": "command", "command": command, "timeout": timeout}
    if fail_closed:
        handler["failClosed"] = True
    return handler


def _data(stop: str) -> dict:
    return {"hooks": {
        "PreToolUse": [{"matcher": "^bash$", "hooks": [_handler("sleep 30", timeout=1, fail_closed=True)]}],
        "UserPromptSubmit": [{"hooks": [_handler(PROMPT_SEEN)]}],
        "Stop": [{"hooks": [_handler(stop)]}],
    }}


def test_a_stop_block_keeps_kilo_working_once_per_block(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    result = _run(root, _data(STOP))
    out = result["out"]

    # A fail-closed hook that outlives its timeout blocks the call, in about its timeout.
    assert "fail-closed hook could not run" in out["hang"]["error"] and "timed out" in out["hang"]["error"]
    assert out["hang"]["ms"] < 10_000
    # The first idle blocks: the reason is sent as the next user message; the second idle (the
    # agent stopped again) carries stop_hook_active and is let through.
    assert out["stop"]["value"] == 1
    assert result["prompts"][0] == ["s", "E2E-KEEP-GOING s"]
    stops = [json.loads(line) for line in (root / "stops.log").read_text().splitlines()]
    assert stops[:2] == [["s", False], ["s", True]]
    # The user's own next message starts afresh: stop_hook_active is false again.
    assert out["user"]["value"] == 2 and stops[2] == ["s", False]
    # hookwrap's own message is no user prompt: the UserPromptSubmit hook saw only the user's.
    prompts = [json.loads(line)["prompt"] for line in (root / "prompts.log").read_text().splitlines() if line]
    assert prompts == ["go on"], prompts


def test_a_stop_hook_that_always_blocks_is_capped(tmp_path: Path) -> None:
    result = _run(tmp_path / "proj", _data(ALWAYS))
    # Nine stops in a row, each blocked: eight messages, then the agent is let stop, and says so.
    assert result["out"]["loop"]["value"] == 8
    log = (tmp_path / "proj" / ".hookwrap" / "logs" / "kilo-plugin.log").read_text()
    assert "a Stop hook blocked 8 times in a row: the agent stops (again)" in log
    plugin = plugin_text({"hooks": {}}, setup_of("kilo"))
    assert "const KEEP_WORKING = true;" in plugin and "const MAX_KEEP_WORKING = 8;" in plugin


def test_opencode_is_never_kept_working(tmp_path: Path) -> None:
    result = _run(tmp_path / "proj", _data(STOP), platform="opencode")
    assert result["prompts"] == []
    assert "const KEEP_WORKING = false;" in plugin_text({"hooks": {}}, setup_of("opencode"))


RESIDENT_DRIVER = r"""
const plugin = await import(process.argv[2]);
const hooks = await plugin.HookwrapPlugin({ directory: process.argv[3], worktree: process.argv[3] });
const out = {};
for (const [name, tool, command] of [["bad", "bash", "echo bad"], ["fine", "bash", "echo fine"],
                                     ["down", "read", "x"], ["down_open", "glob", "x"]]) {
  const start = Date.now();
  try {
    await hooks["tool.execute.before"]({ tool, sessionID: "s", callID: name }, { args: { command } });
    out[name] = { value: "ran" };
  } catch (e) { out[name] = { error: String(e.message) }; }
  out[name].ms = Date.now() - start;
}
console.log(JSON.stringify(out));
"""
RESIDENT_HOOK = '''\
from hookwrap import HookOutput


def hook(event):
    if "bad" in str(event.tool_input.get("command", "")):
        return HookOutput.block("RESIDENT-BLOCK " + event.project_dir)
    return None
'''


def test_a_resident_hook_is_answered_by_the_server_and_fails_closed_without_it(tmp_path: Path,
                                                                              refused_port: int) -> None:
    import threading

    from hookwrap.server import HookServer

    root = tmp_path / "proj"
    (root / ".hookwrap" / "hooks").mkdir(parents=True)
    (root / "hookwrap.toml").write_text("version = 1\n")
    (root / ".hookwrap" / "hooks" / "guard.py").write_text(RESIDENT_HOOK)
    server = HookServer(str(root), 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    down = refused_port  # a port nothing listens on
    agent = setup_of("kilo")
    url = f"http://127.0.0.1:{server.server_address[1]}/hookwrap/kilo/guard"
    gone = f"http://127.0.0.1:{down}/hookwrap/kilo/guard"
    data = {"hooks": {"PreToolUse": [
        {"matcher": "^bash$", "hooks": [agent.registration.http_handler(agent, url, timeout_s=5, fail_closed=True,
                                                           event=NormalizedEvent.BEFORE_TOOL)]},
        {"matcher": "^read$", "hooks": [agent.registration.http_handler(agent, gone, timeout_s=5, fail_closed=True,
                                                           event=NormalizedEvent.BEFORE_TOOL)]},
        {"matcher": "^glob$", "hooks": [agent.registration.http_handler(agent, gone, timeout_s=5, fail_closed=False,
                                                           event=NormalizedEvent.BEFORE_TOOL)]},
    ]}}
    plugin = root / agent.facts.settings_file
    plugin.parent.mkdir(parents=True)
    plugin.write_text(plugin_text(data, agent), encoding="utf-8")
    driver = root / "driver.mjs"
    driver.write_text(RESIDENT_DRIVER, encoding="utf-8")
    try:
        proc = subprocess.run(["node", str(driver), str(plugin), str(root)], capture_output=True,
                              text=True, timeout=60, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    # The server ran the hook (as Kilo's: the project dir is the root) and its block stands.
    assert out["bad"]["error"] == f"RESIDENT-BLOCK {root}", out
    assert out["fine"]["value"] == "ran", out
    # Nothing listens: a fail-closed resident hook blocks, naming `hookwrap serve`; another goes on.
    assert "fail-closed hook could not run" in out["down"]["error"], out
    assert "hookwrap serve" in out["down"]["error"], out
    assert out["down_open"]["value"] == "ran", out
    # Stop stays a command on Kilo (its hooks run synchronously); OpenCode may post it.
    assert agent.registration.http_handler(agent, url, timeout_s=5, fail_closed=False, event=NormalizedEvent.AFTER_AGENT) is None
    assert setup_of("opencode").registration.http_handler(setup_of("opencode"), url, timeout_s=5, fail_closed=False,
                                             event=NormalizedEvent.AFTER_AGENT) is not None


LEFTOVER_DRIVER = r"""
const plugin = await import(process.argv[2]);
const prompts = [];
const hooks = await plugin.HookwrapPlugin({
  directory: process.argv[3], worktree: process.argv[3],
  client: { session: { prompt: async (request) => { prompts.push(request.body.parts[0].text); } } },
});
const start = Date.now();
await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
console.log(JSON.stringify({ ms: Date.now() - start, prompts }));
"""
# A Stop hook that blocks and exits, leaving a process in its group (its pid in left.pid) and
# one in a session of its own (escaped.pid), both holding its stdout for 30 s.
LEFTOVER_STOP = (
    "sleep 30 & echo $! > \"$HOOKWRAP_PROJECT_DIR/left.pid\"; "
    "python3 -c 'import os, sys, time; os.setsid(); "
    "open(sys.argv[1], \"w\").write(str(os.getpid())); time.sleep(30)' "
    "\"$HOOKWRAP_PROJECT_DIR/escaped.pid\" & "
    "while [ ! -s \"$HOOKWRAP_PROJECT_DIR/escaped.pid\" ]; do sleep 0.05; done; "
    "echo '{\"decision\": \"block\", \"reason\": \"KEEP-GOING\"}'")


def _kilo_bun() -> list[str] | None:
    """Kilo CLI's own runtime (Bun 1.3.14 in its single-file binary, which runs a script with
    BUN_BE_BUN=1) where the pinned binary is installed (.ci/install-clis.sh), else None."""
    import os
    import pwd

    binary = os.environ.get("HOOKWRAP_KILO_BIN") or os.path.join(
        pwd.getpwuid(os.getuid()).pw_dir, ".cache", "hookwrap-clis", "kilo", "node_modules",
        "@kilocode", "cli-linux-x64", "bin", "kilo")
    return [binary] if os.access(binary, os.X_OK) else None


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


@pytest.mark.parametrize("runtime", ["node", "kilo-bun"])
def test_a_stop_hook_s_leftover_process_does_not_outlive_its_run(tmp_path: Path, runtime: str) -> None:
    """The synchronous Stop path, as the async ones: what the hook left in its process group is
    killed once it has answered; in Kilo's Bun the answer comes as soon as the hook exits,
    although a process that left the group holds its stdout (node's spawnSync waits for the
    pipes until the timeout, 3 s here, and the answer of the hook that exited stands)."""
    import os
    import signal
    import time

    argv = ["node"] if runtime == "node" else _kilo_bun()
    if argv is None:
        pytest.skip("Kilo CLI is not installed (.ci/install-clis.sh)")
    root = tmp_path / "proj"
    agent = setup_of("kilo")
    plugin = root / agent.facts.settings_file
    plugin.parent.mkdir(parents=True)
    plugin.write_text(plugin_text({"hooks": {"Stop": [{"hooks": [_handler(LEFTOVER_STOP, timeout=3)]}]}}, agent),
                      encoding="utf-8")
    driver = root / "driver.mjs"
    driver.write_text(LEFTOVER_DRIVER, encoding="utf-8")
    env = {**os.environ, "BUN_BE_BUN": "1"} if runtime != "node" else None
    try:
        proc = subprocess.run([*argv, str(driver), str(plugin), str(root)], capture_output=True,
                              text=True, timeout=60, check=False, env=env, cwd=root)
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        assert out["prompts"] == ["KEEP-GOING"], (out, proc.stderr)
        if runtime != "node":
            assert out["ms"] < 5000, out
        left = int((root / "left.pid").read_text())
        deadline = time.monotonic() + 2
        while _alive(left) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(left), "the process the hook left in its group outlived the run"
    finally:
        for name in ("left.pid", "escaped.pid"):
            try:
                os.kill(int((root / name).read_text()), signal.SIGKILL)
            except (OSError, ValueError):
                pass
