"""hookwrap on Factory Droid 0.225.2 (the real binary, offline): generated hooks, end to end.

Droid runs with ``FACTORY_AIRGAP_ENABLED=true`` (no Factory API or telemetry lookups, ~1.5 s a
run) and Droid-Shield off (``enableDroidShield: false``): with it on, Droid refuses some pushes by
itself and a guard test would pass with a broken guard. ``test_droid_shield_is_off`` proves that
a forced push runs when no hook stops it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwrap.clis.droid import DROID

ASK_NOTE = DROID.ask_note

from .chat_harness import make_project
from .droid_harness import Droid
from .mockmodel import Reply
from .qwen_copilot_support import CHECK_FAILS, CONTEXT_MARKER, FORCED_PUSH, add_rewrite_or_ask, hookwrap_repo

pytestmark = pytest.mark.e2e

USER_SETTINGS = {"enableCompletionBell": False, "model": "custom:user-model",
                 "hooks": {"Notification": [{"hooks": [{"type": "command", "command": "true"}]}]}}


def _only_loopback_chat(result) -> None:
    """Every request the mock saw is a chat completion (the only host Droid may reach)."""
    assert [(r.method, r.path) for r in result.all_requests] == \
        [("POST", "/v1/chat/completions")] * len(result.all_requests), result.describe()


def test_droid_shield_is_off(droid: Droid, git_project: Path) -> None:
    # The control for every guard test below: with no hook, Droid itself lets the push run.
    result = droid.run(git_project, [droid.shell(FORCED_PUSH + "; touch pushed"), Reply("Finished.")])

    assert (git_project / "pushed").exists(), result.describe()
    assert "Droid-Shield" not in result.tool_results()[0]["text"], result.describe()


def test_guard_context_and_the_users_settings(droid: Droid, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    (project / ".factory").mkdir()
    (project / ".factory" / "settings.json").write_text(json.dumps(USER_SETTINGS), encoding="utf-8")
    repo = hookwrap_repo(droid, project, "droid")
    repo.add("before_tool", "guard")
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("session_start", "context")
    (repo.root / ".hookwrap" / "context.md").write_text(CONTEXT_MARKER + "\n", encoding="utf-8")
    steps = [droid.shell(FORCED_PUSH + "; touch pushed"), droid.write_file(".env", "SECRET=1\n", project),
             droid.shell("echo ok > harmless.txt"), Reply("Finished.")]
    result = droid.run(project, steps)

    assert result.rc == 0, result.describe()
    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert not (project / "pushed").exists(), result.describe()
    assert not (project / ".env").exists(), result.describe()
    results = result.tool_results()
    assert results[0]["text"].startswith("Error: "), results
    assert "force" in results[0]["text"].lower() and "Droid-Shield" not in results[0]["text"], results
    assert ".env" in results[1]["text"], results
    # SessionStart context is a user message of the first request, sent once.
    assert any(CONTEXT_MARKER in text for text in result.user_messages(0)), result.describe()
    assert result.conversation().count(CONTEXT_MARKER) == 1, result.describe()
    # Droid runs every matching PreToolUse hook of a call (in parallel, none waits for a deny):
    # one audit line per shell call, read as Droid's.
    lines = repo.log_lines("audit")
    assert [line["platform"] for line in lines] == ["droid", "droid"], lines
    assert "harmless.txt" in json.dumps(lines[1]), lines
    _only_loopback_chat(result)

    # Droid left the file as hookwrap wrote it; removing every hook restores the user's file.
    data = repo.settings(".factory/settings.json")
    assert {k: v for k, v in data.items() if k != "hooks"} == \
        {k: v for k, v in USER_SETTINGS.items() if k != "hooks"}, data
    assert repo.hookwrap("sync", "--check").returncode == 0
    for name in ("context", "audit", "guard"):
        repo.hookwrap("remove", name)
    assert repo.settings(".factory/settings.json") == USER_SETTINGS


def test_guard_runs_when_droid_starts_in_a_subfolder(droid: Droid, git_project: Path) -> None:
    # $FACTORY_PROJECT_DIR is then the subfolder: the command finds hookwrap.toml upwards.
    repo = hookwrap_repo(droid, git_project, "droid")
    repo.add("before_tool", "guard")
    sub = git_project / "src" / "deep"
    sub.mkdir(parents=True)
    result = droid.run(sub, [droid.shell(FORCED_PUSH + "; touch pushed"), droid.shell("echo ok > ok.txt"),
                             Reply("Finished.")])

    assert not (sub / "pushed").exists(), result.describe()
    assert (sub / "ok.txt").exists(), result.describe()
    assert "force" in result.tool_results()[0]["text"].lower(), result.describe()
    assert result.hooks == [("guard", "droid")] * 2, result.describe()


def test_stop_gate_stops_after_max_retries(droid: Droid, git_project: Path) -> None:
    # Droid has no cap of its own on Stop blocks: the gate's count is what ends the run.
    repo = hookwrap_repo(droid, git_project, "droid")
    repo.add("after_agent", "stop_gate")
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    result = droid.run(git_project, [Reply("One."), Reply("Two."), Reply("Three."), Reply("Four.")])

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 3, result.describe()  # the answer and two retries
    assert "attempt 2 of 2" in result.conversation(2), result.describe()
    assert result.hooks == [("stop_gate", "droid")] * 3, result.describe()
    assert result.final_text == "Three.", result.describe()


def test_updated_input_runs_and_ask_is_a_deny(droid: Droid, git_project: Path) -> None:
    repo = hookwrap_repo(droid, git_project, "droid")
    add_rewrite_or_ask(repo)
    steps = [droid.shell("echo x > original.txt"), droid.shell("echo risky > risky.txt"),
             Reply("Finished.")]
    result = droid.run(git_project, steps)

    assert (git_project / "rewritten.txt").exists(), result.describe()
    assert not (git_project / "original.txt").exists(), result.describe()
    assert not (git_project / "risky.txt").exists(), result.describe()
    denied = result.tool_results()[1]["text"]
    assert denied.startswith("Error: E2E-ASK-REASON"), denied
    assert ASK_NOTE in denied
