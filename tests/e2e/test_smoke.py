"""Harness smoke tests: hand-written hook commands (no hookwrap involved) in each CLI's settings file.

They prove that the harness drives both CLIs offline, that the mocks script the model and record
what it is sent, and that a hook's decision is observable from outside: the side effect of a shell
call, the text of the next model request, and the probe's record of the hook process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .harness import Agent
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

RAW_HOOK = '''\
import importlib.util, json, sys

platform, event, mode, text = sys.argv[1:5]
payload = json.load(sys.stdin)
with open("raw_hook.log", "a") as log:
    log.write(json.dumps({"event": payload.get("hook_event_name"), "tool_input": payload.get("tool_input"),
                          "hookwrap_importable": importlib.util.find_spec("hookwrap") is not None}) + "\\n")
if mode == "context":
    out = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
elif platform == "claude":
    out = {"hookSpecificOutput": {"hookEventName": event, "permissionDecision": mode,
                                  "permissionDecisionReason": text}}
else:
    out = {"decision": mode, "reason": text}
print(json.dumps(out))
'''

EVENTS = {"claude": {"before_tool": "PreToolUse", "session_start": "SessionStart"},
          "gemini": {"before_tool": "BeforeTool", "session_start": "SessionStart"}}


def register_raw_hook(agent: Agent, project: Path, event: str, mode: str, text: str) -> None:
    """Write ``hooks/raw_hook.py`` and a settings file that runs it for ``event`` (a normalized name)."""
    (project / "hooks").mkdir(exist_ok=True)
    (project / "hooks" / "raw_hook.py").write_text(RAW_HOOK)
    native = EVENTS[agent.name][event]
    if agent.name == "claude":
        command = f'python3 "$CLAUDE_PROJECT_DIR"/hooks/raw_hook.py claude {native} {mode} "{text}"'
        handler = {"type": "command", "command": command, "timeout": 30}
    else:
        command = f'python3 "${{GEMINI_PROJECT_DIR}}/hooks/raw_hook.py" gemini {native} {mode} "{text}"'
        handler = {"name": "raw-hook", "type": "command", "command": command, "timeout": 30000}
    group: dict = {"hooks": [handler]}
    if event == "before_tool":
        group["matcher"] = agent.shell_tool
    settings = agent.settings_path(project)
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": {native: [group]}}, indent=2) + "\n")


def hook_log(project: Path) -> list[dict]:
    path = project / "raw_hook.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_deny_stops_the_shell_call(agent: Agent, project: Path) -> None:
    register_raw_hook(agent, project, "before_tool", "deny", "SMOKE-DENY-REASON")
    result = agent.run(project, [agent.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (project / "side_effect.txt").exists(), result.describe()
    assert len(result.requests) == 2, result.describe()
    [tool_result] = result.tool_results()
    assert tool_result["is_error"], result.describe()
    assert "SMOKE-DENY-REASON" in tool_result["text"], result.describe()
    assert [r.name for r in result.hook_runs] == ["raw_hook"], result.describe()
    [logged] = hook_log(project)
    assert logged["tool_input"]["command"] == "echo x > side_effect.txt"
    assert not logged["hookwrap_importable"], "hooks must not see the hookwrap installed for the tests"
    assert result.final_text == "Finished."


def test_allow_lets_the_shell_call_run(agent: Agent, project: Path) -> None:
    register_raw_hook(agent, project, "before_tool", "allow", "fine")
    result = agent.run(project, [agent.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (project / "side_effect.txt").read_text() == "x\n", result.describe()
    [tool_result] = result.tool_results()
    assert not tool_result["is_error"], result.describe()
    assert [r.name for r in result.hook_runs] == ["raw_hook"], result.describe()


def test_session_start_context_reaches_the_model(agent: Agent, project: Path) -> None:
    register_raw_hook(agent, project, "session_start", "context", "SMOKE-CONTEXT-7f3a")
    result = agent.run(project, [Reply("Hello.")])

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 1, result.describe()
    assert "SMOKE-CONTEXT-7f3a" in result.conversation(0), result.describe()
    assert [r.name for r in result.hook_runs] == ["raw_hook"], result.describe()


def test_no_hook_runs_without_settings(agent: Agent, project: Path) -> None:
    """The baseline: the shell call runs, and the probe records no hook."""
    result = agent.run(project, [agent.shell("echo x > side_effect.txt"), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (project / "side_effect.txt").exists(), result.describe()
    assert result.hook_runs == [], result.describe()
    assert all(r.status == 200 for r in result.all_requests), result.describe()
