"""What the docs show is what the code does: links resolve, the rewrite examples rewrite only what
they say, and the files getting-started.md shows are the files `add` writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.projects import initialised_repo

REPO = Path(__file__).resolve().parents[2]
DOCS = ["README.md"] + [f"docs/{name}.md" for name in (
    "getting-started", "writing-hooks", "templates", "ci-and-pre-commit", "cli", "troubleshooting",
    "external-hooks")]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("doc", DOCS)
def test_local_links_resolve(doc: str) -> None:
    path = REPO / doc
    for link in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8")):
        if link.startswith(("http://", "https://")):
            continue
        target_name, _, anchor = link.partition("#")
        target = (path.parent / target_name).resolve() if target_name else path
        assert target.exists(), f"{doc}: {link} points nowhere"
        if anchor and target.suffix == ".md":
            headings = re.findall(r"^#+ (.*)$", target.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(h) for h in headings}, f"{doc}: no heading for {link}"


def _rewrite_example(name: str):
    """The docs' example that adds hook ``name``, installed in a fresh project: its script."""
    sys.path.insert(0, str(REPO / "scripts"))
    import gen_transcripts
    from docblocks import examples

    (ex,) = [ex for ex in examples(REPO) if ex.kind != "fragment" and ex.name == name]
    sandbox = gen_transcripts.Sandbox(REPO)
    initialised_repo(sandbox.repo)  # what `hookwrap init` writes there, copied
    gen_transcripts.install_example(sandbox, ex)
    return sandbox


def _answer(sandbox, name: str, platform: str, command: str) -> dict:
    event, tool = {"claude": ("PreToolUse", "Bash"), "gemini": ("BeforeTool", "run_shell_command")}[platform]
    payload = {"hook_event_name": event, "tool_name": tool,
               "tool_input": {"command": command, "description": "run the tests"}}
    done = subprocess.run(["python3", f".hookwrap/hooks/{name}.py", "--platform", platform],
                          input=json.dumps(payload), cwd=sandbox.repo, env=sandbox.env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1, done.stdout
    return json.loads(done.stdout)


REWRITERS = ["no-push", "quiet-pytest"]  # README.md's hook, docs/writing-hooks.md's rewrite


@pytest.fixture(scope="module", params=REWRITERS)
def rewriter(request: pytest.FixtureRequest):
    sandbox = _rewrite_example(request.param)
    yield request.param, sandbox
    sandbox.close()


def test_rewrite_examples_ask_with_the_whole_input(rewriter) -> None:
    name, sandbox = rewriter
    claude = _answer(sandbox, name, "claude", "pytest tests/test_x.py::test_y -x")
    assert claude["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert claude["hookSpecificOutput"]["updatedInput"] == {
        "command": "pytest tests/test_x.py::test_y -x -q", "description": "run the tests"}
    gemini = _answer(sandbox, name, "gemini", "pytest tests")
    assert gemini["decision"] == "ask"
    assert gemini["hookSpecificOutput"]["tool_input"]["command"] == "pytest tests -q"
    assert _answer(sandbox, name, "claude", "pytest -q tests") == {}


# Each is classified by the hook only; nothing runs them.
NOT_ONE_PLAIN_PYTEST = [
    "pytest; git push origin feature --delete", "pytest && make deploy", "pytest || true",
    "pytest | tee out.txt", "pytest > out.txt", "pytest tests &", "pytest $(cat args)",
    "pytest `cat args`", "pytest\ngit push origin feature", "pytest -k 'a or b'",
    'pytest -k "a or b"', "pytest  tests", " pytest", "pytestx", "python -m pytest; ls",
]


@pytest.mark.parametrize("command", NOT_ONE_PLAIN_PYTEST)
def test_rewrite_examples_leave_other_lines_alone(rewriter, command: str) -> None:
    """The answer to anything but one plain pytest command is "no opinion": no rewrite, and
    never an approval (README's example once approved `pytest; git push ... --delete -q`)."""
    name, sandbox = rewriter
    for platform in ("claude", "gemini"):
        assert _answer(sandbox, name, platform, command) == {}, (platform, command)


@pytest.fixture(scope="module")
def quickstart():
    """`hookwrap init` and `add before_tool guard`, run for real in a sandbox with a throwaway
    HOME. (The transcripts of the docs are checked by tests/docs/test_transcripts.py.)"""
    sys.path.insert(0, str(REPO / "scripts"))
    import gen_transcripts

    sandbox = gen_transcripts.Sandbox(REPO)
    gen_transcripts.step_init(sandbox, "")
    gen_transcripts.step_add(sandbox, "before_tool guard")
    yield {"root": sandbox.repo}
    sandbox.close()


def test_getting_started_shows_the_files_add_writes(quickstart: dict) -> None:
    text = (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")
    root = quickstart["root"]
    for rel in (".claude/settings.json", ".gemini/settings.json"):
        assert (root / rel).read_text(encoding="utf-8") in text, rel
    manifest = (root / "hookwrap.toml").read_text(encoding="utf-8")
    assert manifest[manifest.rindex("\n[hooks.guard]") + 1:] in text


def test_templates_page_lists_what_hookwrap_templates_prints() -> None:
    done = subprocess.run([sys.executable, "-m", "hookwrap", "templates"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    text = (REPO / "docs" / "templates.md").read_text(encoding="utf-8")
    assert "$ hookwrap templates\n" + done.stdout in text
    from hookwrap.generator.render import TEMPLATES

    for name, info in TEMPLATES.items():
        assert f"## {name}" in text
        assert f"| `{name}` |" in text
