"""benchmarks/instructions.py: each hook row counted, every process of it summed, ratios to the
floor, targets on the rows they are for. A stand-in valgrind (a script that runs the command
and reports an instruction count per process it ran) keeps this test off a real valgrind."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Runs the command after valgrind's options; "counts" for it as many instructions as its stdin has
# bytes, times the number of processes its words name (one per "+" word, at least one), and
# writes what it saw of the environment for the test to check.
FAKE_VALGRIND = """\
import os, subprocess, sys
args = sys.argv[1:]
while args and args[0].startswith("--"):
    args.pop(0)
data = sys.stdin.buffer.read()
subprocess.run(args, input=data, check=False)
with open(os.environ["SEEN"], "a") as seen:
    seen.write(os.environ.get("PYTHONHASHSEED", "unset") + "\\n")
for _ in range(max(1, args.count("+"))):
    sys.stderr.write(f"==1== Collected : {len(data) * 1000}\\n")
"""


@dataclass
class FakeRow:
    label: str
    argv: list[str] | None
    stdin: bytes = b""
    env: dict[str, str] | None = None
    cwd: Path | None = None
    kind: str = "hook"
    unavailable: str = ""


@pytest.fixture(scope="module")
def instructions():
    spec = importlib.util.spec_from_file_location("hookwrap_bench_instructions",
                                                  REPO / "benchmarks" / "instructions.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_collected_sums_every_process(instructions) -> None:
    text = "==10== Collected : 1200\n==11== Events : Ir\n==11== Collected : 34\n"
    assert instructions.collected(text) == 1234
    with pytest.raises(ValueError, match="no instruction count"):
        instructions.collected("valgrind: command not found\n")


def test_the_table_counts_each_hook_row_against_the_first(instructions, tmp_path: Path) -> None:
    fake = tmp_path / "valgrind"
    fake.write_text(f"#!{sys.executable}\n" + FAKE_VALGRIND)
    fake.chmod(0o755)
    seen = tmp_path / "seen"
    env = {**os.environ, "SEEN": str(seen)}
    true = shutil.which("true") or "/bin/true"
    rows = [
        FakeRow("floor: x", [true], b"x" * 40, env),
        FakeRow("hookwrap guard, claude (registered command, bash -c)", [true, "+", "+"],
                b"x" * 25, env),
        FakeRow("hookwrap skeleton (no rules), claude", [true], b"x" * 42, env),
        FakeRow("hookwrap guard, claude, no .pyc (fresh checkout)", [true], b"x" * 80, env),
        FakeRow("hookwrap list (50 hooks)", [true], b"x", env, kind="cli"),
        FakeRow("peer: cchooks", None, unavailable="skipped"),
    ]
    targets = {"hookwrap skeleton": (1.05, "skeleton"), "hookwrap guard": (1.10, "guard")}
    table = instructions.instruction_table(rows, targets, valgrind=str(fake)).splitlines()
    assert table[2] == "| floor: x | 0.04 | x1.000 |  |"
    # Two processes of 25,000 each: 50,000 against the floor's 40,000.
    assert table[3] == ("| hookwrap guard, claude (registered command, bash -c) | 0.05 | x1.250 | "
                        "x1.10 (guard) |")
    assert table[4] == "| hookwrap skeleton (no rules), claude | 0.04 | x1.050 | x1.05 (skeleton) |"
    assert table[5] == "| hookwrap guard, claude, no .pyc (fresh checkout) | 0.08 | x2.000 |  |"
    assert len(table) == 6  # the command's row and the unavailable one are not hook rows
    # Every counted run had its hash seed fixed.
    assert seen.read_text().split() == ["0"] * 4


def test_without_valgrind_it_says_so(instructions, monkeypatch) -> None:
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    said = instructions.instruction_table([FakeRow("floor", ["true"])], {})
    assert said.startswith("instructions: valgrind is not installed")
