"""Claude Code's PreCompact in the real binary (claude-code-schema.md, PreCompact: a block or
exit 2 skips the compaction): a hookwrap hook that blocks on pre_compact keeps `/compact` from
compacting (no model call), and Claude Code prints the hook's reason; a hook with no opinion
lets it compact."""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo

pytestmark = pytest.mark.e2e

_HOOK = '''
def hook(event: HookInput) -> HookOutput | None:
    with open("pre_compact_ran", "a", encoding="utf-8") as f:
        f.write(str(event.trigger) + "\\n")
    return HookOutput.block("compaction is paused here") if BLOCK else None
'''


def _compact(claude: Agent, repo: HookwrapRepo, block: bool):
    """A session with one exchange, then `/compact` on it, with a pre_compact hook that blocks
    (or answers nothing) and notes each call's trigger."""
    repo.add("pre_compact", "nocompact")
    script = repo.script("nocompact")
    text = script.read_text(encoding="utf-8")
    start, end = text.index("def hook("), text.index('\nif __name__ == "__main__":')
    body = _HOOK.lstrip().replace("BLOCK", repr(block))
    script.write_text(text[:start] + body + "\n" + text[end:], encoding="utf-8")
    first = claude.run(repo.root, [], prompt="Say hello.", final="Hello.")
    assert first.rc == 0, first.describe()
    result = claude.run(repo.root, [], prompt="/compact", final="Summary of the talk.",
                        extra_args=("--continue",))
    assert result.rc == 0, result.describe()
    assert ("nocompact", "claude") in result.hooks, result.describe()
    assert (repo.root / "pre_compact_ran").read_text().split() == ["manual"], result.describe()
    return result


def test_a_pre_compact_block_skips_the_compaction(claude: Agent, repo: HookwrapRepo) -> None:
    result = _compact(claude, repo, block=True)
    assert result.all_requests == [], result.describe()  # no summary was asked for
    assert result.final_text.startswith("Compaction blocked by PreCompact hook"), result.describe()
    assert result.final_text.endswith(": compaction is paused here"), result.describe()


def test_a_pre_compact_hook_without_an_opinion_lets_it_compact(claude: Agent,
                                                              repo: HookwrapRepo) -> None:
    result = _compact(claude, repo, block=False)
    assert result.all_requests, result.describe()  # the summary was asked of the model
    assert "blocked" not in result.final_text.lower(), result.describe()


def test_exit_2_on_pre_compact_skips_the_compaction(claude: Agent, repo: HookwrapRepo) -> None:
    # An external hook in Claude's words: exit 2 with the reason on stderr.
    repo.hookwrap("add", "pre_compact", "ext", "--platform", "claude",
                  "--command", "echo paused by exit 2 >&2; exit 2")
    first = claude.run(repo.root, [], prompt="Say hello.", final="Hello.")
    assert first.rc == 0, first.describe()
    result = claude.run(repo.root, [], prompt="/compact", final="Summary of the talk.",
                        extra_args=("--continue",))
    assert result.rc == 0 and result.all_requests == [], result.describe()
    assert result.final_text.startswith("Compaction blocked by PreCompact hook"), result.describe()
    assert result.final_text.endswith(": paused by exit 2"), result.describe()
