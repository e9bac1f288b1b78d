"""README.md and every docs page speak of the CLIs they are about.

The docs were first written for two CLIs, and sentences such as "both CLIs use `file_path`"
outlived that: a file guard written from one misses every write of a CLI that spells the key
otherwise. A sentence names the CLIs it is true of, or says something true of every CLI; a
per-CLI fact belongs in a table that scripts/gen_docs.py writes from the CLIs' records. This
test fails on the words that drift: a count of CLIs ("two CLIs", "all seven CLIs"), "both
CLIs", a bare "on both", "the other platform" / "the other CLI" / "either CLI", a
`--platform claude|gemini`, "CLIs hookwrap may support later".

A measured log may keep what was true when it was measured, between
``<!-- history: WHY -->`` and ``<!-- /history -->``, in the pages of HISTORY_PAGES only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

from docblocks import doc_files  # noqa: E402

# The pages whose measured logs may keep historical statements, marked as history.
HISTORY_PAGES = {"docs/decisions.md", "docs/performance.md"}
HISTORY = re.compile(r"<!--\s*history:(?P<why>[^>]*?)-->(?P<body>.*?)<!--\s*/history\s*-->", re.S)
HISTORY_MARK = re.compile(r"<!--\s*/?history\b")

_NUMBERS = ("two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
            "fifteen|twenty|\\d+")
_CLIS = r"(?:CLIs|platforms|agents|binaries)\b"
# (what is wrong, the pattern); words may be split across lines.
DRIFT: list[tuple[str, re.Pattern[str]]] = [
    ("counts CLIs", re.compile(
        rf"\b(?:{_NUMBERS})\s+(?:(?:of\s+the|real|supported|pinned|other|agent|coding-agent)\s+)*"
        rf"{_CLIS}", re.I)),
    ('says "both" of the CLIs', re.compile(rf"\bboth\s+(?:the\s+)?(?:{_CLIS}|sides\b)", re.I)),
    ('says "on both" without naming what', re.compile(
        r"\bon\s+both\b(?!\s+(?!CLIs\b|platforms\b|sides\b)[\w`\"'(])", re.I)),
    ('speaks of "the other" CLI, as if there were two', re.compile(
        r"\bthe\s+other\s+(?:platform|CLI|side)\b", re.I)),
    ('says "either CLI", as if there were two', re.compile(
        r"\beither\s+(?:CLI|platform|side)\b", re.I)),
    ("shows a two-CLI --platform", re.compile(r"(?:--platform|-p)[\s=]+`?claude\|gemini\b")),
    ("speaks of CLIs hookwrap supports as future ones",
     re.compile(r"\bCLIs\s+hookwrap\s+may\s+support\s+later\b", re.I)),
]


def drift(text: str) -> list[tuple[int, str, str]]:
    """(line, what is wrong, the words) for every drifting phrase of ``text``."""
    found = []
    for what, pattern in DRIFT:
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((line, what, " ".join(match.group(0).split())))
    return sorted(found)


def without_history(text: str) -> str:
    """``text`` with every marked historical part blanked (line numbers kept)."""
    return HISTORY.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _pages() -> list[Path]:
    pages = doc_files(REPO)
    assert any(p.name == "README.md" for p in pages) and len(pages) > 5, pages
    return pages


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_a_page_speaks_of_the_clis_it_is_about(page: Path) -> None:
    text = without_history(page.read_text(encoding="utf-8"))
    rel = page.relative_to(REPO).as_posix()
    problems = [f"{rel}:{line}: {what}: {words!r}" for line, what, words in drift(text)]
    assert not problems, ("name the CLIs a sentence is true of, or say it of every CLI (a "
                          "per-CLI fact goes in a table scripts/gen_docs.py writes):\n"
                          + "\n".join(problems))


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_history_is_marked_only_in_measured_logs(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    rel = page.relative_to(REPO).as_posix()
    marks = HISTORY_MARK.findall(text)
    if not marks:
        return
    assert rel in HISTORY_PAGES, f"{rel}: only {sorted(HISTORY_PAGES)} may mark history"
    regions = list(HISTORY.finditer(text))
    assert len(marks) == 2 * len(regions), f"{rel}: a history marker without its pair"
    for region in regions:
        assert region.group("why").strip(), f"{rel}: `<!-- history: WHY -->` needs its WHY"


@pytest.mark.parametrize("sentence", [
    "Both CLIs use `command` for shell and `file_path` for write, edit and read.",
    "The model gets the reason as the tool's error on both CLIs.",
    "reaches the model on both. Gemini appends it to the tool result.",
    "added to the request on both |",
    "so one matcher covers both\n  CLIs.",
    "`main(hook)` reads `--platform claude|gemini` from the command line.",
    "- `-p claude|gemini` tests one side only.",
    "hookwrap runs it in all seven real CLIs.",
    "runs the real hooks in all five binaries",
    "It supports two CLIs today.",
    "the first measurement of 7 CLIs",
    "hookwrap registers that hook on the other CLI only.",
    "`hookwrap add` says the event does not exist on the other platform.",
    "`--tool` takes a normalized name or either CLI's own name.",
    "and, for CLIs hookwrap may support later, `.codex/hooks.json`",
    "the six other agents",
])
def test_drift_is_caught(sentence: str) -> None:
    assert drift(sentence), sentence


@pytest.mark.parametrize("sentence", [
    "It runs on Claude Code and Gemini CLI.",
    "Context goes to `additionalContext` on Claude Code and Gemini CLI.",
    "reruns the transcripts on both Pythons.",
    "with both `claude` and `copilot` listed, every hook would run twice",
    "hookwrap writes both, and its error document carries it too.",
    "Let hookwrap own the registrations, or the installer, not both.",
    "on the other CLIs the runtime answers \"no decision\".",
    "A CLI that applies a rewrite replaces the whole input.",
    "Where a CLI has two events for one normalized event, hookwrap registers the first one.",
    "`--platform NAME` tests the hook on that CLI only.",
    "a hook that runs on Claude Code and Gemini CLI, the CLIs a new project gets",
    "one run on the 2 shared cores, in two rounds",
])
def test_true_sentences_pass(sentence: str) -> None:
    assert drift(sentence) == [], drift(sentence)


def test_history_is_left_out_and_keeps_line_numbers() -> None:
    text = ("intro\n<!-- history: measured when two CLIs were supported -->\n"
            "both CLIs did it\n<!-- /history -->\nboth CLIs again\n")
    assert drift(text)[0][0] == 2  # the marker's own words count outside history
    cleaned = without_history(text)
    assert cleaned.count("\n") == text.count("\n")
    assert [line for line, _, _ in drift(cleaned)] == [5]
