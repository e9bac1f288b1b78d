"""Every python block of README.md and docs/*.md runs, on Python 3.9 and on the newest Python here.

The convention (scripts/docblocks.py): each python block has a marker comment on the line
before it. ``<!-- example: script; hookwrap add ARGS -->`` says the block is the whole script of
the hook ``hookwrap add ARGS`` registers, ``<!-- example: function; hookwrap add ARGS -->`` that
it goes in place of that script's ``hook`` function, and ``<!-- example: fragment; REASON -->``
that it is not code to run (a signature, a sketch that needs a harness).

For each runnable example and each interpreter, in a temporary project (a git repo after
``hookwrap init``, copied from support.projects' template, with a throwaway HOME) whose
``python3`` is that interpreter:

- ``hookwrap add ARGS`` (in-process), then the example becomes the hook's script;
- ``hookwrap test NAME --json`` runs the registered command on each CLI of the project with a
  sample payload of the event, as that CLI would: each run exits 0 and prints exactly one JSON
  document, and none is an error the runtime made from an exception;
- each transcript of the docs that shows this hook's output (a sandbox set up with
  ``example:NAME``, see scripts/gen_transcripts.py) prints exactly what the doc shows.

An interpreter that is not installed is skipped, with the reason.
"""

from __future__ import annotations

import difflib
import glob
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import hw
from support.projects import initialised_repo

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gen_transcripts  # noqa: E402
from docblocks import Example, doc_files, examples, hook_script  # noqa: E402


def _version(python: str) -> tuple[int, int] | None:
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    major, minor = done.stdout.split()
    return int(major), int(minor)


def _candidates() -> list[str]:
    """Interpreters on this machine: pyenv's versions (the real HOME's: tests run with a throwaway
    one), python3.N on PATH, and the one running the tests. A version manager's shim is left out:
    it may refuse to run a version."""
    home = pwd.getpwuid(os.getuid()).pw_dir
    root = os.environ.get("PYENV_ROOT") or os.path.join(home, ".pyenv")
    found = sorted(glob.glob(os.path.join(root, "versions", "3.*", "bin", "python3.*[0-9]")))
    found += [shutil.which(f"python3.{minor}") or "" for minor in range(9, 30)]
    found.append(sys.executable)
    return [p for p in found if p and "/shims/" not in p and os.access(p, os.X_OK)]


def _pythons() -> list[tuple[str, str | None, str]]:
    """(label, interpreter or None, why it is missing): 3.9, and the newest version found."""
    by_version: dict[tuple[int, int], str] = {}
    for path in _candidates():
        version = _version(path)
        if version and version not in by_version:
            by_version[version] = path
    oldest = by_version.get((3, 9))
    newest = max(by_version)
    return [("3.9", oldest, "no Python 3.9 here (pyenv's versions folder or python3.9 on PATH)"),
            (f"{newest[0]}.{newest[1]}", by_version[newest], "")]


PYTHONS = _pythons()
EXAMPLES = examples(REPO)
RUNNABLE = [ex for ex in EXAMPLES if ex.kind != "fragment"]


def _id(ex: Example) -> str:
    return f"{ex.block.path.relative_to(REPO)}:{ex.block.start + 1}:{ex.name}"


def test_every_python_block_is_marked_and_most_run() -> None:
    """examples() raises on a python block without a valid marker; the fragments stay few."""
    fragments = [ex for ex in EXAMPLES if ex.kind == "fragment"]
    assert RUNNABLE, "no runnable python example found"
    assert len(fragments) <= len(RUNNABLE), [_id(ex) for ex in fragments]
    names = [ex.name for ex in RUNNABLE]
    assert len(names) == len(set(names)), f"two examples add the same hook: {names}"


@pytest.fixture(scope="module", autouse=True)
def _sandboxes_in_the_run_s_temp(tmp_path_factory: pytest.TempPathFactory):
    """gen_transcripts' sandboxes (and the projects it keeps for later ones) in the run's
    temporary folder, in memory where tests/conftest.py can put it, not the system's temp dir:
    every `hookwrap init` there writes and fsyncs ~60 files."""
    import tempfile

    saved = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("sandboxes"))
    yield
    tempfile.tempdir = saved


@pytest.fixture(params=PYTHONS, ids=[label for label, _, _ in PYTHONS])
def python(request: pytest.FixtureRequest) -> str:
    _, path, missing = request.param
    if path is None:
        pytest.skip(missing)
    return path


