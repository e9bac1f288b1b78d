"""`hookwrap add` warns about what a CLI cannot do with the answers that hook can give, and only
those: a template declares what it may return (catalogue.py); a skeleton or an external hook
may return anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwrap.generator.adopt import add_external_plan
from hookwrap.generator.catalogue import TEMPLATES
from hookwrap.generator.project import add_plan, init_plan
from hookwrap.names import NormalizedEvent, Platform
from hookwrap.platforms import runtime_of


@pytest.fixture
def seven(tmp_path: Path) -> Path:
    """A project with every CLI hookwrap supports."""
    init_plan(tmp_path, tuple(Platform)).apply()
    return tmp_path


def warnings_of(root: Path, event: str, name: str, **kw) -> list[str]:
    plan = add_plan(root, event=event, name=name, **kw)
    plan.apply()
    return plan.warnings


CLINE_TASK_START = ("Cline: TaskStart runs detached (not awaited) and Cline ignores its answer: "
                    "no block, no context")


@pytest.mark.parametrize(("event", "template"), [("before_tool", "guard"), ("before_tool", "audit"),
                                                 ("after_tool", "audit"), ("after_tool", "format"),
                                                 ("session_start", "context")])
def test_a_template_that_never_asks_or_rewrites_is_not_warned_about_it(
        seven: Path, event: str, template: str) -> None:
    warnings = warnings_of(seven, event, "h", template=template)
    # Cline runs TaskStart detached: its limit holds for any answer, so it is said (below).
    expected = [CLINE_TASK_START] if event == "session_start" else []
    assert warnings == expected, warnings


def test_a_skeleton_may_answer_anything_so_every_limit_is_named_in_one_line(seven: Path) -> None:
    """Eight lines of warnings for a hook that answers nothing yet were noise: one line names
    each part of an answer and the CLIs that cannot do it; the docs give each CLI's text."""
    warnings = warnings_of(seven, "before_tool", "mine")
    assert warnings == [
        "mine may answer anything, and some answers do not work on every CLI: ask on Codex CLI, "
        "Copilot CLI, OpenCode, Factory Droid, pi, Kilo CLI and Cline; updated_input on Qwen "
        "Code, OpenCode and Kilo CLI; context on Qwen Code and Factory Droid; allow on OpenCode, "
        "pi, Kilo CLI and Cline; system_message on Cline (what each does instead: "
        "docs/writing-hooks.md, \"What each CLI cannot do\")"]


def test_a_skeleton_keeps_a_limit_that_holds_for_any_answer(seven: Path) -> None:
    # Cline's TaskStart holds whatever the hook answers; only pi cannot do a part (a block),
    # and a limit of one or two CLIs is still written out in that CLI's words.
    warnings = warnings_of(seven, "session_start", "mine")
    assert warnings[0].startswith("pi: ")
    assert warnings[1:] == [CLINE_TASK_START]


def test_an_external_hook_may_answer_anything(seven: Path) -> None:
    plan = add_external_plan(seven, event="before_tool", name="ext", command="true", speaks=None,
                             matcher=None, platforms=[], timeout=None, fail_closed=False)
    (line,) = plan.warnings
    assert line.startswith("ext may answer anything") and "ask on Codex CLI" in line
    assert "updated_input on Qwen Code" in line


def test_stop_gate_is_warned_about_blocks_only(seven: Path) -> None:
    warnings = warnings_of(seven, "after_agent", "stop_gate")
    assert {w.split(":")[0] for w in warnings} == {"OpenCode", "Factory Droid", "pi", "Cline"}
    assert any("Cline has no stop event" in w for w in warnings), warnings
    # Qwen reads continue:false as "keep working"; stop_gate never sends it.
    assert not any("continue" in w for w in warnings)


def test_a_limit_that_holds_for_any_answer_is_always_said(seven: Path) -> None:
    warnings = warnings_of(seven, "before_prompt", "ctx", template="context")
    assert warnings == ["Factory Droid: never fires UserPromptSubmit in droid exec (headless): a "
                        "before_prompt hook runs only in the interactive droid",
                        "Cline: UserPromptSubmit runs detached (not awaited) and Cline ignores its "
                        "answer, and never fires in a headless `cline \"<prompt>\"` run"]


def test_every_limit_names_a_part_a_template_can_declare() -> None:
    parts = {"", "block", "ask", "allow", "updated_input", "context", "system_message",
             "continue_loop"}
    said = 0
    for platform in Platform:
        for event in NormalizedEvent:
            for part, text in runtime_of(platform).limits.get(event, ()):
                assert part in parts and text, (platform, event, part)
                said += 1
    assert said >= 10
    for info in TEMPLATES.values():
        assert info.returns is None or info.returns <= parts - {""}, info.name
    assert TEMPLATES["skeleton"].returns is None
