"""`hookwrap --user`: the user manifest in the config folder, registrations in each CLI's user
file with the project scope's guarantees, the user file given back byte for byte, both scopes in
`list` and `doctor`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import hw

from hookwrap.generator.scope import user_root

# A user's Gemini settings: comments, odd spacing, a foreign hook (JSONC, as Gemini CLI reads it).
GEMINI_TEXT = ('// mine\n{ "ui":{"theme" : "ANSI"},\n  "hooks": {"BeforeTool": [ {"matcher": "x",'
               ' "hooks": [{"type": "command", "command": "my-check"}]} ]}  /* keep */\n}\n')
# Claude Code reads plain JSON: odd spacing and a foreign hook.
CLAUDE_TEXT = ('{"permissions":{"allow":["Bash(ls)"]},   "hooks": {"PreToolUse": [{"matcher": '
               '"Bash", "hooks": [{"type": "command", "command": "my-own.sh"}]}]}}')


@pytest.fixture
def user_files(isolated_home: Path) -> dict[str, Path]:
    files = {"gemini": isolated_home / ".gemini" / "settings.json",
             "claude": isolated_home / ".claude" / "settings.json"}
    for path in files.values():
        path.parent.mkdir()
    files["gemini"].write_text(GEMINI_TEXT, encoding="utf-8")
    files["claude"].write_text(CLAUDE_TEXT, encoding="utf-8")
    return files


def _user_guard(cwd: Path, *platforms: str) -> None:
    options = [word for p in platforms or ("all",) for word in ("--platform", p)]
    assert hw(cwd, "--user", "init", *options).code == 0
    result = hw(cwd, "--user", "add", "before_tool", "guard")
    assert result.code == 0, result.err


def _commands(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if '"command"' in line]


@pytest.mark.parametrize(("system", "env", "expected"), [
    ("linux", {"XDG_CONFIG_HOME": "/x/conf"}, "/x/conf/hookwrap"),
    ("linux", {"XDG_CONFIG_HOME": "relative/conf"}, "/h/.config/hookwrap"),
    ("linux", {}, "/h/.config/hookwrap"),
    ("darwin", {"XDG_CONFIG_HOME": "/x/conf"}, "/h/Library/Application Support/hookwrap"),
    ("win32", {"APPDATA": "/w/Roaming"}, "/w/Roaming/hookwrap"),
])
def test_the_user_folder_follows_the_platforms_convention(system: str, env: dict[str, str],
                                                          expected: str) -> None:
    assert user_root(env, Path("/h"), system) == Path(expected)


def test_user_hooks_go_to_each_clis_user_file_and_nothing_into_the_folder(
        tmp_path: Path, isolated_home: Path, user_files: dict[str, Path]) -> None:
    _user_guard(tmp_path)

    assert list(tmp_path.iterdir()) == []
    root = isolated_home / ".config" / "hookwrap"
    assert (root / ".hookwrap/hooks/guard.py").is_file()
    manifest = (root / "hookwrap.toml").read_text(encoding="utf-8")
    assert manifest.startswith("# hookwrap.toml: your agent hooks for every repo on this machine")
    assert "`hookwrap --user sync`\n# to write ~/.claude/settings.json, ~/.gemini/settings.json," \
        in manifest and "this repo" not in manifest
    launcher = root / ".hookwrap" / "lib" / "run.py"
    for rel, cli in ((".claude/settings.json", "claude"), (".gemini/settings.json", "gemini"),
                     (".codex/hooks.json", "codex"), (".qwen/settings.json", "qwen"),
                     (".copilot/hooks/hookwrap.json", "copilot"),
                     (".factory/settings.json", "droid")):
        mine = [c for c in _commands(isolated_home / rel) if str(launcher) in c]
        assert mine and all(f"--platform {cli} --user" in c for c in mine), rel
    # The user's own entries, keys and comments stay.
    gemini = user_files["gemini"].read_text(encoding="utf-8")
    assert gemini.startswith("// mine\n") and "/* keep */" in gemini and "my-check" in gemini
    assert "my-own.sh" in user_files["claude"].read_text(encoding="utf-8")
    assert hw(tmp_path, "--user", "sync", "--check").code == 0


def test_removing_the_last_user_hook_gives_each_user_file_back_byte_for_byte(
        tmp_path: Path, isolated_home: Path, user_files: dict[str, Path]) -> None:
    _user_guard(tmp_path)
    assert hw(tmp_path, "--user", "add", "session_start", "hello").code == 0
    assert hw(tmp_path, "--user", "remove", "guard").code == 0
    assert user_files["claude"].read_text(encoding="utf-8") != CLAUDE_TEXT  # hello is left
    assert hw(tmp_path, "--user", "remove", "hello").code == 0

    assert user_files["gemini"].read_text(encoding="utf-8") == GEMINI_TEXT
    assert user_files["claude"].read_text(encoding="utf-8") == CLAUDE_TEXT
    for rel in (".codex/hooks.json", ".qwen/settings.json", ".factory/settings.json",
                ".copilot/hooks/hookwrap.json"):
        assert not (isolated_home / rel).exists(), rel
    assert not (user_root() / ".hookwrap" / "originals").exists()


def test_an_edit_of_the_users_meanwhile_is_kept_when_the_last_user_hook_goes(
        tmp_path: Path, user_files: dict[str, Path]) -> None:
    _user_guard(tmp_path, "claude")
    data = json.loads(user_files["claude"].read_text(encoding="utf-8"))
    data["model"] = "mine"
    user_files["claude"].write_text(json.dumps(data), encoding="utf-8")

    assert hw(tmp_path, "--user", "remove", "guard").code == 0
    after = json.loads(user_files["claude"].read_text(encoding="utf-8"))
    assert after == {**json.loads(CLAUDE_TEXT), "model": "mine"}


def test_a_symlinked_user_file_is_written_through_and_a_dangling_one_refused(
        tmp_path: Path, isolated_home: Path, user_files: dict[str, Path]) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "claude.json"
    target.write_text(CLAUDE_TEXT, encoding="utf-8")
    user_files["claude"].unlink()
    user_files["claude"].symlink_to(target)
    _user_guard(tmp_path / "dotfiles", "claude")
    assert user_files["claude"].is_symlink() and "run.py guard" in target.read_text("utf-8")
    assert hw(tmp_path, "--user", "remove", "guard").code == 0
    assert user_files["claude"].is_symlink() and target.read_text("utf-8") == CLAUDE_TEXT

    gone = tmp_path / "nowhere" / "settings.json"
    user_files["claude"].unlink()
    user_files["claude"].symlink_to(gone)
    result = hw(tmp_path, "--user", "add", "before_tool", "guard")
    assert result.code == 1 and "symlink" in result.err, result.err
    assert not gone.parent.exists()


def test_a_cli_without_a_user_place_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every CLI has one (Cline 3.0.65's $CLINE_DIR/hooks/ the last found); one without says so."""
    from hookwrap.clis._record import derive
    from hookwrap.generator.clis import setup_of
    from hookwrap.names import Platform

    agent = setup_of(Platform.CLINE)
    monkeypatch.setattr(agent, "facts", derive(
        agent.facts, user_file="", user_file_note="it reads hooks from its workspace only"))
    result = hw(tmp_path, "--user", "init", "--platform", "cline")
    assert result.code == 2
    assert "Cline at user scope: it reads hooks from its workspace only" in result.err
    assert "hint: leave cline out of the user scope" in result.err
    assert not (user_root() / "hookwrap.toml").exists()
    out = hw(tmp_path, "--user", "init", "--platform", "all").out
    assert "note: platforms: claude, gemini, codex, qwen, copilot, opencode, droid, pi, kilo " \
           "(from --platform)" in out


