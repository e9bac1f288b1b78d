"""stop_gate when its check cannot run: the user is told, and the agent is not kept working."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.hookrepo import HookRepo
from test_templates_behaviour import PLATFORMS, gate_repo, stop_blocked, stop_payload, write_manifest  # noqa: F401

# --- stop_gate: a check that cannot run does not keep the agent working ----------------------

# A python without pytest: -S leaves site-packages (and the test run's pytest) out.
NO_PYTEST = f"{sys.executable} -I -S -m pytest -q"
CANNOT_RUN = {
    "no module named pytest": (NO_PYTEST, "No module named pytest", "-m pip install pytest"),
    "command not found": ("no-such-check-xyz --all", "exit code 127", "set `check`"),
    "not executable": ("./check.sh", "exit code 126", "set `check`"),
}


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("case", list(CANNOT_RUN))
def test_stop_gate_lets_the_agent_stop_when_the_check_cannot_run(gate_repo: HookRepo, platform: str, case: str) -> None:
    check, why, hint = CANNOT_RUN[case]
    script = gate_repo.write("check.sh", "#!/bin/sh\nexit 0\n")
    script.chmod(0o644)  # not executable
    write_manifest(gate_repo, "gate", check=check, max_retries=3)
    output = gate_repo.run("gate", platform, stop_payload(platform, gate_repo, active=False))
    assert not stop_blocked(platform, output), output
    message = output["systemMessage"]
    assert why in message and hint in message and "hookwrap.toml" in message
    assert check in message
    assert list((gate_repo.root / ".hookwrap" / "state").glob("gate.*")) == []


def test_stop_gate_still_blocks_on_a_missing_import_inside_the_tests(gate_repo: HookRepo) -> None:
    # The agent can fix this one: the tests import a module the code lacks.
    gate_repo.write("tests/test_x.py", "import no_such_module_xyz\n\ndef test_x():\n    pass\n")
    write_manifest(gate_repo, "gate", check=f"{sys.executable} -m pytest -q -p no:cacheprovider tests")
    output = gate_repo.run("gate", "claude", stop_payload("claude", gate_repo, active=False))
    assert stop_blocked("claude", output), output
    assert "no_such_module_xyz" in output["reason"]


def test_stop_gate_announces_the_check_on_stderr(gate_repo: HookRepo) -> None:
    check = f"{sys.executable} -c \"print('ok')\""
    write_manifest(gate_repo, "gate", check=check)
    script = gate_repo.root / ".hookwrap" / "hooks" / "gate.py"
    proc = subprocess.run([sys.executable, "-I", str(script), "--platform", "claude"],
                          input=json.dumps(stop_payload("claude", gate_repo, active=False)),
                          capture_output=True, text=True, cwd=gate_repo.root, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {}
    assert f"gate: running `{check}` in {gate_repo.root}" in proc.stderr
