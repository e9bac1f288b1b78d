"""A project copied from the initialised template is what `hookwrap init` makes.

The ``project`` fixtures copy one template (support.projects) instead of running `hookwrap init`
per test; this proves the copy is the real thing: the same files with the same bytes and modes,
and the runtime's checked-hash bytecode still valid for the copied sources.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import hw, snapshot
from support.projects import from_template, initialised, initialised_repo

from hookwrap.generator.project import compile_runtime


def _without_bytecode(tree: dict) -> dict:
    return {rel: value for rel, value in tree.items() if "__pycache__" not in rel}


@pytest.mark.parametrize("options", [(), ("--platform", "codex", "--platform", "droid")])
def test_a_copy_equals_a_fresh_init(tmp_path: Path, options: tuple[str, ...]) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert hw(fresh, "init", *options).code == 0
    copied = initialised(tmp_path / "copied", *options)

    expected, got = snapshot(fresh), snapshot(copied)
    assert _without_bytecode(got) == _without_bytecode(expected)
    # The bytecode differs only in the file name compiled in; its header (flags, source hash) is equal.
    assert sorted(expected) == sorted(got)
    for rel in (rel for rel in expected if rel.endswith(".pyc")):
        assert got[rel][0][:16] == expected[rel][0][:16], rel
        assert got[rel][1] == expected[rel][1], rel
    # Nothing to recompile: the copied sources match the copied bytecode.
    assert compile_runtime(copied) == []


def test_a_copy_into_a_fresh_git_repo_equals_init_there(tmp_path: Path) -> None:
    fresh, copied = tmp_path / "fresh", tmp_path / "copied"
    for repo in (fresh, copied):
        subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    assert hw(fresh, "init").code == 0
    initialised_repo(copied)

    def files(root: Path) -> dict:
        return {rel: value for rel, value in _without_bytecode(snapshot(root)).items()
                if rel != ".git" and not rel.startswith(".git/")}

    assert files(copied) == files(fresh)
    assert compile_runtime(copied) == []
    (copied / ".claude").mkdir()
    with pytest.raises(ValueError, match="fresh git repo"):
        initialised_repo(copied)


def test_a_copy_is_independent_of_the_template_and_of_other_copies(tmp_path: Path) -> None:
    first = initialised(tmp_path / "first")
    (first / "hookwrap.toml").write_text("edited\n", encoding="utf-8")
    second = initialised(tmp_path / "second")
    assert (second / "hookwrap.toml").read_text(encoding="utf-8") != "edited\n"


def test_a_copy_refuses_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not empty"):
        initialised(tmp_path)
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine\n"


def test_the_runtime_in_a_copy_loads_from_the_copy(tmp_path: Path) -> None:
    root = initialised(tmp_path / "my project")
    lib = root / ".hookwrap" / "lib"
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import hookwrap.tools as t; "
            "print(t.__file__); print(t.__spec__.cached); "
            "print(t.normalize_tool.__code__.co_filename)")
    proc = subprocess.run([sys.executable, "-I", "-c", code, str(lib)], capture_output=True, text=True,
                          check=True)
    source, cached, code_file = proc.stdout.splitlines()
    # Loaded from the copy's bytecode, and tracebacks name the copy, not the template.
    assert source == str(lib / "hookwrap" / "tools.py")
    assert cached == importlib.util.cache_from_source(source) and Path(cached).is_file()
    assert code_file == source


BUILDS: list[Path] = []


def _guarded_with_a_link(root: Path) -> None:
    BUILDS.append(root)
    assert hw(root, "init").code == 0
    assert hw(root, "add", "before_tool", "guard").code == 0
    (root / "notes.txt").write_text("mine\n", encoding="utf-8")
    (root / "notes.txt").chmod(0o640)
    (root / "link").symlink_to("notes.txt")


def test_a_built_template_is_built_once_and_copied_with_modes_and_links(tmp_path: Path) -> None:
    first = from_template(tmp_path / "first", _guarded_with_a_link)
    second = from_template(tmp_path / "second", _guarded_with_a_link)
    assert len(BUILDS) == 1 and BUILDS[0] not in (first, second)
    assert snapshot(first) == snapshot(second)
    assert (second / "link").is_symlink() and os.readlink(second / "link") == "notes.txt"
    assert (second / "notes.txt").stat().st_mode & 0o777 == 0o640
    # What `add` wrote in the template works in the copy: nothing in it names the template's path.
    assert hw(second, "sync", "--check").code == 0
    assert str(BUILDS[0]) not in "".join(
        path.read_text(encoding="utf-8") for path in second.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts)
