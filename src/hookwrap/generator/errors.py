"""The one error hierarchy: core code raises these, the CLI turns them into exit codes."""

from __future__ import annotations


class HookwrapError(Exception):
    """Base of every error hookwrap raises on purpose.

    Subclasses also inherit the matching builtin (``SettingsError`` is a ``ValueError``); the
    builtin comes second so that this ``__init__`` (with ``hint``) is the one that runs.

    Attributes:
        hint: one line telling the user what to do next, or "".
    """

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


class UsageError(HookwrapError, ValueError):
    """A wrong argument or option value (bad event, bad name, unknown tool)."""


class EntryError(UsageError):
    """A value of a hook entry is invalid; ``key`` names it (``matcher``), "" for the table.

    `hookwrap add` shows it as a usage error; hookwrap.toml's reader turns it into a
    ManifestError with the file, key and line.
    """

    def __init__(self, key: str, message: str, *, hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.key = key


class ManifestError(HookwrapError, ValueError):
    """hookwrap.toml is missing, unparsable, or holds an invalid entry."""


class SettingsError(HookwrapError, ValueError):
    """A settings file cannot be read, parsed or safely rewritten."""


class TemplateError(HookwrapError, ValueError):
    """A template is unknown or cannot be rendered."""


class ProjectError(HookwrapError):
    """The project is not in a state the command needs (not initialised, hook missing...)."""


class ConflictError(HookwrapError):
    """Something hookwrap would write already exists and is not hookwrap's."""


class LockError(HookwrapError):
    """Another hookwrap command holds the project lock for too long."""


class WriteError(HookwrapError, OSError):
    """A file could not be written or removed; the message says what was and was not changed."""
