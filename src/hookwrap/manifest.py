"""hookwrap.toml: the repo's hooks, read and edited with tomlkit so every comment survives."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookwrap.errors import ManifestError, UsageError
from hookwrap.platforms import NormalizedEvent, Platform
from hookwrap.registrations import MATCHER_RE, NAME_RE

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

MANIFEST_VERSION = 1
ALL_PLATFORMS: tuple[Platform, ...] = (Platform.CLAUDE, Platform.GEMINI)

# Keys every hook table may hold, in the order `add` writes them; template options follow.
COMMON_KEYS = ("event", "template", "matcher", "platforms", "timeout")
_TOP_KEYS = ("version", "python", "hooks")
# Windows editors may save one; TOML forbids it and tomlkit would only say "Empty key".
BOM = "\ufeff"
BOM_HINT = "save the file as UTF-8 without a BOM (the editor's encoding setting), then run the command again"
# A matcher is normalized tool names joined by "|" ("shell|write_file"), an MCP pattern
# ("mcp__github__.*") or a lifecycle value ("startup"); registrations translate it per CLI.


@dataclass(frozen=True)
class HookSpec:
    """One hook as the manifest records it (see docs/internals.md)."""

    name: str
    event: NormalizedEvent
    template: str
    matcher: str | None
    platforms: tuple[Platform, ...]
    timeout: int | None
    options: dict[str, object]


def check_name(name: str) -> None:
    """Raise UsageError unless ``name`` can name a hook (it becomes a file name)."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise UsageError(
            f"{name!r} is not a valid hook name",
            hint="use 1-64 characters: a lower-case letter, then a-z, 0-9, '_' or '-'",
        )


class Manifest:
    """A parsed hookwrap.toml: validated hooks plus the tomlkit document they came from."""

    def __init__(self, document: TOMLDocument, label: str, hooks: list[HookSpec]) -> None:
        self._document = document
        self._label = label
        self._hooks = hooks
        self._trim_end = False

    @classmethod
    def load(cls, path: Path | str) -> Manifest:
        """Read and validate the manifest at ``path``; ManifestError if missing or invalid."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ManifestError(f"{path.name}: not found", hint="run `hookwrap init` first") from None
        except (OSError, UnicodeDecodeError) as error:
            raise ManifestError(f"{path.name}: cannot be read: {error}") from None
        return cls.loads(text, path.name)

    @classmethod
    def read(cls, path: Path | str) -> Manifest:
        """Read-only load with the stdlib's tomllib, for commands that never edit the file.

        tomlkit costs tens of milliseconds to import and parse; `sync --check` and `list` run
        in pre-commit and CI on every commit. A file tomllib rejects goes through load(), whose
        errors name the line and column. add(), remove() and dumps() need load().
        """
        import tomllib

        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return cls.load(path)
        document = _PlainDocument(data)
        return cls(document, path.name, _Validator(document, text, path.name).hooks())

    @classmethod
    def loads(cls, text: str, label: str = "hookwrap.toml") -> Manifest:
        """Parse and validate manifest ``text``; ``label`` names it in error messages."""
        document = _parse(text, label)
        hooks = _Validator(document, text, label).hooks()
        return cls(document, label, hooks)

    @property
    def hooks(self) -> list[HookSpec]:
        """Every hook, in file order."""
        return list(self._hooks)

    @property
    def python(self) -> str | None:
        """The interpreter the `python` key names, or None for the default."""
        value = self._document.get("python")
        return str(value) if value is not None else None

    def get(self, name: str) -> HookSpec | None:
        """The hook called ``name``, or None."""
        return next((spec for spec in self._hooks if spec.name == name), None)

    def add(self, spec: HookSpec) -> None:
        """Append ``spec`` as a new ``[hooks.<name>]`` table; ManifestError if the name exists."""
        if self.get(spec.name) is not None:
            raise ManifestError(
                f"{self._label}: hooks.{spec.name} already exists",
                hint=f"pick another name, or run `hookwrap remove {spec.name}` first",
            )
        _validate_spec(spec, self._label)
        hooks = self._hooks_table(create=True)
        hooks.add(spec.name, _spec_table(spec))
        self._hooks.append(spec)

    def remove(self, name: str) -> HookSpec:
        """Delete the ``[hooks.<name>]`` table and return its spec; ManifestError if absent."""
        spec = self.get(name)
        if spec is None:
            raise ManifestError(
                f"{self._label}: there is no hook named {name!r}",
                hint="`hookwrap list` shows the hooks",
            )
        was_last = self._hooks[-1] is spec
        del self._hooks_table(create=False)[name]
        self._hooks.remove(spec)
        # tomlkit leaves the blank line that separated the last table; without this, add then
        # remove would not give back the file as it was.
        self._trim_end = self._trim_end or was_last
        return spec

    def dumps(self) -> str:
        """The document as text: untouched parts are byte-for-byte what was read."""
        text = self._document.as_string()
        if self._trim_end and text.endswith("\n\n"):
            text = text.rstrip("\n") + "\n"
        return text

    def _hooks_table(self, *, create: bool) -> Any:
        import tomlkit

        if "hooks" not in self._document:
            if not create:
                raise KeyError("hooks")
            # A super table writes only `[hooks.<name>]` headers, never a bare `[hooks]`.
            self._document.add("hooks", tomlkit.table(is_super_table=True))
        return self._document["hooks"]


def new_manifest_text() -> str:
    """The commented hookwrap.toml that `hookwrap init` writes."""
    return _NEW_MANIFEST


_NEW_MANIFEST = """\
# hookwrap.toml: this repo's agent hooks, for Claude Code and Gemini CLI.
# Edit it by hand or with `hookwrap add` / `hookwrap remove`, then run `hookwrap sync` to
# write .claude/settings.json and .gemini/settings.json. Comments here are kept.