def _install(sandbox: gen_transcripts.Sandbox, ex: Example) -> None:
    """gen_transcripts.install_example, with `hookwrap add ARGS` run in this process: the
    project as `init` leaves it (copied), the hook added, the example as its script."""
    initialised_repo(sandbox.repo)
    added = hw(sandbox.repo, "add", *ex.add_args)
    assert added.code == 0, added.err
    script = sandbox.repo / ".hookwrap" / "hooks" / f"{ex.name}.py"
    script.write_text(hook_script(ex, script.read_text(encoding="utf-8")), encoding="utf-8")


def _example_runs(sandbox: gen_transcripts.Sandbox, ex: Example) -> list[dict]:
    """`hookwrap test NAME --json` in the sandbox: the report of each CLI's run."""
    sandbox.put_hookwrap()
    done = subprocess.run([str(sandbox.bin / "hookwrap"), "test", ex.name, "--json"],
                          cwd=sandbox.repo, env=sandbox.env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)["tests"]


@pytest.mark.parametrize("ex", RUNNABLE, ids=_id)
def test_example_answers_every_cli(ex: Example, python: str) -> None:
    sandbox = gen_transcripts.Sandbox(REPO, python)
    try:
        _install(sandbox, ex)
        runs = _example_runs(sandbox, ex)
    finally:
        sandbox.close()
    assert {run["platform"] for run in runs} == {"claude", "gemini"}, runs
    for run in runs:
        where = f"{_id(ex)} on {python}, {run['platform']}"
        result = run["result"]
        assert run["ran"], f"{where}: not run: {run['summary']}"
        assert result["exit_code"] == 0, f"{where}: exit {result['exit_code']}: {result['stderr']}"
        assert result["stdout"].count("\n") == 1 and result["stdout"].endswith("\n"), \
            f"{where}: not one line on stdout: {result['stdout']!r} (stderr: {result['stderr']})"
        answer = json.loads(result["stdout"])
        assert isinstance(answer, dict), f"{where}: {answer!r}"
        assert "Hook Script Error" not in result["stdout"], f"{where}: {result['stdout']}"
        assert run["clean"], f"{where}: {run['problems']}"


def _shown_with(ex: Example) -> list[tuple[Path, set[str]]]:
    """The docs, and their sandboxes, whose transcripts are set up with ``example:NAME``."""
    found = []
    for path in doc_files(REPO):
        names = {name for name, steps in gen_transcripts.sandbox_steps(path).items()
                 if f"example:{ex.name}" in steps}
        if names:
            found.append((path, names))
    return found


@pytest.mark.parametrize("ex", [ex for ex in RUNNABLE if _shown_with(ex)], ids=_id)
def test_example_prints_what_the_docs_show(ex: Example, python: str) -> None:
    for path, sandboxes in _shown_with(ex):
        current = path.read_text(encoding="utf-8")
        fresh = gen_transcripts.render(REPO, path, [], python=python, only=sandboxes)
        diff = "".join(difflib.unified_diff(current.splitlines(True), fresh.splitlines(True),
                                            f"{path.name} (shown)", f"{path.name} ({python})"))
        assert fresh == current, diff


def test_readme_example_is_shown_with_its_output() -> None:
    """The README's finished hook has transcripts: the exact-output test above covers it."""
    readme = [ex for ex in RUNNABLE if ex.block.path.name == "README.md"]
    assert readme and all(_shown_with(ex) for ex in readme)
    assert re.search(r"^from __future__ import annotations\b", readme[0].block.text, re.M)


def test_without_the_future_import_the_hook_fails_open_on_39() -> None:
    """What docs/writing-hooks.md says of a script without `from __future__ import annotations`
    on Python 3.9: it stops before `main` runs, prints no answer and exits 1. This also shows
    that the examples above really ran on 3.9, where they would fail the same way."""
    _, python, missing = PYTHONS[0]
    if python is None:
        pytest.skip(missing)
    (ex,) = [ex for ex in RUNNABLE if ex.kind == "script" and ex.name == "my-hook"]
    page = (REPO / "docs" / "writing-hooks.md").read_text(encoding="utf-8")
    assert "stops with a `TypeError` before `main` runs, prints no answer and exits 1" in page
    sandbox = gen_transcripts.Sandbox(REPO, python)
    try:
        _install(sandbox, ex)
        script = sandbox.repo / ".hookwrap" / "hooks" / "my-hook.py"
        text = script.read_text(encoding="utf-8")
        script.write_text(text.replace("from __future__ import annotations\n", "", 1), encoding="utf-8")
        runs = _example_runs(sandbox, ex)
    finally:
        sandbox.close()
    for run in runs:
        assert run["result"]["exit_code"] == 1, run["result"]
        assert run["result"]["stdout"] == "", run["result"]
        assert "TypeError" in run["result"]["stderr"], run["result"]
