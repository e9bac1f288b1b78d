"""A guard that cannot judge a call blocks it on the real CLIs, one of each protocol family.

The families (clis/_*_protocol.py): Claude Code's (Claude Code, Qwen Code, Copilot CLI, Factory
Droid), Gemini CLI's, Codex CLI's, the plugin one (OpenCode, Kilo CLI), pi's and Cline's. Each
test breaks the guard the way a teammate could (a one-character typo in its policy lines; a
hang) and has the mock model make a dangerous call: the touch before the forced push marks
whether it ran. Before the launcher blocked on these, Gemini CLI, Codex CLI, Qwen Code and
Factory Droid ran it (they read exit 1 and a timeout as "go on").
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .chat_harness import ChatAgent
from .codex_harness import Codex, init_git_repo
from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply
from .qwen_copilot_support import hookwrap_repo

pytestmark = pytest.mark.e2e

DANGEROUS = "touch side_effect.txt && git push --force origin main"
POLICY = "ALLOW_SECRET_READS = False\n"


def _typo(repo: HookwrapRepo) -> None:
    script = repo.script("guard")
    text = script.read_text(encoding="utf-8")
    assert POLICY in text
    script.write_text(text.replace(POLICY, "ALLOW_SECRET_READS = False,,\n"), encoding="utf-8")


def _hang(repo: HookwrapRepo) -> None:
    """Stuck at import; with a 3 s timeout the launcher blocks at 2.1 s."""
    script = repo.script("guard")
    text = script.read_text(encoding="utf-8")
    script.write_text(text.replace("\nGUARD = Guard(", "\nimport time; time.sleep(60)\nGUARD = Guard("),
                      encoding="utf-8")


BREAK = {"typo": _typo, "hang": _hang}


@pytest.mark.parametrize("broken", BREAK)
def test_a_broken_guard_blocks_on_claude_code_and_gemini_cli(agent: Agent, repo: HookwrapRepo,
                                                              broken: str) -> None:
    repo.add("before_tool", "guard", "--timeout", "3")
    BREAK[broken](repo)
    start = time.monotonic()
    result = agent.run(repo.root, [agent.shell(DANGEROUS), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    [blocked] = result.tool_results()
    assert "hookwrap: guard fails closed and " in blocked["text"], result.describe()
    assert ("could not start (SyntaxError" if broken == "typo" else "gave no answer within 2.1 s") \
        in blocked["text"], result.describe()
    assert time.monotonic() - start < 60, result.describe()


@pytest.mark.parametrize("broken", BREAK)
def test_a_broken_guard_blocks_on_codex_cli(codex: Codex, tmp_path: Path, broken: str) -> None:
    repo = HookwrapRepo(init_git_repo(tmp_path / "proj"), codex.sandbox)
    repo.hookwrap("init", "--platform", "codex")
    repo.add("before_tool", "guard", "--timeout", "3")
    BREAK[broken](repo)
    result = codex.run(repo.root, [codex.shell(DANGEROUS), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    assert "hookwrap: guard fails closed and " in result.conversation(), result.describe()


@pytest.mark.parametrize("name", ["qwen", "droid", "kilo", "pi"])
def test_a_guard_with_a_typo_blocks_on_the_other_families(
        name: str, request: pytest.FixtureRequest, git_project: Path) -> None:
    """Qwen Code and Factory Droid (Claude Code's protocol) read exit 1 as "go on": both ran the
    call before. Kilo CLI (the plugin family) and pi block on their fail-closed switch too, and
    now say why."""
    cli: ChatAgent = request.getfixturevalue(name)
    repo = hookwrap_repo(cli, git_project, name)
    repo.add("before_tool", "guard")
    _typo(repo)
    result = cli.run(git_project, [cli.shell(DANGEROUS), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (git_project / "side_effect.txt").exists(), result.describe()
    assert "guard fails closed and could not start (SyntaxError" in \
        result.tool_results()[0]["text"], result.describe()
