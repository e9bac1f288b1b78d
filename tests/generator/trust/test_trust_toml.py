"""`hookwrap trust` on every valid shape of the user's `$CODEX_HOME/config.toml`: tables split or
not, super-tables, dotted keys, inline tables, arrays of tables beside them, comments anywhere.

The property: whatever the shape, trusting sets exactly the entries, every other value and every
comment stays, the file stays valid TOML, and a second run changes nothing. A shape that cannot
hold the entry (``projects`` an array of tables) is refused in one line that says what to change.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwrap.generator.clis.kit import TrustEntry, set_toml_values
from hookwrap.generator.errors import SettingsError


def toml_string(text: str) -> str:
    """The test's own TOML basic string (independent of the code under test)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or char == "\x7f":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


# Folder names with what makes quoting hard: quotes, backslashes, #, dots, brackets, spaces.
segment = st.text(alphabet=st.sampled_from(list("ab z.#\"'\\[]=é\t-_")), min_size=1, max_size=6)
project_path = segment.map(lambda s: "/" + s)
levels = st.sampled_from(["trusted", "untrusted"])


SHAPES = ["tables", "super", "inline", "dotted", "dotted-in-table"]


def _projects(projects: dict[str, str], shape: str, top: list[str], sections: list[list[str]],
              maybe_comment: Any) -> None:
    """The [projects] part in one shape: sections (in any order, so split by others or not),
    a super-table above them, an inline table, dotted keys at the top or in [projects]."""
    rows = [(toml_string(p), f"trust_level = {toml_string(level)}") for p, level in projects.items()]
    if shape == "inline":
        inner = ", ".join(f"{key} = {{ {value} }}" for key, value in rows)
        top.append(f"projects = {{ {inner} }}{maybe_comment()}")
    elif shape == "dotted":
        top += [f"projects.{key}.{value}{maybe_comment()}" for key, value in rows]
    elif shape == "dotted-in-table" and rows:
        sections.append(["[projects]", *(f"{key}.{value}{maybe_comment()}" for key, value in rows)])
    else:
        if shape == "super":
            sections.append([f"[projects]{maybe_comment()}"])
        for key, value in rows:
            sections.append([f"[projects.{key}]{maybe_comment()}", value])


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[TrustEntry]]:
    """A config.toml in one of the shapes a user (or Codex) writes, and the entries to set."""
    counter = iter(range(1000))

    def comment() -> str:
        tail = draw(st.sampled_from(["", 'quote " here', "[t] = 1", "x = 1"]))
        return f"# c{next(counter)} {tail}"

    def maybe_comment() -> str:
        return ("  " + comment()) if draw(st.booleans()) else ""

    projects = draw(st.dictionaries(project_path, levels, max_size=3))
    states = draw(st.dictionaries(st.sampled_from(["/p/.codex/hooks.json:stop:0:0",
                                                    "/q r/.codex/hooks.json:pre_tool_use:0:0",
                                                    "/s#t/.codex/hooks.json:stop:1:0"]),
                                  st.sampled_from(["sha256:00", "sha256:11"]), max_size=2))
    state_shape = draw(st.sampled_from(["tables", "inline", "dotted-in-hooks"]))
    hook_arrays = draw(st.booleans()) and state_shape != "inline"
    top: list[str] = []  # lines before the first section
    sections: list[list[str]] = []  # each a list of lines starting with its header

    if draw(st.booleans()):
        top.append(comment())
    top.append(f'model = "gpt-5.5"{maybe_comment()}')
    if draw(st.booleans()):
        top.append('notes = """a # in a string\nand "quotes" ""\"')
    if draw(st.booleans()):
        top.append(f"numbers = [\n  1, {comment()}\n  2.5,\n  nan,\n]")

    _projects(projects, draw(st.sampled_from(SHAPES)), top, sections, maybe_comment)

    state_rows = [(toml_string(k), f"trusted_hash = {toml_string(v)}") for k, v in states.items()]
    if state_shape == "inline":
        inner = ", ".join(f"{key} = {{ {value} }}" for key, value in state_rows)
        top.append(f"hooks = {{ state = {{ {inner} }} }}")
    elif state_shape == "dotted-in-hooks" and state_rows:
        sections.append(["[hooks]", *(f"state.{key}.{value}" for key, value in state_rows)])
    else:
        for key, value in state_rows:
            sections.append([f"[hooks.state.{key}]", value, "enabled = true"])
    if hook_arrays:
        sections.append(["[[hooks.PreToolUse]]", 'matcher = "Bash"', "[[hooks.PreToolUse.hooks]]",
                         'type = "command"', f'command = "echo # not a comment"{maybe_comment()}'])
    sections.append(["[[mcp_servers.list]]", 'name = "one"'])
    sections.append(["[[mcp_servers.list]]", 'name = "two"', maybe_comment().strip()])
    sections.append([f"[tui]{maybe_comment()}", "theme = 'dark # literal'", comment()])
    order = draw(st.permutations(range(len(sections))))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = top + [""] + [line for i in order for line in [*sections[i], ""]]
    text = newline.join(line for line in lines if line is not None)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")  # no final newline

    trusted = draw(st.one_of(st.sampled_from(sorted(projects) or ["/new"]), project_path))
    entries = [TrustEntry(("projects", trusted, "trust_level"), "trusted", "the project")]
    for key in draw(st.lists(st.sampled_from(["/p/.codex/hooks.json:stop:0:0",
                                               "/n/.codex/hooks.json:stop:0:0"]), unique=True)):
        entries.append(TrustEntry(("hooks", "state", key, "trusted_hash"), "sha256:ff", "hook", "h"))
    return text, entries


