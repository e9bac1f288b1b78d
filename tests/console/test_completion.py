"""Shell completion goes past the options: event names, template names and the project's hook
names complete too (bash's protocol, as `hookwrap --install-completion` sets it up)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hookwrap.generator.project import add_plan


def _complete(root: Path, words: str) -> list[str]:
    env = {**os.environ, "_HOOKWRAP_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - 1)}
    done = subprocess.run([sys.executable, "-m", "hookwrap"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    return done.stdout.split()


def test_events_templates_and_hook_names_complete(project: Path) -> None:
    add_plan(project, event="session_start", name="context").apply()
    assert _complete(project, "hookwrap add bef") == [
        "before_tool", "before_prompt", "before_model", "before_tool_selection"]
    assert _complete(project, "hookwrap add before_tool gu") == ["guard"]
    assert _complete(project, "hookwrap test co") == ["context"]
