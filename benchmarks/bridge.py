"""What the bridge adds to an external hook, per call, against running the command directly.

Usage: python benchmarks/bridge.py [--runs N]

A throwaway project gets one external hook (a bash script speaking Claude Code's protocol, the
shape `hookwrap adopt` takes over) and runs, in turns so that drift hits every row alike:

- direct: ``bash -c COMMAND`` with a Claude Code payload, as Claude Code runs a hand-made hook;
- pass-through: hookwrap's registered command on Claude Code (the command speaks its protocol:
  the bridge script execs it);
- bridged: hookwrap's registered command on Gemini CLI (payload and answer translated);
- python hook: a hookwrap hook rendered from the skeleton template, on Claude Code;
- python floor: the cheapest Python hook process, for scale.

Prints medians and what each row adds to ``direct``. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAYLOADS = REPO / "tests" / "fixtures" / "payloads"
HOOK = """#!/bin/bash
input=$(cat)
case "$input" in
  *'git push --force'*) echo "no force pushes" >&2; exit 2;;
esac
exit 0
"""
FLOOR_HOOK = 'import json, sys\njson.load(sys.stdin)\nprint("{}")\n'


def _setup(root: Path) -> None:
    (root / "hooks").mkdir()
    (root / "hooks" / "no-force.sh").write_text(HOOK)
    (root / "hooks" / "no-force.sh").chmod(0o755)
    (root / "floor.py").write_text(FLOOR_HOOK)
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    for args in (["init", "-p", "claude", "-p", "gemini"],
                 ["add", "before_tool", "no-force", "--matcher", "shell", "--command",
                  '"$CLAUDE_PROJECT_DIR"/hooks/no-force.sh'],
                 ["add", "before_tool", "skeleton", "--matcher", "shell"]):
        subprocess.run([sys.executable, "-m", "hookwrap", "-C", str(root), *args], env=env,
                       check=True, capture_output=True)


def _rows(root: Path, python: str) -> dict[str, tuple[list[str], bytes, dict[str, str]]]:
    claude = (PAYLOADS / "claude" / "PreToolUse.json").read_bytes()
    gemini = (PAYLOADS / "gemini" / "BeforeTool.json").read_bytes()
    base = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    base.pop("PYTHONPATH", None)
    on_claude = {**base, "CLAUDE_PROJECT_DIR": str(root)}
    on_gemini = {**base, "GEMINI_PROJECT_DIR": str(root)}
    script = str(root / ".hookwrap" / "hooks" / "no-force.py")
    return {
        "direct (bash -c COMMAND)": (["bash", "-c", '"$CLAUDE_PROJECT_DIR"/hooks/no-force.sh'],
                                     claude, on_claude),
        "pass-through (Claude Code)": ([python, script, "--platform", "claude"], claude,
                                       on_claude),
        "bridged (Gemini CLI)": ([python, script, "--platform", "gemini"], gemini, on_gemini),
        "python hook (skeleton)": ([python, str(root / ".hookwrap/hooks/skeleton.py"),
                                    "--platform", "claude"], claude, on_claude),
        "python floor": ([python, str(root / "floor.py")], claude, on_claude),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--python", default=os.path.realpath(sys.executable),
                        help="the interpreter hooks run with (default: this one, outside any venv)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hw-bridge-bench-") as tmp:
        root = Path(tmp)
        _setup(root)
        rows = _rows(root, args.python)
        times: dict[str, list[float]] = {name: [] for name in rows}
        names = list(rows)
        for index in range(args.runs + 3):
            for name in names[index % len(names):] + names[:index % len(names)]:
                command, payload, env = rows[name]
                start = time.perf_counter()
                done = subprocess.run(command, input=payload, env=env, cwd=root,
                                      capture_output=True, check=False)
                elapsed = (time.perf_counter() - start) * 1000
                if done.returncode not in (0,) and name != "python floor":
                    raise SystemExit(f"{name}: exit {done.returncode}: {done.stderr.decode()}")
                if index >= 3:  # warm-up rounds not counted
                    times[name].append(elapsed)
        direct = statistics.median(times[names[0]])
        print(f"{'row':<28} {'median ms':>10} {'adds ms':>9}   ({args.runs} runs each, "
              f"{args.python})")
        for name in names:
            median = statistics.median(times[name])
            print(f"{name:<28} {median:>10.1f} {median - direct:>9.1f}")
        print(json.dumps({name: round(statistics.median(v), 1) for name, v in times.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
