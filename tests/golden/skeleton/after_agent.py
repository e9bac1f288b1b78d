#!/usr/bin/env python3
"""my_hook: a hookwrap hook for after_agent, on Claude Code and Gemini CLI.

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

# What arrives (after_agent): Claude Code Stop, SubagentStop; Gemini CLI AfterAgent.
#   Sent by each of them: event.session_id, event.transcript_path, event.cwd,
#      event.stop_hook_active.
#   Sent by Claude Code only: event.prompt_id, event.permission_mode, event.get("effort"),
#      event.last_assistant_message, event.get("background_tasks"), event.get("session_crons").
#   Sent by Gemini CLI only: event.timestamp, event.prompt, event.prompt_response.
#   event.stop_hook_active: True when the agent is already working again because a stop hook
#      blocked: check it, or a hook that always blocks loops.
#   event.last_assistant_message: the agent's final text.
#   event.prompt: the user's request.
#   event.prompt_response: the agent's answer.
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Return None for no opinion, or a HookOutput (decision, reason, context...)."""
    # Example: keep the agent working; `reason` becomes its next instruction. Check
    # stop_hook_active so the hook cannot block forever:
    #     if not event.stop_hook_active and "TODO" in (event.last_assistant_message or event.prompt_response):
    #         return HookOutput.block("Finish the TODOs you left before stopping.")
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
