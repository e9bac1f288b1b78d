"""What travels into a user's repo: the one list of copied files, read by the generator, the tests
and ``.ci/run`` (``python -m hookwrap.generator.vendor``).

The rule is the folder tree: every Python file of the ``hookwrap`` package is the stdlib-only
runtime, copied into ``.hookwrap/lib/hookwrap/``, except the three subpackages of the hookwrap
command (``generator/``, ``checks/``, ``console/``), ``__main__.py`` (``python -m hookwrap``, the
command), and the launcher's two files, which are copied beside the package instead
(``launcher_stub.py`` as ``.hookwrap/lib/run.py``, ``launcher.py`` as
``.hookwrap/lib/_hookwrap_launcher.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # src/hookwrap, or site-packages/hookwrap
COMMAND_PACKAGES = frozenset({"generator", "checks", "console"})
NOT_COPIED = frozenset({"__main__.py", "launcher.py", "launcher_stub.py"})

RUNTIME_DIR = ".hookwrap/lib/hookwrap"
# The launcher every registered command runs (clis/_base.py LAUNCHER): a short script, since
# Python compiles the script it runs on every run, and the launcher's code beside it, imported
# from its cached bytecode.
LAUNCHER = ".hookwrap/lib/run.py"
LAUNCHER_SOURCE = "launcher_stub.py"
LAUNCHER_MODULE = ".hookwrap/lib/_hookwrap_launcher.py"
LAUNCHER_MODULE_SOURCE = "launcher.py"


def _runtime_modules() -> tuple[str, ...]:
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in COMMAND_PACKAGES or str(rel) in NOT_COPIED or "__pycache__" in rel.parts:
            continue
        found.append(rel.as_posix())
    # __init__.py first, then the package's own modules, then its subpackages.
    return tuple(sorted(found, key=lambda m: (m != "__init__.py", m.count("/"), m)))


# Package-relative paths (``platforms.py``, ``clis/claude.py``) of the runtime's modules.
RUNTIME_MODULES = _runtime_modules()
# Every copied file: (source, package-relative; destination, project-relative).
COPIED = (*((m, f"{RUNTIME_DIR}/{m}") for m in RUNTIME_MODULES),
          (LAUNCHER_SOURCE, LAUNCHER), (LAUNCHER_MODULE_SOURCE, LAUNCHER_MODULE))


def main(argv: list[str]) -> int:
    """Print the copied source files, one per line (``--modules``: as importable module names)."""
    for source, _ in COPIED:
        if argv[1:] == ["--modules"]:
            print("hookwrap." + source[:-3].replace("/", ".").removesuffix(".__init__")
                  if source != "__init__.py" else "hookwrap")
        else:
            print(f"src/hookwrap/{source}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
