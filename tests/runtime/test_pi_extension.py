"""hookwrap's pi extension itself, run in node with pi's extension API faked and fed the event
payloads captured from pi 0.73.1 (tests/fixtures/payloads/pi/events/): which commands run, what
they receive, in-place rewrites, blocks, context, failed tools, and that a hook that cannot
answer neither stalls nor blocks, unless it fails closed (then a crash, a missing script or a
timeout blocks). The real binary is exercised in tests/e2e/test_pi_hookwrap.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from support import PAYLOADS

from hookwrap import HookInput, NormalizedEvent, Platform
from hookwrap.generator.clis.opencode import plugin_text
from hookwrap.generator.clis.pi import SETUP as PI_SETUP

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

EVENTS = PAYLOADS / "pi" / "events"

# Loads the extension with a fake `pi`, then sends it the captured events named on its
# command line, in order; prints what each handler returned and the input after it.
DRIVER = r"""
import { readFileSync } from "node:fs";
const ext = await import(process.argv[2]);
const handlers = {};
ext.default({ on: (name, fn) => { (handlers[name] ||= []).push(fn); } });
const ctx = { cwd: process.argv[3], hasUI: false,
  sessionManager: { getSessionId: () => "sid-1", getSessionFile: () => "/s/sid-1.jsonl" } };
