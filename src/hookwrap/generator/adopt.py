"""External hooks: `hookwrap add --command`, and `hookwrap adopt`, which moves the hooks a team
registered by hand in a CLI's settings file into hookwrap.toml so they run on every CLI.

Adopt reads the command handlers of one CLI's project settings file (Claude Code's by default),
translates each one's event, matcher and timeout into the manifest's normalized form, records
it as an external hook (``command``, ``speaks``), and plans the sync: the hand-made entry is
replaced by hookwrap's own registration, the manifest, the bridge scripts and every settings
file change in one plan, applied atomically. An entry it cannot translate stays where it is,
byte for byte, and is reported.
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..names import NormalizedEvent, Platform
from . import registrations as regs
from .clis import setup_of
from .errors import EntryError, ProjectError, UsageError
from .plan import Plan

if TYPE_CHECKING:
    from .clis._base import AgentSetup

# Handler keys a manifest entry carries, or labels that change nothing about when and how the
# command runs (Claude Code's statusMessage, Gemini CLI's and Qwen Code's name and description).
_CARRIED = frozenset({"type", "command", "timeout", "onFailure", "statusMessage", "name",
                      "description"})


@dataclass
class Found:
    """One hand-made handler of the settings file and what adopt does with it."""

    where: str            # hooks.PreToolUse[0].hooks[1]
    place: tuple[int, int]  # (0, 1): its group's index in the event's list, its own in the group
    event: str
    group: dict
    handler: dict
    entry: dict | None = None   # the manifest table it becomes, None = it stays
    name: str = ""
    why: str = ""         # why it stays


def add_external_plan(root: Path, *, event: str, name: str, command: str, speaks: str | None,
                      matcher: str | None, platforms: list[str] | None, timeout: int | None,
                      fail_closed: bool = False) -> Plan:
    """`hookwrap add EVENT NAME --command CMD`: an external hook, registered everywhere."""
    from .hookentry import new_external_entry
    from .project import load_manifest, parse_platforms, plan_added, refuse_taken

    manifest = load_manifest(root, editable=True)
    refuse_taken(manifest, name)
    try:
        spec, warnings = new_external_entry(
            name=name, event=event, command=command, speaks=speaks, matcher=matcher,
            platforms=parse_platforms(platforms, manifest.platforms), timeout=timeout,
            fail_closed=fail_closed)
    except EntryError as error:
        flag = {"command": "--command", "speaks": "--speaks", "matcher": "--matcher",
                "timeout": "--timeout", "platforms": "--platform"}.get(error.key, error.key)
        raise UsageError(f"{flag}: {error.message}" if flag else error.message,
                         hint=error.hint) from None
    manifest.add(spec)
    plan = Plan(root)
    plan.warnings.extend(warnings)
    import os

    problem = command_problem(root, command, str(spec.options["speaks"]), os.environ.get("PATH"))
    if problem:
        plan.warnings.append(f"--command: {problem}; {name} cannot start on any CLI until that "
                             f"is fixed (`hookwrap test {name}` and `hookwrap doctor` check it)")
    plan_added(plan, manifest, spec)
    return plan


def adopt_plan(root: Path, source: str = "claude") -> Plan:
    """`hookwrap adopt [--from CLI]`: the hand-made hooks of ``source``'s project settings file
    become external hooks of hookwrap.toml, registered on every platform of the manifest."""
    from .project import MANIFEST, plan_new_files, plan_runtime, plan_settings
    from .settings import project_settings

    try:
        platform = Platform(source)
    except ValueError:
        names = ", ".join(p.value for p in Platform)
        raise UsageError(f"--from: {source!r} is not a platform", hint=f"use one of: {names}") from None
    agent = setup_of(platform)
    if agent.facts.settings_owned or agent.facts.settings_generated:
        raise UsageError(f"--from {platform.value}: {agent.facts.settings_file} is hookwrap's own file, "
                         f"so it holds no hand-made hooks to adopt",
                         hint=f"move {agent.label}'s hooks by hand with `hookwrap add EVENT NAME "
                              "--command CMD --speaks " + platform.value + "`")
    rel = agent.facts.settings_file
    data = project_settings(root, platform)[1]
    plan = Plan(root)
    manifest = _manifest(plan)
    if platform not in manifest.platforms:
        raise UsageError(f"{MANIFEST}'s platforms do not include {platform.value}: its adopted "
                         f"hooks would no longer run on {agent.label}",
                         hint=f"add it with `hookwrap init --platform {platform.value}`, then adopt")
    found = _handlers(data, platform, rel)
    # A name whose script exists and is not the manifest's is the user's file: never reused.
    taken = {spec.name for spec in manifest.hooks} | _unmanaged_scripts(root, manifest)
    for index, item in enumerate(found):
        _translate(item, platform, manifest, taken, found[:index])
    for item in found:
        if item.entry is None:
            plan.warnings.append(f"{rel}: {item.where} ({item.event} "
                                 f"{item.handler.get('command') or item.handler.get('type')!r}) "
                                 f"stays where it is: {item.why}")
    moved = [item for item in found if item.entry is not None]
    specs: list[Any] = []
    for item in moved:
        existing = manifest.get(item.name)
        if existing is None and item.name not in {spec.name for spec in specs}:
            from .hookentry import check_entry

            spec, warnings = check_entry(item.name, item.entry,
                                         default_platforms=manifest.platforms)
            plan.warnings.extend(f"{MANIFEST}: hooks.{item.name}.matcher: {w}" for w in warnings)
            manifest.add(spec)
            specs.append(spec)
            plan.notes.append(f"{rel} {item.where} becomes [hooks.{item.name}]")
        else:
            plan.notes.append(f"{rel} {item.where} is already [hooks.{item.name}]: "
                              "its hand-made entry is replaced by hookwrap's")
    for spec in specs:
        plan_new_files(plan, spec)  # refuses to overwrite a file hookwrap did not write
    plan.add(MANIFEST, manifest.dumps().encode())
    plan_runtime(plan)
    # Each hook's registration takes the place of its first hand-made handler (N-L6: a moved
    # entry keeps its position); the others go (settings.reconcile).
    places: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for item in moved:
        places.setdefault((item.name, item.event), []).append(item.place)
    plan_settings(plan, manifest, places={platform: places})
    if not found:
        plan.notes.append(f"{rel}: no hand-made hooks to adopt")
    plan.notes.extend(_personal_files(root, agent))
    return plan


def _manifest(plan: Plan):
    """The project's manifest, or a new one (with notes saying so, and which CLIs it names)."""
    from .manifest import Manifest, new_manifest_text
    from .project import MANIFEST
    from .projectclis import new_platforms

    if (plan.root / MANIFEST).is_file():
        return Manifest.load(plan.root / MANIFEST)
    chosen, notes = new_platforms(plan.root)
    plan.notes.append(f"{MANIFEST} is new: this repo had none")
    plan.notes.extend(notes)
    return Manifest.loads(new_manifest_text(chosen), MANIFEST)


