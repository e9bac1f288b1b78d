"""hookwrap on Kilo CLI 7.7.9 (the real binary, offline): the generated plugin, end to end.

Kilo loads OpenCode's plugin API from ``.kilo/plugins/``; ``hookwrap`` renders
``.kilo/plugins/hookwrap.js`` from OpenCode's plugin template with Kilo's record. Each run takes
~10-20 s on a 2-core machine (kilo_harness.py has the offline switches).
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
from .test_opencode_hookwrap import AFTER_TOOL_HOOK

pytestmark = pytest.mark.e2e

PLUGIN = ".kilo/plugins/hookwrap.js"
OPENCODE_PLUGIN = ".opencode/plugins/hookwrap.js"
# The user's own plugin: it records every tool call it sees, so the test can tell it still runs
# beside hookwrap's (and in which order Kilo called them).
USER_PLUGIN = """\
import { appendFileSync } from "node:fs";
import { join } from "node:path";

export const UserPlugin = async (ctx) => ({
  "tool.execute.before": async (input) => {
    appendFileSync(join(ctx.directory, "user-plugin.log"), `${input.tool}\\n`);
  },
});
"""
USER_CONFIG = {"$schema": "https://app.kilo.ai/config.json", "instructions": ["NOTES.md"]}


def test_guard_context_once_per_cli_and_the_users_own_files(kilo: ChatAgent, tmp_path: Path) -> None:
    """The guard blocks a forced push (through bash and through background_process) and a .env
    write, the reasons reach the model and the run goes on; prompt and session context reach
    the model; a project registered for OpenCode too runs each hook once (Kilo does not load
    .opencode/plugins/hookwrap.js); the user's plugin keeps running; remove turns hookwrap off."""
    project = make_project(tmp_path, "proj with space")
    plugins = project / ".kilo" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "user.js").write_text(USER_PLUGIN, encoding="utf-8")
    (project / "kilo.json").write_text(json.dumps(USER_CONFIG), encoding="utf-8")
    repo = hookwrap_repo(kilo, project, "kilo", "opencode")
    add_guard_audit_context(repo)
    repo.add("session_start", "start", "--template", "context")
    (project / ".hookwrap" / "start.md").write_text("E2E-SESSION-START-4d2\n", encoding="utf-8")
    assert (project / PLUGIN).is_file() and (project / OPENCODE_PLUGIN).is_file()
    steps = [kilo.shell(FORCED_PUSH),
             kilo.write_file(str(project / ".env"), "SECRET=1\n"),
             kilo.background_process(FORCED_PUSH),  # type: ignore[attr-defined]
             kilo.shell("echo ok > harmless.txt"),
             Reply("Finished.")]
    result = kilo.run(project, steps, prompt="do it")

    assert result.rc == 0, result.describe()
    assert (project / "harmless.txt").read_text() == "ok\n", result.describe()
    assert not (project / ".env").exists(), result.describe()
    results = result.tool_results()
    assert "Blocked by the guard hook" in results[0]["text"] and "force" in results[0]["text"], results
    assert ".env" in results[1]["text"], results
    # background_process is a shell tool to the hooks: the guard read its command.
    assert "Blocked by the guard hook" in results[2]["text"] and "force" in results[2]["text"], results
    assert CONTEXT_MARKER in " ".join(result.user_messages(0)), result.describe()
    assert "E2E-SESSION-START-4d2" in result.system_prompt(0), result.describe()
    assert "E2E-SESSION-START-4d2" in result.system_prompt(-1), result.describe()
    # Once per CLI: audit (after the guard) saw the harmless call once, as kilo, though the
    # project also registers OpenCode's plugin.
    lines = repo.log_lines("audit")
    assert [(line["platform"], line["tool_input"]["command"]) for line in lines] == \
        [("kilo", "echo ok > harmless.txt")], lines
    # The user's plugin ran for every call, the blocked ones included.
    seen = (project / "user-plugin.log").read_text(encoding="utf-8").split()
    assert seen.count("bash") == 2 and "write" in seen and "background_process" in seen, seen
    # Kilo's own files beside the plugins (its npm install failed at once, offline).
    assert (project / ".kilo" / ".gitignore").is_file(), sorted(p.name for p in (project / ".kilo").iterdir())
    gitignore = (project / ".kilo" / ".gitignore").read_text(encoding="utf-8")
    assert not any(line.strip().strip("/") in ("plugins", "plugins/hookwrap.js", "*.js")
                   for line in gitignore.splitlines()), gitignore  # the plugin is committed

    assert repo.hookwrap("sync", "--check").returncode == 0
    doctor = repo.hookwrap("doctor", check=False)
    assert "Kilo CLI loads .kilo/plugins/hookwrap.js" in doctor.stdout, doctor.stdout
    for name in ("context", "audit", "guard", "start"):
        repo.hookwrap("remove", name)
    assert not (project / PLUGIN).exists() and not (project / OPENCODE_PLUGIN).exists()
    assert (plugins / "user.js").read_text(encoding="utf-8") == USER_PLUGIN
    assert json.loads((project / "kilo.json").read_text(encoding="utf-8")) == USER_CONFIG
    assert (project / ".kilo" / ".gitignore").read_text(encoding="utf-8") == gitignore


