"""A block stays a block in every CLI's own words: raw_output cannot turn a Copilot deny into an
allow, and a crash on Codex's PermissionRequest denies in that event's schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookwrap import HookOutput, NormalizedEvent, Platform, denormalize_output
from hookwrap.generator.vendor import RUNTIME_MODULES

SRC = Path(__file__).resolve().parents[2] / "src"


def test_raw_output_cannot_override_a_copilot_deny() -> None:
    out = json.loads(denormalize_output(
        HookOutput.block("no", raw_output={"permissionDecision": "allow"}),
        Platform.COPILOT, NormalizedEvent.BEFORE_TOOL))
    assert out["permissionDecision"] == "deny"
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_crash_on_codex_permission_request_denies_in_its_schema(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    for module in RUNTIME_MODULES:
        (lib / "hookwrap" / module).parent.mkdir(parents=True, exist_ok=True)
        (lib / "hookwrap" / module).write_bytes((SRC / "hookwrap" / module).read_bytes())
    script = tmp_path / "hook.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(lib)!r})\nfrom hookwrap import main\n"
                      "def hook(event):\n    raise RuntimeError('boom')\n"
                      "raise SystemExit(main(hook))\n")
    payload = {"hook_event_name": "PermissionRequest", "tool_name": "Bash",
               "tool_input": {"command": "ls"}, "session_id": "s", "cwd": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-I", str(script), "--platform", "codex"],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert set(out) == {"hookSpecificOutput"}
    decision = out["hookSpecificOutput"]["decision"]
    assert decision["behavior"] == "deny" and "boom" in decision["message"]
