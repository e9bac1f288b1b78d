"""hookwrap.checks.hooktest: `hookwrap test NAME` runs the registered commands like each CLI would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwrap.checks.hooktest import describe, owned_name, run_hook_test
from hookwrap.generator.clis.kit import Verdict
from hookwrap.generator.errors import ProjectError, UsageError

CLAUDE_CMD = 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/{name}.py --platform claude'
GEMINI_CMD = 'python3 "${{GEMINI_PROJECT_DIR}}/.hookwrap/hooks/{name}.py" --platform gemini'

# A small hook in both dialects: denies `rm -rf`, says why, otherwise allows.
GUARD = '''
import json, sys
payload = json.load(sys.stdin)
platform = sys.argv[-1]
command = payload.get("tool_input", {}).get("command", "")
if "rm -rf" in command:
    if platform == "claude":
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
              "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}))
    else:
        print(json.dumps({"decision": "deny", "reason": "no rm -rf"}))
else:
    print("{}")
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "a project"
    (root / ".hookwrap" / "hooks").mkdir(parents=True)
    return root


def register(root: Path, name: str, body: str, *, claude: str | None = "PreToolUse",
             gemini: str | None = "BeforeTool", claude_matcher: str | None = "Bash",
             gemini_matcher: str | None = "^run_shell_command$", gemini_command: str | None = None) -> None:
    (root / ".hookwrap" / "hooks" / f"{name}.py").write_text(body)
    if claude:
        group = {"hooks": [{"type": "command", "command": CLAUDE_CMD.format(name=name), "timeout": 10}]}
        if claude_matcher:
            group["matcher"] = claude_matcher
        _add(root / ".claude" / "settings.json", claude, group)
    if gemini:
        handler = {"name": name, "type": "command", "timeout": 10000,
                   "command": gemini_command or GEMINI_CMD.format(name=name)}
        group = {"hooks": [handler]}
        if gemini_matcher:
            group["matcher"] = gemini_matcher
        _add(root / ".gemini" / "settings.json", gemini, group)


def _add(path: Path, event: str, group: dict) -> None:
    path.parent.mkdir(exist_ok=True)
    data = json.loads(path.read_text()) if path.exists() else {"hooks": {}}
    data["hooks"].setdefault(event, []).append(group)
    path.write_text(json.dumps(data, indent=2))


def test_default_sample_runs_on_both_platforms(project: Path) -> None:
    register(project, "guard", GUARD)
    report = run_hook_test(project, "guard")
    assert [t.platform for t in report.tests] == ["claude", "gemini"]
    assert [t.summary for t in report.tests] == ["allowed", "allowed"]
    assert report.ok and report.exit_code == 0
    claude, gemini = report.tests
    assert claude.payload["tool_name"] == "Bash" and gemini.payload["tool_name"] == "run_shell_command"
    assert claude.payload["cwd"] == str(project)
    assert claude.result.exit_code == 0 and claude.result.duration_ms >= 0


def test_tool_and_input_are_translated_per_platform(project: Path) -> None:
    register(project, "guard", GUARD)
    report = run_hook_test(project, "guard", tool="shell", tool_input='{"command": "rm -rf /"}')
    assert [t.summary for t in report.tests] == ["blocked: no rm -rf"] * 2
    assert [t.payload["tool_name"] for t in report.tests] == ["Bash", "run_shell_command"]
    assert report.ok  # a deliberate block is a clean run
    assert run_hook_test(project, "guard", tool="Bash", tool_input={"command": "ls"}).ok


def test_platform_selection_and_json_data(project: Path) -> None:
    register(project, "guard", GUARD)
    report = run_hook_test(project, "guard", platform="gemini")
    assert [t.platform for t in report.tests] == ["gemini"]
    data = json.loads(json.dumps(report.to_dict()))
    assert data["ok"] is True
    assert data["tests"][0]["result"]["exit_code"] == 0
    assert data["tests"][0]["verdict"]["outcome"] == "allowed"


def test_a_crashing_hook_fails_the_test(project: Path) -> None:
    register(project, "crash", "import sys\nsys.stderr.write('boom')\nsys.exit(1)\n")
    report = run_hook_test(project, "crash")
    assert not report.ok and report.exit_code == 1
    # Gemini CLI shows a failed hook's stderr to the user as a warning (systemMessage).
    assert [t.summary for t in report.tests] == ["allowed", "allowed (shown to the user: Warning: boom)"]
    assert all("exit 1" in t.problems[0] for t in report.tests)
    assert report.tests[0].result.stderr == "boom"


def test_matcher_picks_a_matching_sample_tool_or_reports_not_run(project: Path) -> None:
    register(project, "writes", "print('{}')", claude_matcher="Write", gemini_matcher="^write_file$")
    report = run_hook_test(project, "writes")
    assert [t.payload["tool_name"] for t in report.tests] == ["Write", "write_file"]
    assert report.tests[0].payload["tool_input"]["file_path"].startswith(str(project))
    other = run_hook_test(project, "writes", tool="shell")
    assert not other.ok and all(not t.ran and t.summary.startswith("not run") for t in other.tests)


def test_context_and_kept_working(project: Path) -> None:
    register(project, "ctx", "print('branch: main')", claude="UserPromptSubmit",
             gemini=None, claude_matcher=None)
    (test,) = run_hook_test(project, "ctx").tests
    assert test.summary == "context added to the model: branch: main"
    stop = "import json\nprint(json.dumps({'decision': 'block', 'reason': 'tests fail'}))"
    register(project, "gate", stop, claude="Stop", gemini="AfterAgent", claude_matcher=None,
             gemini_matcher=None)
    report = run_hook_test(project, "gate")
    assert [t.summary for t in report.tests] == ["agent kept working: tests fail"] * 2


def test_payload_file(project: Path, tmp_path: Path) -> None:
    register(project, "guard", GUARD)
    payload = tmp_path / "p.json"
    payload.write_text(json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}))
    (test,) = run_hook_test(project, "guard", platform="claude", payload_file=payload).tests
    assert test.summary == "blocked: no rm -rf"
    assert test.payload["hook_event_name"] == "PreToolUse"


def test_broken_gemini_quoting_blocks_and_is_reported(project: Path) -> None:
    register(project, "guard", GUARD, claude=None,
             gemini_command='python3 "$GEMINI_PROJECT_DIR/.hookwrap/hooks/guard.py" --platform gemini')
    (test,) = run_hook_test(project, "guard").tests
    assert test.summary.startswith("blocked: ") and "No such file" in test.summary
    assert not test.clean and "looks missing" in test.problems[0]


def test_errors(project: Path) -> None:
    register(project, "guard", GUARD, gemini=None)
    with pytest.raises(ProjectError):
        run_hook_test(project, "nothing")
    (missing,) = run_hook_test(project, "guard", platform="gemini").tests
    assert not missing.clean and not missing.ran
    with pytest.raises(UsageError):
        run_hook_test(project, "guard", tool_input="{not json")
    with pytest.raises(UsageError):
        run_hook_test(project, "guard", platform="cursor")
    with pytest.raises(UsageError):
        run_hook_test(project, "guard", event="not_an_event")


def test_describe_and_owned_name() -> None:
    assert describe(Verdict()) == "allowed"
    assert describe(Verdict("stopped", stop_reason="halt")) == "agent stopped: halt"
    assert describe(Verdict("allowed", context="c")) == "allowed; context added to the model: c"
    assert owned_name(CLAUDE_CMD.format(name="my-hook")) == "my-hook"
    assert owned_name("echo hi") is None


def test_a_payload_the_matcher_skips_gets_a_hint_about_the_payload(project: Path,
                                                                   tmp_path: Path) -> None:
    # A Claude Code payload sent to Gemini CLI: --tool cannot help, since it does not go with
    # --payload; the hint says the payload must name the tool as Gemini CLI does.
    register(project, "guard", GUARD)
    payload = tmp_path / "p.json"
    payload.write_text(json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
    (test,) = run_hook_test(project, "guard", platform="gemini", payload_file=payload).tests
    assert not test.ran
    assert test.problems == [
        "not run: matcher '^run_shell_command$' does not select 'Bash' (the --payload file goes "
        "to Gemini CLI as written, so it must name the tool as Gemini CLI does, e.g. "
        "'run_shell_command'; or use --tool instead, which each CLI gets in its own words)"]
    (sample,) = run_hook_test(project, "guard", platform="gemini", tool="read_file").tests
    assert sample.problems[0].endswith("(pick another call with --tool)")


def test_platform_repeats(project: Path) -> None:
    register(project, "guard", GUARD)
    report = run_hook_test(project, "guard", platform=["gemini", "claude"], tool="shell",
                           tool_input={"command": "rm -rf x"})
    assert [(t.platform, t.summary) for t in report.tests] == [
        ("gemini", "blocked: no rm -rf"), ("claude", "blocked: no rm -rf")]
    with pytest.raises(UsageError):
        run_hook_test(project, "guard", platform=["claude", "cursor"])
