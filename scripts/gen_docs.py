#!/usr/bin/env python3
"""Write the generated parts of the docs from the code, or check that they are current.

- README.md: the event and tool-name tables, between ``<!-- BEGIN generated: NAME -->`` and
  ``<!-- END generated: NAME -->``, from hookwrap's runtime maps.
- docs/cli.md: the whole file, from the typer app (every command, its help, arguments, options).
- README.md's and docs/ci-and-pre-commit.md's lists of CLIs and registration files, the
  ``files`` pattern of .pre-commit-hooks.yaml, and pyproject.toml's description, keywords and
  e2e marker: from the CLIs' records (hookwrap.generator.words), so none can miss a CLI.
- Every per-CLI table of the docs pages, one block each in any README.md or docs/*.md page:
  the payload fields each CLI sends (``fields-every-event``, ``fields-per-event``, from the
  payloads captured from each real CLI), its tools' keys (``tool-input``), what it cannot do
  with an answer (``limits``), how it starts a hook (``hook-process``), the files doctor reads
  (``doctor-files``), MCP names and matchers (``matchers``), timeout units (``timeouts``),
  fail-closed switches (``fail-closed``) and lifecycle matcher values (``lifecycle``): from the
  records, so no page states for "the CLIs" what holds for some of them.

Usage:
    python scripts/gen_docs.py            # rewrite what is out of date
    python scripts/gen_docs.py --check    # write nothing; exit 1 if anything is out of date

Standard library and hookwrap only.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import re
import sys
from pathlib import Path

from hookwrap import (
    EVENT_TO_NORMALIZED,
    NORMALIZED_TO_EVENT,
    NORMALIZED_TO_TOOL,
    TOOL_TO_NORMALIZED,
    NormalizedEvent,
    Platform,
    platform_tool_names,
)
from hookwrap.generator import words
from hookwrap.generator.clis import setup_of
from hookwrap.generator.hookentry import ALL_PLATFORMS

ROOT = Path(__file__).resolve().parent.parent
# Each column is labelled with the release its facts were checked against.
LABELS = {p: f"{setup_of(p).label} {setup_of(p).version}" for p in Platform}
NONE = "—"
_BLOCK = re.compile(
    r"(<!-- BEGIN generated: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- END generated: (?P=name) -->)",
    re.DOTALL,
)


# ------------------------------------------------------------------------------ tables

def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _event_cell(platform: Platform, event: NormalizedEvent) -> str:
    """The platform's event names for ``event``; the one hookwrap registers comes first."""
    preferred = NORMALIZED_TO_EVENT[platform].get(event)
    if preferred is None:
        return NONE
    others = [n for n, e in EVENT_TO_NORMALIZED[platform].items() if e == event and n != preferred]
    cell = f"`{preferred}`"
    if others:
        cell += " (also " + ", ".join(f"`{n}`" for n in others) + ")"
    return cell


def events_table() -> str:
    """One row per NormalizedEvent: its name on each CLI."""
    rows = [[f"`{event.value}`", *(_event_cell(p, event) for p in Platform)]
            for event in NormalizedEvent]
    return _table(["normalized event", *(LABELS[p] for p in Platform)], rows)


def _tool_order() -> list[str]:
    seen: list[str] = []
    for platform in Platform:
        for normalized in TOOL_TO_NORMALIZED[platform].values():
            if normalized not in seen:
                seen.append(normalized)
    return seen


def _tool_cell(platform: Platform, tool: str) -> str:
    names = platform_tool_names(tool, platform)
    if tool not in NORMALIZED_TO_TOOL[platform] and names == [tool]:
        return NONE  # not a name of this CLI: passed through as given
    cell = f"`{names[0]}`"
    if len(names) > 1:
        cell += " (also " + ", ".join(f"`{n}`" for n in names[1:]) + ")"
    return cell


def tools_table() -> str:
    """One row per normalized tool name: the names each CLI uses for it."""
    rows = [[f"`{tool}`", *(_tool_cell(p, tool) for p in Platform)] for tool in _tool_order()]
    return _table(["normalized tool", *(LABELS[p] for p in Platform)], rows)


def _local_hook_yaml() -> str:
    return f"""```yaml
repos:
  - repo: local
    hooks:
      - id: hookwrap-sync-check
        name: hookwrap sync --check
        entry: hookwrap sync --check
        language: system
        pass_filenames: false
        files: {precommit_pattern()}
```
"""


