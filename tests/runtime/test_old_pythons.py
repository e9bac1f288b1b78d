"""The runtime and the rendered hooks on real Python 3.9 and 3.10, where an interpreter is found.

vermin proves the floor statically everywhere (test_python_floor.py); where the machine also has
a 3.9 or 3.10 (pyenv's, or python3.9 on PATH), the hooks run on it: one JSON document each, the
guard blocks, and a hook reads its options from hookwrap.toml without tomllib.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest
from support import REPO_ROOT as REPO, SRC

from hookwrap.generator.vendor import RUNTIME_MODULES

GOLDEN = REPO / "tests" / "golden"


def _interpreters(versions: tuple[str, ...] = ("3.9", "3.10")) -> dict[str, str]:
    """A python of each version (default 3.9 and 3.10), from PATH or pyenv's versions folder,
    where present."""
    home = pwd.getpwuid(os.getuid()).pw_dir  # the real one: tests run with a throwaway HOME
    roots = [os.environ.get("PYENV_ROOT") or os.path.join(home, ".pyenv")]
    found = {}
    for version in versions:
        candidates = []
        for root in roots:
            candidates += sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin",
                                                        f"python{version}")))
        candidates.append(shutil.which(f"python{version}") or "")
        # A version manager's shim is not an interpreter: it may refuse to run this version.
        path = next((c for c in candidates if c and "/shims/" not in c and os.access(c, os.X_OK)),
                    None)
        if path:
            found[version] = path
    return found


PYTHONS = _interpreters()
# .ci/run sets HOOKWRAP_REQUIRE_OLD_PYTHONS where the machine has them, so that a failed lookup
# fails the run instead of skipping these tests.
REQUIRED = os.environ.get("HOOKWRAP_REQUIRE_OLD_PYTHONS", "") not in ("", "0")
pytestmark = pytest.mark.skipif(not PYTHONS and not REQUIRED,
                                reason="no python3.9 or python3.10 on this machine")


def test_every_required_old_python_is_found() -> None:
    if not REQUIRED:
        pytest.skip("HOOKWRAP_REQUIRE_OLD_PYTHONS is not set")
    assert sorted(PYTHONS) == ["3.10", "3.9"], f"found only {PYTHONS}"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("old python project")
    lib = root / ".hookwrap" / "lib" / "hookwrap"
    for module in RUNTIME_MODULES:
        (lib / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SRC / "hookwrap" / module, lib / module)
    hooks = root / ".hookwrap" / "hooks"
    hooks.mkdir(parents=True)
    for script in GOLDEN.glob("*/*.py"):
        shutil.copyfile(script, hooks / f"{script.parent.name}-{script.name}")
    (root / "hookwrap.toml").write_text(
        'version = 1\n\n[hooks.stop_gate]\nevent = "after_agent"\ntemplate = "stop_gate"\n'
        'check = "exit 0"  # passes: the agent may stop\nmax_retries = 1\n', encoding="utf-8")
    return root


def _run(python: str, script: Path, payload: dict, platform: str) -> dict:
    proc = subprocess.run([python, "-I", str(script), "--platform", platform],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=60,
                          cwd=script.parents[2])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1, proc.stdout
    document = json.loads(proc.stdout)
    assert "Hook Script Error" not in json.dumps(document), proc.stdout
    return document


@pytest.mark.parametrize("version", sorted(PYTHONS))
@pytest.mark.parametrize("platform, event", [("claude", "PreToolUse"), ("gemini", "BeforeTool")])
def test_every_rendered_hook_answers(project: Path, version: str, platform: str, event: str) -> None:
    payload = {"hook_event_name": event, "session_id": "s", "cwd": str(project),
               "tool_name": "Bash" if platform == "claude" else "run_shell_command",
               "tool_input": {"command": "ls"}}
    for script in sorted((project / ".hookwrap" / "hooks").glob("*.py")):
        _run(PYTHONS[version], script, payload, platform)


@pytest.mark.parametrize("version", sorted(PYTHONS))
def test_the_guard_blocks(project: Path, version: str) -> None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(project),
               "tool_input": {"command": "git push --force origin main"}}
    out = _run(PYTHONS[version], project / ".hookwrap/hooks/guard-guard.py", payload, "claude")
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("version", sorted(PYTHONS))
def test_options_are_read_without_tomllib(project: Path, version: str) -> None:
    """The stop gate's check comes from hookwrap.toml: `exit 0` passes, so no block."""
    gate = project / ".hookwrap/hooks/stop_gate.py"
    shutil.copyfile(GOLDEN / "stop_gate" / "stop_gate.py", gate)  # HOOK_NAME = 'stop_gate'
    out = _run(PYTHONS[version], gate, {"hook_event_name": "Stop", "session_id": f"v{version}",
                                        "cwd": str(project)}, "claude")
    assert "decision" not in out, out
