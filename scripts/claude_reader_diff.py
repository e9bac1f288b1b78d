#!/usr/bin/env python3
"""Compare a Claude-dialect CLI's `hookwrap test` reading (``read_claude``, ``read_qwen``,
``read_copilot``, ``read_droid``) at a git revision with the working tree's, over the CLI's
events and the answers hooks give.

The events: every event the CLI's settings may hold and those of the recorded payloads
(``--payloads DIR``). The answers: the shapes ``scripts/answer_diff.py`` lists, every JSON
object written in the tests, and hookwrap's own answers (``denormalize_output``) on each event,
each at exit 0, 1, 2 and 3, with and without stderr, and as failures (timeout, no start) with
and without ``onFailure: "block"``. Prints each class of difference (the Verdict fields that
differ, by event) with an example:

    PYTHONPATH=src python scripts/claude_reader_diff.py --base 498b0f9 \\
        --payloads /path/to/payloads/claude [--platform qwen]

Standard library and hookwrap only; no hook runs.
"""

from __future__ import annotations

import argparse
import ast
import collections
import dataclasses
import json
import subprocess
import sys
import types
from pathlib import Path

from answer_diff import RUNS, STDOUTS

from hookwrap.generator.clis import _answers, setup_of
from hookwrap.generator.clis.kit import RunResult
from hookwrap.hookoutput import HookOutput, denormalize_output
from hookwrap.names import Platform

ROOT = Path(__file__).resolve().parent.parent
MODULE = "src/hookwrap/generator/clis/_answers.py"
ANSWER_KEYS = {"decision", "hookSpecificOutput", "continue", "systemMessage", "additionalContext",
               "reason", "stopReason", "permissionDecision", "suppressOutput"}


def old_reader(base: str, name: str):
    """The reader ``name`` as the module at revision ``base`` wrote it."""
    source = subprocess.run(["git", "show", f"{base}:{MODULE}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType("hookwrap.generator.clis._answers_at_base")
    module.__package__ = "hookwrap.generator.clis"
    exec(compile(source, f"{base}:{MODULE}", "exec"), module.__dict__)
    return getattr(module, name)


def test_answers() -> set[str]:
    """Every JSON object written in the tests, as a string or a dict literal."""
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            try:
                value = ast.literal_eval(node) if isinstance(node, (ast.Dict, ast.Constant)) else None
                if isinstance(value, str) and value.strip().startswith("{"):
                    value = json.loads(value)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
            if isinstance(value, dict) and ANSWER_KEYS & set(value):
                try:
                    found.add(json.dumps(value))
                except (TypeError, ValueError):
                    continue
    return found


def own_answers(setup) -> set[str]:
    """What hookwrap's runtime writes for Claude Code on each event, for a set of outputs."""
    outputs = [HookOutput(decision="block", reason="r"), HookOutput(decision="deny"),
               HookOutput(decision="ask", reason="r"), HookOutput(decision="allow"),
               HookOutput(context="c"), HookOutput(updated_input={"command": "ls"}),
               HookOutput(continue_loop=False, stop_reason="s"), HookOutput(system_message="m")]
    found = set()
    for raw, event in setup.runtime.events.items():
        for output in outputs:
            found.add(denormalize_output(output, setup.platform, event, raw_event=raw))
    return found


@dataclasses.dataclass(frozen=True)
class Raised:
    """A reading that raised (a crash of `hookwrap test`)."""

    raised: str


def _read(reader, setup, event, result, on_failure):
    try:
        return reader(setup, event, result, on_failure)
    except Exception as error:  # a crash is a finding
        return Raised(f"{type(error).__name__}: {error}")


def runs():
    for code, stderr in RUNS:
        yield None, code, stderr, {}
    for failure in ({"timed_out": True}, {"spawn_error": "no such file"}):
        for on_failure in (None, "block"):
            yield on_failure, None, "", failure


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="498b0f9")
    parser.add_argument("--payloads", type=Path)
    parser.add_argument("--cases", action="store_true")
    parser.add_argument("--platform", default="claude", choices=("claude", "qwen", "copilot", "droid"))
    args = parser.parse_args(argv)
    old, new = old_reader(args.base, f"read_{args.platform}"), getattr(_answers, f"read_{args.platform}")
    setup = setup_of(Platform(args.platform))
    events = set(setup.facts.known_settings_events) | set(setup.runtime.events)
    if args.payloads:
        events |= {json.loads(p.read_text())["hook_event_name"] for p in args.payloads.glob("*.json")}
    answers = sorted(set(STDOUTS) | test_answers() | own_answers(setup))
    classes: dict[tuple, list] = collections.defaultdict(list)
    total = 0
    for event in sorted(events):
        for stdout in answers:
            for on_failure, code, stderr, failure in runs():
                if failure and stdout != answers[0]:
                    continue
                result = RunResult(code, stdout, stderr, 5, **failure)
                a, b = (_read(reader, setup, event, result, on_failure) for reader in (old, new))
                total += 1
                differ = ("raised",) if isinstance(a, Raised) or isinstance(b, Raised) else tuple(
                    f.name for f in dataclasses.fields(a) if getattr(a, f.name) != getattr(b, f.name))
                if differ:
                    classes[differ].append((event, code, stdout, stderr, on_failure, failure, a, b))
    print(f"{len(events)} events, {len(answers)} answers, {total} cases, "
          f"{sum(map(len, classes.values()))} differences in {len(classes)} classes")
    for differ, found in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        by_event = collections.Counter(case[0] for case in found)
        print(f"\n{'/'.join(differ)}: {len(found)} cases; {dict(by_event.most_common(8))}")
        for event, code, stdout, stderr, on_failure, failure, a, b in (found if args.cases else found[:3]):
            print(f"  {event} exit={code} {failure or ''} onFailure={on_failure} "
                  f"stdout={stdout[:90]} stderr={stderr!r}")
            for name in differ:
                print(f"      {name}: old={getattr(a, name, a)!r} new={getattr(b, name, b)!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
