"""hookwrap on OpenCode 1.18.33 (the real binary, offline): the generated plugin, end to end.

OpenCode has no command hooks: ``hookwrap`` renders ``.opencode/plugins/hookwrap.js``, which runs
the hooks as commands. Each run takes ~3-5 s (``npm_config_offline=true`` keeps OpenCode from
waiting on its plugin npm install, see opencode_harness.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .chat_harness import ChatAgent, make_project
from .mockmodel import Reply
from .qwen_copilot_support import (
    CHECK_FAILS,
    CONTEXT_MARKER,
    FORCED_PUSH,
    add_guard_audit_context,
    add_rewrite_or_ask,
    hookwrap_repo,
)

pytestmark = pytest.mark.e2e

PLUGIN = ".opencode/plugins/hookwrap.js"
USER_PLUGIN = "export const UserPlugin = async () => ({});\n"
USER_CONFIG = {"$schema": "https://opencode.ai/config.json", "instructions": ["NOTES.md"]}


def test_guard_context_and_the_users_own_files(opencode: ChatAgent, tmp_path: Path) -> None:
    project = make_project(tmp_path, "proj with space")
    plugins = project / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "user.js").write_text(USER_PLUGIN, encoding="utf-8")
    (project / "opencode.json").write_text(json.dumps(USER_CONFIG), encoding="utf-8")
    repo = hookwrap_repo(opencode, project, "opencode")
    add_guard_audit_context(repo)
    repo.add("session_start", "start", "--template", "context")
    (project / ".hookwrap" / "start.md").write_text("E2E-SESSION-START-4d2\n", encoding="utf-8")
    steps = [opencode.shell(FORCED_PUSH), opencode.write_file(str(project / ".env"), "SECRET=1\n"),
             opencode.shell("echo ok > harmless.txt"), Reply("Finished.")]
    result = opencode.run(project, steps, prompt="do it")

    assert result.rc == 0, result.describe()
    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert not (project / ".env").exists(), result.describe()
    results = result.tool_results()
    assert "force" in results[0]["text"].lower(), results
    assert ".env" in results[1]["text"], results
    # before_prompt context: a second text part of the user message; session_start: a system
    # string in every request.
    assert CONTEXT_MARKER in " ".join(result.user_messages(0)), result.describe()
    assert "E2E-SESSION-START-4d2" in result.system_prompt(0), result.describe()
    assert "E2E-SESSION-START-4d2" in result.system_prompt(-1), result.describe()
    # The plugin runs an event's hooks in turn and stops at the first block: audit (added after
    # the guard) saw only the harmless shell call.
    lines = repo.log_lines("audit")
    assert [(line["platform"], line["tool_input"]["command"]) for line in lines] == \
        [("opencode", "echo ok > harmless.txt")], lines

    # The user's plugin and config are never touched; remove of the last hook removes hookwrap's.
    assert repo.hookwrap("sync", "--check").returncode == 0
    for name in ("context", "audit", "guard", "start"):
        repo.hookwrap("remove", name)
    assert not (project / PLUGIN).exists()
    assert (plugins / "user.js").read_text(encoding="utf-8") == USER_PLUGIN
    assert json.loads((project / "opencode.json").read_text(encoding="utf-8")) == USER_CONFIG


AFTER_TOOL_HOOK = '''\
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402


def hook(event: HookInput) -> HookOutput | None:
    command = str(event.tool_input.get("command", ""))
    if event.event.value == "before_tool" and "ctx" in command:
        return HookOutput(context="E2E-PRE-CONTEXT")
    if event.event.value == "after_tool" and "ctx" in command:
        return HookOutput(context="E2E-POST-CONTEXT " + str(event.tool_response.get("output", "")).strip())
    if event.event.value == "after_tool" and "hide" in command:
        return HookOutput.block("E2E-OUTPUT-HIDDEN")
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def test_guard_sees_the_apply_patch_edits_of_gpt_models(opencode: ChatAgent, tmp_path: Path) -> None:
    """OpenCode 1.18.33 gives a model whose id holds "gpt-" apply_patch in place of write and
    edit: the guard's write_file|edit_file matcher selects it, and a .env in a patch is blocked."""
    opencode.model_id = "gpt-5-mock"  # type: ignore[attr-defined]
    project = make_project(tmp_path, "proj")
    repo = hookwrap_repo(opencode, project, "opencode")
    add_guard_audit_context(repo)
    steps = [opencode.apply_patch("*** Add File: .env", "+SECRET=1"),  # type: ignore[attr-defined]
             opencode.apply_patch("*** Add File: notes.txt", "+ok"),  # type: ignore[attr-defined]
             Reply("Finished.")]
    result = opencode.run(project, steps, prompt="do it")

    assert result.rc == 0, result.describe()
    tools = {t.get("function", {}).get("name") for t in result.requests[0].body.get("tools", [])}
    assert "apply_patch" in tools and not {"write", "edit"} & tools, tools
    assert not (project / ".env").exists(), result.describe()
    assert (project / "notes.txt").read_text() == "ok\n", result.describe()
    results = result.tool_results()
    assert "Blocked by the guard hook" in results[0]["text"] and ".env" in results[0]["text"], results


