"""What the docs show is what the code does: links resolve, and the README's hook runs as shown."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

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


def _readme_hook() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A hook by hand", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def _run_readme_hook(tmp_path: Path, payload: dict, platform: str) -> str:
    root = tmp_path / "repo"
    if not root.exists():
        root.mkdir()
        done = subprocess.run([sys.executable, "-m", "hookwrap", "init"], cwd=root,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        (root / ".hookwrap" / "hooks").mkdir(exist_ok=True)
        (root / ".hookwrap" / "hooks" / "no-push.py").write_text(_readme_hook(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-I", "-S", ".hookwrap/hooks/no-push.py", "--platform", platform],
                          input=json.dumps(payload), cwd=root, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("platform, payload", [
    ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "git push origin main"}}),
    ("gemini", {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "git push origin main"}}),
])
def test_readme_hook_prints_what_the_readme_shows(tmp_path: Path, platform: str, payload: dict) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = f"echo '{json.dumps(payload, separators=(',', ':'))}' \\\n" \
            f"    | python3 .hookwrap/hooks/no-push.py --platform {platform}\n"
    assert shown in readme
    output = _run_readme_hook(tmp_path, payload, platform)
    assert readme.split(shown, 1)[1].splitlines()[0] == output


def test_readme_hook_rewrites_pytest(tmp_path: Path) -> None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "pytest tests", "description": "run the tests"}}
    output = json.loads(_run_readme_hook(tmp_path, payload, "claude"))
    assert output["hookSpecificOutput"]["updatedInput"] == {
        "command": "pytest tests -q", "description": "run the tests"}


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """`hookwrap init`, `add before_tool guard` and the README's `test` call, run for real."""
    root = tmp_path_factory.mktemp("quickstart")
    outputs = {}
    for key, args in (("init", ["init"]), ("add", ["add", "before_tool", "guard"]),
                      ("test", ["test", "guard", "--tool", "shell", "--input", '{"command":"rm -rf /"}'])):
        done = subprocess.run([sys.executable, "-m", "hookwrap", *args], cwd=root,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs[key] = done.stdout
    outputs["root"] = root
    return outputs


@pytest.mark.parametrize("doc", ["README.md", "docs/getting-started.md"])
def test_pasted_quickstart_output_is_current(quickstart: dict, doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    assert "$ hookwrap init\n" + quickstart["init"] in text
    assert "$ hookwrap add before_tool guard\n" + quickstart["add"] in text
    assert "$ hookwrap test guard --tool shell --input '{\"command\":\"rm -rf /\"}'\n" \
        + quickstart["test"] in text


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
