"""What the tests share: paths, running the command, projects, payloads, hook repos.

One import path for every test module (``from support import REPO_ROOT``, ``from support.cli
import hw``): pytest puts ``tests/`` on ``sys.path`` (``pythonpath`` in pyproject.toml).

* ``support.cli``: run ``hookwrap`` in-process or as a subprocess, read and snapshot a project;
* ``support.projects``: initialised projects copied from a per-process template (``hookwrap
  init`` runs once per distinct set of options, not once per test);
* ``support.runtime``: run a hook in-process or as a script, payload fixtures;
* ``support.hookrepo``: a throwaway repo holding the runtime and rendered hooks;
* ``support.golden``: compare with ``tests/golden`` or rewrite it (``--update-golden``).
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SRC = REPO_ROOT / "src"
RUNTIME_SRC = SRC / "hookwrap"
TESTS = REPO_ROOT / "tests"
FIXTURES = TESTS / "fixtures"
PAYLOADS = FIXTURES / "payloads"
GOLDEN = TESTS / "golden"

__all__ = ["FIXTURES", "GOLDEN", "PAYLOADS", "REPO_ROOT", "RUNTIME_SRC", "SRC", "TESTS"]