def hook_file_folders() -> list[str]:
    """The folders where a CLI gets more files than its registration file, made from it
    (Cline's hook file per event beside .clinerules/hooks/hookwrap.json)."""
    from hookwrap.generator.clis._base import Registration

    return [str(Path(setup_of(p).facts.settings_file).parent) + "/" for p in Platform
            if type(setup_of(p).registration).hook_files is not Registration.hook_files]


def _watched_files() -> str:
    files = ", ".join(f"`{setup_of(p).facts.settings_file}`" for p in Platform)
    folders = ", ".join(f"`{folder}`" for folder in hook_file_folders())
    beside = f", a hook file hookwrap writes beside one (in {folders})" if folders else ""
    return (f"- It runs only when the commit touches `hookwrap.toml`, a CLI's registration file "
            f"({files}){beside} or anything under `.hookwrap/`.\n")


def _whole_files() -> str:
    """The files hookwrap writes whole, so that any byte that differs is drift."""
    whole = [f"{setup_of(p).label}'s `{setup_of(p).facts.settings_file}`" for p in Platform
             if setup_of(p).facts.settings_generated]
    folders = ", ".join(f"`{folder}`" for folder in hook_file_folders())
    listed = ", ".join(whole) + (f", and the hook files in {folders}" if folders else "")
    return (f"The files hookwrap writes whole ({listed}) are compared byte for byte.\n")




# ------------------------------------------------------- per-CLI facts of the docs pages
# Each table below is one CLI per row or column, written from the records and from the
# payloads captured from each real CLI (src/hookwrap/generator/samples/), so a page never states
# for "the CLIs" what holds for some of them, and a new CLI appears in every table at once.

def _code(items) -> str:
    return ", ".join(f"`{item}`" for item in items)


@functools.cache
def _captured(platform: Platform) -> dict[NormalizedEvent, tuple[str, dict]]:
    """Each normalized event of the CLI that has a captured payload: (its event name, payload)."""
    from hookwrap.generator.samples import has_sample, load_sample

    found = {}
    for event, name in setup_of(platform).runtime.event_names().items():
        if has_sample(platform, name):
            found[event] = (name, load_sample(platform, name))
    return dict(sorted(found.items(), key=lambda item: list(NormalizedEvent).index(item[0])))


def _every_event_keys(platform: Platform) -> list[str]:
    """The payload keys the CLI sent on every event captured from it (hook_event_name aside)."""
    payloads = [payload for _, payload in _captured(platform).values()]
    if not payloads:
        return []
    return [key for key in payloads[0] if key != "hook_event_name"
            and all(key in payload for payload in payloads)]


def _short_field(key: str) -> str:
    """``tool_name`` for a HookInput field, ``get("key")`` for any other payload key."""
    field = words.payload_field(key)
    return field[len("event."):]


def _events_cell(platform: Platform, key: str) -> str:
    captured = _captured(platform)
    if key in _every_event_keys(platform):
        return "every event"
    sent = [name for name, payload in captured.values() if key in payload]
    if not sent:
        return NONE
    missing = [name for name, payload in captured.values() if key not in payload]
    if len(missing) < len(sent):
        return "all but " + _code(missing)
    return _code(sent)


def fields_every_event_table() -> str:
    """writing-hooks.md: the payload fields some CLI sends on every event, and where each CLI
    sends them."""
    keys: list[str] = []
    for platform in Platform:
        keys += [k for k in _every_event_keys(platform) if k not in keys]
    rows = [[f"`{_short_field(key)}`", *(_events_cell(p, key) for p in Platform)] for key in keys]
    return _table(["field", *(LABELS[p] for p in Platform)], rows)


def _shape(value: object) -> str:
    """What a payload value looks like, in a few words: ``{a, b, ...}``, text, a list."""
    if isinstance(value, dict):
        keys = list(value)
        shown = ", ".join(keys[:4]) + (", ..." if len(keys) > 4 else "")
        return f" `{{{shown}}}`" if keys else " `{}`"
    if isinstance(value, list):
        return " (a list)"
    return ""


