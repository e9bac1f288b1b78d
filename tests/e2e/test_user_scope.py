"""User scope (`hookwrap --user`): one guard for every repo, with the real CLIs.

Per CLI, in one sandbox (Claude Code, Gemini CLI, Codex CLI, OpenCode, pi, Qwen Code, Copilot
CLI, Factory Droid, Cline): the user files start with the user's own content (a foreign hook, odd formatting,
comments where the CLI takes them); `hookwrap --user init --platform all` and
`hookwrap --user add before_tool guard` register the guard there; in a fresh git repo with no
hookwrap file the CLI refuses `git push --force` and runs `git status`; after `hookwrap init` and
`hookwrap add before_tool guard` in that repo each call runs a guard once, the project's; and
`hookwrap --user remove guard` gives every user file back byte for byte (a CLI that rewrites
its user file keeps its own change).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomlkit

from .chat_harness import QWEN_USER_SETTINGS
from .harness import GEMINI_USER_SETTINGS, Agent, Sandbox, xdg_dirs
from .mockmodel import Reply

pytestmark = pytest.mark.e2e

DANGEROUS = "touch side_effect.txt && git push --force origin main"
HARMLESS = "git status > status.txt"
# The user's own files before hookwrap, per CLI (relative to HOME): a foreign hook that does
# nothing, a layout json.dumps would not write, and comments where the CLI reads JSONC.
USER_FILES = {
    "claude": {".claude/settings.json":
               '{ "permissions" : {"allow": ["Bash(ls)"]},\n'
               '  "hooks": {"PreToolUse": [ {"matcher": "Read", "hooks": [{"type": "command", '
               '"command": "true"}]} ]} }\n'},
    "gemini": {".gemini/settings.json":
               "// my Gemini settings\n" + json.dumps(GEMINI_USER_SETTINGS, indent=4)[:-1]
               + ',\n    "hooks": {"AfterAgent": [{"hooks": [{"type": "command", '
               '"command": "true"}]}]}  // mine\n}\n'},
    "codex": {".codex/hooks.json":
              '{"hooks": {"PreToolUse": [{"matcher": "^Read$", "hooks": [{"type": "command",'
              ' "command": "true"}]}]}}'},
    # A plugin CLI: hookwrap's plugin goes beside the user's own in the global plugin folder.
    "opencode": {".config/opencode/plugins/user.js": "export const UserPlugin = async () => ({});\n"},
    "pi": {".pi/agent/extensions/user.js": "export default function (pi) {}\n"},
    "qwen": {".qwen/settings.json": json.dumps(QWEN_USER_SETTINGS) + "\n"},
    "copilot": {},
    "droid": {".factory/settings.json": ""},  # the harness's: the model it talks to
    "cline": {".cline/hooks/TaskComplete": "#!/bin/sh\nexit 0\n"},  # a hook file of the user's
}
# Gemini CLI without GEMINI_CLI_TRUST_WORKSPACE: its trusted folders file decides.
NO_TRUST_VARIABLE = {"GEMINI_CLI_TRUST_WORKSPACE": ""}
# CLIs that rewrite their user file when they run (Qwen Code 0.24.4 adds "$version" and
# reformats it: reference/qwen-code.md): their change stays, so the bytes cannot come back.
REWRITES = {"qwen"}
# A plugin CLI's file that hookwrap generates whole, and removes with the last hook.
GENERATED = {"copilot": ".copilot/hooks/hookwrap.json",
             "opencode": ".config/opencode/plugins/hookwrap.js",
             "pi": ".pi/agent/extensions/hookwrap.js", "cline": ".cline/hooks/PreToolUse"}


def _hookwrap(sandbox: Sandbox, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **xdg_dirs(sandbox.home), "HOME": str(sandbox.home),
           "GEMINI_CLI_HOME": str(sandbox.home), "CODEX_HOME": str(sandbox.home / ".codex"),
           "NO_COLOR": "1", "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"hookwrap {' '.join(args)}: {proc.stdout}\n{proc.stderr}"
    return proc


def _log_runs(script: Path, log: Path, scope: str) -> None:
    """Make a guard script append its scope to ``log`` each time it runs (data written from
    Python: the script's text is the user's to edit)."""
    text = script.read_text(encoding="utf-8")
    marker = "from __future__ import annotations"
    line = f"open({str(log)!r}, 'a').write({scope!r} + '\\n')"
    assert marker in text
    script.write_text(text.replace(marker, f"{marker}\n{line}", 1), encoding="utf-8")


def _runs(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").split() if log.exists() else []


def _run(agent: Agent, project: Path, **options: object):
    steps = [agent.shell(DANGEROUS), agent.shell(HARMLESS), Reply("Finished.")]
    for name in ("side_effect.txt", "status.txt"):
        (project / name).unlink(missing_ok=True)
    result = agent.run(project, steps, **options)
    assert not (project / "side_effect.txt").exists(), result.describe()
    assert (project / "status.txt").is_file(), result.describe()
    return result


def _project_guard_runs_once(agent: Agent, cli: str, sandbox: Sandbox, project: Path,
                             log: Path) -> None:
    """The repo's own guard runs, and the user's steps aside, wherever the CLI runs the repo's
    hooks; where it does not (Gemini CLI's --skip-trust, untrusted Codex hooks) the user's runs."""
    options: dict[str, object] = {}
    if cli == "gemini":  # `--skip-trust` in a folder Gemini does not trust drops the repo's
        # hooks (its settings were read before the flag): the user's must not step aside then
        result = _run(agent, project, env=NO_TRUST_VARIABLE, extra_args=("--skip-trust",))
        assert _runs(log) == ["user", "user"], result.describe()
        log.unlink()
        _hookwrap(sandbox, project, "trust", "--platform", "gemini")
        options = {"env": NO_TRUST_VARIABLE}
    elif cli == "codex":
        options = {"trust": "hashes"}
    result = _run(agent, project, **options)
    assert _runs(log) == ["project", "project"], result.describe()
    if cli == "codex":  # the repo's hooks untrusted: Codex skips them, so the user's runs
        log.unlink()
        result = _run(agent, project, trust="project")
        assert _runs(log) == ["user", "user"], result.describe()


# In CI: the four (Claude Code, Gemini CLI, Codex CLI and a plugin CLI: pi, the cheapest
# plugin CLI here). The others' cases took 14 to 50 s each on a loaded 2-core machine (opencode
# 46 s, cline 50 s, qwen 35 s, copilot 14 s, droid 14 s): HOOKWRAP_E2E_FULL=1 runs them too.
IN_CI = ("claude", "gemini", "codex", "pi")
FULL = os.environ.get("HOOKWRAP_E2E_FULL") == "1"


@pytest.mark.parametrize("cli", [
    cli if cli in IN_CI else pytest.param(cli, marks=pytest.mark.skipif(
        not FULL, reason="HOOKWRAP_E2E_FULL=1 runs this CLI's user-scope case"))
    for cli in ("claude", "gemini", "codex", "pi", "opencode", "qwen", "copilot", "droid",
                "cline")])
def test_user_guard_protects_a_repo_without_hookwrap_and_steps_aside_for_the_projects(
        cli: str, request: pytest.FixtureRequest, sandbox: Sandbox, git_project: Path) -> None:
    agent: Agent = request.getfixturevalue(cli)
    home = sandbox.home
    for rel, text in USER_FILES[cli].items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        if text:
            (home / rel).write_text(text, encoding="utf-8")
    if cli == "droid":  # its harness writes ~/.factory/settings.json (the model) before each run
        agent.write_user_settings()  # type: ignore[attr-defined]
    before = {rel: (home / rel).read_bytes() for rel in USER_FILES[cli]}
    log = sandbox.root / "guard-runs.log"

    _hookwrap(sandbox, git_project, "--user", "init", "--platform", "all")
    _hookwrap(sandbox, git_project, "--user", "add", "before_tool", "guard")
    if cli in GENERATED:
        assert (home / GENERATED[cli]).is_file()
    user_root = Path(xdg_dirs(home)["XDG_CONFIG_HOME"]) / "hookwrap"
    _log_runs(user_root / ".hookwrap" / "hooks" / "guard.py", log, "user")
    options: dict[str, object] = {}
    if cli == "droid":  # ... keeping what hookwrap wrote there
        written = json.loads((home / ".factory" / "settings.json").read_text(encoding="utf-8"))
        agent.user_settings = {"hooks": written["hooks"]}  # type: ignore[attr-defined]
    if cli == "codex":  # the trust `hookwrap --user trust` records, and no project trust
        _hookwrap(sandbox, git_project, "--user", "trust", "--platform", "codex")
        config = tomlkit.parse((home / ".codex" / "config.toml").read_text(encoding="utf-8"))
        agent.config = {"hooks": {"state": config["hooks"]["state"].unwrap()}}  # type: ignore[attr-defined]
        options = {"trust": "none"}
    assert not (git_project / "hookwrap.toml").exists()

    result = _run(agent, git_project, **options)
    assert _runs(log) == ["user", "user"], result.describe()

    # The same repo with its own guard: each call runs one guard, the project's.
    _hookwrap(sandbox, git_project, "init", "--platform", cli)
    _hookwrap(sandbox, git_project, "add", "before_tool", "guard")
    _log_runs(git_project / ".hookwrap" / "hooks" / "guard.py", log, "project")
    log.unlink()
    listed = _hookwrap(sandbox, git_project, "list").stdout
    assert "project's" in listed, listed
    _project_guard_runs_once(agent, cli, sandbox, git_project, log)

    # Removing the user scope's last hook gives each user file back as it was.
    _hookwrap(sandbox, git_project, "--user", "remove", "guard")
    for rel, data in before.items():
        if cli in REWRITES:  # what the CLI changed meanwhile stays; hookwrap's entries go
            after = json.loads((home / rel).read_bytes())
            assert "hooks" not in after and after.items() >= json.loads(data).items(), after
            continue
        assert (home / rel).read_bytes() == data, rel
    if cli in GENERATED:
        assert not (home / GENERATED[cli]).exists()
