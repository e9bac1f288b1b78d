#!/usr/bin/env python3
# hookwrap: generated Cline hook file (PreToolUse), the form for teams with Windows machines
# (hookwrap.toml names python_windows): Cline runs it by its first line, with `py -3` on Windows
# (then `python` when there is no py), `python3` elsewhere; no shell anywhere.
# `hookwrap sync` rewrites it whole from hookwrap.json beside it: edit hookwrap.toml, or the
# hook scripts in .hookwrap/hooks/, never this file; your own hook files stay yours.
# Cline runs it for every PreToolUse (it has no matcher: the dispatcher picks the hooks a tool
# selects) and reads one JSON answer on stdout; it lets the tool run when the answer is
# missing, not JSON, or later than 120 s. So this file stops waiting after 110 s, and then,
# or when the dispatcher cannot run, answers itself: a block, since a fail-closed hook is among them.
# Hooks: guard (^(run_commands|editor|read_files)$, fail-closed)
from __future__ import annotations

import os
import sys

EVENT = 'PreToolUse'
REGISTRATIONS = '[{"matcher":"^(run_commands|editor|read_files)$","hooks":[{"type":"command","command":"python3 \\"$HOOKWRAP_PROJECT_DIR/.hookwrap/lib/run.py\\" guard --fail-closed=7 --platform cline","name":"guard","timeout":10,"failClosed":true,"argvWindows":["python",".hookwrap/lib/run.py","guard","--fail-closed=7","--platform","cline"]}]}]'
FALLBACK = '{"overrideInput": null, "contextModification": "hookwrap: the fail-closed hooks of this call gave no answer in time (python or the hook file\'s dispatcher could not run, or hung); the call was blocked. See .clinerules/hooks/PreToolUse."}'
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import importlib.util

    path = os.path.join(root, ".hookwrap", "lib", "hookwrap", "clis", "_cline_hooks.py")
    spec = importlib.util.spec_from_file_location("hookwrap_cline_hooks", path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot load " + path)
    dispatcher = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dispatcher)
except BaseException as error:
    sys.stderr.write("hookwrap: %s: its hooks gave no answer (%s)\n" % (__file__, error))
    sys.stdout.buffer.write((FALLBACK + "\n").encode() if FALLBACK else b"")
    sys.exit(0)
dispatcher.answer_within(root, EVENT, REGISTRATIONS, FALLBACK, 110)
