"""Hook cost in instructions: each hook row of benchmarks/run.py counted once by valgrind.

CPU time on a shared machine moves by several percent from run to run (other work, caches,
frequency), which is as much as the targets' margins. The number of instructions a process
executes does not: with the hash seed fixed (PYTHONHASHSEED=0; string hashes otherwise change
dict layouts, and with them the count, by about 0.3%) the same command gives the same count
whatever the load. On this project's machine the CPU ratio of a quiet run came out within about
0.03 of the instruction ratio (docs/performance.md), so the instruction ratio is what to read
when the machine is busy; the CPU columns of run.py stay the measure of the targets.

`python benchmarks/run.py --instructions` runs this; it needs valgrind (`valgrind --tool=
callgrind`), and counts every process of a row (bash, then the interpreter it starts).
Standard library only.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Protocol, Sequence

_COLLECTED = re.compile(r"Collected : (\d+)")


class HookRow(Protocol):
    """What this module reads of benchmarks/run.py's Row."""

    label: str
    argv: list[str] | None
    stdin: bytes
    env: dict[str, str] | None
    cwd: Path | None
    kind: str
    unavailable: str


def collected(valgrind_stderr: str) -> int:
    """The instructions of every process valgrind followed (one "Collected" line each)."""
    counts = [int(n) for n in _COLLECTED.findall(valgrind_stderr)]
    if not counts:
        raise ValueError("valgrind printed no instruction count (is callgrind installed?)")
    return sum(counts)


def count(row: HookRow, valgrind: str) -> int:
    """The instructions of one run of ``row`` (after one untimed run that writes any .pyc)."""
    assert row.argv is not None
    env = {**(row.env or os.environ), "PYTHONHASHSEED": "0"}
    first = subprocess.run(row.argv, input=row.stdin, cwd=row.cwd, env=env, capture_output=True,
                           check=False)
    with tempfile.TemporaryDirectory(prefix="hookwrap-callgrind-") as tmp:
        argv = [valgrind, "--tool=callgrind", "--trace-children=yes",
                f"--callgrind-out-file={tmp}/callgrind.%p", *row.argv]
        proc = subprocess.run(argv, input=row.stdin, cwd=row.cwd, env=env, capture_output=True,
                              check=False)
    if proc.returncode != first.returncode:  # cut short under valgrind (a fail-closed deadline)
        raise ValueError(f"{row.label}: exit {proc.returncode} under valgrind, "
                         f"{first.returncode} without it")
    return collected(proc.stderr.decode(errors="replace"))


def instruction_table(rows: Sequence[HookRow], targets: dict[str, tuple[float, str]],
                      valgrind: str | None = None) -> str:
    """A table of each hook row's instructions and its ratio to the first row (the floor)."""
    valgrind = valgrind or shutil.which("valgrind")
    if valgrind is None:
        return "instructions: valgrind is not installed (apt install valgrind); nothing counted"
    lines = ["| what | instructions (M) | / floor | target |", "|---|---:|---:|---|"]
    floor = 0
    for row in rows:
        if row.kind != "hook" or row.argv is None or row.unavailable:
            continue
        n = count(row, valgrind)
        floor = floor or n
        target = next((f"x{t:.2f} ({name})" for prefix, (t, name) in targets.items()
                       if row.label.startswith(prefix) and "no .pyc" not in row.label), "")
        lines.append(f"| {row.label} | {n / 1e6:.2f} | x{n / floor:.3f} | {target} |")
    return "\n".join(lines)
