"""The Windows interpreter probe, under Windows path rules, against a fake PATH of real files
(support/windows.py: only the drive and separators are translated; the stand-ins run for real).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.windows import OLD, PYORG, STORE, SYSTEM, FakeWindows, stock_windows, windows_env

from hookwrap.generator import interpreter
from hookwrap.generator.errors import UsageError
from hookwrap.generator.interpreter import POSIX, WINDOWS, is_store_alias, probe, which


@pytest.fixture
def fake(tmp_path: Path) -> FakeWindows:
    return stock_windows(tmp_path)


# Windows spells it Path; the probe must read it case-insensitively.
env = windows_env


def test_stock_windows_has_only_the_store_aliases(fake: FakeWindows) -> None:
    found = probe(env(SYSTEM, STORE), WINDOWS, fake.size_of, fake.run)
    assert found.word is None
    assert found.skipped[0] == "py -3: not on PATH"
    assert "python.exe is the Microsoft Store alias" in found.skipped[1]
    assert "python3.exe is the Microsoft Store alias" in found.skipped[2]
    assert fake.ran == []  # the stub is never started


def test_py_launcher_wins_when_present(fake: FakeWindows) -> None:
    fake.interpreter(SYSTEM + r"\py.exe", 3, 12)
    found = probe(env(SYSTEM, STORE), WINDOWS, fake.size_of, fake.run)
    assert found.word == "py -3"
    assert fake.ran[0][:4] == [SYSTEM + r"\py.exe", "-3", "-I", "-c"]


def test_python_first_on_path_is_used_and_the_alias_behind_it_is_not(fake: FakeWindows) -> None:
    fake.interpreter(PYORG + r"\python.exe", 3, 12)
    found = probe(env(PYORG, STORE), WINDOWS, fake.size_of, fake.run)
    assert found.word == "python"


def test_alias_before_the_real_python_on_path_rules_the_word_out(fake: FakeWindows) -> None:
    # The shell would find the alias first, so `python` runs the stub however real the later one.
    fake.interpreter(PYORG + r"\python.exe", 3, 12)
    found = probe(env(STORE, PYORG), WINDOWS, fake.size_of, fake.run)
    assert found.word is None
    assert [s.split(":")[0] for s in found.skipped] == ["py -3", "python", "python3"]


def test_version_floor(fake: FakeWindows) -> None:
    fake.interpreter(OLD + r"\python.exe", 3, 8)
    found = probe(env(OLD, STORE), WINDOWS, fake.size_of, fake.run)
    assert found.word is None
    assert "is Python 3.8, older than 3.9" in found.skipped[1]
    fake.interpreter(OLD + r"\python.exe", 3, 9)
    assert probe(env(OLD, STORE), WINDOWS, fake.size_of, fake.run).word == "python"


def test_windows_rules_are_case_insensitive_and_use_pathext(fake: FakeWindows) -> None:
    fake.empty(r"C:\Users\X\APPDATA\LOCAL\MICROSOFT\WINDOWSAPPS\python.exe")
    assert is_store_alias(r"C:\Users\X\APPDATA\LOCAL\MICROSOFT\WINDOWSAPPS\python.exe", 0)
    assert not is_store_alias(PYORG + r"\python.exe", 0)
    assert not is_store_alias(STORE + r"\python.exe", 104)  # not an alias: a real file
    fake.interpreter(PYORG + r"\python.exe", 3, 11)
    assert which("python", env(PYORG), WINDOWS, fake.size_of) == PYORG + r"\python.exe"
    # Under POSIX rules the same PATH is one odd folder name and there is no PATHEXT.
    assert which("python", env(PYORG), POSIX, fake.size_of) is None


def test_no_path_reaches_the_word(fake: FakeWindows, monkeypatch: pytest.MonkeyPatch) -> None:
    fake.interpreter(PYORG + r"\python.exe", 3, 12)
    monkeypatch.setattr(interpreter, "size_of", fake.size_of)
    monkeypatch.setattr(interpreter, "run", fake.run)
    word, notes = interpreter.windows_python(None, on_windows=True, env=env(PYORG, STORE))
    assert word == "python"
    assert "py -3: not on PATH" in notes[0] and 'python_windows = "python"' in notes[0]
    assert "\\" not in word


def test_stock_windows_is_named_and_the_default_written(fake: FakeWindows,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interpreter, "size_of", fake.size_of)
    monkeypatch.setattr(interpreter, "run", fake.run)
    word, notes = interpreter.windows_python(None, on_windows=True, env=env(STORE))
    assert word == "py -3"
    assert "no Python 3.9+ found" in notes[0] and "Microsoft Store alias" in notes[0]


def test_manifest_first_and_no_probe_off_windows() -> None:
    assert interpreter.windows_python("python", on_windows=True, env={}) == ("python", [])
    assert interpreter.windows_python(None, on_windows=False) == ("py -3", [])


@pytest.mark.parametrize("bad", [r"C:\venv\Scripts\python.exe", '"python"', "$env:PY",
                                 "%PY%", "python; calc", "python && x", "/usr/bin/python3",
                                 "uv run python", "python tools/x.py", "bash"])
def test_python_windows_takes_words_only(bad: str) -> None:
    with pytest.raises(UsageError, match="not a Python interpreter's bare name"):
        interpreter.check_windows_words(bad)


def test_manifest_names_a_bad_python_windows(project: Path) -> None:
    from support.cli import hw

    manifest = project / "hookwrap.toml"
    manifest.write_text(manifest.read_text() + '\npython_windows = "C:\\\\venv\\\\python.exe"\n')
    result = hw(project, "sync")
    assert result.code == 1
    assert "error: hookwrap.toml: python_windows: " in result.err
    assert "not a Python interpreter's bare name" in result.err
    assert "hint: e.g. python_windows" in result.err
    manifest.write_text(manifest.read_text().replace("C:\\\\venv\\\\python.exe", "python"))
    assert hw(project, "sync").code == 0


@pytest.mark.parametrize("good", ["py -3", "py -3.12", "python", "python3.11", "PY -3  -E"])
def test_python_windows_takes_an_interpreter_and_options(good: str) -> None:
    assert interpreter.check_windows_words(good) == " ".join(good.split())
