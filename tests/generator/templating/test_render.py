"""render.py: the template catalogue, template choice, and byte-stable rendering (golden files)."""

from __future__ import annotations

import ast
from typing import Callable

import pytest

from hookwrap.generator.errors import TemplateError, UsageError
from hookwrap.generator.manifest import HookSpec
from hookwrap.generator.render import (
    TEMPLATES,
    check_event,
    choose_template,
    pyrepr,
    render_hook_files,
    templates_dir,
)
from hookwrap.platforms import NormalizedEvent, Platform


def spec_for(template: str, name: str | None = None, event: NormalizedEvent | None = None) -> HookSpec:
    info = TEMPLATES[template]
    return HookSpec(name=name or template, event=event or info.default_event, template=template,
                    matcher=info.default_matcher, platforms=(Platform.CLAUDE, Platform.GEMINI),
                    timeout=info.default_timeout, options=dict(info.default_options))


@pytest.mark.parametrize("template", [t for t in TEMPLATES if t != "skeleton"])
def test_every_template_matches_its_golden_file(template: str, check_golden: Callable[[str, str], None]) -> None:
    files = render_hook_files(spec_for(template))
    for rel, text in files.items():
        check_golden(f"{template}/{rel.rsplit('/', 1)[-1]}", text)


@pytest.mark.parametrize("event", list(NormalizedEvent))
def test_the_skeleton_of_every_event_matches_its_golden_file(event: NormalizedEvent, check_golden) -> None:
    files = render_hook_files(spec_for("skeleton", "my_hook", event))
    assert list(files) == [".hookwrap/hooks/my_hook.py"]
    check_golden(f"skeleton/{event.value}.py", files[".hookwrap/hooks/my_hook.py"])


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_rendered_scripts_are_valid_python_that_starts_with_a_shebang(template: str) -> None:
    for event in TEMPLATES[template].events or list(NormalizedEvent):
        text = render_hook_files(spec_for(template, event=event))[f".hookwrap/hooks/{template}.py"]
        ast.parse(text)
        assert text.startswith("#!/usr/bin/env python3\n")
        assert text.endswith('raise SystemExit(main(hook))\n')
        assert "\n\n\n\n" not in text


def test_rendering_is_byte_stable_and_depends_only_on_name_event_template_and_platforms() -> None:
    spec = spec_for("stop_gate")
    other = HookSpec(name=spec.name, event=spec.event, template=spec.template, matcher="x",
                     platforms=spec.platforms, timeout=5, options={"check": "make test", "max_retries": 1})
    assert render_hook_files(spec) == render_hook_files(spec) == render_hook_files(other)
    elsewhere = HookSpec(name=spec.name, event=spec.event, template=spec.template, matcher=None,
                         platforms=(Platform.GEMINI,), timeout=None, options={})
    assert render_hook_files(elsewhere) != render_hook_files(spec)


def test_the_context_template_also_writes_the_markdown_file() -> None:
    files = render_hook_files(spec_for("context", "project-notes"))
    assert sorted(files) == [".hookwrap/hooks/project-notes.py", ".hookwrap/project-notes.md"]
    assert "HOOK_NAME = 'project-notes'" in files[".hookwrap/hooks/project-notes.py"]


def test_template_defaults_reach_the_scripts_as_literals() -> None:
    gate = render_hook_files(spec_for("stop_gate"))[".hookwrap/hooks/stop_gate.py"]
    assert "DEFAULT_CHECK = 'python3 -m pytest -q'\n" in gate
    assert "DEFAULT_MAX_RETRIES = 3\n" in gate
    fmt = render_hook_files(spec_for("format"))[".hookwrap/hooks/format.py"]
    assert "DEFAULT_COMMAND = ['ruff', 'format', '--quiet']\n" in fmt


def test_a_bad_name_is_refused_before_it_becomes_a_path() -> None:
    spec = spec_for("skeleton", "../evil")
    with pytest.raises(UsageError):
        render_hook_files(spec)


@pytest.mark.parametrize(("name", "template", "expected"), [
    ("guard", None, "guard"),
    ("audit", None, "audit"),
    ("my_check", None, "skeleton"),
    ("guard", "audit", "audit"),
    ("whatever", "stop_gate", "stop_gate"),
])
def test_choose_template(name: str, template: str | None, expected: str) -> None:
    assert choose_template(name, template) == expected


def test_choose_template_refuses_an_unknown_template() -> None:
    with pytest.raises(UsageError) as info:
        choose_template("x", "nope")
    assert "guard" in info.value.hint


def test_check_event_lists_the_valid_events() -> None:
    assert check_event("guard", "before_tool") is NormalizedEvent.BEFORE_TOOL
    assert check_event("audit", "session_end") is NormalizedEvent.SESSION_END
    with pytest.raises(UsageError) as info:
        check_event("guard", "after_agent")
    assert "before_tool" in info.value.hint
    with pytest.raises(UsageError) as info:
        check_event("skeleton", "pre_tool")
    assert "before_tool" in info.value.hint and "session_start" in info.value.hint


def test_catalogue_defaults_are_consistent() -> None:
    for name, info in TEMPLATES.items():
        assert info.name == name
        assert (templates_dir() / f"{name}.py.j2").is_file()
        assert info.events is None or info.default_event in info.events
    assert TEMPLATES["guard"].fail_closed and TEMPLATES["guard"].default_matcher == "shell|write_file|edit_file|read_file"
    assert TEMPLATES["format"].default_matcher == "write_file|edit_file"
    assert not any(info.fail_closed for name, info in TEMPLATES.items() if name != "guard")


@pytest.mark.parametrize("value", ["it's \"quoted\"\n", 3, None, True, ["a", "b"], {"k": [1, 2.5]},
                                   NormalizedEvent.BEFORE_TOOL, "'''; import os #"])
def test_pyrepr_writes_python_literals(value: object) -> None:
    text = pyrepr(value)
    assert ast.literal_eval(text) == value
    assert "NormalizedEvent" not in text


@pytest.mark.parametrize("value", [object(), float("nan"), {1, 2}])
def test_pyrepr_refuses_what_is_not_a_literal(value: object) -> None:
    with pytest.raises(TemplateError):
        pyrepr(value)


def test_the_pre_compact_skeleton_says_what_a_block_does_on_its_own_clis() -> None:
    # claude-code-schema.md, PreCompact (2.1.328 binary): a block skips the compaction, and an
    # always-blocking hook is reported to loop; Gemini CLI's PreCompress cannot block.
    def comment(platforms: tuple[Platform, ...]) -> str:
        spec = HookSpec(name="my_hook", event=NormalizedEvent.PRE_COMPACT, template="skeleton",
                        matcher=None, platforms=platforms, timeout=None, options={})
        return render_hook_files(spec)[".hookwrap/hooks/my_hook.py"]

    both = comment((Platform.CLAUDE, Platform.GEMINI))
    assert "This event cannot block" not in both
    assert "skips the compaction" in both and "loop" in both
    assert "This event cannot block" in comment((Platform.GEMINI,))
