"""The releases hookwrap is tested against, read from ``pins.txt`` beside this module: the one
place a pinned version is written (the install script, the end-to-end harness, the records'
versions in doctor and the docs, and the benchmarks all read it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

PINS_FILE = Path(__file__).resolve().with_name("pins.txt")
_VERSION = re.compile(r"\d+(?:\.\d+)+")


class Pin(NamedTuple):
    """One pinned release: ``name`` (a Platform value, or ``cc-safety-net``), its npm
    ``package``, the ``version`` installed and tested, and the ``oldest`` release also checked."""

    name: str
    package: str
    version: str
    oldest: str


def _read(path: Path) -> dict[str, Pin]:
    pins = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 4 or not all(map(_VERSION.fullmatch, fields[2:])):
            raise ValueError(f"{path}:{number}: expected: name package pinned oldest")
        pins[fields[0]] = Pin(*fields)
    return pins


PINS = _read(PINS_FILE)


def version_key(text: str) -> tuple[int, ...]:
    """``"1.2.30"`` as ``(1, 2, 30)``: versions compare as numbers, part by part."""
    return tuple(int(part) for part in text.split("."))


def find_version(text: str) -> str:
    """The first dotted version number in ``text`` (``"1.2.30 (Claude Code)"``), or ""."""
    found = _VERSION.search(text)
    return found.group(0) if found else ""
