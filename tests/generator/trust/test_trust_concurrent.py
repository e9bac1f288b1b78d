"""Several projects record their trust at once in the files they share: none is lost.

Six processes, each with its own project and all with the same throwaway HOME, run `hookwrap
trust` for one CLI at the same moment (a barrier). Each write is slowed down, as a busy disk
would: without a lock every process reads the file before any writes it, and the last writer
wins (issue 24: five of six lost their trust). With the lock each reads the file again after
the one before it wrote.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest
import tomllib
from support.trust import TRUST_FILES, hookwrap, make_project, qwen_folder_trust_on

PROCESSES = 6


def _run_trust(barrier: Any, root: str, cli: str) -> None:
    """A child process: wait for the others, then `hookwrap trust --platform cli`."""
    from hookwrap.generator import fsutil

    write = fsutil.atomic_write

    def slow_write(*args: Any, **kwargs: Any) -> None:
        # 0.1 s: without the lock, all six have read the file long before (0.05 s is enough
        # for every CLI to lose trust without it; the lock makes the six writes take turns).
        time.sleep(0.1)
        write(*args, **kwargs)

    fsutil.atomic_write = slow_write
    barrier.wait(timeout=60)
    code = hookwrap(Path(root), "trust", "--platform", cli)
    os._exit(code)


def _trusted(cli: str, text: str, root: Path) -> bool:
    key = str(root.resolve())
    if cli == "codex":
        data = tomllib.loads(text)
        return data["projects"].get(key) == {"trust_level": "trusted"} and any(
            state.startswith(key + "/.codex/hooks.json:") for state in data["hooks"]["state"])
    if cli == "copilot":
        return key in json.loads(text)["trustedFolders"]
    return json.loads(text).get(key) == "TRUST_FOLDER"


@pytest.mark.parametrize("cli", sorted(TRUST_FILES))
def test_no_project_loses_its_trust(tmp_path: Path, isolated_home: Path, cli: str) -> None:
    if cli == "qwen":
        qwen_folder_trust_on(isolated_home)
    roots = [make_project(tmp_path / f"project {n}", (cli,)) for n in range(PROCESSES)]
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    children = [context.Process(target=_run_trust, args=(barrier, str(root), cli)) for root in roots]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=120)
    assert [child.exitcode for child in children] == [0] * PROCESSES

    text = (isolated_home / TRUST_FILES[cli]).read_text()
    assert [root.name for root in roots if not _trusted(cli, text, root)] == []
