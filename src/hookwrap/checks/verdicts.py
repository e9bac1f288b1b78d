"""Reading a finished hook run: the shapes, and the steps every CLI's rules share.

Each CLI's own reading rules live in its module (``clis/<platform>.py``, ``interpret``);
``interpret`` here asks the right one. The seed contract's rules and the aggregation of several
runs are in ``hookwrap.checks.testing``. docs/runner-contract.md lists where the CLIs differ.
"""

from __future__ import annotations

from ..generator.clis import setup_of
from ..generator.clis.kit import RunResult, Verdict
from ..names import Platform


def interpret(platform: Platform | str, raw_event: str, result: RunResult,
              on_failure: str | None = None) -> Verdict:
    """What the real CLI does with ``result`` for ``raw_event`` (its own event name)."""
    return setup_of(platform).interpret(raw_event, result, on_failure)