def _event_fields_cell(platform: Platform, event: NormalizedEvent) -> str:
    agent = setup_of(platform)
    name = agent.runtime.event_names().get(event)
    if name is None:
        return NONE
    captured = _captured(platform).get(event)
    if captured is None:
        return "not captured"
    payload = captured[1]
    every = set(_every_event_keys(platform))
    parts = []
    for key, value in payload.items():
        if key in every or key == "hook_event_name":
            continue
        if key == "tool_name":
            parts.append("`tool_name`, `raw_tool_name`")
        elif key == "tool_input":
            parts.append("`tool_input`")
        elif key == agent.facts.match_targets.get(name) and agent.facts.lifecycle_values.get(event):
            parts.append(f"`{_short_field(key)}`: " + _code(agent.facts.lifecycle_values[event]))
        else:
            text = "(text)" if key in ("tool_response", "tool_result") and isinstance(value, str) \
                else _shape(value).strip()
            parts.append(f"`{_short_field(key)}`" + (f" {text}" if text else ""))
    return "; ".join(parts) or "nothing more"


def fields_per_event_table() -> str:
    """writing-hooks.md: per normalized event, what each CLI's captured payload adds to the
    fields it sends on every event."""
    rows = [[f"`{event.value}`", *(_event_fields_cell(p, event) for p in Platform)]
            for event in NormalizedEvent]
    return _table(["event", *(LABELS[p] for p in Platform)], rows)


FILE_TOOLS = ("shell", "write_file", "edit_file", "read_file")


def _tool_names(platform: Platform, tool: str) -> list[str]:
    agent = setup_of(platform)
    if tool not in agent.runtime.tools.values() and not agent.runtime.extra_tool_names.get(tool):
        return []
    return agent.runtime.platform_tool_names(tool)


def _tool_input_cell(platform: Platform, tool: str) -> str:
    agent = setup_of(platform)
    names = _tool_names(platform, tool)
    if not names:
        return NONE
    parts = []
    plain = [n for n in names if n != agent.runtime.patch_tool]
    if plain:
        fields = agent.runtime.tool_fields.get(tool)
        also = f" (also {_code(plain[1:])})" if len(plain) > 1 else ""
        parts.append(f"`{plain[0]}`{also}: " + (_code(fields) if fields else "keys not recorded"))
    if agent.runtime.patch_tool in names:
        parts.append(f"`{agent.runtime.patch_tool}`: a patch in "
                     + " or ".join(f"`{k}`" for k in agent.runtime.patch_keys))
    return "; ".join(parts)


def _files_cell(platform: Platform) -> str:
    agent = setup_of(platform)
    parts = []
    if any(n != agent.runtime.patch_tool for t in ("write_file", "edit_file") for n in _tool_names(platform, t)):
        parts.append(" else ".join(f"`{k}`" for k in agent.runtime.file_path_keys)
                     + " of a write or an edit")
    if agent.runtime.patch_tool:
        shell = ", also run by the shell tool" if agent.runtime.patch_in_shell else ""
        parts.append(f"every file a patch names (`{agent.runtime.patch_tool}`{shell})")
    return "; ".join(parts)


def tool_input_table() -> str:
    """writing-hooks.md: the tool_input keys of each CLI's main tools, and where event.files
    finds the files a call writes."""
    rows = [[LABELS[p], *(_tool_input_cell(p, t) for t in FILE_TOOLS), _files_cell(p)]
            for p in Platform]
    return _table(["CLI", *(f"`{t}`" for t in FILE_TOOLS), "`event.files` reads"], rows)


_PARTS = {"": "anything", "block": "`block`", "ask": "`ask`", "allow": "`allow`",
          "updated_input": "`updated_input`", "context": "`context`",
          "system_message": "`system_message`", "continue_loop": "`continue_loop=False`"}


def limits_table() -> str:
    """writing-hooks.md: what each CLI cannot do with an answer, and what hookwrap sends
    instead (the records' limits, which `hookwrap add` warns about)."""
    rows = []
    for platform in Platform:
        agent = setup_of(platform)
        for event, limits in agent.runtime.limits.items():
            for part, text in limits:
                rows.append([LABELS[platform], f"`{event.value}`", _PARTS.get(part, f"`{part}`"),
                             text.replace("|", "\\|")])
    return _table(["CLI", "event", "the hook returns", "what the CLI does, and what hookwrap sends"],
                  rows)