def test_the_stop_gate_keeps_kilo_working(kilo: ChatAgent, git_project: Path) -> None:
    """A Stop block is sent back as the next user message: with a failing check and
    max_retries = 2 the agent answers three times, then the gate lets it stop."""
    repo = hookwrap_repo(kilo, git_project, "kilo")
    added = repo.hookwrap("add", "after_agent", "stop_gate")
    assert "cannot keep the agent working" not in added.stdout + added.stderr
    repo.set_options("stop_gate", check=CHECK_FAILS, max_retries=2)
    result = kilo.run(git_project, [Reply("First."), Reply("Second."), Reply("Third."),
                                    Reply("Fourth.")])

    assert result.rc == 0, result.describe()
    assert len(result.requests) == 3, result.describe()
    followups = " ".join(result.user_messages(-1))
    assert "E2E-CHECK-FAILED" in followups or "failed" in followups, followups
    test = repo.hookwrap("test", "stop_gate", "--platform", "kilo", check=False)
    assert "kilo: agent kept working" in test.stdout + test.stderr, test.stdout + test.stderr


HANGING_HOOK = """\
import time

time.sleep(30)
"""


def test_the_guard_fails_closed(kilo: ChatAgent, git_project: Path) -> None:
    """Without its script, and when it hangs, the guard blocks the call with a
    reason; a hook that is not fail-closed is reported and the call goes on."""
    repo = hookwrap_repo(kilo, git_project, "kilo")
    repo.add("before_tool", "audit", "--matcher", "shell")
    repo.add("before_tool", "guard")
    repo.script("audit").unlink()
    repo.script("guard").unlink()
    result = kilo.run(git_project, [kilo.shell("echo ok > a.txt"), Reply("Finished.")])
    assert result.rc == 0, result.describe()
    assert not (git_project / "a.txt").exists(), result.describe()
    assert "fail-closed hook could not run" in result.tool_results()[0]["text"], result.describe()
    assert "hookwrap: PreToolUse hook" in result.stderr and "the call goes on" in result.stderr

    repo.script("guard").write_text(HANGING_HOOK, encoding="utf-8")
    repo.set_options("guard", timeout=2)
    repo.sync()
    start = time.monotonic()
    result = kilo.run(git_project, [kilo.shell("echo ok > b.txt"), Reply("Finished.")])
    assert result.rc == 0, result.describe()
    assert not (git_project / "b.txt").exists(), result.describe()
    text = result.tool_results()[0]["text"]
    # The launcher's deadline (1.4 s of the 2 s timeout) blocks before the plugin's timeout.
    assert "fail-closed hook could not run" in text and "gave no answer within 1.4 s" in text, \
        result.describe()
    assert time.monotonic() - start < 60, result.describe()


def test_rewrite_ask_and_tool_context(kilo: ChatAgent, git_project: Path) -> None:
    """OpenCode's answers through the same plugin in Kilo: a rewrite runs in place, an ask is a
    block telling the model to ask the user, before/after_tool context is appended to the tool
    output, an after_tool block replaces it."""
    repo = hookwrap_repo(kilo, git_project, "kilo")
    add_rewrite_or_ask(repo)
    for event, name in (("before_tool", "pre"), ("after_tool", "post")):
        repo.add(event, name, "--template", "skeleton", "--matcher", "shell")
        repo.script(name).write_text(AFTER_TOOL_HOOK, encoding="utf-8")
    steps = [kilo.shell("echo x > original.txt"), kilo.shell("echo risky > r.txt"),
             kilo.shell("echo ctx-out"), kilo.shell("echo hide-me"), Reply("Finished.")]
    result = kilo.run(git_project, steps)

    assert result.rc == 0, result.describe()
    assert (git_project / "rewritten.txt").exists() and not (git_project / "original.txt").exists(), \
        result.describe()
    assert not (git_project / "r.txt").exists(), result.describe()
    asked = result.tool_results()[1]["text"]
    assert "E2E-ASK-REASON" in asked and "ask the user" in asked and "Kilo CLI" in asked, asked
    ctx = result.tool_results()[2]["text"]
    assert ctx.startswith("ctx-out") and "E2E-PRE-CONTEXT" in ctx and "E2E-POST-CONTEXT ctx-out" in ctx, ctx
    assert result.tool_results()[3]["text"] == "E2E-OUTPUT-HIDDEN", result.describe()
