"""A trust file hookwrap cannot edit safely is left byte for byte as it was, and the refusal
names the right key and the right command (`hookwrap trust`, not `hookwrap sync`, which never
touches a file outside the project)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.trust import TRUST_FILES, hw, make_project, qwen_folder_trust_on

CASES = [
    # (cli, file text, what the error says, what the hint says)
    ("copilot", '{\n  "trustedFolders": [\n    // work\n    "/elsewhere"\n  ]\n}\n',
     'comments inside "trustedFolders" would be lost', 'move the comments out of "trustedFolders"'),
    ("copilot", '{"trustedFolders": "/a"}\n', '"trustedFolders" is not a list', "make it a list"),
    ("copilot", '{"trustedFolders": [\n', "unexpected end of file", "fix the file by hand"),
    ("gemini", '{"/a": "TRUST_FOLDER",}\n', "trailing comma", "fix the file by hand"),
    ("gemini", '{"/a": "TRUSTED"}\n', 'has the trust level "TRUSTED", which Gemini CLI rejects',
     "fix or remove that line by hand"),
    ("qwen", '["/a"]\n', "the top level must be a JSON object", "fix the file by hand"),
    ("codex", "[[projects]]\nname = 1\n", "projects is an array of tables, not a table",
     "make projects a table"),
    ("codex", "x = [\n", "not valid TOML", "fix the file by hand"),
]


@pytest.mark.parametrize(("cli", "text", "error", "hint"), CASES)
def test_a_refusal_says_what_to_change_and_changes_nothing(
        tmp_path: Path, isolated_home: Path, cli: str, text: str, error: str, hint: str) -> None:
    if cli == "qwen":
        qwen_folder_trust_on(isolated_home)
    root = make_project(tmp_path / "project", (cli,))
    path = isolated_home / TRUST_FILES[cli]
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    done = hw(root, "trust", "--platform", cli)
    assert done.code == 1
    first, second = done.err.splitlines()[:2]
    assert first.startswith(f"error: {path}") and error in first, done.err
    assert second.startswith("hint: ") and hint in second, done.err
    assert "`hookwrap trust` again" in second and "sync" not in second
    assert '"hooks"' not in done.err
    assert path.read_text() == text
