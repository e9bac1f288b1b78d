#!/usr/bin/env python3
"""context: gives the model the text of .hookwrap/context.md as context.

Rendered once by `hookwrap add` from the context template; it is yours now. Edit the
Markdown file to change what the model is told; a missing or empty file adds nothing.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import re
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'context'
CONTEXT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, HOOK_NAME + ".md")
# Context is read by the model on every turn: keep it short (a CLI may cut a long one).
MAX_CHARS = 10_000
# <!-- HTML comments --> in the file are notes for people, not for the model.
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)

# What arrives (session_start): Claude Code SessionStart; Gemini CLI SessionStart.
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd, event.source.
#   Sent by Gemini CLI only: event.timestamp.
#   event.source: why the session started ("startup", "resume", ...).
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Add the file's text as context; None when there is nothing to add."""
    try:
        with open(CONTEXT_FILE, encoding="utf-8", errors="replace") as file:
            text = _COMMENT.sub("", file.read()).strip()
    except OSError:
        return None
    if not text:
        return None
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS] + f"\n[... cut at {MAX_CHARS} characters]"
    return HookOutput(context=text)


if __name__ == "__main__":
    raise SystemExit(main(hook))
