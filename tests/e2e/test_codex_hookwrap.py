"""hookwrap on the real Codex CLI 0.169.0: generated hooks in `.codex/hooks.json`, run by `codex exec`.

Every project is a temp git repo (Codex finds the project root by its .git) set up with the real
``hookwrap`` command; CODEX_HOME is the sandbox's. Each shell call the mock model makes is a
harmless marker command inside the temp project; the guard only ever inspects the dangerous
strings (the forced push is preceded by a ``touch`` whose marker shows whether it ran).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit

from .codex_harness import Codex, Trust, init_git_repo, patch_add_file
from .harness import Sandbox
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

# Matches the guard's "git push --force" rule; the touch before it marks whether it ran.
DANGEROUS = "touch side_effect.txt && git push --force origin main"
HARMLESS = "echo harmless > side_effect.txt"
CONTEXT = "CODEX-CONTEXT-7f3a: answer in French."


def codex_repo(root: Path, sandbox: Sandbox, *adds: list[str]) -> HookwrapRepo:
    """``root`` as a git repo after ``hookwrap init --platform codex`` and each ``add``."""
    repo = HookwrapRepo(init_git_repo(root), sandbox)
    repo.hookwrap("init", "--platform", "claude", "--platform", "codex")
    for args in adds:
        repo.add(*args)
    return repo


@pytest.fixture
def guarded(codex: Codex, tmp_path: Path) -> HookwrapRepo:
    return codex_repo(tmp_path / "proj", codex.sandbox, ["before_tool", "guard"])


def test_guard_blocks_a_forced_push_and_lets_a_harmless_call_run(codex: Codex, guarded: HookwrapRepo) -> None:
    root = guarded.root
    blocked = codex.run(root, [codex.shell(DANGEROUS), Reply("Finished.")])
    assert blocked.rc == 0, blocked.describe()
    assert blocked.hook_outcomes("PreToolUse") == ["Blocked"], blocked.describe()
    assert not (root / "side_effect.txt").exists(), blocked.describe()
    [output] = blocked.tool_results()
    assert output["text"].startswith("Command blocked by PreToolUse hook: Blocked by the guard hook: "
                                     "git push --force"), blocked.describe()
    assert "--dangerously-bypass-hook-trust" not in blocked.command

    harmless = codex.run(root, [codex.shell(HARMLESS), Reply("Finished.")])
    assert harmless.hook_outcomes("PreToolUse") == ["Completed"], harmless.describe()
    assert (root / "side_effect.txt").read_text() == "harmless\n", harmless.describe()
    assert [h.name for h in harmless.hook_runs] == ["guard"], harmless.describe()


def test_guard_blocks_an_env_patch_and_lets_another_patch_run(codex: Codex, guarded: HookwrapRepo) -> None:
    root = guarded.root
    patch = patch_add_file("notes.txt", "kept").replace("*** End Patch", "*** Add File: .env\n+TOKEN=x\n*** End Patch")
    blocked = codex.run(root, [codex.apply_patch(patch), Reply("Finished.")])
    assert blocked.hook_outcomes("PreToolUse") == ["Blocked"], blocked.describe()
    assert not (root / ".env").exists() and not (root / "notes.txt").exists(), blocked.describe()
    assert "a .env file, which holds secrets" in blocked.tool_results()[0]["text"], blocked.describe()

    allowed = codex.run(root, [codex.write_file("notes.txt", "hello"), Reply("Finished.")])
    assert allowed.hook_outcomes("PreToolUse") == ["Completed"], allowed.describe()
    assert (root / "notes.txt").read_text() == "hello\n", allowed.describe()


@pytest.mark.parametrize("layout", ["subdir", "space-in-path"])
def test_hooks_find_the_project_from_a_subdirectory(codex: Codex, tmp_path: Path, layout: str) -> None:
    name = "my project" if layout == "space-in-path" else "proj"
    repo = codex_repo(tmp_path / name, codex.sandbox, ["before_tool", "guard"])
    cwd = repo.root / ("sub dir" if layout == "space-in-path" else "sub") / "deeper"
    cwd.mkdir(parents=True)
    result = codex.run(cwd, [codex.shell(DANGEROUS), Reply("Finished.")])
    assert result.hook_outcomes("PreToolUse") == ["Blocked"], result.describe()
    assert "Blocked by the guard hook" in result.tool_results()[0]["text"], result.describe()
    assert not (cwd / "side_effect.txt").exists()

    harmless = codex.run(cwd, [codex.shell(HARMLESS), Reply("Finished.")])
    assert harmless.hook_outcomes("PreToolUse") == ["Completed"], harmless.describe()
    assert (cwd / "side_effect.txt").exists(), harmless.describe()


def test_context_reaches_the_model(codex: Codex, tmp_path: Path) -> None:
    repo = codex_repo(tmp_path / "proj", codex.sandbox, ["session_start", "context"])
    (repo.root / ".hookwrap" / "context.md").write_text(CONTEXT + "\n", encoding="utf-8")
    result = codex.run(repo.root, [Reply("Bonjour.")])
    assert result.hook_outcomes("SessionStart") == ["Completed"], result.describe()
    assert CONTEXT in result.messages("developer", 0), result.describe()


def test_stop_gate_sends_the_agent_back_then_lets_it_stop(codex: Codex, tmp_path: Path) -> None:
    repo = codex_repo(tmp_path / "proj", codex.sandbox, ["after_agent", "stop_gate"])
    repo.set_options("stop_gate", check="echo checks-failed-5b2; exit 1", max_retries=2)
    result = codex.run(repo.root, [Reply("First."), Reply("Second."), Reply("Third."), Reply("Fourth.")])
    assert result.rc == 0, result.describe()
    # Two blocks (stop_hook_active on each retry counts them), then the cap lets it stop.
    assert result.hook_outcomes("Stop") == ["Blocked", "Blocked", "Completed"], result.describe()
    assert len(result.requests) == 3, result.describe()
    retry = result.messages("user", 1)[-1]
    assert "attempt 1 of 2" in retry and "checks-failed-5b2" in retry, retry
    assert result.final_text == "Third."


def test_hookwrap_trust_lets_hooks_run_without_the_bypass_flag(codex: Codex, guarded: HookwrapRepo) -> None:
    codex.write_config(guarded.root, Trust.NONE)  # the provider settings only: no trust at all
    before = codex.config_path.read_text(encoding="utf-8")
    untrusted = codex.run(guarded.root, [codex.shell(DANGEROUS), Reply("Finished.")], trust=Trust.NONE)
    assert untrusted.hook_statuses() == [], untrusted.describe()
    (guarded.root / "side_effect.txt").unlink()
    doctor = guarded.hookwrap("doctor", check=False)
    assert "Codex CLI skips" in doctor.stdout and "hookwrap trust --platform codex" in doctor.stdout

    done = guarded.hookwrap("trust", "--platform", "codex")
    assert "create" in done.stdout and "trusted_hash" in done.stdout, done.stdout
    written = codex.config_path.read_text(encoding="utf-8")
    assert written.startswith(before), "every line already there is kept, in place"
    codex.config = tomlkit.parse(written).unwrap()  # run with exactly what hookwrap wrote
    result = codex.run(guarded.root, [codex.shell(DANGEROUS), Reply("Finished.")], trust=Trust.NONE)
    assert "--dangerously-bypass-hook-trust" not in result.command
    assert result.hook_outcomes("PreToolUse") == ["Blocked"], result.describe()
    assert not (guarded.root / "side_effect.txt").exists()
    [listed] = codex.hooks_list(guarded.root)["hooks"]
    assert listed["trustStatus"] == "trusted", listed


def test_user_entries_in_hooks_json_survive_add_and_remove(codex: Codex, tmp_path: Path) -> None:
    repo = codex_repo(tmp_path / "proj", codex.sandbox)
    mine = {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine >> user_hook.log",
                                          "timeout": 5}]}
    (repo.root / ".codex").mkdir(exist_ok=True)
    repo.write_settings(".codex/hooks.json", {"hooks": {"PreToolUse": [mine]}})
    repo.add("before_tool", "guard")
    repo.add("after_tool", "audit", "--matcher", "shell|write_file|edit_file")
    data = repo.settings(".codex/hooks.json")
    assert data["hooks"]["PreToolUse"][0] == mine
    result = codex.run(repo.root, [codex.shell(HARMLESS), codex.write_file("notes.txt", "n"), Reply("Done.")])
    assert result.hook_outcomes("PreToolUse") == ["Completed"] * 3, result.describe()
    assert (repo.root / "user_hook.log").read_text() == "mine\n", result.describe()
    logged = repo.log_lines("audit")
    assert [(line["tool_name"], line["files"]) for line in logged] == [
        ("shell", []), ("write_file", ["notes.txt"])], logged

    repo.hookwrap("remove", "guard")
    repo.hookwrap("remove", "audit")
    assert repo.settings(".codex/hooks.json") == {"hooks": {"PreToolUse": [mine]}}
