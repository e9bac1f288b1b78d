"""Rendering a HookSpec into the files of a user's repo, with jinja2 (the catalogue of templates
is catalogue.py)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookwrap.generator.catalogue import (
    DEFAULT_TEMPLATE,
    EXTERNAL,
    EXTERNAL_INFO,
    TEMPLATES,
    TemplateInfo,
    choose_template,
)
from hookwrap.generator.errors import TemplateError
from hookwrap.generator.hookentry import check_event, check_name

if TYPE_CHECKING:
    from jinja2 import Environment

    from hookwrap.generator.hookentry import HookSpec

__all__ = ["DEFAULT_TEMPLATE", "TEMPLATES", "TemplateInfo", "check_event", "choose_template",
           "pyrepr", "render_hook_files", "templates_dir"]


def render_hook_files(spec: HookSpec) -> dict[str, str]:
    """Render ``spec``'s files, keyed by repo-relative POSIX path.

    Always ``.hookwrap/hooks/<name>.py``; the context template adds ``.hookwrap/<name>.md``.
    The text depends only on the name, event, template and platforms, so re-rendering is
    byte-stable; template options are read from the manifest by the script when it runs.
    """
    check_name(spec.name)
    external = spec.template == EXTERNAL
    check_event(None if external else spec.template, str(spec.event))
    info = EXTERNAL_INFO if external else TEMPLATES[spec.template]
    from .words import block_labels, labels, payload_comment

    values = {
        "name": spec.name,
        "event": str(spec.event),
        "template": spec.template,
        "defaults": info.default_options,
        # What the comments say about CLIs is said of this hook's own CLIs, from their records.
        "clis": labels(spec.platforms),
        "payload_comment": payload_comment(spec.event, spec.platforms),
        # (the CLIs that act on a block of the event, those that do not)
        "block_labels": block_labels(spec.event, spec.platforms),
    }
    files = {f".hookwrap/hooks/{spec.name}.py": _render(f"{spec.template}.py.j2", values)}
    if spec.template == "context":
        files[f".hookwrap/{spec.name}.md"] = _render("context.md.j2", values)
    return files


def templates_dir() -> Path:
    """Where the templates are: inside the installed package, else the source checkout's."""
    packaged = Path(__file__).resolve().parents[1] / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "templates"


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