const out = [];
for (const file of JSON.parse(process.argv[4])) {
  const event = JSON.parse(readFileSync(file, "utf8")).payload;
  const input = event.input;
  const start = Date.now();
  let result;
  try {
    for (const fn of handlers[event.type] || []) result = await fn(event, ctx);
  } catch (e) { result = { threw: String(e.message) }; }
  out.push({ type: event.type, result: result ?? null, input: input ?? null,
             same: input === undefined || input === event.input, ms: Date.now() - start });
}
console.log(JSON.stringify(out));
"""

SEEN = "cat > \"$HOOKWRAP_PROJECT_DIR/seen-{0}.json\"; "


def group(matcher: str | None, command: str, timeout: int = 5, fail_closed: bool = False) -> dict:
    handler: dict = {"type": "command", "command": command, "timeout": timeout}
    if fail_closed:
        handler["failClosed"] = True
    return {**({"matcher": matcher} if matcher else {}), "hooks": [handler]}


def run(tmp_path: Path, data: dict, events: list[str]) -> tuple[list[dict], str, Path]:
    root = tmp_path / "my project"
    extensions = root / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    ext = extensions / "hookwrap.mjs"  # .mjs: node reads the ES module without a package.json
    ext.write_text(plugin_text(data, PI_SETUP), encoding="utf-8")
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER, encoding="utf-8")
    files = [str(EVENTS / f"{name}.json") for name in events]
    proc = subprocess.run(["node", str(driver), ext.as_uri(), str(root), json.dumps(files)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc.stderr, root


def seen(root: Path, name: str) -> dict:
    return json.loads((root / f"seen-{name}.json").read_text())


def test_the_extension_maps_pis_events_and_applies_answers(tmp_path: Path) -> None:
    data = {"hooks": {
        "SessionStart": [group("^(startup)$", SEEN.format("start") + 'echo \'{"additionalContext": "START-CTX"}\'')],
        "UserPromptSubmit": [group(None, SEEN.format("prompt") + 'echo \'{"additionalContext": "PROMPT-CTX"}\'')],
        "PreToolUse": [
            group("^bash$", SEEN.format("pre") + 'echo \'{"updatedInput": {"command": "new"}, "additionalContext": "PRE"}\''),
            group("^(write|edit)$", SEEN.format("pre-edit") + 'echo \'{"decision": "block", "reason": "no edit"}\''),
            # read: a hook that outlives its timeout and fails closed: blocked after 1 s.
            group("^read$", "sleep 30", timeout=1, fail_closed=True),
        ],
        "PostToolUse": [group("^bash$", SEEN.format("post") + 'echo \'{"additionalContext": "POST"}\''),
                        group("^edit$", 'echo \'{"decision": "block", "reason": "HIDDEN"}\'')],
        "PostToolUseFailure": [group("^bash$", SEEN.format("failed") + 'echo \'{"additionalContext": "FAIL"}\'')],
        "Stop": [group(None, SEEN.format("stop") + 'echo \'{"decision": "block", "reason": "not done"}\'')],
        "SessionEnd": [group("^(quit)$", SEEN.format("end"))],
    }}
    start = time.monotonic()
    out, stderr, root = run(tmp_path, data, [
        "session_start", "input", "before_agent_start", "tool_call.bash", "tool_result.bash",
        "tool_call.edit", "tool_call.read", "tool_result.bash.exit2", "tool_result.edit",
        "agent_end", "session_shutdown"])
    assert time.monotonic() - start < 30
    by = {}
    for item in out:
        by.setdefault(item["type"], []).append(item)
    _start, _input, agent_start = by["session_start"][0], by["input"][0], by["before_agent_start"][0]

    # SessionStart context goes to the system prompt, UserPromptSubmit's into a message.
    assert agent_start["result"]["systemPrompt"].endswith("\n\nSTART-CTX")
    assert agent_start["result"]["message"] == {"customType": "hookwrap", "content": "PROMPT-CTX",
                                               "display": False}
    assert seen(root, "start")["source"] == "startup" and seen(root, "prompt")["prompt"] == "run it"
    # PreToolUse: pi's own object changed in place (a new object would be ignored).
    bash_call, edit_call, read_call = by["tool_call"]
    assert bash_call["result"] is None and bash_call["same"] and bash_call["input"] == {"command": "new"}
    pre = seen(root, "pre")
    assert pre == {"hook_event_name": "PreToolUse", "session_id": "sid-1",
                   "transcript_path": "/s/sid-1.jsonl", "cwd": str(root), "tool_name": "bash",
                   "tool_input": {"command": "echo hi > probe.txt"}, "tool_use_id": "call_3_8a862227"}
    assert edit_call["result"] == {"block": True, "reason": "no edit"}
    assert seen(root, "pre-edit")["tool_input"] == {"path": "w.txt", "edits": [{"oldText": "hello", "newText": "bye"}]}
    assert read_call["result"]["block"] is True and "timed out after 1 s" in read_call["result"]["reason"]
    assert 900 <= read_call["ms"] < 10_000
    # PostToolUse: PreToolUse's context and PostToolUse's appended to the result's content.
    ok, failed, edited = by["tool_result"]
    assert ok["result"] == {"content": [{"type": "text", "text": "(no output)"},
                                        {"type": "text", "text": "PRE\n\nPOST"}]}
    response = seen(root, "post")["tool_response"]
    assert (response["content"], response["isError"]) == ([{"type": "text", "text": "(no output)"}], False)
    # A failed tool (isError) is PostToolUseFailure, with its text as `error`.
    assert failed["result"]["content"][-1] == {"type": "text", "text": "FAIL"}
    failure = seen(root, "failed")
    assert failure["hook_event_name"] == "PostToolUseFailure"
    assert failure["error"].endswith("Command exited with code 2")
    assert edited["result"] == {"content": [{"type": "text", "text": "HIDDEN"}], "isError": True}
    # Stop: notify only, the block is reported; SessionEnd gets pi's reason.
    assert by["agent_end"][0]["result"] is None
    assert "which pi cannot do here: not done" in stderr
    assert seen(root, "stop")["stop_hook_active"] is False
    assert seen(root, "end")["reason"] == "quit"
    assert "fails closed, so the call is blocked" in (root / ".hookwrap" / "logs" / "pi-extension.log").read_text()

    # What each hook got normalizes as hookwrap expects.
    assert HookInput.from_dict(pre, Platform.PI).tool_name == "shell"
    edit = HookInput.from_dict(seen(root, "pre-edit"), Platform.PI)
    assert (edit.tool_name, edit.file_paths) == ("edit_file", ["w.txt"])
    assert HookInput.from_dict(failure, Platform.PI).event is NormalizedEvent.AFTER_TOOL_FAILURE


def test_a_prompt_block_drops_the_prompt_and_says_why(tmp_path: Path) -> None:
    data = {"hooks": {"UserPromptSubmit": [group(None, 'echo \'{"decision": "block", "reason": "not now"}\'')]}}
    out, stderr, _root = run(tmp_path, data, ["input", "before_agent_start"])
    assert out[0]["result"] == {"action": "handled"}
    assert out[1]["result"] is None  # nothing left to add
    assert "hookwrap: the prompt was blocked: not now" in stderr


def test_a_hook_that_cannot_answer_lets_the_call_run_unless_it_fails_closed(tmp_path: Path) -> None:
    missing = 'python3 "$HOOKWRAP_PROJECT_DIR/missing.py"'
    data = {"hooks": {"PreToolUse": [group("^bash$", missing), group("^bash$", "exit 0"),
                                     group("^write$", "exit 3", fail_closed=True)]}}
    out, stderr, _root = run(tmp_path, data, ["tool_call.bash", "tool_call.write"])
    bash_call, write_call = out
    assert bash_call["result"] is None and bash_call["input"] == {"command": "echo hi > probe.txt"}
    assert "exited 2 without an answer" in stderr and "the call goes on" in stderr
    assert write_call["result"]["block"] is True
    assert "a fail-closed hook could not run (exited 3 without an answer)" in write_call["result"]["reason"]


# --- resident hooks: the extension posts to `hookwrap serve` ----------------------------------

class _Stub:
    """A loopback server that answers each path as the test says: ``{path: (status, body)}``;
    ``"hang"`` never answers. Records every request's headers and body."""

    def __init__(self, answers: dict[str, object]) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        stub = self
        self.seen: list[tuple[str, dict, dict]] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                stub.seen.append((self.path, dict(self.headers), json.loads(body)))
                answer = answers[self.path]
                if answer == "hang":
                    time.sleep(5)
                    return
                status, text = answer  # type: ignore[misc]
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/hookwrap/pi/{name}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def http(url: str, timeout: int = 5, fail_closed: bool = False) -> dict:
    handler: dict = {"type": "http", "url": url, "timeout": timeout}
    if fail_closed:
        handler["failClosed"] = True
    return handler