def _unmanaged_scripts(root: Path, manifest) -> set[str]:
    """Names whose ``.hookwrap/hooks/<name>.py`` exists but is no hook of the manifest."""
    folder = root / Path(regs.script_path("x")).parent
    names = {path.stem for path in folder.glob("*.py")} if folder.is_dir() else set()
    return names - {spec.name for spec in manifest.hooks}


def _personal_files(root: Path, agent: AgentSetup) -> list[str]:
    """Notes for the CLI's other settings files inside the project that hold hooks (Claude
    Code's .claude/settings.local.json): personal and git-ignored, so adopt leaves them."""
    import os

    notes = []
    for label, path, _ in agent.scopes(root, Path.home(), os.environ):
        inside = Path(path).resolve().is_relative_to(root.resolve())
        if label == agent.facts.settings_file or not inside or not Path(path).is_file():
            continue
        if '"hooks"' in Path(path).read_text(encoding="utf-8", errors="replace"):
            notes.append(f"{label}: left alone (personal settings; adopting its hooks would "
                         "share them with everyone who clones the repo)")
    return notes


def _handlers(data: dict, platform: Platform, rel: str) -> list[Found]:
    """Every handler of the file that hookwrap did not write, in document order."""
    from .clis.kit import iter_handlers
    from .settings import OWNED_COMMAND_RE

    hooks = data.get("hooks") if isinstance(data, dict) else None
    if hooks is None:
        return []
    if not isinstance(hooks, dict):
        raise ProjectError(f"{rel}: hooks is not an object", hint="fix it by hand, then adopt")
    found, agent = [], setup_of(platform)
    for event, gi, hi, group, handler in iter_handlers(hooks):
        if not isinstance(handler, dict) or agent.owned_handler(handler):
            continue
        item = Found(f"hooks.{event}[{gi}].hooks[{hi}]", (gi, hi), event, group, handler)
        command = handler.get("command")
        if isinstance(command, str) and OWNED_COMMAND_RE.search(command):
            item.why = "it runs a hookwrap script in a form hookwrap does not write"
        found.append(item)
    return found


