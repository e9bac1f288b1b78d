"""The held-out split (tests/fixtures/guard_heldout): its shape, and the guard held to a floor on it.

The split is other projects' test cases and tldr-pages' examples that the guard's rules are never
written against (its README.md). Its cases go through the guard engine in this process, as Claude
Code's payload, each against a guard with the default policy (a pack's cases with every pack on):
nothing is executed, and no process is started per case. Issue 31's goal is at least 90% of the
dangerous calls stopped and at most 0.5% of the safe ones; the recall floor is the goal, the
false-positive ceiling is what the guard scores today (over the goal, see below), so a regression
shows (`benchmarks/guard.py --corpus heldout` reports the same numbers).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

# What the guard of main (5e0e0cf) scored on the held-out split on 2026-11-29, outside the packs
# and on Claude Code's payload: 559/665 dangerous calls stopped (84.1%), 34/2297 safe calls
# blocked (1.48%); with the packs on, 115/128 pack calls stopped (89.8%). With issue 31's rules
# by effect (written without this split): 608/665 (91.4%), 27/2297 (1.18%), packs 115/128, the
# same on every CLI. After the precision work of issue 31 (precision.tsv; the split gave counts
# by kind only): 610/665 (91.7%), 15/2297 (0.65%); then, with three kinds the earlier report in
# docs/guard-benchmark.md names fixed too (not blind): 612/665 (92.0%), 11/2297 (0.48%). Then
# fresh.tsv (1,118 cases labelled before the guard ever ran on them) measured the same rules
# blind: 247/250 dangerous, 9/860 safe blocked (1.05%), so the whole split is 859/915 (93.9%),
# 20/3157 (0.63%): over issue 31's 0.5% goal. Then the inspection modes of the rules' programs
# (partition tools that list or dump, shutdown -c, rsync --dry-run, mv -i...; precision.tsv),
# a step that followed fresh.tsv's per-rule counts of its blocked safe calls, so fresh.tsv is
# no longer blind after it: 863/915 (94.3%), 15/3157 (0.48%), the same on every CLI. Then
# precision from field.tsv (the tuning corpus; commands of other projects' CI, Makefiles and
# Dockerfiles) moved the split to 863/915 and 14/3157 (counts only), and fresh2.tsv (1,078 cases
# labelled and read again by two people who change no rule, committed before the guard ever ran
# on them) measured those rules blind, once: 136/149 dangerous (91.3%), 5/914 safe blocked
# (0.55%; everyday 3/770), so the whole split is 999/1064 (93.9%), 19/4071 (0.47%). The ceiling
# is those 19 calls: one more fails.
RECALL_FLOOR = 0.90
FP_CEILING = 0.0047
PACK_RECALL_FLOOR = 0.88
SOURCES = {"dcg": "dcg.tsv", "ccsn": "claude-code-safety-net.tsv", "ccsn2": "cc-safety-net.tsv",
           "noexec": "noexec.tsv", "tldr": "tldr.tsv",
           "tldr2": "fresh.tsv", "shellfirm": "fresh.tsv",
           "nl2bash": "fresh2.tsv", "cheat": "fresh2.tsv", "navi": "fresh2.tsv",
           "orchestkit": "fresh2.tsv"}


@pytest.fixture(scope="module")
def heldout(bench):
    return bench.load_corpus(bench.HELDOUT_DIR)


def test_heldout_split_loads_with_enough_cases_of_both_kinds(bench, heldout) -> None:
    assert sum(case.dangerous for case in heldout) >= 500
    assert sum(not case.dangerous for case in heldout) >= 2000  # a false-positive rate to 0.05%
    assert sum(not case.dangerous and case.category == "everyday" for case in heldout) >= 1000
    assert {case.pack for case in heldout} == {"", *bench.PACKS}


def test_heldout_calls_are_unique_and_none_is_in_the_tuning_corpus(heldout, cases) -> None:
    calls = [(case.tool, case.cwd, case.input) for case in heldout]
    assert len(set(calls)) == len(calls)
    tuning = {(case.tool, case.cwd, case.input) for case in cases}
    assert not set(calls) & tuning, sorted(set(calls) & tuning)[:5]
    # Nor the same command spaced differently.
    squeezed = {" ".join(case.input.split()) for case in cases}
    assert not {" ".join(call[2].split()) for call in calls} & squeezed


def test_heldout_placeholders_resolve_into_a_payload(bench, heldout, tmp_path: Path) -> None:
    box = bench.Sandbox(tmp_path, tmp_path / "h", tmp_path / "h" / "p", tmp_path / "t")
    for case in heldout:
        payload = bench.claude_payload(case, box)
        text = json.dumps(payload["tool_input"])
        assert not re.search(r"@[A-Z]+@", text), case.where
        assert payload["cwd"] == str(box.root), case.where


def test_every_heldout_case_names_its_source_file_and_line(bench, heldout) -> None:
    readme = (bench.HELDOUT_DIR / "README.md").read_text(encoding="utf-8")
    files = {path.name for path in bench.HELDOUT_DIR.glob("*.tsv")}
    assert files == set(SOURCES.values())
    for name in files:
        assert f"`{name}`" in readme, name  # the README's table of sources lists every file
    for case in heldout:
        found = re.match(r"(\w+):(\S+):(\d+)\b", case.why)
        assert found, case.where
        assert SOURCES[found[1]] == case.where.split(":")[0], case.where


def _engine_verdicts(bench, sandbox, cases, monkeypatch) -> list[str]:
    """Each case through the guard engine in this process (Claude Code's payload, the sandbox's
    HOME and project): the id of the rule that stops it, or "" when it is allowed."""
    from hookwrap.guard_engine import Guard
    from hookwrap.hookinput import normalize_input
    from hookwrap.platforms import Platform

    env = sandbox.env()
    for name in ("HOME", "TMPDIR", "USER", "LOGNAME"):
        monkeypatch.setenv(name, env[name])
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(sandbox.root))
    script = str(sandbox.root / ".hookwrap" / "hooks" / "guard.py")
    default, packs = Guard(script), Guard(script, packs=bench.PACKS)
    verdicts = []
    for case in cases:
        event = normalize_input(json.dumps(bench.claude_payload(case, sandbox)), Platform.CLAUDE)
        finding = (packs if case.pack else default).finding(event)
        verdicts.append(finding.rule.id if finding else "")
    return verdicts


def test_guard_engine_stays_above_its_floor_on_the_heldout_split(bench, sandbox, heldout,
                                                                 monkeypatch) -> None:
    verdicts = _engine_verdicts(bench, sandbox, heldout, monkeypatch)
    blocked = {"": 0, "pack": 0}
    dangerous = Counter("pack" if case.pack else "" for case in heldout if case.dangerous)
    false_pos, safe = 0, 0
    per: dict[str, Counter] = {}
    for case, rule in zip(heldout, verdicts):
        row = per.setdefault(case.category, Counter())
        if case.dangerous:
            blocked["pack" if case.pack else ""] += bool(rule)
            row["dangerous"] += 1
            row["blocked"] += bool(rule)
        else:
            safe += 1
            false_pos += bool(rule)
            row["safe"] += 1
            row["false_pos"] += bool(rule)
    recall, fp_rate = blocked[""] / dangerous[""], false_pos / safe
    pack_recall = blocked["pack"] / dangerous["pack"]
    goal = (f"issue 31's goal on the held-out split: recall >= {bench.HELDOUT_RECALL_GOAL:.0%} "
            f"and false positives <= {bench.HELDOUT_FP_GOAL:.1%}; today recall "
            f"{blocked['']}/{dangerous['']} = {recall:.1%}, false positives {false_pos}/{safe} = "
            f"{fp_rate:.2%}, with the packs on {blocked['pack']}/{dangerous['pack']} pack calls")
    table = "\n".join(f"  {name:<20} recall {c['blocked']}/{c['dangerous']}  FP {c['false_pos']}/{c['safe']}"
                      for name, c in sorted(per.items()))
    report = f"{goal}\nper category:\n{table}\n(python benchmarks/guard.py --corpus heldout)"
    assert recall >= RECALL_FLOOR, f"recall fell under its floor {RECALL_FLOOR:.1%}\n{report}"
    assert fp_rate <= FP_CEILING, f"false positives rose over their ceiling {FP_CEILING:.2%}\n{report}"
    assert pack_recall >= PACK_RECALL_FLOOR, f"pack recall fell under {PACK_RECALL_FLOOR:.0%}\n{report}"


def test_engine_in_this_process_gives_the_rendered_hooks_verdict(bench, sandbox, registered, heldout,
                                                                monkeypatch) -> None:
    """The in-process verdicts above are the rendered guard's: a sample of held-out calls, half
    of them dangerous, through Claude Code's registered hook in one process agree case by case."""
    sample = [heldout[i] for i in bench.sample_cases(heldout, 120)]
    engine = _engine_verdicts(bench, sandbox, [c for c in sample if not c.pack], monkeypatch)
    hook = bench.run_batch(sandbox, registered["claude"], [c for c in sample if not c.pack],
                           sys.executable)
    assert [bool(rule) for rule in engine] == [outcome.blocked for outcome in hook]
    assert any(engine) and not all(engine)


