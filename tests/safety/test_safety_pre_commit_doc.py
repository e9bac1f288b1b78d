"""The pre-commit snippets in docs/ci-and-pre-commit.md are valid YAML that names the hook
.pre-commit-hooks.yaml defines, and pin no tag the repository does not have."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "ci-and-pre-commit.md"


def _snippets() -> list[dict]:
    """Every yaml block of the page must parse; the pre-commit configs are those with `repos`."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    return [block for block in blocks if isinstance(block, dict) and "repos" in block]


def _hook_ids() -> set[str]:
    return {hook["id"] for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}


def _tags() -> set[str]:
    done = subprocess.run(["git", "-C", str(REPO), "tag", "--list"], capture_output=True,
                          text=True)
    return set(done.stdout.split())


def test_every_snippet_is_a_config_running_the_defined_hook() -> None:
    snippets = _snippets()
    assert len(snippets) >= 2
    ids = _hook_ids()
    assert ids == {"hookwrap-sync-check"}
    for config in snippets:
        repos = config["repos"]
        assert repos and all(set(repo["hooks"][0]) >= {"id"} for repo in repos)
        for repo in repos:
            assert {hook["id"] for hook in repo["hooks"]} <= ids, repo
            if repo["repo"] == "local":
                hook = repo["hooks"][0]
                assert hook["entry"] == "hookwrap sync --check"
                assert hook["language"] == "system"
                assert hook["pass_filenames"] is False


def test_no_snippet_pins_a_tag_that_does_not_exist() -> None:
    tags = _tags()
    for config in _snippets():
        for repo in config["repos"]:
            if repo["repo"] == "local":
                continue
            rev = str(repo["rev"])
            assert rev in tags or re.fullmatch(r"[0-9a-f]{40}", rev) or rev == "<full commit sha>", rev
    assert "rev: v0.1.0" not in DOC.read_text(encoding="utf-8")
    assert "rev: v0.1.0" not in (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