# Format of this file.
version = 1

# Interpreter the registered commands run the hook scripts with (default "python3").
# python = "python3"

# One table per hook; [hooks.<name>] runs the script .hookwrap/hooks/<name>.py.
# The name: a lower-case letter, then up to 63 of a-z, 0-9, "_" and "-".
#
# [hooks.guard]
# event = "before_tool"        # a normalized event: before_tool, after_tool, before_prompt,
#                              # after_agent, session_start, session_end, ...
# template = "guard"           # what the script was rendered from: guard, context, audit,
#                              # stop_gate, format or skeleton
# matcher = "shell|write_file|edit_file"
#                              # tool events: normalized tool names joined by "|";
#                              # session_start/session_end: one exact value ("startup");
#                              # leave it out to run on every call
# platforms = ["claude", "gemini"]
#                              # where to register the hook
# timeout = 10                 # seconds before the CLI gives up on the hook; leave it out
#                              # for hookwrap's default, 60 seconds on both CLIs
#
# Template options go in the same table, and the scripts read them when they run:
#   stop_gate: check = "python3 -m pytest -q"   # shell command that must pass before the
#                                               # agent may stop
#              max_retries = 3                  # blocks in a row before letting it stop anyway
#   format:    command = ["ruff", "format", "--quiet"]
#                                               # formatter (list or string); the file is
#                                               # appended as the last argument
#              suffixes = [".py", ".pyi"]       # files it applies to; [] = every file
"""


class _PlainDocument(dict):
    """tomllib's result dressed as the part of a tomlkit document that reading needs."""

    def unwrap(self) -> dict[str, Any]:
        return dict(self)

    def as_string(self) -> str:
        raise TypeError("a manifest from Manifest.read() is read-only; use Manifest.load()")


def _parse(text: str, label: str) -> TOMLDocument:
    import tomlkit
    from tomlkit.exceptions import ParseError

    if text.startswith(BOM):
        raise ManifestError(f"{label}: starts with a UTF-8 byte order mark (BOM)", hint=BOM_HINT)
    try:
        return tomlkit.parse(text)
    except ParseError as error:
        # tomlkit's message ends with its own " at line L col C"; say it once, up front.
        message = re.sub(r" at line \d+ col \d+$", "", str(error))
        raise ManifestError(
            f"{label}: line {error.line}, column {error.col}: {message}",
            hint="fix the TOML syntax there",
        ) from None


