"""Tests for schema: the hooks validators of Claude Code 2.1.328 and Gemini CLI 0.61.0."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwrap.generator import schema
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import errors_only
from hookwrap.generator import jsonc
from hookwrap.generator.clis.kit import ERROR, WARNING, Problem

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "settings"


def _found(problems: list[Problem]) -> set[tuple[str, str]]:
    return {(problem.path, problem.severity) for problem in problems}


def _claude_handler(**extra: object) -> dict:
    return {"type": "command", "command": "python3 x.py", **extra}


def _claude(event: str, handler: dict, matcher: object = "Bash") -> list[Problem]:
    group = {"matcher": matcher, "hooks": [handler]}
    return schema.validate_hooks({event: [group]}, "claude")


def test_event_lists_have_the_documented_sizes() -> None:
    # Claude Code 2.1.332: 34 (PreSkillShellCommand is new; 2.1.328 has the other 33).
    claude, gemini = setup_of("claude").facts.known_settings_events, setup_of("gemini").facts.known_settings_events
    assert len(claude) == 34 == len(set(claude))
    assert len(gemini) == 11 == len(set(gemini))


def test_reference_examples_are_clean() -> None:
    claude = jsonc.parse((FIXTURES / "claude_reference.json").read_text(), label="c",
                         allow_comments=False)
    gemini = jsonc.parse((FIXTURES / "gemini_reference.jsonc").read_text(), label="g")
    assert schema.validate_settings(claude, "claude") == []
    assert schema.validate_settings(gemini, "gemini") == []


def test_problem_str() -> None:
    assert str(Problem("hooks.Stop[0]", "must be an object")) == "hooks.Stop[0]: must be an object"


@pytest.mark.parametrize(
    ("handler", "path"),
    [
        ({"type": "command"}, "hooks.PostToolUse[0].hooks[0].command"),
        (_claude_handler(command=""), "hooks.PostToolUse[0].hooks[0].command"),
        (_claude_handler(timeout=0), "hooks.PostToolUse[0].hooks[0].timeout"),
        (_claude_handler(timeout=-1), "hooks.PostToolUse[0].hooks[0].timeout"),
        (_claude_handler(timeout="30"), "hooks.PostToolUse[0].hooks[0].timeout"),
        (_claude_handler(timeout=True), "hooks.PostToolUse[0].hooks[0].timeout"),
        (_claude_handler(onFailure="stop"), "hooks.PostToolUse[0].hooks[0].onFailure"),
        (_claude_handler(shell="zsh"), "hooks.PostToolUse[0].hooks[0].shell"),
        (_claude_handler(args=["a", 1]), "hooks.PostToolUse[0].hooks[0].args"),
        (_claude_handler(**{"async": "yes"}), "hooks.PostToolUse[0].hooks[0].async"),
        (_claude_handler(once=1), "hooks.PostToolUse[0].hooks[0].once"),
        (_claude_handler(statusMessage=3), "hooks.PostToolUse[0].hooks[0].statusMessage"),
        (_claude_handler(**{"if": ["Bash"]}), "hooks.PostToolUse[0].hooks[0].if"),
        ({"type": "script", "command": "x"}, "hooks.PostToolUse[0].hooks[0].type"),
        ({"type": "prompt"}, "hooks.PostToolUse[0].hooks[0].prompt"),
        ({"type": "http", "url": "not a url"}, "hooks.PostToolUse[0].hooks[0].url"),
        ({"type": "mcp_tool", "server": "s"}, "hooks.PostToolUse[0].hooks[0].tool"),
        ("python3 x.py", "hooks.PostToolUse[0].hooks[0]"),
    ],
)
def test_claude_handler_errors(handler: object, path: str) -> None:
    problems = _claude("PostToolUse", handler)
    assert (path, ERROR) in _found(problems)


def test_claude_valid_handler_variants() -> None:
    handlers = [
        _claude_handler(timeout=1.5, onFailure="block", shell="bash", args=["a"], statusMessage="s",
                        once=False, **{"async": True, "if": "Bash(git *)"}),
        {"type": "prompt", "prompt": "ok? $ARGUMENTS", "model": "m", "continueOnBlock": True},
        {"type": "agent", "prompt": "verify"},
        {"type": "http", "url": "https://h.example/x", "headers": {"A": "b"}, "allowedEnvVars": ["T"]},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"p": "${tool_input.x}"}},
    ]
    for handler in handlers:
        assert _claude("PreToolUse", handler) == [], handler


def test_claude_group_and_event_shape() -> None:
    found = _found(schema.validate_hooks({
        "PreToolUse": {"matcher": "Bash", "hooks": []},
        "PostToolUse": [{"matcher": None, "hooks": []}, {"matcher": "x"}, "group"],
        "NoSuchEvent": [],
    }, "claude"))
    assert found == {
        ("hooks.PreToolUse", ERROR),
        ("hooks.PostToolUse[0].matcher", ERROR),
        ("hooks.PostToolUse[1].hooks", ERROR),
        ("hooks.PostToolUse[2]", ERROR),
        ("hooks.NoSuchEvent", WARNING),
    }
    assert schema.validate_hooks([], "claude") == [
        Problem("hooks", "must be an object mapping event names to lists")
    ]


def test_claude_invalid_guard_entry_mentions_permissions() -> None:
    problems = _claude("PreToolUse", {"type": "command"})
    assert any("permissions" in p.message and p.path == "hooks.PreToolUse[0]" for p in problems)
    assert not any("permissions" in p.message for p in _claude("PostToolUse", {"type": "command"}))


def test_claude_event_specific_checks() -> None:
    # Valid entries Claude Code loads and then skips: warnings, since no other hook is dropped.
    assert ("hooks.Stop[0].hooks[0].if", WARNING) in _found(
        _claude("Stop", _claude_handler(**{"if": "Bash(x)"}), matcher="")
    )
    assert ("hooks.Stop[0].matcher", WARNING) in _found(_claude("Stop", _claude_handler()))
    assert ("hooks.SessionEnd[0].hooks[0].type", WARNING) in _found(
        _claude("SessionEnd", {"type": "prompt", "prompt": "p"}))
    assert ("hooks.SessionStart[0].hooks[0].type", WARNING) in _found(
        _claude("SessionStart", {"type": "http", "url": "https://x.example"}))


def test_claude_warnings_do_not_count_as_errors() -> None:
    problems = _claude("PostToolUse", _claude_handler(timeout=60000, marker=True, cloud="skip"))
    assert _found(problems) == {
        ("hooks.PostToolUse[0].hooks[0].timeout", WARNING),
        ("hooks.PostToolUse[0].hooks[0].marker", WARNING),
        ("hooks.PostToolUse[0].hooks[0].cloud", WARNING),
    }
    assert errors_only(problems) == []


def test_claude_whole_file_checks() -> None:
    problems = schema.validate_settings(
        {"permissions": {"allow": "Bash", "deny": [1]}, "disableAllHooks": True}, "claude")
    assert _found(problems) == {
        ("permissions.allow", ERROR), ("permissions.deny", ERROR), ("disableAllHooks", WARNING),
    }
    assert _found(schema.validate_settings({"permissions": []}, "claude")) == {("permissions", ERROR)}
    assert _found(schema.validate_settings({"hooks": []}, "claude")) == {("hooks", ERROR)}


def _gemini(event: str, handler: object, **group: object) -> list[Problem]:
    return schema.validate_hooks({event: [{**group, "hooks": [handler]}]}, "gemini")


@pytest.mark.parametrize(
    ("handler", "key"),
    [
        ({"type": "command"}, "command"),
        ({"type": "command", "command": "  "}, "command"),
        ({"type": "prompt", "command": "x"}, "type"),
        ({"command": "x"}, "type"),
        ({"type": "command", "command": "x", "timeout": 0}, "timeout"),
        ({"type": "command", "command": "x", "timeout": -5}, "timeout"),
        ({"type": "command", "command": "x", "timeout": "5s"}, "timeout"),
        ({"type": "command", "command": "x", "timeout": False}, "timeout"),
        ({"type": "command", "command": "x", "name": 1}, "name"),
        ({"type": "command", "command": "x", "description": []}, "description"),
        ({"type": "command", "command": "x", "env": {"A": 1}}, "env"),
    ],
)
def test_gemini_handler_errors(handler: dict, key: str) -> None:
    problems = _gemini("BeforeTool", handler)
    assert (f"hooks.BeforeTool[0].hooks[0].{key}", ERROR) in _found(problems)


def test_gemini_zero_timeout_message_says_immediate() -> None:
    problems = _gemini("AfterAgent", {"type": "command", "command": "x", "timeout": 0})
    assert "immediate timeout" in problems[0].message


def test_gemini_soft_timeouts_are_warnings() -> None:
    for value in ("5000", 1500.5):
        problems = _gemini("AfterAgent", {"type": "command", "command": "x", "timeout": value})
        assert _found(problems) == {("hooks.AfterAgent[0].hooks[0].timeout", WARNING)}


def test_gemini_group_checks() -> None:
    handler = {"type": "command", "command": "x"}
    assert _found(_gemini("BeforeTool", handler, sequential="yes")) == {
        ("hooks.BeforeTool[0].sequential", ERROR)}
    assert _found(_gemini("BeforeTool", handler, matcher=3)) == {("hooks.BeforeTool[0].matcher", ERROR)}
    assert _found(_gemini("SessionStart", handler, matcher="startup|resume")) == {
        ("hooks.SessionStart[0].matcher", ERROR)}
    assert _gemini("SessionStart", handler, matcher="resume") == []
    assert _found(_gemini("BeforeAgent", handler, matcher="x")) == {
        ("hooks.BeforeAgent[0].matcher", WARNING)}
    assert _found(schema.validate_hooks({"BeforeTool": [{"matcher": "x"}]}, "gemini")) == {
        ("hooks.BeforeTool[0].hooks", ERROR)}


def test_gemini_event_names() -> None:
    found = _found(schema.validate_hooks(
        {"PreToolUse": [], "enabled": True, "AfterTool": "x"}, "gemini"))
    assert found == {("hooks.PreToolUse", WARNING), ("hooks.enabled", WARNING),
                     ("hooks.AfterTool", ERROR)}


def test_gemini_whole_file_checks() -> None:
    found = _found(schema.validate_settings({"hooksConfig": {"enabled": False, "disabled": "x"}},
                                            "gemini"))
    assert found == {("hooksConfig.enabled", WARNING), ("hooksConfig.disabled", WARNING)}
    assert _found(schema.validate_settings({"hooksConfig": 1}, "gemini")) == {("hooksConfig", ERROR)}


def test_validate_handler_entry_point() -> None:
    good = {"type": "command", "command": "x", "timeout": 60}
    claude, gemini = setup_of("claude"), setup_of("gemini")
    assert claude.handlers.validate_handler(claude, good, "Stop", "h") == []
    assert gemini.handlers.validate_handler(gemini, dict(good, timeout=60000), "AfterAgent", "h") == []


def test_pre_skill_shell_command_is_known_and_guards_the_permissions() -> None:
    """Claude Code 2.1.332: PreSkillShellCommand runs (not "unknown"), matches on tool_name,
    and, like PreToolUse and PermissionRequest, an invalid entry voids the file's permissions."""
    good = {"hooks": {"PreSkillShellCommand": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "touch ran"}]}]}}
    assert schema.validate_settings(good, "claude") == []
    bad = {"permissions": {"deny": ["Bash(rm:*)"]}, "hooks": {"PreSkillShellCommand": [
        {"matcher": "Bash", "hooks": [{"type": "command"}]}]}}
    messages = [f"{p.path}: {p.message}" for p in schema.validate_settings(bad, "claude")]
    assert ("hooks.PreSkillShellCommand[0]: an invalid PreSkillShellCommand entry makes Claude "
            "Code skip the permissions declared in this file") in messages
    # Qwen Code 0.24.4 has no such event.
    assert "unknown hook event" in " ".join(
        p.message for p in schema.validate_settings(good, "qwen"))


@pytest.mark.parametrize("platform, shim", [("opencode", "OpenCode plugin"), ("kilo", "Kilo CLI plugin"),
                                            ("pi", "pi extension")])
def test_a_key_the_generated_js_file_ignores_is_named_with_that_file(platform: str, shim: str) -> None:
    """A command handler's and an http handler's keys as the hook runner reads them: an http
    handler is posted, so a command (or argvWindows) beside its URL is never read."""
    hooks = {"PreToolUse": [{"matcher": "^bash$", "hooks": [
        {"type": "command", "command": "python3 x.py", "failClosed": True, "extra": 1},
        {"type": "http", "url": "http://127.0.0.1:8/hookwrap/pi/guard", "timeout": 5,
         "argvWindows": ["py"], "command": "x"}]}]}
    where = "hooks.PreToolUse[0].hooks"
    assert {(p.path, p.message) for p in schema.validate_hooks(hooks, platform)} == {
        (f"{where}[0].extra", f"is not read by hookwrap's {shim}"),
        (f"{where}[1].argvWindows", f"is not read by hookwrap's {shim}"),
        (f"{where}[1].command", f"is not read by hookwrap's {shim}")}
