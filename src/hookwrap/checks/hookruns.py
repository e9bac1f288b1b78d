"""Doctor's ``hook-runs`` check: every registered hook, run the way its CLI runs it.

For each hook of hookwrap.toml and each CLI it is registered with, the registered command runs
as ``hookwrap test NAME`` runs it (``hooktest.py``): through that CLI's shell, with its
environment variables, from the project folder, on the interpreter the command names, fed the
built-in sample payload of its event; the answer is read by that CLI's rules. The samples are
harmless calls (``echo hi > ran.txt``), and a hook only reads them: nothing in a payload is ever
run. A hook that cannot start (a script that compiles but raises at import on the Python the
hooks use), crashes, hangs past its timeout or answers what that CLI ignores fails here, while
every static check passes.

The hooks run for real, as in ``hookwrap test``: an audit hook logs the sample, a stop_gate runs
its check. So a hook runs here only where a CLI would already run it (``Consent``): not on a CLI
whose trust gate does not let this folder's hooks through yet (Gemini CLI, Codex CLI, Copilot
CLI, Qwen Code with folder trust on), and on a CLI without a gate (Claude Code, OpenCode, pi...)
only once the user has trusted the folder somewhere: a gate that lets it through, or Claude
Code's folder trust dialog. A repo cloned to be looked at runs nothing of its own by `doctor`
unless asked (``run_untrusted``, `doctor --run-untrusted`). Runs go in parallel. Each hook runs on one CLI first; when that run does not finish
within doctor's wait (``WAIT_S``) or its timeout, the hook is not started on its other CLIs: it
would only take as long again (a stop_gate's test suite) or hang again.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from ..generator.clis import all_setups, setup_of
from ..generator.clis.kit import FAIL, OK, WARN, Finding, HookCommand, Scope, last_line
from ..generator.errors import HookwrapError
from ..generator.words import join
from ..names import Platform
from .hooktest import HOOK_ERROR_HEADER, PlatformTest, registered_commands, run_registered

CHECK = "hook-runs"
WAIT_S = 10.0  # doctor waits at most this long for one run, whatever the hook's timeout
_IMPORT_3_9 = "unsupported operand type(s) for |"  # `X | None` evaluated on Python 3.9
# The last stderr line of a fail-closed hook that the launcher (launcher._block, run.py) ended
# with exit 2 because it could not start or answer: each CLI reads that as the hook's block, but
# it is the hook's failure, not its decision.
_LAUNCHER_BLOCK = re.compile(r"hookwrap: (?:\S+ fails closed and (?:could not start \((?P<start>.*)\)"
                             r"|(?P<why>.*)), so the call is blocked|the launcher cannot run "
                             r"(?P<old>on Python .*)); run `hookwrap doctor`")


@dataclass(frozen=True)
class Consent:
    """Which CLIs would run this folder's hooks now. ``refused``: a CLI whose trust gate stops
    them, and why; ``trusted_by``: where the user recorded trust in the folder (a gate that
    lets it through, an accepted trust dialog)."""

    refused: dict[Platform, str]
    trusted_by: list[str]

    def why_not(self, platform: Platform) -> str | None:
        """Why doctor does not run a hook on ``platform`` (None: it does)."""
        if platform in self.refused:
            return self.refused[platform]
        return None if self.trusted_by else UNTRUSTED_NO_GATE


UNTRUSTED_NO_GATE = "no-gate"


def consent(root: Path, home: Path, env: Mapping[str, str], scopes: list[Scope]) -> Consent:
    """Ask each CLI's trust check (what doctor's ``<cli>-trust`` says: a fail means the CLI
    would not run the hooks) and where the user's trust is recorded: a trust gate that applies
    here (``trust_edits`` names a store) and lets the folder through, or Claude Code's folder
    dialog (its trust store's ``dialog_file``)."""
    refused: dict[Platform, str] = {}
    trusted_by: list[str] = []
    for agent in all_setups():
        mine = [s for s in scopes if s.platform == agent.platform]
        check = f"{agent.platform.value}-trust"
        failed = [f for f in agent.trust_findings(root, home, mine, env)
                  if f.check == check and f.status == FAIL]
        if failed:
            refused[agent.platform] = f"{failed[0].message} ({check})"
            continue
        try:
            gated = bool(agent.trust_edits(root, home, env))
        except HookwrapError:
            gated = False
        if gated or agent.trust.trust_dialog_accepted(agent, root, home, env):
            trusted_by.append(agent.label)
    return Consent(refused, trusted_by)


def check_hook_runs(root: Path, manifest, scopes: list[Scope],
                    env: Mapping[str, str] | None = None, *, home: Path | None = None,
                    run_untrusted: bool = False) -> list[Finding]:
    """Run every registered hook once per CLI, as that CLI would; a finding per problem. Only
    where a CLI would run it already (``consent``), unless ``run_untrusted``."""
    project = {s.platform: s for s in scopes if s.project}
    allowed = None if run_untrusted else consent(
        root, Path.home() if home is None else home, dict(os.environ if env is None else env),
        scopes)
    jobs: dict[str, list[tuple[Platform, HookCommand]]] = {}
    withheld: dict[str, list[Platform]] = {}
    unread: list[str] = []
    for spec in manifest.hooks:
        for platform in spec.platforms:
            scope = project.get(platform)
            if scope is None:
                continue
            if scope.error:
                if scope.label not in unread:
                    unread.append(scope.label)
                continue
            commands = registered_commands(root, platform, spec.name, data=scope.data or {})
            why = allowed.why_not(platform) if allowed is not None and commands else None
            if why is not None:
                withheld.setdefault(why, []).append(platform)
                continue
            for cmd in commands:
                jobs.setdefault(spec.name, []).append((platform, cmd))
    results = _run_all(root, jobs, env)
    out: list[Finding] = []
    ran = 0
    for name, runs in jobs.items():
        tests = results[name]
        failed: dict[tuple[str, str], list[PlatformTest]] = {}
        for test in tests:
            if test.ran and test.clean and not _launcher_block(test):
                ran += 1
                continue
            kind, cause = _fault(test)
            if kind in _GROUPED:
                failed.setdefault((kind, cause), []).append(test)
            elif (single := _single(name, test, kind, cause)) not in out:  # once per CLI
                out.append(single)
        clis = len({platform for platform, _ in runs})  # a CLI may run it on several events
        found = [_grouped(name, kind, cause, group, clis)
                 for (kind, cause), group in failed.items()]
        tried = {test.platform for test in tests}
        skipped = list(dict.fromkeys(setup_of(platform).label for platform, _ in runs[len(tests):]
                                     if platform.value not in tried))
        if skipped and found:  # only the first run was made, and it did not finish
            found[-1] = replace(found[-1], message=f"{found[-1].message} (not started on "
                                f"{join(skipped)}: it would take as long there)")
        out += found
    if unread:
        out.append(Finding(CHECK, WARN, f"the hooks of {join(unread)} were not run: "
                           f"{'it does' if len(unread) == 1 else 'they do'} not parse "
                           "(settings-parse)", "fix the file, then run `hookwrap doctor` again"))
    out += [_withheld(why, platforms) for why, platforms in withheld.items()]
    if out or not jobs:
        return out or [Finding(CHECK, OK, "no registered hook to run")]
    return [Finding(CHECK, OK, f"every hook ran as its CLI runs it, on a sample call, and answered "
                    f"what that CLI reads ({ran} run{'s' if ran != 1 else ''} of {len(jobs)} "
                    f"hook{'s' if len(jobs) != 1 else ''})")]


def _withheld(why: str, platforms: list[Platform]) -> Finding:
    """The hooks not run on some CLIs, and why: no CLI would run them here yet."""
    labels = list(dict.fromkeys(setup_of(p).label for p in platforms))
    count = len(platforms)
    where = f"not run on {join(labels)} ({count} registration{'s' if count != 1 else ''})"
    fix = ("`hookwrap trust` records your trust where a CLI asks for it (for Claude Code: accept "
           "its folder trust dialog), and then doctor runs them; `hookwrap doctor "
           "--run-untrusted` runs them anyway, for real (see --help)")
    if why == UNTRUSTED_NO_GATE:
        one = len(labels) == 1
        return Finding(CHECK, WARN, f"{where}: {'it does' if one else 'they do'} not ask for "
                       f"trust here ({'it' if one else 'each'} would run them once started "
                       "here), and nothing records that you trust this folder (no CLI's "
                       "trusted folders hold it, and no Claude Code trust dialog was accepted "
                       "for it)", fix)
    return Finding(CHECK, WARN, f"{where}: {why}", fix)


def _run_all(root: Path, jobs: dict[str, list[tuple[Platform, HookCommand]]],
             env: Mapping[str, str] | None) -> dict[str, list[PlatformTest]]:
    """Each hook's runs, in ``jobs`` order: its first CLI first, the others once that run has
    finished in time (a run that did not is the hook's only one)."""
    if not jobs:
        return {}

    def run(job: tuple[Platform, HookCommand]) -> PlatformTest:
        platform, cmd = job
        return run_registered(root, platform, cmd, env=env, max_wait=WAIT_S)

    workers = max(2, min(8, 2 * (os.cpu_count() or 1)))
    results: dict[str, list[PlatformTest]] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        firsts = {pool.submit(run, runs[0]): name for name, runs in jobs.items()}
        rest: dict[str, list[Future[PlatformTest]]] = {}
        for future in as_completed(firsts):
            name = firsts[future]
            first = future.result()
            results[name] = [first]
            if not _stalled(first):
                rest[name] = [pool.submit(run, job) for job in jobs[name][1:]]
        for name, futures in rest.items():
            results[name] += [future.result() for future in futures]
    return {name: results[name] for name in jobs}


def _stalled(test: PlatformTest) -> bool:
    return test.result is not None and test.result.timed_out


# What went wrong with a run. The first four come from the hook itself, the same on every CLI,
# so one finding names every CLI it happened on; the others are about one CLI.
START, RAISED, HANG, CUT, FLOOD = "start", "raised", "hang", "cut", "flood"
NOT_RUN, RESIDENT, ANSWER = "not-run", "resident", "answer"
_GROUPED = (START, RAISED, HANG, CUT, FLOOD)


def _fault(test: PlatformTest) -> tuple[str, str]:
    """(kind, cause) of a run that was not clean; the cause is the same text on every CLI."""
    result = test.result
    if not test.ran or result is None:
        return NOT_RUN, test.summary.removeprefix("not run: ")
    if result.timed_out and (test.timeout_s or 0) > WAIT_S:
        return CUT, f"{test.timeout_s:g}"
    if test.command.startswith("http://") and (result.spawn_error or result.exit_code != 0):
        return RESIDENT, result.spawn_error or last_line(result.stderr)
    if result.timed_out:
        return HANG, f"it did not answer within its timeout ({test.timeout_s:g} s) and was killed"
    if result.stopped:
        return FLOOD, f"it {result.stopped}"
    blocked = _launcher_block(test)
    if blocked.startswith("gave no answer within"):
        return HANG, (f"it {blocked} (its fail-closed deadline, inside its {test.timeout_s:g} s "
                      "timeout)")
    if blocked:
        return START, f"exit {result.exit_code}: {blocked}"
    if result.spawn_error or result.exit_code != 0:
        how = f"exit {result.exit_code}" if result.exit_code is not None else (
            result.spawn_error or f"killed by signal {result.signal}")
        said = last_line(result.stderr)
        return START, f"{how}: {said}" if said else f"{how}, nothing on stderr"
    if test.verdict is not None and test.verdict.reason.startswith(HOOK_ERROR_HEADER):
        return RAISED, f"it raised {last_line(test.verdict.reason)}"
    return ANSWER, "; ".join(test.problems) or test.summary


def _launcher_block(test: PlatformTest) -> str:
    """Why the launcher blocked a fail-closed hook's call (``_LAUNCHER_BLOCK``), "" when it
    did not."""
    result = test.result
    match = _LAUNCHER_BLOCK.search(last_line(result.stderr)) if result is not None else None
    if match is None:
        return ""
    return match.group("start") or match.group("old") or match.group("why")


def _grouped(name: str, kind: str, cause: str, tests: list[PlatformTest], clis: int) -> Finding:
    """One finding for a fault of the hook itself, naming every CLI it happened on (of the
    hook's ``clis``) and what each CLI then does."""
    labels = list(dict.fromkeys(_label(t) for t in tests))
    where = f"any of its {clis} CLIs" if len(labels) == clis > 2 else join(labels)
    retry = (f"`hookwrap test {name} -p {tests[0].platform} -v` shows its exit code, stdout and "
             "stderr")
    if kind == CUT:
        return Finding(CHECK, WARN, f"{name} did not answer on {where} within {WAIT_S:g} s, "
                       f"doctor's wait (its timeout is {cause} s): stopped, not judged",
                       f"`hookwrap test {name} -p {tests[0].platform}` waits for it; "
                       "`hookwrap doctor --no-run` skips running hooks")
    if kind == HANG:
        return Finding(CHECK, FAIL, f"{name} hangs on {where}: {cause}; {_outcomes(tests)}",
                       f"make it finish within its timeout, or raise timeout in [hooks.{name}] "
                       f"of hookwrap.toml and run `hookwrap sync`; {retry}")
    if kind == FLOOD:
        return Finding(CHECK, FAIL, f"{name} floods its output on {where}: {cause}; "
                       f"{_outcomes(tests)}", f"make it print one JSON answer; {retry}")
    if kind == RAISED:
        return Finding(CHECK, FAIL, f"{name} crashes on {where}: {cause}; {_outcomes(tests)}",
                       f"fix the exception; {retry} (the traceback is in the reason)")
    fix = f"fix the script or its command; {retry}"
    if _IMPORT_3_9 in cause:
        fix = ("the interpreter cannot evaluate an annotation such as `HookOutput | None` (Python "
               "3.9 cannot): add `from __future__ import annotations` as the first statement of "
               f"the script; {retry}")
    return Finding(CHECK, FAIL, f"{name} cannot start on {where} ({cause}); {_outcomes(tests)}",
                   fix)


def _single(name: str, test: PlatformTest, kind: str, cause: str) -> Finding:
    """A finding about one CLI's run."""
    where = f"{name} on {_label(test)}"
    if kind == NOT_RUN:
        return Finding(CHECK, WARN, f"{where} was not run: {cause}",
                       f"`hookwrap test {name} -p {test.platform} --tool TOOL` runs it on a call "
                       "it selects" if "matcher" in cause else
                       "fix what the registration check names, then run `hookwrap doctor` again")
    if kind == RESIDENT:
        return Finding(CHECK, FAIL, f"{where} is resident, and `hookwrap serve` did not answer it "
                       f"({cause}); {_outcomes([test])}",
                       "run `hookwrap serve` (see resident-server)")
    return Finding(CHECK, FAIL, f"{where} answered what {_label(test)} does not read: {cause}; "
                   f"{_outcomes([test])}", f"fix what it prints; `hookwrap test {name} -p "
                   f"{test.platform} -v` shows its exit code, stdout and stderr")


_DOES = {"blocked": "blocked", "allowed": "goes on without it", "kept_working":
         "the agent keeps working", "stopped": "the agent stops", "ask": "the user is asked",
         "context": "goes on", "deferred": "deferred"}


def _outcomes(tests: list[PlatformTest]) -> str:
    """What the CLIs then do: "blocked on Claude Code; goes on without it on Gemini CLI"."""
    by: dict[str, list[str]] = {}
    for test in tests:
        outcome = test.verdict.outcome if test.verdict is not None else "allowed"
        labels = by.setdefault(_DOES.get(outcome, outcome), [])
        if _label(test) not in labels:
            labels.append(_label(test))
    if len(by) == 1 and len({t.platform for t in tests}) > 2:
        return f"{next(iter(by))} on every one"
    return "; ".join(f"{does} on {join(labels)}" for does, labels in by.items())


def _label(test: PlatformTest) -> str:
    return setup_of(Platform(test.platform)).label
