"""Tests for settings: reconciling hookwrap's registrations into Claude and Gemini settings files."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import pytest

from hookwrap.generator import jsonc
from hookwrap.generator.errors import SettingsError
from hookwrap.generator.registrations import command_for
from hookwrap.generator.settings import (
    OWNED_COMMAND_RE,
    Change,
    Registration,
    load_settings,
    reconcile,
)
from hookwrap.platforms import Platform

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "settings"
CLAUDE_LABEL = ".claude/settings.json"
GEMINI_LABEL = ".gemini/settings.json"
CLAUDE_REFERENCE = (FIXTURES / "claude_reference.json").read_text()
GEMINI_COMMENTED = (FIXTURES / "gemini_commented.jsonc").read_text()


def creg(name: str, event: str = "PreToolUse", matcher: str | None = "Bash", **extra: object) -> Registration:
    handler = {"type": "command", "command": command_for(name, Platform.CLAUDE), "timeout": 60, **extra}
    return Registration(name, Platform.CLAUDE, event, matcher, handler)


def greg(name: str, event: str = "BeforeTool", matcher: str | None = "^run_shell_command$",
         **extra: object) -> Registration:
    handler = {"type": "command", "command": command_for(name, Platform.GEMINI), "timeout": 60000,
               **extra}
    return Registration(name, Platform.GEMINI, event, matcher, handler)


def claude(text: str | None, *desired: Registration):
    return reconcile(text, Platform.CLAUDE, list(desired), label=CLAUDE_LABEL)


def gemini(text: str | None, *desired: Registration):
    return reconcile(text, Platform.GEMINI, list(desired), label=GEMINI_LABEL)


def data(text: str) -> dict:
    return jsonc.parse(text, label="t")


def canonical(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def actions(result) -> list[tuple[str, str]]:
    return [(change.name, change.action) for change in result.changes]


# --- ownership --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "command",
    [
        'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/hooks/guard.py --platform claude',
        'python3 "${GEMINI_PROJECT_DIR}/.hookwrap/hooks/guard.py" --platform gemini',
        "python3 .hookwrap/hooks/guard.py",
        "/usr/bin/python3 /home/u/my proj/.hookwrap/hooks/guard.py",
    ],
)
def test_owned_command_re_recognises_hookwrap_commands(command: str) -> None:
    match = OWNED_COMMAND_RE.search(command)
    assert match and match.group("name") == "guard"


@pytest.mark.parametrize(
    "command",
    [
        "python3 .claude/hooks/guard.py",
        "python3 .hookwrap/hooks/Guard.py",
        "python3 .hookwrap/hooks/guard.pyc",
        "python3 my.hookwrap/hooks/guard.py",
        "python3 x.hookwrap/hooks/guard.py",
        "python3 .hookwrap/hooks/" + "a" * 65 + ".py",
        "python3 .hookwrap/hooks/1abc.py",
    ],
)
def test_owned_command_re_ignores_other_commands(command: str) -> None:
    assert OWNED_COMMAND_RE.search(command) is None


def test_owned_entries_reports_positions() -> None:
    settings = {"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "x"},
                            creg("a", "Stop", None).handler]}],
        "PreToolUse": "broken",
        "PostToolUse": [{"matcher": "Edit", "hooks": [creg("b").handler]}],
    }}
    entries = setup_of(Platform.CLAUDE).owned_entries(settings)
    assert [(e.name, e.event, e.group_index, e.handler_index, e.matcher) for e in entries] == [
        ("a", "Stop", 0, 1, None), ("b", "PostToolUse", 0, 0, "Edit")]
    assert setup_of(Platform.CLAUDE).owned_entries({"hooks": []}) == []


# --- create, no-op, update, move, remove ----------------------------------------------------

def test_create_new_file_exact_text() -> None:
    result = claude(None, creg("guard"))
    assert result.changed
    assert result.changes == [Change("guard", Platform.CLAUDE, "create", "PreToolUse")]
    assert result.new_text == (
        '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n'
        '        "hooks": [\n          {\n            "type": "command",\n'
        '            "command": "python3 \\"$CLAUDE_PROJECT_DIR\\"/.hookwrap/lib/run.py guard'
        ' --platform claude",\n            "timeout": 60\n          }\n        ]\n'
        "      }\n    ]\n  }\n}\n"
    )


def test_nothing_desired_and_no_file_stays_absent() -> None:
    result = claude(None)
    assert result == type(result)(None, [], False)


def test_create_appends_after_foreign_groups_and_events() -> None:
    result = claude(CLAUDE_REFERENCE, creg("guard"), creg("ctx", "SessionEnd", None))
    new = data(result.new_text)
    old = data(CLAUDE_REFERENCE)
    assert list(new) == list(old)
    assert new["hooks"]["PreToolUse"][:3] == old["hooks"]["PreToolUse"]
    assert new["hooks"]["PreToolUse"][3] == {"matcher": "Bash", "hooks": [creg("guard").handler]}
    assert list(new["hooks"]) == [*old["hooks"], "SessionEnd"]
    assert new["hooks"]["SessionEnd"] == [{"hooks": [creg("ctx", "SessionEnd", None).handler]}]
    assert result.new_text.endswith("}\n") and "  " in result.new_text


def test_second_reconcile_is_a_no_op() -> None:
    desired = [creg("guard"), creg("ctx", "UserPromptSubmit", None)]
    first = claude(CLAUDE_REFERENCE, *desired)
    second = claude(first.new_text, *desired)
    assert second.new_text == first.new_text
    assert second.changed is False
    assert actions(second) == [("guard", "unchanged"), ("ctx", "unchanged")]


def test_untouched_file_keeps_its_formatting() -> None:
    result = claude(CLAUDE_REFERENCE)
    assert result.new_text is CLAUDE_REFERENCE and not result.changed


def test_update_handler_in_place_keeps_position() -> None:
    base = claude(CLAUDE_REFERENCE, creg("guard"), creg("audit", "PostToolUse", "Write")).new_text
    result = claude(base, creg("guard", timeout=5), creg("audit", "PostToolUse", "Write"))
    hooks = data(result.new_text)["hooks"]
    assert hooks["PreToolUse"][3]["hooks"][0]["timeout"] == 5
    assert len(hooks["PreToolUse"]) == 4
    assert result.changes[0] == Change("guard", Platform.CLAUDE, "update", "changed timeout")
    assert actions(result)[1] == ("audit", "unchanged")


def test_update_matcher_of_own_group_in_place() -> None:
    base = claude(None, creg("guard", matcher=None)).new_text
    result = claude(base, creg("guard", matcher="Bash|Edit"))
    groups = data(result.new_text)["hooks"]["PreToolUse"]
    assert groups == [{"matcher": "Bash|Edit", "hooks": [creg("guard").handler]}]
    assert list(groups[0]) == ["matcher", "hooks"]
    assert "matcher None -> 'Bash|Edit'" in result.changes[0].detail
    dropped = claude(result.new_text, creg("guard", matcher=None))
    assert data(dropped.new_text)["hooks"]["PreToolUse"] == [{"hooks": [creg("guard").handler]}]


MIXED = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [
                {"type": "command", "command": "lint.sh", "__marker__": True},
                creg("guard").handler,
                {"type": "http", "url": "https://h.example/x"},
            ]},
            {"matcher": "Read", "hooks": [{"type": "command", "command": "read.sh"}]},
        ]
    }
}


def test_mixed_group_handler_change_edits_only_ours() -> None:
    text = jsonc.dumps(MIXED)
    result = claude(text, creg("guard", timeout=9))
    expected = copy.deepcopy(MIXED)
    expected["hooks"]["PreToolUse"][0]["hooks"][1]["timeout"] = 9
    assert canonical(data(result.new_text)) == canonical(expected)


def test_mixed_group_matcher_change_moves_ours_right_after() -> None:
    result = claude(jsonc.dumps(MIXED), creg("guard", matcher="Edit"))
    groups = data(result.new_text)["hooks"]["PreToolUse"]
    assert groups[0] == {"matcher": "Bash", "hooks": [MIXED["hooks"]["PreToolUse"][0]["hooks"][0],
                                                      MIXED["hooks"]["PreToolUse"][0]["hooks"][2]]}
    assert groups[1] == {"matcher": "Edit", "hooks": [creg("guard").handler]}
    assert groups[2] == MIXED["hooks"]["PreToolUse"][1]
    assert claude(result.new_text, creg("guard", matcher="Edit")).changed is False


def test_mixed_group_removal_keeps_foreign_handlers() -> None:
    result = claude(jsonc.dumps(MIXED))
    groups = data(result.new_text)["hooks"]["PreToolUse"]
    assert [h.get("command", h.get("url")) for h in groups[0]["hooks"]] == [
        "lint.sh", "https://h.example/x"]
    assert actions(result) == [("guard", "remove")]


def test_move_to_another_event() -> None:
    base = claude(CLAUDE_REFERENCE, creg("guard")).new_text
    result = claude(base, creg("guard", "PostToolUse", "Edit"))
    new, old = data(result.new_text), data(CLAUDE_REFERENCE)
    assert new["hooks"]["PreToolUse"] == old["hooks"]["PreToolUse"]
    assert new["hooks"]["PostToolUse"][-1] == {"matcher": "Edit", "hooks": [creg("guard").handler]}
    assert result.changes == [Change("guard", Platform.CLAUDE, "update",
                                     "moved from PreToolUse to PostToolUse")]


def test_move_removes_emptied_event() -> None:
    base = claude(None, creg("guard")).new_text
    result = claude(base, creg("guard", "Stop", None))
    assert list(data(result.new_text)["hooks"]) == ["Stop"]


def test_orphans_are_removed_with_emptied_containers() -> None:
    base = claude(CLAUDE_REFERENCE, creg("guard"), creg("ctx", "SessionEnd", None)).new_text
    result = claude(base, creg("guard"))
    assert actions(result) == [("guard", "unchanged"), ("ctx", "remove")]
    assert result.changes[1].detail == "SessionEnd"
    assert "SessionEnd" not in data(result.new_text)["hooks"]


def test_removing_everything_hookwrap_wrote_deletes_the_file() -> None:
    base = claude(None, creg("guard"), creg("ctx", "Stop", None)).new_text
    result = claude(base)
    assert result.new_text is None and result.changed
    assert sorted(actions(result)) == [("ctx", "remove"), ("guard", "remove")]


def test_duplicates_are_collapsed_keeping_the_exact_copy() -> None:
    stale = dict(creg("guard").handler, timeout=1)
    text = jsonc.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [stale]},
        {"matcher": "Bash", "hooks": [creg("guard").handler]},
        {"hooks": [creg("guard").handler]},
    ], "Stop": [{"hooks": [creg("guard").handler]}]}})
    result = claude(text, creg("guard"))
    assert data(result.new_text) == {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [creg("guard").handler]}]}}
    assert result.changes == [Change("guard", Platform.CLAUDE, "update", "removed 3 duplicates")]


def test_registrations_of_other_platform_are_ignored() -> None:
    result = claude(None, creg("guard"), greg("guard"))
    assert [e.name for e in setup_of(Platform.CLAUDE).owned_entries(data(result.new_text))] == ["guard"]
    assert "BeforeTool" not in result.new_text


# --- round trips --------------------------------------------------------------------------------

@pytest.mark.parametrize("base", [CLAUDE_REFERENCE, jsonc.dumps(data(CLAUDE_REFERENCE)), "{}\n",
                                  '{"model": "opus"}\n'])
def test_claude_add_then_remove_restores_the_json(base: str) -> None:
    added = claude(base, creg("guard"), creg("ctx", "UserPromptSubmit", None),
                   creg("notify", "Notification", "idle_prompt"))
    removed = claude(added.new_text)
    if base == "{}\n":
        assert removed.new_text is None
        return
    assert canonical(data(removed.new_text)) == canonical(data(base))
    if base == jsonc.dumps(data(base)):
        assert removed.new_text == base


def test_gemini_commented_add_update_remove_keeps_every_byte_outside_our_entries() -> None:
    added = gemini(GEMINI_COMMENTED, greg("guard"), greg("ctx", "AfterAgent", None),
                   greg("start", "SessionStart", "startup"), greg("tidy", "AfterModel", None))
    assert added.changed
    for comment in ["// Team settings", "/* hooks are on for everyone */", "// see /hooks panel",
                    "// formatting after edits", "/* last */"]:
        assert comment in added.new_text
    hooks = data(added.new_text)["hooks"]
    assert hooks["BeforeTool"][-1]["hooks"][0] == greg("guard").handler
    assert list(hooks)[-1] == "AfterModel"
    updated = gemini(added.new_text, greg("guard", timeout=1000), greg("ctx", "AfterAgent", None),
                     greg("start", "SessionStart", "startup"), greg("tidy", "AfterModel", None))
    assert data(updated.new_text)["hooks"]["BeforeTool"][-1]["hooks"][0]["timeout"] == 1000
    assert gemini(updated.new_text, greg("guard", timeout=1000), greg("ctx", "AfterAgent", None),
                  greg("start", "SessionStart", "startup"),
                  greg("tidy", "AfterModel", None)).changed is False
    removed = gemini(updated.new_text).new_text
    assert canonical(data(removed)) == canonical(data(GEMINI_COMMENTED))
    # Outside "hooks" every byte is back; inside, only the events hookwrap touched were re-indented.
    before, after = _hooks_span(GEMINI_COMMENTED), _hooks_span(removed)
    assert removed[:after[0]] == GEMINI_COMMENTED[:before[0]]
    assert removed[after[1]:] == GEMINI_COMMENTED[before[1]:]
    assert '"AfterTool":    [ { "matcher": "^(write_file|replace)$", "hooks": [ {' in removed
    assert "// formatting after edits" in removed


def _hooks_span(text: str) -> tuple[int, int]:
    doc = jsonc.parse_document(text, label="t", allow_comments=True)
    node = next(m.node for m in doc.root.members if m.key == "hooks")
    return node.start, node.end


def test_gemini_comment_inside_changed_event_is_refused() -> None:
    text = GEMINI_COMMENTED.replace('"sequential": true,', '"sequential": true, // keep order')
    with pytest.raises(SettingsError) as info:
        gemini(text, greg("guard"))
    assert str(info.value).startswith(
        f'{GEMINI_LABEL}: comments inside "hooks" would be lost (in hooks.BeforeTool)')
    assert info.value.hint
    # The same file is fine when the change lands in an event without comments.
    assert gemini(text, greg("ctx", "AfterAgent", None)).changed


def test_gemini_commented_file_emptied_is_kept_not_deleted() -> None:
    base = "// mine\n{\n}\n"
    added = gemini(base, greg("guard"))
    assert added.new_text.startswith("// mine\n{\n  \"hooks\": {")
    removed = gemini(added.new_text)
    assert removed.new_text == base


def test_gemini_plain_file_is_written_whole() -> None:
    result = gemini('{"ui": {"theme": "x"}}', greg("guard"))
    assert result.new_text == jsonc.dumps({"ui": {"theme": "x"},
                                           "hooks": {"BeforeTool": [{"matcher": "^run_shell_command$",
                                                                     "hooks": [greg("guard").handler]}]}})


# --- invalid input ------------------------------------------------------------------------------

def test_invalid_json_names_line_and_column() -> None:
    text = '{\n  "hooks": {},\n}\n'
    with pytest.raises(SettingsError) as info:
        claude(text, creg("guard"))
    assert str(info.value) == f"{CLAUDE_LABEL}:3:1: trailing comma before '}}' is not allowed"
    assert info.value.hint == "fix the file by hand, then run hookwrap sync"


def test_claude_file_with_comments_is_an_error() -> None:
    with pytest.raises(SettingsError, match=r"^\.claude/settings\.json:2:3: comments are not allowed"):
        claude('{\n  // no\n  "model": "x"\n}\n')


def test_gemini_top_level_array_is_an_error() -> None:
    with pytest.raises(SettingsError, match="1:1: the top level must be a JSON object"):
        gemini("[]", greg("guard"))


def test_hooks_not_an_object() -> None:
    text = '{"hooks": []}'
    with pytest.raises(SettingsError) as info:
        claude(text, creg("guard"))
    assert str(info.value) == f"{CLAUDE_LABEL}: hooks is not an object"
    assert info.value.hint == "fix or remove it, then run hookwrap sync"
    assert claude(text).new_text == text  # nothing to edit: left alone


@pytest.mark.parametrize(("value", "kind"), [
    ("null", " (null)"), ("[]", ""), ('"PreToolUse"', ""), ("3", ""), ("true", ""),
])
@pytest.mark.parametrize("platform", [Platform.CLAUDE, Platform.GEMINI])
def test_hooks_of_any_other_type_is_a_settings_error(platform: Platform, value: str,
                                                     kind: str) -> None:
    text = f'{{"model": "x", "hooks": {value}}}\n'
    label = CLAUDE_LABEL if platform == Platform.CLAUDE else GEMINI_LABEL
    desired = creg("guard") if platform == Platform.CLAUDE else greg("guard")
    with pytest.raises(SettingsError) as info:
        reconcile(text, platform, [desired], label=label)
    assert str(info.value) == f"{label}: hooks is not an object{kind}"
    assert info.value.hint == "fix or remove it, then run hookwrap sync"
    assert reconcile(text, platform, [], label=label).new_text == text


def test_hooks_null_in_a_commented_gemini_file_is_a_settings_error() -> None:
    text = '{\n  // hooks come later\n  "hooks": null\n}\n'
    with pytest.raises(SettingsError, match=r"hooks is not an object \(null\)"):
        gemini(text, greg("guard"))
    assert gemini(text).new_text == text


@pytest.mark.parametrize(("value", "kind"), [("null", " (null)"), ('"Bash"', ""), ("{}", "")])
def test_event_of_another_type_is_a_settings_error(value: str, kind: str) -> None:
    text = f'{{"hooks": {{"PreToolUse": {value}}}}}'
    with pytest.raises(SettingsError) as info:
        claude(text, creg("guard"))
    assert str(info.value) == f"{CLAUDE_LABEL}: hooks.PreToolUse is not a list{kind}"
    assert info.value.hint == "fix or remove it, then run hookwrap sync"


@pytest.mark.parametrize("rel", [CLAUDE_LABEL, GEMINI_LABEL])
def test_cli_add_with_hooks_null_exits_1_and_writes_nothing(
        tmp_path: Path, rel: str, capsys: pytest.CaptureFixture[str]) -> None:
    from hookwrap.console.app import main

    assert main(["-C", str(tmp_path), "init"]) == 0
    (tmp_path / rel).parent.mkdir()
    (tmp_path / rel).write_bytes(b'{"hooks": null}\n')
    before = {str(p): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert main(["-C", str(tmp_path), "add", "before_tool", "guard"]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: {rel}: hooks is not an object (null)\n"
                   "hint: fix or remove it, then run hookwrap sync\n")
    assert {str(p): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


_ODD = [None, [], "s", 1, True, {}, [None], ["s"], [[]], [{}]]


def _odd_documents(event: str, owned: dict) -> list[dict]:
    documents = []
    for odd in _ODD:
        documents += [
            {"hooks": odd},
            {"hooks": {event: odd}},
            {"hooks": {event: [odd]}},
            {"hooks": {event: [{"matcher": "Bash", "hooks": odd}]}},
            {"hooks": {event: [{"matcher": "Bash", "hooks": [odd, owned]}]}},
            {"hooks": {event: [{"matcher": odd, "hooks": [owned]}, odd]}},
            {"hooks": {event: [{"hooks": [{**owned, "timeout": odd}]}], "Stop": odd}},
            {"hooks": {"Stop": [{"hooks": [owned]}], event: odd}},
        ]
    return documents


@pytest.mark.parametrize("platform", [Platform.CLAUDE, Platform.GEMINI])
def test_malformed_hooks_shapes_give_a_result_or_a_settings_error_never_a_crash(
        platform: Platform) -> None:
    make = creg if platform == Platform.CLAUDE else greg
    event = "PreToolUse" if platform == Platform.CLAUDE else "BeforeTool"
    owned = dict(make("guard").handler)
    desired_sets = [[], [make("guard")], [make("guard", matcher=None)], [make("other")],
                    [make("guard", "Stop" if platform == Platform.CLAUDE else "AfterAgent", None)]]
    for document in _odd_documents(event, owned):
        text = json.dumps(document)
        for desired in desired_sets:
            try:
                result = reconcile(text, platform, desired, label="settings.json")
            except SettingsError:
                continue
            if result.new_text is not None:
                jsonc.parse(result.new_text, label="t")


def test_event_not_a_list() -> None:
    text = jsonc.dumps({"hooks": {"PreToolUse": {"matcher": "Bash", "hooks": []}}})
    with pytest.raises(SettingsError, match=r"hooks\.PreToolUse is not a list"):
        claude(text, creg("guard"))
    assert claude(text, creg("ctx", "Stop", None)).changed


@pytest.mark.parametrize(
    "registration",
    [
        greg("guard", timeout=0),
        greg("guard", "PreToolUse"),
        Registration("guard", Platform.GEMINI, "BeforeTool", None,
                     {"type": "command", "command": "python3 other.py"}),
        Registration("Guard", Platform.GEMINI, "BeforeTool", None,
                     {"type": "command", "command": "python3 .hookwrap/hooks/Guard.py"}),
        greg("guard", "SessionStart", "startup|resume"),
    ],
)
def test_invalid_registration_is_refused(registration: Registration) -> None:
    with pytest.raises(SettingsError) as info:
        gemini(GEMINI_COMMENTED, registration)
    assert info.value.hint == "this is a bug in hookwrap; please report it"


def test_same_name_twice_on_one_event_is_refused() -> None:
    with pytest.raises(SettingsError, match="registered twice on PreToolUse"):
        claude(None, creg("guard"), creg("guard", matcher="Write"))


def test_one_hook_on_two_events_is_kept_on_both() -> None:
    # before_tool on Claude Code 2.1.332: PreToolUse, and PreSkillShellCommand for the shell.
    both = (creg("guard", matcher="Bash|Write"), creg("guard", "PreSkillShellCommand", "Bash"))
    first = claude(None, *both)
    assert [c.detail for c in first.changes] == ["PreToolUse", "PreSkillShellCommand"]
    written = data(first.new_text)["hooks"]
    assert [g["matcher"] for g in written["PreToolUse"]] == ["Bash|Write"]
    assert [g["matcher"] for g in written["PreSkillShellCommand"]] == ["Bash"]
    again = claude(first.new_text, *both)
    assert [c.action for c in again.changes] == ["unchanged", "unchanged"]
    assert again.new_text == first.new_text
    # Back to one event: the other entry goes (as a duplicate of the one kept).
    one = claude(first.new_text, both[0])
    assert [(c.action, c.detail) for c in one.changes] == [("update", "removed 1 duplicate")]
    assert "PreSkillShellCommand" not in data(one.new_text)["hooks"]


# --- load_settings ----------------------------------------------------------------------------

def test_load_settings(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "missing.json", Platform.CLAUDE, CLAUDE_LABEL) == (None, {})
    real = tmp_path / "store.jsonc"
    real.write_text(GEMINI_COMMENTED)
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    text, parsed = load_settings(link, Platform.GEMINI, GEMINI_LABEL)
    assert text == GEMINI_COMMENTED and list(parsed) == ["$schema", "hooksConfig", "hooks", "ui"]
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(SettingsError, match="not UTF-8"):
        load_settings(bad, Platform.CLAUDE, CLAUDE_LABEL)
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(tmp_path, Platform.CLAUDE, CLAUDE_LABEL)


# --- properties -------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hookwrap.generator.clis import all_setups, setup_of


def owned_name(handler: object) -> str | None:
    """hookwrap's hook name for a handler written in any CLI's exact command form."""
    command = handler.get("command") if isinstance(handler, dict) else None
    if not isinstance(command, str):
        return None
    return next((name for agent in all_setups() if (name := agent.owned_name(command))), None)


NAMES = ["alpha", "beta", "gamma", "delta"]
TARGETS = {
    Platform.CLAUDE: (["PreToolUse", "PostToolUse", "Stop"], [None, "Bash", "Edit|Write"], 1),
    Platform.GEMINI: (["BeforeTool", "AfterTool", "AfterAgent"], [None, "^run_shell_command$",
                                                                 "write_file"], 1000),
}
FOREIGN_COMMANDS = ["lint.sh", "python3 .claude/hooks/x.py", "echo '.hookwrap/hooks/'",
                    "python3 my.hookwrap/hooks/alpha.py", "npx prettier --write"]
_scalars = st.none() | st.booleans() | st.integers(-99, 99) | st.text(max_size=5)
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=2)
                       | st.dictionaries(st.text(max_size=4), inner, max_size=2), max_leaves=6)


def _owned_handler(platform: Platform):
    scale = TARGETS[platform][2]
    return st.builds(lambda name, t: {"type": "command", "command": command_for(name, platform),
                                      "timeout": t * scale},
                     st.sampled_from(NAMES), st.integers(1, 3))


_foreign_handler = st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.sampled_from(FOREIGN_COMMANDS)},
    optional={"timeout": st.integers(1, 9), "__marker__": st.booleans()},
) | st.just({"type": "http", "url": "https://hooks.example/x"})


def _group(handlers):
    return st.builds(
        lambda matcher, hs, extra: {**({} if matcher is None else {"matcher": matcher}),
                                    "hooks": hs, **extra},
        st.none() | st.sampled_from(["Bash", "Edit", "^read_file$", ""]),
        handlers,
        st.dictionaries(st.sampled_from(["note", "sequential"]), st.booleans(), max_size=1),
    )


@functools.cache  # one strategy per platform, built once: hypothesis reuses what it learnt of it
def _settings(platform: Platform):
    owned = _owned_handler(platform)
    anyone = _foreign_handler | owned
    # Every event keeps at least one foreign handler, so no event is foreign-empty to begin with.
    anchored = st.tuples(_foreign_handler, st.lists(anyone, max_size=2), st.integers(0, 2)).map(
        lambda t: t[1][: t[2]] + [t[0]] + t[1][t[2]:])
    groups = st.tuples(_group(anchored), st.lists(_group(st.lists(anyone, min_size=1, max_size=3)),
                                                   max_size=2), st.integers(0, 2)).map(
        lambda t: t[1][: t[2]] + [t[0]] + t[1][t[2]:])
    events = list(setup_of(platform).facts.known_settings_events) + ["Custom"]
    hooks = st.dictionaries(st.sampled_from(events), groups, min_size=1, max_size=5)
    keys = st.text(alphabet="abxyz$_", min_size=1, max_size=5)
    return st.tuples(st.dictionaries(keys, _values, max_size=4), st.none() | hooks,
                     st.integers(0, 4)).map(_place_hooks)


def _place_hooks(parts) -> dict:
    foreign, hooks, at = parts
    items = list(foreign.items())
    if hooks is not None:
        items.insert(min(at, len(items)), ("hooks", hooks))
    return dict(items)


@functools.cache
def _desired(platform: Platform):
    events, matchers, scale = TARGETS[platform]
    one = st.tuples(st.sampled_from(NAMES), st.sampled_from(events), st.sampled_from(matchers),
                    st.integers(1, 3))
    return st.lists(one, max_size=4, unique_by=lambda t: t[0]).map(lambda regs: [
        Registration(name, platform, event, matcher,
                     {"type": "command", "command": command_for(name, platform),
                      "timeout": t * scale})
        for name, event, matcher, t in regs])


def strip_owned(value: dict) -> dict:
    """The settings without hookwrap's handlers, and without containers that held only those."""
    result = copy.deepcopy(value)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result
    for event in list(hooks):
        kept = []
        for group in hooks[event]:
            mine = [h for h in group["hooks"] if owned_name(h)]
            if mine and len(mine) == len(group["hooks"]):
                continue
            group["hooks"] = [h for h in group["hooks"] if not owned_name(h)]
            kept.append(group)
        hooks[event] = kept
        if not kept:
            del hooks[event]
    if not hooks:
        del result["hooks"]
    return result


