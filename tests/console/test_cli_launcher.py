"""Registered commands run the launcher (.hookwrap/lib/run.py <name>); the older form that runs
the script itself stays hookwrap's on every CLI, and sync upgrades it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess

import pytest
from support.cli import hw

from hookwrap.generator.clis import all_setups, setup_of
from hookwrap.generator.registrations import handler_for
from hookwrap.generator.settings import OWNED_COMMAND_RE
from hookwrap.generator.vendor import LAUNCHER
from hookwrap.platforms import NormalizedEvent, Platform

PYTHONS = ["python3", "'/opt/my py/bin/python3' -I", "uv run python"]


@pytest.mark.parametrize("platform", list(Platform))
@pytest.mark.parametrize("python", PYTHONS)
def test_both_forms_are_hookwrap_s_on_every_cli(platform: Platform, python: str) -> None:
    agent = setup_of(platform)
    new, old = agent.command("my-hook", python), agent.command("my-hook", python, launcher=False)
    assert f"{LAUNCHER}" in new and "my-hook " in new and ".hookwrap/hooks/" not in new
    assert ".hookwrap/hooks/my-hook.py" in old and "run.py" not in old
    for command in (new, old):
        assert agent.owned_name(command) == "my-hook"
        match = OWNED_COMMAND_RE.search(command)
        assert match and match.group("name") == "my-hook"
    # Only the exact forms: an extra word, or another hook's name in the message, is not ours.
    assert agent.owned_name(new + " --verbose") is None
    assert agent.owned_name(new.replace(" my-hook --platform", " my-hook.py --platform")) is None


@pytest.mark.parametrize("platform", list(Platform))
def test_a_fail_closed_handler_is_owned_in_both_forms(platform: Platform) -> None:
    agent = setup_of(platform)
    for launcher in (True, False):
        command = agent.command("guard", "python3", launcher=launcher)
        event = next(iter(agent.runtime.events.values()))
        handler = agent.registration.handler(agent, command, name="guard", timeout_s=10,
                                             fail_closed=True, event=event, description="d")
        assert agent.owned_name(handler["command"]) == "guard"


@pytest.mark.parametrize("launcher", [False, True], ids=["script", "launcher-without-deadline"])
def test_sync_upgrades_every_cli_s_old_commands_in_place(empty_dir, launcher: bool) -> None:
    """Older forms of the guard's command (the script run directly; the launcher without
    --fail-closed) become today's, in place."""
    root = empty_dir
    assert hw(root, "init", *(f"--platform={p.value}" for p in Platform)).code == 0
    assert hw(root, "add", "before_tool", "guard").code == 0
    files = {agent.platform: root / agent.facts.settings_file for agent in all_setups()
             if (root / agent.facts.settings_file).is_file()}
    assert set(files) == set(Platform)
    current = {p: path.read_text() for p, path in files.items()}
    for platform, path in files.items():
        agent = setup_of(platform)
        new = handler_for("guard", platform, timeout=10, fail_closed=True,
                          event=NormalizedEvent.BEFORE_TOOL, description="")["command"]
        old = agent.registration.handler(
            agent, agent.command("guard", "python3", launcher=launcher), name="guard", timeout_s=10,
            fail_closed=True, event=NormalizedEvent.BEFORE_TOOL, description="")["command"]
        assert "--fail-closed=7 " in new and "--fail-closed" not in old
        text = path.read_text()
        # JSON-escaped in the settings files (OpenCode's plugin holds JSON too).
        new_json, old_json = json.dumps(new)[1:-1], json.dumps(old)[1:-1]
        assert new_json in text, platform
        path.write_text(text.replace(new_json, old_json))
    check = hw(root, "sync", "--check")
    assert check.code == 1  # drift until synced
    assert hw(root, "sync").code == 0
    assert {p: path.read_text() for p, path in files.items()} == current  # upgraded in place
    assert hw(root, "sync", "--check").code == 0


def test_sync_and_add_cache_hook_bytecode_where_the_launcher_reads_it(project) -> None:
    root = project
    assert hw(root, "add", "before_tool", "guard").code == 0
    assert (root / LAUNCHER).is_file()
    script = root / ".hookwrap" / "hooks" / "guard.py"
    cache = importlib.util.cache_from_source(str(script))
    data = open(cache, "rb").read()
    assert data[4] == 0b11 and data[8:16] == importlib.util.source_hash(script.read_bytes())
    script.write_text(script.read_text() + "# edited\n")
    assert hw(root, "sync").code == 0
    assert open(cache, "rb").read()[8:16] == importlib.util.source_hash(script.read_bytes())


# A hook process ends without the interpreter's teardown once hookwrap's runner has sealed its
# answer (launcher.py, _exit_now): proven here with the real runtime and the registered command.
# The hook keeps an object whose __del__ speaks at teardown: silent = the quick exit was taken.
_WITNESS = '''
class _Witness:
    def __del__(self):
        os.write(2, b"teardown ran\\n")


_witness = _Witness()
'''


def _run_registered(root, name: str, hook_body: str) -> subprocess.CompletedProcess:
    script = root / ".hookwrap" / "hooks" / f"{name}.py"
    text = script.read_text()
    text = text.replace("\ndef hook(", _WITNESS + "\n\ndef hook(", 1)
    text = text.replace('    return None\n\n\nif __name__ == "__main__":', hook_body + '\n\nif __name__ == "__main__":', 1)
    script.write_text(text)
    command = next(h["command"] for group in json.loads((root / ".claude/settings.json").read_text())
                   ["hooks"]["PreToolUse"] for h in group["hooks"] if f" {name} " in h["command"])
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(CLAUDE_PROJECT_DIR=str(root), CLAUDECODE="1")
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
               "cwd": str(root), "tool_input": {"command": "git push --force"}}
    return subprocess.run(["bash", "-c", command], input=json.dumps(payload), capture_output=True,
                          text=True, cwd=root, env=env, timeout=60)


def test_a_hookwrap_hook_ends_quickly_with_its_answer_whole(project) -> None:
    assert hw(project, "add", "before_tool", "quick", "--template", "skeleton").code == 0
    ran = _run_registered(project, "quick", '''    import atexit
    atexit.register(lambda: sys.stderr.write("atexit ran\\n"))
    print("said while deciding")
    return HookOutput.block("no force pushes")
''')
    assert ran.returncode == 0
    answer = json.loads(ran.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "no force pushes"
    assert ran.stderr == "said while deciding\natexit ran\n"  # and no teardown


def test_a_hookwrap_hook_that_leaves_a_thread_running_gets_the_usual_exit(project) -> None:
    assert hw(project, "add", "before_tool", "slow", "--template", "skeleton").code == 0
    ran = _run_registered(project, "slow", '''    import threading
    import time

    threading.Thread(target=lambda: (time.sleep(0.3), sys.stderr.write("thread done\\n"))).start()
    return HookOutput.block("no force pushes")
''')
    assert ran.returncode == 0 and json.loads(ran.stdout)["decision"] == "block"
    assert "thread done" in ran.stderr and "teardown ran" in ran.stderr
