"""`hookwrap trust` and `hookwrap doctor` agree on every CLI (issue 23).

For each of the seven CLIs, in each situation a user can be in: when `trust` says there is
nothing to trust, doctor has no trust failure for that CLI; after `trust`, doctor's trust check
is ok, unless `trust` failed and said exactly what to do, which is then what doctor says too.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from support.trust import ALL_CLIS, hw, make_project, qwen_folder_trust_on

from hookwrap.checks.doctor import diagnose
from hookwrap.generator.clis.kit import FAIL, Finding


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _gemini_rules(home: Path, text: str) -> None:
    _write(home / ".gemini" / "trustedFolders.json", text)


Setup = Callable[[Path, Path, pytest.MonkeyPatch], None]  # (project, home, monkeypatch)

SCENARIOS: dict[str, Setup] = {
    "a new user": lambda root, home, mp: None,
    "qwen folder trust on": lambda root, home, mp: qwen_folder_trust_on(home),
    "gemini folder trust off": lambda root, home, mp: _write(
        home / ".gemini" / "settings.json", '{"security": {"folderTrust": {"enabled": false}}}'),
    "gemini distrusts a parent, with comments": lambda root, home, mp: _gemini_rules(
        home, f'// mine\n{{\n  /* no */ {json.dumps(str(root.resolve().parent))}: "DO_NOT_TRUST",\n'
              '  "/elsewhere": "TRUST_FOLDER" // yes\n}\n'),
    "gemini distrusts the project": lambda root, home, mp: _gemini_rules(
        home, json.dumps({str(root.resolve()): "DO_NOT_TRUST"})),
    "gemini trusts a parent": lambda root, home, mp: _gemini_rules(
        home, json.dumps({str(root.resolve().parent): "TRUST_FOLDER"})),
    "a longer link distrusts the project": lambda root, home, mp: (
        (root.parent / "a much longer name for the very same project").symlink_to(root),
        _gemini_rules(home, json.dumps({str(root.parent / "a much longer name for the very same project"):
                                        "DO_NOT_TRUST"}))),
    "the environment forces gemini untrusted": lambda root, home, mp: mp.setenv(
        "GEMINI_CLI_TRUST_WORKSPACE", "false"),
    "the environment trusts every folder": lambda root, home, mp: (
        mp.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true"), mp.setenv("COPILOT_ALLOW_ALL", "true")),
    "qwen distrusts the project": lambda root, home, mp: (
        qwen_folder_trust_on(home),
        _write(home / ".qwen" / "trustedFolders.json", json.dumps({str(root.resolve()): "DO_NOT_TRUST"}))),
    "qwen trusts a parent but distrusts a deeper one": lambda root, home, mp: (
        qwen_folder_trust_on(home),
        _write(home / ".qwen" / "trustedFolders.json", json.dumps({
            "/": "TRUST_FOLDER", str(root.resolve().parent): "DO_NOT_TRUST"}))),
    "codex config holds an inline projects table": lambda root, home, mp: _write(
        home / ".codex" / "config.toml", 'projects = { "/a" = { trust_level = "trusted" } }\n'),
    "everything already trusted": lambda root, home, mp: (
        qwen_folder_trust_on(home), hw(root, "trust")),
    "codex finds another project by its .git": lambda root, home, mp: None,
}
# What `trust` cannot do by itself (it fails and says what to do), by scenario.
CANNOT = {
    "a longer link distrusts the project": {"gemini"},
    "the environment forces gemini untrusted": {"gemini"},
    "codex finds another project by its .git": {"codex"},
}
# Trusted by a variable of this shell: doctor is ok, and trust still records the project, so that
# it holds when the CLI starts without the variable.
BY_ENVIRONMENT = {"the environment trusts every folder": {"gemini", "copilot"}}


def _trust_failures(findings: list[Finding], cli: str) -> list[Finding]:
    return [f for f in findings if f.check == f"{cli}-trust" and f.status == FAIL]


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_trust_and_doctor_agree_on_every_cli(scenario: str, tmp_path: Path, isolated_home: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    if scenario == "codex finds another project by its .git":
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        root = make_project(tmp_path / "sub project", git=False)
    else:
        root = make_project(tmp_path / "project")
    SCENARIOS[scenario](root, isolated_home, monkeypatch)
    home = Path(os.environ["HOME"])

    # The trust checks only: no need to run every hook (run_hooks=False).
    before = diagnose(root, home=home, run_hooks=False)
    for cli in ALL_CLIS:
        dry = hw(root, "trust", "--dry-run", "--platform", cli)
        if dry.code == 0 and "nothing to trust" in dry.out:
            assert _trust_failures(before, cli) == [], (cli, dry.out)
        elif cli not in BY_ENVIRONMENT.get(scenario, ()):  # something to record or to do by hand
            assert _trust_failures(before, cli), (cli, dry.out, dry.err)

    done = {cli: hw(root, "trust", "--platform", cli) for cli in ALL_CLIS}
    after = diagnose(root, home=home, run_hooks=False)
    assert {cli for cli, result in done.items() if result.code != 0} == CANNOT.get(scenario, set()), \
        {cli: result.err for cli, result in done.items()}
    for cli, result in done.items():
        failing = _trust_failures(after, cli)
        if result.code == 0:
            assert failing == [], (cli, result.out, failing)
        else:
            said = [line.removeprefix("error: ") for line in result.err.splitlines()
                    if line.startswith("error: ")]
            assert result.code == 1 and said and said == [f.message for f in failing], (cli, said, failing)
