"""The generated parts of the docs (README tables, docs/cli.md) match the code.

The repository's docs are checked by running scripts/gen_docs.py as CI does; the copies with
one generated part altered by its ``main`` in-process (what it prints and returns, without a
Python start per run)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hookwrap import NORMALIZED_TO_TOOL, NormalizedEvent, Platform

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "gen_docs.py"


def gen_docs(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def gen_docs_module():
    spec = importlib.util.spec_from_file_location("hookwrap_gen_docs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def run_gen_docs(gen_docs_module, capsys: pytest.CaptureFixture[str]
                 ) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``gen_docs(*args)``, as scripts/gen_docs.py's ``main`` in this process."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = gen_docs_module.main(list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([str(SCRIPT), *args], code, out, err)

    return run


@pytest.fixture
def copy_root(tmp_path: Path) -> Path:
    """A copy of the generated files, to alter without touching the repo."""
    (tmp_path / "docs").mkdir()
    pages = [p.relative_to(REPO).as_posix() for p in (REPO / "docs").glob("*.md")]
    for rel in ("README.md", *pages, ".pre-commit-hooks.yaml", "pyproject.toml"):
        shutil.copy(REPO / rel, tmp_path / rel)
    return tmp_path


def test_generated_docs_are_current() -> None:
    done = gen_docs("--check")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("rel, old, new", [
    ("README.md", "| `before_tool` | `PreToolUse` (also `PreSkillShellCommand`) | `BeforeTool` |",
     "| `before_tool` | `PreToolUse` (also `PreSkillShellCommand`) | `BeforeToolX` |"),
    ("README.md", "| `shell` | `Bash` (also `PowerShell`) | `run_shell_command` | `Bash` | `run_shell_command` (also `monitor`) | `Bash` | `bash` | `Execute` |", ""),
    ("docs/cli.md", "Render a hook script", "Render a script"),
    (".pre-commit-hooks.yaml", "|\\.codex/hooks\\.json", ""),
    ("pyproject.toml", " and Cline,", ","),
    ("docs/ci-and-pre-commit.md", "`.factory/settings.json`", "`.other`"),
    ("docs/writing-hooks.md", "| `get(\"worktree\")` |", "| `get(\"work_tree\")` |"),
    ("docs/writing-hooks.md", "`Write`: `path`, `file_text`", "`Write`: `file_path`, `content`"),
    ("docs/writing-hooks.md", "| Factory Droid 0.225.2 | `before_tool` | `ask` |", "| Factory Droid 0.225.2 | `before_tool` | `allow` |"),
    ("docs/runner-contract.md", "`/bin/sh -c`", "`bash -c`"),
    ("docs/troubleshooting.md", "- Copilot CLI: `.github/hooks/hookwrap.json` (the project's)\n", ""),
    ("docs/templates.md", "- OpenCode: `\"failClosed\": true`", "- OpenCode: `\"failClosed\": false`"),
    ("README.md", "| `^github_.*$` |", "| `^mcp__github__.*$` |"),
])
def test_check_fails_when_a_generated_part_is_altered(copy_root: Path, run_gen_docs, rel: str, old: str,
                                                     new: str) -> None:
    gen_docs = run_gen_docs
    path = copy_root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")

    done = gen_docs("--check", "--root", str(copy_root))
    assert done.returncode == 1
    assert rel in done.stderr
    assert path.read_text(encoding="utf-8") != text, "--check must write nothing"

    assert gen_docs("--root", str(copy_root)).returncode == 0
    assert path.read_text(encoding="utf-8") == text
    assert gen_docs("--check", "--root", str(copy_root)).returncode == 0


def test_check_fails_when_a_marker_is_missing(copy_root: Path) -> None:
    readme = copy_root / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace(
        "<!-- BEGIN generated: tools -->", "<!-- tools -->"), encoding="utf-8")
    done = gen_docs("--check", "--root", str(copy_root))
    assert done.returncode != 0
    assert "tools" in done.stdout + done.stderr


def test_tables_name_every_event_and_tool() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for event in NormalizedEvent:
        assert f"| `{event.value}` |" in readme
    for platform in Platform:
        for tool, name in NORMALIZED_TO_TOOL[platform].items():
            assert f"| `{tool}` |" in readme
            assert f"`{name}`" in readme


def test_cli_page_lists_every_command_and_option() -> None:
    import typer

    from hookwrap.console.app import app

    page = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    for name, command in root.commands.items():
        assert f"## `hookwrap {name}`" in page
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-"):
                    assert f"`{opt}`" in page, (name, opt)


def test_help_offers_shell_completion() -> None:
    done = subprocess.run([sys.executable, "-m", "hookwrap", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--install-completion" in done.stdout
    assert "--show-completion" in done.stdout


def test_pre_commit_hook_definition() -> None:
    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: hookwrap-sync-check" in text
    assert "entry: hookwrap sync --check" in text
    assert "language: python" in text
    assert "pass_filenames: false" in text
    files = next(line.split(":", 1)[1].strip() for line in text.splitlines()
                 if line.strip().startswith("files:"))
    import re

    pattern = re.compile(files)
    for path in ("hookwrap.toml", ".claude/settings.json", ".gemini/settings.json",
                 ".hookwrap/hooks/guard.py", ".hookwrap/lib/hookwrap/runner.py"):
        assert pattern.search(path), path
    for path in ("src/app.py", "README.md", ".claude/settings.local.json"):
        assert not pattern.search(path), path


def _block(text: str, name: str) -> str:
    start = text.index(f"<!-- BEGIN generated: {name} -->")
    return text[start:text.index(f"<!-- END generated: {name} -->", start)]


@pytest.mark.parametrize("rel, block", [
    ("docs/writing-hooks.md", "fields-every-event"), ("docs/writing-hooks.md", "fields-per-event"),
    ("docs/writing-hooks.md", "tool-input"), ("docs/runner-contract.md", "hook-process"),
    ("docs/troubleshooting.md", "doctor-files"), ("docs/templates.md", "lifecycle"),
    ("README.md", "matchers"), ("README.md", "registration-files"),
    ("docs/troubleshooting.md", "system-message"), ("docs/templates.md", "fail-closed"),
])
def test_per_cli_tables_name_every_cli(rel: str, block: str) -> None:
    from hookwrap.generator.clis import setup_of

    text = _block((REPO / rel).read_text(encoding="utf-8"), block)
    for platform in Platform:
        assert setup_of(platform).label in text, (rel, block, platform)


def test_the_tool_input_table_shows_each_clis_own_path_key() -> None:
    """The keys a file guard must read come from the records: a CLI whose write tool does not
    spell the path `file_path` shows its own key, so the docs cannot teach `file_path` alone."""
    from hookwrap.generator.clis import setup_of

    rows = _block((REPO / "docs/writing-hooks.md").read_text(encoding="utf-8"),
                  "tool-input").splitlines()
    for platform in Platform:
        agent = setup_of(platform)
        row = next(r for r in rows if r.startswith(f"| {agent.label} "))
        fields = agent.tool_fields.get("write_file")
        if fields:
            assert f"`{fields[0]}`" in row.split(" | ")[2], (platform, row)
        if agent.patch_tool:
            assert f"`{agent.patch_tool}`" in row, (platform, row)


def test_the_limits_table_holds_every_limit_of_every_record() -> None:
    from hookwrap.generator.clis import setup_of

    text = _block((REPO / "docs/writing-hooks.md").read_text(encoding="utf-8"), "limits")
    for platform in Platform:
        agent = setup_of(platform)
        for event, limits in agent.limits.items():
            for _, limit in limits:
                assert limit.replace("|", "\\|") in text, (platform, event, limit)
