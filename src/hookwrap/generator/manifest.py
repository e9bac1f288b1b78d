"""hookwrap.toml: the repo's hooks, read and edited with tomlkit so every comment survives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

from hookwrap.generator.catalogue import EXTERNAL
from hookwrap.generator.errors import EntryError, ManifestError, UsageError
from hookwrap.generator.hookentry import (
    ALL_PLATFORMS,
    COMMON_KEYS,
    HookSpec,
    check_entry,
    check_name,
    check_platforms,
)
from hookwrap.generator.registrations import DEFAULT_SERVE_PORT, python_words
from hookwrap.names import Platform

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

MANIFEST_VERSION = 1

_TOP_KEYS = ("version", "python", "python_windows", "platforms", "serve", "hooks")
# Windows editors may save one; TOML forbids it and tomlkit would only say "Empty key".
BOM = "\ufeff"
BOM_HINT = "save the file as UTF-8 without a BOM (the editor's encoding setting), then run the command again"

__all__ = ["ALL_PLATFORMS", "COMMON_KEYS", "MANIFEST_VERSION", "HookSpec", "Manifest",
           "check_name", "new_manifest_text"]


class Manifest:
    """A parsed hookwrap.toml: validated hooks plus the tomlkit document they came from."""

    def __init__(self, document: TOMLDocument, label: str, hooks: list[HookSpec],
                 warnings: list[str] | None = None) -> None:
        self._document = document
        self._label = label
        self._hooks = hooks
        self._trim_end = False
        # The file's line ending, kept when dumps() writes it back (a Windows checkout's CRLF).
        self.newline = "\n"
        # What the entry check noticed without refusing (a matcher naming an unknown tool).
        self.warnings = list(warnings or [])

    @classmethod
    def load(cls, path: Path | str) -> Manifest:
        """Read and validate the manifest at ``path``; ManifestError if missing or invalid."""
        from .fsutil import ODD_FILE_HINT, NotARegularFile, read_capped

        path = Path(path)
        try:
            raw = read_capped(path)
            text = raw.decode("utf-8")
        except FileNotFoundError:
            raise ManifestError(f"{path.name}: not found", hint="run `hookwrap init` first") from None
        except NotARegularFile as error:
            raise ManifestError(f"{path.name}: {error}", hint=ODD_FILE_HINT) from None
        except (OSError, UnicodeDecodeError) as error:
            raise ManifestError(f"{path.name}: cannot be read: {error}") from None
        # Read as text mode would (universal newlines), and remember a CRLF file as such.
        manifest = cls.loads(text.replace("\r\n", "\n").replace("\r", "\n"), path.name)
        if b"\r\n" in raw:
            manifest.newline = "\r\n"
        return manifest

    @classmethod
    def read(cls, path: Path | str) -> Manifest:
        """Read-only load with the stdlib's tomllib, for commands that never edit the file.

        tomlkit costs tens of milliseconds to import and parse; `sync --check` and `list` run
        in pre-commit and CI on every commit. A file tomllib rejects goes through load(), whose
        errors name the line and column. add(), remove() and dumps() need load().
        """
        import tomllib

        from .fsutil import read_capped

        path = Path(path)
        try:
            text = read_capped(path).decode("utf-8")
            data = tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            return cls.load(path)
        document = _PlainDocument(data)
        validator = _Validator(document, text, path.name)
        # The stand-in has the reading half of TOMLDocument (get, unwrap, as_string); see above.
        return cls(cast("TOMLDocument", document), path.name, validator.hooks(), validator.warnings)

    @classmethod
    def loads(cls, text: str, label: str = "hookwrap.toml") -> Manifest:
        """Parse and validate manifest ``text``; ``label`` names it in error messages."""
        document = _parse(text, label)
        validator = _Validator(document, text, label)
        return cls(document, label, validator.hooks(), validator.warnings)

    @property
    def hooks(self) -> list[HookSpec]:
        """Every hook, in file order."""
        return list(self._hooks)

    @property
    def python(self) -> str | None:
        """The interpreter the `python` key names, or None for the default."""
        value = self._document.get("python")
        return str(value) if value is not None else None

    @property
    def python_windows(self) -> str | None:
        """The interpreter words Windows-bound commands name (``python_windows``), or None:
        then ``hookwrap sync`` probes on Windows (generator/interpreter.py)."""
        value = self._document.get("python_windows")
        return str(value) if value is not None else None

    @property
    def serve_port(self) -> int:
        """The resident server's port (``[serve] port``; docs/resident.md)."""
        serve = self._document.get("serve")
        port = serve.get("port") if serve is not None and hasattr(serve, "get") else None
        return int(port) if isinstance(port, int) else DEFAULT_SERVE_PORT

    @property
    def platforms(self) -> tuple[Platform, ...]:
        """The CLIs the repo uses (top-level ``platforms``): where a hook goes by default."""
        value = self._document.get("platforms")
        return ALL_PLATFORMS if value is None else tuple(Platform(str(p)) for p in value)

    def set_platforms(self, platforms: tuple[Platform, ...]) -> None:
        """Write the top-level ``platforms`` (a new key goes right after ``version``)."""
        values = [p.value for p in platforms]
        if "platforms" in self._document:
            self._document["platforms"] = values
            return
        line = "platforms = [" + ", ".join(f'"{v}"' for v in values) + "]\n"
        lines = self.dumps().splitlines(keepends=True)
        at = next((i + 1 for i, text in enumerate(lines) if re.match(r"^version\s*=", text)), 0)
        self._document = _parse("".join([*lines[:at], line, *lines[at:]]), self._label)

    def own_platforms(self, name: str) -> bool:
        """Whether ``[hooks.<name>]`` lists its own ``platforms`` (else it follows the top level)."""
        hooks: Any = self._document.get("hooks")
        table: Any = hooks.get(name) if isinstance(hooks, dict) else None
        return isinstance(table, dict) and "platforms" in table

    def set_hook_platforms(self, name: str, platforms: tuple[Platform, ...]) -> None:
        """Write ``platforms`` of ``[hooks.<name>]``; its other keys and comments stay."""
        from dataclasses import replace

        self._hooks_table(create=False)[name]["platforms"] = [p.value for p in platforms]
        self._hooks = [replace(spec, platforms=platforms) if spec.name == name else spec
                       for spec in self._hooks]

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
        return text.replace("\n", self.newline) if self.newline != "\n" else text

    def _hooks_table(self, *, create: bool) -> Any:
        import tomlkit

        if "hooks" not in self._document:
            if not create:
                raise KeyError("hooks")
            # A super table writes only `[hooks.<name>]` headers, never a bare `[hooks]`.
            self._document.add("hooks", tomlkit.table(is_super_table=True))
        return self._document["hooks"]


