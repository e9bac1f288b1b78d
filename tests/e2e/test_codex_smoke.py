"""Codex CLI smoke tests: hand-written hook commands (no hookwrap involved) in a project's ``.codex/hooks.json``.

They prove that ``codex exec`` runs offline against the Responses API mock, that project hooks run
once trust is established (and only then), and that what a hook answers is observable from outside:
the side effect of the shell call, the ``hook:`` status lines on stderr, and the input of the next
model request. The tests without the ``e2e`` mark check the mock and the trust hash on their own.
Each command the mock makes the model run is a harmless ``echo`` into a marker file in the temp project.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from .codex_harness import (
    MODEL_SHELL_TOOL,
    Codex,
    Trust,
    add_hook,
    hook_key,
    hook_trust_state,
    init_git_repo,
    project_root,
    trusted_hash,
)
from .mock_openai_responses import ResponsesMock, messages, model_turns, tool_calls, tool_results
from .mockmodel import Reply, ToolCall

e2e = pytest.mark.e2e

# Logs its stdin payload (one JSON line) to argv[1], then answers as the JSON spec in argv[2] says:
# {"stdout": str, "stderr": str, "exit": int, "unless_stop_hook_active": bool}.
RAW_HOOK = '''\
import json, sys

log_path, spec_path = sys.argv[1:3]
payload = json.load(sys.stdin)
with open(log_path, "a", encoding="utf-8") as log:
    log.write(json.dumps(payload) + "\\n")
with open(spec_path, encoding="utf-8") as f:
    spec = json.load(f)
if spec.get("unless_stop_hook_active") and payload.get("stop_hook_active"):
    sys.exit(0)
sys.stdout.write(spec.get("stdout", ""))
sys.stderr.write(spec.get("stderr", ""))
sys.exit(spec.get("exit", 0))
'''

MARKER_COMMAND = "echo codex-smoke > marker.txt"
DENY_REASON = "SMOKE-DENY-REASON-41c2"


def deny_output(reason: str = DENY_REASON) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}}


def register(root: Path, event: str, name: str, *, stdout: str | dict[str, Any] = "", stderr: str = "",
             exit_code: int = 0, matcher: str | None = None, unless_stop_hook_active: bool = False) -> Path:
    """Add ``.codex/hooks/raw_hook.py`` for ``event`` with its own answer; return the log it writes."""
    hooks_dir = root / ".codex" / "hooks"
    hooks_dir.mkdir(parents=True, exist_ok=True)
    (hooks_dir / "raw_hook.py").write_text(RAW_HOOK, encoding="utf-8")
    spec = {"stdout": stdout if isinstance(stdout, str) else json.dumps(stdout), "stderr": stderr,
            "exit": exit_code, "unless_stop_hook_active": unless_stop_hook_active}
    (hooks_dir / f"{name}.json").write_text(json.dumps(spec), encoding="utf-8")
    log = hooks_dir / f"{name}.log"
    # Absolute, quoted paths: hooks run through bash -c from the session cwd, which may be a subdir.
    command = f'python3 "{hooks_dir}/raw_hook.py" "{log}" "{hooks_dir}/{name}.json"'
    add_hook(root, event, command, matcher=matcher, timeout=30)
    return log


def payloads(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


# The mock and the hash on their own (no binary needed) ----------------------------------------------


def _post(url: str, body: dict[str, Any]) -> tuple[int, str]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _sse_items(text: str) -> list[dict[str, Any]]:
    events = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    assert [e["type"] for e in events][0] == "response.created"
    assert events[-1]["type"] == "response.completed"
    return [e["item"] for e in events if e["type"] == "response.output_item.done"]


def test_responses_mock_follows_the_script_by_the_models_own_items() -> None:
    tools = [{"type": "function", "name": "exec_command"}, {"type": "custom", "name": "apply_patch"}]
    with ResponsesMock(max_requests=4) as server:
        server.script([ToolCall("exec_command", {"cmd": "ls"}), ToolCall("apply_patch", {"input": "PATCH"}),
                       Reply("bye")])
        url = server.url + "/v1/responses"
        history: list[dict[str, Any]] = [{"type": "message", "role": "user", "content": [{"type": "input_text",
                                                                                          "text": "hi"}]}]
        status, text = _post(url, {"model": "m", "input": history, "tools": tools})
        [call] = _sse_items(text)
        assert status == 200
        assert (call["type"], call["name"], json.loads(call["arguments"])) == ("function_call", "exec_command",
                                                                                {"cmd": "ls"})
        # Hook context (developer) and tool output items do not move the script; the call item does.
        history += [call, {"type": "message", "role": "developer", "content": [{"type": "input_text",
                                                                                 "text": "CTX"}]},
                    {"type": "function_call_output", "call_id": call["call_id"], "output": "blocked: R"}]
        _, text = _post(url, {"model": "m", "input": history, "tools": tools})
        [patch] = _sse_items(text)
        assert (patch["type"], patch["name"], patch["input"]) == ("custom_tool_call", "apply_patch", "PATCH")
        history += [patch, {"type": "custom_tool_call_output", "call_id": patch["call_id"], "output": "ok"}]
        _, text = _post(url, {"model": "m", "input": history, "tools": tools})
        [message] = _sse_items(text)
        assert message["content"][0]["text"] == "bye"
        # A Stop hook's reason arrives as a user message after the assistant's: past the script, text again.
        history += [message, {"type": "message", "role": "user", "content": "<hook_prompt>R</hook_prompt>"}]
        assert model_turns({"input": history}) == 3
        _, text = _post(url, {"model": "m", "input": history, "tools": tools})
        assert _sse_items(text)[0]["content"][0]["text"] == "bye"
        assert _post(url, {"model": "m", "input": history})[0] == 400  # budget of 4 spent
        assert _post(server.url + "/v1/models", {})[0] == 404

        assert [r.turn for r in server.model_requests] == [0, 1, 2, 3]
        body = server.model_requests[2].body
        assert [t["name"] for t in tool_calls(body)] == ["exec_command", "apply_patch"]
        assert [(t["name"], t["text"]) for t in tool_results(body)] == [("exec_command", "blocked: R"),
                                                                       ("apply_patch", "ok")]
        assert [m["text"] for m in messages(body, "developer")] == ["CTX"]


def test_trusted_hash_reproduces_hashes_reported_by_codex() -> None:
    """``currentHash`` values that ``codex app-server`` ``hooks/list`` reported for these hooks (0.169.0)."""
    cases = [
        ("PreToolUse", "Bash", {"type": "command", "command": "python3 /x/hook.py a", "timeout": 30},
         "7d803114b0d9465fe4c2194995c25cc4771c8289ca3ea8f8184c65ddd6641269"),
        ("PreToolUse", "Bash", {"type": "command", "command": "echo \u00fcn\u00ef", "statusMessage": "hi",
                                "additionalContextLimit": 0},
         "40f47f146547dbbf476546efd1320a4787edbf24e6ee4e0f1fcfd6ea9565a0ce"),
        ("PreToolUse", None, {"type": "command", "command": "echo nomatcher"},
         "51f447bcaa3a3e8830d262601def6903e3de10cdc705761f9c4ec4654ab3e27c"),
        ("PreToolUse", "*", {"type": "command", "command": "echo star", "timeout": 0, "async": True},
         "4a60e9f019fd76730dd82a1120f6dc39986efc64c92c42735a37d35cd8135774"),
        ("PreToolUse", "", {"type": "command", "command": "echo empty"},
         "fe6bfd2d80460f4610dcb8f8f3b410cb910b18f4be024794b14226df46b0c1c9"),
        ("SessionEnd", None, {"type": "command", "command": "echo end", "timeout": 10},
         "84be7971dba2dbb128add226e0537c753853bf675df8efb85a5dcbb611374b4f"),
        ("Stop", "ignored", {"type": "command", "command": "echo stop"},
         "236335e9e512004a0f5f42af65a07ea9059bd9a23dbb68286ed57fecf2b69ddf"),
    ]
    for event, matcher, handler, digest in cases:
        assert trusted_hash(event, handler, matcher) == f"sha256:{digest}", (event, matcher, handler)
    source = Path("/p/.codex/hooks.json")
    state = hook_trust_state(source, {"Stop": [{"matcher": "ignored", "hooks": [cases[-1][2]]}],
                                      "BeforeTool": [{"hooks": [{"type": "command", "command": "x"}]}]})
    assert state == {"/p/.codex/hooks.json:stop:0:0": f"sha256:{cases[-1][3]}"}


def test_project_root_is_the_nearest_git_ancestor(tmp_path: Path) -> None:
    root = init_git_repo(tmp_path / "a b")
    (root / "x" / "y").mkdir(parents=True)
    assert project_root(root / "x" / "y") == root.resolve()
    assert project_root(tmp_path) == tmp_path.resolve()


# The real binary -----------------------------------------------------------------------------------


@e2e
def test_exec_runs_offline_and_the_mock_scripts_a_shell_call(codex: Codex, git_project: Path) -> None:
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")], prompt="Write the marker.")

    assert result.rc == 0, result.describe()
    assert (git_project / "marker.txt").read_text() == "codex-smoke\n", result.describe()
    assert result.final_text == "Finished.", result.describe()
    assert [(r.method, r.path, r.status) for r in result.all_requests] == [("POST", "/v1/responses", 200)] * 2
    first, second = (r.body for r in result.requests)
    assert first["model"] == "gpt-5.5" and first["stream"] is True
    assert MODEL_SHELL_TOOL in [t.get("name") for t in first["tools"]]
    assert "Write the marker." in [m["text"] for m in messages(first, "user")]
    [call] = tool_calls(second)
    assert json.loads(call["input"]) == {"cmd": MARKER_COMMAND}
    [output] = tool_results(second)
    assert output["id"] == call["call_id"] and "Process exited with code 0" in output["text"]
    assert result.hook_statuses() == [] and result.hook_runs == []


@e2e
def test_pre_tool_use_hook_runs_when_trusted_by_hash(codex: Codex, git_project: Path) -> None:
    log = register(git_project, "PreToolUse", "pre", matcher="Bash")
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")], trust=Trust.HASHES)

    assert result.rc == 0, result.describe()
    assert "--dangerously-bypass-hook-trust" not in result.command
    assert result.hook_outcomes("PreToolUse") == ["Completed"], result.describe()
    [payload] = payloads(log)
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "Bash" and payload["tool_input"] == {"command": MARKER_COMMAND}
    assert payload["cwd"] == str(git_project.resolve())
    assert payload["tool_use_id"] == tool_calls(result.requests[1].body)[0]["call_id"]
    assert (git_project / "marker.txt").exists(), "a hook that answers nothing lets the call run"
    # The binary agrees: the hook is trusted under the key and hash the harness wrote.
    [listed] = codex.hooks_list(git_project)["hooks"]
    assert listed["key"] == f"{git_project.resolve()}/.codex/hooks.json:pre_tool_use:0:0"
    assert listed["trustStatus"] == "trusted"


@e2e
@pytest.mark.parametrize("trust", [Trust.NONE, Trust.PROJECT, "wrong-hash", Trust.BYPASS])
def test_hooks_need_project_trust_and_hook_trust(codex: Codex, git_project: Path, trust: Trust | str) -> None:
    """Without both gates the hook is skipped without a word on stdout/stderr; the bypass flag is the
    second gate only."""
    log = register(git_project, "PreToolUse", "pre", matcher="Bash")
    if trust == "wrong-hash":
        key = hook_key(git_project.resolve() / ".codex" / "hooks.json", "PreToolUse", 0, 0)
        codex.config = {"hooks": {"state": {key: {"trusted_hash": "sha256:" + "0" * 64}}}}
        trust = Trust.PROJECT
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")], trust=trust)

    assert result.rc == 0, result.describe()
    assert (git_project / "marker.txt").exists(), result.describe()
    if trust is Trust.BYPASS:
        assert len(payloads(log)) == 1, result.describe()
        assert "`--dangerously-bypass-hook-trust` is enabled" in result.stderr
        return
    assert payloads(log) == [] and result.hook_statuses() == [], result.describe()
    untrusted_project = "Untrusted project-local configuration is disabled" in result.stderr
    assert untrusted_project == (trust is Trust.NONE), result.describe()


@e2e
def test_computed_hashes_match_what_codex_lists(codex: Codex, git_project: Path) -> None:
    hooks_file = git_project / ".codex" / "hooks.json"
    hooks_file.parent.mkdir()
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo a", "timeout": 5},
                                                     {"type": "command", "command": "echo 'b c'",
                                                      "statusMessage": "checking", "async": True}]},
                       {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "echo d"}]}],
        "PostToolUse": [{"matcher": "^Ba", "hooks": [{"type": "command", "command": "echo e",
                                                      "additionalContextLimit": 100}]}],
        "UserPromptSubmit": [{"matcher": "dropped", "hooks": [{"type": "command", "command": "echo f"}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo g"}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "echo h", "timeout": 60, "async": True}]}],
        "Interrupt": [{"matcher": "x", "hooks": [{"type": "command", "command": "echo i", "async": True}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo \"$HOME\" \u00e9", "timeout": 0}]}],
    }
    hooks_file.write_text(json.dumps({"hooks": hooks}), encoding="utf-8")
    expected = hook_trust_state(hooks_file.resolve(), hooks)

    codex.write_config(git_project, Trust.HASHES)
    listed = codex.hooks_list(git_project)
    assert {h["key"]: h["currentHash"] for h in listed["hooks"]} == expected, listed
    assert {h["trustStatus"] for h in listed["hooks"]} == {"trusted"}, listed

    # Any change to a handler changes its hash: Codex then reports the stored one as modified.
    hooks["PreToolUse"][0]["hooks"][0]["timeout"] = 6
    hooks_file.write_text(json.dumps({"hooks": hooks}), encoding="utf-8")
    statuses = {h["key"]: h["trustStatus"] for h in codex.hooks_list(git_project)["hooks"]}
    changed = hook_key(hooks_file.resolve(), "PreToolUse", 0, 0)
    assert statuses.pop(changed) == "modified"
    assert set(statuses.values()) == {"trusted"}


@e2e
def test_hooks_in_project_config_toml_are_trusted_by_hash(codex: Codex, git_project: Path) -> None:
    """The same trust applies to ``[hooks]`` in ``.codex/config.toml``, keyed by that file."""
    log = register(git_project, "PreToolUse", "pre", matcher="Bash", stdout=deny_output())
    hooks_json = git_project / ".codex" / "hooks.json"
    table = json.loads(hooks_json.read_text(encoding="utf-8"))["hooks"]
    hooks_json.unlink()
    (git_project / ".codex" / "config.toml").write_text(tomlkit.dumps({"hooks": table}), encoding="utf-8")
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")])

    assert result.hook_outcomes("PreToolUse") == ["Blocked"], result.describe()
    assert len(payloads(log)) == 1 and not (git_project / "marker.txt").exists()
    [listed] = codex.hooks_list(git_project)["hooks"]
    assert (listed["key"], listed["trustStatus"]) == (
        f"{git_project.resolve()}/.codex/config.toml:pre_tool_use:0:0", "trusted")


@e2e
@pytest.mark.parametrize("answer", ["json-deny", "legacy-block", "exit-2-stderr"])
def test_deny_stops_the_call_and_the_reason_reaches_the_model(codex: Codex, git_project: Path, answer: str) -> None:
    kwargs: dict[str, Any] = {
        "json-deny": {"stdout": deny_output()},
        "legacy-block": {"stdout": {"decision": "block", "reason": DENY_REASON}},
        "exit-2-stderr": {"stderr": DENY_REASON, "exit_code": 2},
    }[answer]
    log = register(git_project, "PreToolUse", "pre", matcher="Bash", **kwargs)
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (git_project / "marker.txt").exists(), result.describe()
    assert len(payloads(log)) == 1
    assert result.hook_outcomes("PreToolUse") == ["Blocked"], result.describe()
    assert len(result.requests) == 2, result.describe()
    [output] = result.tool_results()
    assert output["text"] == f"Command blocked by PreToolUse hook: {DENY_REASON}. Command: {MARKER_COMMAND}"
    assert result.final_text == "Finished."


@e2e
@pytest.mark.parametrize("answer", ["unknown-top-level-key", "unknown-inner-key", "no-hookEventName",
                                    "ask", "empty-reason", "exit-2-no-stderr"])
def test_invalid_deny_fails_open(codex: Codex, git_project: Path, answer: str) -> None:
    """Codex rejects any output outside its schema; the hook then counts as Failed and the call runs."""
    inner = deny_output()["hookSpecificOutput"]
    kwargs: dict[str, Any] = {
        "unknown-top-level-key": {"stdout": {**deny_output(), "debug": 1}},
        "unknown-inner-key": {"stdout": {"hookSpecificOutput": {**inner, "debug": 1}}},
        "no-hookEventName": {"stdout": {"hookSpecificOutput": {k: v for k, v in inner.items()
                                                               if k != "hookEventName"}}},
        "ask": {"stdout": {"hookSpecificOutput": {**inner, "permissionDecision": "ask"}}},
        "empty-reason": {"stdout": {"hookSpecificOutput": {**inner, "permissionDecisionReason": ""}}},
        "exit-2-no-stderr": {"exit_code": 2},
    }[answer]
    log = register(git_project, "PreToolUse", "pre", matcher="Bash", **kwargs)
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert len(payloads(log)) == 1
    assert result.hook_outcomes("PreToolUse") == ["Failed"], result.describe()
    assert (git_project / "marker.txt").exists(), result.describe()
    assert "blocked" not in result.tool_results()[0]["text"], result.describe()


@e2e
def test_additional_context_reaches_the_model(codex: Codex, git_project: Path) -> None:
    register(git_project, "SessionStart", "start", matcher="startup",
             stdout={"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "CTX-START-9d1"}})
    register(git_project, "PreToolUse", "pre", matcher="Bash",
             stdout={"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE-5e7"}})
    result = codex.run(git_project, [codex.shell(MARKER_COMMAND), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert (git_project / "marker.txt").exists()
    assert result.hook_outcomes("SessionStart") == ["Completed"] and result.hook_outcomes("PreToolUse") == [
        "Completed"], result.describe()
    # SessionStart's context: a developer message before the prompt, in every request.
    first = [(m["role"], m["text"]) for m in messages(result.requests[0].body)]
    assert first.index(("developer", "CTX-START-9d1")) < first.index(("user", "Please do the task."))
    assert "CTX-PRE-5e7" not in result.conversation(0)
    # PreToolUse's context: a developer message right after the tool call it belongs to.
    items = result.requests[1].body["input"]
    at = next(n for n, item in enumerate(items) if "CTX-PRE-5e7" in json.dumps(item))
    assert (items[at].get("type"), items[at].get("role")) == ("message", "developer")
    assert [items[at - 1]["type"], items[at + 1]["type"]] == ["function_call", "function_call_output"]


@e2e
def test_stop_block_makes_codex_take_another_turn(codex: Codex, git_project: Path) -> None:
    log = register(git_project, "Stop", "stop", stdout={"decision": "block", "reason": "STOP-AGAIN-3b8"},
                   unless_stop_hook_active=True)
    result = codex.run(git_project, [Reply("First answer."), Reply("Second answer.")])

    assert result.rc == 0, result.describe()
    assert [p["stop_hook_active"] for p in payloads(log)] == [False, True], result.describe()
    assert [p["last_assistant_message"] for p in payloads(log)] == ["First answer.", "Second answer."]
    assert result.hook_outcomes("Stop") == ["Blocked", "Completed"], result.describe()
    assert len(result.requests) == 2, result.describe()
    last_user = result.messages("user")[-1]
    assert last_user.startswith('<hook_prompt hook_run_id="stop:') and last_user.endswith(
        ">STOP-AGAIN-3b8</hook_prompt>"), last_user
    assert result.messages("assistant") == ["First answer."]
    assert result.final_text == "Second answer."


@e2e
@pytest.mark.parametrize("layout", ["subdir", "space-in-path"])
def test_project_hooks_run_from_a_subdirectory(codex: Codex, tmp_path: Path, layout: str) -> None:
    root = init_git_repo(tmp_path / ("my project" if layout == "space-in-path" else "proj"))
    cwd = root / ("sub dir" if layout == "space-in-path" else "sub") / "deeper"
    cwd.mkdir(parents=True)
    log = register(root, "PreToolUse", "pre", matcher="Bash", stdout=deny_output())
    result = codex.run(cwd, [codex.shell(MARKER_COMMAND), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert not (cwd / "marker.txt").exists(), result.describe()
    [payload] = payloads(log)
    assert payload["cwd"] == str(cwd.resolve()), "hooks get the session cwd, not the project root"
    assert DENY_REASON in result.tool_results()[0]["text"], result.describe()
    assert f'[projects."{root.resolve()}"]' in codex.config_path.read_text(encoding="utf-8")


@e2e
def test_relative_hook_path_from_a_subdirectory_denies_every_call(codex: Codex, git_project: Path) -> None:
    """A trap for generated commands: bash runs the hook in the session cwd, python3 cannot open the
    relative script and exits 2 with a message on stderr, which Codex reads as a deny."""
    add_hook(git_project, "PreToolUse", "python3 .codex/hooks/missing.py", matcher="Bash", timeout=30)
    (git_project / "sub").mkdir()
    result = codex.run(git_project / "sub", [codex.shell(MARKER_COMMAND), Reply("Finished.")])

    assert result.rc == 0, result.describe()
    assert result.hook_outcomes("PreToolUse") == ["Blocked"], result.describe()
    assert not (git_project / "sub" / "marker.txt").exists()
    assert "can't open file" in result.tool_results()[0]["text"], result.describe()
