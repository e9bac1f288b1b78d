"""The runtime and every rendered script run on Python 3.9, the floor of a teammate's python3.

The floor is checked statically here, on any machine (vermin, which knows the version each
syntax form, module and function appeared in), and by what a 3.9 would miss at run time:
`tomllib` (3.11) is replaced by options.py's own reader, and an older interpreter gets a clear
message instead of a SyntaxError somewhere inside the runtime. Where a real 3.9 or 3.10 is
found (pyenv's), test_old_pythons.py runs the hooks on it too.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st
from support import REPO_ROOT as REPO, SRC

from hookwrap.generator.vendor import RUNTIME_MODULES
from hookwrap.options import _read_table, manifest_entry

GOLDEN = REPO / "tests" / "golden"
RUNTIME_FILES = [SRC / "hookwrap" / module for module in RUNTIME_MODULES]
RENDERED = sorted(GOLDEN.glob("*/*.py"))


def _vermin(paths: list[Path]) -> str:
    vermin = shutil.which("vermin") or str(Path(sys.executable).parent / "vermin")
    if not Path(vermin).exists():
        pytest.skip("vermin is not installed (pip install '.[lint]')")
    proc = subprocess.run([vermin, "-t=3.9-", "--no-tips", "--violations", "--eval-annotations",
                           *map(str, paths)], capture_output=True, text=True, timeout=300)
    return proc.stdout + proc.stderr if proc.returncode else ""


def test_the_runtime_needs_nothing_newer_than_python_3_9() -> None:
    assert _vermin(RUNTIME_FILES) == ""


def test_every_rendered_script_needs_nothing_newer_than_python_3_9() -> None:
    assert len(RENDERED) >= 20
    assert _vermin(RENDERED) == ""


def test_vermin_does_catch_what_3_9_lacks(tmp_path: Path) -> None:
    newer = tmp_path / "newer.py"
    newer.write_text("def f(x: int | None) -> None:\n    match x:\n        case _: pass\n")
    assert "3.10" in _vermin([newer])


@pytest.mark.parametrize("path", RENDERED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rendered_scripts_keep_annotations_as_text(path: Path) -> None:
    """`-> HookOutput | None` is evaluated at def time unless annotations stay text (3.9)."""
    text = path.read_text(encoding="utf-8")
    assert "from __future__ import annotations" in text


def _lib(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    for module in RUNTIME_MODULES:
        (lib / "hookwrap" / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SRC / "hookwrap" / module, lib / "hookwrap" / module)
    return lib


def test_an_interpreter_below_the_floor_gets_a_clear_message(tmp_path: Path) -> None:
    code = ("import sys; sys.version_info = (3, 8, 10, 'final', 0); "
            f"sys.path.insert(0, {str(_lib(tmp_path))!r}); import hookwrap")
    proc = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: hookwrap's runtime needs Python 3.9 or newer; this is "
                           "Python 3.8"), last
    assert "set `python` in hookwrap.toml" in last


def test_options_are_read_without_tomllib(tmp_path: Path) -> None:
    """On 3.9 and 3.10 there is no tomllib: the hook still reads its table."""
    (tmp_path / "hookwrap.toml").write_text(
        'version = 1\n\n[hooks.gate]\nevent = "after_agent"\ntemplate = "stop_gate"\n'
        'check = "make test # not a comment"  # a comment\nmax_retries = 2\n'
        'timeout = 120\ncommand = [\n  "ruff",\n  "format",  # trailing\n]\n\n'
        '[hooks.other]\ncheck = "no"\n', encoding="utf-8")
    code = (f"import sys, json; sys.modules['tomllib'] = None; sys.path.insert(0, "
            f"{str(_lib(tmp_path))!r}); from hookwrap.options import manifest_entry; "
            f"print(json.dumps(manifest_entry({str(tmp_path)!r}, 'gate')))")
    proc = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    expected = tomllib.loads((tmp_path / "hookwrap.toml").read_text())["hooks"]["gate"]
    assert json.loads(proc.stdout) == expected == manifest_entry(str(tmp_path), "gate")


_SCALARS = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
    st.integers(-10**6, 10**6), st.booleans(),
)
_VALUES = st.one_of(_SCALARS, st.lists(_SCALARS, max_size=4))
_KEYS = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(tables=st.dictionaries(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True),
                              st.dictionaries(_KEYS, _VALUES, max_size=6), min_size=1, max_size=3))
def test_the_fallback_reader_agrees_with_tomllib(tables: dict[str, dict[str, object]]) -> None:
    import tomlkit

    document = tomlkit.document()
    document.add("version", 1)
    hooks = tomlkit.table(is_super_table=True)
    for name, entry in tables.items():
        table = tomlkit.table()
        for key, value in entry.items():
            table.add(key, value)
        hooks.add(name, table)
    document.add("hooks", hooks)
    text = tomlkit.dumps(document)
    parsed = tomllib.loads(text)["hooks"]
    for name in tables:
        assert _read_table(text, name) == parsed[name]


def test_the_fallback_reader_skips_headers_inside_multiline_strings() -> None:
    text = ('[hooks.a]\ncheck = """\n[hooks.gate]\ncheck = "from the string"\n"""\n\n'
            '[hooks.gate]\ncheck = "make test"\n')
    assert _read_table(text, "gate") == tomllib.loads(text)["hooks"]["gate"] == {"check": "make test"}


def test_the_fallback_reader_takes_a_broken_escape_as_missing() -> None:
    assert _read_table('[hooks.gate]\nx = "\\U7FFFFFFF"\ny = 1\n', "gate") == {"y": 1}


@pytest.mark.parametrize("value", ["C:\\escape", "\\u00e9 is not é", "a\\\\b", "tab\there",
                                   "quote \" and \\", "\\U0001F600"])
def test_the_fallback_reader_reads_an_escaped_backslash_as_one(value: str) -> None:
    """`\\\\e` in the file is a backslash and an e, not ESC; `\\\\u00e9` is not é."""
    import tomlkit

    text = f"[hooks.gate]\ncheck = {tomlkit.string(value).as_string()}\n"
    assert _read_table(text, "gate") == tomllib.loads(text)["hooks"]["gate"] == {"check": value}


@pytest.mark.parametrize("line", [
    'b = {a = ["\'\'\'"]}',              # a multi-line opener inside a one-line basic string
    "b = '\"\"\"'",                       # ... inside a one-line literal string
    'b = 1  # \'\'\' in a comment',       # ... in a comment
    'b = """x \\""" y"""',                # an escaped quote does not end a multi-line string
    "b = '''it''''",                      # a multi-line literal ending in a quote of its text
    'b = """two\nlines"""',               # a multi-line string that does end
])
def test_the_fallback_reader_finds_the_table_after_quotes_that_open_nothing(line: str) -> None:
    text = f"[hooks.a]\n{line}\n\n[hooks.gate]\ncheck = \"make test\"\n"
    assert tomllib.loads(text)["hooks"]["gate"] == {"check": "make test"}
    assert _read_table(text, "gate") == {"check": "make test"}
