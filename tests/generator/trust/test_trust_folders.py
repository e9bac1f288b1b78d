"""Gemini CLI's and Qwen Code's trusted folders read as each CLI reads them (rules copied from
Gemini CLI 0.61.0's `isPathTrusted` and Qwen Code 0.24.4's `resolveTrustRule`), by doctor and by
`hookwrap trust` alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwrap.generator.clis import gemini
from hookwrap.generator.clis._trust_stores import deepest_rule  # Qwen Code's trust store


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "work" / "project").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "work" / "project")
    (tmp_path / "a-longer-name-for-it").symlink_to(tmp_path / "work" / "project")
    return tmp_path / "work" / "project"


def rules(root: Path, spec: dict[str, str]) -> dict[str, str]:
    base = root.parent.parent
    return {str(base / rel) if rel != "/" else "/": level for rel, level in spec.items()}


@pytest.mark.parametrize(("spec", "gemini_says", "qwen_says"), [
    ({}, None, None),
    ({"work/project": "TRUST_FOLDER"}, True, True),
    ({"work": "TRUST_FOLDER"}, True, True),                                # a parent
    ({"work/project/x": "TRUST_PARENT"}, True, True),                      # its parent is the project
    ({"work": "DO_NOT_TRUST"}, False, False),                              # covers what is below too
    ({"work": "TRUST_FOLDER", "work/project": "DO_NOT_TRUST"}, False, False),
    ({"work": "DO_NOT_TRUST", "work/project": "TRUST_FOLDER"}, True, True),
    ({"link": "TRUST_FOLDER"}, True, True),                                # the real path counts
    # Gemini: the longest rule path wins; Qwen: the deepest folder, DO_NOT_TRUST winning a tie.
    ({"work/project": "TRUST_FOLDER", "a-longer-name-for-it": "DO_NOT_TRUST"}, False, False),
    ({"work/project": "DO_NOT_TRUST", "link": "TRUST_FOLDER"}, False, False),
    ({"/": "TRUST_FOLDER", "work/project/x": "DO_NOT_TRUST"}, True, True),  # below it: no say
    ({"work/project": "TRUSTED"}, None, None),                             # unknown level
])
def test_each_cli_reads_its_rules(root: Path, spec: dict[str, str], gemini_says: bool | None,
                                  qwen_says: bool | None) -> None:
    assert gemini._decision(rules(root, spec), root)[0] is gemini_says
    assert deepest_rule(rules(root, spec), root)[0] is qwen_says


def test_doctor_reads_gemini_rules_with_comments(tmp_path: Path, isolated_home: Path) -> None:
    """Gemini strips comments from trustedFolders.json; doctor read it as plain JSON and failed."""
    from support.trust import make_project

    from hookwrap.checks.doctor import diagnose

    root = make_project(tmp_path / "project", ("gemini",))
    (isolated_home / ".gemini").mkdir()
    (isolated_home / ".gemini" / "trustedFolders.json").write_text(
        f'// mine\n{{"{root.resolve()}": "TRUST_FOLDER" /* this one */}}\n')
    [finding] = [f for f in diagnose(root) if f.check == "gemini-trust"]
    assert finding.status == "ok", finding


@pytest.mark.parametrize("cli", ["gemini", "qwen"])
def test_trust_records_the_folder_and_keeps_every_comment(tmp_path: Path, isolated_home: Path,
                                                          cli: str) -> None:
    """`hookwrap trust` adds the project to the CLI's trustedFolders.json, which holds comments
    (both CLIs strip them when they read it): every comment and rule of the user's stays, and
    the file still reads as the CLI reads it (the e2e tests show Gemini CLI and Qwen Code then
    run the hooks)."""
    import json
    import re

    from support.trust import TRUST_FILES, hw, make_project, qwen_folder_trust_on

    if cli == "qwen":
        qwen_folder_trust_on(isolated_home)
    root = make_project(tmp_path / "project", (cli,))
    path = isolated_home / TRUST_FILES[cli]
    path.parent.mkdir(exist_ok=True)
    text = '// mine\n{\n  /* no */ "/elsewhere": "DO_NOT_TRUST", // keep out\n  "/x": "TRUST_FOLDER"\n}\n'
    path.write_text(text)
    done = hw(root, "trust", "--platform", cli)
    assert done.code == 0, done.err
    after = path.read_text()
    for comment in ("// mine\n", "/* no */", "// keep out"):
        assert comment in after, after
    plain = re.sub(r"//[^\n]*|/\*.*?\*/", "", after, flags=re.S)
    assert json.loads(plain) == {"/elsewhere": "DO_NOT_TRUST", "/x": "TRUST_FOLDER",
                                 str(root.resolve()): "TRUST_FOLDER"}
    decision = (gemini._decision if cli == "gemini" else deepest_rule)(json.loads(plain), root)[0]
    assert decision is True
    again = hw(root, "trust", "--platform", cli)
    assert "nothing to trust" in again.out and path.read_text() == after