def test_commands_without_a_user_scope_refuse_it(tmp_path: Path) -> None:
    for command in (("adopt",), ("serve", "--print-service", "systemd")):
        result = hw(tmp_path, "--user", *command)
        assert result.code == 2 and "works on a project only" in result.err, command


def test_user_commands_before_init_name_the_missing_user_manifest(tmp_path: Path) -> None:
    result = hw(tmp_path, "--user", "add", "before_tool", "guard")
    assert result.code == 1
    assert f"no user manifest: {user_root() / 'hookwrap.toml'} does not exist" in result.err
    assert "hint: run `hookwrap --user init` first" in result.err


def test_list_and_doctor_show_which_scopes_hook_runs(tmp_path: Path, user_files) -> None:
    _user_guard(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    assert hw(repo, "init").code == 0  # Claude Code and Gemini CLI
    assert hw(repo, "add", "before_tool", "guard").code == 0

    listed = hw(repo, "list", "--json")
    rows = {row["scope"]: row for row in json.loads(listed.out)}
    assert rows["user"]["platforms"]["claude"] == {**rows["user"]["platforms"]["claude"],
                                                   "status": "project's", "runs": False}
    assert rows["user"]["platforms"]["codex"]["status"] == "current"
    table = hw(repo, "list").out
    assert table.splitlines()[0].split()[:3] == ["NAME", "SCOPE", "EVENT"]

    doctor = hw(repo, "doctor", "--no-run").out
    assert "scopes: user hooks (" in doctor
    assert "guard runs on cline, codex, copilot, droid, kilo, opencode, pi, qwen; on claude, gemini " \
           "this project's guard runs instead" in doctor
    assert "duplicates: no hook is registered in two scopes" in doctor
    assert "lookalikes: no entry imitates" in doctor


def test_doctor_says_when_the_user_runtime_is_not_this_commands(tmp_path: Path) -> None:
    _user_guard(tmp_path, "claude")
    init = user_root() / ".hookwrap" / "lib" / "hookwrap" / "__init__.py"
    init.write_text(init.read_text("utf-8").replace('__version__ = "', '__version__ = "0.0.1'),
                    encoding="utf-8")
    doctor = hw(tmp_path, "--user", "doctor", "--no-run")
    assert "warn user-runtime: the user runtime" in doctor.out
    assert "is hookwrap 0.0.1" in doctor.out and "fix: run `hookwrap --user sync`" in doctor.out
    assert hw(tmp_path, "--user", "sync", "--check").code == 1
    assert hw(tmp_path, "--user", "sync").code == 0
    assert "ok   user-runtime" in hw(tmp_path, "--user", "doctor", "--no-run").out


def test_codex_user_hooks_are_trusted_by_their_user_file(tmp_path: Path,
                                                         isolated_home: Path) -> None:
    _user_guard(tmp_path, "codex")
    assert "fail codex-trust: Codex CLI skips the user hook guard" in \
        hw(tmp_path, "--user", "doctor", "--no-run").out
    result = hw(tmp_path, "--user", "trust")
    assert result.code == 0, result.err
    config = (isolated_home / ".codex" / "config.toml").read_text("utf-8")
    key = f'{(isolated_home / ".codex" / "hooks.json").resolve()}:pre_tool_use:0:0'
    assert f'[hooks.state."{key}"]' in config and "projects" not in config
    assert "ok   codex-trust" in hw(tmp_path, "--user", "doctor", "--no-run").out


CODEX_CONFIG = '# mine\nmodel = "o4"   # the one I use\n\n[projects."/somewhere"]\ntrust_level = "trusted"\n'


@pytest.mark.parametrize("edited", [False, True])
def test_the_user_trust_goes_with_the_last_codex_user_hook(tmp_path: Path, isolated_home: Path,
                                                           edited: bool) -> None:
    config = isolated_home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG, encoding="utf-8")
    _user_guard(tmp_path, "codex")
    assert hw(tmp_path, "--user", "trust").code == 0
    assert "trusted_hash" in config.read_text("utf-8")
    if edited:  # the user's own change meanwhile: kept, and so are hookwrap's entries
        config.write_text(config.read_text("utf-8") + 'approval_policy = "never"\n', "utf-8")
    result = hw(tmp_path, "--user", "remove", "guard")
    assert result.code == 0, result.err
    text = config.read_text("utf-8")
    if edited:
        assert "trusted_hash" in text and 'approval_policy = "never"' in text
        assert "the trust entries of the user hooks stay" in result.out
    else:
        assert text == CODEX_CONFIG
    assert not (user_root() / ".hookwrap" / "originals").exists()