def test_rewrite_ask_and_tool_context(opencode: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(opencode, git_project, "opencode")
    add_rewrite_or_ask(repo)
    for event, name in (("before_tool", "pre"), ("after_tool", "post")):
        repo.add(event, name, "--template", "skeleton", "--matcher", "shell")
        repo.script(name).write_text(AFTER_TOOL_HOOK, encoding="utf-8")
    steps = [opencode.shell("echo x > original.txt"), opencode.shell("echo risky > r.txt"),
             opencode.shell("echo ctx-out"), opencode.shell("echo hide-me"), Reply("Finished.")]
    result = opencode.run(git_project, steps)

    assert result.rc == 0, result.describe()
    # updated_input: the arguments are changed in place, so the rewritten command ran.
    assert (git_project / "rewritten.txt").exists() and not (git_project / "original.txt").exists(), \
        result.describe()
    # ask: a block whose reason tells the model to ask the user.
    assert not (git_project / "r.txt").exists(), result.describe()
    asked = result.tool_results()[1]["text"]
    assert "E2E-ASK-REASON" in asked and "ask the user" in asked, result.describe()
    # before_tool and after_tool context: appended to the tool's output the model gets.
    ctx = result.tool_results()[2]["text"]
    assert ctx.startswith("ctx-out") and "E2E-PRE-CONTEXT" in ctx and "E2E-POST-CONTEXT ctx-out" in ctx, ctx
    # after_tool block: the tool ran, the model sees the reason instead of its output.
    assert result.tool_results()[3]["text"] == "E2E-OUTPUT-HIDDEN", result.describe()
    # OpenCode's own files beside the plugin (its npm install failed at once, offline).
    assert (git_project / ".opencode" / ".gitignore").is_file(), sorted(
        p.name for p in (git_project / ".opencode").iterdir())


def test_a_missing_script_does_not_block_everything_and_the_stop_gate_is_not_enforced(
        opencode: ChatAgent, git_project: Path) -> None:
    repo = hookwrap_repo(opencode, git_project, "opencode")
    added = repo.hookwrap("add", "after_agent", "stop_gate")
    assert "OpenCode: cannot keep the agent working" in added.stderr + added.stdout
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("before_tool", "guard")
    repo.script("audit").unlink()
    start = time.monotonic()
    result = opencode.run(git_project, [opencode.shell("echo ok > a.txt"), Reply("Finished."),
                                        Reply("Again.")])

    # The stop gate's check fails, yet no retry: session.idle is not awaited and opencode run
    # exits right after the answer (the tool call and the answer: two requests).
    assert result.rc == 0, result.describe()
    assert len(result.requests) == 2, result.describe()
    test = repo.hookwrap("test", "stop_gate", "--platform", "opencode", check=False)
    assert "cannot keep the agent working" in test.stdout + test.stderr, test.stdout + test.stderr
    # audit cannot run (python3 exits 2): reported, the call goes on; the guard still runs.
    assert (git_project / "a.txt").read_text() == "ok\n", result.describe()
    assert "hookwrap: PreToolUse hook" in result.stderr and "the call goes on" in result.stderr
    assert time.monotonic() - start < 60, result.describe()
    # The guard fails closed: without its script the call is blocked, with the reason.
    repo.script("guard").unlink()
    result = opencode.run(git_project, [opencode.shell("echo ok > b.txt"), Reply("Finished.")])
    assert not (git_project / "b.txt").exists(), result.describe()
    assert "fail-closed hook could not run" in result.tool_results()[0]["text"], result.describe()