def _timeout_unit(platform: Platform) -> str:
    agent = setup_of(platform)
    if agent.facts.timeout_ms_from:
        return f"seconds below {agent.facts.timeout_ms_from}, milliseconds from there on"
    return "milliseconds" if agent.facts.timeout_scale == 1000 else "seconds"


def _seconds(value: float) -> str:
    return f"{value:g} s"


def hook_process_table() -> str:
    """runner-contract.md: how each CLI starts a registered command."""
    rows = []
    for platform in Platform:
        agent = setup_of(platform)
        rows.append([
            LABELS[platform], f"`{agent.facts.settings_file}`", "`" + " ".join(agent.facts.hook_shell) + "`",
            "; ".join(filter(None, [_code(agent.facts.hook_env_vars), (
                f"`CLAUDE_ENV_FILE` on {_code(sorted(agent.facts.env_file_events))}"
                if agent.facts.env_file_events else "")])) or NONE,
            " else ".join(f"`{v}`" for v in agent.runtime.project_dir_vars),
            _timeout_unit(platform), _seconds(agent.facts.default_timeout_s),
            "blocks" if NormalizedEvent.BEFORE_TOOL in agent.runtime.exit2_blocks
            else "no answer: the call goes on" + (
                " (a fail-closed hook blocks)" if agent.facts.fail_closed_key else "")])
    return _table(["CLI", "registration file", "runs the command with", "variables it sets",
                   "`event.project_dir` reads", "timeout unit in the file",
                   "its default timeout", "exit 2 on `before_tool` (a missing script)"], rows)


def doctor_files() -> str:
    """troubleshooting.md: every settings file `hookwrap doctor` reads, per CLI."""
    lines = []
    for platform in Platform:
        agent = setup_of(platform)
        files = [f"`{agent.facts.settings_file}` (the project's)"]
        for label, spec, _ in agent.facts.scope_files:
            where = spec.replace("{root}/", "")
            files.append(f"`{label}`" + (f" (`{where}`)" if where != label else ""))
        lines.append(f"- {agent.label}: " + ", ".join(files) + "\n")
    return "".join(lines)


def matchers_table() -> str:
    """README: how an MCP tool is spelled on each CLI, and how a matcher is written there."""
    from hookwrap import normalize_tool
    from hookwrap.generator.registrations import tool_matcher

    rows = []
    for platform in Platform:
        agent = setup_of(platform)
        spelled = agent.runtime.mcp_pattern("mcp__<server>__<tool>")
        normalized = normalize_tool(agent.runtime.mcp_pattern("mcp__github__create_issue"), platform)
        arrives = (f"`{normalized}`" if normalized.startswith("mcp__")
                   else f"`{normalized}`: as sent, not told from a built-in tool")
        rows.append([LABELS[platform], f"`{spelled}`", arrives,
                     f"`{tool_matcher('mcp__github__.*', platform)}`",
                     f"`{tool_matcher('shell|write_file|edit_file', platform)}`".replace("|", "\\|")])
    return _table(["CLI", "an MCP tool's name", "`event.tool_name` of `github`'s `create_issue`",
                   "`--matcher 'mcp__github__.*'` is written",
                   "`--matcher 'shell\\|write_file\\|edit_file'` is written"], rows)


def timeouts_bullet() -> str:
    """README: the unit of a timeout, in the manifest and in each CLI's file."""
    return f"- **Units.** `--timeout` and `timeout` in the manifest are {words.timeout_units()}.\n"


def fail_closed_list() -> str:
    """templates.md: the registration switch that makes a crash or timeout block, per CLI."""
    lines = []
    without = []
    for platform in Platform:
        agent = setup_of(platform)
        if not agent.facts.fail_closed_key:
            without.append(agent.label)
            continue
        every = set(agent.facts.tool_events) | set(agent.runtime.event_names())
        events = [e for e in NormalizedEvent if e in agent.facts.fail_closed_events and e in every]
        missing = [e.value for e in NormalizedEvent if e in every and e not in agent.facts.fail_closed_events]
        where = ("on every event but " + _code(missing)) if len(missing) < len(events) \
            else "on " + _code(e.value for e in events)
        lines.append(f"- {agent.label}: `{json.dumps({agent.facts.fail_closed_key: agent.facts.fail_closed_value})[1:-1]}` "
                     f"in the entry, {where}.\n")
    if without:
        lines.append(f"- {words.join(without)}: no such switch.\n")
    return "".join(lines)


