"""Gemini CLI's and Qwen Code's trusted folders read as each CLI reads them (rules copied from
Gemini CLI 0.61.0's `isPathTrusted` and Qwen Code 0.24.4's `resolveTrustRule`), by doctor and by
`hookwrap trust` alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwrap.generator.clis import gemini, qwen


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
    assert qwen._decision(rules(root, spec), root)[0] is qwen_says


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
