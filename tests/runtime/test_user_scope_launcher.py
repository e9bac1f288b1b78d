"""The launcher of a user-scope hook (`... run.py NAME --platform CLI --user`) steps aside where
the project the CLI works in registers a hook of the same name on that CLI: one run per call."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from test_old_pythons import PYTHONS

from hookwrap import launcher
from hookwrap.generator.clis import all_setups

MANIFESTS = {
    "default platforms": ('[hooks.guard]\nevent = "before_tool"\n', {"claude", "gemini"}),
    "top-level platforms": ('platforms = ["codex", "qwen"]  # ours\n\n[hooks.guard]\n'
                            'event = "before_tool"\n', {"codex", "qwen"}),
    "the hook's platforms": ('platforms = ["claude"]\n[hooks.guard]\nevent = "before_tool"\n'
                             "platforms = ['opencode', \"pi\"]\n", {"opencode", "pi"}),
    "a quoted name": ('[hooks."guard"]\nevent = "before_tool"\n', {"claude", "gemini"}),
    "another hook": ('[hooks.guard2]\nevent = "before_tool"\n# guard\n', set()),
    "no hook": ('platforms = ["claude"]\n', set()),
}


@pytest.mark.parametrize("case", MANIFESTS)
def test_the_clis_a_manifest_registers_a_hook_on(case: str) -> None:
    text, expected = MANIFESTS[case]
    assert set(launcher._registered_on(text.encode(), "guard")) == expected
    assert set(launcher._registered_on_39(text, "guard")) == expected


def _manifest(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hookwrap.toml").write_text(text, encoding="utf-8")
    return folder


def test_a_project_hook_of_the_same_name_wins_on_its_clis_only(tmp_path: Path) -> None:
    repo = _manifest(tmp_path / "repo", '[hooks.guard]\nevent = "before_tool"\n')
    below = repo / "src" / "deep"
    below.mkdir(parents=True)
    argv = ["run.py", "guard", "--platform", "codex"]
    codex = {"CODEX_HOME": str(_trusting(tmp_path / "codex", repo))}
    # Codex CLI names no project: the folders above the hooks' working folder.
    assert not launcher.project_wins("guard", argv, codex, str(below))
    _manifest(repo, 'platforms = ["codex"]\n[hooks.guard]\nevent = "before_tool"\n')
    assert launcher.project_wins("guard", argv, codex, str(below))
    assert not launcher.project_wins("audit", ["run.py", "audit", "--platform", "codex"], codex,
                                     str(below))
    # Claude Code names its project: that folder, not the working folder's parents.
    claude = ["run.py", "guard", "--platform", "claude"]
    elsewhere = _manifest(tmp_path / "other", "")
    assert not launcher.project_wins("guard", claude, {"CLAUDE_PROJECT_DIR": str(elsewhere)},
                                     str(below))
    _manifest(repo, '[hooks.guard]\nevent = "before_tool"\n')
    assert launcher.project_wins("guard", claude, {"CLAUDE_PROJECT_DIR": str(repo)}, "/")


def _trusting(home: Path, repo: Path) -> Path:
    """A CODEX_HOME whose config.toml trusts ``repo``'s hooks (as `hookwrap trust` writes it)."""
    home.mkdir()
    key = f"{repo.resolve()}/.codex/hooks.json:pre_tool_use:0:0"
    (home / "config.toml").write_text(f'[projects."{repo.resolve()}"]\ntrust_level = "trusted"\n'
                                      f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:0"\n',
                                      encoding="utf-8")
    return home


def test_the_user_hook_runs_where_codex_would_skip_the_projects_untrusted_one(
        tmp_path: Path) -> None:
    repo = _manifest(tmp_path / "repo", 'platforms = ["codex"]\n[hooks.guard]\nevent = "x"\n')
    argv = ["run.py", "guard", "--platform", "codex"]
    untrusting = tmp_path / "untrusting"
    untrusting.mkdir()
    (untrusting / "config.toml").write_text(f'[projects."{repo.resolve()}"]\n'
                                            'trust_level = "trusted"\n', encoding="utf-8")
    for home in (untrusting, tmp_path / "no-codex-home"):
        assert not launcher.project_wins("guard", argv, {"CODEX_HOME": str(home)}, str(repo))
    trusting = _trusting(tmp_path / "trusting", repo)
    assert launcher.project_wins("guard", argv, {"CODEX_HOME": str(trusting)}, str(repo))


