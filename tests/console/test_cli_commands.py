"""Every command through `hookwrap.console.app.main` (CliRunner stream isolation): happy paths with their
exact output, error paths with exit code, message and hint, --help, --dry-run and sync --check."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support.cli import (
    CLAUDE,
    GEMINI,
    GEMINI_NOTE,
    MANIFEST,
    RUNTIME_FILES,
    hw,
    hw_module,
    owned_names,
    read_json,
    snapshot,
    write_json,
)

import hookwrap
from hookwrap.generator.manifest import Manifest, new_manifest_text
from hookwrap.platforms import NormalizedEvent

SRC = Path(hookwrap.__file__).resolve().parent
VALID_EVENTS = ", ".join(e.value for e in NormalizedEvent)
OTHERS = [p.value for p in hookwrap.Platform
          if p.value not in ("claude", "gemini")]  # every CLI but the default two, in order
INIT_LINES = [
    "create  hookwrap.toml",
    *[f"create  .hookwrap/lib/hookwrap/{module}" for module in RUNTIME_FILES],
    "create  .hookwrap/lib/run.py",
    "create  .hookwrap/lib/_hookwrap_launcher.py",
    "create  .hookwrap/.gitignore",
    "note: platforms: claude, gemini (the default: the repo has no CLI's folder yet)",
    f"note: hookwrap also supports {', '.join(OTHERS[:-1])} and {OTHERS[-1]}; add one with "
    "`hookwrap init --platform NAME`",
]
IN_SYNC = "nothing to change: everything matches hookwrap.toml"


def claude_group(root: Path, event: str, name: str) -> dict:
    for group in read_json(root, CLAUDE)["hooks"][event]:
        if any(f"/run.py {name} " in h["command"] for h in group["hooks"]):
            return group
    raise AssertionError(f"{name} not registered under {event}")


def gemini_group(root: Path, event: str, name: str) -> dict:
    for group in read_json(root, GEMINI)["hooks"][event]:
        if any(h.get("name") == name for h in group["hooks"]):
            return group
    raise AssertionError(f"{name} not registered under {event}")


# --- init -------------------------------------------------------------------------------------

def test_init_in_a_plain_directory_creates_the_manifest_and_the_runtime(empty_dir: Path) -> None:
    result = hw(empty_dir, "init")
    assert (result.code, result.out_lines, result.err) == (0, INIT_LINES, "")
    manifest = (empty_dir / MANIFEST).read_text()
    assert manifest == new_manifest_text()
    assert manifest.startswith("# hookwrap.toml") and manifest.count("\n#") > 10
    assert Manifest.loads(manifest).hooks == []
    for module in RUNTIME_FILES:
        assert (empty_dir / ".hookwrap/lib/hookwrap" / module).read_bytes() == (SRC / module).read_bytes()
    assert (empty_dir / ".hookwrap/lib/run.py").read_bytes() == (SRC / "launcher_stub.py").read_bytes()
    assert (empty_dir / ".hookwrap/lib/_hookwrap_launcher.py").read_bytes() == (SRC / "launcher.py").read_bytes()
    assert "logs/" in (empty_dir / ".hookwrap/.gitignore").read_text()
    # No hooks yet: no settings file is created for nothing.
    assert not (empty_dir / ".claude").exists() and not (empty_dir / ".gemini").exists()


def test_init_in_a_git_repo(empty_dir: Path) -> None:
    subprocess.run(["git", "init", "-q", str(empty_dir)], check=True)
    result = hw(empty_dir, "init")
    assert (result.code, result.out_lines) == (0, INIT_LINES)
    assert (empty_dir / ".git").is_dir()


def test_init_platform_all_lists_every_cli(empty_dir: Path) -> None:
    result = hw(empty_dir, "init", "--platform", "all")
    assert result.code == 0, result.err
    platforms = Manifest.loads((empty_dir / MANIFEST).read_text()).platforms
    assert [p.value for p in platforms] == [p.value for p in hookwrap.Platform]


def test_init_again_changes_nothing(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    before = snapshot(project)
    result = hw(project, "init")
    assert (result.code, result.out_lines, result.err) == (0, [IN_SYNC], "")
    assert snapshot(project) == before


def test_init_keeps_an_existing_manifest_and_foreign_settings(empty_dir: Path) -> None:
    manifest = ("# team hooks, keep this comment\nversion = 1\n\n"
                "[hooks.guard]  # the guard\nevent = \"before_tool\"\ntemplate = \"guard\"\n")
    (empty_dir / MANIFEST).write_text(manifest)
    write_json(empty_dir, CLAUDE, {"model": "opus", "hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "notify-send done"}]}]}})
    result = hw(empty_dir, "init")
    assert result.code == 0, result.err
    assert "create  .hookwrap/hooks/guard.py: script was missing" in result.out_lines
    assert (empty_dir / MANIFEST).read_text() == manifest
    data = read_json(empty_dir, CLAUDE)
    assert list(data) == ["model", "hooks"]
    assert list(data["hooks"]) == ["Stop", "PreToolUse", "PreSkillShellCommand"]
    assert data["hooks"]["Stop"][0]["hooks"][0]["command"] == "notify-send done"


@pytest.mark.parametrize("command", ["init", "sync"])
def test_init_and_sync_refresh_an_outdated_runtime(project: Path, command: str) -> None:
    runtime = project / ".hookwrap/lib/hookwrap"
    (runtime / "runner.py").write_text("# an older hookwrap's runner\n")
    (runtime / "legacy.py").write_text("# a module older versions shipped\n")
    result = hw(project, command)
    assert result.code == 0, result.err
    assert result.out_lines == ["update  .hookwrap/lib/hookwrap/runner.py",
                                "remove  .hookwrap/lib/hookwrap/legacy.py: not part of this runtime"]
    assert (runtime / "runner.py").read_bytes() == (SRC / "runner.py").read_bytes()
    assert not (runtime / "legacy.py").exists()


# --- add --------------------------------------------------------------------------------------

def test_add_guard_output_and_files(project: Path) -> None:
    result = hw(project, "add", "before_tool", "guard")
    assert result.code == 0, result.err
    assert result.out_lines == [
        "create  .hookwrap/hooks/guard.py",
        "update  hookwrap.toml",
        "create  .claude/settings.json: create guard (PreToolUse); create guard (PreSkillShellCommand)",
        "create  .gemini/settings.json: create guard (BeforeTool)",
        GEMINI_NOTE,
    ]
    assert result.err == ""
    assert claude_group(project, "PreToolUse", "guard") == {
        "matcher": "Bash|PowerShell|Write|Edit|Read",
        "hooks": [{"type": "command",
                   "command": 'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py guard '
                              '--fail-closed=7 --platform claude',
                   "timeout": 10, "onFailure": "block"}]}
    group = gemini_group(project, "BeforeTool", "guard")
    assert group["matcher"] == "^(run_shell_command|write_file|replace|read_file)$"
    handler = group["hooks"][0]
    assert handler["name"] == "guard" and handler["description"].startswith("hookwrap guard: ")
    assert handler["command"] == ('python3 "${GEMINI_PROJECT_DIR}/.hookwrap/lib/run.py" guard '
                                  '--fail-closed=7 --platform gemini')
    assert handler["timeout"] == 10000
    spec = Manifest.load(project / MANIFEST).get("guard")
    assert (spec.event, spec.template, spec.matcher) == ("before_tool", "guard", "shell|write_file|edit_file|read_file")


def test_add_keeps_manifest_comments(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    text = (project / MANIFEST).read_text()
    assert text.startswith(new_manifest_text())
    assert "[hooks.guard]" in text[len(new_manifest_text()):]


def test_add_second_hook_updates_existing_settings(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    result = hw(project, "add", "session_start", "context")
    assert result.out_lines == [
        "create  .hookwrap/hooks/context.py",
        "create  .hookwrap/context.md",
        "update  hookwrap.toml",
        "update  .claude/settings.json: create context (SessionStart)",
        "update  .gemini/settings.json: create context (SessionStart)",
        GEMINI_NOTE,
    ]
    # Claude Code runs the guard before tools and before skills' inline shell commands.
    assert owned_names(project, CLAUDE) == ["guard", "guard", "context"]


@pytest.mark.parametrize("matcher, claude, gemini", [
    ("shell|write_file|edit_file", "Bash|PowerShell|Write|Edit",
     "^(run_shell_command|write_file|replace)$"),
    ("shell", "Bash|PowerShell", "^run_shell_command$"),
    ("read_file", "Read", "^read_file$"),
])
def test_add_translates_the_matcher_per_platform(project: Path, matcher: str, claude: str, gemini: str) -> None:
    result = hw(project, "add", "before_tool", "check", "--matcher", matcher)
    assert result.code == 0, result.err
    assert claude_group(project, "PreToolUse", "check")["matcher"] == claude
    assert gemini_group(project, "BeforeTool", "check")["matcher"] == gemini
    assert Manifest.load(project / MANIFEST).get("check").template == "skeleton"


def test_add_lifecycle_event_takes_an_exact_matcher(project: Path) -> None:
    assert hw(project, "add", "session_start", "boot", "--matcher", "startup").code == 0
    assert claude_group(project, "SessionStart", "boot")["matcher"] == "startup"
    assert gemini_group(project, "SessionStart", "boot")["matcher"] == "startup"


def test_add_lifecycle_event_without_matcher_has_no_matcher_key(project: Path) -> None:
    assert hw(project, "add", "session_end", "bye").code == 0
    assert "matcher" not in claude_group(project, "SessionEnd", "bye")
    assert "matcher" not in gemini_group(project, "SessionEnd", "bye")


def test_add_warns_where_a_lifecycle_matcher_is_dropped(empty_dir: Path) -> None:
    # Copilot CLI and OpenCode have no session_start matcher: the hook runs on every start there.
    assert hw(empty_dir, "init", "-p", "claude", "-p", "copilot", "-p", "opencode").code == 0
    result = hw(empty_dir, "add", "session_start", "s", "--matcher", "startup")
    assert result.code == 0
    assert result.err_lines == [
        "warning: Copilot CLI has no matcher on session_start: the hook runs on every session_start there",
        "warning: OpenCode has no matcher on session_start: the hook runs on every session_start there"]
    assert claude_group(empty_dir, "SessionStart", "s")["matcher"] == "startup"
    quiet = hw(empty_dir, "add", "session_start", "t", "--matcher", "startup", "-p", "claude")
    assert (quiet.code, quiet.err_lines) == (0, [])


def test_add_event_missing_on_a_platform_warns_and_registers_on_the_other(project: Path) -> None:
    result = hw(project, "add", "before_model", "m")
    assert result.code == 0
    assert result.err_lines == [
        "warning: Claude Code has no before_model event: m is registered on Gemini CLI only"]
    assert result.out_lines == [
        "create  .hookwrap/hooks/m.py",
        "update  hookwrap.toml",
        "create  .gemini/settings.json: create m (BeforeModel)",
        GEMINI_NOTE,
    ]
    assert not (project / CLAUDE).exists()
    assert owned_names(project, GEMINI) == ["m"]


def test_add_timeout_is_seconds_on_claude_and_ms_on_gemini(project: Path) -> None:
    assert hw(project, "add", "after_tool", "fmt", "--template", "format", "--timeout", "7").code == 0
    assert claude_group(project, "PostToolUse", "fmt")["hooks"][0]["timeout"] == 7
    assert gemini_group(project, "AfterTool", "fmt")["hooks"][0]["timeout"] == 7000
    assert Manifest.load(project / MANIFEST).get("fmt").timeout == 7


@pytest.mark.parametrize("platform, present, absent", [("claude", CLAUDE, GEMINI), ("gemini", GEMINI, CLAUDE)])
def test_add_on_one_platform(project: Path, platform: str, present: str, absent: str) -> None:
    assert hw(project, "add", "before_tool", "guard", "--platform", platform).code == 0
    assert set(owned_names(project, present)) == {"guard"}
    assert not (project / absent).exists()
    assert Manifest.load(project / MANIFEST).get("guard").platforms == (platform,)


@pytest.mark.parametrize("name", ["a", "x-y_z9", "a" * 64])
def test_add_accepts_valid_names(project: Path, name: str) -> None:
    assert hw(project, "add", "before_tool", name).code == 0
    assert (project / f".hookwrap/hooks/{name}.py").is_file()


def test_add_from_a_subdirectory_finds_the_project(project: Path) -> None:
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    assert hw(sub, "add", "before_tool", "guard").code == 0
    assert (project / ".hookwrap/hooks/guard.py").is_file()
    assert not (sub / ".hookwrap").exists()


NAME_HINT = "hint: use 1-64 characters: a lower-case letter, then a-z, 0-9, '_' or '-'"
ADD_ERRORS = [
    (["bogus", "x"], ['error: "bogus" is not an event', f"hint: valid events: {VALID_EVENTS}"]),
    (["before_tool", "Bad"], ["error: 'Bad' is not a valid hook name", NAME_HINT]),
    (["before_tool", "1abc"], ["error: '1abc' is not a valid hook name", NAME_HINT]),
    (["before_tool", "a.b"], ["error: 'a.b' is not a valid hook name", NAME_HINT]),
    (["before_tool", "a" * 65], [f"error: '{'a' * 65}' is not a valid hook name", NAME_HINT]),
    (["before_tool", "guard"], ["error: a hook named 'guard' is already in hookwrap.toml",
                                "hint: choose another name, or `hookwrap remove guard` first"]),
    (["before_tool", "x", "--matcher", "shell||write_file"],
     ["error: matcher 'shell||write_file' has an empty name",
      "hint: separate tool names with a single |, e.g. shell|write_file"]),
    (["before_tool", "x", "--matcher", "sh ell"],
     ["error: matcher 'sh ell': 'sh ell' is not a tool name",
      "hint: use normalized tool names such as shell, write_file, edit_file"]),
    (["session_start", "x", "--matcher", "startup|resume"],
     ["error: Gemini CLI matches session_start by one exact value; 'startup|resume' would match nothing",
      "hint: give one value, or add a separate hook per value"]),
    (["session_start", "x", "--matcher", "bogus"],
     ["error: Claude Code never sends session_start with 'bogus'",
      "hint: use one of: startup, resume, clear, compact, fork"]),
    (["after_agent", "x", "--matcher", "shell"],
     ["error: after_agent has no matcher on these platforms: it runs every time", "hint: drop the matcher"]),
    (["before_tool", "x", "--template", "nope"],
     ["error: 'nope' is not a template", "hint: templates: guard, context, audit, stop_gate, format, skeleton"]),
    (["session_start", "x", "--template", "guard"],
     ["error: the guard template does not handle session_start", "hint: valid events for guard: before_tool"]),
    (["before_model", "x", "--platform", "claude"],
     ["error: before_model exists on none of the chosen platforms",
      "hint: x: Claude Code has no before_model event; not registered there"]),
]


@pytest.mark.parametrize("args, err", ADD_ERRORS, ids=[" ".join(a)[:40] for a, _ in ADD_ERRORS])
def test_add_errors_exit_with_message_and_hint_and_write_nothing(project: Path, args: list[str],
                                                                  err: list[str]) -> None:
    hw(project, "add", "before_tool", "guard")
    before = snapshot(project)
    result = hw(project, "add", *args)
    # A wrong argument value is a usage error (2); a clash with the project's state is 1.
    code = 1 if "already in hookwrap.toml" in err[0] else 2
    assert (result.code, result.out, result.err_lines) == (code, "", err)
    assert snapshot(project) == before


@pytest.mark.parametrize("value", ["0", "-5"])
def test_add_non_positive_timeout_is_refused(project: Path, value: str) -> None:
    before = snapshot(project)
    result = hw(project, "add", "before_tool", "x", "--timeout", value)
    assert result.code == 2
    assert result.err_lines[0] == f"error: {value} is not a positive whole number of seconds"
    assert snapshot(project) == before


def test_add_non_positive_timeout_error_has_a_hint(project: Path) -> None:
    result = hw(project, "add", "before_tool", "x", "--timeout", "0")
    assert len(result.err_lines) == 2 and result.err_lines[1].startswith("hint: ")


def test_add_refuses_to_overwrite_a_script_it_did_not_write(project: Path) -> None:
    script = project / ".hookwrap/hooks/guard.py"
    script.parent.mkdir(parents=True)
    script.write_text("# mine\n")
    before = snapshot(project)
    result = hw(project, "add", "before_tool", "guard")
    assert (result.code, result.err_lines) == (1, [
        "error: .hookwrap/hooks/guard.py already exists and hookwrap did not write it",
        "hint: move it away or pick another hook name"])
    assert snapshot(project) == before


# --- remove -----------------------------------------------------------------------------------

def test_remove_deletes_script_manifest_entry_and_both_registrations(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    result = hw(project, "remove", "guard")
    assert (result.code, result.err) == (0, "")
    assert result.out_lines == [
        "remove  .hookwrap/hooks/guard.py",
        "update  hookwrap.toml",
        "remove  .claude/settings.json: remove guard (PreToolUse, PreSkillShellCommand)",
        "remove  .gemini/settings.json: remove guard (BeforeTool)",
    ]
    assert Manifest.load(project / MANIFEST).hooks == []
    assert not (project / ".hookwrap/hooks/guard.py").exists()


def test_remove_of_the_last_hook_leaves_no_folder_it_emptied(empty_dir: Path) -> None:
    assert hw(empty_dir, "init", "--platform", "all").code == 0
    (empty_dir / ".claude").mkdir()
    (empty_dir / ".claude/settings.local.json").write_text("{}\n")  # the user's own file
    (empty_dir / ".codex/keep").mkdir(parents=True)                 # an empty folder of theirs
    assert hw(empty_dir, "add", "before_tool", "guard").code == 0
    assert hw(empty_dir, "add", "after_tool", "audit").code == 0
    assert hw(empty_dir, "remove", "guard").code == 0
    assert (empty_dir / ".gemini/settings.json").is_file()  # audit still needs it
    assert hw(empty_dir, "remove", "audit").code == 0
    left = sorted(p.relative_to(empty_dir).as_posix() for p in empty_dir.rglob("*")
                  if ".hookwrap/lib" not in p.as_posix())
    assert left == [".claude", ".claude/settings.local.json", ".codex", ".codex/keep", ".hookwrap",
                    ".hookwrap/.gitignore", ".hookwrap/.lock", MANIFEST]


def test_add_then_remove_gives_back_the_manifest_init_wrote(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    hw(project, "remove", "guard")
    assert (project / MANIFEST).read_text() == new_manifest_text()


def test_remove_keeps_other_hooks(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    hw(project, "add", "before_tool", "audit")
    assert hw(project, "remove", "guard").code == 0
    assert owned_names(project, CLAUDE) == ["audit", "audit"]  # PreToolUse, PreSkillShellCommand
    assert owned_names(project, GEMINI) == ["audit"]
    assert [s.name for s in Manifest.load(project / MANIFEST).hooks] == ["audit"]


def test_remove_keeps_an_edited_context_file(project: Path) -> None:
    hw(project, "add", "session_start", "context")
    (project / ".hookwrap/context.md").write_text("our conventions\n")
    result = hw(project, "remove", "context")
    assert result.code == 0
    assert "note: kept .hookwrap/context.md: it was edited (delete it by hand if unneeded)" in result.out_lines
    assert (project / ".hookwrap/context.md").read_text() == "our conventions\n"


def test_add_then_remove_restores_each_settings_file(project: Path) -> None:
    claude = {"permissions": {"allow": ["Bash(ls)"]}, "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}]}, "model": "opus"}
    gemini = {"general": {"vimMode": True}, "hooks": {"BeforeTool": [
        {"matcher": "read_file", "hooks": [{"type": "command", "command": "echo hi", "name": "hi"}]}]}}
    write_json(project, CLAUDE, claude)
    write_json(project, GEMINI, gemini)
    before = {rel: (project / rel).read_bytes() for rel in (CLAUDE, GEMINI, MANIFEST)}
    for event, name in [("before_tool", "guard"), ("session_start", "context"), ("after_tool", "format")]:
        assert hw(project, "add", event, name).code == 0
    assert owned_names(project, CLAUDE) == ["guard", "guard", "context", "format"]
    for name in ["context", "guard", "format"]:
        assert hw(project, "remove", name).code == 0
    assert {rel: (project / rel).read_bytes() for rel in (CLAUDE, GEMINI, MANIFEST)} == before
    top = project / ".hookwrap"
    assert sorted(p.relative_to(top).as_posix() for p in top.rglob("*.py")) \
        == sorted([*(f"lib/hookwrap/{module}" for module in RUNTIME_FILES), "lib/run.py",
                   "lib/_hookwrap_launcher.py"])


def test_remove_unknown_hook(project: Path) -> None:
    before = snapshot(project)
    result = hw(project, "remove", "nope")
    assert (result.code, result.err_lines) == (1, ["error: no hook named 'nope' in hookwrap.toml",
                                                   "hint: `hookwrap list` shows the hooks"])
    assert snapshot(project) == before


# --- list -------------------------------------------------------------------------------------

def test_list_table(project: Path) -> None:
    for args in (["before_tool", "guard"], ["session_start", "context"], ["before_model", "m"]):
        hw(project, "add", *args)
    result = hw(project, "list")
    assert (result.code, result.err) == (0, "")
    assert result.out_lines == [
        "NAME     EVENT          MATCHER                               CLAUDE        GEMINI",
        "guard    before_tool    shell|write_file|edit_file|read_file  current       current",
        "context  session_start  *                                     current       current",
        "m        before_model   *                                     not selected  current",
    ]


def test_list_empty(project: Path) -> None:
    result = hw(project, "list")
    assert (result.code, result.out_lines) == (0, ["no hooks yet: try `hookwrap add before_tool guard`"])


def test_list_json(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    hw(project, "add", "before_tool", "audit", "--matcher", "shell", "--platform", "gemini")
    result = hw(project, "list", "--json")
    assert result.code == 0
    rows = json.loads(result.out)
    assert isinstance(rows, list) and [r["name"] for r in rows] == ["guard", "audit"]
    guard, audit = rows
    assert (guard["event"], guard["matcher"]) == ("before_tool", "shell|write_file|edit_file|read_file")
    assert guard["platforms"]["claude"] == {"status": "current", "registered": True, "current": True,
                                            "event": "PreToolUse",
                                            "matcher": "Bash|PowerShell|Write|Edit|Read"}
    assert guard["platforms"]["gemini"]["matcher"] == "^(run_shell_command|write_file|replace|read_file)$"
    assert audit["platforms"]["claude"]["status"] == "not selected"
    assert audit["platforms"]["claude"]["registered"] is False
    assert audit["platforms"]["gemini"]["current"] is True


# --- test -------------------------------------------------------------------------------------

def test_test_platform_repeats_as_on_the_other_commands(project: Path) -> None:
    hw(project, "add", "after_tool", "audit", "--matcher", "shell")
    result = hw(project, "test", "audit", "-p", "gemini", "-p", "claude", "--tool", "shell",
                "--input", '{"command": "ls"}')
    assert (result.code, result.out_lines) == (0, ["gemini: allowed", "claude: allowed"])
    assert [line.split(":")[0] for line in result.err_lines] == ["gemini", "claude"]


# --- sync -------------------------------------------------------------------------------------

def test_sync_in_sync_prints_nothing_to_change_and_writes_nothing(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    before = snapshot(project)
    for args in (["sync"], ["sync", "--check"], ["sync", "--dry-run"]):
        result = hw(project, *args)
        assert (result.code, result.out_lines, result.err) == (0, [IN_SYNC], "")
    assert snapshot(project) == before


def test_sync_check_reports_the_difference_and_exits_1(project: Path) -> None:
    hw(project, "add", "before_tool", "guard")
    (project / CLAUDE).unlink()
    before = snapshot(project)
    result = hw(project, "sync", "--check")
    assert result.code == 1
    assert result.out_lines == ["would create  .claude/settings.json: create guard (PreToolUse); "
                                "create guard (PreSkillShellCommand)"]
    assert result.err_lines == ["hint: run `hookwrap sync` to fix"]
    assert snapshot(project) == before
    fixed = hw(project, "sync")
    assert (fixed.code, fixed.out_lines) == (0, [
        "create  .claude/settings.json: create guard (PreToolUse); create guard (PreSkillShellCommand)"])
    assert hw(project, "sync", "--check").code == 0


# --- --dry-run --------------------------------------------------------------------------------

@pytest.mark.parametrize("args, first_line", [
    (["add", "before_tool", "guard"], "would create  .hookwrap/hooks/guard.py"),
    (["remove", "audit"], "would remove  .hookwrap/hooks/audit.py"),
    (["sync"], "would create  .gemini/settings.json: create audit (BeforeTool)"),
    (["init"], "would create  .gemini/settings.json: create audit (BeforeTool)"),
])
def test_dry_run_prints_the_plan_and_writes_nothing(project: Path, args: list[str], first_line: str) -> None:
    hw(project, "add", "before_tool", "audit")
    (project / GEMINI).unlink()
    before = snapshot(project)
    result = hw(project, *args, "--dry-run")
    assert result.code == 0, result.err
    assert result.out_lines[0] == first_line
    assert all(line.startswith("would ") or line == GEMINI_NOTE for line in result.out_lines)
    assert snapshot(project) == before


@pytest.mark.parametrize("args", [["init"], ["add", "before_tool", "guard"], ["sync"]])
def test_dry_run_in_a_fresh_checkout_creates_nothing(empty_dir: Path, args: list[str]) -> None:
    if args != ["init"]:  # a teammate's clone: the manifest is committed, .hookwrap/.lock is git-ignored
        hw(empty_dir, "init")
        (empty_dir / ".hookwrap/.lock").unlink()
    before = snapshot(empty_dir)
    result = hw(empty_dir, *args, "--dry-run")
    assert result.code == 0
    assert snapshot(empty_dir) == before


# --- outside a project, help, usage errors, exit codes ----------------------------------------

@pytest.mark.parametrize("args", [["add", "before_tool", "guard"], ["remove", "guard"], ["list"],
                                  ["sync"], ["sync", "--check"]])
def test_commands_outside_a_project(empty_dir: Path, args: list[str]) -> None:
    result = hw(empty_dir, *args)
    assert (result.code, result.out) == (1, "")
    assert result.err_lines == [f"error: no hookwrap.toml in {empty_dir} or any parent directory",
                                "hint: run `hookwrap init` at the root of your project first"]
    assert list(empty_dir.iterdir()) == []


@pytest.mark.parametrize("args", [["init"], ["list"], ["sync", "--check"], ["doctor"],
                                  ["adopt", "--dry-run"]], ids=" ".join)
def test_a_directory_that_does_not_exist_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "no such folder"
    result = hw(missing, *args)
    assert (result.code, result.out) == (2, "")
    assert result.err_lines == [f"error: -C {missing}: does not exist",
                                "hint: give -C the project's folder (or one inside it)"]
    assert not missing.exists()
    (tmp_path / "a file").write_text("")
    result = hw(tmp_path / "a file", *args)
    assert (result.code, result.err_lines[0]) == (2, f"error: -C {tmp_path / 'a file'}: is not a directory")


@pytest.mark.parametrize("command, options", [
    ([], ["-C, --directory", "--version"]),
    (["init"], ["--dry-run"]),
    (["add"], ["--template", "--matcher", "--platform", "--timeout", "--dry-run", "claude|gemini|codex|qwen|copilot|opencode|droid|pi|kilo|cline|all"]),
    (["remove"], ["--dry-run"]),
    (["list"], ["--json"]),
    (["sync"], ["--check", "--dry-run"]),
])
def test_help_mentions_every_option(empty_dir: Path, command: list[str], options: list[str]) -> None:
    result = hw(empty_dir, *command, "--help")
    assert result.code == 0
    assert result.out.startswith(f"Usage: hookwrap {' '.join(command)}".rstrip() + " ")
    for option in options:
        assert option in result.out


def test_version(empty_dir: Path) -> None:
    result = hw(empty_dir, "--version")
    assert (result.code, result.out_lines) == (0, [f"hookwrap {hookwrap.__version__}"])


USAGE_ERRORS = [
    ["add"],
    ["add", "before_tool"],
    ["add", "before_tool", "x", "--timeout", "abc"],
    ["add", "before_tool", "x", "--platform", "nope"],
    ["add", "before_tool", "x", "--bogus"],
    ["remove"],
    ["bogus"],
    [],
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=[" ".join(a) or "(none)" for a in USAGE_ERRORS])
def test_usage_errors_exit_2_without_a_traceback(project: Path, args: list[str]) -> None:
    before = snapshot(project)
    result = hw(project, *args)
    assert result.code == 2
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert "Usage: hookwrap" in result.err + result.out
    assert snapshot(project) == before


def test_usage_errors_never_write(project: Path) -> None:
    before = snapshot(project)
    for args in USAGE_ERRORS:
        assert hw(project, *args).code != 0
    assert snapshot(project) == before


def test_usage_error_exit_code_from_python_m(project: Path) -> None:
    proc = hw_module(project, "add", "before_tool", "x", "--timeout", "abc")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_ctrl_c_exits_130(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hookwrap.generator.project

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(hookwrap.generator.project, "add_plan", interrupted)
    before = snapshot(project)
    result = hw(project, "add", "before_tool", "guard")
    assert result.code == 130 and "Traceback" not in result.err
    assert snapshot(project) == before


def test_internal_error_exits_3_with_a_hint(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hookwrap.generator.project

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(hookwrap.generator.project, "sync_plan", broken)
    result = hw(project, "sync")
    assert result.code == 3
    assert result.err_lines[-2:] == ["internal error: RuntimeError: boom",
                                     "hint: please report this with the traceback above"]


# The same bad value gets the same message and hint from the flag and from hookwrap.toml.
SAME_ERRORS = [
    (["before_tool", "x", "--matcher", "Bash"], 'matcher = "Bash"', "matcher",
     "'Bash' is Claude Code's name for 'shell'; matchers take normalized tool names",
     "hint: use shell (hookwrap writes each CLI's own names)"),
    (["session_start", "x", "--matcher", "bogus"], 'matcher = "bogus"', "matcher",
     "Claude Code never sends session_start with 'bogus'",
     "hint: use one of: startup, resume, clear, compact, fork"),
    (["before_tool", "x", "--matcher", "shell["], 'matcher = "shell["', "matcher",
     "matcher 'shell[' : 'shell[' is not a valid regex", None),
    (["before_tool", "x", "--timeout", "9999999"], "timeout = 9999999", "timeout",
     "9999999 seconds is longer than the CLIs' timers can hold (at most 2147483, about 24 days): "
     "the hook would time out at once and never run", "hint: e.g. timeout = 600"),
]


@pytest.mark.parametrize("args, line, key, message, hint", SAME_ERRORS,
                         ids=[" ".join(a[2:]) for a, *_ in SAME_ERRORS])
def test_a_flag_and_a_hand_edited_manifest_get_the_same_error(
        project: Path, args: list[str], line: str, key: str, message: str, hint: str | None) -> None:
    event = args[0]
    flag = hw(project, "add", *args)
    assert flag.code == 2
    manifest = project / "hookwrap.toml"
    manifest.write_text(manifest.read_text() + f'\n[hooks.x]\nevent = "{event}"\n{line}\n')
    before = snapshot(project)
    for command in (["sync"], ["sync", "--check"], ["list"]):
        read = hw(project, *command)
        assert read.code == 1, command
        first = read.err_lines[0]
        assert first.startswith(f"error: hookwrap.toml: hooks.x.{key}: "), first
        assert first.endswith(")") and "(line " in first
        body = first[len(f"error: hookwrap.toml: hooks.x.{key}: "):first.rindex(" (line ")]
        assert body == flag.err_lines[0][len("error: "):], command
        assert read.err_lines[1:] == flag.err_lines[1:]
    if hint is not None:
        assert flag.err_lines[1] == hint
    if "regex" not in message:
        assert flag.err_lines[0] == f"error: {message}"
    assert snapshot(project) == before
