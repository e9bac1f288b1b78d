"""hookwrap's OpenCode plugin itself, run in node with OpenCode's plugin API calls faked: which
commands run, in-place rewrites, blocks, context, and that a hook that cannot answer neither
stalls nor blocks (unless it fails closed). The real binary is exercised in tests/e2e."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from hookwrap.generator.clis.opencode import plugin_text

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

DRIVER = r"""
const plugin = await import(process.argv[2]);
const hooks = await plugin.HookwrapPlugin({ directory: process.argv[3], worktree: process.argv[3] });
const out = {};
async function attempt(name, fn) {
  const start = Date.now();
  try { out[name] = { value: await fn() }; } catch (e) { out[name] = { error: String(e.message) }; }
  out[name].ms = Date.now() - start;
}
const args = { command: "old", extra: 1 };
const same = args;
await attempt("rewrite", async () => {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c1" }, { args });
  return { args, same: same === args };
});
await attempt("block", () => hooks["tool.execute.before"]({ tool: "write", sessionID: "s", callID: "c2" },
                                                       { args: { filePath: "/x/.env" } }));
await attempt("slow_then_closed", () => hooks["tool.execute.before"]({ tool: "read", sessionID: "s", callID: "c3" },
                                                                   { args: { filePath: "a" } }));
await attempt("after", async () => {
  const output = { output: "ran", title: "t", metadata: {} };
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c1", args }, output);
  return output.output;
});
await attempt("prompt", async () => {
  const output = { message: { id: "msg_1" }, parts: [{ type: "text", text: "hi", id: "prt_1" }] };
  await hooks["chat.message"]({ sessionID: "s" }, output);
  return output.parts.map((p) => [p.type, p.text, p.synthetic === true, typeof p.id]);
});
await attempt("system", async () => {
  await hooks.event({ event: { type: "session.created", properties: { sessionID: "s" } } });
  const output = { system: ["base"] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, output);
  return output.system;
});
console.log(JSON.stringify(out));
"""

SEEN = "printf '%s' \"$(cat)\" > \"$HOOKWRAP_PROJECT_DIR/seen-{0}.json\"; "


def group(matcher: str | None, command: str, timeout: int = 5, fail_closed: bool = False) -> dict:
    handler: dict = {"type": "command", "command": command, "timeout": timeout}
    if fail_closed:
        handler["failClosed"] = True
    return {**({"matcher": matcher} if matcher else {}), "hooks": [handler]}


def test_the_plugin_applies_answers_and_never_stalls(tmp_path: Path) -> None:
    root = tmp_path / "my project"
    plugins = root / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    rewrite = SEEN.format("pre") + 'echo \'{"updatedInput": {"command": "new"}, "additionalContext": "PRE"}\''
    data = {"hooks": {
        "PreToolUse": [
            group("^bash$", rewrite),
            group("^write$", 'echo \'{"decision": "block", "reason": "no .env"}\''),
            # read: a hook that outlives its timeout (fails open), then one that cannot start
            # and fails closed (python3 exits 2 on a missing script).
            group("^read$", "sleep 30", timeout=1),
            group("^read$", 'python3 "$HOOKWRAP_PROJECT_DIR/missing.py"', fail_closed=True),
            group("^read$", "exit 2"),
        ],
        "PostToolUse": [group("^bash$", SEEN.format("post") + 'echo \'{"additionalContext": "POST"}\'')],
        "UserPromptSubmit": [group(None, 'echo \'{"additionalContext": "PROMPT-CTX"}\'')],
        "SessionStart": [group(None, 'echo \'{"additionalContext": "START-CTX"}\'')],
    }}
    plugin = plugins / "hookwrap.mjs"  # .mjs: node reads the ES module without a package.json
    plugin.write_text(plugin_text(data), encoding="utf-8")
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER, encoding="utf-8")
    start = time.monotonic()
    proc = subprocess.run(["node", str(driver), plugin.as_uri(), str(root)], capture_output=True,
                          text=True, timeout=60, check=False)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)

    # The rewrite changed the caller's own object in place (a new object would be ignored).
    assert out["rewrite"]["value"] == {"args": {"command": "new"}, "same": True}
    pre = json.loads((root / "seen-pre.json").read_text())
    assert pre["hook_event_name"] == "PreToolUse" and pre["tool_name"] == "bash"
    assert pre["tool_input"] == {"command": "old", "extra": 1} and pre["cwd"] == str(root)
    assert out["block"]["error"] == "no .env"
    # The slow hook was killed after 1 s; the missing script then blocked, as it fails closed;
    # the plain `exit 2` after it never ran.
    assert "fail-closed hook could not run" in out["slow_then_closed"]["error"]
    assert 900 <= out["slow_then_closed"]["ms"] < 10_000 and elapsed < 30
    assert "timed out after 1 s: the call goes on" in proc.stderr
    # PreToolUse context is delivered with the tool's output, after PostToolUse's.
    assert out["after"]["value"] == "ran\n\nPRE\n\nPOST"
    post = json.loads((root / "seen-post.json").read_text())
    assert post["tool_response"] == {"output": "ran", "title": "t", "metadata": {}}
    assert out["prompt"]["value"] == [["text", "hi", False, "string"], ["text", "PROMPT-CTX", True, "string"]]
    assert out["system"]["value"] == ["base", "START-CTX"]
    log = (root / ".hookwrap" / "logs" / "opencode-plugin.log").read_text()
    assert "timed out" in log and "fails closed" in log


def test_a_prompt_block_refuses_the_prompt_and_prints_the_reason(tmp_path: Path) -> None:
    root = tmp_path / "p"
    plugins = root / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    data = {"hooks": {"UserPromptSubmit": [group(None, 'echo \'{"decision": "block", "reason": "not now"}\'')]}}
    plugin = plugins / "hookwrap.mjs"
    plugin.write_text(plugin_text(data), encoding="utf-8")
    driver = tmp_path / "d.mjs"
    driver.write_text("""
