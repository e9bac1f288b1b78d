"""A team's existing command-safety hook (cc-safety-net from npm) hosted through the bridge.

The team installed the tool as a dev dependency and registered its Claude Code hook with
`hookwrap add before_tool safety-net --command 'node_modules/.bin/cc-safety-net hook --coding-cli'`
(docs/external-hooks.md). Inside each real CLI, offline against its loopback mock model, the
tool must stop what it stops in Claude Code (a hard reset, reading .env: categories today's guard
template does not cover) before the command runs, with its own reason reaching the model, and
let a harmless command run. Claude Code runs the tool directly (the bridge passes through); every
other CLI gets it through the bridge's translation. Each dangerous call starts with a `touch` of
a marker file, so a call that ran shows; what follows it is harmless in the sandbox's empty repo.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from .chat_harness import make_project
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
# The CLIs whose fixtures conftest.py provides; one missing from the cache skips.
CLIS = ["claude", "gemini", "codex", "qwen", "copilot"]
COMMAND = "node_modules/.bin/cc-safety-net hook --coding-cli"
RESET = "touch reset-ran.txt && git reset --hard"
READ_ENV = "touch env-read.txt && cat .env"
HARMLESS = "echo harmless > harmless.txt"


@pytest.fixture(scope="module")
def peer_modules() -> Path:
    """The pinned cc-safety-net install (.ci/install-clis.sh cc-safety-net), or skip."""
    spec = importlib.util.spec_from_file_location("hookwrap_guard_bench_e2e", REPO / "benchmarks" / "guard.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    missing = bench.peer_available()
    if missing:
        pytest.skip(missing)
    return bench.peer_dir().parent


@pytest.mark.parametrize("name", CLIS)
def test_hosted_cc_safety_net_blocks_inside_the_real_cli(
        name: str, request: pytest.FixtureRequest, tmp_path: Path, peer_modules: Path) -> None:
    agent = request.getfixturevalue(name)
    root = make_project(tmp_path, "team repo")
    (root / "node_modules").symlink_to(peer_modules, target_is_directory=True)
    (root / ".env").write_text("API_KEY=not-a-real-secret\n", encoding="utf-8")
    repo = HookwrapRepo(root, agent.sandbox)
    repo.hookwrap("init", "--platform", name)
    repo.add("before_tool", "safety-net", "--matcher", "shell", "--command", COMMAND)
    if name in ("codex", "copilot"):
        repo.hookwrap("trust", "--platform", name)

    result = agent.run(root, [agent.shell(RESET), agent.shell(READ_ENV), agent.shell(HARMLESS),
                              Reply("Finished.")])

    assert result.rc == 0, result.describe()
    # Both stopped before they ran, each with the tool's own rule in what the model read.
    assert not (root / "reset-ran.txt").exists(), result.describe()
    assert not (root / "env-read.txt").exists(), result.describe()
    reset, read_env, harmless = result.tool_results()
    assert "BLOCKED by CC Safety Net" in reset["text"], result.describe()
    assert "git.reset-hard" in reset["text"], result.describe()
    assert "BLOCKED by CC Safety Net" in read_env["text"], result.describe()
    assert "not-a-real-secret" not in read_env["text"], result.describe()
    # The harmless call ran, and the tool said nothing about it.
    assert (root / "harmless.txt").read_text(encoding="utf-8") == "harmless\n", result.describe()
    assert "CC Safety Net" not in harmless["text"], result.describe()
    assert [run.name for run in result.hook_runs].count("safety-net") == 3, result.describe()