def _spec_table(spec: HookSpec) -> Any:
    import tomlkit

    table = tomlkit.table()
    table.add("event", str(spec.event))
    table.add("template", spec.template)
    if spec.matcher is not None:
        table.add("matcher", spec.matcher)
    table.add("platforms", [str(platform) for platform in spec.platforms])
    if spec.timeout is not None:
        table.add("timeout", spec.timeout)
    for key, value in spec.options.items():
        table.add(key, value)
    return table


def _validate_spec(spec: HookSpec, label: str) -> None:
    """Check a spec built in code (by `hookwrap add`) with the rules used for the file."""
    import tomlkit

    document = tomlkit.document()
    document.add("hooks", tomlkit.table(is_super_table=True))
    document["hooks"].add(spec.name, _spec_table(spec))
    _Validator(document, document.as_string(), label).hooks()


class _Validator:
    """Turns a parsed document into HookSpecs, or raises ManifestError naming the key."""

    def __init__(self, document: Any, text: str, label: str) -> None:
        self._document = document
        self._text = text
        self._label = label

    def hooks(self) -> list[HookSpec]:
        data = self._document.unwrap()
        for key in data:
            if key not in _TOP_KEYS:
                self._fail(key, "unknown key", hint=f"top-level keys are {', '.join(_TOP_KEYS)}")
        self._check_header(data)
        hooks = data.get("hooks", {})
        if not isinstance(hooks, dict):
            self._fail("hooks", "must be a table of [hooks.<name>] tables")
        return [self._hook(name, entry) for name, entry in hooks.items()]

    def _check_header(self, data: dict[str, Any]) -> None:
        version = data.get("version", MANIFEST_VERSION)
        if version != MANIFEST_VERSION or isinstance(version, bool):
            self._fail("version", f"{version!r} is not supported (expected {MANIFEST_VERSION})",
                       hint="upgrade hookwrap, or set version = 1")
        python = data.get("python")
        if python is not None and (not isinstance(python, str) or not python.strip()):
            self._fail("python", "must be a non-empty string such as \"python3\"")

    def _hook(self, name: str, entry: Any) -> HookSpec:
        where = f"hooks.{name}"
        if not NAME_RE.match(name):
            self._fail(where, "is not a valid hook name",
                       hint="use a lower-case letter, then up to 63 of a-z, 0-9, '_' or '-'")
        if not isinstance(entry, dict):
            self._fail(where, "must be a table")
        template = self._template(name, entry)
        return HookSpec(
            name=name,
            event=self._event(name, entry, template),
            template=template,
            matcher=self._matcher(name, entry),
            platforms=self._platforms(name, entry),
            timeout=self._timeout(name, entry),
            options=self._options(name, entry, template),
        )

    def _template(self, name: str, entry: dict[str, Any]) -> str:
        from hookwrap.render import TEMPLATES

        template = entry.get("template", "skeleton")
        if not isinstance(template, str) or template not in TEMPLATES:
            self._fail(f"hooks.{name}.template", f"{_show(template)} is not a template",
                       hint=f"templates: {', '.join(TEMPLATES)}")
        return template

    def _event(self, name: str, entry: dict[str, Any], template: str) -> NormalizedEvent:
        from hookwrap.render import TEMPLATES

        key = f"hooks.{name}.event"
        if "event" not in entry:
            self._fail(f"hooks.{name}", "has no event", hint="add e.g. event = \"before_tool\"")
        value = entry["event"]
        if not _is_one_of(value, NormalizedEvent):
            self._fail(key, f"{_show(value)} is not an event",
                       hint=f"events: {', '.join(NormalizedEvent)}")
        allowed = TEMPLATES[template].events
        if allowed is not None and value not in allowed:
            self._fail(key, f"the {template} template does not handle {value}",
                       hint=f"use {', '.join(allowed)}")
        return NormalizedEvent(value)

    def _matcher(self, name: str, entry: dict[str, Any]) -> str | None:
        value = entry.get("matcher")
        if value is not None and (not isinstance(value, str) or not MATCHER_RE.match(value)):
            self._fail(f"hooks.{name}.matcher", f"{_show(value)} is not a matcher",
                       hint='use tool names joined by "|" such as "shell|write_file", or leave it out')
        return value

    def _platforms(self, name: str, entry: dict[str, Any]) -> tuple[Platform, ...]:
        value = entry.get("platforms", list(ALL_PLATFORMS))
        key = f"hooks.{name}.platforms"
        if not isinstance(value, list) or not value:
            self._fail(key, "must be a non-empty list", hint='e.g. platforms = ["claude", "gemini"]')
        for item in value:
            if not _is_one_of(item, Platform):
                self._fail(key, f"{_show(item)} is not a platform", hint="use claude and/or gemini")
        if len(set(value)) != len(value):
            self._fail(key, "lists a platform twice")
        return tuple(Platform(item) for item in value)

    def _timeout(self, name: str, entry: dict[str, Any]) -> int | None:
        value = entry.get("timeout")
        if value is not None and (type(value) is not int or value <= 0):
            self._fail(f"hooks.{name}.timeout", f"{_show(value)} is not a positive whole number of seconds",
                       hint="e.g. timeout = 30, or leave it out for the default (60 seconds)")
        return value

    def _options(self, name: str, entry: dict[str, Any], template: str) -> dict[str, object]:
        from hookwrap.render import TEMPLATES

        allowed = TEMPLATES[template].default_options
        options: dict[str, object] = {}
        for key, value in entry.items():
            if key in COMMON_KEYS:
                continue
            if key not in allowed:
                valid = ", ".join((*COMMON_KEYS, *allowed))
                self._fail(f"hooks.{name}.{key}", "unknown key", hint=f"valid keys here: {valid}")
            problem = _OPTION_CHECKS[key](value)
            if problem:
                self._fail(f"hooks.{name}.{key}", f"{_show(value)} {problem}")
            options[key] = value
        return options

    def _fail(self, key: str, problem: str, *, hint: str = "") -> None:
        line = _line_of(self._text, key)
        where = f" (line {line})" if line else ""
        raise ManifestError(f"{self._label}: {key}: {problem}{where}", hint=hint)


