"""The generator on Qwen Code and Copilot CLI: golden files, the user's keys (and Qwen's own
"$version") kept, trust entries, doctor."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support import GOLDEN
from support.cli import hw
from support.projects import from_template

QWEN = ".qwen/settings.json"
COPILOT = ".github/hooks/hookwrap.json"
GOLDEN_FILES = {QWEN: "qwen.settings.json", COPILOT: "copilot.hookwrap.json"}
ADDS = [["before_tool", "guard"], ["before_prompt", "context"], ["after_agent", "stop_gate"],
        ["after_tool", "format"], ["before_tool", "audit", "--matcher", "shell"],
        ["session_start", "skeleton_start", "--template", "skeleton", "--timeout", "1200"]]


def _qwen_copilot_project(root: Path) -> None:
    (root / ".qwen").mkdir()
    (root / QWEN).write_text('{\n  // mine\n  "model": {"name": "m"},\n  "$version": 4\n}\n')
    assert hw(root, "init", "--platform", "qwen", "--platform", "copilot").code == 0
    for args in ADDS:
        result = hw(root, "add", *args)
        assert result.code == 0, result.err


@pytest.fixture
def both(empty_dir: Path) -> Path:
    """The user's Qwen settings, then `init` for both CLIs and every ADDS (a copy of one template)."""
    return from_template(empty_dir, _qwen_copilot_project)


@pytest.mark.parametrize("rel", list(GOLDEN_FILES))
def test_settings_match_the_golden_files(both: Path, update_golden: bool, rel: str) -> None:
    golden = GOLDEN / "settings" / GOLDEN_FILES[rel]
    data = (both / rel).read_bytes()
    if update_golden:
        golden.write_bytes(data)
        return
    assert data == golden.read_bytes(), f"{rel} differs from {golden.name}: run pytest --update-golden"


def test_qwen_keeps_the_users_keys_comments_and_version(both: Path) -> None:
    text = (both / QWEN).read_text()
    assert "// mine" in text and '"$version": 4' in text and '"name": "m"' in text
    # A long timeout is written in milliseconds, which Qwen reads as milliseconds (>= 1000).
    assert '"timeout": 1200000' in text


def test_qwens_own_rewrite_is_no_drift(both: Path) -> None:
    # Qwen rewrites the files it loads: pretty-printed, "$version" bumped, comments gone.
    data = json.loads("\n".join(l for l in (both / QWEN).read_text().splitlines() if "//" not in l))
    data["$version"] = 5
    (both / QWEN).write_text(json.dumps(data, indent=2) + "\n")
    assert hw(both, "sync", "--check").code == 0
    assert hw(both, "remove", "guard").code == 0
    assert json.loads((both / QWEN).read_text())["$version"] == 5


def test_copilot_file_is_hookwraps_and_goes_when_empty(both: Path) -> None:
    for name in ("guard", "context", "stop_gate", "format", "audit", "skeleton_start"):
        assert hw(both, "remove", name).code == 0
    assert not (both / COPILOT).exists()
    assert json.loads("\n".join(l for l in (both / QWEN).read_text().splitlines() if "//" not in l)) == {
        "model": {"name": "m"}, "$version": 4}


def test_add_warns_what_each_cli_cannot_do(empty_dir: Path) -> None:
    assert hw(empty_dir, "init", "--platform", "qwen", "--platform", "copilot").code == 0
    result = hw(empty_dir, "add", "before_tool", "mine")  # a skeleton may answer anything
    assert "Qwen Code: cannot apply updated_input" in result.err + result.out
    assert "Copilot CLI: has no ask" in result.err + result.out
    # The guard only blocks: what it never returns is not warned about.
    result = hw(empty_dir, "add", "before_tool", "guard")
    assert result.code == 0 and "warning" not in result.err + result.out


def test_copilot_trust_keeps_the_config_and_doctor_names_it(both: Path) -> None:
    config = Path(os.environ["HOME"]) / ".copilot" / "config.json"
    config.parent.mkdir()
    config.write_text('// managed\n{\n  "firstLaunchAt": "x",\n  "trustedFolders": ["/elsewhere"]\n}\n')
    doctor = hw(both, "doctor", "--no-run")
    assert "copilot-trust" in doctor.out and "hookwrap trust --platform copilot" in doctor.out
    assert hw(both, "trust", "--platform", "copilot").code == 0
    text = config.read_text()
    assert text.startswith("// managed\n") and '"firstLaunchAt": "x"' in text
    assert json.loads(text.split("\n", 1)[1])["trustedFolders"] == ["/elsewhere", str(both.resolve())]
    assert "fail copilot-trust" not in hw(both, "doctor", "--no-run").out
    assert hw(both, "trust", "--platform", "copilot").code == 0
    assert config.read_text() == text  # nothing more to record


def test_qwen_trust_only_with_folder_trust_on(both: Path) -> None:
    home = Path(os.environ["HOME"]) / ".qwen"
    assert "ok   qwen-trust" in hw(both, "doctor", "--no-run").out
    home.mkdir()
    (home / "settings.json").write_text('{"security": {"folderTrust": {"enabled": true}}}')
    assert "fail qwen-trust" in hw(both, "doctor", "--no-run").out
    assert hw(both, "trust", "--platform", "qwen").code == 0
    assert json.loads((home / "trustedFolders.json").read_text()) == {str(both.resolve()): "TRUST_FOLDER"}
    assert "ok   qwen-trust" in hw(both, "doctor", "--no-run").out


def test_hookwrap_test_follows_each_clis_rules(both: Path) -> None:
    qwen = hw(both, "test", "guard", "--platform", "qwen", "--tool", "shell",
              "--input", '{"command": "git push --force origin main"}')
    assert "qwen: blocked" in qwen.out, qwen.out + qwen.err
    copilot = hw(both, "test", "guard", "--platform", "copilot", "--tool", "write_file",
                 "--input", '{"path": ".env", "file_text": "x"}')
    assert "copilot: blocked" in copilot.out, copilot.out + copilot.err
