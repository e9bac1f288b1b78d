"""hookwrap.checks.host: running hook commands like each CLI, and reading results by each CLI's rules."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from hookwrap.checks import host, testing
from hookwrap.generator.samples import has_sample, sample_events, sample_payload
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.gemini import shell_quote
from hookwrap.generator.clis.kit import HookCommand, RunResult, Verdict
from hookwrap.platforms import Platform

CLAUDE, GEMINI = "claude", "gemini"


def gemini_expand(command: str, env: dict) -> str:
    return setup_of(GEMINI).host.expand_command(setup_of(GEMINI), command, env)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "my project"  # a space, on purpose: quoting bugs show up here
    root.mkdir()
    return root


def run(platform: str, event: str, command: str, project: Path, *, payload: dict | None = None,
        timeout: float | None = None, on_failure: str | None = None) -> tuple[RunResult, Verdict]:
    cmd = HookCommand(platform, event, command, timeout_s=timeout, on_failure=on_failure)
    given = payload if payload is not None else {"session_id": "s1", "cwd": str(project),
                                                  "hook_event_name": event}
    result = host.run_command(cmd, given, project_dir=project)
    return result, setup_of(platform).interpret(event, result, on_failure)


def result(code: int | None, out: str = "", err: str = "", **kw) -> RunResult:
    return RunResult(code, out, err, 5, **kw)


DENY_JSON = "echo '{\"decision\":\"deny\",\"reason\":\"no way\"}'"


# ------------------------------------------------------------------- process: stdin, cwd, env

@pytest.mark.parametrize("platform, tail", [(CLAUDE, "\n"), (GEMINI, "")])
def test_stdin_is_one_json_object_then_eof(project: Path, platform: str, tail: str) -> None:
    payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": "X", "n": [1, 2]}
    r, _ = run(platform, "PreToolUse", "cat > seen.json", project, payload=payload)  # cat needs EOF
    assert r.exit_code == 0
    text = (project / "seen.json").read_text()
    assert text == json.dumps(payload) + tail
    assert json.loads(text) == payload


def test_claude_env_and_cwd(project: Path) -> None:
    r, _ = run(CLAUDE, "PreToolUse", 'printf "%s|%s|%s|%s" "$PWD" "$CLAUDE_PROJECT_DIR" '
               '"$CLAUDECODE" "$CLAUDE_CODE_SESSION_ID" >&2', project)
    assert r.stderr == f"{project}|{project}|1|s1"


def test_gemini_env_and_cwd(project: Path) -> None:
    r, _ = run(GEMINI, "BeforeTool", 'printf "%s|%s|%s|%s|%s" "$PWD" "${GEMINI_PROJECT_DIR}" '
               '"${GEMINI_CWD}" "${CLAUDE_PROJECT_DIR}" "${GEMINI_SESSION_ID}" >&2', project)
    assert r.stderr == f"{project}|{project}|{project}|{project}|s1"


def test_claude_session_start_gets_an_env_file(project: Path) -> None:
    r, _ = run(CLAUDE, "SessionStart", 'test -w "$CLAUDE_ENV_FILE" && echo ok', project)
    assert r.stdout.strip() == "ok"


def test_gemini_handler_env_is_merged_last(project: Path) -> None:
    cmd = HookCommand(GEMINI, "BeforeTool", 'printf %s "$EXTRA"', env={"EXTRA": "yes"})
    assert host.run_command(cmd, {}, project_dir=project).stdout == "yes"


# ------------------------------------------------------- paths with a space, per command form

def _script(project: Path, body: str = "print('ran')") -> None:
    (project / "x.py").write_text(body)


def test_claude_quoted_project_dir_form_works_with_a_space(project: Path) -> None:
    _script(project)
    r, v = run(CLAUDE, "PreToolUse", 'python3 "$CLAUDE_PROJECT_DIR"/x.py', project)
    assert (r.exit_code, r.stdout.strip(), v.clean) == (0, "ran", True)


@pytest.mark.parametrize("command", ['python3 "${GEMINI_PROJECT_DIR}/x.py"',
                                     "python3 $GEMINI_PROJECT_DIR/x.py"])
def test_gemini_working_forms_with_a_space(project: Path, command: str) -> None:
    _script(project)
    r, v = run(GEMINI, "BeforeTool", command, project)
    assert r.exit_code == 0 and v.outcome == "allowed" and v.system_message == "ran"


@pytest.mark.parametrize("command", ['python3 "$GEMINI_PROJECT_DIR/x.py"',
                                     'python3 "$CLAUDE_PROJECT_DIR"/x.py'])
def test_gemini_broken_quoting_exits_2_or_127_and_blocks(project: Path, command: str) -> None:
    _script(project)
    r, v = run(GEMINI, "BeforeTool", command, project)
    assert r.exit_code in (2, 127)  # python3 reports a missing script with 2, bash with 127
    assert "No such file or directory" in r.stderr
    assert v.outcome == "blocked" and not v.clean and "looks missing" in v.problems[0]


def test_claude_missing_python_script_exits_2_and_blocks_but_is_flagged(project: Path) -> None:
    r, v = run(CLAUDE, "PreToolUse", 'python3 "$CLAUDE_PROJECT_DIR"/gone.py', project)
    assert r.exit_code == 2
    assert v.outcome == "blocked" and not v.clean and "looks missing" in v.problems[0]


def test_gemini_broken_quoting_on_a_missing_interpreter_path_exits_127(project: Path) -> None:
    (project / "hook.sh").write_text("#!/bin/sh\necho ran\n")
    (project / "hook.sh").chmod(0o755)
    r, v = run(GEMINI, "BeforeTool", '"$GEMINI_PROJECT_DIR/hook.sh"', project)
    assert r.exit_code == 127
    assert v.outcome == "blocked" and "No such file" in v.reason
    ok, _ = run(GEMINI, "BeforeTool", '"${GEMINI_PROJECT_DIR}/hook.sh"', project)
    assert ok.stdout.strip() == "ran"


def test_gemini_expand_command_is_textual_and_quoted() -> None:
    env = {"GEMINI_PROJECT_DIR": "/p q", "GEMINI_CWD": "/c", "CLAUDE_PROJECT_DIR": "/p q"}
    assert gemini_expand('"$GEMINI_PROJECT_DIR/x"', env) == "\"'/p q'/x\""
    assert gemini_expand('"${GEMINI_PROJECT_DIR}/x"', env) == '"${GEMINI_PROJECT_DIR}/x"'
    assert gemini_expand("$GEMINI_CWD/a", env) == "/c/a"
    # no word boundary: the known prefix is replaced inside a longer name
    assert gemini_expand("$GEMINI_PROJECT_DIRX", env) == "'/p q'X"
    assert gemini_expand("$HOME/x", env) == "$HOME/x"


@pytest.mark.parametrize("value, quoted", [
    ("/plain/path", "/plain/path"), ("", "''"), ("/a b", "'/a b'"), ("/it's here", "\"/it's here\""),
    ("/a:b", "/a\\:b"), ("/a$b", "/a\\$b"), ("/it's!", "'/it'\"'\"'s!'"),
])
def test_shell_quote(value: str, quoted: str) -> None:
    assert shell_quote(value) == quoted


# ------------------------------------------------------------------------ Claude's exit rules

def test_claude_exit_0_json_deny_blocks(project: Path) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                  "permissionDecisionReason": "rm is not allowed"}}
    _, v = run(CLAUDE, "PreToolUse", f"echo '{json.dumps(out)}'", project)
    assert (v.outcome, v.reason, v.success, v.clean) == ("blocked", "rm is not allowed", True, True)


def test_claude_legacy_block_and_updated_input() -> None:
    v = setup_of(CLAUDE).interpret("PreToolUse", result(0, '{"decision":"block","reason":"legacy"}'))
    assert (v.outcome, v.reason) == ("blocked", "legacy")
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                  "updatedInput": {"command": "ls"}, "additionalContext": "ctx"}}
    v = setup_of(CLAUDE).interpret("PreToolUse", result(0, json.dumps(out)))
    assert (v.outcome, v.updated_input, v.context) == ("context", {"command": "ls"}, "ctx")


def test_claude_exit_2_blocks_with_stderr_and_ignores_stdout(project: Path) -> None:
    _, v = run(CLAUDE, "PreToolUse", "echo '{\"decision\":\"approve\"}'; echo nope >&2; exit 2", project)
    assert (v.outcome, v.reason, v.success, v.clean) == ("blocked", "nope", False, True)


def test_claude_exit_2_without_stderr_still_blocks(project: Path) -> None:
    _, v = run(CLAUDE, "PreToolUse", "exit 2", project)
    assert (v.outcome, v.reason) == ("blocked", "No stderr output")


@pytest.mark.parametrize("code", [1, 3, 127])
def test_claude_other_exit_codes_do_not_block(project: Path, code: int) -> None:
    r, v = run(CLAUDE, "PreToolUse", f"echo boom >&2; {DENY_JSON} >/dev/null; exit {code}", project)
    assert r.exit_code == code
    assert v.outcome == "allowed" and not v.clean and not v.success
    assert f"exit {code}" in v.problems[0] and "boom" in v.problems[0]


def test_claude_missing_script_exits_127_and_does_not_block(project: Path) -> None:
    r, v = run(CLAUDE, "PreToolUse", '"$CLAUDE_PROJECT_DIR"/missing.sh', project)
    assert r.exit_code == 127 and v.outcome == "allowed" and not v.clean


def test_claude_on_failure_block_counts_a_failure_as_exit_2(project: Path) -> None:
    _, v = run(CLAUDE, "PreToolUse", "echo crashed >&2; exit 1", project, on_failure="block")
    assert (v.outcome, v.reason, v.clean) == ("blocked", "crashed", False)
    _, stop = run(CLAUDE, "Stop", "exit 1", project, on_failure="block")
    assert stop.outcome == "allowed"  # onFailure is ignored on Stop


def test_claude_timeout_fails_open_unless_on_failure_block(project: Path) -> None:
    start = time.monotonic()
    r, v = run(CLAUDE, "PreToolUse", "sleep 5", project, timeout=0.3)
    assert time.monotonic() - start < 3
    assert r.timed_out and r.exit_code is None
    assert v.outcome == "allowed" and not v.clean and "timed out" in v.problems[0]
    _, blocked = run(CLAUDE, "PreToolUse", "sleep 5", project, timeout=0.3, on_failure="block")
    assert blocked.outcome == "blocked"


def test_claude_plain_text_is_context_only_on_prompt_and_session_start() -> None:
    assert setup_of(CLAUDE).interpret("UserPromptSubmit", result(0, "branch: main\n")).context == "branch: main"
    assert setup_of(CLAUDE).interpret("SessionStart", result(0, "hi")).outcome == "context"
    v = setup_of(CLAUDE).interpret("PreToolUse", result(0, "hello"))
    assert v.outcome == "allowed" and v.clean and "not shown to the model" in v.notes[0]


def test_claude_invalid_json_and_wrong_event_name_are_errors() -> None:
    assert not setup_of(CLAUDE).interpret("PreToolUse", result(0, "{not json}")).clean
    wrong = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}
    v = setup_of(CLAUDE).interpret("PreToolUse", result(0, json.dumps(wrong)))
    assert v.outcome == "allowed" and not v.clean and "hookEventName" in v.problems[0]
    assert not setup_of(CLAUDE).interpret("Stop", result(0, '{"decision":"allow"}')).clean
    # two JSON documents are plain text, not an error
    assert setup_of(CLAUDE).interpret("PreToolUse", result(0, "{}\n{}")).clean


def test_claude_stop_block_keeps_the_agent_working() -> None:
    v = setup_of(CLAUDE).interpret("Stop", result(0, '{"decision":"block","reason":"tests fail"}'))
    assert (v.outcome, v.reason) == ("kept_working", "tests fail")
    assert setup_of(CLAUDE).interpret("Stop", result(2, "", "fix it")).outcome == "kept_working"


def test_claude_exit_2_per_event() -> None:
    assert setup_of(CLAUDE).interpret("UserPromptSubmit", result(2, "", "x")).outcome == "blocked"
    assert setup_of(CLAUDE).interpret("PostToolBatch", result(2, "", "x")).outcome == "stopped"
    ignored = setup_of(CLAUDE).interpret("PermissionRequest", result(2, "", "x"))
    assert ignored.outcome == "allowed" and not ignored.clean
    start = setup_of(CLAUDE).interpret("SessionStart", result(2, "", "x"))
    assert start.outcome == "allowed" and start.clean


def test_claude_pre_compact_block_skips_the_compaction() -> None:
    # claude-code-schema.md, PreCompact (2.1.328 binary): exit 2 or decision "block" skips the
    # compaction; community reports say an always-blocking PreCompact can loop.
    for answer in (result(2, "", "not now"), result(0, '{"decision":"block","reason":"not now"}')):
        v = setup_of(CLAUDE).interpret("PreCompact", answer)
        assert (v.outcome, v.reason) == ("blocked", "not now")
        assert any("compaction is skipped" in note and "loop" in note for note in v.notes)


def test_claude_pre_compact_plain_stdout_is_compaction_instructions() -> None:
    # claude-code-schema.md §3: plain stdout on PreCompact is added to the compaction
    # instructions (cut at 10,000 characters).
    v = setup_of(CLAUDE).interpret("PreCompact", result(0, "keep the test names"))
    assert v.outcome == "allowed" and v.clean
    assert v.notes == ("plain stdout on PreCompact is added to the compaction instructions "
                       "(the first 10,000 characters)",)


def test_claude_permission_request_json_deny_and_continue_false() -> None:
    deny = {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                   "decision": {"behavior": "deny", "message": "no"}}}
    v = setup_of(CLAUDE).interpret("PermissionRequest", result(0, json.dumps(deny)))
    assert (v.outcome, v.reason) == ("blocked", "no")
    v = setup_of(CLAUDE).interpret("PreToolUse", result(0, '{"continue":false,"stopReason":"halt"}'))
    assert (v.outcome, v.stop_reason) == ("stopped", "halt")


# Claude Code's events hookwrap registers nothing on, read as the event they read like
# (claude-code-schema.md 2.2, 2.1.328).
@pytest.mark.parametrize("event", ["TaskCreated", "PreModelSwitch", "ConfigChange", "Elicitation"])
def test_claude_exit_2_and_a_block_cancel_a_task_a_switch_a_change_an_elicitation(event: str) -> None:
    assert (setup_of(CLAUDE).interpret(event, result(2, "", "no")).outcome,
            setup_of(CLAUDE).interpret(event, result(0, '{"decision":"block"}')).outcome) == (
        "blocked", "blocked")


def test_claude_pre_model_switch_reads_permission_decision() -> None:
    deny = {"hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "deny",
                                   "permissionDecisionReason": "too dear"}}
    v = setup_of(CLAUDE).interpret("PreModelSwitch", result(0, json.dumps(deny)))
    assert (v.outcome, v.reason, v.clean) == ("blocked", "too dear", True)


def test_claude_unmapped_events_keep_their_own_readings() -> None:
    expansion = {"hookSpecificOutput": {"hookEventName": "UserPromptExpansion",
                                        "additionalContext": "c"}}
    assert setup_of(CLAUDE).interpret("UserPromptExpansion", result(0, json.dumps(expansion))).context == "c"
    assert setup_of(CLAUDE).interpret("UserPromptExpansion", result(0, "text")).outcome == "context"
    assert setup_of(CLAUDE).interpret("TeammateIdle", result(2, "", "go on")).outcome == "kept_working"
    idle = setup_of(CLAUDE).interpret("TaskCompleted", result(0, "", "x", timed_out=True), "block")
    assert idle.outcome == "allowed"  # onFailure is ignored there, as on Stop
    # continue:false stops Claude on any event (claude-code-schema.md 2.1)
    v = setup_of(CLAUDE).interpret("CwdChanged", result(0, '{"continue":false,"stopReason":"s"}'))
    assert (v.outcome, v.stop_reason) == ("stopped", "s")


def test_claude_continue_false_wins_over_the_permission_dialog() -> None:
    # claude-code-schema.md 2.1: continue takes precedence over event decisions; without a
    # verdict (and without continue:false) Claude shows its own dialog.
    v = setup_of(CLAUDE).interpret("PermissionRequest", result(0, '{"continue":false,"stopReason":"s"}'))
    assert (v.outcome, v.stop_reason) == ("stopped", "s")
    assert setup_of(CLAUDE).interpret("PermissionRequest", result(0, "{}")).outcome == "ask"


def test_claude_exit_2_on_permission_denied_has_no_json_hint() -> None:
    # claude-code-schema.md 2.2: PermissionDenied ignores exit 2, and its only answer is retry.
    v = setup_of(CLAUDE).interpret("PermissionDenied", result(2, "", "x"))
    assert v.problems == ("exit 2 is ignored on PermissionDenied",)


def test_claude_post_tool_batch_stop_and_post_tool_block_say_what_happened() -> None:
    v = setup_of(CLAUDE).interpret("PostToolBatch", result(2, "", "stop here"))
    assert (v.outcome, v.stop_reason, v.reason) == ("stopped", "stop here", "stop here")
    v = setup_of(CLAUDE).interpret("PostToolUse", result(0, '{"decision":"block","reason":"r"}'))
    assert v.outcome == "blocked" and "the tool already ran" in v.notes[0]


# ------------------------------------------------------------------------ Gemini's exit rules

def test_gemini_exit_0_json_deny_blocks(project: Path) -> None:
    _, v = run(GEMINI, "BeforeTool", DENY_JSON, project)
    assert (v.outcome, v.reason, v.clean) == ("blocked", "no way", True)


@pytest.mark.parametrize("r, outcome, message, clean", [
    (result(0, "hello"), "allowed", "hello", True),
    (result(1, "", "Traceback\nKeyError"), "allowed", "Warning: Traceback\nKeyError", False),
    (result(0, "", "debug only"), "allowed", "debug only", True),
])
def test_gemini_plain_text_becomes_a_system_message(r: RunResult, outcome: str, message: str,
                                                    clean: bool) -> None:
    v = setup_of(GEMINI).interpret("BeforeTool", r)
    assert (v.outcome, v.system_message, v.clean) == (outcome, message, clean)


@pytest.mark.parametrize("code", [2, 3, 127])
def test_gemini_other_exit_codes_with_text_block(code: int) -> None:
    v = setup_of(GEMINI).interpret("BeforeTool", result(code, "", "bad thing"))
    assert (v.outcome, v.reason) == ("blocked", "bad thing")
    assert v.clean is (code == 2) and not v.success


def test_gemini_reads_json_whatever_the_exit_code() -> None:
    v = setup_of(GEMINI).interpret("BeforeTool", result(2, '{"decision":"allow"}', "ignored"))
    assert v.outcome == "allowed" and not v.clean
    assert setup_of(GEMINI).interpret("BeforeTool", result(0, "", '{"decision":"deny"}')).outcome == "blocked"
    assert setup_of(GEMINI).interpret("BeforeTool", result(0, json.dumps('{"decision":"deny"}'))).outcome == "blocked"


def test_gemini_exit_2_without_output_allows() -> None:
    v = setup_of(GEMINI).interpret("BeforeTool", result(2))
    assert v.outcome == "allowed" and not v.clean


def test_gemini_polluted_stdout_fails_open() -> None:
    v = setup_of(GEMINI).interpret("BeforeTool", result(0, 'log line\n{"decision":"deny"}'))
    assert v.outcome == "allowed"


def test_gemini_timeout_fails_open(project: Path) -> None:
    r, v = run(GEMINI, "BeforeTool", f"sleep 5; {DENY_JSON}", project, timeout=0.3)
    assert r.timed_out and v.outcome == "allowed" and not v.clean


def test_gemini_ignores_claude_style_fields() -> None:
    out = {"hookSpecificOutput": {"hookEventName": "BeforeTool", "permissionDecision": "deny"}}
    v = setup_of(GEMINI).interpret("BeforeTool", result(0, json.dumps(out)))
    assert v.outcome == "allowed" and "permissionDecision" in v.notes[0]


def test_gemini_per_event_decisions() -> None:
    retry = setup_of(GEMINI).interpret("AfterAgent", result(0, '{"decision":"deny","reason":"again"}'))
    assert (retry.outcome, retry.reason) == ("kept_working", "again")
    assert setup_of(GEMINI).interpret("BeforeToolSelection", result(0, '{"decision":"deny"}')).outcome == "allowed"
    assert setup_of(GEMINI).interpret("SessionStart", result(2, "", "no")).outcome == "allowed"
    ctx = {"hookSpecificOutput": {"additionalContext": "C"}}
    assert setup_of(GEMINI).interpret("BeforeAgent", result(0, json.dumps(ctx))).context == "C"
    assert setup_of(GEMINI).interpret("BeforeTool", result(0, json.dumps(ctx))).context == ""
    rewrite = {"hookSpecificOutput": {"tool_input": {"command": "ls"}}}
    assert setup_of(GEMINI).interpret("BeforeTool", result(0, json.dumps(rewrite))).updated_input == {"command": "ls"}
    stop = setup_of(GEMINI).interpret("BeforeTool", result(0, '{"continue":false}'))
    assert (stop.outcome, stop.stop_reason) == ("stopped", "No reason provided")


# ------------------------------------------------------------- the seed contract (HOOK-063..070)

def test_contract_exit_0() -> None:
    assert testing.interpret_contract("BeforeTool", result(0, DENY_JSON[6:-1])).outcome == "blocked"
    text = testing.interpret_contract("BeforeTool", result(0, "just text"))
    assert (text.outcome, text.system_message, text.output) == ("allowed", "just text", {"decision": "allow"})
    empty = testing.interpret_contract("BeforeTool", result(0))
    assert (empty.outcome, empty.success, empty.clean) == ("allowed", True, True)


def test_contract_exit_2_blocks_with_stderr_or_a_default_reason() -> None:
    v = testing.interpret_contract("BeforeTool", result(2, '{"decision":"allow"}', "stderr reason"))
    assert (v.outcome, v.reason, v.success) == ("blocked", "stderr reason", False)
    assert testing.interpret_contract("BeforeTool", result(2)).reason == testing.DEFAULT_BLOCK_REASON


@pytest.mark.parametrize("r", [result(1, "", "trace"), result(127, "", "trace"),
                               result(None, "", "trace", signal=9)])
def test_contract_other_exits_fail_open_and_keep_stderr(r: RunResult) -> None:
    v = testing.interpret_contract("BeforeTool", r)
    assert v.outcome == "allowed" and not v.success and not v.clean
    assert "stderr: trace" in v.problems


def test_contract_never_parses_stderr_for_decisions() -> None:
    v = testing.interpret_contract("BeforeTool", result(0, "", '{"decision":"deny"}'))
    assert v.outcome == "allowed"


def test_contract_decision_matrix() -> None:
    deny = result(0, '{"decision":"deny","reason":"r"}')
    assert testing.interpret_contract("BeforeTool", deny).outcome == "blocked"
    assert testing.interpret_contract("BeforeModel", deny).outcome == "blocked"
    for event in ("AfterTool", "AfterModel", "BeforeToolSelection"):  # HOOK-178, 180, 181
        v = testing.interpret_contract(event, deny)
        assert v.outcome == "allowed" and "cannot block" in v.notes[0]
    for event in ("AfterTool", "AfterModel", "BeforeToolSelection", "BeforeTool"):
        assert testing.interpret_contract(event, result(0, '{"continue":false}')).outcome == "stopped"
    rewrite = result(0, json.dumps({"hookSpecificOutput": {"tool_input": {"a": 1}}}))
    assert testing.interpret_contract("BeforeTool", rewrite).updated_input == {"a": 1}
    tools = result(0, json.dumps({"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}}))
    assert testing.interpret_contract("BeforeToolSelection", tools).modifications == {"toolConfig": {"mode": "NONE"}}
    ctx = result(0, json.dumps({"hookSpecificOutput": {"additionalContext": "c"}}))
    assert testing.interpret_contract("AfterTool", ctx).context == "c"


# ---------------------------------------------------------------------------------- matchers

@pytest.mark.parametrize("matcher, tool, expected", [
    (None, "Bash", True), ("", "Bash", True), ("*", "Bash", True),
    ("Bash", "Bash", True), ("Edit|Write", "Write", True), ("Edit|Write", "NotebookEdit", False),
    ("Edit, Write", "Write", True), ("Edit.*", "NotebookEdit", True), ("^Edit$", "Edit", True),
    ("([", "Edit", False), ("Task", "Agent", True), ("mcp__memory", "mcp__memory__read", False),
    ("mcp__memory__.*", "mcp__memory__read", True), ("bash", "Bash", False),
])
def test_claude_matchers(matcher: str | None, tool: str, expected: bool) -> None:
    assert host.matcher_matches(CLAUDE, "PreToolUse", matcher, tool) is expected


@pytest.mark.parametrize("matcher, tool, expected", [
    ("read_file", "read_file", True), ("read_file", "mcp_fs_read_file", True),
    ("^read_file$", "mcp_fs_read_file", False), ("write_file|replace", "replace", True),
    ("(?i)read_file", "read_file", False), ("(?i)read_file", "(?i)read_file", True),
    ("([", "read_file", False), ("Read", "read_file", False), ("  ", "x", True),
])
def test_gemini_tool_matchers(matcher: str, tool: str, expected: bool) -> None:
    assert host.matcher_matches(GEMINI, "BeforeTool", matcher, tool) is expected


def test_lifecycle_and_ignored_matchers() -> None:
    assert host.matcher_matches(GEMINI, "SessionStart", "startup", "startup")
    assert not host.matcher_matches(GEMINI, "SessionStart", "startup|resume", "startup")
    assert host.matcher_matches(CLAUDE, "SessionStart", "startup|resume", "startup")
    # HOOK-163: model events pass no context, so the matcher is ignored
    assert host.match_target(GEMINI, "BeforeModel", {"tool_name": "x"}) is None
    assert host.matcher_matches(GEMINI, "BeforeModel", "nothing", None)
    assert host.match_target(CLAUDE, "Stop", {}) is None
    # HOOK-162: tool events match on the tool name
    assert host.match_target(GEMINI, "BeforeTool", {"tool_name": "glob"}) == "glob"


# ------------------------------------------------------------------ planning and aggregation

def test_plan_filters_dedupes_and_picks_sequential() -> None:
    a = HookCommand(GEMINI, "BeforeTool", "a", matcher="^glob$", name="a")
    b = HookCommand(GEMINI, "BeforeTool", "b", matcher="read_file", name="b", sequential=True)
    dup = HookCommand(GEMINI, "BeforeTool", "a", name="a")
    other = HookCommand(GEMINI, "AfterTool", "c")
    p = testing.plan(GEMINI, "BeforeTool", [a, b, dup, other], {"tool_name": "glob"})
    assert p.commands == (a,) and not p.sequential
    p = testing.plan(GEMINI, "BeforeTool", [a, b], {"tool_name": "read_file"})
    assert p.commands == (b,) and p.sequential
    claude = [HookCommand(CLAUDE, "Stop", "x", matcher="ignored"), HookCommand(CLAUDE, "Stop", "x")]
    assert len(testing.plan(CLAUDE, "Stop", claude, {}).commands) == 1


def test_parallel_execution_runs_hooks_at_the_same_time(project: Path) -> None:
    cmds = [HookCommand(CLAUDE, "PreToolUse", f"sleep 0.6; echo {i}") for i in range(3)]
    start = time.monotonic()
    event = testing.fire(CLAUDE, "PreToolUse", cmds, {"tool_name": "Bash"}, project_dir=project)
    assert time.monotonic() - start < 1.5
    assert len(event.runs) == 3 and event.verdict.outcome == "allowed"


def test_sequential_execution_chains_tool_input(project: Path) -> None:
    first = HookCommand(GEMINI, "BeforeTool", "echo '{\"hookSpecificOutput\":{\"tool_input\":{\"b\":2}}}'",
                        name="first", sequential=True)
    second = HookCommand(GEMINI, "BeforeTool", "cat > second.json", name="second")
    payload = {"tool_name": "x", "tool_input": {"a": 1}}
    event = testing.fire(GEMINI, "BeforeTool", [first, second], payload, project_dir=project)
    assert event.plan.sequential
    assert json.loads((project / "second.json").read_text())["tool_input"] == {"a": 1, "b": 2}
    assert event.verdict.updated_input == {"b": 2}


def test_any_block_blocks_and_texts_are_joined(project: Path) -> None:
    allow = HookCommand(CLAUDE, "UserPromptSubmit", "echo one")
    deny = HookCommand(CLAUDE, "UserPromptSubmit", "echo denied >&2; exit 2")
    ctx = HookCommand(CLAUDE, "UserPromptSubmit", "echo two")
    event = testing.fire(CLAUDE, "UserPromptSubmit", [allow, deny, ctx], {}, project_dir=project)
    assert (event.verdict.outcome, event.verdict.reason) == ("blocked", "denied")
    assert event.verdict.context == "one\ntwo"
    assert not event.verdict.success and event.verdict.clean


def test_aggregate_precedence_and_empty() -> None:
    assert testing.aggregate([]).outcome == "allowed"
    v = testing.aggregate([Verdict("ask", reason="?"), Verdict("context", context="c"),
                        Verdict("kept_working", reason="more", clean=False, problems=("p",))])
    assert (v.outcome, v.reason, v.context, v.clean, v.problems) == ("kept_working", "more", "c", False, ("p",))


def test_fire_by_the_contract(project: Path) -> None:
    cmd = HookCommand(GEMINI, "AfterTool", "exit 2")
    assert testing.fire(GEMINI, "AfterTool", [cmd], {}, project_dir=project, contract=True).verdict.outcome == "allowed"
    cmd = HookCommand(GEMINI, "BeforeTool", "exit 2")
    v = testing.fire(GEMINI, "BeforeTool", [cmd], {}, project_dir=project, contract=True).verdict
    assert (v.outcome, v.reason) == ("blocked", testing.DEFAULT_BLOCK_REASON)


# ------------------------------------------------------------------- timeouts and settings

def test_effective_timeouts() -> None:
    assert host.effective_timeout(HookCommand(CLAUDE, "PreToolUse", "x")) == 600
    assert host.effective_timeout(HookCommand(CLAUDE, "UserPromptSubmit", "x")) == 30
    assert host.effective_timeout(HookCommand(CLAUDE, "SessionEnd", "x")) == 1.5
    assert host.effective_timeout(HookCommand(CLAUDE, "SessionEnd", "x", timeout_s=90)) == 60
    assert host.effective_timeout(HookCommand(GEMINI, "BeforeTool", "x")) == 60
    assert host.effective_timeout(HookCommand(CLAUDE, "PreToolUse", "x", timeout_s=5)) == 5


def test_commands_from_settings() -> None:
    gemini = {"hooks": {"BeforeTool": [{"matcher": "^glob$", "sequential": True, "hooks": [
        {"type": "command", "command": "a", "name": "n", "timeout": 5000, "env": {"K": "V"}},
        {"type": "prompt", "prompt": "p"}]}], "AfterTool": {"not": "a list"}}}
    (cmd,) = host.commands_from_settings(GEMINI, gemini)
    assert cmd == HookCommand(GEMINI, "BeforeTool", "a", 5.0, "^glob$", "n", None, True, {"K": "V"})
    claude = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "b", "timeout": 7,
                                               "onFailure": "block"}]}]}}
    (cmd,) = host.commands_from_settings(CLAUDE, claude)
    assert (cmd.timeout_s, cmd.on_failure, cmd.matcher) == (7.0, "block", None)


# -------------------------------------------------------------------- samples (HOOK-062)

@pytest.mark.parametrize("platform", list(Platform))
def test_every_sample_has_the_base_fields(project: Path, platform: Platform) -> None:
    for event in sample_events(platform):
        payload = sample_payload(platform, event, project_dir=project)
        fields = setup_of(platform).runtime.payload_fields(payload)  # Cline's own payload, read
        assert fields["hook_event_name"] == event
        assert fields["cwd"] == str(project)
        assert "session_id" in fields
        # Copilot CLI 1.0.102 sends a transcript path on Stop only; OpenCode and Kilo CLI keep
        # their sessions in a database, so hookwrap's plugin sends none; Cline has none.
        assert "transcript_path" in payload or platform in (Platform.COPILOT, Platform.OPENCODE,
                                                            Platform.CLINE, Platform.KILO)
        if platform == Platform.GEMINI:
            assert payload["timestamp"].endswith("Z")
        assert "@" not in json.dumps(payload).replace("@@", "")


def test_sample_tool_override_and_variant(project: Path) -> None:
    write = sample_payload(Platform.CLAUDE, "PostToolUse", project_dir=project, tool="Write")
    assert write["tool_response"]["type"] == "create"
    other = sample_payload(Platform.CLAUDE, "PostToolUse", project_dir=project, tool="Read",
                           tool_input={"file_path": "a"})
    assert (other["tool_name"], other["tool_input"], other["tool_response"]) == ("Read", {"file_path": "a"}, {})
    assert has_sample(Platform.GEMINI, "BeforeModel") and not has_sample(Platform.CLAUDE, "Notification")
    bare = sample_payload(Platform.CLAUDE, "Notification", project_dir=project)
    assert bare["hook_event_name"] == "Notification" and bare["cwd"] == str(project)


def test_each_cli_runs_the_command_in_its_own_shell(project: Path) -> None:
    """Gemini CLI, Qwen Code and Codex CLI spawn bash -c; hookwrap's OpenCode plugin spawns
    /bin/sh -c, so a bashism in a command fails there as it would in OpenCode."""
    shown = {p: run(p, "PreToolUse", 'printf %s "$0"', project)[0].stdout
             for p in ("claude", "opencode")}
    assert shown == {"claude": "bash", "opencode": "/bin/sh"}


def test_max_wait_cuts_a_run_shorter_than_the_timeout(project: Path) -> None:
    cmd = HookCommand("claude", "PreToolUse", "sleep 30", 20.0)
    start = time.monotonic()
    result = host.run_command(cmd, {}, project_dir=project, max_wait=0.5)
    assert result.timed_out and time.monotonic() - start < 10
    # a wait longer than the CLI's timeout does not extend it
    quick = HookCommand("claude", "PreToolUse", "sleep 30", 0.5)
    assert host.run_command(quick, {}, project_dir=project, max_wait=60).timed_out


@pytest.mark.parametrize("platform, noun", [(Platform.OPENCODE, "plugin"), (Platform.KILO, "plugin"),
                                            (Platform.PI, "extension")])
def test_plugin_family_notes_name_what_hookwrap_generated(platform: str, noun: str) -> None:
    # pi runs an extension, not a plugin: a note naming the wrong thing sends a user looking
    # for a file that does not exist.
    agent = setup_of(platform)
    plain = agent.interpret("PreToolUse", result(0, "just text"), None)
    assert plain.notes == (f"plain stdout is ignored by hookwrap's {agent.label} {noun}",)
    failed = agent.interpret("PreToolUse", result(1, "", "boom"), None)
    assert failed.problems == (f"exit 1 without an answer (boom): the {noun} reports it and the call "
                               "goes on",)