def new_manifest_text(platforms: tuple[Platform, ...] | None = None) -> str:
    """The commented hookwrap.toml that `hookwrap init` writes; ``platforms`` other than the
    default (Claude Code and Gemini CLI) are written as the top-level ``platforms``."""
    from .words import manifest_header

    chosen = tuple(platforms) if platforms else ALL_PLATFORMS
    text = manifest_header(chosen) + _NEW_MANIFEST
    if chosen == ALL_PLATFORMS:
        return text
    line = "platforms = [" + ", ".join(f'"{p.value}"' for p in chosen) + "]\n"
    from .scope import current

    who = "you use (user scope)" if current().user else "this repo uses"
    comment = f"# The agent CLIs {who}; a hook goes to each unless it lists its own.\n"
    return text.replace("version = 1\n", "version = 1\n\n" + comment + line, 1)


# The rest of a new hookwrap.toml, below the header words.manifest_header writes for its CLIs.
_NEW_MANIFEST = """\

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
#                              # for hookwrap's default, 60 seconds
# resident = true              # answered by `hookwrap serve` where the CLI can post to it,
#                              # not by a process per call (docs/resident.md)
# commands = ["git *"]         # matcher = "shell" only: the shell commands the hook cares
#                              # about; other calls skip it (not on the guard)
#
# An external hook (a script the team already has, any language) has command instead of
# template, and runs on every CLI through the bridge (docs/external-hooks.md):
# command = ".claude/hooks/no-force-push.sh"
#                              # a shell string, run with bash
# speaks = "claude"            # the CLI whose hook protocol it reads and answers
# fail_closed = true           # block when it cannot start, times out, is killed or exits
#                              # with a code other than 0 and 2 (default: no opinion)
#
# The resident server's port on 127.0.0.1 (default 48620):
# [serve]
# port = 48620
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
    from tomlkit.exceptions import TOMLKitError

    from .tomlerrors import toml_fault

    if text.startswith(BOM):
        raise ManifestError(f"{label}: starts with a UTF-8 byte order mark (BOM)", hint=BOM_HINT)
    try:
        return tomlkit.parse(text)
    except RecursionError:
        raise ManifestError(f"{label}: values are nested too deeply to read",
                            hint="hook options are plain strings, numbers and lists") from None
    except TOMLKitError as error:  # a ParseError, or KeyAlreadyPresent for a repeated key
        fault = toml_fault(text, error)
        raise ManifestError(f"{fault.where(label)}: {fault.message}", hint=fault.hint) from None


def _spec_table(spec: HookSpec) -> Any:
    import tomlkit

    table = tomlkit.table()
    table.add("event", str(spec.event))
    if spec.template != EXTERNAL:  # an external hook has a command instead
        table.add("template", spec.template)
    if spec.matcher is not None:
        table.add("matcher", spec.matcher)
    table.add("platforms", [str(platform) for platform in spec.platforms])
    if spec.timeout is not None:
        table.add("timeout", spec.timeout)
    if spec.resident:
        table.add("resident", True)
    if spec.commands:
        table.add("commands", list(spec.commands))
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
        self.warnings: list[str] = []
        self.platforms = ALL_PLATFORMS

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

    def _check_python_windows(self, value: Any) -> None:
        from .interpreter import check_windows_words

        if value is None:
            return
        if not isinstance(value, str):
            self._fail("python_windows", 'must be a string such as "py -3"',
                       hint="leave it out and hookwrap sync picks one on Windows")
        try:
            check_windows_words(value)
        except UsageError as error:
            self._fail("python_windows", error.message, hint=error.hint)

    def _check_header(self, data: dict[str, Any]) -> None:
        version = data.get("version", MANIFEST_VERSION)
        if version != MANIFEST_VERSION or isinstance(version, bool):
            self._fail("version", f"{version!r} is not supported (expected {MANIFEST_VERSION})",
                       hint="upgrade hookwrap, or set version = 1")
        python = data.get("python")
        if python is not None and (not isinstance(python, str) or not python.strip()):
            self._fail("python", "must be a non-empty string such as \"python3\"",
                       hint="leave it out for python3, the default")
        if isinstance(python, str):
            try:
                python_words(python)  # it goes into every registered command
            except UsageError as error:
                self._fail("python", error.message, hint=error.hint)
        self._check_python_windows(data.get("python_windows"))
        serve = data.get("serve", {})
        if not isinstance(serve, dict):
            self._fail("serve", "must be a table: [serve] with port = N")
        for key, value in serve.items():
            if key != "port":
                self._fail(f"serve.{key}", "unknown key", hint="[serve] takes port")
            if type(value) is not int or not 1024 <= value <= 65535:
                self._fail("serve.port", f"{value!r} is not a port from 1024 to 65535",
                           hint=f"e.g. port = {DEFAULT_SERVE_PORT}")
        self.platforms = ALL_PLATFORMS
        if "platforms" in data:
            try:
                self.platforms = check_platforms(data["platforms"])
            except EntryError as error:
                self._fail("platforms", error.message, hint=error.hint)

    def _hook(self, name: str, entry: Any) -> HookSpec:
        try:
            spec, warnings = check_entry(name, entry, default_platforms=self.platforms)
        except EntryError as error:
            key = f"hooks.{name}" + (f".{error.key}" if error.key and error.key != "name" else "")
            self._fail(key, error.message, hint=error.hint)
        self.warnings += [f"{self._label}: hooks.{name}.matcher: {w}" for w in warnings]
        return spec

    def _fail(self, key: str, problem: str, *, hint: str = "") -> NoReturn:
        line = _line_of(self._text, key)
        where = f" (line {line})" if line else ""
        raise ManifestError(f"{self._label}: {key}: {problem}{where}", hint=hint)


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
