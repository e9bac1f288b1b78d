"""The template catalogue: what `hookwrap add` can render, and each template's defaults.

Kept apart from rendering (render.py), which needs jinja2: reading hookwrap.toml needs only this.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..names import NormalizedEvent
from .errors import UsageError

_E = NormalizedEvent


@dataclass(frozen=True)
class TemplateInfo:
    """What `hookwrap add` needs to know about one template.

    Attributes:
        name: the template's name, also its file ``templates/<name>.py.j2``.
        summary: one line for `hookwrap add --help` and `hookwrap list`.
        events: the events it handles, the first one its default; None = any event.
        default_matcher: normalized tool names joined by "|", or None = every call.
        default_timeout: seconds, or None for hookwrap's default (60 s on both CLIs).
        fail_closed: True when a crash or timeout of the hook should stop the action
            (its Claude registration gets ``onFailure: "block"``).
        default_options: the template options `hookwrap add` writes to the manifest.
        returns: the parts of a HookOutput the rendered script may return ("block", "ask",
            "allow", "updated_input", "context", "system_message", "continue_loop"); None when
            it may return anything (the skeleton, an external hook). `hookwrap add` warns only
            about what a CLI cannot do with these (its record's ``limits``).
        settings: more options its table may hold, which `add` does not write.
    """

    name: str
    summary: str
    events: tuple[NormalizedEvent, ...] | None = None
    default_matcher: str | None = None
    default_timeout: int | None = None
    fail_closed: bool = False
    default_options: dict[str, object] = field(default_factory=dict)
    returns: frozenset[str] | None = None
    settings: tuple[str, ...] = ()

    @property
    def default_event(self) -> NormalizedEvent:
        """The event to suggest when none is given."""
        return self.events[0] if self.events else _E.BEFORE_TOOL


TEMPLATES: dict[str, TemplateInfo] = {
    info.name: info
    for info in (
        TemplateInfo(
            name="guard",
            summary="block dangerous shell commands and edits to .env files or .git/",
            events=(_E.BEFORE_TOOL,),
            default_matcher="shell|write_file|edit_file|read_file",
            default_timeout=10,
            fail_closed=True,
            returns=frozenset({"block"}),
            settings=("packs", "block_force_with_lease", "allow_secret_reads",
                      "allowed_commands", "allowed_paths", "not_secrets", "disabled_rules"),
        ),
        TemplateInfo(
            name="context",
            summary="add the text of .hookwrap/<name>.md to the model's context",
            events=(_E.SESSION_START, _E.BEFORE_PROMPT),
            default_timeout=10,
            returns=frozenset({"context"}),
        ),
        TemplateInfo(
            name="audit",
            summary="append one JSON line per event to .hookwrap/logs/<name>.jsonl",
            default_timeout=10,
            returns=frozenset(),  # never an opinion: always None
        ),
        TemplateInfo(
            name="stop_gate",
            summary="keep the agent working until a check command passes",
            events=(_E.AFTER_AGENT,),
            # The check runs inside the hook: the script gives it this minus a margin.
            default_timeout=300,
            default_options={"check": "python3 -m pytest -q", "max_retries": 3},
            returns=frozenset({"block", "system_message"}),
        ),
        TemplateInfo(
            name="format",
            summary="run a formatter on each file the agent writes or edits",
            events=(_E.AFTER_TOOL,),
            default_matcher="write_file|edit_file",
            default_timeout=30,
            default_options={"command": ["ruff", "format", "--quiet"], "suffixes": [".py", ".pyi"]},
            returns=frozenset({"context", "system_message"}),
        ),
        TemplateInfo(
            name="skeleton",
            summary="a minimal hook for any event, to fill in",
        ),
    )
}

DEFAULT_TEMPLATE = "skeleton"
# An entry with a `command` and no `template` is an external hook: hookwrap writes its bridge
# script from this template, and the manifest records no template for it.
EXTERNAL = "external"
EXTERNAL_INFO = TemplateInfo(
    name=EXTERNAL,
    summary="run a hook command written for one CLI's protocol on every CLI",
)


def choose_template(name: str, template: str | None) -> str:
    """The template for `hookwrap add EVENT NAME [--template T]`.

    An explicit template wins; else NAME when it names a template; else the skeleton.
    """
    if template is not None:
        if template not in TEMPLATES:
            raise UsageError(f"{template!r} is not a template", hint=f"templates: {', '.join(TEMPLATES)}")
        return template
    return name if name in TEMPLATES else DEFAULT_TEMPLATE


def close_template(name: str) -> str | None:
    """The template ``name`` looks like a typo of (``gaurd`` -> ``guard``), or None."""
    import difflib

    named = [t for t in TEMPLATES if t != DEFAULT_TEMPLATE]
    close = difflib.get_close_matches(name.replace("-", "_"), named, n=1, cutoff=0.8)
    return close[0] if close and name not in TEMPLATES else None
