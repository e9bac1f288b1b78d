"""A Claude-dialect CLI whose behaviours exist is two records and no code.

Aurora CLI is imaginary: its two records below are all there is of it (no runtime module, no
generator module, no member of Platform): the runtime record of its facts, and its setup, which
names the behaviours it is composed from. The test lets ``Platform("aurora")`` resolve and puts
the records where the registries look (``hookwrap/clis/aurora.py``,
``hookwrap/generator/clis/aurora.py``), then runs it through the machinery every CLI goes
through: registrations rendered into its settings file, validation, the host rules
``hookwrap test`` emulates, a payload normalized, an answer written and read back, trust.
"""

from __future__ import annotations

import enum
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from hookwrap import HookOutput, denormalize_output, normalize_input, platforms
from hookwrap.checks import host
from hookwrap.clis._claude_protocol import ClaudeProtocol
from hookwrap.clis._record import derive, pick
from hookwrap.clis.claude import CLAUDE
from hookwrap.generator import clis as generator_clis
from hookwrap.generator import schema
from hookwrap.generator import pins
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis._answers import read_droid
from hookwrap.generator.clis._base import AgentSetup
from hookwrap.generator.clis.claude import CLAUDE_COMMAND
from hookwrap.generator.clis._handlers import CommandOnlyHandlers
from hookwrap.generator.clis._matchers import SearchInName
from hookwrap.generator.clis._trust_stores import FolderList
from hookwrap.generator.clis.kit import RunResult, Scope
from hookwrap.generator.registrations import registrations_for
from hookwrap.generator.settings import reconcile
from hookwrap.names import NormalizedEvent, Platform

_E = NormalizedEvent


class Imaginary(str, enum.Enum):
    AURORA = "aurora"


# --- the whole of Aurora CLI: two records (this is what adding a Claude-dialect CLI costs) ------
# What a hook process reads (hookwrap/clis/aurora.py).
AURORA = derive(
    CLAUDE,
    platform=Imaginary.AURORA,  # type: ignore[arg-type]  # not a member of Platform: imaginary
    label="Aurora CLI",
    events=pick(CLAUDE.events, "Stop", "PreToolUse", "PostToolUse", "SessionStart"),
    tools={"Shell": "shell", "Make": "write_file", "Change": "edit_file", "Look": "read_file"},
    preferred_tools={},
    tool_fields={"shell": ("command",), "write_file": ("target", "text")},
    file_path_keys=("target", "file_path"),
    tool_input_keys={"write_file": {"target": "file_path", "text": "content"}},
    project_dir_vars=("AURORA_PROJECT_DIR",),
    marker_env="AURORA_PROJECT_DIR",
    hook_process_env={},
    shell_tool_env={},
    guest_clis={},
    context_to_user=frozenset(),
    ask_note="Aurora hooks cannot ask the user: ask them yourself.",
    limits={_E.BEFORE_TOOL: (("ask", "has no ask: an ask is sent as a deny"),)},
    error_deny="specific",
)
# What the hookwrap command reads, and the behaviours it is composed from, mixed as this CLI needs
# (hookwrap/generator/clis/aurora.py).
AURORA_SETUP = AgentSetup(AURORA, derive(
    CLAUDE_COMMAND,
    short_label="Aurora",
    settings_file=".aurora/hooks.json",
    known_settings_events=("PreToolUse", "PostToolUse", "SessionStart", "Stop"),
    unknown_event_note="Aurora CLI skips it",
    invalid_entry_drops_event=False,
    no_matcher_events=frozenset({"Stop"}),
    disable_key="",
    scope_files=(("~/.aurora/hooks.json", "${AURORA_HOME:-~/.aurora}/hooks.json", False),),
    command_form='{python} "$AURORA_PROJECT_DIR/{script}" {args}--platform {platform}',
    fail_closed_key="",
    tool_events=frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL}),
    lifecycle_values={_E.SESSION_START: ("startup", "resume")},
    match_targets={"PreToolUse": "tool_name", "PostToolUse": "tool_name", "SessionStart": "source"},
    default_timeout_s=45.0,
    env_file_events=frozenset(),
    hook_env_vars={"AURORA_PROJECT_DIR": "{project}"},
), matchers=SearchInName(), handlers=CommandOnlyHandlers(), answers=read_droid,
   trust=FolderList(file="${AURORA_HOME:-~/.aurora}/trust.json", shown="~/.aurora/trust.json"))


