"""Each hook runs exactly once per CLI, whatever variables the process inherited.

A CLI may run another CLI's registrations too (Copilot CLI runs .claude/settings.json), and a
CLI may be started from another CLI's shell tool, inheriting what that CLI exports there
(Claude Code's CLAUDECODE) and, at worst, anything its hooks see. The runner decides who hosts
a call only from a variable the host sets for its hook processes alone (its ``marker_env``):
these tests run every registration each CLI runs, under every CLI's environment inherited or
not, and count the calls.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.runtime import load_payload, run_in_process

from hookwrap import HookInput, HookOutput, Platform
from hookwrap.checks.host import hook_env
from hookwrap.generator.clis import setup_of
from hookwrap.platforms import all_runtimes, runtime_of

PAYLOAD = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": "/p", "prompt": "hi"}


def _hook_env(platform: Platform, project: Path) -> dict[str, str]:
    """The variables ``platform`` sets for its hook processes (what `hookwrap test` emulates)."""
    return hook_env(platform.value, PAYLOAD, project_dir=project, base={})


def _inherited(outer: Platform | None, project: Path) -> dict[str, str]:
    """The worst a CLI started from ``outer``'s shell tool inherits: what ``outer`` exports to
    its shell tool, and every variable its hooks see but the one it sets for hooks alone."""
    if outer is None:
        return {}
    agent = runtime_of(outer)
    env = {k: v for k, v in _hook_env(outer, project).items() if k != agent.marker_env}
    return {**env, **agent.shell_tool_env}


def _registrations_run_by(host: Platform) -> list[Platform]:
    """The platforms whose registered commands ``host`` runs: its own, and those it is a guest of."""
    return [host] + [a.platform for a in all_runtimes() if host.value in a.guest_clis]


def _calls(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], registrations: list[Platform]
           ) -> list[str]:
    calls: list[str] = []

    def hook(event: HookInput) -> HookOutput:
        calls.append(event.platform.value)
        return HookOutput()

    for name in list(os.environ):
        if any(name.startswith(p) for p in ("CLAUDE", "COPILOT", "GEMINI", "QWEN", "FACTORY",
                                            "DROID", "HOOKWRAP", "CODEX", "OPENCODE", "KILO")):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for platform in registrations:
        event = runtime_of(platform).event_names()[runtime_of(platform).normalize_event("UserPromptSubmit")]
        run_in_process(hook, platform, json.dumps({**PAYLOAD, "hook_event_name": event}))
    return calls


@pytest.mark.parametrize("outer", [None, *Platform], ids=lambda p: f"from-{p.value if p else 'terminal'}")
@pytest.mark.parametrize("host", list(Platform), ids=lambda p: p.value)
def test_every_hook_runs_once_per_cli_with_every_inherited_environment(
        host: Platform, outer: Platform | None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    own = runtime_of(host).own_registration
    if own:  # hookwrap registered the hook for this CLI in its own file too
        (tmp_path / own).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / own).write_text("{}")
    env = {**_inherited(outer, tmp_path), **_hook_env(host, tmp_path)}
    calls = _calls(monkeypatch, env, _registrations_run_by(host))
    assert calls == [host.value]


@pytest.mark.parametrize("outer", [None, *Platform], ids=lambda p: f"from-{p.value if p else 'terminal'}")
def test_a_guest_without_its_own_file_runs_the_other_cli_s_registration_once_as_itself(
        outer: Platform | None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for agent in all_runtimes():
        for guest in agent.guest_clis:
            env = {**_inherited(outer, tmp_path), **_hook_env(Platform(guest), tmp_path)}
            assert _calls(monkeypatch, env, [agent.platform]) == [guest]


def test_a_guest_is_named_by_the_variable_it_sets_for_its_hooks_alone() -> None:
    for agent in all_runtimes():
        for guest, variable in agent.guest_clis.items():
            assert runtime_of(guest).marker_env == variable
            assert variable in _hook_env(Platform(guest), Path("/p"))
            assert variable not in runtime_of(guest).shell_tool_env
            assert setup_of(guest).platform.value == guest


def test_claude_code_s_shell_tool_mark_reaches_a_copilot_started_there(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The case that once ran a hook twice: Copilot started from Claude Code's Bash tool."""
    (tmp_path / ".github/hooks").mkdir(parents=True)
    (tmp_path / ".github/hooks/hookwrap.json").write_text("{}")
    env = {"CLAUDECODE": "1", **_hook_env(Platform.COPILOT, tmp_path)}
    assert _calls(monkeypatch, env, [Platform.CLAUDE, Platform.COPILOT]) == ["copilot"]


def test_a_crash_under_copilot_started_from_claude_code_answers_in_copilot_s_words(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The other half of that case: Copilot runs the Claude registration (it has no file of its
    own) with CLAUDECODE inherited, and the hook raises. The error must block as Copilot reads a
    block (a top-level permissionDecision), not in Claude Code's words, which Copilot ignores."""

    def hook(event: HookInput) -> HookOutput:
        raise ValueError("boom")

    for name in list(os.environ):
        if name.startswith(("CLAUDE", "COPILOT")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("CLAUDECODE", "1")
    for name, value in _hook_env(Platform.COPILOT, tmp_path).items():
        monkeypatch.setenv(name, value)
    payload = load_payload("copilot/PreToolUse.Bash.pascal.json")
    out = json.loads(run_in_process(hook, Platform.CLAUDE, json.dumps(payload)).stdout)
    assert out["permissionDecision"] == "deny", out
    assert out["permissionDecisionReason"].startswith("Hook Script Error"), out