def system_message_list() -> str:
    """troubleshooting.md: where each CLI shows a hook's message for the user, as `hookwrap
    test` words it."""
    return "".join(f"- {setup_of(p).label}: "
                   + (setup_of(p).facts.system_message_shown or "not seen to show it (the line says so)") + "\n"
                   for p in Platform)


def _lifecycle_cell(platform: Platform, event: NormalizedEvent) -> str:
    from hookwrap.generator.errors import UsageError
    from hookwrap.generator.registrations import lifecycle_matcher

    agent = setup_of(platform)
    if event not in agent.runtime.event_names():
        return NONE
    values = agent.facts.lifecycle_values.get(event)
    if not values:
        return "matcher ignored: the hook runs every time"
    if len(values) == 1:
        return _code(values)
    several = "a list (`a\\|b`) works"
    if len(values) > 1:
        try:
            lifecycle_matcher("|".join(values[:2]), event, platform)
        except UsageError:
            several = "one value only"
    return f"{_code(values)}; {several}"


def lifecycle_table() -> str:
    """templates.md: the values a lifecycle event's matcher can take on each CLI."""
    events = [e for e in NormalizedEvent
              if any(e in setup_of(p).facts.lifecycle_values for p in Platform)]
    rows = [[LABELS[p], *(_lifecycle_cell(p, e) for e in events)] for p in Platform]
    return _table(["CLI", *(f"`{e.value}`" for e in events)], rows)


def user_files_table() -> str:
    """user-scope.md: the user-level file `hookwrap --user` writes for each CLI, or why none."""
    rows = []
    for platform in Platform:
        agent = setup_of(platform)
        spec = agent.facts.user_file
        match = re.match(r"\$\{([A-Z0-9_]+):-([^}]*)\}(.*)", spec)
        if match:
            where = f"`{match.group(2)}{match.group(3)}` (`${match.group(1)}{match.group(3)}` when set)"
        else:
            where = f"`{spec}`" if spec else f"none yet: {agent.facts.user_file_note}"
        rows.append([LABELS[platform], where])
    return _table(["CLI", "user-level file hookwrap writes"], rows)


GENERATED_BLOCKS = {"events": lambda: events_table(), "tools": lambda: tools_table(),
                    "clis": lambda: clis_sentence(), "registration-files": lambda: settings_list(),
                    "precommit-local": _local_hook_yaml, "precommit-files": _watched_files,
                    "whole-files": _whole_files,
                    "fields-every-event": fields_every_event_table,
                    "fields-per-event": fields_per_event_table,
                    "tool-input": tool_input_table, "limits": limits_table,
                    "hook-process": hook_process_table, "doctor-files": doctor_files,
                    "matchers": matchers_table, "timeouts": timeouts_bullet,
                    "fail-closed": fail_closed_list, "lifecycle": lifecycle_table,
                    "system-message": system_message_list, "user-files": user_files_table}
# The blocks each generated file must hold.
REQUIRED_BLOCKS = {"README.md": {"events", "tools", "clis", "matchers", "timeouts",
                                 "registration-files"},
                   "docs/ci-and-pre-commit.md": {"precommit-local", "precommit-files",
                                                 "whole-files"},
                   "docs/writing-hooks.md": {"fields-every-event", "fields-per-event",
                                             "tool-input", "limits"},
                   "docs/runner-contract.md": {"hook-process"},
                   "docs/troubleshooting.md": {"doctor-files", "system-message"},
                   "docs/user-scope.md": {"user-files"},
                   "docs/templates.md": {"fail-closed", "lifecycle"}}


def fill_blocks(text: str, label: str) -> str:
    """``text`` with every generated block replaced by its current content."""
    found = set()

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in GENERATED_BLOCKS:
            raise SystemExit(f"{label}: unknown generated block {name!r}")
        found.add(name)
        return match.group(1) + GENERATED_BLOCKS[name]() + match.group(4)

    new = _BLOCK.sub(replace, text)
    missing = sorted(REQUIRED_BLOCKS.get(label, set()) - found)
    if missing:
        raise SystemExit(f"{label}: no <!-- BEGIN generated: {missing[0]} --> block")
    return new