def test_user_init_without_platform_takes_the_default_and_says_so(tmp_path: Path) -> None:
    out = hw(tmp_path, "--user", "init").out
    assert "note: platforms: claude, gemini (the default)" in out
    assert "add one with `hookwrap --user init --platform NAME`" in out


def test_a_user_guards_block_names_the_user_scopes_policy_and_command(tmp_path: Path) -> None:
    _user_guard(tmp_path, "claude")
    result = hw(tmp_path, "--user", "test", "guard", "--tool", "shell", "--input",
                '{"command": "git push --force"}')
    assert result.code == 0, result.err
    policy = user_root() / ".hookwrap" / "hooks" / "guard.py"
    assert f"(The policy is in {policy}; `hookwrap --user test guard --explain` shows why.)" \
        in result.out


def test_the_generated_shims_at_user_scope_run_the_user_folders_hooks(
        tmp_path: Path, isolated_home: Path) -> None:
    _user_guard(tmp_path, "opencode", "pi", "cline")
    root = json.dumps(str(user_root()))
    for rel in (".config/opencode/plugins/hookwrap.js", ".pi/agent/extensions/hookwrap.js"):
        text = (isolated_home / rel).read_text(encoding="utf-8")
        assert f"\nconst ROOT = {root};\n" in text and "fileURLToPath(import.meta" not in \
            text.split("const ROOT")[1].split("\n")[0], rel
        assert "HOOKWRAP_PROJECT_DIR: ROOT" not in text, rel
    hook_file = (isolated_home / ".cline" / "hooks" / "PreToolUse").read_text(encoding="utf-8")
    assert f"\nd={user_root()}\n" in hook_file
    assert '_cline_hooks.py" "$PWD" PreToolUse' in hook_file


def test_removing_the_last_user_hook_removes_the_folders_hookwrap_made_and_only_those(
        tmp_path: Path, isolated_home: Path, user_files: dict[str, Path]) -> None:
    (isolated_home / ".qwen").mkdir()  # the user's own, empty: it stays
    _user_guard(tmp_path)
    (isolated_home / ".factory" / "mine.txt").write_text("x", encoding="utf-8")  # made since
    assert hw(tmp_path, "--user", "remove", "guard").code == 0

    for rel in (".codex", ".copilot", ".pi", ".config/opencode", ".config/kilo", ".cline"):
        assert not (isolated_home / rel).exists(), rel
    for rel in (".gemini", ".claude", ".qwen", ".factory/mine.txt"):
        assert (isolated_home / rel).exists(), rel
