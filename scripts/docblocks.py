"""The fenced code blocks of README.md and docs/*.md, and the marker comments that say what each
one is. Used by scripts/gen_transcripts.py and by the tests in tests/docs/.

A marker is an HTML comment on the line right before a block's opening fence (GitHub does not
render it):

- ``<!-- transcript: SANDBOX -->`` (optionally ``; setup: STEP, STEP`` and ``; requires: PROGRAM``)
  before a ``console`` block: scripts/gen_transcripts.py runs the block's ``$ `` commands and
  writes their output. See that script for the sandbox and the steps.
- ``<!-- example: script; hookwrap add ARGS -->`` before a ``python`` block: the block is the
  whole ``.hookwrap/hooks/NAME.py`` of the hook that ``hookwrap add ARGS`` registers.
- ``<!-- example: function; hookwrap add ARGS -->``: the block goes in place of the ``hook``
  function of the script ``hookwrap add ARGS`` renders (what a reader does with it). It may
  define helpers before ``hook``; the rendered script already imports the runtime and has
  ``from __future__ import annotations``.
- ``<!-- example: fragment; REASON -->``: not code to run (a signature, a sketch that needs a
  harness); REASON says why. tests/docs/test_python_examples.py runs every other python block.

Standard library only.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```([\w+-]*)\s*$")
MARKER = re.compile(r"^<!--\s*(transcript|example):\s*(.*?)\s*-->\s*$")
PROMPT = "$ "


@dataclass
class Block:
    """One fenced block: ``start`` and ``end`` are the 0-based line numbers of its fences."""

    path: Path
    start: int
    end: int
    lang: str
    lines: list[str]
    marker_kind: str = ""          # "transcript", "example" or "" (no marker)
    marker_fields: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.start + 1}"

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def has_prompt(self) -> bool:
        return any(line.startswith(PROMPT) for line in self.lines)


def doc_files(root: Path) -> list[Path]:
    """README.md and every docs/*.md under ``root``."""
    files = [root / "README.md"] if (root / "README.md").exists() else []
    return files + sorted((root / "docs").glob("*.md"))


def blocks(path: Path, text: str | None = None) -> list[Block]:
    """Every fenced block of ``path`` (or of ``text``, read as ``path``)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{i + 1}: a code block that is never closed")
        block = Block(path, i, end, match.group(1), lines[i + 1:end])
        marker = MARKER.match(lines[i - 1]) if i else None
        if marker:
            block.marker_kind = marker.group(1)
            block.marker_fields = [f.strip() for f in marker.group(2).split(";")]
        found.append(block)
        i = end + 1
    return found


# ------------------------------------------------------------------------------- examples

@dataclass
class Example:
    """A python block and what its marker says about it."""

    block: Block
    kind: str                      # "script", "function" or "fragment"
    add_args: list[str]            # the arguments of `hookwrap add` (script, function)
    reason: str = ""               # why a fragment is not run

    @property
    def event(self) -> str:
        return self.add_args[0]

    @property
    def name(self) -> str:
        return self.add_args[1]


def example(block: Block) -> Example:
    """What a python block's marker says; ValueError when the marker is missing or wrong."""
    if block.marker_kind != "example" or not block.marker_fields:
        raise ValueError(f"{block.where}: a python block without an `<!-- example: ... -->` marker "
                         "(see scripts/docblocks.py)")
    kind, *rest = block.marker_fields
    if kind == "fragment":
        if not rest or not rest[0]:
            raise ValueError(f"{block.where}: `example: fragment` needs a reason: "
                             "`<!-- example: fragment; REASON -->`")
        return Example(block, kind, [], rest[0])
    if kind not in ("script", "function") or len(rest) != 1:
        raise ValueError(f"{block.where}: the marker must be `example: script; hookwrap add ARGS`, "
                         "`example: function; hookwrap add ARGS` or `example: fragment; REASON`")
    words = shlex.split(rest[0])
    if words[:2] != ["hookwrap", "add"] or len(words) < 4:
        raise ValueError(f"{block.where}: `{rest[0]}` is not `hookwrap add EVENT NAME ...`")
    return Example(block, kind, words[2:])


def examples(root: Path) -> list[Example]:
    """Every python block of the docs, as an Example."""
    return [example(b) for path in doc_files(root) for b in blocks(path) if b.lang == "python"]


_HOOK_FUNCTION = re.compile(r"^def hook\(.*?(?=^if __name__ == \"__main__\":)", re.M | re.S)


def put_hook_function(script: str, function: str) -> str:
    """``script`` (a rendered hook) with its ``hook`` function replaced by ``function``."""
    new, count = _HOOK_FUNCTION.subn(lambda _: function.rstrip("\n") + "\n\n\n", script, count=1)
    if count != 1:
        raise ValueError("the rendered script has no `def hook(` before `if __name__ == \"__main__\":`")
    return new


def hook_script(ex: Example, rendered: str) -> str:
    """The text of ``.hookwrap/hooks/NAME.py`` for an example, given the script `add` rendered."""
    if ex.kind == "script":
        return ex.block.text
    return put_hook_function(rendered, ex.block.text)


# ----------------------------------------------------------------------------- transcripts

@dataclass
class Command:
    """One ``$ `` command of a console block: its lines as written, and the output shown."""

    lines: list[str]
    output: list[str]

    @property
    def shell(self) -> str:
        """The command as bash reads it (continuation lines kept)."""
        return "\n".join([self.lines[0][len(PROMPT):], *self.lines[1:]])


def commands(block: Block) -> list[Command]:
    """The commands of a console block, each with the output lines that follow it."""
    found: list[Command] = []
    continued = False
    for line in block.lines:
        if continued:
            found[-1].lines.append(line)
        elif line.startswith(PROMPT):
            found.append(Command([line], []))
        elif found:
            found[-1].output.append(line)
        else:
            raise ValueError(f"{block.where}: text before the first `$ ` command: {line!r}")
        continued = (continued or line.startswith(PROMPT)) and line.endswith("\\") \
            and not found[-1].output
    return found


def normalise(text: str, replacements: list[tuple[str, str]]) -> str:
    """Run-specific values out of ``text``: each (old, new) pair is replaced in order, then the
    durations `hookwrap test -v` prints; trailing spaces are dropped from each line."""
    for old, new in replacements:
        if old:
            text = text.replace(old, new)
    text = re.sub(r"\bduration: \d+ ms\b", "duration: <n> ms", text)
    return "\n".join(line.rstrip() for line in text.split("\n"))
