"""A rendered hook type-checks, strictly: mypy sees the runtime's dataclasses and the scripts' calls.

The runtime builds its dataclasses without importing `typing` (see _dataclasses.py), so this
proves a type checker still sees the real `@dataclass`: a user's `HookOutput(decison=...)` is
flagged. mypy resolves `from hookwrap import ...` through `mypy_path`, as a user's checker would
through `.hookwrap/lib`; the runtime's own strictness is checked by the strict run in .ci/run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO_ROOT as REPO, SRC

pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[lint]')")

RENDERED = sorted((REPO / "tests" / "golden").glob("*/*.py"))

USER_HOOK = '''\
from __future__ import annotations

from hookwrap import HookInput, HookOutput, main


def hook(event: HookInput) -> HookOutput | None:
    if event.tool_name == "shell" and "rm -rf" in event.tool_input.get("command", ""):
        return HookOutput(decision="block", reason="x")
    return HookOutput.block("no") if event.get("x") else None


if __name__ == "__main__":
    raise SystemExit(main(hook))
'''

WRONG_HOOK = '''\
from __future__ import annotations

from hookwrap import HookOutput

misspelt = HookOutput(decison="block")
wrong_type = HookOutput(reason=1)
'''


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for this file's runs: the standard library and the runtime are analysed
    once, not once per run (mypy's incremental mode re-checks what changed, the scripts)."""
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(tmp_path: Path, files: list[Path], cache: Path) -> tuple[int, str]:
    config = tmp_path / "mypy.ini"
    # The runtime is checked on its own (strictly, in .ci/run): here only the scripts count.
    # What docs/writing-hooks.md tells a user to put in their checker's config: mypy_path (or
    # pyright's extraPaths) pointing at .hookwrap/lib; every script then checks --strict.
    config.write_text(f"[mypy]\nmypy_path = {SRC}\nstrict = True\n"
                      f"cache_dir = {cache}\n"
                      "[mypy-hookwrap.*]\nfollow_imports = silent\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config),
                           "--no-error-summary", *map(str, files)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_every_rendered_script_type_checks(tmp_path: Path, mypy_cache: Path) -> None:
    assert len(RENDERED) >= 20
    status, output = _mypy(tmp_path, RENDERED, mypy_cache)
    assert (status, output) == (0, "")


def test_a_user_hook_type_checks_and_a_wrong_call_does_not(tmp_path: Path, mypy_cache: Path) -> None:
    good, wrong = tmp_path / "user_hook.py", tmp_path / "wrong_hook.py"
    good.write_text(USER_HOOK, encoding="utf-8")
    wrong.write_text(WRONG_HOOK, encoding="utf-8")
    status, output = _mypy(tmp_path, [good, wrong], mypy_cache)
    assert status == 1
    errors = [line for line in output.splitlines() if ": error:" in line]
    assert not [line for line in errors if "user_hook.py" in line]
    assert any('wrong_hook.py:5:' in line and '"decison"' in line and "[call-arg]" in line
               for line in errors), output
    assert any('wrong_hook.py:6:' in line and '"reason"' in line and "[arg-type]" in line
               for line in errors), output
    assert len(errors) == 2, output


WRONG_RECORD = '''\
from __future__ import annotations

from hookwrap.clis._record import CLIRecord, derive
from hookwrap.clis.claude import CLAUDE
from hookwrap.generator.clis._facts import CommandFacts
from hookwrap.names import NormalizedEvent, Platform

wrong_type = CLIRecord(Platform.CLAUDE, tool_fields={"shell": "command"})
misspelt = CLIRecord(Platform.CLAUDE, lable="Claude Code")
misspelt_knob = CLIRecord(Platform.CLAUDE, pre_tool_contxt=False)
derived = derive(CLAUDE, platform=Platform.QWEN, mcp_prefix=3)
command = CommandFacts(tool_events={"PreToolUse"})
right = derive(CLAUDE, platform=Platform.QWEN, context_to_user=frozenset({NormalizedEvent.BEFORE_TOOL}))
right_too = CommandFacts(settings_file=".x/hooks.json", tool_events=frozenset({NormalizedEvent.AFTER_TOOL}))
'''


def test_a_record_s_facts_are_type_checked(tmp_path: Path, mypy_cache: Path) -> None:
    """A record is plain data at run time, but mypy checks each fact where a record is written,
    in a record of its own and in a derived one (``derive``), each knob by name, and each of the
    command's facts (``CommandFacts``)."""
    record = tmp_path / "wrong_record.py"
    record.write_text(WRONG_RECORD, encoding="utf-8")
    status, output = _mypy(tmp_path, [record], mypy_cache)
    errors = [line for line in output.splitlines() if ": error:" in line]
    assert status == 1
    assert [int(line.split(":")[1]) for line in errors] == [8, 9, 10, 11, 12], output
    assert '"tuple[str, ...]"' in errors[0] and '"lable"' in errors[1], output
    assert '"pre_tool_contxt"' in errors[2] and '"mcp_prefix"' in errors[3], output
    assert '"tool_events"' in errors[4] and '"CommandFacts"' in errors[4], output
