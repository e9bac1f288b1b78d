"""A committed symlink from a settings file (or hookwrap.toml) to an endless device, a FIFO or a
huge file: every command refuses it with one line and a hint, and leaves it as it is, instead of
reading until memory runs out (or, for a FIFO, forever).

Each command runs in a subprocess with its address space capped at 1 GiB and a timeout, so a
regression fails here rather than taking the machine's memory.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from support.projects import from_template

from hookwrap.generator.fsutil import MAX_FILE_BYTES
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.names import Platform


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _hookwrap(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookwrap", "-C", str(root), *args],
                          capture_output=True, text=True, timeout=60, preexec_fn=_limited,
                          env={**os.environ, "NO_COLOR": "1"}, check=False)


def _guarded(root: Path) -> None:
    init_plan(root, (Platform.CLAUDE, Platform.GEMINI)).apply()
    add_plan(root, event="before_tool", name="guard").apply()


def _project(tmp_path: Path) -> Path:
    """A project with a guard on Claude Code and Gemini CLI (set up once, copied)."""
    return from_template(tmp_path / "repo", _guarded)


def _endless(kind: str, tmp_path: Path) -> Path:
    if kind == "fifo":
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        return fifo
    if kind == "huge":
        huge = tmp_path / "huge.json"
        with open(huge, "wb") as file:  # sparse: no disk, and no end within the cap
            file.truncate(MAX_FILE_BYTES + 1)
        return huge
    return Path(kind)


COMMANDS = [("list",), ("sync",), ("add", "after_tool", "audit"), ("doctor", "--no-run")]
# Every command on /dev/zero; each other kind on two of them (a subprocess each: ~1 s).
CASES = [("/dev/zero", command) for command in COMMANDS] + [
    ("/dev/urandom", COMMANDS[1]), ("/dev/urandom", COMMANDS[3]), ("fifo", COMMANDS[0]),
    ("fifo", COMMANDS[2]), ("huge", COMMANDS[1]), ("huge", COMMANDS[3])]


@pytest.mark.parametrize(("kind", "command"), CASES, ids=[f"{k}-{c[0]}" for k, c in CASES])
def test_a_settings_file_that_never_ends_is_refused(tmp_path: Path, kind: str,
                                                    command: tuple[str, ...]) -> None:
    root = _project(tmp_path)
    settings = root / ".claude" / "settings.json"
    settings.unlink()
    target = _endless(kind, tmp_path)
    settings.symlink_to(target)
    done = _hookwrap(root, *command)
    said = done.stdout + done.stderr
    assert "MemoryError" not in said and "Traceback" not in said, said
    assert ".claude/settings.json: " in said and "hookwrap reads only" in said, said
    assert ("fix: " if command[0] == "doctor" else "hint: ") in said, said
    assert done.returncode == 1, said
    assert settings.is_symlink() and settings.readlink() == target


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo"])
def test_a_manifest_that_never_ends_is_refused(tmp_path: Path, kind: str) -> None:
    root = _project(tmp_path)
    manifest = root / "hookwrap.toml"
    manifest.unlink()
    manifest.symlink_to(_endless(kind, tmp_path))
    for command in COMMANDS:
        done = _hookwrap(root, *command)
        said = done.stdout + done.stderr
        assert "hookwrap.toml: " in said and "hookwrap reads only" in said, (command, said)
        assert done.returncode == 1 and "Traceback" not in said, (command, said)


def test_a_hook_script_that_never_ends_is_reported_not_read(tmp_path: Path) -> None:
    root = _project(tmp_path)
    script = root / ".hookwrap" / "hooks" / "guard.py"
    script.unlink()
    script.symlink_to("/dev/zero")
    done = _hookwrap(root, "doctor", "--no-run")
    said = done.stdout + done.stderr
    assert ".hookwrap/hooks/guard.py: a character device, and hookwrap reads only regular " \
           "files: the hook cannot start" in said, said
    assert done.returncode == 1 and script.is_symlink()
