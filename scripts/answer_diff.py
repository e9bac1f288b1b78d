#!/usr/bin/env python3
"""Compare the two readings of a finished hook run, over every CLI, event and answer shape.

hookwrap reads a command hook's answer (exit code, stdout, stderr) in two places: the runtime
(``AgentCLI.read_answer``, which the bridge uses to run an external hook written for one CLI on
another) and ``hookwrap test`` (``AgentSetup.interpret``, a ``Verdict``). Both claim to say
what the CLI does. This prints each case where they disagree on what matters to the agent:
blocked or not, ask, the loop stopped, the reason, the context, the new tool input. Cases are
grouped in classes (CLI, exit-code kind, answer shape, field) with one example each:

    PYTHONPATH=src python scripts/answer_diff.py            # classes, with an example each
    PYTHONPATH=src python scripts/answer_diff.py --cases    # every case

Standard library and hookwrap only; nothing runs.
"""

from __future__ import annotations

import collections
import json
import sys

from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import RunResult
from hookwrap.names import Platform

STDOUTS = [
    "", "hello", "{", "{bad}", "[1]", '{"a":1}{"b":2}', '"{\\"decision\\":\\"deny\\"}"',
    '{"decision":"block","reason":"r"}', '{"decision":"block"}', '{"decision":"deny","reason":"r"}',
    '{"decision":"approve"}', '{"decision":"allow"}', '{"decision":"ask","reason":"r"}',
    '{"decision":"weird"}', '{"continue":false,"stopReason":"s"}', '{"continue":false}',
    '{"systemMessage":"m"}', '{"additionalContext":"top"}',
    '{"permissionDecision":"deny","permissionDecisionReason":"pr"}',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}',
    '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}',
    '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}',
    '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}',
    '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}',
    '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"a":1}}}}',
    '{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"Stop"}}',
    '{"hookSpecificOutput":{"hookEventName":"BeforeTool","additionalContext":"c"}}',
    '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls"}}}',
    '{"decision":"block","reason":"r","updatedInput":{"command":"ls"}}',
    '{"updatedInput":{"command":"ls"}}', '{"modifiedArgs":{"command":"ls"}}',
    '{"cancel":true,"errorMessage":"e"}', '{"contextModification":"c"}', '{"context":"c"}',
    '{"overrideInput":{"command":"ls"}}', '{"overrideInput":{}}',
]
RUNS = [(0, ""), (0, "err"), (1, ""), (1, "oops"), (2, ""), (2, "why"),
        (2, '{"decision":"block","reason":"j"}'), (3, "three")]


def from_fields(event: str, fields: dict) -> tuple:
    """The runtime's reading, as (effect, reason, context, updated_input)."""
    decision = fields.get("decision")
    effect = None
    if fields.get("continue_loop") is False:
        effect = "stop"
    elif decision in ("block", "deny"):
        effect = "block"
    elif decision == "ask":
        effect = "ask"
    reason = str(fields.get("reason") or "") if effect == "block" else ""
    return effect, reason, str(fields.get("context") or ""), fields.get("updated_input")


def from_verdict(verdict) -> tuple:
    """``hookwrap test``'s reading, in the same shape."""
    outcome = verdict.outcome
    effect = {"blocked": "block", "kept_working": "block", "ask": "ask", "stopped": "stop",
              "deferred": "defer"}.get(outcome)
    if effect is None and verdict.stop_reason is not None:
        effect = "stop"
    reason = verdict.reason if effect == "block" else ""
    updated = verdict.updated_input if effect not in ("block", "stop") else None
    return effect, reason, verdict.context, updated


def shape(text: str) -> str:
    return text if len(text) < 60 else text[:57] + "..."


def cases(platforms=tuple(Platform)):
    for platform in platforms:
        setup = setup_of(platform)
        runtime = setup.runtime
        for raw_event, normalized in sorted(runtime.events.items()):
            for stdout in STDOUTS:
                for code, stderr in RUNS:
                    result = RunResult(code, stdout, stderr, 5)
                    verdict = setup.interpret(raw_event, result, None)
                    fields = runtime.read_answer(normalized, code, stdout, stderr)
                    yield (platform.value, raw_event, code, stdout, stderr,
                           from_verdict(verdict), from_fields(raw_event, fields))


FIELDS = ("effect", "reason", "context", "updated_input")


def main(argv: list[str]) -> int:
    classes: dict[tuple, list] = collections.defaultdict(list)
    total = 0
    for platform, event, code, stdout, stderr, test, runtime in cases():
        total += 1
        for index, name in enumerate(FIELDS):
            if test[index] != runtime[index]:
                kind = "0" if code == 0 else "2" if code == 2 else "other"
                key = (platform, name, kind, str(test[index] if index != 1 else bool(test[1])),
                       str(runtime[index] if index != 1 else bool(runtime[1])))
                classes[key].append((event, code, stdout, stderr, test, runtime))
    print(f"{total} cases, {sum(map(len, classes.values()))} disagreements in {len(classes)} classes")
    for key, found in sorted(classes.items()):
        platform, name, kind, test, runtime = key
        events = sorted({case[0] for case in found})
        print(f"\n{platform} {name} exit={kind}: test={test} runtime={runtime}  ({len(found)} cases; "
              f"events {', '.join(events[:8])}{' ...' if len(events) > 8 else ''})")
        shown = found if "--cases" in argv else found[:2]
        for event, code, stdout, stderr, test_reading, runtime_reading in shown:
            print(f"    {event} exit {code} stdout={shape(stdout)!s} stderr={json.dumps(stderr)}")
            print(f"      test={test_reading} runtime={runtime_reading}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
