"""The pinned releases live in one place, generator/pins.txt: everything that installs, tests,
documents or measures a CLI at its pinned version reads them from there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from support import REPO_ROOT

from hookwrap.generator import pins
from hookwrap.generator.clis import setup_of
from hookwrap.names import Platform

# Where a pin would be spelled: code, scripts, CI. Captured payloads and goldens are data that
# a CLI wrote (its version among them); the docs label facts with the version they were seen in.
_CODE_DIRS = ("src", "scripts", "benchmarks", "tests", ".ci", ".github", "templates")
_CODE_SUFFIXES = {".py", ".sh", ".js", ".toml", ".yml", ".yaml", ".json", ".j2", ".cfg"}
# Data, not pins: fixtures, goldens, and the drift canary's snapshots (each names the release it
# was read from, pinned or not).
_DATA_DIRS = (REPO_ROOT / "tests" / "fixtures", REPO_ROOT / "tests" / "golden",
              REPO_ROOT / "scripts" / "drift_surfaces")


def _code_files() -> list[Path]:
    found = []
    for top in _CODE_DIRS:
        for path in (REPO_ROOT / top).rglob("*"):
            skipped = any(part in (".venv", "node_modules", "__pycache__") for part in path.parts)
            if path.suffix not in _CODE_SUFFIXES or not path.is_file() or skipped \
                    or any(path.is_relative_to(data) for data in _DATA_DIRS):
                continue
            found.append(path)
    return found


def test_every_cli_and_the_peer_guard_is_pinned_once() -> None:
    assert set(pins.PINS) == {p.value for p in Platform} | {"cc-safety-net"}
    for pin in pins.PINS.values():
        assert pins.version_key(pin.oldest) <= pins.version_key(pin.version), pin


def test_the_records_read_their_versions_from_the_pins() -> None:
    claude = setup_of(Platform.CLAUDE)
    assert (claude.version, claude.oldest_version, claude.npm_package) == (
        pins.PINS["claude"].version, pins.PINS["claude"].oldest, "@anthropic-ai/claude-code")


def test_the_install_script_installs_what_the_pins_say() -> None:
    out = subprocess.run(["bash", str(REPO_ROOT / ".ci" / "install-clis.sh"), "--pins"],
                         capture_output=True, text=True, check=True, timeout=30,
                         stdin=subprocess.DEVNULL).stdout
    rows = [line.split() for line in out.splitlines()]
    assert rows == [[p.name, p.package, p.version] for p in pins.PINS.values()]


def _spelled() -> re.Pattern[str]:
    """A pinned version as a quoted literal ("1.2.3"), an npm spec (pkg@1.2.3) or an
    assignment (X=1.2.3): the ways a pin is written, unlike a fact's label in a comment."""
    versions = "|".join(re.escape(pin.version) for pin in pins.PINS.values())
    return re.compile(rf"""(?:["'@=]\s*)({versions})(?![\w.])""")


def test_no_other_file_spells_a_pinned_version() -> None:
    spelled = _spelled()
    offenders = []
    for path in _code_files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace")
                                      .splitlines(), 1):
            if spelled.search(line) and "not a pin" not in line:
                offenders.append(f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_the_pin_check_would_see_a_spelled_pin() -> None:
    spelled = _spelled()
    claude = pins.PINS["claude"].version
    for line in (f'version="{claude}",', f"npm install x@{claude}", f"CLAUDE_VERSION={claude}"):
        assert spelled.search(line), line
    assert not spelled.search(f"# checked against {claude} (its shipped code)")
    # A fact about a release (that it is the first with an event) says so on its line.


@pytest.mark.parametrize(("text", "found"), [
    ("9.8.765 (Claude Code)", "9.8.765"), ("codex-cli 0.999.0", "0.999.0"),
    ("v1.18.99\n", "1.18.99"), ("no version here", ""),
])
def test_find_version(text: str, found: str) -> None:
    assert pins.find_version(text) == found


def test_versions_compare_as_numbers() -> None:
    assert pins.version_key("9.1.332") > pins.version_key("9.1.40") > pins.version_key("9.1.9")


def test_a_malformed_pins_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "pins.txt"
    bad.write_text("# name package pinned oldest\nclaude @anthropic-ai/claude-code 2.1.332\n",
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"pins.txt:2: expected: name package pinned oldest"):
        pins._read(bad)
