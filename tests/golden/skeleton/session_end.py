#!/usr/bin/env python3
"""my_hook: a hookwrap hook for session_end, on Claude Code and Gemini CLI.

Rendered once by `hookwrap add`; it is yours now. It does nothing yet: fill in hook().
Try it with `hookwrap test my_hook`.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

# What arrives (session_end): Claude Code SessionEnd; Gemini CLI SessionEnd.
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd, event.reason.
#   Sent by Claude Code only: event.prompt_id.
#   Sent by Gemini CLI only: event.timestamp.
#   event.reason: why the session ended; keep the hook fast, some CLIs give it very little time.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Return None for no opinion, or a HookOutput (decision, reason, context...)."""
    # This event cannot block; use it for side effects (logs, notifications), and return
    # None. Context, where the CLI accepts it: return HookOutput(context="...").
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
