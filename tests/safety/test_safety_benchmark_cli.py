"""`run.py --quick` from this venv, and `--cli`'s lists and variants without starting any CLI.

Nothing here is timed: the rows must be measurable (no "unavailable"), the lists must agree, and
the resident and filtered variants must register what their labels say.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cli_bench():
    module = _load("hookwrap_cli_bench", REPO / "benchmarks" / "cli_bench.py")
    yield module
    del sys.modules["hookwrap_cli_bench"]


@pytest.fixture
def repo(cli_bench, tmp_path: Path):
    """A project after `hookwrap init --platform claude`, in a sandboxed HOME."""
    from e2e.harness import hook_python
    from e2e.hwrepo import HookwrapRepo

    box = cli_bench.QuietSandbox(tmp_path / "box", hook_python(), []).create()
    project = tmp_path / "proj"
    project.mkdir()
    repo = HookwrapRepo(project, box)
    repo.hookwrap("init", "--platform", "claude")
    return repo


def _claude_entries(repo) -> list[dict]:
    """The PreToolUse entries: the calls the benchmark makes are tool calls (a shell hook is
    also on PreSkillShellCommand, which no tool call fires)."""
    data = json.loads((repo.root / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return [entry for group in data["hooks"]["PreToolUse"] for entry in group["hooks"]]


def test_quick_run_from_this_venv_measures_every_hook_row(tmp_path: Path) -> None:
    # The fewest rounds and hooks that still measure every row (one round, no warm-up; a project
    # of one hook): this checks that the rows run, not their figures.
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "run.py"), "--quick", "--no-peer",
                           "--runs", "1", "--hooks", "1", "--warmup", "0"],
                          check=False, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split(" | ")[0].lstrip("| "): line for line in done.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| what")}
    for label in ("floor: json.load(stdin)", "hookwrap guard, claude", "hookwrap guard, gemini",
                  "hookwrap skeleton (no rules), claude"):
        row = next((line for key, line in rows.items() if key.startswith(label)), None)
        assert row is not None, (label, done.stdout)
        assert "unavailable" not in row and "x" in row.split(" | ")[4], row
    assert len(rows) > 10, done.stdout
    for label, row in rows.items():  # every other row too, the hookwrap command's and doctor's
        assert "unavailable" not in row or label.startswith("peer: "), row
    assert f"renders them from {sys.executable}" in done.stdout, done.stdout[:600]


def test_run_py_offers_exactly_the_clis_cli_bench_has(cli_bench) -> None:
    run = _load("hookwrap_bench_cli_names", REPO / "benchmarks" / "run.py")
    try:
        assert set(run.CLI_CASES) == set(cli_bench.CLIS)
    finally:
        del sys.modules["hookwrap_bench_cli_names"]
    assert {"opencode", "droid"} <= set(cli_bench.CLIS)


def test_every_variant_says_why_where_it_does_not_apply(cli_bench) -> None:
    assert cli_bench.VARIANTS[0].label == "no hook"
    for variant in cli_bench.VARIANTS:
        skipped = [cli for cli in cli_bench.CLIS if not variant.applies(cli)]
        assert not skipped or variant.unsupported.startswith("not supported"), variant.label
    resident = next(v for v in cli_bench.VARIANTS if "resident" in v.label)
    assert [cli for cli in cli_bench.CLIS if resident.applies(cli)] == ["claude", "opencode", "pi",
                                                                         "kilo"]


def test_the_resident_variant_registers_an_http_entry_and_its_server_answers(cli_bench, repo) -> None:
    running = cli_bench._resident_guard(repo, "claude")
    try:
        (entry,) = [e for e in _claude_entries(repo) if e.get("type") == "http"]
        assert entry["url"].endswith("/hookwrap/claude/guard"), entry
        health = entry["url"].rsplit("/hookwrap/", 1)[0] + "/hookwrap/health"
        with urllib.request.urlopen(health, timeout=5) as answer:
            assert json.loads(answer.read())["root"] == str(repo.root)
        assert running.cpu_ms() > 0  # the server's own CPU is readable, so a run can count it
    finally:
        running.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(health, timeout=5)


def test_the_filtered_variant_gives_claude_an_if_and_no_command_hook_for_echo(cli_bench, repo) -> None:
    assert cli_bench._filtered_audit(repo, "claude") is None
    (entry,) = _claude_entries(repo)
    assert entry["if"] == "Bash(git *)", entry
    assert entry["type"] == "command", entry


def test_a_call_is_timed_from_its_turn_s_answer_to_the_next_request(cli_bench) -> None:
    """Turn k's request comes after call k-1: call k runs from turn k's answer (``ready``) to
    turn k+1's request (``arrived``). The first call is left out; CPU counts per call over the
    same calls."""
    mark = cli_bench.Mark
    marks = {0: mark(0.0, 0.5, 0.0, 0.0), 1: mark(1.0, 1.1, 100.0, 10.0),
             2: mark(1.3, 1.35, 130.0, 11.0), 3: mark(1.85, 1.9, 190.0, 14.0)}
    session = cli_bench.session_of(marks, 3)
    assert [round(g) for g in session.gaps] == [200, 500]
    assert (session.cli_cpu, session.server_cpu) == (45.0, 2.0)
    assert session.median == 350.0 and session.cpu == 47.0
    assert cli_bench.session_of({k: v for k, v in marks.items() if k != 2}, 3) == \
        "no model request for turn 2"


def test_the_cli_s_cpu_counts_its_live_and_reaped_children_but_not_the_server(cli_bench) -> None:
    """A CLI's hooks are its children (reaped: counted in its own figures) or still running;
    the resident server, a child of the benchmark too, is counted apart."""
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               f"subprocess.run([sys.executable, '-c', {burn!r}])\n"
                               "print('reaped', flush=True)\ntime.sleep(30)\n"],
                              stdout=subprocess.PIPE, text=True)
    server = subprocess.Popen([sys.executable, "-c", burn + "time.sleep(30)\n"])
    try:
        assert parent.stdout.readline() == "reaped\n"
        time.sleep(0.5)  # the server burns its 0.3 s meanwhile
        alone = cli_bench._tree_cpu_ms(os.getpid(), frozenset({server.pid}))
        both = cli_bench._tree_cpu_ms(os.getpid())
        assert 300 <= alone < both
        assert both - alone >= 250
    finally:
        for proc in (parent, server):
            proc.kill()
            proc.wait()


def _record(handler: str, ms: float, call_id: str | None = None, command: str | None = None,
            sync_ms: float = 0.0, cpu_ms: float = 0.0, child_cpu_ms: float = 0.0) -> dict:
    return {"handler": handler, "id": call_id, "command": command, "ms": ms, "sync_ms": sync_ms,
            "cpu_ms": cpu_ms, "child_cpu_ms": child_cpu_ms}


def test_the_handlers_of_a_call_are_summed_by_its_id_and_the_others_shared(cli_bench) -> None:
    """A call's tool handlers are found by the id its PreToolUse record ties to `echo callN`
    (call 0, the warm-up, is left out); the other handlers' session total is shared evenly
    over the calls; of a handler the CLI does not await only the synchronous part counts."""
    tools = ("tool.execute.before", "tool.execute.after")
    records = [_record("chat.message", 3.0, cpu_ms=1.5),
               _record("tool.execute.before", 50.0, "c0", "echo call0"),
               _record("tool.execute.after", 1.0, "c0"),
               _record("tool.execute.before", 4.0, "c1", "echo call1", cpu_ms=1.0, child_cpu_ms=10.0),
               _record("event", 900.0, sync_ms=0.3),  # unawaited: its continuation is the CLI's
               _record("tool.execute.after", 0.5, "c1", cpu_ms=0.5),
               _record("tool.execute.before", 6.0, "c2", "echo call2", cpu_ms=2.0),
               _record("tool.execute.after", 1.0, "c2")]
    got = cli_bench.handlers_of(records, 3, tools, ("event",))
    share = (3.0 + 0.3) / 3
    assert got.ms == pytest.approx([4.5 + share, 7.0 + share])
    assert got.cpu == pytest.approx([11.5 + (1.5 + 0.3) / 3, 2.0 + (1.5 + 0.3) / 3])
    assert got.median == pytest.approx(5.75 + share)
    # Awaited, the same event would count whole.
    assert cli_bench.handlers_of(records, 3, tools).ms[0] == pytest.approx(4.5 + 903.0 / 3)
    assert cli_bench.handlers_of(records[:4], 3, tools) == "no tool.execute.before record for call 2"


# Loads the wrapper the benchmark writes as the CLI would (OpenCode's and Kilo CLI's plugin
# function, pi's extension with a fake `pi`), then makes one harmless call and one the guard
# blocks; prints what each returned.
DRIVER = r"""
const [kind, file, project] = process.argv.slice(2);
const module = await import(file);
const out = [];
if (kind === "plugin") {
  const hooks = await Object.values(module).find((v) => typeof v === "function")(
    { directory: project, worktree: project, client: {} });
  hooks.event({ event: { type: "message.updated", properties: {} } });
  for (const [i, command] of [[1, "echo call1"], [2, "git push --force origin main"]]) {
    try {
      await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: `c${i}` },
                                         { args: { command } });
      out.push("allowed");
    } catch (error) { out.push(`blocked: ${error.message}`); }
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: `c${i}` },
                                      { output: "", title: "", metadata: {} });
  }
} else {
  const handlers = {};
  module.default({ on: (event, handler) => { handlers[event] = handler; } });
  const ctx = { cwd: project, hasUI: false, sessionManager: { getSessionId: () => "s" } };
  for (const [i, command] of [[1, "echo call1"], [2, "git push --force origin main"]]) {
    const verdict = await handlers.tool_call({ toolName: "bash", toolCallId: `c${i}`, input: { command } }, ctx);
    out.push(verdict && verdict.block ? `blocked: ${verdict.reason}` : "allowed");
    await handlers.tool_result({ toolName: "bash", toolCallId: `c${i}`, input: { command }, content: [] }, ctx);
  }
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(__import__("shutil").which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("cli", ["opencode", "pi"])
def test_the_wrapper_runs_the_real_shim_and_times_each_handler_the_cli_calls(
        cli_bench, tmp_path: Path, cli: str) -> None:
    """The CLI loads the benchmark's wrapper in place of hookwrap's shim: the shim's own
    handlers still answer (the guard blocks a forced push), each call is logged with its id
    and command, and a sleep probe is inside what the wrapper times."""
    from e2e.harness import hook_python
    from e2e.hwrepo import HookwrapRepo

    box = cli_bench.QuietSandbox(tmp_path / "box", hook_python(), []).create()
    project = tmp_path / "proj"
    project.mkdir()
    (project / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")  # node: ES modules
    repo = HookwrapRepo(project, box)
    repo.hookwrap("init", "--platform", cli)
    repo.add("before_tool", "guard")
    log = tmp_path / "handlers.jsonl"
    assert cli_bench.wrap_shim(project, cli, log, "sleep")
    shim = project / (".opencode/plugins" if cli == "opencode" else ".pi/extensions")
    assert sorted(p.name for p in shim.iterdir()) == [cli_bench.WRAPPER_NAME]
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER, encoding="utf-8")
    done = subprocess.run(["node", str(driver), cli_bench.SHIM_KINDS[cli],
                           str(shim / cli_bench.WRAPPER_NAME), str(project)],
                          cwd=project, env=box.env(), capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    allowed, blocked = json.loads(done.stdout.strip().splitlines()[-1])
    assert allowed == "allowed" and blocked.startswith("blocked: ") and "push" in blocked, blocked
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    before, after = cli_bench.WRAPPED_TOOLS[cli_bench.SHIM_KINDS[cli]]
    pre = [r for r in records if r["handler"] == before]
    assert [(r["id"], r["command"]) for r in pre] == [("c1", "echo call1"),
                                                        ("c2", "git push --force origin main")]
    assert all(r["ms"] >= cli_bench.CHECK_SLEEP_MS for r in pre), pre
    assert sum(r["child_cpu_ms"] for r in pre) > 0  # the guard's processes, reaped: counted
    assert [r["id"] for r in records if r["handler"] == after] == ["c1", "c2"]
    if cli == "opencode":
        (event,) = [r for r in records if r["handler"] == "event"]
        assert event["sync_ms"] <= event["ms"]


def test_the_check_s_help_names_the_sleep_the_benchmark_uses(cli_bench, capsys) -> None:
    run = _load("hookwrap_bench_cli_help", REPO / "benchmarks" / "run.py")
    try:
        with pytest.raises(SystemExit):
            run.main(["--help"])
    finally:
        del sys.modules["hookwrap_bench_cli_help"]
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"sleep {cli_bench.CHECK_SLEEP_MS} ms" in help_text


_RUN = """\
load average (1/5/15 min) 1.00/1.00/1.00 at start

| CLI | variant | a call takes, ms | added per call, ms | note |
|---|---|---:|---:|---|
| pi 0.73.1 | no hook | 11.7 (9.5 to 17.2) | - |  |
| pi 0.73.1 | guard (command hook) | 35.9 (32.6 to 41.1) | {added} | server's CPU 0.7 (0.7 to 1.0) |

| CLI | variant | the CLI awaits hookwrap's handlers, ms a call | the session's call added, ms |
|---|---|---:|---:|
| pi 0.73.1 | guard (command hook) | 24.4 (22.7 to 28.4) | {added} |

for docs/performance.md:

| CLI | no hook: a call takes, ms | the guard as a command adds, ms; CPU |
|---|---:|---:|
| pi 0.73.1 | 99.0 (98.0 to 99.5) | {added}; CPU 1.0 (0.5 to 1.5) |
"""


def _agree(tmp_path: Path, first: str, second: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "1.txt").write_text(first)
    (tmp_path / "2.txt").write_text(second)
    return subprocess.run([sys.executable, str(REPO / "benchmarks" / "agree.py"),
                           str(tmp_path / "1.txt"), str(tmp_path / "2.txt")],
                          capture_output=True, text=True, timeout=60)


def test_agree_pairs_every_figure_by_row_and_column_and_needs_overlapping_spreads(tmp_path: Path) -> None:
    done = _agree(tmp_path, _RUN.format(added="25.8 (22.8 to 26.4)"),
                  _RUN.format(added="26.1 (26.3 to 30.0)"))
    assert done.returncode == 0, done.stdout + done.stderr
    # a call's two figures, the added figure, the server's note, the handlers: the repeated
    # session figure beside the handlers and the docs' summary table are not counted again
    assert "5 of 5 figures agree" in done.stdout
    assert "NO" not in done.stdout
    done = _agree(tmp_path, _RUN.format(added="25.8 (22.8 to 26.4)"),
                  _RUN.format(added="27.0 (26.5 to 30.0)"))
    assert done.returncode == 1
    lines = [line for line in done.stdout.splitlines() if line.startswith("NO")]
    assert lines == ["NO pi 0.73.1 | guard (command hook) | added per call, ms: "
                     "25.8 (22.8 to 26.4) / 27.0 (26.5 to 30.0)"]
    assert "4 of 5 figures agree" in done.stdout and "1 do not" in done.stdout


def test_agree_fails_on_outputs_with_other_figures_or_none(tmp_path: Path) -> None:
    first = _RUN.format(added="25.8 (22.8 to 26.4)")
    done = _agree(tmp_path, first, first.replace("| pi 0.73.1 | no hook | 11.7 (9.5 to 17.2) | - |  |\n", ""))
    assert done.returncode == 1 and "figures in one output only: 1" in done.stdout
    done = _agree(tmp_path, "nothing here", "nor here")
    assert done.returncode == 2 and "hint:" in done.stderr


def test_rounds_go_over_every_cli_before_the_next_round(cli_bench, monkeypatch, capsys) -> None:
    """Each CLI's rounds span the whole run (round-major), so a spread over rounds shows the
    machine's drift between rounds minutes apart; a CLI that fails is left out of later rounds."""
    ran: list[tuple[str, str]] = []

    def session(case, variant, python, calls):
        ran.append((case.name, variant.label))
        if case.name == "codex":
            return "codex: no mock"
        return cli_bench.Session([1.0, 2.0, float(len(ran))], 3.0, 0.0)

    monkeypatch.setattr(cli_bench, "_one_session", session)
    monkeypatch.setattr(cli_bench, "shim_calls", lambda *a, **k: "no shim here")
    out = cli_bench.cli_table(["gemini", "codex", "droid"], sys.executable, "", 2, 3)
    blocks = [name for i, (name, _) in enumerate(ran) if i == 0 or ran[i - 1][0] != name]
    assert blocks == ["gemini", "codex", "droid", "gemini", "droid"]
    gemini = [label for name, label in ran if name == "gemini"]
    assert gemini == ["no hook", "guard (command hook)", "guard (command hook)", "no hook"]
    assert "codex: no mock" in out
    assert "the machine's speed: a fixed loop took" in out
    log = capsys.readouterr().err
    assert "round 1, codex: load average" in log and "; failed: codex: no mock" in log, log
    assert "round 2, codex" not in log and "round 2, droid" in log, log
