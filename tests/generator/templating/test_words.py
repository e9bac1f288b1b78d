"""What rendered scripts, the manifest and the help say about CLIs is said of the right CLIs.

Every word about a CLI is generated from the CLIs' records (generator/words.py): a script
names only the CLIs its hook is registered on, never says "both" or counts CLIs, and teaches
the payload fields those CLIs really send (their captured payloads), pointing to event.files /
event.file_paths wherever a path's key is not the same on all of them.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hookwrap.checks.samples import has_sample, load_sample
from hookwrap.generator.catalogue import TEMPLATES
from hookwrap.generator.clis import setup_of
from hookwrap.generator.hookentry import HookSpec
from hookwrap.generator.manifest import new_manifest_text
from hookwrap.generator.render import render_hook_files
from hookwrap.generator.words import labels, payload_comment, payload_field
from hookwrap.names import NormalizedEvent, Platform

LABELS = {p: setup_of(p).label for p in Platform}
# Words that give a CLI count or pair: a text must name the CLIs it is about instead.
COUNTING = re.compile(r"\b(both|two|three|four|five|six|seven|eight|nine|ten) (CLIs|platforms|agents)\b"
                      r"|\bon both\b|\bboth CLIs\b", re.IGNORECASE)
SUBSETS = [(Platform.CODEX,), (Platform.CODEX, Platform.DROID), (Platform.GEMINI,),
           (Platform.OPENCODE, Platform.COPILOT), tuple(Platform)]


def _names(platform: Platform) -> set[str]:
    """A CLI's label and the short names prose uses for it (Gemini, Droid)."""
    label = LABELS[platform]
    return {label, label.split()[0], label.split()[-1]} - {"CLI", "Code"}


def _other_labels(platforms: tuple[Platform, ...]) -> set[str]:
    mine = set().union(*(_names(p) for p in platforms))
    return {name for p in Platform if p not in platforms for name in _names(p)
            if name not in mine and not any(name in m for m in mine)}


def _spec(template: str, platforms: tuple[Platform, ...]) -> HookSpec:
    info = TEMPLATES[template]
    return HookSpec(name=template, event=info.default_event, template=template, platforms=platforms,
                    matcher=info.default_matcher, timeout=info.default_timeout,
                    options=dict(info.default_options))


@pytest.mark.parametrize("template, platforms", list(itertools.product(
    [t for t in TEMPLATES if t != "guard"], SUBSETS)), ids=str)
def test_a_rendered_script_speaks_only_of_its_own_clis(template: str, platforms: tuple) -> None:
    spec = _spec(template, platforms)
    for rel, text in render_hook_files(spec).items():
        assert COUNTING.search(text) is None, (rel, COUNTING.search(text))
        named = {label for label in _other_labels(platforms) if re.search(rf"\b{label}\b", text)}
        assert named == set(), (rel, named)


@pytest.mark.parametrize("platforms", SUBSETS, ids=str)
def test_the_skeleton_of_every_event_names_its_own_clis(platforms: tuple) -> None:
    for event in NormalizedEvent:
        text = payload_comment(event, platforms)
        assert COUNTING.search(text) is None
        assert {label for label in _other_labels(platforms) if label in text} == set()


def test_a_file_guard_is_pointed_at_event_files_where_file_path_is_not_universal() -> None:
    mixed = payload_comment(NormalizedEvent.BEFORE_TOOL, (Platform.CLAUDE, Platform.CODEX))
    flat = " ".join(line.lstrip("# ") for line in mixed.splitlines())
    assert "event.files, event.file_paths" in flat
    assert "the key of a path differs between these CLIs" in flat
    # Codex's writes arrive as a patch in "command": the comment says so, never "file_path".
    codex = payload_comment(NormalizedEvent.BEFORE_TOOL, (Platform.CODEX,))
    assert 'write_file "command"' in codex and '"file_path"' not in codex