# ----------------------------------------------------------------------------- CLI page

def _default(param) -> str:
    default = param.default
    if default is None or getattr(param, "is_flag", False) or callable(default):
        return ""
    value = getattr(default, "value", default)
    return f"`{value}`"


def _help(command, param) -> str:
    """The help text as written in the typer.Argument/typer.Option of the command function
    (typer versions differ in whether they copy an argument's help onto the click object)."""
    import inspect

    text = None
    try:
        info = inspect.signature(command.callback).parameters[param.name].default
        text = getattr(info, "help", None)
    except (TypeError, ValueError, KeyError):
        pass
    text = text or getattr(param, "help", None) or ""
    return " ".join(text.split()).replace("|", "\\|")


def _metavar(param, ctx) -> str:
    """The metavar `--help` prints for ``param`` (click 8.2+ passes the context)."""
    try:
        return param.make_metavar(ctx)
    except TypeError:
        return param.make_metavar()


def _param_rows(command, ctx) -> tuple[list[list[str]], list[list[str]]]:
    arguments, options = [], []
    for param in command.params:
        if getattr(param, "hidden", False):
            continue
        if param.param_type_name == "argument":
            arguments.append([f"`{_metavar(param, ctx)}`", "yes" if param.required else "no",
                              _help(command, param)])
        else:
            names = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
            kind = "flag" if getattr(param, "is_flag", False) else \
                f"`{_metavar(param, ctx)}`".replace("|", "\\|")
            options.append([names, kind, _default(param), _help(command, param)])
    options.append(["`-h`, `--help`", "flag", "", "Show the help and exit."])
    return arguments, options


def _usage(prefix: str, command, ctx) -> str:
    """The usage line exactly as `--help` prints it."""
    return " ".join([prefix, *command.collect_usage_pieces(ctx)])


def _context(command, name: str, parent=None):
    return command.context_class(command, info_name=name, parent=parent)


def _command_section(prefix: str, command, level: str, ctx) -> list[str]:
    out = [f"{level} `{prefix}`", "", "```", _usage(prefix, command, ctx), "```", ""]
    help_text = (command.help or "").strip()
    if help_text:
        out += [help_text, ""]
    arguments, options = _param_rows(command, ctx)
    if arguments:
        out += ["Arguments:", "", _table(["argument", "required", "help"], arguments)]
    out += ["Options:", "", _table(["option", "type", "default", "help"], options)]
    return out


def cli_markdown() -> str:
    """docs/cli.md: the reference for every command, built from the typer app."""
    import typer

    from hookwrap.console.app import app

    root = typer.main.get_command(app)
    lines = [
        "# CLI reference",
        "",
        "<!-- Generated by scripts/gen_docs.py from the typer app; do not edit by hand. -->",
        "<!-- Run `python scripts/gen_docs.py` after changing a command. -->",
        "",
        "Exit codes for every command: 0 ok; 1 an error in a file or the project (a broken",
        "`hookwrap.toml` or settings file, a hook name that is already taken or unknown), drift",
        "found by `sync --check`, a problem `sync` cannot fix, a failing `doctor` check or an",
        "unclean `test` run; 2 a usage",
        "error: a missing or malformed argument, or a value hookwrap rejects (an unknown event or",
        "template, an invalid hook name, a `--timeout` of 0); 3 an internal error; 130 interrupted.",
        "",
        "Commands: " + ", ".join(f"[`{name}`](#hookwrap-{name})" for name in root.commands) + ".",
        "",
    ]
    root_ctx = _context(root, "hookwrap")
    lines += _command_section("hookwrap", root, "##", root_ctx)
    for name, command in root.commands.items():
        lines += _command_section(f"hookwrap {name}", command, "##",
                                  _context(command, name, root_ctx))
    return "\n".join(lines).rstrip("\n") + "\n"


# ------------------------------------------------------------------- lists of CLIs

def clis_sentence() -> str:
    """README's opening lines: every CLI hookwrap supports, and their platform names."""
    names = ", ".join(f"`{p.value}`" for p in Platform)
    bold = words.join(f"**{setup_of(p).label}**" for p in Platform)
    default = words.labels(ALL_PLATFORMS)
    return (f"Write an AI coding-agent hook once, in Python, and run it on {bold}.\n"
            "hookwrap keeps each CLI's registration file in sync with one manifest, "
            f"`hookwrap.toml`. A new project gets {default} (or the CLIs whose folders it "
            "already has), and `init` says which it chose; pick others, or add one to a project "
            f"later, with `hookwrap init --platform NAME` (repeatable: {names}, or `all`).\n")


