"""Gemini CLI's and Qwen Code's own Windows handling of a hook command, cut from the installed
bundles and run by node with the platform set to ``win32``: the shell each picks
(``getShellConfiguration``, for each ComSpec), then its variable substitution
(``expandCommand`` / ``escapeShellArg``) applied to hookwrap's Windows form, which must come
out unchanged. The same code turns today's POSIX commands into something else, which shows the
check can fail. Nothing is run through a shell.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hookwrap.generator.registrations import command_for
from hookwrap.generator.winforms import windows_command
from hookwrap.names import Platform

from .harness import cli_cache_dir

pytestmark = pytest.mark.e2e

# The chunks that hold the functions, in the pinned versions (Gemini CLI 0.61.0: the same code
# is in three chunks, this one is the hook runner's; Qwen Code 0.24.4).
GEMINI = ("node_modules/@google/gemini-cli/bundle/chunk-5FZXKDXH.js",) * 2
QWEN = ("qwen/node_modules/@qwen-code/qwen-code/chunks/chunk-I3K2QRZ5.js",
        "qwen/node_modules/@qwen-code/qwen-code/chunks/chunk-DPEB6S2R.js")
CWD = "C:\\Users\\Ann O'Neil\\my proj"  # a space and a quote: each escapeShellArg must quote it
COMSPECS = ["C:\\Windows\\system32\\cmd.exe",
            "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe"]

# Cuts a function (or a class method, made a function) out of a bundle by its name, by
# counting braces from its opening line, and evaluates the lot with os.platform() = win32.
_CUTTER = r"""
const fs = require("fs");
const [shellFile, hookFile, spec] = process.argv.slice(2);
const { commands, cwd, comspecs } = JSON.parse(fs.readFileSync(spec, "utf8"));
function cut(file, opening) {
  const text = fs.readFileSync(file, "utf8");
  const start = text.indexOf(opening);
  if (start < 0) throw new Error(`${opening} not in ${file}`);
  let depth = 0, i = text.indexOf("{", start);
  for (; i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) break;
  }
  return text.slice(start, i + 1);
}
const os4 = { platform: () => "win32" }, os = os4;
const resolveExecutable = () => null;  // no pwsh.exe on PATH: Windows PowerShell 5.1
const debugLogger = { debug() {}, warn() {} }, debugLogger110 = debugLogger;
const __name = (f) => f;
const import_shell_quote = { quote: (a) => a.join(" ") }, import_shell_quote2 = import_shell_quote;
const source = [
  cut(shellFile, "function getShellConfiguration() {"),
  cut(shellFile, "var isWindows = ").split("\n")[0],
  cut(shellFile, "function escapeShellArg(arg, shell) {"),
  "function expandCommand" + cut(hookFile, "  expandCommand(command, input, shellType) {")
    .trim().slice("expandCommand".length),
  "return { getShellConfiguration, expandCommand };",
].join("\n");
const { getShellConfiguration, expandCommand } = new Function(
  "os4", "os", "resolveExecutable", "debugLogger", "debugLogger110", "__name",
  "import_shell_quote", "import_shell_quote2", "process", source)(
  os4, os, resolveExecutable, debugLogger, debugLogger110, __name, import_shell_quote,
  import_shell_quote2, process);
const self = { config: { storage: { getPlansDir: () => cwd + "\\plans" } } };
const out = [];
for (const comspec of comspecs) {
  process.env.ComSpec = comspec;
  const shell = getShellConfiguration();
  for (const command of commands) {
    out.push({ comspec, shell: shell.shell, executable: shell.executable, command,
               expanded: expandCommand.call(self, command, { cwd, session_id: "s 1" },
                                            shell.shell) });
  }
}
process.stdout.write(JSON.stringify(out));
"""


def _node_run(tmp_path: Path, files: tuple[str, str], commands: list[str]) -> list[dict]:
    base = cli_cache_dir()
    paths = [base / rel for rel in files]
    if shutil.which("node") is None or not all(path.is_file() for path in paths):
        pytest.skip("node or the installed CLI bundle is missing (.ci/install-clis.sh)")
    script, spec = tmp_path / "cut.js", tmp_path / "spec.json"
    script.write_text(_CUTTER)
    spec.write_text(json.dumps({"commands": commands, "cwd": CWD, "comspecs": COMSPECS}))
    done = subprocess.run(["node", str(script), *map(str, paths), str(spec)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("cli,files,shells", [
    ("gemini", GEMINI, ["powershell", "powershell"]),  # cmd.exe as ComSpec: still PowerShell
    ("qwen", QWEN, ["cmd", "powershell"]),
])
def test_windows_form_survives_the_clis_own_substitution(tmp_path: Path, cli: str,
                                                         files: tuple[str, str],
                                                         shells: list[str]) -> None:
    forms = [windows_command(cli, "guard", "py -3", fail_closed=closed)
             for closed in (True, False)]
    today = command_for("guard", Platform(cli), "python3")
    results = _node_run(tmp_path, files, [*forms, today])
    assert [r["shell"] for r in results[::3]] == shells
    for result in results:
        if result["command"] in forms:
            assert result["expanded"] == result["command"]
    # The check can fail: Qwen Code rewrites today's `$QWEN_PROJECT_DIR` into quoted text, and
    # Gemini CLI's PowerShell reads today's `${GEMINI_PROJECT_DIR}` as its own (empty) variable.
    if cli == "qwen":
        assert all(r["expanded"] != today for r in results if r["command"] == today)
    else:
        assert "${GEMINI_PROJECT_DIR}" in today
