"""`hookwrap trust` for the real Gemini CLI and Qwen Code: in a folder they do not trust, they run
no project hook; after `hookwrap trust` (which keeps the comments of their trustedFolders.json)
the guard runs (Gemini without GEMINI_CLI_TRUST_WORKSPACE), and doctor agrees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .chat_harness import ChatAgent
from .harness import Agent
from .hwrepo import HookwrapRepo
from .mockmodel import Reply
from .qwen_copilot_support import FORCED_PUSH, hookwrap_repo

pytestmark = pytest.mark.e2e

DANGEROUS = "touch side_effect.txt && git push --force origin main"
NO_VARIABLE = {"GEMINI_CLI_TRUST_WORKSPACE": ""}  # neither "true" nor "false": the file decides


def test_hookwrap_trust_lets_gemini_run_the_hooks(gemini: Agent, repo: HookwrapRepo) -> None:
    repo.add("before_tool", "guard")
    rules = gemini.sandbox.home / ".gemini" / "trustedFolders.json"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text('// mine\n{\n  "/elsewhere": "DO_NOT_TRUST" /* not that one */\n}\n')
    untrusted = gemini.run(repo.root, [gemini.shell(DANGEROUS), Reply("Finished.")], env=NO_VARIABLE)
    assert untrusted.hooks == [], untrusted.describe()
    assert "fail gemini-trust" in repo.hookwrap("doctor", check=False).stdout

    done = repo.hookwrap("trust", "--platform", "gemini")
    assert f'create    {rules}: "{repo.root.resolve()}": "TRUST_FOLDER"' in done.stdout, done.stdout
    text = rules.read_text()
    assert text.startswith("// mine\n") and "/* not that one */" in text
    result = gemini.run(repo.root, [gemini.shell(DANGEROUS), Reply("Finished.")], env=NO_VARIABLE)
    assert result.rc == 0, result.describe()
    assert not (repo.root / "side_effect.txt").exists(), result.describe()
    assert result.hooks == [("guard", "gemini")], result.describe()
    assert "ok   gemini-trust" in repo.hookwrap("doctor", check=False).stdout
    assert json.loads("\n".join(line for line in text.splitlines()[1:]).replace(
        "/* not that one */", "")) == {"/elsewhere": "DO_NOT_TRUST", str(repo.root.resolve()): "TRUST_FOLDER"}


def test_hookwrap_trust_lets_qwen_run_the_hooks_with_folder_trust_on(qwen: ChatAgent,
                                                                      git_project: Path) -> None:
    repo = hookwrap_repo(qwen, git_project, "qwen")
    repo.add("before_tool", "guard")
    settings = qwen.qwen_home / "settings.json"  # type: ignore[attr-defined]
    qwen.env()  # writes the default user settings
    data = json.loads(settings.read_text())
    data["security"]["folderTrust"] = {"enabled": True}
    settings.write_text(json.dumps(data))
    rules = qwen.qwen_home / "trustedFolders.json"  # type: ignore[attr-defined]
    rules.write_text('// mine\n{"/elsewhere": "DO_NOT_TRUST"}\n')
    assert "fail qwen-trust" in repo.hookwrap("doctor", check=False).stdout

    repo.hookwrap("trust", "--platform", "qwen")
    assert rules.read_text().startswith("// mine\n")
    result = qwen.run(git_project, [qwen.shell(FORCED_PUSH), Reply("Finished.")])
    assert "Blocked by the guard hook" in result.tool_results()[0]["text"], result.describe()
    assert "ok   qwen-trust" in repo.hookwrap("doctor", check=False).stdout
