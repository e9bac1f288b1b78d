"""The console transcripts of the docs are what the commands print now (scripts/gen_transcripts.py),
and no transcript escapes the generator."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "gen_transcripts.py"
sys.path.insert(0, str(REPO / "scripts"))

from docblocks import blocks, doc_files  # noqa: E402


def gen(*args: str) -> subprocess.CompletedProcess[str]:
    # Its sandboxes in the run's temporary folder (in memory where tests/conftest.py can put
    # it), not the system's temp dir: every `hookwrap init` there writes and fsyncs ~60 files.
    env = {**os.environ, "TMPDIR": os.environ.get("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=900, env=env)


def test_transcripts_are_current() -> None:
    done = gen("--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped" not in done.stderr, \
        f"{done.stderr}hint: pip install -e '.[test]' installs what the transcripts need"


def test_every_command_the_docs_show_is_a_transcript() -> None:
    """A block with `$ ` lines is either generated, or it is not shown as a transcript."""
    for path in doc_files(REPO):
        for block in blocks(path):
            if block.has_prompt():
                assert block.marker_kind == "transcript", \
                    f"{block.where}: `$ ` commands without a `<!-- transcript: ... -->` marker " \
                    "(see scripts/gen_transcripts.py), or drop the `$ ` of a list of commands"
                assert block.lang == "console", f"{block.where}: a transcript is a console block"


def _root(tmp_path: Path, body: str) -> Path:
    root = tmp_path / "docs-root"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text(f"# t\n\n<!-- transcript: t -->\n```console\n{body}```\n",
                                    encoding="utf-8")
    return root


def test_check_fails_on_a_stale_output_and_a_rewrite_fixes_it(tmp_path: Path) -> None:
    root = _root(tmp_path, "$ hookwrap templates\nguard      an old description [before_tool]\n")
    readme = root / "README.md"
    before = readme.read_text(encoding="utf-8")

    done = gen("--check", "--root", str(root))
    assert done.returncode == 1
    assert "-guard      an old description [before_tool]" in done.stdout
    assert "README.md" in done.stderr
    assert readme.read_text(encoding="utf-8") == before, "--check must write nothing"

    assert gen("--root", str(root)).returncode == 0
    after = readme.read_text(encoding="utf-8")
    shown = subprocess.run([sys.executable, "-m", "hookwrap", "templates"], capture_output=True,
                           text=True, timeout=60, check=True).stdout
    assert after == f"# t\n\n<!-- transcript: t -->\n```console\n$ hookwrap templates\n{shown}```\n"
    assert gen("--check", "--root", str(root)).returncode == 0


def test_paths_exit_codes_and_stderr_as_a_terminal_shows_them(tmp_path: Path) -> None:
    root = _root(tmp_path, '$ echo "$PWD" "$HOME"\n$ hookwrap add before_tol x\n$ echo $?\n')
    assert gen("--root", str(root)).returncode == 0
    text = (root / "README.md").read_text(encoding="utf-8")
    assert '$ echo "$PWD" "$HOME"\n<repo> ~\n' in text
    assert "$ hookwrap add before_tol x\nerror: " in text  # stderr, in its place
    assert "\nhint: " in text
    assert text.endswith("$ echo $?\n1\n```\n")  # no hookwrap.toml here: a project error


def test_refuses_a_program_outside_the_allowed_ones(tmp_path: Path) -> None:
    made = tmp_path / "made-by-a-doc"
    root = _root(tmp_path, f"$ hookwrap --version\n$ hookwrap --version && touch {made}\n")
    readme = root / "README.md"
    before = readme.read_text(encoding="utf-8")
    done = gen("--root", str(root))
    assert done.returncode == 1
    assert "refusing to run 'touch'" in done.stderr
    assert readme.read_text(encoding="utf-8") == before
    assert not made.exists(), "no command of a refused block runs"


def test_refuses_a_substitution_outside_single_quotes(tmp_path: Path) -> None:
    made = tmp_path / "made-by-a-substitution"
    root = _root(tmp_path, f"$ hookwrap --version $(touch {made})\n")
    readme = root / "README.md"
    before = readme.read_text(encoding="utf-8")
    done = gen("--root", str(root))
    assert done.returncode == 1
    assert "substitution outside single quotes" in done.stderr
    assert readme.read_text(encoding="utf-8") == before
    assert not made.exists()


def test_a_substitution_inside_single_quotes_is_text(tmp_path: Path) -> None:
    root = _root(tmp_path, "$ hookwrap --version # 'not $(run)'\n")
    done = gen("--root", str(root))
    assert "substitution outside single quotes" not in done.stderr


def test_a_fresh_sandbox_gets_the_kept_project_of_the_same_set_up(tmp_path: Path) -> None:
    """The second sandbox's `init` and `add` are a copy of the first's project (run in this
    process): the same project, which hookwrap finds in sync, and the same output."""
    import gen_transcripts

    root = tmp_path / "docs-root"
    (root / "docs").mkdir(parents=True)
    block = "```console\n$ hookwrap sync --check\n$ hookwrap list\n```\n"
    doc = root / "README.md"
    doc.write_text(f"# t\n\n<!-- transcript: a; setup: init, add:before_tool guard -->\n{block}\n"
                   f"<!-- transcript: b; setup: init, add:before_tool guard -->\n{block}",
                   encoding="utf-8")
    gen_transcripts._STATES.clear()
    messages: list[str] = []
    text = gen_transcripts.render(root, doc, messages)
    steps = ("init", "add:before_tool guard")
    assert {key for key in gen_transcripts._STATES if key[0] == sys.executable} == {
        (sys.executable, steps[:1]), (sys.executable, steps)}
    first, second = (part.split("```console\n")[1].split("```")[0]
                     for part in text.split("<!-- transcript: b"))
    assert first == second
    assert "$ hookwrap sync --check\nnothing to change: everything matches hookwrap.toml\n" in second
    assert "guard" in second.split("$ hookwrap list\n")[1]
    assert messages == []
