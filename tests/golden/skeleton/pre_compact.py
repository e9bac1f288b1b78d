#!/usr/bin/env python3
"""my_hook: a hookwrap hook for pre_compact, on Claude Code and Gemini CLI.

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

# What arrives (pre_compact): Claude Code PreCompact; Gemini CLI PreCompress.
#   Sent by Gemini CLI: event.session_id, event.transcript_path, event.cwd, event.timestamp,
#      event.trigger.
#   No payload of it was captured from Claude Code.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Return None for no opinion, or a HookOutput (decision, reason, context...)."""
    # Example: a block skips the compaction on Claude Code (Gemini CLI cannot block it).
    # A hook that always blocks it is reported to loop: block only when you must.
    #     if event.trigger == "auto" and os.path.exists("NO_COMPACT"):
    #         return HookOutput.block("Compaction is paused while NO_COMPACT exists.")
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
