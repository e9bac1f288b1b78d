"""`hookwrap adopt` and `hookwrap add --command`: hand-made hooks become external hooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import GOLDEN
from support.cli import hw, read_json, snapshot_without_lock
from support.projects import from_template

SETTINGS = {
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [
                {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-force.sh',
                 "timeout": 10, "onFailure": "block"}]},
            {"matcher": "Edit.*", "hooks": [{"type": "command", "command": "echo edit"}]},
            {"matcher": "Write|Edit", "hooks": [
                {"type": "command", "command": "python3 .claude/hooks/fmt.py"},
                {"type": "command", "command": "./lint.sh", "async": True}]},
        ],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "node .claude/hooks/context.js"},
                       {"type": "http", "url": "http://127.0.0.1:9/x"}]},
        ],
        "Notification": [{"hooks": [{"type": "prompt", "prompt": "say hi"}]}],
    },
}
# Entries adopt cannot move, as (event, the group as it was).
KEPT = {
    "regex matcher": ("PreToolUse", {"matcher": "Edit.*", "hooks": [
        {"type": "command", "command": "echo edit"}]}),
    "async handler": ("PreToolUse", {"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "./lint.sh", "async": True}]}),
    "http handler": ("UserPromptSubmit", {"hooks": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}),
    "prompt handler": ("Notification", {"hooks": [{"type": "prompt", "prompt": "say hi"}]}),
}


def _team_repo(root: Path) -> None:
    (root / ".claude").mkdir()
    (root / ".claude/settings.json").write_text(json.dumps(SETTINGS, indent=2) + "\n")
    result = hw(root, "init", "-p", "claude", "-p", "gemini", "-p", "codex")
    assert result.code == 0, result.err


@pytest.fixture
def team_repo(empty_dir: Path) -> Path:
    """A repo whose hooks were registered by hand in .claude/settings.json (a copy of one template)."""
    return from_template(empty_dir, _team_repo)


def test_dry_run_shows_the_plan_and_writes_nothing(team_repo: Path) -> None:
    before = snapshot_without_lock(team_repo)
    result = hw(team_repo, "adopt", "--dry-run")
    assert result.code == 0, result.err
    assert "would update  hookwrap.toml" in result.out
    assert "would create  .hookwrap/hooks/no-force.py" in result.out
    assert ".claude/settings.json hooks.PreToolUse[0].hooks[0] becomes [hooks.no-force]" \
        in result.out
    assert snapshot_without_lock(team_repo) == before


def test_adopt_records_external_hooks_and_keeps_what_it_cannot_move(
        team_repo: Path, update_golden: bool) -> None:
    result = hw(team_repo, "adopt")
    assert result.code == 0, result.err
    for what in ("'Edit.*' is not a tool name", "its async cannot be carried",
                 "a 'http' handler runs no command", "a 'prompt' handler runs no command"):
        assert what in result.err, what
    golden = GOLDEN / "adopt"
    produced = {"hookwrap.toml": (team_repo / "hookwrap.toml").read_text(),
                "claude.settings.json": (team_repo / ".claude/settings.json").read_text(),
                "gemini.settings.json": (team_repo / ".gemini/settings.json").read_text()}
    if update_golden:
        golden.mkdir(exist_ok=True)
        for name, text in produced.items():
            (golden / name).write_text(text)
    for name, text in produced.items():
        assert text == (golden / name).read_text(), f"{name} differs from tests/golden/adopt"
    settings = read_json(team_repo, ".claude/settings.json")
    assert settings["permissions"] == SETTINGS["permissions"]
    for event, group in KEPT.values():  # in a group of the same matcher, beside adopted ones
        assert any(g.get("matcher") == group.get("matcher") and group["hooks"][0] in g["hooks"]
                   for g in settings["hooks"][event]), group
    commands = [h.get("command", "") for groups in settings["hooks"].values()
                for g in groups for h in g["hooks"]]
    assert not any(c in commands for c in ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-force.sh',
                                           "python3 .claude/hooks/fmt.py",
                                           "node .claude/hooks/context.js"))
    gemini = read_json(team_repo, ".gemini/settings.json")["hooks"]
    assert gemini["BeforeTool"][0]["matcher"] == "^run_shell_command$"
    assert gemini["BeforeTool"][0]["hooks"][0]["timeout"] == 10000  # seconds became ms


def test_adopt_translates_event_matcher_timeout_and_failure_policy(team_repo: Path) -> None:
    assert hw(team_repo, "adopt").code == 0
    rows = {row["name"]: row for row in json.loads(hw(team_repo, "list", "--json").out)}
    assert set(rows) == {"no-force", "fmt", "context"}
    assert (rows["no-force"]["event"], rows["no-force"]["matcher"], rows["no-force"]["timeout"]) \
        == ("before_tool", "shell", 10)
    assert rows["fmt"]["matcher"] == "write_file|edit_file"
    assert rows["context"]["event"] == "before_prompt"
    assert rows["context"]["command"] == "node .claude/hooks/context.js"
    assert rows["context"]["speaks"] == "claude"
    assert 'fail_closed = true' in (team_repo / "hookwrap.toml").read_text().split(
        "[hooks.no-force]")[1].split("[hooks.")[0]
    claude = read_json(team_repo, ".claude/settings.json")["hooks"]["PreToolUse"]
    mine = [h for g in claude for h in g["hooks"] if "run.py no-force " in h.get("command", "")]
    assert mine and mine[0]["onFailure"] == "block"


def test_an_adopted_entry_keeps_its_place(team_repo: Path) -> None:
    """N-L6: hookwrap's registration takes the hand-made handler's place in its event's list
    (and in its group, beside the handlers that stay), rather than moving to the end."""
    assert hw(team_repo, "adopt").code == 0
    hooks = read_json(team_repo, ".claude/settings.json")["hooks"]

    def commands(group: dict) -> list[str]:
        return [h.get("command") or h.get("url") for h in group["hooks"]]

    pre = hooks["PreToolUse"]
    assert [g["matcher"] for g in pre] == ["Bash|PowerShell", "Edit.*", "Write|Edit"]
    assert "run.py no-force " in commands(pre[0])[0] and len(pre[0]["hooks"]) == 1
    assert commands(pre[1]) == ["echo edit"]
    assert "run.py fmt " in commands(pre[2])[0] and commands(pre[2])[1] == "./lint.sh"
    prompt = hooks["UserPromptSubmit"]
    assert len(prompt) == 1
    assert "run.py context " in commands(prompt[0])[0] and commands(prompt[0])[1] == "http://127.0.0.1:9/x"
    assert list(hooks) == ["PreToolUse", "UserPromptSubmit", "Notification"]


def test_a_kept_place_splits_a_group_whose_matcher_hookwrap_writes_otherwise(empty_dir: Path) -> None:
    """A shared group keeps its matcher for the handlers that stay; the adopted one gets a group
    of its own right after it."""
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "Read", "hooks": [{"type": "command", "command": "./first.sh"}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"},
                                      {"type": "command", "command": "./stays.sh", "async": True}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "./last.sh", "async": True}]}]}}
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.json").write_text(json.dumps(settings))
    assert hw(empty_dir, "init", "-p", "claude").code == 0
    assert hw(empty_dir, "adopt").code == 0
    pre = read_json(empty_dir, ".claude/settings.json")["hooks"]["PreToolUse"]
    # hookwrap's handlers by their hook's name (`... run.py NAME --platform claude`)
    assert [(g["matcher"], [h["command"].split()[-3] if "run.py" in h["command"] else h["command"]
                            for h in g["hooks"]]) for g in pre] == [
        ("Read", ["first"]), ("Bash", ["./stays.sh"]), ("Bash|PowerShell", ["check"]),
        ("Write", ["./last.sh"])]


def test_adopt_again_changes_nothing(team_repo: Path) -> None:
    assert hw(team_repo, "adopt").code == 0
    after_first = snapshot_without_lock(team_repo)
    again = hw(team_repo, "adopt")
    assert again.code == 0, again.err
    assert "nothing to change" in again.out
    assert snapshot_without_lock(team_repo) == after_first
    assert hw(team_repo, "sync", "--check").code == 0


def test_an_invalid_settings_file_is_left_as_it_was(team_repo: Path) -> None:
    path = team_repo / ".claude/settings.json"
    path.write_bytes(b'{"hooks": {"PreToolUse": [}\n')
    before = snapshot_without_lock(team_repo)
    result = hw(team_repo, "adopt")
    assert result.code == 1
    assert result.err.startswith("error: .claude/settings.json")
    assert "hint:" in result.err
    assert snapshot_without_lock(team_repo) == before


def test_adopt_creates_the_manifest_when_there_is_none(empty_dir: Path) -> None:
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.json").write_text(json.dumps(SETTINGS))
    result = hw(empty_dir, "adopt")
    assert result.code == 0, result.err
    assert "[hooks.no-force]" in (empty_dir / "hookwrap.toml").read_text()
    assert (empty_dir / ".hookwrap/lib/hookwrap/bridge.py").is_file()


def test_adopt_refuses_a_manifest_without_the_source_cli(team_repo: Path) -> None:
    before = snapshot_without_lock(team_repo)
    result = hw(team_repo, "adopt", "--from", "qwen")
    assert result.code == 2
    assert "platforms do not include qwen" in result.err
    assert snapshot_without_lock(team_repo) == before


def test_settings_local_is_reported_not_adopted(team_repo: Path) -> None:
    local = team_repo / ".claude/settings.local.json"
    local.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo mine"}]}]}}))
    before = local.read_bytes()
    result = hw(team_repo, "adopt")
    assert ".claude/settings.local.json: left alone" in result.out
    assert local.read_bytes() == before
    assert "echo mine" not in (team_repo / "hookwrap.toml").read_text()


def test_add_command_registers_an_external_hook_everywhere(project: Path) -> None:
    result = hw(project, "add", "before_tool", "no-force", "--matcher", "shell",
                "--command", "./hooks/no-force.sh", "--speaks", "gemini", "--timeout", "5")
    assert result.code == 0, result.err
    text = (project / "hookwrap.toml").read_text()
    assert '[hooks.no-force]\nevent = "before_tool"\nmatcher = "shell"\n' in text
    assert 'command = "./hooks/no-force.sh"\nspeaks = "gemini"\n' in text
    assert "template" not in text.split("[hooks.no-force]")[1]
    assert "main(__file__, 'no-force')" in (project / ".hookwrap/hooks/no-force.py").read_text()
    assert "no-force" in json.dumps(read_json(project, ".claude/settings.json"))
    assert "no-force" in json.dumps(read_json(project, ".gemini/settings.json"))


@pytest.mark.parametrize(("args", "message"), [
    (["--command", ""], "--command"),
    (["--command", "x", "--speaks", "nobody"], "nobody"),
    (["--speaks", "claude"], "need --command"),
    (["--command", "x", "--template", "guard"], "do not go together"),
])
def test_add_command_errors(project: Path, args: list[str], message: str) -> None:
    before = snapshot_without_lock(project)
    result = hw(project, "add", "before_tool", "x", *args)
    assert result.code == 2
    assert message in result.err
    assert snapshot_without_lock(project) == before


def test_an_event_the_command_cli_lacks_is_refused(project: Path) -> None:
    result = hw(project, "add", "before_model", "m", "--command", "./m.sh")
    assert result.code == 2
    assert "Claude Code has no before_model event" in result.err


def test_sync_keeps_the_bridge_script_current_and_remove_deletes_it(project: Path) -> None:
    assert hw(project, "add", "session_start", "hello", "--command", "echo hi").code == 0
    script = project / ".hookwrap/hooks/hello.py"
    written = script.read_bytes()
    script.write_text("# edited\n")
    assert hw(project, "sync", "--check").code == 1
    assert hw(project, "sync").code == 0
    assert script.read_bytes() == written
    assert hw(project, "remove", "hello").code == 0
    assert not script.exists()
    assert "hello" not in (project / "hookwrap.toml").read_text()


def test_adopt_from_gemini_keeps_comments_and_reads_milliseconds(empty_dir: Path) -> None:
    (empty_dir / ".gemini").mkdir()
    text = ('{\n  // the team\'s model\n  "model": {"name": "x"},\n  "hooks": {"BeforeTool": [\n'
            '    {"matcher": "run_shell_command", "hooks": [{"type": "command", '
            '"command": "./hooks/check.sh", "timeout": 15000}]}]}\n}\n')
    (empty_dir / ".gemini/settings.json").write_text(text)
    assert hw(empty_dir, "init", "-p", "gemini", "-p", "claude").code == 0
    result = hw(empty_dir, "adopt", "--from", "gemini")
    assert result.code == 0, result.err
    manifest = (empty_dir / "hookwrap.toml").read_text()
    assert ('[hooks.check]\nevent = "before_tool"\nmatcher = "shell"\n'
            'platforms = ["gemini", "claude"]\ntimeout = 15\ncommand = "./hooks/check.sh"\n'
            'speaks = "gemini"\n') in manifest
    after = (empty_dir / ".gemini/settings.json").read_text()
    assert "// the team's model" in after and "./hooks/check.sh" not in after
    assert '.hookwrap/lib/run.py\\" check ' in after  # JSON text: the quote is escaped


def test_the_same_command_twice_becomes_one_hook(empty_dir: Path) -> None:
    handler = {"type": "command", "command": "./hooks/check.sh"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]},
                                         {"matcher": "Bash", "hooks": [dict(handler)]}]}}
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.json").write_text(json.dumps(settings))
    result = hw(empty_dir, "adopt")
    assert result.code == 0, result.err
    assert (empty_dir / "hookwrap.toml").read_text().count("[hooks.check") == 1
    data = read_json(empty_dir, ".claude/settings.json")["hooks"]["PreToolUse"]
    assert [h["command"] for g in data for h in g["hooks"]] == [
        'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py check --platform claude']


def test_adopt_leaves_an_event_list_it_moves_nothing_out_of(empty_dir: Path) -> None:
    """Only the groups and events adopt empties go; a list the user left empty stays, in place."""
    settings = {"hooks": {"Stop": [], "PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./hooks/check.sh"}]}]}}
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.json").write_text(json.dumps(settings))
    assert hw(empty_dir, "adopt").code == 0
    hooks = read_json(empty_dir, ".claude/settings.json")["hooks"]
    assert list(hooks) == ["Stop", "PreToolUse"] and hooks["Stop"] == []


def test_a_fail_closed_hook_with_a_short_timeout_blocks_on_every_cli(empty_dir: Path) -> None:
    """The bridge gives up on the command inside the timeout each CLI was given (seconds,
    Gemini's milliseconds), so its block arrives before the CLI kills it and fails open.

    Each CLI's run waits about its answer limit (the shortest timeout a user can set, 1 s: the
    bridge answers at 0.6 s): `hookwrap test -p CLI`'s runs are made side by side (the core of
    `hookwrap test`; they wait, they do not compute), and `hookwrap test` itself shows one."""
    from concurrent.futures import ThreadPoolExecutor

    from hookwrap.checks.hooktest import run_hook_test
    from hookwrap.platforms import Platform

    platforms = [arg for p in Platform for arg in ("-p", p.value)]
    assert hw(empty_dir, "init", *platforms).code == 0
    assert hw(empty_dir, "add", "before_tool", "slow", "--command", "sleep 30", "--timeout",
              "1", "--fail-closed").code == 0
    with ThreadPoolExecutor(max_workers=len(Platform)) as pool:
        reports = list(pool.map(lambda p: run_hook_test(empty_dir, "slow", platform=p.value), Platform))
    tests = {test.platform: test for report in reports for test in report.tests}
    assert set(tests) == {p.value for p in Platform}, tests
    for platform, test in tests.items():
        assert test.summary.startswith("blocked"), (platform, test.summary)
        if platform != "claude":
            # Claude Code runs the command itself (pass-through): its own timeout and onFailure
            # block. Every other CLI gets the bridge's answer, in time.
            assert test.result is not None and not test.result.timed_out, (platform, test.result)
            assert "was killed" not in " ".join([test.summary, *test.problems, *test.notes]), test
    result = hw(empty_dir, "test", "slow", "-p", "gemini")
    assert result.out.startswith("gemini: blocked"), result.out
    assert "was killed" not in result.out, result.out


def test_adopt_never_overwrites_a_script_hookwrap_did_not_write(team_repo: Path) -> None:
    mine = team_repo / ".hookwrap/hooks/no-force.py"
    mine.parent.mkdir(parents=True, exist_ok=True)
    content = b"# my own no-force hook\r\nprint('mine')\n"
    mine.write_bytes(content)
    dry = hw(team_repo, "adopt", "--dry-run")
    assert dry.code == 0, dry.err
    assert "would create  .hookwrap/hooks/no-force-2.py" in dry.out
    assert "no-force.py" not in dry.out.replace("no-force.py --platform", "")
    result = hw(team_repo, "adopt")
    assert result.code == 0, result.err
    assert mine.read_bytes() == content
    assert "[hooks.no-force-2]" in (team_repo / "hookwrap.toml").read_text()
    assert "[hooks.no-force]" not in (team_repo / "hookwrap.toml").read_text()


@pytest.mark.parametrize(("event", "group", "why"), [
    ("SubagentStop", {"hooks": [{"type": "command", "command": "./hooks/sub.sh"}]},
     "registers on Claude Code as Stop"),
    ("Notification", {"matcher": "permission_prompt",
                      "hooks": [{"type": "command", "command": "./hooks/notify.sh"}]},
     "its matcher 'permission_prompt' cannot be carried"),
])
def test_an_entry_that_would_run_at_another_time_stays(empty_dir: Path, event: str,
                                                        group: dict, why: str) -> None:
    moved = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./hooks/check.sh"}]}
    settings = {"hooks": {event: [group], "PreToolUse": [moved]}}
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.json").write_text(json.dumps(settings))
    result = hw(empty_dir, "adopt")
    assert result.code == 0, result.err
    assert f"hooks.{event}[0].hooks[0]" in result.err and why in result.err
    data = read_json(empty_dir, ".claude/settings.json")["hooks"]
    assert data[event] == [group]
    manifest = (empty_dir / "hookwrap.toml").read_text()
    assert "[hooks.check]" in manifest and "sub.sh" not in manifest and "notify" not in manifest


def test_adopt_from_gemini_takes_named_and_described_handlers(empty_dir: Path) -> None:
    """Gemini CLI's own examples give every handler a name and a description: labels only."""
    (empty_dir / ".gemini").mkdir()
    settings = {"hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
        {"name": "secret-scan", "type": "command", "command": "./hooks/scan.sh",
         "timeout": 5000, "description": "Blocks writes containing secrets"}]}]}}
    (empty_dir / ".gemini/settings.json").write_text(json.dumps(settings))
    assert hw(empty_dir, "init", "-p", "gemini", "-p", "claude").code == 0
    result = hw(empty_dir, "adopt", "--from", "gemini")
    assert result.code == 0, result.err
    assert "stays" not in result.err
    manifest = (empty_dir / "hookwrap.toml").read_text()
    assert ('[hooks.scan]\nevent = "before_tool"\nmatcher = "write_file|edit_file"\n'
            'platforms = ["gemini", "claude"]\ntimeout = 5\ncommand = "./hooks/scan.sh"\n'
            'speaks = "gemini"\n') in manifest


def test_adopt_from_copilot_is_refused(empty_dir: Path) -> None:
    assert hw(empty_dir, "init", "-p", "copilot", "-p", "claude").code == 0
    before = snapshot_without_lock(empty_dir)
    result = hw(empty_dir, "adopt", "--from", "copilot")
    assert result.code == 2
    assert ".github/hooks/hookwrap.json is hookwrap's own file" in result.err
    assert "--speaks copilot" in result.err
    assert snapshot_without_lock(empty_dir) == before
