"""Old home of the trust-test helpers, kept for branches that still import it: use
``support.trust`` (``hw`` and ``Result`` are ``support.cli``'s)."""

from support.cli import Result, hw  # noqa: F401
from support.trust import (  # noqa: F401
    ALL_CLIS,
    TRUST_FILES,
    hookwrap,
    make_project,
    qwen_folder_trust_on,
    snapshot,
)