def test_the_payload_fields_named_are_the_ones_each_cli_really_sends() -> None:
    for platform in Platform:
        agent = setup_of(platform)
        for event, name in agent.event_names().items():
            if not has_sample(platform, name):
                continue
            text = payload_comment(event, (platform,))
            for key in load_sample(platform, name):
                if key not in ("hook_event_name", "tool_name", "tool_input"):
                    read = payload_field(key)   # event.tool_response for Copilot's tool_result
                    assert re.search(re.escape(read) + r"(?!\w)", text), (platform, name, key, read)


def test_each_record_names_every_tool_argument_its_captured_payloads_carry() -> None:
    for platform in Platform:
        agent = setup_of(platform)
        for tool in ("shell", "write_file", "edit_file", "read_file"):
            for own in agent.platform_tool_names(tool):
                for event in ("PreToolUse", "BeforeTool"):
                    if not has_sample(platform, event):
                        continue
                    sample = load_sample(platform, event, tool=own)
                    if sample.get("tool_name") != own or not isinstance(sample.get("tool_input"), dict):
                        continue
                    assert set(sample["tool_input"]) <= set(agent.tool_fields.get(tool, ())), (
                        platform, own, sorted(sample["tool_input"]))


def test_the_manifest_header_names_the_repo_s_clis_and_their_files() -> None:
    for platforms in SUBSETS:
        text = new_manifest_text(platforms)
        header = text.split("\n\n", 1)[0]
        assert labels(platforms).split(" and ")[-1] in header
        for p in platforms:
            assert setup_of(p).settings_file in header
        assert COUNTING.search(text) is None
        assert {label for label in _other_labels(platforms) if label in header} == set()


def _help_texts() -> dict[str, str]:
    from typer.main import get_command

    from hookwrap.console.app import app

    group = get_command(app)
    texts = {"hookwrap": group.help or ""}
    for name, command in group.commands.items():
        texts[name] = " ".join([command.help or "", *(getattr(p, "help", "") or "" for p in command.params)])
    return texts


def test_the_help_names_every_cli_and_no_command_counts_them() -> None:
    texts = _help_texts()
    for p in Platform:
        assert LABELS[p] in texts["hookwrap"], p
        assert setup_of(p).settings_file in texts["hookwrap"], p
    for name, text in texts.items():
        assert COUNTING.search(text) is None, (name, COUNTING.search(text))


def test_the_generated_files_name_every_cli() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    hooks = (root / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    description = next(line for line in pyproject.splitlines() if line.startswith("description"))
    for p in Platform:
        assert setup_of(p).settings_file.replace(".", "\\.") in hooks, p
        assert LABELS[p] in description, p


def test_a_key_spelled_otherwise_is_read_through_its_field() -> None:
    assert payload_field("tool_result") == "event.tool_response"
    assert payload_field("tool_response") == "event.tool_response"
    assert payload_field("duration_ms") == 'event.get("duration_ms")'


def test_a_field_every_cli_sends_is_listed_once_and_only_means_only() -> None:
    """session_id and cwd reach the hook on all ten CLIs (Cline's session id is its
    sessionContext.rootSessionId): listed once as common, never as one CLI's "only"."""
    comment = payload_comment(NormalizedEvent.BEFORE_TOOL, tuple(Platform))
    assert "#   Sent by each of them: event.session_id, event.cwd." in comment
    lines = comment.replace("\n#      ", " ").splitlines()
    for line in lines:
        if " only: " in line:
            label = line.split("Sent by ", 1)[1].split(" only: ", 1)[0]
            assert "event.session_id" not in line and "event.cwd" not in line, line
            # every field of an "only" line really is sent by no other CLI
            for field in re.findall(r"event\.(?:get\(\"(\w+)\"\)|(\w+))", line.split(" only: ")[1]):
                name = field[0] or field[1]
                others = [(p, setup_of(p).event_names().get(NormalizedEvent.BEFORE_TOOL))
                          for p in Platform if setup_of(p).label != label]
                assert not any(name in setup_of(p).payload_fields(load_sample(p, raw))
                               for p, raw in others if raw and has_sample(p, raw)), (label, name)
    assert "#   Also sent by Claude Code: event.transcript_path" in comment
