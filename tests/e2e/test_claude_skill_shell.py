"""Claude Code 2.1.332's PreSkillShellCommand in the real binary: a slash command's inline shell
command (``!`cmd``` in ``.claude/commands/<name>.md``) never reaches PreToolUse, so hookwrap
registers before_tool hooks that select the shell on PreSkillShellCommand too. The guard stops
a dangerous inline command, a harmless one still runs, and doctor knows a hand-written entry."""

from __future__ import annotations

import json
import pytest

from hookwrap.generator.clis import setup_of
from hookwrap.generator.pins import version_key
from hookwrap.names import Platform

from .harness import Agent
from .hwrepo import HookwrapRepo

pytestmark = pytest.mark.e2e

# The touch leaves marker behind if the command runs at all; the push has no remote here.
DANGEROUS = "touch marker && git push --force origin main"


def _command(repo: HookwrapRepo, name: str, shell: str) -> None:
    """A slash command whose markdown runs ``shell`` inline when it is invoked."""
    folder = repo.root / ".claude" / "commands"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(f"Status: !`{shell}`\n\nSay what the status is.\n",
                                       encoding="utf-8")


def _needs_skill_shell_event(claude: Agent) -> None:
    since = setup_of(Platform.CLAUDE).facts.version_notes[0][0]  # the release that added the event
    found = claude.version.split()[0] if claude.version else ""
    if not found or version_key(found) < version_key(since):
        pytest.skip(f"claude is {claude.version!r}: PreSkillShellCommand is new in {since}")


def test_the_guard_stops_a_slash_commands_inline_force_push(claude: Agent,
                                                            repo: HookwrapRepo) -> None:
    _needs_skill_shell_event(claude)
    repo.add("before_tool", "guard")
    assert repo.settings(".claude/settings.json")["hooks"]["PreSkillShellCommand"][0][
        "matcher"] == "Bash|PowerShell"
    _command(repo, "x", DANGEROUS)
    result = claude.run(repo.root, [], prompt="/x", final="Finished.")

    assert result.rc == 0, result.describe()
    assert not (repo.root / "marker").exists(), result.describe()
    # Claude Code puts the hook's reason where the command's output would have been.
    prompt = result.conversation(0)
    assert "Blocked by the guard hook: git push --force" in prompt, result.describe()
    assert ("guard", "claude") in result.hooks, result.describe()
    assert result.final_text == "Finished."


def test_a_harmless_inline_command_runs_and_a_hand_written_entry_is_known(
        claude: Agent, repo: HookwrapRepo) -> None:
    _needs_skill_shell_event(claude)
    repo.add("before_tool", "guard")
    settings = repo.settings(".claude/settings.json")
    # A hook of the user's own on the same event, beside hookwrap's.
    settings["hooks"]["PreSkillShellCommand"].append(
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "touch hand_ran"}]})
    repo.write_settings(".claude/settings.json", settings)
    _command(repo, "ok", "touch ok_marker")
    result = claude.run(repo.root, [], prompt="/ok", final="Finished.")

    assert result.rc == 0, result.describe()
    assert (repo.root / "ok_marker").exists(), result.describe()
    assert (repo.root / "hand_ran").exists(), result.describe()  # Claude ran the user's hook
    assert ("guard", "claude") in result.hooks, result.describe()
    assert "blocked" not in result.conversation(0).lower(), result.describe()
    doctor = repo.hookwrap("doctor", "--json", "--no-run", check=False)
    text = json.dumps(json.loads(doctor.stdout))
    assert "unknown hook event" not in text and "Claude Code ignores it" not in text, text

