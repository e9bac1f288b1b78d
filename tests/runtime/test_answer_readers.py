"""The runtime's reading of a hook's answer (``AgentCLI.read_answer``: what the bridge acts on)
holds each CLI's own rules, and ``hookwrap test`` reads the same answers the same way.

Each case names the CLI fact it checks (the reference file and the version it was seen in).
``scripts/answer_diff.py`` lists every remaining difference between the two readings.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hookwrap.generator.clis import setup_of
from hookwrap.names import NormalizedEvent as E
from hookwrap.names import Platform
from hookwrap.platforms import runtime_of

_E2 = "why"


def read(platform: Platform, event: E, code: int, stdout: str = "", stderr: str = "") -> dict:
    return runtime_of(platform).read_answer(event, code, stdout, stderr)


def blocks(fields: dict) -> bool:
    return fields.get("decision") in ("block", "deny")


# --- exit 2, per CLI and event ---------------------------------------------------------------

def test_claude_exit2_is_ignored_on_permission_request() -> None:
    # claude-code-schema.md: "PermissionRequest ignores exit 2" (2.1.328 binary): the permission
    # flow reads only the JSON decision, so the bridge must not deny on it.
    assert not blocks(read(Platform.CLAUDE, E.PERMISSION_REQUEST, 2, stderr=_E2))


def test_claude_exit2_on_post_tool_use_failure_reaches_claude() -> None:
    # claude-code-schema.md, PostToolUseFailure: "Exit 2: stderr is shown to Claude".
    assert read(Platform.CLAUDE, E.AFTER_TOOL_FAILURE, 2, stderr=_E2) == {
        "decision": "block", "reason": _E2}


def test_claude_block_on_pre_compact_skips_the_compaction() -> None:
    # claude-code-schema.md, PreCompact (2.1.328 binary): decision "block" or exit 2
    # blocks the compaction, with stderr (or the reason) as the message.
    assert read(Platform.CLAUDE, E.PRE_COMPACT, 2, stderr=_E2) == {
        "decision": "block", "reason": _E2}
    assert read(Platform.CLAUDE, E.PRE_COMPACT, 0, '{"decision": "block", "reason": "r"}') == {
        "decision": "block", "reason": "r"}


@pytest.mark.parametrize("platform, event", [
    # The other CLIs keep their own facts on PreCompact: Copilot CLI's preCompact takes no
    # output (copilot-cli.md §2.3); Factory Droid never fired it and reads exit 2 on PreToolUse
    # and Stop only (droid.md); Codex CLI's PreCompact schema has no decision (codex-cli.md
    # §4.4) and Qwen Code's reference never saw it run (qwen-code.md §5): their exit-2 events
    # stay as observed; Gemini CLI's PreCompress consumes no decision (gemini-cli.md §2.4).
    (Platform.COPILOT, E.PRE_COMPACT), (Platform.DROID, E.PRE_COMPACT),
    (Platform.QWEN, E.PRE_COMPACT), (Platform.CODEX, E.PRE_COMPACT),
    (Platform.GEMINI, E.PRE_COMPACT),
    (Platform.DROID, E.AFTER_TOOL),  # droid.md: exit 2 acts on PreToolUse and Stop only
    (Platform.DROID, E.BEFORE_PROMPT),
    (Platform.COPILOT, E.AFTER_TOOL),  # copilot-cli.md §7: only preToolUse reads an exit code
    (Platform.COPILOT, E.AFTER_AGENT),
    (Platform.COPILOT, E.BEFORE_PROMPT),
    (Platform.QWEN, E.AFTER_TOOL),  # qwen-code.md §1.8: a block after a tool is ignored
])
def test_exit2_does_not_block_where_the_cli_ignores_it(platform: Platform, event: E) -> None:
    assert not blocks(read(platform, event, 2, stderr=_E2))


@pytest.mark.parametrize("platform, event", [
    (Platform.QWEN, E.PERMISSION_REQUEST),  # qwen-code.md §1.8: stderr text is a deny
    (Platform.CODEX, E.PERMISSION_REQUEST),  # codex-cli.md §4: exit 2 with stderr blocks
    (Platform.DROID, E.BEFORE_TOOL), (Platform.DROID, E.AFTER_AGENT),
])
def test_exit2_blocks_where_the_cli_reads_it(platform: Platform, event: E) -> None:
    assert read(platform, event, 2, stderr=_E2) == {"decision": "block", "reason": _E2}


# --- Qwen Code 0.24.4 ------------------------------------------------------------------------

@pytest.mark.parametrize("event", [E.BEFORE_TOOL, E.AFTER_TOOL, E.BEFORE_PROMPT, E.AFTER_AGENT])
def test_qwen_continue_false_blocks_this_call(event: E) -> None:
    # qwen-code.md §2.5 (e2e pre-continue-false, post-continue-false, ups-block, stop-block):
    # continue:false blocks the tool / replaces its result / drops the prompt / keeps Stop
    # working, with stopReason as the reason; read as "stop the agent", the bridge let the
    # tool run.
    fields = read(Platform.QWEN, event, 0, '{"continue": false, "stopReason": "s"}')
    assert fields == {"decision": "block", "reason": "s"}


def test_qwen_reads_stderr_when_stdout_is_empty() -> None:
    # qwen-code.md §1.8: the output is stdout, else stderr; plain text at exit 0 on SessionStart
    # is context, as Claude's is.
    assert read(Platform.QWEN, E.SESSION_START, 0, "", "hello") == {"context": "hello"}


# --- Copilot CLI 1.0.102 ---------------------------------------------------------------------

def test_copilot_plain_stdout_is_no_context() -> None:
    # copilot-cli.md §7: context is read from the JSON's additionalContext only.
    assert read(Platform.COPILOT, E.SESSION_START, 0, "hello") == {}


# --- the generated plugin (OpenCode 1.18.33, Kilo CLI, pi) -----------------------------------

@pytest.mark.parametrize("platform", [Platform.OPENCODE, Platform.KILO, Platform.PI])
def test_plugin_reads_top_level_updated_input(platform: Platform) -> None:
    # hook_runner.js runHooks: a top-level updatedInput rewrites the call in place; the bridge
    # dropped it (it read only hookSpecificOutput.updatedInput).
    fields = read(platform, E.BEFORE_TOOL, 0, '{"updatedInput": {"command": "ls"}}')
    assert fields == {"updated_input": {"command": "ls"}}


@pytest.mark.parametrize("stdout", [
    '"{\\"decision\\": \\"block\\"}"',  # one JSON.parse: a JSON string is no answer
    '{"hookSpecificOutput": {"permissionDecision": "deny"}}',  # Claude's words: not read
    '{"decision": "ask"}',  # the plugin knows no ask
])
def test_plugin_ignores_what_the_plugin_does_not_read(stdout: str) -> None:
    assert read(Platform.OPENCODE, E.BEFORE_TOOL, 0, stdout) == {}


def test_plugin_block_without_reason_has_the_plugins_reason() -> None:
    assert read(Platform.OPENCODE, E.BEFORE_TOOL, 0, '{"decision": "deny"}') == {
        "decision": "block", "reason": "Blocked by a hookwrap hook."}


def test_plugin_stop_block_counts_only_where_the_cli_keeps_working() -> None:
    stdout = '{"decision": "block", "reason": "r", "additionalContext": "c"}'
    keeps = runtime_of(Platform.OPENCODE).keep_working
    fields = read(Platform.OPENCODE, E.AFTER_AGENT, 0, stdout)
    assert blocks(fields) is bool(keeps)
    assert "context" not in fields  # Stop's context reaches no model request


# --- the two readings agree -------------------------------------------------------------------

def _answer_diff():
    path = Path(__file__).parents[2] / "scripts" / "answer_diff.py"
    spec = importlib.util.spec_from_file_location("answer_diff", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("platform", [Platform.OPENCODE, Platform.KILO, Platform.PI,
                                      Platform.CLINE, Platform.GEMINI])
def test_hookwrap_test_reads_answers_as_the_runtime_does(platform: Platform) -> None:
    """The plugin family's and Cline's `hookwrap test` Verdict is built on the runtime's
    reading; Gemini CLI's still has its own code: for all of them the two readings agree on
    every event, exit code and answer shape of the differential script."""
    diff = _answer_diff()
    found = [case for case in diff.cases([platform]) if case[5] != case[6]]
    assert found == []


# --- Cline 3.0.65 -----------------------------------------------------------------------------

@pytest.mark.parametrize("event", [E.SESSION_START, E.SESSION_END, E.BEFORE_PROMPT, E.AFTER_AGENT])
def test_cline_reads_no_answer_of_a_detached_hook(event: E) -> None:
    # cline.md §4: every hook but PreToolUse and PostToolUse is spawned detached, its stdout
    # ignored (a cancel and context on TaskStart had no effect, e2e).
    stdout = '{"cancel": true, "errorMessage": "e", "contextModification": "c"}'
    assert read(Platform.CLINE, event, 0, stdout) == {}
    assert read(Platform.CLINE, E.BEFORE_TOOL, 0, stdout)["continue_loop"] is False


@pytest.mark.parametrize("event", [E.SESSION_START, E.SESSION_END])
def test_plugin_block_stops_no_session(event: E) -> None:
    # opencode_plugin.js / pi_extension.js act on a block only for a call, a tool's result, a
    # prompt and (where the CLI keeps working) Stop; a session's start or end goes on.
    assert not blocks(read(Platform.PI, event, 0, '{"decision": "block", "reason": "r"}'))


# --- Codex CLI 0.169.0 ------------------------------------------------------------------------

@pytest.mark.parametrize("event, stdout", [
    # codex-cli.md §4.1: every output schema has additionalProperties false; an answer outside
    # it is Failed and the call goes on. PermissionRequest takes no top-level decision.
    (E.PERMISSION_REQUEST, '{"decision": "block", "reason": "r"}'),
    (E.SESSION_START, '{"additionalContext": "top"}'),  # context is hookSpecificOutput's only
    (E.AFTER_TOOL, '{"hookSpecificOutput": {"additionalContext": "c"}}'),  # no hookEventName
    (E.SESSION_START, "{bad}"),  # not JSON but looks like it: Failed, not context
    (E.SESSION_END, '{"continue": false, "stopReason": "s"}'),  # SessionEnd has no schema
])
def test_codex_reads_no_answer_outside_its_schema(event: E, stdout: str) -> None:
    assert read(Platform.CODEX, event, 0, stdout) == {}


def test_codex_reads_an_answer_that_fits() -> None:
    stdout = '{"decision": "block", "reason": "r"}'
    assert read(Platform.CODEX, E.AFTER_TOOL, 0, stdout) == {"decision": "block", "reason": "r"}


def test_hookwrap_test_reads_codex_answers_as_the_runtime_does() -> None:
    """Codex's Verdict is built on the runtime's reading; the one difference left: no decision
    on PermissionRequest, which the runtime reads as no opinion and `hookwrap test` as what
    Codex then does (its own prompt asks the user)."""
    diff = _answer_diff()
    found = {(case[1], case[5][0], case[6][0]) for case in diff.cases([Platform.CODEX])
             if case[5] != case[6]}
    assert found == {("PermissionRequest", "ask", None)}


# --- Gemini CLI 0.61.0 ------------------------------------------------------------------------

@pytest.mark.parametrize("event", [E.SESSION_START, E.SESSION_END, E.PRE_COMPACT,
                                   E.NOTIFICATION, E.BEFORE_TOOL_SELECTION])
@pytest.mark.parametrize("code, stdout", [
    (0, '{"decision": "deny", "reason": "r", "continue": false}'), (2, "no")])
def test_gemini_acts_on_no_decision_where_no_flow_is_checked(event: E, code: int,
                                                             stdout: str) -> None:
    # gemini-cli.md §2.4/§3: SessionStart, SessionEnd, PreCompress, Notification and
    # BeforeToolSelection consume no decision and no continue; exit 2 there has no effect.
    fields = read(Platform.GEMINI, event, code, stdout)
    assert not blocks(fields) and "continue_loop" not in fields


@pytest.mark.parametrize("event, read_", [(E.AFTER_TOOL, True), (E.BEFORE_PROMPT, True),
                                          (E.SESSION_START, True), (E.BEFORE_TOOL, False),
                                          (E.AFTER_AGENT, False), (E.BEFORE_MODEL, False)])
def test_gemini_reads_context_after_a_tool_before_the_agent_and_at_start(event: E,
                                                                         read_: bool) -> None:
    # gemini-cli.md §2.5: additionalContext is appended after a tool, to the prompt, and at
    # session start; "Ignored for BeforeTool: additionalContext".
    fields = read(Platform.GEMINI, event, 0, '{"hookSpecificOutput": {"additionalContext": "c"}}')
    assert ("context" in fields) is read_


@pytest.mark.parametrize("text", ["[1]", "3", "null"])
def test_gemini_json_that_is_no_object_is_no_output(text: str) -> None:
    # gemini-cli.md §3: text that parses as JSON but not as an object gives no output; only
    # text that is not JSON at all becomes a deny at exit 2.
    assert read(Platform.GEMINI, E.BEFORE_TOOL, 2, text) == {}
    assert blocks(read(Platform.GEMINI, E.BEFORE_TOOL, 2, "not json"))


# --- the Claude dialect: what each CLI acts on, by event -------------------------------------

@pytest.mark.parametrize("stdout", [
    # claude-code-schema.md: hookSpecificOutput.hookEventName must equal the running event,
    # else "Hook returned incorrect event name" (an error: nothing is read) ...
    '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "c"}}',
    # ... a decision other than "approve" or "block" fails validation ...
    '{"decision": "deny", "reason": "r"}',
    # ... and so does text that looks like a JSON object but is not one.
    '{bad}',
])
def test_claude_reads_nothing_of_an_answer_that_fails_validation(stdout: str) -> None:
    assert read(Platform.CLAUDE, E.BEFORE_PROMPT, 0, stdout) == {}


@pytest.mark.parametrize("platform, event, stdout", [
    # A block on an event the CLI cannot block is no block (claude-code-schema.md 2.2).
    (Platform.CLAUDE, E.NOTIFICATION, '{"decision": "block", "reason": "r"}'),
    (Platform.CLAUDE, E.SESSION_START, '{"decision": "block", "reason": "r"}'),
    # PermissionRequest reads its verdict only: a top-level block leaves Claude's dialog.
    (Platform.CLAUDE, E.PERMISSION_REQUEST, '{"decision": "block", "reason": "r"}'),
    # A permissionDecision counts before a tool only.
    (Platform.COPILOT, E.AFTER_TOOL, '{"permissionDecision": "deny"}'),
    # droid.md: a top-level decision does not block PreToolUse; on Stop only "block" does.
    (Platform.DROID, E.BEFORE_TOOL, '{"decision": "block", "reason": "r"}'),
    (Platform.DROID, E.AFTER_AGENT, '{"decision": "deny", "reason": "r"}'),
    # qwen-code.md 2.5: a block after a tool is ignored.
    (Platform.QWEN, E.AFTER_TOOL, '{"decision": "block", "reason": "r"}'),
])
def test_a_block_counts_only_where_the_cli_acts_on_it(platform: Platform, event: E,
                                                      stdout: str) -> None:
    assert not blocks(read(platform, event, 0, stdout))


@pytest.mark.parametrize("platform, event, context", [
    (Platform.CLAUDE, E.AFTER_TOOL, '{"additionalContext": "c"}'),  # top level: not Claude's
    (Platform.QWEN, E.BEFORE_TOOL,  # qwen-code.md 2.5: PreToolUse context is dropped
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "c"}}'),
    (Platform.DROID, E.AFTER_AGENT,  # droid.md: context reaches the model on 3 events only
     '{"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "c"}}'),
    (Platform.COPILOT, E.AFTER_TOOL,  # copilot-cli.md 7: hookSpecificOutput's is ignored
     '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "c"}}'),
])
def test_context_counts_only_where_the_cli_reads_it(platform: Platform, event: E,
                                                     context: str) -> None:
    assert "context" not in read(platform, event, 0, context)


def test_copilot_reads_its_own_modified_args() -> None:
    # copilot-cli.md: preToolUse answers `modifiedArgs`; the bridge read only updatedInput.
    fields = read(Platform.COPILOT, E.BEFORE_TOOL, 0, '{"modifiedArgs": {"command": "ls"}}')
    assert fields == {"updated_input": {"command": "ls"}}


def test_qwen_reads_updated_input_in_a_permission_verdict_only() -> None:
    # qwen-code.md 2.5 (src): the verdict is "the only place updatedInput is read".
    before = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": ' \
        '"allow", "updatedInput": {"command": "ls"}}}'
    assert "updated_input" not in read(Platform.QWEN, E.BEFORE_TOOL, 0, before)
    verdict = '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": ' \
        '{"behavior": "allow", "updatedInput": {"command": "ls"}}}}'
    assert read(Platform.QWEN, E.PERMISSION_REQUEST, 0, verdict)["updated_input"] == {
        "command": "ls"}


@pytest.mark.parametrize("platform", [Platform.CLAUDE, Platform.QWEN, Platform.COPILOT,
                                      Platform.DROID, Platform.CODEX])
def test_the_claude_dialect_readings_differ_only_where_settled(platform: Platform) -> None:
    """What scripts/answer_diff.py leaves for the Claude dialect, each settled:
    - no verdict on PermissionRequest: no opinion to the bridge, 'asks the user' in hookwrap
      test (the CLI's own dialog asks); a PreToolUse defer: no opinion, 'deferred';
    - PostToolBatch: a block stops the turn (the bridge's block, hookwrap test's 'stopped');
    - PreSkillShellCommand: Claude Code's own event, never bridged (Claude to Claude runs the
      command itself), read by hookwrap test alone;
    - exit 2 with an empty stderr: the reason's wording only (the block is the same), and
      Copilot CLI's and Qwen Code's continue:false outside the events their references cover
      (no fact either way: the bridge keeps it as a stop)."""
    diff = _answer_diff()
    settled = {("PermissionRequest", "ask"), ("PreToolUse", "defer"), ("PostToolBatch", "stop")}
    for case in diff.cases([platform]):
        event, test, runtime = case[1], case[5], case[6]
        if test == runtime or (event, test[0]) in settled or event == "PreSkillShellCommand":
            continue
        if test[0] == runtime[0] == "block" and case[2] != 0:
            continue  # the reason's wording at exit 2
        assert runtime[0] == "stop" and test[0] is None and platform in (Platform.COPILOT,
                                                                          Platform.QWEN), case


@pytest.mark.parametrize("platform", list(Platform))
@pytest.mark.parametrize("decision", ['{"behavior": "deny"}', '["block"]'])
def test_a_decision_that_is_not_a_string_blocks_nothing_and_breaks_no_reader(
        platform: Platform, decision: str) -> None:
    # A PermissionRequest verdict written at the top level ({"decision": {...}}): no CLI reads
    # it as a block (hook_runner.js compares answer.decision with "block" and "deny"; Claude
    # Code's schema wants a string), and neither the bridge nor `hookwrap test` may fail on it.
    from hookwrap.generator.clis.kit import RunResult

    answer = f'{{"decision": {decision}, "reason": "r"}}'
    assert not blocks(read(platform, E.BEFORE_TOOL, 0, answer))
    raw = runtime_of(platform).event_names()[E.BEFORE_TOOL]
    assert setup_of(platform).interpret(raw, RunResult(0, answer, "", 5)).outcome != "blocked"