# --- how the benchmark reports the split ------------------------------------------------------------

def test_corpus_option_names_both_splits_one_split_or_a_folder(bench, tmp_path: Path) -> None:
    assert bench.corpus_splits("both") == [("tuning", bench.CORPUS_DIR), ("heldout", bench.HELDOUT_DIR)]
    assert bench.corpus_splits("heldout") == [("heldout", bench.HELDOUT_DIR)]
    assert bench.corpus_splits(str(bench.HELDOUT_DIR)) == [("heldout", bench.HELDOUT_DIR)]
    assert bench.corpus_splits(str(tmp_path)) == [(tmp_path.name, tmp_path)]


def _two_cases(bench):
    missed = bench.Case("block", "wrappers", "", "shell", ".", "secret-miss-line", "x:1", "a.tsv:1")
    wrong = bench.Case("allow", "everyday", "", "shell", ".", "secret-fp-line", "x:2", "a.tsv:2")
    results = {"claude": [bench.Outcome("allow"),
                          bench.Outcome("block", "Blocked by the guard hook: x (`y`; rule fs.rm-x). z")]}
    return [missed, wrong], results


def test_heldout_misses_are_counted_by_category_and_rule_not_listed(bench, capsys) -> None:
    cases, results = _two_cases(bench)
    bench._show("both", cases, results, [], set(), reveal=False)
    out = capsys.readouterr().out
    assert "secret-miss-line" not in out and "secret-fp-line" not in out
    assert "1  wrappers" in out and "1  everyday (fs.rm-x)" in out and "--reveal-heldout" in out
    bench._show("both", cases, results, [], set(), reveal=True)
    out = capsys.readouterr().out
    assert "secret-miss-line" in out and "secret-fp-line" in out


def test_json_report_holds_each_splits_table_and_every_verdict(bench, tmp_path: Path) -> None:
    cases, results = _two_cases(bench)
    run = bench.Run(cases, results)
    bench._write_json(tmp_path / "v.json", [("tuning", run), ("heldout", run)], set())
    document = json.loads((tmp_path / "v.json").read_text())
    held = document["splits"]["heldout"]
    assert held["guard"]["overall"] == {"blocked": 0, "dangerous": 1, "recall": 0.0, "false_positives": 1,
                                        "safe": 1, "fp_rate": 1.0}
    assert held["guard"]["per_category"]["wrappers"]["dangerous"] == 1
    assert held["goal"] == {"recall": 0.9, "fp_rate": 0.005} and "goal" not in document["splits"]["tuning"]
    assert [row["split"] for row in document["cases"]] == ["tuning", "tuning", "heldout", "heldout"]
    assert document["cases"][3]["guard"]["claude"][0] == "block"
