"""The dispatcher behind hookwrap's Cline hook files (``.clinerules/hooks/<Event>``).

Cline 3.0.65 runs one file per event, for every tool (it has no matcher), and reads one JSON
answer. The file hookwrap generates (``generator/clis/cline_hook.sh``) runs this module with
the project root, the event and that event's registrations (hookwrap.json's groups for it);
its Python form (``cline_hook.py.in``, when hookwrap.toml names python_windows) loads this file
and calls ``answer_within``. Each hook whose matcher selects the tool runs in turn, as
``/bin/sh -c <command>`` (on Windows: its ``argvWindows``, spawned without a shell) with the
payload on stdin, within its timeout and within ``DEADLINE_S`` for all of them; their answers
are merged into one. A hook that cannot answer (no JSON at exit 0, a crash, a timeout) is
reported on stderr; a fail-closed one blocks the tool call on PreToolUse.

Stdlib only; a hook process's runtime imports nothing of it.
"""

from __future__ import annotations

import json
import os
import sys
import time

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

# The hooks of one call get this long in all; the hook file gives up on this module at 110 s,
# and Cline on the hook file at 120 s (then the tool runs).
DEADLINE_S = 100.0
DEFAULT_TIMEOUT_S = 60.0
PRE_TOOL = "PreToolUse"
WINDOWS = os.name == "nt"  # no /bin/sh: each hook's argvWindows is spawned instead


def block_answer(reason: str) -> dict[str, Any]:
    """The block of ``_cline_protocol.block_answer`` (not imported: it would load the runtime)."""
    return {"overrideInput": None, "contextModification": reason}


def main() -> None:
    """``python3 -S _cline_hooks.py <root> <event> <registrations JSON>``, the payload on stdin
    (run as a script: importing the hookwrap package would load the whole runtime)."""
    root, event, groups = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    raw = sys.stdin.buffer.read()
    answer = dispatch(root, event, groups, raw)
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