def _signature(entries) -> list[tuple]:
    return sorted((e.name, e.event, e.matcher, canonical(e.handler)) for e in entries)


def _check_sequence(platform: Platform, initial: dict, sequence, prefix: str) -> None:
    label = CLAUDE_LABEL if platform is Platform.CLAUDE else GEMINI_LABEL
    foreign = canonical(strip_owned(initial))
    text: str | None = prefix + jsonc.dumps(initial)
    for desired in sequence:
        result = reconcile(text, platform, desired, label=label)
        after = {} if result.new_text is None else jsonc.parse(result.new_text, label=label)
        assert canonical(strip_owned(after)) == foreign
        assert _signature(setup_of(platform).owned_entries(after)) == sorted(
            (r.name, r.event, r.matcher, canonical(r.handler)) for r in desired)
        again = reconcile(result.new_text, platform, desired, label=label)
        assert again.new_text == result.new_text and again.changed is False
        assert {c.action for c in again.changes} <= {"unchanged"}
        text = result.new_text


_property_settings = settings(max_examples=120, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])


@_property_settings
@given(st.data())
def test_property_claude_foreign_content_survives_and_reconcile_is_idempotent(draw) -> None:
    initial = draw.draw(_settings(Platform.CLAUDE))
    sequence = draw.draw(st.lists(_desired(Platform.CLAUDE), min_size=1, max_size=4))
    _check_sequence(Platform.CLAUDE, initial, [*sequence, []], "")


@_property_settings
@given(st.data(), st.booleans())
def test_property_gemini_foreign_content_survives_and_reconcile_is_idempotent(draw, commented) -> None:
    initial = draw.draw(_settings(Platform.GEMINI))
    sequence = draw.draw(st.lists(_desired(Platform.GEMINI), min_size=1, max_size=4))
    _check_sequence(Platform.GEMINI, initial, [*sequence, []], "// team file\n" if commented else "")


@_property_settings
@given(st.data())
def test_property_add_then_remove_restores_the_json(draw) -> None:
    platform = draw.draw(st.sampled_from([Platform.CLAUDE, Platform.GEMINI]))
    initial = strip_owned(draw.draw(_settings(platform)))
    label = CLAUDE_LABEL if platform is Platform.CLAUDE else GEMINI_LABEL
    text = jsonc.dumps(initial)
    added = reconcile(text, platform, draw.draw(_desired(platform)), label=label)
    removed = reconcile(added.new_text, platform, [], label=label)
    if initial:
        assert removed.new_text == text
    else:
        assert removed.new_text in (None, text)