def test_the_user_scopes_own_manifest_is_not_a_project(tmp_path: Path) -> None:
    own = Path(launcher.__file__).resolve().parents[2]  # the folder above .hookwrap/lib
    argv = ["run.py", "guard", "--platform", "codex"]
    if (own / "hookwrap.toml").exists():
        pytest.skip(f"{own} holds a hookwrap.toml")
    assert not launcher.project_wins("guard", argv, {}, str(tmp_path))


def test_the_launchers_project_variables_are_the_records() -> None:
    """Each CLI whose project command names its project by a variable (``$CLAUDE_PROJECT_DIR``)
    has it in PROJECT_VARS; a CLI whose command walks up, or that sets the variable itself
    (the plugin CLIs' HOOKWRAP_PROJECT_DIR), is not listed."""
    found = {}
    for agent in all_setups():
        match = re.search(r"\$\{*([A-Z_]+_PROJECT_DIR)", agent.facts.command_form)
        if match and match.group(1) != "HOOKWRAP_PROJECT_DIR":
            found[agent.platform.value] = match.group(1)
    assert found == launcher.PROJECT_VARS


@pytest.mark.parametrize("version", sorted(PYTHONS))
def test_a_user_hook_steps_aside_on_old_pythons_without_starting_it(
        version: str, tmp_path: Path) -> None:
    """The whole path on Python 3.9 and 3.10 (no tomllib): the launcher answers "no opinion" as
    the runtime does and never reads the hook's script, which here does not even exist."""
    lib = tmp_path / "user" / ".hookwrap" / "lib"
    lib.mkdir(parents=True)
    source = Path(launcher.__file__)
    (lib / "_hookwrap_launcher.py").write_bytes(source.read_bytes())
    (lib / "run.py").write_bytes((source.parent / "launcher_stub.py").read_bytes())
    repo = _manifest(tmp_path / "repo", 'platforms = ["codex"]\n[hooks.guard]\nevent = "x"\n')
    command = [PYTHONS[version], str(lib / "run.py"), "guard", "--platform", "codex", "--user"]
    env = {**os.environ, "CODEX_HOME": str(_trusting(tmp_path / "codex", repo))}
    done = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=60,
                          check=False, stdin=subprocess.DEVNULL, env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "{}\n", "")
    other = subprocess.run([*command[:-2], "gemini", "--user"], cwd=repo, capture_output=True,
                           text=True, timeout=60, check=False, stdin=subprocess.DEVNULL, env=env)
    assert other.returncode == 2 and "can't open file" in other.stderr



def _gemini_trusting(home: Path, rules: dict[str, str]) -> Path:
    """A GEMINI_CLI_HOME whose ``.gemini/trustedFolders.json`` holds ``rules``."""
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(rules), encoding="utf-8")
    return home