def _translate(item: Found, platform: Platform, manifest, taken: set[str],
               taken_items: list[Found]) -> None:
    """Fill ``item.entry`` and ``item.name``, or ``item.why`` when it cannot move."""
    if item.why:
        return
    agent = setup_of(platform)
    handler = item.handler
    if handler.get("type", "command") != "command":
        item.why = f"a {handler.get('type')!r} handler runs no command, so no other CLI can run it"
        return
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        item.why = "it has no command"
        return
    extra = sorted(set(handler) - _CARRIED)
    if extra:
        item.why = f"its {', '.join(extra)} cannot be carried to the other CLIs"
        return
    own_name = agent.runtime.canonical_event_name(item.event)
    event = agent.runtime.events.get(own_name)
    if event is None:
        item.why = f"{item.event} is not an event hookwrap knows"
        return
    back = agent.runtime.event_names().get(event)
    if back != own_name:  # SubagentStop is after_agent, which registers as Stop
        item.why = (f"{item.event} becomes {event.value}, which hookwrap registers on "
                    f"{agent.label} as {back}: it would run at another time")
        return
    entry: dict[str, Any] = {"event": event.value}
    matcher, why = _matcher(item.group.get("matcher"), event, agent)
    if why:
        item.why = why
        return
    if matcher is not None:
        entry["matcher"] = matcher
    timeout = handler.get("timeout")
    if timeout is not None:
        if type(timeout) not in (int, float) or timeout <= 0:
            item.why = f"its timeout {timeout!r} is not a positive number"
            return
        entry["timeout"] = max(1, math.ceil(timeout / agent.facts.timeout_scale))
    else:  # the wait the CLI gave it (Claude Code: 600 s), not hookwrap's default of 60 s
        entry["timeout"] = max(1, math.ceil(agent.facts.default_timeout_s))
    entry["command"] = command
    entry["speaks"] = platform.value
    if handler.get("onFailure") == "block":
        entry["fail_closed"] = True
    # The same command twice under one event and matcher runs once in Claude Code (it
    # de-duplicates identical commands): one hook for both.
    key = (command, event.value, entry.get("matcher"))
    same = next((spec.name for spec in manifest.hooks
                 if (spec.options.get("command"), spec.event.value, spec.matcher) == key), None) \
        or next((other.name for other in taken_items if other.entry is not None and (
            other.entry["command"], other.entry["event"], other.entry.get("matcher")) == key), None)
    if same is not None:
        item.entry, item.name = entry, same
        return
    from .hookentry import check_entry

    name = _name(command, taken)
    try:
        check_entry(name, entry, default_platforms=manifest.platforms)
    except (EntryError, UsageError) as error:
        item.why = f"{error.message}"
        return
    taken.add(name)
    item.entry, item.name = entry, name


