"""Old home of the command-test helpers, kept for branches that still import it: use
``support.cli`` (and ``support`` for the paths)."""

from support import GOLDEN, PAYLOADS, REPO_ROOT  # noqa: F401
from support.cli import (  # noqa: F401
    ALL_ADDS,
    CLAUDE,
    GEMINI,
    GEMINI_NOTE,
    MANIFEST,
    RUNTIME_FILES,
    Result,
    canonical,
    hw,
    hw_module,
    owned_name,
    owned_names,
    payload,
    read_json,
    snapshot,
    snapshot_without_lock,
    strip_owned,
    write_json,
)