def test_the_user_hook_runs_where_gemini_loaded_no_project_settings(tmp_path: Path) -> None:
    """Gemini CLI 0.61.0 reads a folder's .gemini/settings.json (its hooks) only when the
    folder was trusted as settings loaded (chunk-5FZXKDXH.js checkPathTrust), before argv is
    parsed: `--skip-trust` then sets GEMINI_CLI_TRUST_WORKSPACE=true for the session and its
    hooks, with the project's hooks already dropped (gemini-3HFX2LNT.js L8232). A hook cannot
    tell that from the variable set before launch, so only trustedFolders.json counts."""
    repo = _manifest(tmp_path / "repo", '[hooks.guard]\nevent = "before_tool"\n')
    argv = ["run.py", "guard", "--platform", "gemini"]
    skip_trust = {"GEMINI_PROJECT_DIR": str(repo), "GEMINI_CLI_TRUST_WORKSPACE": "true",
                  "GEMINI_CLI_HOME": str(tmp_path / "no-home")}
    assert not launcher.project_wins("guard", argv, skip_trust, str(repo))
    cases = {"trusted": ({str(repo): "TRUST_FOLDER"}, True),
             "its parent trusted": ({str(repo / "x"): "TRUST_PARENT"}, True),
             "a folder above": ({str(tmp_path): "TRUST_FOLDER"}, True),
             "distrusted below a trusted one": ({str(tmp_path): "TRUST_FOLDER",
                                                 str(repo): "DO_NOT_TRUST"}, False),
             "another folder": ({str(tmp_path / "rep"): "TRUST_FOLDER"}, False)}
    for case, (rules, wins) in cases.items():
        env = {**skip_trust, "GEMINI_CLI_HOME": str(_gemini_trusting(tmp_path / case, rules))}
        assert launcher.project_wins("guard", argv, env, str(repo)) is wins, case
    moved = tmp_path / "elsewhere.json"
    moved.write_text(json.dumps({str(repo): "TRUST_FOLDER"}), encoding="utf-8")
    env = {**skip_trust, "GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(moved)}
    assert launcher.project_wins("guard", argv, env, str(repo))
    # Comments, as `hookwrap trust` keeps them; a file that does not read trusts nothing.
    moved.write_text(f'// mine\n{{"/a//b": "DO_NOT_TRUST", /* x */ "{repo}": "TRUST_FOLDER"}}',
                     encoding="utf-8")
    assert launcher.project_wins("guard", argv, env, str(repo))
    moved.write_text(f'{{"{repo}": "TRUST_FOLDER"', encoding="utf-8")
    assert not launcher.project_wins("guard", argv, env, str(repo))


def test_the_user_hook_runs_where_qwen_or_copilot_would_skip_the_projects(
        tmp_path: Path) -> None:
    """Qwen Code 0.24.4 drops a repo's hooks in an untrusted folder once its user settings turn
    folder trust on; Copilot CLI 1.0.102 runs them only in a trusted folder, which a hook sees
    as COPILOT_ALLOW_ALL=true (reference/qwen-code.md 1.4, copilot-cli.md)."""
    repo = _manifest(tmp_path / "repo", 'platforms = ["qwen", "copilot"]\n[hooks.guard]\n'
                                        'event = "before_tool"\n')
    qwen, copilot = (["run.py", "guard", "--platform", cli] for cli in ("qwen", "copilot"))
    home = tmp_path / "qwen"
    home.mkdir()
    env = {"QWEN_HOME": str(home), "QWEN_PROJECT_DIR": str(repo),
           "QWEN_CODE_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json")}
    assert launcher.project_wins("guard", qwen, env, str(repo))  # folder trust off: loaded
    (home / "settings.json").write_text('{"security": {"folderTrust": {"enabled": true}}} // on',
                                        encoding="utf-8")
    assert not launcher.project_wins("guard", qwen, env, str(repo))
    (home / "trustedFolders.json").write_text(json.dumps({str(repo): "TRUST_FOLDER"}),
                                              encoding="utf-8")
    assert launcher.project_wins("guard", qwen, env, str(repo))
    (home / "settings.json").write_text('{"security": ', encoding="utf-8")  # does not read
    (home / "trustedFolders.json").unlink()
    assert not launcher.project_wins("guard", qwen, env, str(repo))

    folder = {"COPILOT_PROJECT_DIR": str(repo)}
    assert not launcher.project_wins("guard", copilot, folder, str(repo))
    assert not launcher.project_wins("guard", copilot, {**folder, "COPILOT_ALLOW_ALL": "1"},
                                     str(repo))
    assert launcher.project_wins("guard", copilot, {**folder, "COPILOT_ALLOW_ALL": "true"},
                                 str(repo))