def _matcher(value: Any, event: NormalizedEvent, agent: AgentSetup) -> tuple[str | None, str]:
    """The normalized matcher of a group's matcher, or ("", why) when it cannot be mapped."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "*")):
        return None, ""
    if event not in agent.facts.tool_events and event not in agent.facts.lifecycle_values:
        # hookwrap writes no matcher here, and the CLI may filter by it (Claude Code's
        # Notification matches permission_prompt): moving it would run it on every call.
        return "", (f"its matcher {value!r} cannot be carried: hookwrap registers "
                    f"{event.value} without one, so it would run every time")
    if not isinstance(value, str):
        return "", f"its matcher {value!r} is not a string"
    if event not in agent.facts.tool_events:
        parts = value.split("|")
        return ("|".join(parts), "") if all(re.fullmatch(r"[a-z_]+", p) for p in parts) else (
            "", f"its matcher {value!r} is not a list of exact values")
    names = []
    for part in (piece.strip() for piece in value.split("|")):
        if part in agent.runtime.tools:
            names.append(agent.runtime.tools[part])
        elif agent.runtime.mcp_split(part) and re.fullmatch(r"[A-Za-z0-9_:.\-]+", part):
            names.append(agent.runtime.normalize_tool(part))
        elif _mcp_pattern(part, agent):
            names.append(part)  # mcp__github__.*: a pattern `add --matcher` takes as it is
        else:
            return "", (f"its matcher {value!r}: {part!r} is not a tool name hookwrap can map "
                        "to the other CLIs (a regex or an unknown tool)")
    return "|".join(dict.fromkeys(names)), ""


def _mcp_pattern(part: str, agent: AgentSetup) -> bool:
    """Whether ``part`` is a regex over MCP tools in the spelling matchers take
    (``mcp__.*``, ``mcp__github__.*``), from a CLI that spells MCP tools that way itself."""
    mcp = (agent.runtime.mcp_prefix, agent.runtime.mcp_separator)
    if not part.startswith("mcp__") or mcp != ("mcp__", "__"):
        return False
    try:
        re.compile(part)
    except re.error:
        return False
    return True


def _name(command: str, taken: set[str]) -> str:
    """A hook name from the command's script (``.claude/hooks/block-push.sh`` ->
    ``block-push``), unique among ``taken``."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    scripts = [w for w in words if "/" in w or re.search(r"\.[A-Za-z0-9]+$", w)]
    word = (scripts or words or ["hook"])[-1 if scripts else 0]
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", word.rstrip("/").rsplit("/", 1)[-1])
    base = re.sub(r"[^a-z0-9_-]+", "-", stem.lower()).strip("-_") or "hook"
    if not base[0].isalpha():
        base = f"hook-{base}"
    base = base[:56]
    name, n = base, 2
    while name in taken or not regs.NAME_RE.match(name):
        name, n = f"{base}-{n}", n + 1
    return name


_SHELL_WORDS = frozenset({"exec", "env", "command", "builtin", "time", "nice", "nohup", "sh", "bash"})


def command_problem(root: Path, command: str, speaks: str, path_env: str | None) -> str:
    """Why an external hook's command cannot start ("" when its program is found): the first
    word of the shell string (and an interpreter's script), with the project-dir variable of
    ``speaks`` expanded, relative to the project root when it holds a "/", else on PATH."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        return f"{command!r} is not a shell command line ({error})"
    words = [w for w in words if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]
    while len(words) > 1 and words[0] in _SHELL_WORDS and not words[1].startswith("-"):
        words = words[1:]
    if not words:
        return ""
    problem = _program_problem(root, words[0], speaks, path_env)
    if problem or len(words) < 2 or Path(words[0]).name not in _INTERPRETERS:
        return problem
    script = words[1]  # node .claude/hooks/x.js: the script must exist too
    if "/" in script and not script.startswith("-"):
        return _program_problem(root, script, speaks, path_env, executable=False)
    return ""


_INTERPRETERS = frozenset({"node", "python", "python3", "bash", "sh", "ruby", "perl", "deno",
                           "bun", "zsh", "uv"})


def _program_problem(root: Path, program: str, speaks: str, path_env: str | None, *,
                     executable: bool = True) -> str:
    import os
    import shutil

    for var in setup_of(speaks).runtime.project_dir_vars:
        program = program.replace("${" + var + "}", str(root)).replace("$" + var, str(root))
    if "$" in program or "`" in program:
        return ""  # decided by the shell at run time
    if "/" in program:
        path = Path(program) if program.startswith("/") else root / program
        if not path.is_file():
            return f"{program} does not exist"
        if executable and not os.access(path, os.X_OK):
            return f"{program} is not executable (chmod +x it)"
        return ""
    if shutil.which(program, path=path_env) is None:
        return f"{program} is not on PATH"
    return ""