def test_a_resident_hook_is_posted_and_fails_closed_like_a_command(tmp_path: Path, refused_port: int) -> None:
    stub = _Stub({"/hookwrap/pi/guard": (200, '{"decision": "block", "reason": "RESIDENT-NO"}'),
                  "/hookwrap/pi/ctx": (200, '{"additionalContext": "RESIDENT-CTX"}'),
                  "/hookwrap/pi/broken": (500, '{"error": "no script"}'),
                  "/hookwrap/pi/slow": "hang"})
    dead = f"http://127.0.0.1:{refused_port}/hookwrap/pi/guard"  # a port nothing listens on
    try:
        data = {"hooks": {
            "PreToolUse": [
                {"matcher": "^edit$", "hooks": [http(stub.url("guard"), fail_closed=True)]},
                {"matcher": "^bash$", "hooks": [http(stub.url("broken")), http(stub.url("ctx"))]},
                {"matcher": "^write$", "hooks": [http(stub.url("slow"), timeout=1, fail_closed=True)]},
                {"matcher": "^read$", "hooks": [http(dead, fail_closed=True)]},
            ],
        }}
        out, stderr, root = run(tmp_path, data, ["tool_call.edit", "tool_call.bash", "tool_result.bash",
                                                 "tool_call.write", "tool_call.read"])
    finally:
        stub.close()
    edit, bash, result, write, read = out
    assert edit["result"] == {"block": True, "reason": "RESIDENT-NO"}
    path, headers, payload = stub.seen[0]
    assert path == "/hookwrap/pi/guard" and headers["Content-Type"] == "application/json"
    assert headers["Host"] == f"127.0.0.1:{stub.port}"  # what the server checks
    assert payload["tool_name"] == "edit" and payload["cwd"] == str(root)
    # A 500 from a hook that does not fail closed: reported, the call goes on to the next hook.
    assert bash["result"] is None and "HTTP 500 from" in stderr and "the call goes on" in stderr
    assert result["result"]["content"][-1] == {"type": "text", "text": "RESIDENT-CTX"}
    # A hang past the timeout and a refused connection block a fail-closed hook.
    assert write["result"]["block"] and "timed out after 1 s" in write["result"]["reason"]
    assert 900 <= write["ms"] < 4_000
    assert read["result"]["block"] and "ECONNREFUSED" in read["result"]["reason"]
    assert "is `hookwrap serve` running?" in read["result"]["reason"]


# --- bounded: nothing a hook does holds the call past its bounds --------------------------------

# A process that leaves the hook's group and session and holds the pipes it inherited for 20 s.
ESCAPED = "python3 -c 'import os, time; os.setsid(); time.sleep(20)' & echo $! >&2; "
FLOOD = "python3 -c 'import sys\nwhile True: sys.stdout.write(\"x\" * 65536)'"


def kill_printed_pids(stderr: str) -> None:
    import os
    import signal

    for word in stderr.split():
        if word.isdigit() and int(word) > 1:
            try:
                os.kill(int(word), signal.SIGKILL)
            except OSError:
                pass


def test_a_hook_s_leftover_process_or_flood_does_not_hold_the_call(tmp_path: Path) -> None:
    """The bash call's hook answers a block and exits, leaving a process that holds its stdout:
    the block comes at once (the call waited for that process before). The write call's hook
    floods its stdout: it is stopped at 8 MiB, and, failing closed, blocks."""
    answer = "echo '{\"decision\": \"block\", \"reason\": \"LEFT-BEHIND\"}'"
    data = {"hooks": {"PreToolUse": [group("^bash$", ESCAPED + answer, timeout=10),
                                     group("^write$", FLOOD, timeout=10, fail_closed=True)]}}
    out, stderr, _root = run(tmp_path, data, ["tool_call.bash", "tool_call.write"])
    kill_printed_pids(stderr)
    bash_call, write_call = out
    assert bash_call["result"] == {"block": True, "reason": "LEFT-BEHIND"}
    assert bash_call["ms"] < 3000, bash_call
    assert write_call["result"]["block"] is True and write_call["ms"] < 8000
    assert "(wrote more than 8 MiB and was stopped)" in write_call["result"]["reason"]


def test_a_fail_closed_hook_that_hangs_with_a_leftover_process_blocks_at_its_timeout(
        tmp_path: Path) -> None:
    data = {"hooks": {"PreToolUse": [group("^bash$", ESCAPED + "sleep 20", timeout=1,
                                           fail_closed=True)]}}
    out, stderr, _root = run(tmp_path, data, ["tool_call.bash"])
    kill_printed_pids(stderr)
    [call] = out
    assert call["result"]["block"] is True and "timed out after 1 s" in call["result"]["reason"]
    assert call["ms"] < 3000, call