def answer_within(root: str, event: str, registrations: str, fallback: str,
                  seconds: float) -> None:
    """The Python hook file's part: the dispatcher's answer to the payload on stdin, or
    ``fallback`` when it has none within ``seconds``; UTF-8 with ``\n`` on every OS. Ends the
    process (a hung hook's thread is not waited for)."""
    import threading

    raw = sys.stdin.buffer.read()
    found: list[dict[str, Any]] = []

    def work() -> None:
        try:
            found.append(dispatch(root, event, json.loads(registrations), raw))
        except Exception as error:  # reported; the fallback answers
            sys.stderr.write(f"hookwrap: Cline hook dispatcher failed: {error!r}\n")

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    out = json.dumps(found[0]) if found else fallback
    if not found:
        sys.stderr.write(f"hookwrap: Cline hook file {event}: its hooks gave no answer\n")
    sys.stdout.buffer.write((out + "\n").encode("utf-8") if out else b"")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def dispatch(root: str, event: str, groups: list[Any], raw: bytes,
             clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Run the handlers selected for this payload, in order, and merge their answers."""
    start = clock()
    handlers = selected(groups, _tool_name(raw) if _has_matcher(groups) else "")
    answers = []
    for handler in handlers:
        left = DEADLINE_S - (clock() - start)
        timeout = min(_number(handler.get("timeout"), DEFAULT_TIMEOUT_S), left)
        answer, failure = run_handler(root, handler, raw, timeout)
        if failure:
            name = handler.get("name") or handler.get("command")
            sys.stderr.write(f"hookwrap: Cline hook {name}: {failure}\n")
            if handler.get("failClosed") is True and event == PRE_TOOL:
                answer = block_answer(f"hookwrap: the fail-closed hook {name} could not answer "
                                      f"({failure}); the call was blocked")
        if answer:
            answers.append(answer)
    return merge(event, answers)


def _has_matcher(groups: list[Any]) -> bool:
    return any(isinstance(g, dict) and g.get("matcher") for g in groups)


def _tool_name(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return ""
    call = data.get("tool_call") or data.get("tool_result") if isinstance(data, dict) else None
    name = call.get("name") if isinstance(call, dict) else None
    return name if isinstance(name, str) else ""


def selected(groups: list[Any], tool: str) -> list[dict[str, Any]]:
    """The handlers of every group whose matcher (a regex, searched) selects ``tool``; a group
    without one selects every call."""
    found = []
    for group in groups if isinstance(groups, list) else ():
        if not isinstance(group, dict):
            continue
        matcher = group.get("matcher")
        if isinstance(matcher, str) and matcher not in ("", "*"):
            import re

            try:
                if re.search(matcher, tool) is None:
                    continue
            except re.error:
                continue
        found += [h for h in group.get("hooks") or () if isinstance(h, dict)
                  and h.get("type") == "command" and isinstance(h.get("command"), str)]
    return found


def _number(value: Any, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) and value > 0 else default


def run_handler(root: str, handler: dict[str, Any], raw: bytes, timeout: float
                ) -> tuple[dict[str, Any] | None, str]:
    """(its answer, "") or (None, why it gave none). Bounded by ``hookproc.run``: a process
    the hook leaves behind holding its output does not hold the answer."""
    if timeout <= 0:
        return None, f"no time left of the {DEADLINE_S:g} s the hooks of one call get"
    argv = handler_argv(root, handler, windows=WINDOWS)
    if argv is None:
        return None, ("no Windows form (argvWindows) to start it without a shell: hookwrap sync "
                      "writes it when hookwrap.toml names python_windows")
    env = dict(os.environ, HOOKWRAP_PROJECT_DIR=root, HOOKWRAP_CLINE="1")
    done = _run_bounded()(argv, raw, timeout=timeout, env=env)
    if done.stderr:  # the hook's own words, where they went before: the hook file's stderr
        sys.stderr.write(done.stderr.decode("utf-8", "replace"))
    failure = done.why(timeout)
    if failure:
        return None, failure
    out = done.stdout
    try:
        data = json.loads(out.decode("utf-8", "replace")) if out.strip() else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return None, f"exit {done.code} without a JSON answer"
    return data, ""


def handler_argv(root: str, handler: dict[str, Any], *, windows: bool) -> list[str] | None:
    """What starts the hook: ``/bin/sh -c <command>``; on Windows its ``argvWindows`` (words,
    a ``.hookwrap/`` one resolved against the project), None when it has none."""
    if not windows:
        return ["/bin/sh", "-c", handler["command"]]
    words = handler.get("argvWindows")
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        return None
    return [os.path.join(root, w) if w.startswith(".hookwrap/") else w for w in words]


def _run_bounded() -> Any:
    """``hookproc.run`` of the runtime. This file runs as a script (``python3 -S``), outside the
    package: hookproc is loaded from beside its folder, by path (nothing else of the runtime
    is imported, and sys.path stays as it is)."""
    if __package__:
        from ..hookproc import run

        return run
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hookproc.py")
    spec = importlib.util.spec_from_file_location("hookwrap_hookproc", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.run


def merge(event: str, answers: list[dict[str, Any]]) -> dict[str, Any]:
    """One answer, as Cline merges the answers of several hook files: a block (an overrideInput
    no tool accepts) wins over a rewrite, contexts are joined, any cancel cancels."""
    merged: dict[str, Any] = {}
    contexts: list[str] = []
    errors: list[str] = []
    blocked = False
    for given in answers:
        answer = _cline_words(event, given)
        context = answer.get("context")
        if not isinstance(context, str):
            context = answer.get("contextModification")
        error = answer.get("errorMessage")
        if answer.get("cancel") is True:
            merged["cancel"] = True
            if isinstance(error, str) and error:
                errors.append(error)
        elif not isinstance(context, str) and isinstance(error, str):
            context = error
        if isinstance(context, str) and context:
            contexts.append(context)
        if "overrideInput" in answer and not blocked:
            value = answer["overrideInput"]
            blocked = value is None or value == {}
            merged["overrideInput"] = None if blocked else value
    if contexts:
        merged["contextModification"] = "\n\n".join(contexts)
    if errors:
        merged["errorMessage"] = "\n".join(errors)
    return merged


def _cline_words(event: str, answer: dict[str, Any]) -> dict[str, Any]:
    """A hook's answer in Cline's words: the error document a hook writes when it cannot read
    its payload (``{"decision": "block", "reason"}``) is a block on PreToolUse."""
    if answer.get("decision") == "block" and not any(
            key in answer for key in ("overrideInput", "contextModification", "context")):
        reason = str(answer.get("reason") or "blocked by a hookwrap hook")
        return block_answer(reason) if event == PRE_TOOL else {"contextModification": reason}
    return answer


if __name__ == "__main__":
    main()
