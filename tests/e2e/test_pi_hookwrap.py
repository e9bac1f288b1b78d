"""hookwrap on pi 0.73.1 (the real binary, offline): the generated extension, end to end.

pi has no command hooks: ``hookwrap`` renders ``.pi/extensions/hookwrap.js``, which runs the
hooks as commands. A run takes ~2-4 s (pi_harness.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .chat_harness import ChatAgent, make_project
from .mockmodel import Reply, ToolCall
from .qwen_copilot_support import (
    CHECK_FAILS,
    CONTEXT_MARKER,
    FORCED_PUSH,
    add_guard_audit_context,
    add_rewrite_or_ask,
    hookwrap_repo,
)

pytestmark = pytest.mark.e2e

EXTENSION = ".pi/extensions/hookwrap.js"
# The user's own extension: it blocks one word of its own and leaves a mark when pi loads it.
USER_EXTENSION = """\
import { writeFileSync } from "node:fs";
export default function (pi) {
  pi.on("session_start", async (event, ctx) => { writeFileSync(ctx.cwd + "/user-extension-ran", "yes"); });
  pi.on("tool_call", async (event) => {
    if (event.toolName === "bash" && String(event.input.command).includes("USER-WORD")) {
      return { block: true, reason: "E2E-USER-EXTENSION-BLOCK" };
    }
    return undefined;
  });
}
"""
START_MARKER = "E2E-SESSION-START-pi-5e1"


def test_guard_context_and_the_users_own_extension(pi: ChatAgent, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    extensions = project / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "user.js").write_text(USER_EXTENSION, encoding="utf-8")
    (project / ".env").write_text("KEEP=1\n", encoding="utf-8")
    repo = hookwrap_repo(pi, project, "pi")
    add_guard_audit_context(repo)
    repo.add("session_start", "start", "--template", "context")
    (project / ".hookwrap" / "start.md").write_text(START_MARKER + "\n", encoding="utf-8")
    steps = [pi.shell(FORCED_PUSH), pi.write_file(".env", "SECRET=1\n"),
             pi.edit_file("notes.txt", ("a", "b")),  # a harmless edit (the file is missing)
             pi.edit_file(".env", ("KEEP=1", "SECRET=1"), ("x", "y")),
             pi.shell("echo USER-WORD"), pi.shell("echo ok > harmless.txt"), Reply("Finished.")]
    result = pi.run(project, steps, prompt="do it")

    assert result.rc == 0, result.describe()
    assert "Finished." in result.stdout, result.describe()
    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert (project / ".env").read_text() == "KEEP=1\n", result.describe()
    results = [r["text"] for r in result.tool_results()]
    assert "Blocked by the guard hook" in results[0] and "force" in results[0].lower(), results
    assert "Blocked by the guard hook" in results[1] and ".env" in results[1], results
    assert "Blocked by the guard hook" not in results[2], results
    assert "Blocked by the guard hook" in results[3] and ".env" in results[3], results
    # The user's extension runs beside hookwrap's: its own block, and its session_start.
    assert results[4] == "E2E-USER-EXTENSION-BLOCK", results
    assert (project / "user-extension-ran").read_text() == "yes"
    # before_prompt context: a message after the prompt; session_start: the system prompt.
    assert CONTEXT_MARKER in " ".join(result.user_messages(0)), result.describe()
    assert START_MARKER in result.system_prompt(0), result.describe()
    assert START_MARKER in result.system_prompt(-1), result.describe()
    # The extension runs an event's hooks in turn and stops at the first block: audit saw the
    # shell calls the guard let through, once each (one run per hook per call).
    lines = repo.log_lines("audit")
    assert [(line["platform"], line["tool_input"]["command"]) for line in lines] == \
        [("pi", "echo USER-WORD"), ("pi", "echo ok > harmless.txt")], lines

    assert repo.hookwrap("sync", "--check").returncode == 0
    doctor = repo.hookwrap("doctor", check=False)
    assert "no trust prompt" in doctor.stdout and "pi-extension" not in doctor.stdout, doctor.stdout
    # remove turns hookwrap's hook off; the last one removes the extension, never the user's.
    repo.hookwrap("remove", "guard")
    result = pi.run(project, [pi.shell(FORCED_PUSH), Reply("Finished.")], prompt="do it")
    assert "Blocked by the guard hook" not in result.tool_results()[0]["text"], result.describe()
    for name in ("context", "audit", "start"):
        repo.hookwrap("remove", name)
    assert not (project / EXTENSION).exists()
    assert (extensions / "user.js").read_text(encoding="utf-8") == USER_EXTENSION


TOOL_HOOK = '''\
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402


def hook(event: HookInput) -> HookOutput | None:
    command = str(event.tool_input.get("command", ""))
    if event.event.value == "before_tool" and "ctx" in command:
        return HookOutput(context="E2E-PRE-CONTEXT")
    if event.event.value == "after_tool" and "ctx" in command:
        text = " ".join(part.get("text", "") for part in event.tool_response["content"])
        return HookOutput(context="E2E-POST-CONTEXT " + text.strip())
    if event.event.value == "after_tool" and "hide" in command:
        return HookOutput.block("E2E-OUTPUT-HIDDEN")
    if event.event.value == "after_tool_failure":
        return HookOutput(context="E2E-FAILURE-SEEN " + str(event.error).splitlines()[-1])
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def test_rewrite_ask_tool_context_and_failed_tools(pi: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(pi, git_project, "pi")
    add_rewrite_or_ask(repo)
    for event, name in (("before_tool", "pre"), ("after_tool", "post"),
                        ("after_tool_failure", "failed")):
        repo.add(event, name, "--template", "skeleton", "--matcher", "shell")
        repo.script(name).write_text(TOOL_HOOK, encoding="utf-8")
    steps = [pi.shell("echo x > original.txt"), pi.shell("echo risky > r.txt"),
             pi.shell("echo ctx-out"), pi.shell("echo hide-me"), pi.shell("exit 3"),
             Reply("Finished.")]
    result = pi.run(git_project, steps)

    assert result.rc == 0, result.describe()
    # updated_input: the arguments are changed in place, so the rewritten command ran.
    assert (git_project / "rewritten.txt").exists() and not (git_project / "original.txt").exists(), \
        result.describe()
    results = [r["text"] for r in result.tool_results()]
    # ask: a block whose reason tells the model to ask the user.
    assert not (git_project / "r.txt").exists(), result.describe()
    assert "E2E-ASK-REASON" in results[1] and "ask the user" in results[1], results
    # before_tool and after_tool context: appended to the tool's result the model gets.
    assert results[2].startswith("ctx-out") and "E2E-PRE-CONTEXT" in results[2] \
        and "E2E-POST-CONTEXT ctx-out" in results[2], results
    # after_tool block: the tool ran, the model sees the reason instead of its output.
    assert results[3] == "E2E-OUTPUT-HIDDEN", results
    # A failed tool is after_tool_failure (pi fires tool_result for it too), not after_tool.
    assert "Command exited with code 3" in results[4] \
        and "E2E-FAILURE-SEEN Command exited with code 3" in results[4], results


def test_fail_closed_and_no_stop_gate(pi: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(pi, git_project, "pi")
    added = repo.hookwrap("add", "after_agent", "stop_gate")
    assert "pi: cannot keep the agent working" in added.stderr + added.stdout, added.stderr
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("before_tool", "guard")
    repo.script("audit").unlink()
    result = pi.run(git_project, [pi.shell("echo ok > a.txt"), Reply("Finished."), Reply("Again.")])

    # The stop gate's check fails, yet no retry: agent_end is not awaited and its answer is
    # ignored (the tool call and the answer: two requests); the extension says so.
    assert result.rc == 0, result.describe()
    assert len(result.requests) == 2, result.describe()
    assert "which pi cannot do here" in result.stderr, result.describe()
    test = repo.hookwrap("test", "stop_gate", "--platform", "pi", check=False)
    assert "cannot keep the agent working" in test.stdout + test.stderr, test.stdout + test.stderr
    # audit cannot run (python3 exits 2): reported, the call goes on; the guard still runs.
    assert (git_project / "a.txt").read_text() == "ok\n", result.describe()
    assert "hookwrap: PreToolUse hook" in result.stderr and "the call goes on" in result.stderr

    # The guard fails closed: a script that crashes before hookwrap answers blocks the call...
    repo.hookwrap("remove", "stop_gate")
    repo.script("guard").write_text("raise SystemExit(3)\n", encoding="utf-8")
    result = pi.run(git_project, [pi.shell("echo ok > b.txt"), Reply("Finished.")])
    assert result.rc == 0, result.describe()
    assert not (git_project / "b.txt").exists(), result.describe()
    text = result.tool_results()[0]["text"]
    assert "fail-closed hook could not run (exited 2" in text, result.describe()
    assert "guard fails closed and ended (exit code 3) without an answer" in text, result.describe()
    # ... and so does one that hangs: the launcher blocks at its deadline (1.4 s of 2 s).
    repo.script("guard").write_text("import time\ntime.sleep(60)\n", encoding="utf-8")
    toml = git_project / "hookwrap.toml"
    toml.write_text(toml.read_text().replace("timeout = 10", "timeout = 2"), encoding="utf-8")
    repo.sync()
    start = time.monotonic()
    result = pi.run(git_project, [pi.shell("echo ok > c.txt"), Reply("Finished.")])
    assert time.monotonic() - start < 40, result.describe()
    assert not (git_project / "c.txt").exists(), result.describe()
    assert "guard fails closed and gave no answer within 1.4 s" in result.tool_results()[0]["text"]
    # Without any script at all (python3 exits 2), the same.
    repo.script("guard").unlink()
    result = pi.run(git_project, [pi.shell("echo ok > d.txt"), Reply("Finished.")])
    assert not (git_project / "d.txt").exists(), result.describe()
    assert "fail-closed hook could not run" in result.tool_results()[0]["text"], result.describe()


def test_each_hook_runs_once_with_claude_code_and_opencode_registered_too(
        pi: ChatAgent, git_project: Path) -> None:
    """pi reads no other CLI's settings: with Claude Code's and OpenCode's registrations in the
    project, a pi run starts each hook once per call, as pi."""
    repo = hookwrap_repo(pi, git_project, "claude", "opencode", "pi")
    repo.add("before_tool", "audit", "--matcher", "shell|write_file|edit_file")
    repo.add("after_tool", "post", "--template", "audit", "--matcher", "shell")
    assert (git_project / ".claude" / "settings.json").exists()
    assert (git_project / ".opencode" / "plugins" / "hookwrap.js").exists()
    steps = [pi.shell("echo one > one.txt"), pi.write_file("two.txt", "2\n"),
             ToolCall("read", {"path": "two.txt"}), Reply("Finished.")]
    result = pi.run(git_project, steps)

    assert result.rc == 0, result.describe()
    assert result.hooks == [("audit", "pi"), ("post", "pi"), ("audit", "pi")], result.describe()
    lines = repo.log_lines("audit")
    assert [(line["platform"], line["tool_name"]) for line in lines] == \
        [("pi", "shell"), ("pi", "write_file")], lines
    assert lines[1]["files"] == ["two.txt"], lines
    post = repo.log_lines("post")
    assert [(line["platform"], line["event"]) for line in post] == [("pi", "after_tool")], post
    assert json.loads((git_project / ".claude" / "settings.json").read_text())["hooks"]


# --- resident hooks: the extension posts to `hookwrap serve` ----------------------------------


def test_a_resident_guard_answers_from_the_server_and_fails_closed_without_it(
        pi: ChatAgent, git_project: Path) -> None:
    """`add --resident` on pi: the extension posts each call to the project's `hookwrap serve`
    (no hook process starts); with the server down the fail-closed guard blocks every call."""
    from .test_resident import Server, _free_port, _use_port

    repo = hookwrap_repo(pi, git_project, "pi")
    port = _free_port()
    _use_port(repo, port)
    added = repo.hookwrap("add", "before_tool", "guard", "--resident")
    assert "pi blocks every call guard matches" in added.stdout + added.stderr, added.stderr
    assert f"http://127.0.0.1:{port}/hookwrap/pi/guard" in (git_project / EXTENSION).read_text()

    # The server down: blocked, with the reason, and the run goes on.
    result = pi.run(git_project, [pi.shell("echo ok > down.txt"), Reply("Finished.")])
    assert result.rc == 0 and not (git_project / "down.txt").exists(), result.describe()
    reason = result.tool_results()[0]["text"]
    assert "fail-closed hook could not run" in reason and "ECONNREFUSED" in reason, reason

    server = Server(repo, port).start()
    try:
        steps = [pi.shell(FORCED_PUSH), pi.write_file(".env", "SECRET=1\n"),
                 pi.shell("echo ok > up.txt"), Reply("Finished.")]
        result = pi.run(git_project, steps)
    finally:
        server.stop()
    assert result.rc == 0, result.describe()
    results = [r["text"] for r in result.tool_results()]
    assert "Blocked by the guard hook" in results[0] and "Blocked by the guard hook" in results[1], results
    assert (git_project / "up.txt").read_text() == "ok\n" and not (git_project / ".env").exists()
    assert result.hooks == [], result.describe()  # no python process: the server answered


LEFT_BEHIND = """\
import os, subprocess, sys
sys.stdin.read()
# A process in a session of its own that inherits stdout and holds it for 30 s.
child = subprocess.Popen([sys.executable, "-c", "import os, time; os.setsid(); time.sleep(30)"])
open(os.path.join(os.path.dirname(__file__), "child.pid"), "w").write(str(child.pid))
print('{"decision": "block", "reason": "E2E-LEFT-BEHIND"}')
"""


def test_a_process_a_hook_leaves_behind_does_not_hold_the_call(pi: ChatAgent,
                                                                 git_project: Path) -> None:
    """The hook answers a block and exits, leaving a process that holds its stdout for 30 s:
    pi gets the block at once (the extension waited for that process before, past the hook's
    10 s timeout, and the call then went on)."""
    import os
    import signal

    repo = hookwrap_repo(pi, git_project, "pi")
    repo.add("before_tool", "left", "--template", "skeleton", "--matcher", "shell")
    repo.script("left").write_text(LEFT_BEHIND, encoding="utf-8")
    start = time.monotonic()
    try:
        result = pi.run(git_project, [pi.shell("echo ok > left.txt"), Reply("Finished.")])
        took = time.monotonic() - start
    finally:
        pid_file = repo.script("left").parent / "child.pid"
        if pid_file.exists():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except OSError:
                pass
    assert result.rc == 0, result.describe()
    assert not (git_project / "left.txt").exists(), result.describe()
    assert "E2E-LEFT-BEHIND" in result.tool_results()[0]["text"], result.describe()
    assert took < 10, (took, result.describe())


def _interactive(pi: ChatAgent, project: Path, lines: list[str], done, timeout: float = 60.0) -> str:
    """pi in interactive mode on a pseudo-terminal, from ``project``: each line typed and
    entered once the previous one's ``done(project, screen)`` holds; what it drew, as text."""
    import os
    import pty
    import select
    import signal
    import subprocess

    env = {**pi.env(), "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    main, child = pty.openpty()
    proc = subprocess.Popen([str(pi.binary), "--provider", "mock", "--model", "mock-model"],
                            cwd=project, env=env, stdin=child, stdout=child, stderr=child,
                            start_new_session=True, close_fds=True)
    os.close(child)
    screen = b""

    def read_for(seconds: float) -> None:
        nonlocal screen
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    screen += os.read(main, 65536)
                except OSError:
                    return

    try:
        read_for(8)  # start-up: extensions load, the editor is drawn
        for i, line in enumerate(lines):
            os.write(main, line.encode())
            time.sleep(0.3)
            os.write(main, b"\r")
            deadline = time.monotonic() + timeout
            while not done(i, project, screen.decode("utf-8", "replace")) and time.monotonic() < deadline:
                read_for(0.5)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        os.close(main)
    return screen.decode("utf-8", "replace")


def test_guard_sees_a_users_bang_command(pi: ChatAgent, git_project: Path) -> None:
    """pi 0.73.1's `!cmd` in interactive mode runs no tool; the extension hands its user_bash
    event to the before_tool hooks as a bash call, so the guard stops a forced push typed there
    and lets a harmless command run."""
    repo = hookwrap_repo(pi, git_project, "pi")
    repo.add("before_tool", "guard")
    pi.server.script([], final="Done.")

    def done(i: int, project: Path, screen: str) -> bool:
        return "rule git.push-force" in screen if i == 0 else (project / "harmless.txt").exists()

    screen = _interactive(pi, git_project, [f"!touch marker && {FORCED_PUSH}", "!touch harmless.txt"],
                          done)

    assert not (git_project / "marker").exists(), screen[-3000:]
    assert "Blocked by the guard hook" in screen, screen[-3000:]
    assert (git_project / "harmless.txt").exists(), screen[-3000:]
    assert [run.name for run in pi.sandbox.hook_runs()] == ["guard", "guard"], pi.sandbox.hook_runs()
    assert not pi.server.requests, pi.server.requests  # a `!` command asks no model