def _is_one_of(value: object, choices: type[NormalizedEvent] | type[Platform]) -> bool:
    return isinstance(value, str) and value in {choice.value for choice in choices}


def _show(value: object) -> str:
    """A value as TOML would spell it, for messages: strings in double quotes."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def _check_string(value: object) -> str:
    return "" if isinstance(value, str) and value.strip() else "must be a non-empty string"


def _check_count(value: object) -> str:
    return "" if type(value) is int and value >= 0 else "must be a whole number, 0 or more"


def _check_command(value: object) -> str:
    if isinstance(value, str) and value.strip():
        return ""
    if isinstance(value, list) and value and all(isinstance(item, str) and item for item in value):
        return ""
    return "must be a command: a non-empty string or list of strings"


def _check_suffixes(value: object) -> str:
    if isinstance(value, list) and all(isinstance(item, str) and item.startswith(".") for item in value):
        return ""
    return 'must be a list of file suffixes such as [".py"]'


# One check per template option name (the names come from render.TEMPLATES).
_OPTION_CHECKS = {
    "check": _check_string,
    "max_retries": _check_count,
    "command": _check_command,
    "suffixes": _check_suffixes,
}


def _line_of(text: str, key: str) -> int | None:
    """Best-effort line number of a dotted key such as hooks.guard.event, for messages."""
    parts = key.split(".")
    if parts[0] != "hooks" or len(parts) < 2:
        return _key_line(text.splitlines(), 0, parts[0])
    lines = text.splitlines()
    header = re.compile(r"^\s*\[\s*hooks\s*\.\s*[\"']?" + re.escape(parts[1]) + r"[\"']?\s*\]")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return None
    if len(parts) == 2:
        return start + 1
    return _key_line(lines, start + 1, parts[2])


def _key_line(lines: list[str], start: int, key: str) -> int | None:
    """The line of ``key = ...`` from ``start`` up to the next table header."""
    pattern = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
    for index in range(start, len(lines)):
        if lines[index].lstrip().startswith("["):
            return None
        if pattern.match(lines[index]):
            return index + 1
    return None