const p = await import(process.argv[2]);
const h = await p.HookwrapPlugin({ directory: process.argv[3] });
try {
  await h["chat.message"]({ sessionID: "s" }, { message: { id: "m" }, parts: [{ type: "text", text: "hi" }] });
  console.log("went on");
} catch (e) { console.log("threw: " + e.message); }
""", encoding="utf-8")
    proc = subprocess.run(["node", str(driver), plugin.as_uri(), str(root)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.stdout.strip() == "threw: not now", proc.stdout + proc.stderr
    # OpenCode itself shows an opaque error for a thrown chat.message: the plugin says why first.
    assert "hookwrap: the prompt was blocked: not now" in proc.stderr


def test_a_failing_hook_that_is_not_fail_closed_lets_the_call_run(tmp_path: Path) -> None:
    root = tmp_path / "p"
    plugins = root / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    data = {"hooks": {"PreToolUse": [group(None, 'python3 "$HOOKWRAP_PROJECT_DIR/missing.py"')]}}
    plugin = plugins / "hookwrap.mjs"
    plugin.write_text(plugin_text(data), encoding="utf-8")
    driver = tmp_path / "d.mjs"
    driver.write_text("""
const p = await import(process.argv[2]);
const h = await p.HookwrapPlugin({ directory: process.argv[3] });
const args = { command: "ls" };
await h["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args });
console.log(JSON.stringify(args));
""", encoding="utf-8")
    proc = subprocess.run(["node", str(driver), plugin.as_uri(), str(root)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"command": "ls"}
    assert "exited 2 without an answer" in proc.stderr and "the call goes on" in proc.stderr


def test_a_rewrite_of_an_apply_patch_call_blocks_it(tmp_path: Path) -> None:
    """A patch is never rewritten (the hooks checked the files it names): a hook's updatedInput
    on apply_patch blocks the call, unless it hands the same patch back; other tools still take
    rewrites."""
    root = tmp_path / "p"
    plugins = root / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    rewrite = 'printf \'%s\' \'{"updatedInput": {"patchText": "*** Begin Patch\\n*** Add File: b\\n+y\\n*** End Patch"}}\''
    same = 'python3 -c \'import json,sys; d=json.load(sys.stdin); print(json.dumps({"updatedInput": d["tool_input"]}))\''
    data = {"hooks": {"PreToolUse": [group("^(apply_patch|write)$", rewrite)]}}
    plugin = plugins / "hookwrap.mjs"
    plugin.write_text(plugin_text(data), encoding="utf-8")
    driver = tmp_path / "d.mjs"
    driver.write_text("""
const p = await import(process.argv[2]);
const h = await p.HookwrapPlugin({ directory: process.argv[3] });
const patch = "*** Begin Patch\\n*** Add File: a\\n+x\\n*** End Patch";
const out = {};
for (const [name, tool, args] of [["patch", "apply_patch", { patchText: patch }],
                                  ["write", "write", { filePath: "a", content: "x" }]]) {
  try {
    await h["tool.execute.before"]({ tool, sessionID: "s", callID: name }, { args });
    out[name] = args;
  } catch (e) { out[name] = "threw: " + e.message; }
}
""" + """
// The same patch handed back (a hook that rewrites only other calls) is no rewrite.
const p2 = await import(process.argv[4]);
const h2 = await p2.HookwrapPlugin({ directory: process.argv[3] });
const args = { patchText: patch };
await h2["tool.execute.before"]({ tool: "apply_patch", sessionID: "s", callID: "x" }, { args });
out.same = args;
console.log(JSON.stringify(out));
""", encoding="utf-8")
    # The second plugin sends apply_patch to the hook that hands its input back.
    data2 = {"hooks": {"PreToolUse": [group("^apply_patch$", same)]}}
    plugin2 = plugins / "second.mjs"
    plugin2.write_text(plugin_text(data2), encoding="utf-8")
    proc = subprocess.run(["node", str(driver), plugin.as_uri(), str(root), plugin2.as_uri()],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["patch"].startswith("threw: hookwrap: a hook asked to rewrite this apply_patch call")
    assert out["write"] == {"patchText": "*** Begin Patch\n*** Add File: b\n+y\n*** End Patch"}
    assert out["same"] == {"patchText": "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}


def test_an_answer_after_an_apply_patch_call_never_says_it_was_blocked(tmp_path: Path) -> None:
    """updatedInput means nothing once a tool has run: after an apply_patch call it is ignored
    like any other, never turned into the pre-call block ("the call was blocked") while the
    patch was applied."""
    root = tmp_path / "p"
    plugins = root / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    answer = 'echo \'{"updatedInput": {"patchText": "other"}, "additionalContext": "POST"}\''
    data = {"hooks": {"PostToolUse": [group("^apply_patch$", answer)]}}
    plugin = plugins / "hookwrap.mjs"
    plugin.write_text(plugin_text(data), encoding="utf-8")
    driver = tmp_path / "d.mjs"
    driver.write_text("""
const p = await import(process.argv[2]);
const h = await p.HookwrapPlugin({ directory: process.argv[3] });
const output = { output: "Success. Updated the following files:\\nA a", title: "t", metadata: {} };
await h["tool.execute.after"]({ tool: "apply_patch", sessionID: "s", callID: "c",
                               args: { patchText: "*** Begin Patch" } }, output);
console.log(JSON.stringify(output.output));
""", encoding="utf-8")
    proc = subprocess.run(["node", str(driver), plugin.as_uri(), str(root)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == "Success. Updated the following files:\nA a\n\nPOST"


# --- bounded: nothing a hook does holds the call past its bounds --------------------------------

BOUNDED_DRIVER = r"""
const plugin = await import(process.argv[2]);
const hooks = await plugin.HookwrapPlugin({ directory: process.argv[3], worktree: process.argv[3],
                                            client: { session: { prompt: async () => {} } } });
const out = {};
for (const [name, tool] of [["left", "bash"], ["hang", "read"], ["flood", "write"]]) {
  const start = Date.now();
  try {
    await hooks["tool.execute.before"]({ tool, sessionID: "s", callID: name }, { args: { filePath: "a" } });
    out[name] = { ms: Date.now() - start };
  } catch (e) { out[name] = { error: String(e.message), ms: Date.now() - start }; }
}
console.log(JSON.stringify(out));
"""
# A process that leaves the hook's group and session and holds the pipes it inherited for 20 s.
ESCAPED = "python3 -c 'import os, time; os.setsid(); time.sleep(20)' & echo $! >&2; "
FLOOD = "python3 -c 'import sys\nwhile True: sys.stdout.write(\"x\" * 65536)'"


@pytest.mark.parametrize("platform", ["opencode", "kilo"])
def test_a_hook_s_leftover_process_or_flood_does_not_hold_the_call(tmp_path: Path,
                                                                    platform: str) -> None:
    """A hook that answers and exits, leaving a process that holds its stdout: the answer comes
    at once (the call waited for that process before). A fail-closed hook that hangs with such
    a process blocks at its timeout; one that floods its stdout is stopped at 8 MiB."""
    import os
    import signal

    from hookwrap.generator.clis import setup_of

    answer = "echo '{\"decision\": \"block\", \"reason\": \"LEFT-BEHIND\"}'"
    data = {"hooks": {"PreToolUse": [
        group("^bash$", ESCAPED + answer, timeout=10),
        group("^read$", ESCAPED + "sleep 20", timeout=1, fail_closed=True),
        group("^write$", FLOOD, timeout=10, fail_closed=True)]}}
    root = tmp_path / "repo"
    plugin = root / "plugin.mjs"
    root.mkdir()
    plugin.write_text(plugin_text(data, setup_of(platform)), encoding="utf-8")
    driver = tmp_path / "driver.mjs"
    driver.write_text(BOUNDED_DRIVER, encoding="utf-8")
    proc = subprocess.run(["node", str(driver), plugin.as_uri(), str(root)], capture_output=True,
                          text=True, timeout=120, check=False)
    for word in proc.stderr.split():
        if word.isdigit() and int(word) > 1:
            try:
                os.kill(int(word), signal.SIGKILL)
            except OSError:
                pass
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["left"]["error"] == "LEFT-BEHIND" and out["left"]["ms"] < 3000, out
    assert "timed out after 1 s" in out["hang"]["error"] and out["hang"]["ms"] < 3000, out
    assert "(wrote more than 8 MiB and was stopped)" in out["flood"]["error"], out
    assert out["flood"]["ms"] < 8000, out
