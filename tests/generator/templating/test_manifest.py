"""manifest.py: hookwrap.toml read, validated and edited without losing a byte of the rest."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwrap.generator.errors import ManifestError, UsageError
from hookwrap.generator.manifest import HookSpec, Manifest, check_name, new_manifest_text
from hookwrap.platforms import NormalizedEvent, Platform

COMMENTED = """\
# Our hooks. Keep this comment.
version = 1   # trailing comment
python = "python3.12"

# The guard protects .env files.
[hooks.guard]
event = "before_tool"      # before every tool call
template = "guard"
matcher = "shell|write_file|edit_file"
platforms = ["claude", "gemini"]
timeout = 10

# Tests must pass before stopping.
[hooks.tests]
event = "after_agent"
template = "stop_gate"
platforms = ["claude"]
check = "make test"   # our own runner
max_retries = 2
# the end
"""


def spec(name: str = "log", **changes: object) -> HookSpec:
    values: dict[str, object] = dict(name=name, event=NormalizedEvent.AFTER_TOOL, template="audit",
                                     matcher="shell", platforms=(Platform.CLAUDE, Platform.GEMINI),
                                     timeout=10, options={})
    values.update(changes)
    return HookSpec(**values)  # type: ignore[arg-type]


def test_round_trip_is_byte_for_byte() -> None:
    assert Manifest.loads(COMMENTED).dumps() == COMMENTED


def test_hooks_come_back_as_specs_in_file_order() -> None:
    manifest = Manifest.loads(COMMENTED)
    assert [hook.name for hook in manifest.hooks] == ["guard", "tests"]
    guard, tests = manifest.hooks
    assert guard == HookSpec(name="guard", event=NormalizedEvent.BEFORE_TOOL, template="guard",
                             matcher="shell|write_file|edit_file",
                             platforms=(Platform.CLAUDE, Platform.GEMINI), timeout=10, options={})
    assert tests.matcher is None and tests.timeout is None
    assert tests.platforms == (Platform.CLAUDE,)
    assert tests.options == {"check": "make test", "max_retries": 2}
    assert manifest.get("tests") == tests and manifest.get("nope") is None
    assert manifest.python == "python3.12"


def test_defaults_for_omitted_keys() -> None:
    manifest = Manifest.loads('[hooks.x]\nevent = "session_start"\n')
    (hook,) = manifest.hooks
    assert hook.template == "skeleton" and hook.platforms == (Platform.CLAUDE, Platform.GEMINI)
    assert manifest.python is None


def test_add_appends_a_table_and_keeps_every_comment() -> None:
    manifest = Manifest.loads(COMMENTED)
    manifest.add(spec(options={}))
    text = manifest.dumps()
    assert text.startswith(COMMENTED)
    assert text[len(COMMENTED):] == (
        '\n[hooks.log]\nevent = "after_tool"\ntemplate = "audit"\nmatcher = "shell"\n'
        'platforms = ["claude", "gemini"]\ntimeout = 10\n'
    )
    assert [hook.name for hook in Manifest.loads(text).hooks] == ["guard", "tests", "log"]


def test_add_writes_options_and_omits_none_keys() -> None:
    manifest = Manifest.loads("version = 1\n")
    manifest.add(spec("fmt", event=NormalizedEvent.AFTER_TOOL, template="format", matcher=None, timeout=None,
                      options={"command": ["ruff", "format"], "suffixes": [".py"]}))
    text = manifest.dumps()
    assert "[hooks.fmt]" in text and "[hooks]\n" not in text
    assert "matcher" not in text and "timeout" not in text
    assert tomllib.loads(text)["hooks"]["fmt"] == {
        "event": "after_tool", "template": "format", "platforms": ["claude", "gemini"],
        "command": ["ruff", "format"], "suffixes": [".py"],
    }
    assert Manifest.loads(text).hooks == manifest.hooks


def test_add_refuses_a_duplicate_name_and_an_invalid_spec() -> None:
    manifest = Manifest.loads(COMMENTED)
    with pytest.raises(ManifestError, match="hooks.guard already exists"):
        manifest.add(spec("guard"))
    with pytest.raises(ManifestError, match="hooks.bad.timeout"):
        manifest.add(spec("bad", timeout=0))
    assert manifest.dumps() == COMMENTED


def test_remove_deletes_only_that_table() -> None:
    manifest = Manifest.loads(COMMENTED)
    removed = manifest.remove("guard")
    assert removed.name == "guard"
    text = manifest.dumps()
    assert "[hooks.guard]" not in text and 'event = "before_tool"' not in text
    # Everything outside the removed table is still there, byte for byte.
    assert text.startswith("# Our hooks. Keep this comment.\nversion = 1   # trailing comment\n")
    assert text.endswith('check = "make test"   # our own runner\nmax_retries = 2\n# the end\n')
    assert [hook.name for hook in Manifest.loads(text).hooks] == ["tests"]
    with pytest.raises(ManifestError, match="no hook named 'guard'"):
        manifest.remove("guard")


def test_add_then_remove_gives_back_the_original_text() -> None:
    manifest = Manifest.loads(COMMENTED)
    manifest.add(spec())
    manifest.remove("log")
    assert manifest.dumps() == COMMENTED


def test_new_manifest_text_is_valid_documented_and_empty() -> None:
    text = new_manifest_text()
    manifest = Manifest.loads(text)
    assert manifest.hooks == [] and manifest.python is None
    assert tomllib.loads(text) == {"version": 1}
    for key in ("python", "event", "template", "matcher", "platforms", "timeout", "check", "max_retries", "command"):
        assert f"{key} =" in text
    manifest.add(spec())
    assert manifest.dumps().startswith(text)


def test_load_reads_a_file_and_names_it(tmp_path: Path) -> None:
    path = tmp_path / "hookwrap.toml"
    path.write_text(COMMENTED)
    assert Manifest.load(path).dumps() == COMMENTED
    with pytest.raises(ManifestError, match="hookwrap.toml: not found") as info:
        Manifest.load(tmp_path / "missing" / "hookwrap.toml")
    assert "hookwrap init" in info.value.hint


def test_syntax_errors_give_line_and_column() -> None:
    with pytest.raises(ManifestError) as info:
        Manifest.loads('version = 1\n[hooks.guard]\nevent = "before_tool\n', "hookwrap.toml")
    assert str(info.value) == "hookwrap.toml:3:21: a string is not closed before the end of the line"


@pytest.mark.parametrize(("text", "message", "hint"), [
    ('version = 1\n[hooks.guard]\nevent = "before_tool"\ntimeout = 1\ntimeout = 2\n',
     'hookwrap.toml:5:1: key "timeout" appears twice in [hooks.guard] (first on line 4)',
     "keep one of the two lines"),
    ('[hooks.guard]\nplatforms = ["claude"]\nevent = "x"\nplatforms = [\n  "gemini",\n]\n',
     'hookwrap.toml:4:1: key "platforms" appears twice in [hooks.guard] (first on line 2)',
     "keep one of the two lines"),
    ('# top\nversion = 1\n"version" = 1\n',
     'hookwrap.toml:3:1: key "version" appears twice at the top of the file (first on line 2)',
     "keep one of the two lines"),
    ('[hooks.a]\nevent = "x"\n[hooks.b]\nevent = "y"\n[ hooks . "a" ]\ntimeout = 1\n',
     "hookwrap.toml:5:1: table [hooks.a] appears twice (first on line 1)",
     "merge the two into one [hooks.a] table"),
    ('[serve]\nport = 1\n[hooks.g]\ncommands = ["git *"\n',
     "hookwrap.toml:4:20: a list [ ... ] is not closed", "end it with ]"),
    ('[hooks.g]\nplatforms = ["claude"\n\n[hooks.h]\n',
     "hookwrap.toml:4:1: a list [ ... ] is not closed", "end it with ]"),
    ('serve = {port = 48620, port = 48621}\n',
     'hookwrap.toml:1:36: key "port" appears twice in an inline table { ... }', "keep one"),
    ('version = 1\n[hooks.guard\n', "hookwrap.toml:2:13: expected ']' at the end of a table "
     "declaration", "fix the TOML syntax"),
])
def test_syntax_errors_say_what_a_hand_edit_got_wrong(text: str, message: str, hint: str) -> None:
    # tomlkit gives a repeated key no position at all (KeyAlreadyPresent, not a ParseError).
    with pytest.raises(ManifestError) as info:
        Manifest.loads(text, "hookwrap.toml")
    assert str(info.value) == message
    assert info.value.hint.startswith(hint)


@pytest.mark.parametrize(("text", "message"), [
    ('[hooks.guard]\nevent = "pre_tool"\n',
     'hookwrap.toml: hooks.guard.event: "pre_tool" is not an event (line 2)'),
    ('version = 1\n\n[hooks.guard]\ntemplate = "guard"\nevent = "after_agent"\n',
     "hookwrap.toml: hooks.guard.event: the guard template does not handle after_agent (line 5)"),
    ('[hooks.guard]\nevent = "before_tool"\ntemplate = "guardian"\n',
     'hookwrap.toml: hooks.guard.template: "guardian" is not a template (line 3)'),
    ('[hooks.guard]\ntemplate = "guard"\n', "hookwrap.toml: hooks.guard: has no event (line 1)"),
    ('[hooks.Guard]\nevent = "before_tool"\n', "hookwrap.toml: hooks.Guard: 'Guard' is not a valid hook name (line 1)"),
    ('[hooks.g]\nevent = "before_tool"\nplatforms = ["claude", "cursor"]\n',
     'hookwrap.toml: hooks.g.platforms: "cursor" is not a platform (line 3)'),
    ('[hooks.g]\nevent = "before_tool"\nplatforms = []\n',
     "hookwrap.toml: hooks.g.platforms: must be a non-empty list (line 3)"),
    ('[hooks.g]\nevent = "before_tool"\nplatforms = ["gemini", "gemini"]\n',
     "hookwrap.toml: hooks.g.platforms: lists a platform twice (line 3)"),
    ('[hooks.g]\nevent = "before_tool"\ntimeout = 0\n',
     "hookwrap.toml: hooks.g.timeout: 0 is not a positive whole number of seconds (line 3)"),
    ('[hooks.g]\nevent = "before_tool"\ntimeout = 1.5\n',
     "hookwrap.toml: hooks.g.timeout: 1.5 is not a positive whole number of seconds (line 3)"),
    ('[hooks.g]\nevent = "before_tool"\ntimeout = true\n',
     "hookwrap.toml: hooks.g.timeout: True is not a positive whole number of seconds (line 3)"),
    ('[hooks.g]\nevent = "before_tool"\nmatcher = "shell | write_file"\n',
     'hookwrap.toml: hooks.g.matcher: "shell | write_file" is not a matcher (line 3)'),
    ('[hooks.g]\nevent = "before_tool"\ntemplate = "guard"\ncheck = "make"\n',
     "hookwrap.toml: hooks.g.check: unknown key (line 4)"),
    ('[hooks.g]\nevent = "after_agent"\ntemplate = "stop_gate"\nmax_retries = -1\n',
     "hookwrap.toml: hooks.g.max_retries: -1 must be a whole number, 0 or more (line 4)"),
    ('[hooks.g]\nevent = "after_tool"\ntemplate = "format"\ncommand = []\n',
     "hookwrap.toml: hooks.g.command: [] must be a command: a non-empty string or list of strings (line 4)"),
    ('[hooks.g]\nevent = "after_tool"\ntemplate = "format"\nsuffixes = ["py"]\n',
     "hookwrap.toml: hooks.g.suffixes: ['py'] must be a list of file suffixes such as [\".py\"] (line 4)"),
    ('version = 2\n', "hookwrap.toml: version: 2 is not supported (expected 1) (line 1)"),
    ('python = ""\n', 'hookwrap.toml: python: must be a non-empty string such as "python3" (line 1)'),
    ('colour = "blue"\n', "hookwrap.toml: colour: unknown key (line 1)"),
    ('hooks = 3\n', "hookwrap.toml: hooks: must be a table of [hooks.<name>] tables (line 1)"),
    ('[hooks]\ng = 3\n', "hookwrap.toml: hooks.g: must be a table"),
])
def test_invalid_entries_name_the_key_and_line(text: str, message: str) -> None:
    with pytest.raises(ManifestError) as info:
        Manifest.loads(text)
    assert str(info.value) == message


def test_error_hints_list_the_valid_choices() -> None:
    with pytest.raises(ManifestError) as info:
        Manifest.loads('[hooks.guard]\nevent = "pre_tool"\n')
    assert "before_tool" in info.value.hint and "session_start" in info.value.hint
    with pytest.raises(ManifestError) as info:
        Manifest.loads('[hooks.g]\nevent = "after_agent"\ntemplate = "stop_gate"\nchek = "x"\n')
    assert "check" in info.value.hint and "max_retries" in info.value.hint


@pytest.mark.parametrize("name", ["guard", "a", "my-hook_2", "x" * 64])
def test_check_name_accepts(name: str) -> None:
    check_name(name)


@pytest.mark.parametrize("name", ["", "Guard", "1st", "-x", "a b", "../x", "x" * 65, "é"])
def test_check_name_refuses(name: str) -> None:
    with pytest.raises(UsageError):
        check_name(name)


_names = st.from_regex(r"[a-z][a-z0-9_-]{0,20}", fullmatch=True)
# Matchers that fit their event on every platform (the entry check refuses the others).
_MATCHERS = {NormalizedEvent.BEFORE_TOOL: ["shell", "write_file|edit_file"],
             NormalizedEvent.AFTER_TOOL: ["shell", "write_file|edit_file"],
             NormalizedEvent.SESSION_START: ["startup"]}


@st.composite
def _specs(draw: st.DrawFn) -> HookSpec:
    event = draw(st.sampled_from(list(NormalizedEvent)))
    matcher = draw(st.one_of(st.none(), st.sampled_from(_MATCHERS.get(event, [None]))))
    return HookSpec(
        name=draw(_names), event=event, template="audit", matcher=matcher,
        platforms=draw(st.sampled_from([(Platform.CLAUDE,), (Platform.GEMINI,),
                                        (Platform.CLAUDE, Platform.GEMINI)])),
        timeout=draw(st.one_of(st.none(), st.integers(1, 3600))), options={})


@settings(max_examples=50, deadline=None)
@given(st.lists(_specs(), max_size=4, unique_by=lambda s: s.name))
def test_added_specs_read_back_equal_and_removing_them_restores_the_text(specs: list[HookSpec]) -> None:
    manifest = Manifest.loads(COMMENTED)
    for item in specs:
        if manifest.get(item.name) is None:
            manifest.add(item)
    added = [item for item in specs if item.name not in ("guard", "tests")]
    assert Manifest.loads(manifest.dumps()).hooks[2:] == added
    for item in added:
        manifest.remove(item.name)
    assert manifest.dumps() == COMMENTED
