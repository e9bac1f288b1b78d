#!/usr/bin/env python3
"""Write the generated parts of the docs from the code, or check that they are current.

- README.md: the event and tool-name tables, between ``<!-- BEGIN generated: NAME -->`` and
  ``<!-- END generated: NAME -->``, from hookwrap's runtime maps.
- docs/cli.md: the whole file, from the typer app (every command, its help, arguments, options).
- README.md's and docs/ci-and-pre-commit.md's lists of CLIs and registration files, the
  ``files`` pattern of .pre-commit-hooks.yaml, and pyproject.toml's description, keywords and
  e2e marker: from the CLIs' records (hookwrap.generator.words), so none can miss a CLI.

Usage:
    python scripts/gen_docs.py            # rewrite what is out of date
    python scripts/gen_docs.py --check    # write nothing; exit 1 if anything is out of date

Standard library and hookwrap only.
"""

from __future__ import annotations

import argparse
import difflib
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


def _watched_files() -> str:
    files = ", ".join(f"`{setup_of(p).settings_file}`" for p in Platform)
    return (f"- It runs only when the commit touches `hookwrap.toml`, a CLI's registration file "
            f"({files}) or anything under `.hookwrap/`.\n")


GENERATED_BLOCKS = {"events": lambda: events_table(), "tools": lambda: tools_table(),
                    "clis": lambda: clis_sentence(), "registration-files": lambda: settings_list(),
                    "precommit-local": _local_hook_yaml, "precommit-files": _watched_files}
# The blocks each generated file must hold.
REQUIRED_BLOCKS = {"README.md": {"events", "tools", "clis"},
                   "docs/ci-and-pre-commit.md": {"precommit-local", "precommit-files"}}


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
        "found by `sync --check`, a failing `doctor` check or an unclean `test` run; 2 a usage",
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
    return "".join(f"- {setup_of(p).label}: `{setup_of(p).settings_file}`\n" for p in Platform)


def precommit_pattern() -> str:
    """The files whose change can make `hookwrap sync --check` fail."""
    files = ["hookwrap.toml", *(setup_of(p).settings_file for p in Platform)]
    return "^(" + "|".join(re.escape(f) for f in files) + r"|\.hookwrap/)"


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
    """Every generated file and the text it should have."""
    readme, ci = root / "README.md", root / "docs" / "ci-and-pre-commit.md"
    pyproject_toml = root / "pyproject.toml"
    return {
        readme: fill_blocks(readme.read_text(encoding="utf-8"), "README.md"),
        ci: fill_blocks(ci.read_text(encoding="utf-8"), "docs/ci-and-pre-commit.md"),
        root / "docs" / "cli.md": cli_markdown(),
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