def settings_list() -> str:
    """Every CLI's registration file, as a markdown list."""
    return "".join(f"- {setup_of(p).label}: `{setup_of(p).facts.settings_file}`\n" for p in Platform)


def precommit_pattern() -> str:
    """The files whose change can make `hookwrap sync --check` fail."""
    files = ["hookwrap.toml", *(setup_of(p).facts.settings_file for p in Platform),
             *hook_file_folders(), ".hookwrap/"]
    return "^(" + "|".join(re.escape(f) for f in files) + ")"


def precommit_yaml() -> str:
    return f"""# Hooks this repository offers to pre-commit (https://pre-commit.com).
# Generated by scripts/gen_docs.py from the CLIs' records; do not edit by hand.
# In your repo's .pre-commit-config.yaml:
#
#   - repo: https://github.com/hookwrap/hookwrap
#     rev: <full commit sha>   # no release tag exists yet
#     hooks:
#       - id: hookwrap-sync-check
- id: hookwrap-sync-check
  name: hookwrap sync --check
  description: Fail when a CLI's registration file or .hookwrap/ differs from hookwrap.toml.
  entry: hookwrap sync --check
  language: python
  pass_filenames: false
  files: {precommit_pattern()}
"""


def pyproject(text: str) -> str:
    """pyproject.toml with its description, keywords and e2e marker naming every CLI."""
    description = (f"Write an AI coding-agent hook once in Python; run it on {words.labels()}, "
                   "with every CLI's registration file kept in sync.")
    keywords = [setup_of(p).label.lower().replace(" ", "-") for p in Platform]
    text = re.sub(r'^description = ".*"$', f"description = {json.dumps(description)}", text,
                  count=1, flags=re.MULTILINE)
    text = re.sub(r"^keywords = \[.*\]$", "keywords = " + json.dumps(
        [*keywords, "hooks", "ai-agents", "cli"]), text, count=1, flags=re.MULTILINE)
    marker = f"e2e: runs the real CLIs ({words.labels()}) against loopback mock model servers"
    return re.sub(r'^  "e2e: .*",$', f"  {json.dumps(marker)},", text, count=1, flags=re.MULTILINE)


# --------------------------------------------------------------------------------- main

def targets(root: Path) -> dict[Path, str]:
    """Every generated file and the text it should have: the blocks of README.md and of each
    docs/*.md page, docs/cli.md whole, .pre-commit-hooks.yaml and pyproject.toml."""
    cli_page = root / "docs" / "cli.md"
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    found = {path: fill_blocks(path.read_text(encoding="utf-8"), path.relative_to(root).as_posix())
             for path in pages if path.exists() and path != cli_page}
    for label in sorted(REQUIRED_BLOCKS):
        if not (root / label).exists():
            raise SystemExit(f"{label}: missing (it must hold the generated blocks "
                             f"{', '.join(sorted(REQUIRED_BLOCKS[label]))})")
    pyproject_toml = root / "pyproject.toml"
    return {
        **found,
        cli_page: cli_markdown(),
        root / ".pre-commit-hooks.yaml": precommit_yaml(),
        pyproject_toml: pyproject(pyproject_toml.read_text(encoding="utf-8")),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a generated part is out of date")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the repository root (default: this script's repository)")
    args = parser.parse_args(argv)
    stale = []
    for path, wanted in targets(args.root).items():
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current == wanted:
            continue
        stale.append(path)
        rel = path.relative_to(args.root)
        if args.check:
            diff = difflib.unified_diff(current.splitlines(True), wanted.splitlines(True),
                                        f"{rel} (current)", f"{rel} (generated)")
            sys.stdout.writelines(diff)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(wanted, encoding="utf-8")
            print(f"wrote {rel}")
    if args.check and stale:
        names = ", ".join(str(p.relative_to(args.root)) for p in stale)
        print(f"out of date: {names}\nhint: run `python scripts/gen_docs.py`", file=sys.stderr)
        return 1
    if not stale:
        print("generated docs are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