def comments(text: str) -> Counter[str]:
    """The comment tokens (# c<N>) a text holds."""
    import re

    return Counter(re.findall(r"# c[0-9]+\b", text))


def same(left: Any, right: Any) -> bool:
    if isinstance(left, float) and isinstance(right, float) and math.isnan(left):
        return math.isnan(right)
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(same, left, right))
    return type(left) is type(right) and left == right


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_shape_keeps_its_values_and_comments(case: tuple[str, list[TrustEntry]]) -> None:
    text, entries = case
    before = tomllib.loads(text)  # the generator writes valid TOML
    expected: dict[str, Any] = tomllib.loads(text)
    for entry in entries:
        table = expected
        for key in entry.keys[:-1]:
            table = table.setdefault(key, {})
        table[entry.keys[-1]] = entry.value

    new, changes = set_toml_values(text, entries, label="config.toml")

    after = tomllib.loads(new)
    assert same(after, expected), (text, new)
    assert comments(new) == comments(text), new
    for change, entry in zip(changes, entries):
        table = before
        for key in entry.keys[:-1]:
            table = table.get(key, {})
        had = table.get(entry.keys[-1], None)
        assert change.action == ("unchanged" if had == entry.value else "update" if had is not None
                                 else "create")
    again, second = set_toml_values(new, entries, label="config.toml")
    assert again == new and {c.action for c in second} == {"unchanged"}


@pytest.mark.parametrize("text", [
    'projects = { "/a" = { trust_level = "trusted" } }\n',  # the shape of the report (issue 24)
    'projects."/a".trust_level = "trusted"\n',
    '[projects]\n"/a".trust_level = "trusted"\n',
    '[projects."/a"]\ntrust_level = "trusted"\n[tui]\nx = 1\n[projects."/c"]\ntrust_level = "trusted"\n',
    '[projects."/a".sub]\nx = 1\n',
    'hooks = { state = {} }\n',
])
def test_the_reported_shapes(text: str) -> None:
    entries = [TrustEntry(("projects", "/b", "trust_level"), "trusted", "the project"),
               TrustEntry(("projects", "/a", "trust_level"), "trusted", "the project"),
               TrustEntry(("hooks", "state", "/b/.codex/hooks.json:stop:0:0", "trusted_hash"),
                          "sha256:ab", "hook", "h")]
    new, _ = set_toml_values(text, entries, label="config.toml")
    data = tomllib.loads(new)
    assert data["projects"]["/a"]["trust_level"] == data["projects"]["/b"]["trust_level"] == "trusted"
    assert data["hooks"]["state"]["/b/.codex/hooks.json:stop:0:0"] == {"trusted_hash": "sha256:ab"}


@pytest.mark.parametrize(("text", "said"), [
    ('[[projects]]\nname = "a"\n', "projects is an array of tables, not a table"),
    ('projects = "all"\n', "projects is a string, not a table"),
    ('[projects]\n"/b" = 1\n', '"/b" is an integer, not a table'),
    ('hooks = { state = [] }\n', "hooks.state is an array, not a table"),
])
def test_a_shape_that_cannot_hold_the_entry_is_refused_in_one_line(text: str, said: str) -> None:
    entries = [TrustEntry(("projects", "/b", "trust_level"), "trusted", "the project"),
               TrustEntry(("hooks", "state", "/b:stop:0:0", "trusted_hash"), "sha256:ab", "hook", "h")]
    with pytest.raises(SettingsError) as raised:
        set_toml_values(text, entries, label="config.toml")
    assert said in raised.value.message and "\n" not in raised.value.message
    assert "make" in raised.value.hint and "a table" in raised.value.hint


def test_a_hook_and_trust_on_an_inline_projects_table(tmp_path: Path, isolated_home: Path) -> None:
    """Issue 24: an inline `projects` table made `hookwrap add` and `hookwrap trust` exit 3."""
    import subprocess
    import sys

    root = tmp_path / "proj"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    config = isolated_home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('# mine\nprojects = { "/a" = { trust_level = "trusted" } }  # inline\n')

    def hookwrap(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hookwrap", "-C", str(root), *args],
                              check=False, capture_output=True, text=True, timeout=120)

    assert hookwrap("init", "--platform", "codex").returncode == 0
    added = hookwrap("add", "before_tool", "guard")
    assert added.returncode == 0, added.stderr
    assert "until you run `hookwrap trust --platform codex`" in added.stdout
    trusted = hookwrap("trust")
    assert trusted.returncode == 0, trusted.stderr
    text = config.read_text()
    data = tomllib.loads(text)
    assert data["projects"]["/a"] == {"trust_level": "trusted"}
    assert data["projects"][str(root.resolve())] == {"trust_level": "trusted"}
    assert len(data["hooks"]["state"]) == 1
    assert text.startswith("# mine\n") and "# inline" in text
    assert "nothing to trust" in hookwrap("trust").stdout
