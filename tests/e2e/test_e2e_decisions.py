"""Each decision a hook can return through the runtime API, observed on both CLIs in one run.

A hand-written hook on before_tool and one on after_tool (both shell only) pick their answer from
the command the model runs, so a single session walks through every case. docs/decisions.md is
the table of what these tests observe.
"""

from __future__ import annotations

import pytest

from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

HOOK = '''\
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

WHEN = {when!r}
CASES = {{
    "before-block": HookOutput.block("REASON-BEFORE-BLOCK"),
    "before-allow": HookOutput.allow(reason="REASON-BEFORE-ALLOW"),
    "before-context": HookOutput(context="CONTEXT-BEFORE-TOOL"),
    "before-message": HookOutput(system_message="MESSAGE-BEFORE-TOOL"),
    "before-stop": HookOutput(continue_loop=False, stop_reason="STOP-BEFORE-TOOL"),
    "after-block": HookOutput.block("REASON-AFTER-BLOCK"),
    "after-context": HookOutput(context="CONTEXT-AFTER-TOOL"),
}}


def hook(event: HookInput) -> HookOutput | None:
    command = str(event.tool_input.get("command", ""))
    for case, output in CASES.items():
        if case.startswith(WHEN) and case in command:
            return output
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''

CASES = ["before-none", "before-block", "before-allow", "before-context", "before-message",
         "after-block", "after-context", "before-stop"]

PROMPT_GATE = '''\
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402


def hook(event: HookInput) -> HookOutput:
    return HookOutput.block("REASON-PROMPT-BLOCK")


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''


def test_tool_decisions(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "decide_before", "--matcher", "shell")
    repo.add("after_tool", "decide_after", "--matcher", "shell")
    repo.script("decide_before").write_text(HOOK.format(when="before"))
    repo.script("decide_after").write_text(HOOK.format(when="after"))
    steps = [agent.shell(f"echo {case} > {case}.txt") for case in CASES] + [Reply("Finished.")]
    result = agent.run(repo.root, steps)
    claude = agent.name == "claude"
    why = result.describe()

    assert result.rc == 0, why
    ran = {p.stem for p in repo.root.glob("*.txt")}
    # continue_loop=False: Claude still runs the tool, then ends; Gemini ends before running it.
    assert ran == set(CASES) - {"before-block"} - (set() if claude else {"before-stop"}), why
    # Either way the session ends there: the model never sees the stopped call's result.
    assert len(result.requests) == len(CASES), why
    assert result.final_text == "", why
    results = dict(zip(CASES, result.tool_results()))
    sent = result.conversation(-1)

    assert not results["before-none"]["is_error"], why
    assert results["before-block"]["is_error"], why
    assert results["before-block"]["text"] == (
        "PreToolUse:Bash hook error: REASON-BEFORE-BLOCK" if claude
        else "Tool execution blocked: REASON-BEFORE-BLOCK"), why
    assert not results["before-allow"]["is_error"] and "REASON-BEFORE-ALLOW" not in sent, why
    if claude:  # before_tool context reaches Claude's model after the result; Gemini drops it
        assert "PreToolUse:Bash hook additional context: CONTEXT-BEFORE-TOOL" in sent, why
    else:
        assert "CONTEXT-BEFORE-TOOL" not in sent, why
    # system_message is for the person at the terminal, never for the model.
    assert "MESSAGE-BEFORE-TOOL" not in sent, why
    if claude:
        notices = [e.get("content") for e in result.events if e.get("subtype") == "informational"]
        assert "PreToolUse:Bash says: MESSAGE-BEFORE-TOOL" in notices, why
    else:
        assert "Hook system message: MESSAGE-BEFORE-TOOL" in result.stderr, why
    # after_tool block: the tool has run; Claude adds the reason, Gemini replaces the result with it.
    if claude:
        assert not results["after-block"]["is_error"], why
        assert ('PostToolUse:Bash hook blocking error from command: "python3 \"$CLAUDE_PROJECT_DIR\"'
                '/.hookwrap/lib/run.py decide_after --platform claude": REASON-AFTER-BLOCK') in sent, why
    else:
        assert results["after-block"] == {"text": "REASON-AFTER-BLOCK", "is_error": True,
                                          "name": "run_shell_command"}, why
        assert "Tool result blocked: REASON-AFTER-BLOCK" in result.stderr, why
    if claude:
        assert "PostToolUse:Bash hook additional context: CONTEXT-AFTER-TOOL" in sent, why
    else:
        appended = "\n\n<hook_context>CONTEXT-AFTER-TOOL</hook_context>"
        assert results["after-context"]["text"].endswith(appended), why
    if claude:
        ends = [e.get("terminal_reason") for e in result.events if e.get("type") == "result"]
        assert ends == ["hook_stopped"], why
    else:
        assert "Agent execution stopped by hook: STOP-BEFORE-TOOL" in result.stderr, why
    assert "STOP-BEFORE-TOOL" not in sent, why
    runs = [r.name for r in result.hook_runs]
    # decide_after runs after every call that ran (on Claude, the stopped one too).
    assert runs.count("decide_before") == len(CASES), why
    assert runs.count("decide_after") == len(ran), why
    assert not result.failed_hooks(), why


def test_before_prompt_block_means_no_model_call(agent: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_prompt", "gate")
    repo.script("gate").write_text(PROMPT_GATE)
    result = agent.run(repo.root, [Reply("Never asked.")])

    assert result.rc == 0, result.describe()
    assert result.requests == [], result.describe()
    assert result.hooks == [("gate", agent.name)], result.describe()
    assert not result.failed_hooks(), result.describe()
    if agent.name == "claude":
        assert result.final_text == ("UserPromptSubmit operation blocked by hook:\nREASON-PROMPT-BLOCK\n\n"
                                     "Original prompt: Please do the task."), result.describe()
    else:
        assert result.final_text == "", result.describe()
        warnings = result.events[0]["warnings"]
        assert warnings == ["Agent execution blocked: REASON-PROMPT-BLOCK"], result.describe()
