"""A team's existing command-safety hook, hosted on every CLI through the bridge.

cc-safety-net (npm, pinned in .ci/install-clis.sh) is a Claude Code hook. Registered with
`hookwrap add before_tool safety-net --command 'node_modules/.bin/cc-safety-net hook --coding-cli'`
(docs/external-hooks.md), `hookwrap test` runs it under each CLI's host rules: it must block the
same calls on every CLI, with its own reason, whatever each CLI names the tool and its keys. The
calls are only classified: the hook reads them, nothing runs them. Skips when node or the pinned
package is missing (.ci/install-clis.sh cc-safety-net installs it).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import hw
from support.projects import copied

from hookwrap.platforms import Platform

REPO = Path(__file__).resolve().parents[2]
COMMAND = "node_modules/.bin/cc-safety-net hook --coding-cli"
ALL = [platform.value for platform in Platform]


def _bench():
    spec = importlib.util.spec_from_file_location("hookwrap_guard_bench_peer", REPO / "benchmarks" / "guard.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def peer_modules() -> Path:
    """The pinned package's node_modules folder, or skip."""
    bench = _bench()
    missing = bench.peer_available()
    if missing:
        pytest.skip(missing)
    return bench.peer_dir().parent


def _team_repo(root: Path, peer_modules: Path) -> None:
    """A git project where the team installed the tool as a dev dependency (node_modules is a
    link to the pinned install) and hosts it with hookwrap on every CLI."""
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)
    (root / "node_modules").symlink_to(peer_modules, target_is_directory=True)
    (root / ".env").write_text("API_KEY=not-a-real-secret\n")
    init = hw(root, "init", *[arg for name in ALL for arg in ("--platform", name)])
    assert init.code == 0, init.err
    added = hw(root, "add", "before_tool", "safety-net", "--matcher", "shell|write_file|edit_file",
               "--command", COMMAND)
    assert added.code == 0, added.err


@pytest.fixture
def project(tmp_path: Path, peer_modules: Path) -> Path:
    """``_team_repo``, set up once per process and copied (support.projects)."""
    return copied(tmp_path / "team-repo", ("peer-hosting", peer_modules),
                  functools.partial(_team_repo, peer_modules=peer_modules))


def _verdicts(root: Path, tool: str, tool_input: dict) -> dict[str, str]:
    done = hw(root, "test", "safety-net", "--json", "--tool", tool, "--input", json.dumps(tool_input))
    assert done.code in (0, 1), done.err
    report = json.loads(done.out)
    return {test["platform"]: test["summary"] for test in report["tests"]}


def test_the_hosted_tool_blocks_a_hard_reset_on_every_cli_with_its_own_rule(project: Path) -> None:
    verdicts = _verdicts(project, "shell", {"command": "git reset --hard"})
    assert sorted(verdicts) == sorted(ALL)
    for platform, summary in verdicts.items():
        assert summary.startswith("blocked:"), (platform, summary)
        assert "Rule: git.reset-hard" in summary, (platform, summary)


def test_the_hosted_tool_lets_an_everyday_command_through_on_every_cli(project: Path) -> None:
    verdicts = _verdicts(project, "shell", {"command": "git status && npm test"})
    assert sorted(verdicts) == sorted(ALL)
    for platform, summary in verdicts.items():
        assert not summary.startswith("blocked"), (platform, summary)


def test_the_hosted_tool_sees_a_write_to_env_whatever_each_cli_calls_the_tool(project: Path) -> None:
    """Copilot sends `path`/`file_text`, OpenCode `filePath`, Codex a patch, Droid `Create`: the
    bridge hands the tool Claude's `Write` with `file_path` on each."""
    verdicts = _verdicts(project, "write_file", {"file_path": str(project / ".env"), "content": "X=1\n"})
    assert sorted(verdicts) == sorted(ALL)
    for platform, summary in verdicts.items():
        assert summary.startswith("blocked:"), (platform, summary)
        assert "sensitive path" in summary, (platform, summary)
    safe = _verdicts(project, "write_file", {"file_path": str(project / "notes.md"), "content": "hi\n"})
    assert all(not summary.startswith("blocked") for summary in safe.values()), safe
