"""Hook templates: the catalogue, and rendering a HookSpec into the files of a user's repo."""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookwrap.errors import TemplateError, UsageError
from hookwrap.platforms import NormalizedEvent

if TYPE_CHECKING:
    from jinja2 import Environment

    from hookwrap.manifest import HookSpec

_E = NormalizedEvent


@dataclass(frozen=True)
class TemplateInfo:
    """What `hookwrap add` needs to know about one template.

    Attributes:
        name: the template's name, also its file ``templates/<name>.py.j2``.
        summary: one line for `hookwrap add --help` and `hookwrap list`.
        events: the events it handles; None = any event.
        default_event: the event to suggest when none is given.
        default_matcher: normalized tool names joined by "|", or None = every call.
        default_timeout: seconds, or None for hookwrap's default (60 s on both CLIs).
        fail_closed: True when a crash or timeout of the hook should stop the action
            (its Claude registration gets ``onFailure: "block"``).
        default_options: the template options `hookwrap add` writes to the manifest.
    """

    name: str
    summary: str
    events: tuple[NormalizedEvent, ...] | None
    default_event: NormalizedEvent
    default_matcher: str | None = None
    default_timeout: int | None = None
    fail_closed: bool = False
    default_options: dict[str, object] = field(default_factory=dict)


TEMPLATES: dict[str, TemplateInfo] = {
    info.name: info
    for info in (
        TemplateInfo(
            name="guard",
            summary="block dangerous shell commands and edits to .env files or .git/",
            events=(_E.BEFORE_TOOL,),
            default_event=_E.BEFORE_TOOL,
            default_matcher="shell|write_file|edit_file",
            default_timeout=10,
            fail_closed=True,
        ),
        TemplateInfo(
            name="context",
            summary="add the text of .hookwrap/<name>.md to the model's context",
            events=(_E.SESSION_START, _E.BEFORE_PROMPT),
            default_event=_E.SESSION_START,
            default_timeout=10,
        ),
        TemplateInfo(
            name="audit",
            summary="append one JSON line per event to .hookwrap/logs/<name>.jsonl",
            events=None,
            default_event=_E.BEFORE_TOOL,
            default_timeout=10,
        ),
        TemplateInfo(
            name="stop_gate",
            summary="keep the agent working until a check command passes",
            events=(_E.AFTER_AGENT,),
            default_event=_E.AFTER_AGENT,
            # The check runs inside the hook: the script gives it this minus a margin.
            default_timeout=300,
            default_options={"check": "python3 -m pytest -q", "max_retries": 3},
        ),
        TemplateInfo(
            name="format",
            summary="run a formatter on each file the agent writes or edits",
            events=(_E.AFTER_TOOL,),
            default_event=_E.AFTER_TOOL,
            default_matcher="write_file|edit_file",
            default_timeout=30,
            default_options={"command": ["ruff", "format", "--quiet"], "suffixes": [".py", ".pyi"]},
        ),
        TemplateInfo(
            name="skeleton",
            summary="a minimal hook for any event, to fill in",
            events=None,
            default_event=_E.BEFORE_TOOL,
        ),
    )
}

DEFAULT_TEMPLATE = "skeleton"


def choose_template(name: str, template: str | None) -> str:
    """The template for `hookwrap add EVENT NAME [--template T]`.

    An explicit template wins; else NAME when it names a template; else the skeleton.
    """
    if template is not None:
        if template not in TEMPLATES:
            raise UsageError(f"{template!r} is not a template", hint=f"templates: {', '.join(TEMPLATES)}")
        return template
    return name if name in TEMPLATES else DEFAULT_TEMPLATE


def check_event(template: str, event: str) -> NormalizedEvent:
    """Return ``event`` as a NormalizedEvent; UsageError if it is unknown or the template cannot handle it."""
    values = [str(item) for item in NormalizedEvent]
    if event not in values:
        raise UsageError(f"{event!r} is not an event", hint=f"events: {', '.join(values)}")
    info = _info(template)
    if info.events is not None and event not in info.events:
        raise UsageError(
            f"the {template} template does not handle {event}",
            hint=f"valid events for {template}: {', '.join(info.events)}",
        )
    return NormalizedEvent(event)


def render_hook_files(spec: HookSpec) -> dict[str, str]:
    """Render ``spec``'s files, keyed by repo-relative POSIX path.

    Always ``.hookwrap/hooks/<name>.py``; the context template adds ``.hookwrap/<name>.md``.
    The text depends only on the name, event and template, so re-rendering is byte-stable;
    template options are read from the manifest by the script when it runs.
    """
    from hookwrap.manifest import check_name

    check_name(spec.name)
    check_event(spec.template, str(spec.event))
    info = TEMPLATES[spec.template]
    values = {
        "name": spec.name,
        "event": str(spec.event),
        "template": spec.template,
        "defaults": info.default_options,
    }
    files = {f".hookwrap/hooks/{spec.name}.py": _render(f"{spec.template}.py.j2", values)}
    if spec.template == "context":
        files[f".hookwrap/{spec.name}.md"] = _render("context.md.j2", values)
    return files


def templates_dir() -> Path:
    """Where the templates are: inside the installed package, else the source checkout's."""
    packaged = Path(__file__).resolve().parent / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "templates"


def pyrepr(value: Any) -> str:
    """``value`` as a Python literal, for text that ends up inside generated Python.

    StrEnum members become plain strings. Anything that would not read back as the same
    value (objects, NaN) is refused, so nothing is ever pasted raw into a script.
    """
    plain = _plain(value)
    text = repr(plain)
    try:
        same = ast.literal_eval(text) == plain
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise TemplateError(f"cannot write {value!r} into a script as a Python literal")
    return text


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    raise TemplateError(f"cannot write a {type(value).__name__} into a script as a Python literal")


def _info(template: str) -> TemplateInfo:
    try:
        return TEMPLATES[template]
    except KeyError:
        raise TemplateError(f"{template!r} is not a template", hint=f"templates: {', '.join(TEMPLATES)}") from None


def _render(template_name: str, values: dict[str, Any]) -> str:
    from jinja2 import TemplateError as JinjaError

    try:
        return _environment().get_template(template_name).render(**values)
    except JinjaError as error:
        raise TemplateError(f"template {template_name}: {error}", hint="reinstall hookwrap") from None


@functools.lru_cache(maxsize=1)
def _environment() -> Environment:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pyrepr"] = pyrepr
    return env
