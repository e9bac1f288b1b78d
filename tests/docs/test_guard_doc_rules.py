"""docs/guard.md lists exactly the guard's rules: every rule id of the engine in brackets where
what it blocks is described, and no id there (or in the examples of the docs and the
template) that the engine does not have."""

from __future__ import annotations

import re
from pathlib import Path

from hookwrap.guard_rules import PACKS, RULES, rule_ids

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "guard.md"
# A rule id in brackets: `[git.reset-hard]`, also several: `[fs.a, fs.b]`.
BRACKETED = re.compile(r"\[((?:[a-z]+\.[a-z0-9-]+)(?:, *[a-z]+\.[a-z0-9-]+)*)\]")
PREFIXES = sorted({rule.id.split(".", 1)[0] for rule in RULES})
# A quoted rule id in an example: "git.branch-force-delete".
QUOTED = re.compile(r'"((?:' + "|".join(PREFIXES) + r')\.[a-z0-9-]+)"')


def _bracketed(text: str) -> list[str]:
    """The bracketed ids of the text (not a TOML table header: a line `[hooks.guard]`)."""
    prose = "\n".join(line for line in text.splitlines() if not re.fullmatch(r"\s*\[[^\]]*\]\s*", line))
    return [name.strip() for group in BRACKETED.findall(prose) for name in group.split(",")]


def test_every_rule_of_the_engine_is_in_the_guard_docs() -> None:
    listed = set(_bracketed(DOC.read_text(encoding="utf-8")))
    missing = [name for name in rule_ids() if name not in listed]
    assert not missing, f"docs/guard.md does not describe these rules (add `[id]` where it says what they block): {missing}"


def test_the_guard_docs_name_no_rule_the_engine_lacks() -> None:
    text = DOC.read_text(encoding="utf-8")
    known = set(rule_ids())
    stale = sorted({name for name in _bracketed(text) if name not in known} |
                   {name for name in QUOTED.findall(text) if name not in known})
    assert not stale, f"docs/guard.md names rule ids the engine does not have: {stale}"


def test_the_template_and_the_docs_examples_use_real_rule_ids() -> None:
    template = (REPO / "templates" / "guard.py.j2").read_text(encoding="utf-8")
    examples = QUOTED.findall(template)
    assert examples, "the template's DISABLED_RULES comment names an example id"
    assert set(examples) <= set(rule_ids())


def test_each_pack_is_described_with_its_rules() -> None:
    text = DOC.read_text(encoding="utf-8")
    for pack in PACKS:
        start = text.index(f"- `{pack}`")
        end = text.find("\n- ", start + 1)
        section = text[start:end if end > 0 else None]
        assert {rule.id for rule in RULES if rule.pack == pack} <= set(_bracketed(section)), pack
