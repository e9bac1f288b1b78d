"""Never lose the user's data: broken files are refused whole, comments and modes and links survive."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from support.cli import CLAUDE, GEMINI, MANIFEST, hw, owned_names, read_json, snapshot, write_json
from support.projects import from_template

ALL_COMMANDS = [["add", "after_tool", "format"], ["remove", "guard"], ["sync"], ["sync", "--check"],
                ["list"], ["list", "--json"], ["init"]]
WRITING_COMMANDS = [["add", "after_tool", "format"], ["remove", "guard"], ["sync"], ["init"]]


def _guarded(root: Path) -> None:
    assert hw(root, "init").code == 0
    assert hw(root, "add", "before_tool", "guard").code == 0


@pytest.fixture
def guarded(empty_dir: Path) -> Path:
    """`hookwrap init`, then `add before_tool guard` (a copy of one template)."""
    return from_template(empty_dir, _guarded)


def put(root: Path, rel: str, text: str | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


def assert_refused(root: Path, args: list[str], message: str) -> None:
    before = snapshot(root)
    result = hw(root, *args)
    assert result.code == 1, (result.out, result.err)
    assert len(result.err_lines) == 2, result.err
    assert re.fullmatch(message, result.err_lines[0]), result.err_lines[0]
    assert result.err_lines[1].startswith("hint: ")
    assert snapshot(root) == before


BROKEN_SETTINGS = {
    "claude invalid json": (CLAUDE, '{\n  "hooks": {,\n}\n',
                            r"error: \.claude/settings\.json:2:13: expected a double-quoted property name"),
    "gemini invalid json": (GEMINI, '{\n  "general": {}\n  "hooks": {}\n}\n',
                            r"error: \.gemini/settings\.json:3:3: .*"),
    "claude trailing comma": (CLAUDE, '{"model": "opus",}\n', r"error: \.claude/settings\.json:1:\d+: .*"),
    "claude comments": (CLAUDE, '{\n  // ours\n  "model": "opus"\n}\n',
                        r"error: \.claude/settings\.json:2:3: comments are not allowed in a plain JSON file"),
    "claude not utf-8": (CLAUDE, b'{"model": "\xff"}\n', r"error: \.claude/settings\.json: not UTF-8 text \(byte 11\)"),
    "gemini top-level array": (GEMINI, "[]\n", r"error: \.gemini/settings\.json:.*"),
}


@pytest.mark.parametrize("case", list(BROKEN_SETTINGS))
@pytest.mark.parametrize("args", ALL_COMMANDS, ids=[" ".join(a) for a in ALL_COMMANDS])
def test_unreadable_settings_are_refused_and_nothing_is_written(guarded: Path, case: str, args: list[str]) -> None:
    rel, text, message = BROKEN_SETTINGS[case]
    put(guarded, rel, text)
    assert_refused(guarded, args, message)


@pytest.mark.parametrize("args", [["add", "before_tool", "audit"], ["sync"], ["sync", "--check"], ["init"]],
                         ids=["add", "sync", "check", "init"])
def test_event_that_is_not_a_list_is_refused_where_hookwrap_must_write(guarded: Path, args: list[str]) -> None:
    write_json(guarded, CLAUDE, {"hooks": {"PreToolUse": {"matcher": "Bash", "hooks": []}}})
    assert_refused(guarded, args, r"error: \.claude/settings\.json: hooks\.PreToolUse is not a list")


def test_hooks_not_an_object_is_refused(guarded: Path) -> None:
    write_json(guarded, GEMINI, {"hooks": ["BeforeTool"]})
    assert_refused(guarded, ["sync"], r"error: \.gemini/settings\.json: hooks is not an object")


BROKEN_MANIFESTS = {
    "syntax": ('version = 1\n[hooks.guard\nevent = "before_tool"\n',
               r"error: hookwrap\.toml:2:13: expected '\]' at the end of a table declaration"),
    # A hand edit that repeats a key or a table (tomlkit has no position for the first).
    "repeated key": ('version = 1\n\n[hooks.guard]\nevent = "before_tool"\ntimeout = 10\n'
                     'timeout = 20\n',
                     r'error: hookwrap\.toml:6:1: key "timeout" appears twice in \[hooks\.guard\] '
                     r"\(first on line 5\)"),
    "repeated table": ('version = 1\n\n[hooks.guard]\nevent = "before_tool"\n\n[hooks.guard]\n'
                       'timeout = 20\n',
                       r"error: hookwrap\.toml:6:1: table \[hooks\.guard\] appears twice "
                       r"\(first on line 3\)"),
    "unquoted value": ('version = 1\n\n[hooks.guard]\nevent = before_tool\n',
                       r"error: hookwrap\.toml:4:9: invalid value"),
    "open string": ('version = 1\n\n[hooks.guard]\nevent = "before_tool\n',
                    r"error: hookwrap\.toml:4:21: a string is not closed before the end of the line"),
    "bad event": ('version = 1\n\n[hooks.guard]\nevent = "nope"\ntemplate = "guard"\n',
                  r'error: hookwrap\.toml: hooks\.guard\.event: "nope" is not an event \(line 4\)'),
    "unknown key": ('version = 1\n\n[hooks.guard]\nevent = "before_tool"\ncolour = "red"\n',
                    r"error: hookwrap\.toml: hooks\.guard\.colour: unknown key \(line 5\)"),
    "bad timeout": ('version = 1\n\n[hooks.guard]\nevent = "before_tool"\ntimeout = -1\n',
                    r"error: hookwrap\.toml: hooks\.guard\.timeout: -1 is not a positive whole number of seconds \(line 5\)"),
}


@pytest.mark.parametrize("case", list(BROKEN_MANIFESTS))
@pytest.mark.parametrize("args", ALL_COMMANDS, ids=[" ".join(a) for a in ALL_COMMANDS])
def test_broken_manifest_is_refused_and_nothing_is_written(guarded: Path, case: str, args: list[str]) -> None:
    text, message = BROKEN_MANIFESTS[case]
    put(guarded, MANIFEST, text)
    assert_refused(guarded, args, message)


@pytest.mark.parametrize("case", ["repeated key", "repeated table"])
@pytest.mark.parametrize("args", [["adopt"], ["adopt", "--dry-run"],
                                  ["serve", "--print-service", "systemd"]], ids=" ".join)
def test_a_repeated_key_is_one_line_on_the_other_manifest_commands(
        guarded: Path, case: str, args: list[str]) -> None:
    """The commands ALL_COMMANDS leaves out that read hookwrap.toml say the same one line."""
    text, message = BROKEN_MANIFESTS[case]
    put(guarded, MANIFEST, text)
    assert_refused(guarded, args, message)


@pytest.mark.parametrize("case", ["repeated key", "repeated table"])
def test_doctor_names_a_repeated_key_as_its_manifest_failure(guarded: Path, case: str) -> None:
    """doctor goes on to check the settings files, and names the fault in its manifest line."""
    text, message = BROKEN_MANIFESTS[case]
    put(guarded, MANIFEST, text)
    before = snapshot(guarded)
    result = hw(guarded, "doctor", "--no-run")
    assert result.code == 1 and result.err == "", result.err
    [line] = [line for line in result.out_lines if line.startswith("fail manifest: ")]
    assert re.fullmatch(message.replace("error: ", "fail manifest: ", 1), line), line
    assert "Traceback" not in result.out
    assert snapshot(guarded) == before


# --- Gemini comments ----------------------------------------------------------------------------

COMMENTED_OUTSIDE = """\
// Team settings: keep this line
{
  /* editor */ "general": {"vimMode": true}, // trailing note
  "ui": {"theme": "GitHub"}
}
"""


def test_gemini_comments_outside_hooks_are_preserved_and_restored(project: Path) -> None:
    put(project, GEMINI, COMMENTED_OUTSIDE)
    assert hw(project, "add", "before_tool", "guard").code == 0
    text = (project / GEMINI).read_text()
    for comment in ["// Team settings: keep this line", "/* editor */", "// trailing note"]:
        assert comment in text
    from hookwrap.generator.jsonc import parse

    data = parse(text, label=GEMINI, allow_comments=True)
    assert list(data) == ["general", "ui", "hooks"]
    assert data["hooks"]["BeforeTool"][0]["hooks"][0]["name"] == "guard"
    assert hw(project, "sync", "--check").code == 0
    assert hw(project, "remove", "guard").code == 0
    assert (project / GEMINI).read_text() == COMMENTED_OUTSIDE


COMMENTED_INSIDE = """\
{
  "hooks": {
    "BeforeTool": [
      // the team's linter
      {"matcher": "read_file", "hooks": [{"name": "lint", "type": "command", "command": "lint.sh"}]}
    ]
  }
}
"""


def test_gemini_comments_inside_the_event_hookwrap_changes_are_refused(project: Path) -> None:
    put(project, GEMINI, COMMENTED_INSIDE)
    assert_refused(project, ["add", "before_tool", "guard"],
                   r'error: \.gemini/settings\.json: comments inside "hooks" would be lost '
                   r"\(in hooks\.BeforeTool\); hookwrap will not rewrite this file")


def test_gemini_comments_inside_another_event_are_kept(project: Path) -> None:
    put(project, GEMINI, COMMENTED_INSIDE)
    assert hw(project, "add", "after_tool", "format").code == 0
    text = (project / GEMINI).read_text()
    assert text.startswith(COMMENTED_INSIDE.split("    ]\n")[0] + "    ],\n")
    assert '"name": "format"' in text
    assert hw(project, "remove", "format").code == 0
    assert (project / GEMINI).read_text() == COMMENTED_INSIDE


def test_gemini_comments_inside_hooks_refuse_remove_and_sync(guarded: Path) -> None:
    text = (guarded / GEMINI).read_text().replace('"BeforeTool": [', '"BeforeTool": [ // ours', 1)
    put(guarded, GEMINI, text)
    assert hw(guarded, "sync").code == 0  # nothing to change: nothing to refuse
    assert_refused(guarded, ["remove", "guard"], r'error: \.gemini/settings\.json: comments inside "hooks" .*')
    (guarded / ".hookwrap/hooks/guard.py").unlink()
    put(guarded, MANIFEST, (guarded / MANIFEST).read_text().replace("timeout = 10", "timeout = 11"))
    assert_refused(guarded, ["sync"], r'error: \.gemini/settings\.json: comments inside "hooks" .*')


# --- modes and links ----------------------------------------------------------------------------

def test_file_modes_are_kept(guarded: Path) -> None:
    os.chmod(guarded / CLAUDE, 0o600)
    os.chmod(guarded / GEMINI, 0o640)
    os.chmod(guarded / MANIFEST, 0o664)
    assert hw(guarded, "add", "after_tool", "format").code == 0
    assert (guarded / CLAUDE).stat().st_mode & 0o777 == 0o600
    assert (guarded / GEMINI).stat().st_mode & 0o777 == 0o640
    assert (guarded / MANIFEST).stat().st_mode & 0o777 == 0o664
    assert owned_names(guarded, CLAUDE) == ["guard", "guard", "format"]


@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
def test_symlinked_settings_file_is_followed(project: Path, rel: str) -> None:
    shared = project.parent / "shared" / "settings.json"
    write_json(shared.parent, shared.name, {"model": "team-default"})
    os.chmod(shared, 0o600)
    link = project / rel
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(shared)
    assert hw(project, "add", "before_tool", "guard").code == 0
    assert link.is_symlink() and os.readlink(link) == str(shared)
    data = json.loads(shared.read_text())
    assert data["model"] == "team-default"
    assert list(data["hooks"]) == (["PreToolUse", "PreSkillShellCommand"] if rel == CLAUDE
                                   else ["BeforeTool"])
    assert shared.stat().st_mode & 0o777 == 0o600
    assert hw(project, "remove", "guard").code == 0
    assert link.is_symlink()
    assert json.loads(shared.read_text()) == {"model": "team-default"}
    assert [p.name for p in shared.parent.iterdir()] == ["settings.json"]  # no temp files left


def test_settings_written_with_two_space_indent_and_newline(project: Path) -> None:
    put(project, CLAUDE, '{"model":"opus","env":{"A":"1"}}')  # compact, no trailing newline
    assert hw(project, "add", "before_tool", "guard").code == 0
    text = (project / CLAUDE).read_text()
    assert text == json.dumps(read_json(project, CLAUDE), indent=2) + "\n"
    assert list(read_json(project, CLAUDE)) == ["model", "env", "hooks"]


# --- what `add` then `remove` must give back ----------------------------------------------------

# Reconciliation is stateless: `{}` plus `add` and no file plus `add` give the same bytes, so
# `remove` cannot tell them apart. It favours the common case (no file before `add`, no file
# after `remove`): containers emptied by removing hookwrap's last entry are pruned, and a file
# left as `{}` is deleted. An empty `hooks` means the same to both CLIs as no `hooks`.
@pytest.mark.parametrize("rel", [CLAUDE, GEMINI])
def test_a_file_left_empty_by_remove_is_deleted(project: Path, rel: str) -> None:
    put(project, rel, "{}\n")
    hw(project, "add", "before_tool", "guard")
    assert (project / rel).is_file()
    hw(project, "remove", "guard")
    assert not (project / rel).exists()


@pytest.mark.parametrize(("original", "after"), [
    ({"hooks": {}}, None),
    ({"hooks": {"PreToolUse": []}}, None),
    ({"model": "opus", "hooks": {}}, {"model": "opus"}),
    ({"model": "opus", "hooks": {"Stop": []}}, {"model": "opus", "hooks": {"Stop": []}}),
])
def test_empty_containers_emptied_by_remove_are_pruned(project: Path, original: dict,
                                                       after: dict | None) -> None:
    write_json(project, CLAUDE, original)
    hw(project, "add", "before_tool", "guard")
    hw(project, "remove", "guard")
    if after is None:
        assert not (project / CLAUDE).exists()
    else:
        assert read_json(project, CLAUDE) == after
