"""Do two runs of `benchmarks/run.py --cli` agree?

    python benchmarks/run.py --cli > run1.txt
    python benchmarks/run.py --cli > run2.txt
    python benchmarks/agree.py run1.txt run2.txt

Every figure the two outputs print with a spread, ``median (low to high)``, is paired by its
table, its row (the CLI and the variant) and its column; the pair agrees when the two printed
spreads overlap. The summary tables under "for docs/performance.md:" repeat figures of the
tables above them and are left out. Prints one line a figure (``NO`` in front of those that do
not agree), then the count; exits 1 when a figure disagrees or the outputs hold different
figures, 0 when every figure agrees. Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import NamedTuple

FIGURE = re.compile(r"(-?\d+(?:\.\d+)?) \((-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?)\)")
DOCS_TABLES = "for docs/performance.md:"


class Figure(NamedTuple):
    median: float
    low: float
    high: float
    text: str


def figures(text: str) -> dict[tuple[str, ...], Figure]:
    """Every figure with a spread in one output, keyed by (table header, row key, column, n-th
    figure in the cell). A row's key is its cells that hold no figure (the CLI, the variant)."""
    found: dict[tuple[str, ...], Figure] = {}
    header: list[str] = []
    for line in text.partition(DOCS_TABLES)[0].splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not header:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue  # the separator row
        key = tuple(cell for cell in cells if not FIGURE.search(cell) and cell not in ("-", ""))
        for column, cell in zip(header, cells):
            if column.startswith("the session's call added"):
                continue  # the session table's figure, printed again beside the handlers
            for n, match in enumerate(FIGURE.finditer(cell)):
                median, low, high = (float(value) for value in match.groups())
                found[(header[0] + " | " + header[-1], *key, column, str(n))] = Figure(
                    median, low, high, match.group(0))
    return found


def agrees(a: Figure, b: Figure) -> bool:
    """The two printed spreads overlap."""
    return a.low <= b.high and b.low <= a.high


def compare(first: str, second: str) -> tuple[list[str], int, int, int]:
    """Lines to print, figures that agree, figures compared, figures only one output has."""
    one, two = figures(first), figures(second)
    lines, good = [], 0
    for key in one.keys() & two.keys():
        a, b = one[key], two[key]
        ok = agrees(a, b)
        good += ok
        lines.append((key, f"{'  ' if ok else 'NO'} {' | '.join(key[1:-1])}: {a.text} / {b.text}"))
    lines.sort()
    return [line for _, line in lines], good, len(lines), len(one.keys() ^ two.keys())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="the output of one run of run.py --cli")
    parser.add_argument("second", type=Path, help="the output of the next run")
    args = parser.parse_args(argv)
    lines, good, total, unpaired = compare(args.first.read_text(), args.second.read_text())
    print("\n".join(lines))
    print(f"{good} of {total} figures agree (their printed spreads overlap); "
          f"{total - good} do not" + (f"; figures in one output only: {unpaired}" if unpaired else ""))
    if not total:
        print("error: no figure with a spread in both outputs; hint: pass two outputs of "
              "`python benchmarks/run.py --cli`", file=sys.stderr)
        return 2
    return 0 if good == total and not unpaired else 1


if __name__ == "__main__":
    sys.exit(main())
