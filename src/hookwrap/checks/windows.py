"""`hookwrap doctor` on Windows: the interpreter Windows-bound commands name, and each hookwrap
command a CLI runs there, linted for the shells that CLI uses (docs/windows.md)."""

from __future__ import annotations

from collections.abc import Mapping

from ..generator import interpreter
from ..generator.clis import setup_of
from ..generator.clis.kit import FAIL, OK, Finding, Scope
from ..generator.winforms import SHELLS, WINDOWS_FIELDS, lint

_FORMS_DOC = "docs/windows.md"


def check_windows(manifest, scopes: list[Scope], env: Mapping[str, str]) -> list[Finding]:
    """The Windows interpreter (the Store alias named when that is what PATH has), then every
    registered hookwrap command that its CLI's Windows shell cannot run as written."""
    return _python(manifest, env) + _commands(scopes)


def _python(manifest, env: Mapping[str, str]) -> list[Finding]:
    setting = getattr(manifest, "python_windows", None)
    candidates = (interpreter.check_windows_words(setting),) if setting else \
        interpreter.WINDOWS_CANDIDATES
    found = interpreter.probe(env, interpreter.WINDOWS, interpreter.size_of, interpreter.run,
                              candidates)
    if found.word is None:
        return [Finding("windows-python", FAIL, "no Python 3.9+ for the hooks: "
                        + "; ".join(found.skipped),
                        "install Python from python.org (it puts the py launcher on PATH), "
                        'or set python_windows = "..." in hookwrap.toml, then `hookwrap sync`')]
    return [Finding("windows-python", OK, f"Windows-bound commands run with {found.word!r}")]


def _commands(scopes: list[Scope]) -> list[Finding]:
    out = []
    for scope in scopes:
        shells = SHELLS.get(scope.platform.value)
        if scope.data is None or not scope.project or shells is None:
            continue
        field = WINDOWS_FIELDS.get(scope.platform.value, "command")
        for entry in setup_of(scope.platform).owned_entries(scope.data):
            command = entry.handler.get(field) or entry.handler.get("command")
            problems = lint(str(command), shells) if command else []
            if problems:
                label = setup_of(scope.platform).label
                out.append(Finding(
                    "windows-commands", FAIL,
                    f"{scope.label}: {entry.name} ({entry.event}): {label} runs it with "
                    f"{' or '.join(shells)} on Windows, and that command {problems[0]}",
                    f"{label} has one command for every OS: set python_windows in "
                    f"hookwrap.toml (a word every machine has, e.g. \"python\") and run "
                    f"`hookwrap sync` to write the Windows form there; see {_FORMS_DOC}"))
    return out or [Finding("windows-commands", OK,
                           "every hookwrap command runs as written in its CLI's Windows shell")]