@pytest.fixture
def aurora(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Aurora CLI known by name for the test's duration: ``Platform("aurora")`` resolves,
    ``hookwrap/clis/aurora.py`` holds its record and ``hookwrap/generator/clis/aurora.py`` its
    setup (where the registries look)."""
    module = types.ModuleType("hookwrap.clis.aurora")
    module.AURORA = AURORA  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hookwrap.clis.aurora", module)
    setup = types.ModuleType("hookwrap.generator.clis.aurora")
    setup.SETUP = AURORA_SETUP  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hookwrap.generator.clis.aurora", setup)
    monkeypatch.setitem(generator_clis.SETUPS, Imaginary.AURORA, "hookwrap.generator.clis.aurora")  # type: ignore[index]
    # Its one line in generator/pins.txt.
    monkeypatch.setitem(pins.PINS, "aurora",
                        pins.Pin("aurora", "@example/aurora", "9.9.9", "9.9.9"))
    monkeypatch.setitem(Platform._value2member_map_, "aurora", Imaginary.AURORA)
    monkeypatch.setattr(platforms, "_LOADED", {})
    monkeypatch.setattr(generator_clis, "_LOADED", {})
    assert "aurora" not in {p.value for p in Platform}  # not a member: only a name that resolves
    return setup_of("aurora")


def _spec(event: str, matcher: str | None, name: str = "guard") -> Any:
    return types.SimpleNamespace(event=event, platforms=("aurora",), name=name, template=name,
                                 timeout=None, resident=False, commands=(), matcher=matcher)


def _settings(*specs: Any) -> dict[str, Any]:
    desired = [reg for spec in specs for reg in registrations_for(spec)[0]]
    return json.loads(reconcile(None, "aurora", desired, label=".aurora/hooks.json").new_text or "")


def test_the_records_are_the_whole_cli(aurora: Any) -> None:
    assert aurora is AURORA_SETUP and type(aurora) is AgentSetup and aurora.runtime.record is AURORA
    assert type(platforms.runtime_of("aurora")) is ClaudeProtocol
    assert type(aurora.runtime) is ClaudeProtocol
    assert not (Path(generator_clis.__file__).parent / "aurora.py").exists()


def test_registrations_are_rendered_from_the_record(aurora: Any) -> None:
    data = _settings(_spec("before_tool", "shell|write_file"), _spec("session_start", "startup", "hello"))
    command = 'python3 "$AURORA_PROJECT_DIR/.hookwrap/lib/run.py" guard --platform aurora'
    assert data["hooks"]["PreToolUse"] == [{"matcher": "^(Shell|Make)$", "hooks": [
        {"type": "command", "command": command, "timeout": 60}]}]
    assert data["hooks"]["SessionStart"][0]["matcher"] == "startup"
    assert aurora.owned_name(command) == "guard"
    # An event the record does not have is not registered, and the warning names the CLI.
    assert registrations_for(_spec("before_prompt", None))[1] == [
        "guard: Aurora CLI has no before_prompt event; not registered there"]


def test_validation_uses_the_behaviours_the_setup_names(aurora: Any) -> None:
    data = _settings(_spec("before_tool", "shell"))
    assert schema.validate_settings(data, "aurora") == []
    bad = {"hooks": {"PreToolUse": [{"matcher": 3, "hooks": [{"type": "command", "command": "x",
                                                                "onFailure": "block"}]}],
                     "Stop": [{"matcher": "x", "hooks": []}], "Notification": []}}
    found = {(p.path, p.message) for p in schema.validate_settings(bad, "aurora")}
    assert found == {
        ("hooks.PreToolUse[0].matcher", "must be a string"),
        ("hooks.PreToolUse[0].hooks[0].onFailure", "unknown key; Aurora CLI ignores it"),
        ("hooks.Stop[0].matcher", "is ignored on Stop"),
        ("hooks.Notification", "unknown hook event; Aurora CLI skips it"),
    }


def test_hookwrap_test_emulates_the_records_host_rules(aurora: Any, tmp_path: Path) -> None:
    data = _settings(_spec("before_tool", "shell"))
    [cmd] = host.commands_from_settings("aurora", data)
    assert (cmd.event, cmd.matcher, cmd.timeout_s) == ("PreToolUse", "^Shell$", 60.0)
    target = host.match_target("aurora", "PreToolUse", {"tool_name": "Shell"})
    assert host.matcher_matches("aurora", "PreToolUse", cmd.matcher, target) is True
    assert host.matcher_matches("aurora", "PreToolUse", cmd.matcher, "Look") is False
    assert host.matcher_matches("aurora", "PreToolUse", "Sh", "Shell") is True  # searched
    assert host.hook_env("aurora", {}, project_dir=tmp_path, base={})["AURORA_PROJECT_DIR"] == str(tmp_path)
    assert host.effective_timeout(type(cmd)("aurora", "Stop", "x")) == 45.0


def test_a_payload_is_normalized_and_answered_in_claudes_words(aurora: Any) -> None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Make", "session_id": "s",
               "tool_input": {"target": "/p/a.py", "text": "x"}, "cwd": "/p"}
    event = normalize_input(json.dumps(payload), Platform("aurora"))
    assert (event.event, event.tool_name, event.file_paths) == (_E.BEFORE_TOOL, "write_file", ["/p/a.py"])
    answer = denormalize_output(HookOutput.ask("sure?"), Platform("aurora"), _E.BEFORE_TOOL)
    specific = json.loads(answer)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"  # no ask: the record's ask_note says why
    assert specific["permissionDecisionReason"].endswith(AURORA.ask_note)
    verdict = setup_of("aurora").interpret("PreToolUse", RunResult(0, answer, "", 5), None)
    assert verdict.outcome == "blocked"
    assert "Aurora hooks cannot ask: hookwrap sent the ask as a deny" in verdict.notes
    exit2 = setup_of("aurora").interpret("SessionStart", RunResult(2, "", "no", 5), None)
    assert exit2.problems == ("exit 2 on SessionStart: not a block Aurora acts on",)


def test_trust_is_kept_where_the_record_says(aurora: Any, tmp_path: Path) -> None:
    root, home = tmp_path / "proj", tmp_path / "home"
    (root / ".aurora").mkdir(parents=True)
    home.mkdir()
    (root / ".aurora/hooks.json").write_text(json.dumps(_settings(_spec("before_tool", None))))
    scopes = [Scope(".aurora/hooks.json", Platform("aurora"), root / ".aurora/hooks.json", True,
                    json.loads((root / ".aurora/hooks.json").read_text()))]
    [finding] = aurora.trust_findings(root, home, scopes, {})
    assert (finding.check, finding.status) == ("aurora-trust", "fail")
    assert finding.fix == "run `hookwrap trust --platform aurora`"
    [edit] = aurora.trust_edits(root, home, {})
    assert edit.path == home / ".aurora/trust.json"
    assert json.loads(edit.new_text) == {"trustedFolders": [str(root.resolve())]}
