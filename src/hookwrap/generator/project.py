"""The generator's core: init, add, remove, sync and list as plans over a project directory."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..names import NormalizedEvent, Platform
from . import registrations as regs
from .catalogue import EXTERNAL
from .clis import setup_of
from .errors import ConflictError, ManifestError, ProjectError, UsageError
from .fsutil import read_capped
from .interpreter import WINDOWS_DEFAULT
from .plan import Plan
from .scopefiles import settings_rel
from .vendor import (
    LAUNCHER,
    LAUNCHER_MODULE,
    LAUNCHER_MODULE_SOURCE,
    LAUNCHER_SOURCE,
    PACKAGE,
    RUNTIME_DIR,
    RUNTIME_MODULES,
)
from .winforms import ONE_COMMAND, WINDOWS_FIELDS

MANIFEST = "hookwrap.toml"
# Each hook's `commands` patterns, for the runtime filter (commandfilter.py); absent when none.
FILTERS_FILE = ".hookwrap/filters.json"
HOOKWRAP_GITIGNORE = "# written by hookwrap: run-time files that do not belong in git\n" \
                     "__pycache__/\nlogs/\nstate/\n.lock\n"


def find_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` that holds hookwrap.toml."""
    start = start.resolve()
    for directory in (start, *start.parents):
        if (directory / MANIFEST).exists():  # not is_file(): a link to a device is refused on reading
            return directory
    raise ProjectError(f"no {MANIFEST} in {start} or any parent directory",
                       hint="run `hookwrap init` at the root of your project first")


def load_manifest(root: Path, *, editable: bool = False):
    """The project's manifest (raises ManifestError on a broken file); read-only unless
    ``editable``, which costs a tomlkit parse."""
    from .manifest import Manifest

    path = root / MANIFEST
    if not path.exists():
        raise ProjectError(f"{MANIFEST} not found in {root}", hint="run `hookwrap init` first")
    return Manifest.load(path) if editable else Manifest.read(path)


def hook_names(start: Path) -> list[str]:
    """The hooks of the project at or above ``start`` (shell completion); [] when there is
    none or its manifest does not read."""
    from .errors import HookwrapError

    try:
        return [spec.name for spec in load_manifest(find_root(start)).hooks]
    except (HookwrapError, OSError):
        return []


def python_of(manifest) -> str:
    return getattr(manifest, "python", None) or "python3"


def python_windows_of(manifest) -> str:
    """The interpreter words of Windows-bound commands (generator/interpreter.py)."""
    return _windows_choice(getattr(manifest, "python_windows", None))[0]


@cache
def _windows_choice(setting: str | None) -> tuple[str, list[str]]:
    # One probe per process (on Windows it starts each candidate interpreter).
    from .interpreter import windows_python

    return windows_python(setting)


def _template_info(template: str):
    from .render import TEMPLATES

    return TEMPLATES.get(template)


def port_of(manifest) -> int:
    return getattr(manifest, "serve_port", regs.DEFAULT_SERVE_PORT)


def fails_closed(spec) -> bool:
    """Whether a manifest entry's hook fails closed: its template's policy (the guard), or an
    external hook's ``fail_closed = true``."""
    info = _template_info(spec.template)
    return bool(info and info.fail_closed) or spec.options.get("fail_closed") is True


def blocking_names(manifest) -> set[str]:
    """The hooks whose registered command blocks every call they match when they cannot start
    (fail-closed before_tool hooks: ``--fail-closed``, launcher.py)."""
    return {spec.name for spec in manifest.hooks
            if fails_closed(spec) and spec.event == NormalizedEvent.BEFORE_TOOL}


def serve_port(manifest, port: int | None) -> tuple[int, list[str]]:
    """The port `hookwrap serve` listens on (``port``, else [serve] port), and what to warn:
    no resident hook (no CLI posts to it), or a port the registrations do not post to.

    Raises:
        UsageError: ``port`` is not one [serve] port takes (1024 to 65535).
    """
    chosen = port if port is not None else port_of(manifest)
    if not 1024 <= chosen <= 65535:
        raise UsageError(f"--port {chosen} is not a port from 1024 to 65535",
                         hint="use one of those, as [serve] port in hookwrap.toml does")
    if not any(spec.resident for spec in manifest.hooks):
        return chosen, [f"no hook in {MANIFEST} has resident = true, so no CLI posts to this "
                        "server (add one with `hookwrap add EVENT NAME --resident`)"]
    if chosen != port_of(manifest):
        return chosen, [f"the registrations post to port {port_of(manifest)}; set [serve] port = "
                        f"{chosen} in {MANIFEST} and run `hookwrap sync`"]
    return chosen, []


def spec_registrations(spec, python: str = "python3", port: int = regs.DEFAULT_SERVE_PORT,
                       python_windows: str = WINDOWS_DEFAULT):
    """Registrations and warnings for one manifest entry, with its template's policy."""
    info = _template_info(spec.template)
    return regs.registrations_for(
        spec, fail_closed=fails_closed(spec), summary=info.summary if info else "",
        python=python, port=port, python_windows=python_windows)


def registrations_in(spec, manifest):
    """spec_registrations with ``manifest``'s interpreters and port."""
    return spec_registrations(spec, python_of(manifest), port_of(manifest),
                              python_windows_of(manifest))


def manifest_registrations(spec, manifest):
    """spec_registrations for an entry read from ``manifest`` (hookwrap.toml): a value the
    manifest's syntax allows but a platform cannot take is the manifest's error, named by its key."""
    try:
        return registrations_in(spec, manifest)
    except UsageError as error:
        raise ManifestError(f"{MANIFEST}: hooks.{spec.name}.matcher: {error.message}",
                            hint=error.hint) from None


def _desired(manifest) -> tuple[dict[Platform, list], list[str]]:
    desired: dict[Platform, list] = {p: [] for p in Platform}
    warnings: list[str] = []
    for spec in manifest.hooks:
        found, skipped = manifest_registrations(spec, manifest)
        warnings.extend(skipped)
        for registration in found:
            desired[registration.platform].append(registration)
    return desired, warnings


def read_settings_text(root: Path, platform: Platform) -> str | None:
    """The project settings file's text, or None when it does not exist."""
    from .settings import read_text

    rel = settings_rel(platform)
    return read_text(root / rel, rel)


def scope_platforms() -> tuple[Platform, ...]:
    """The CLIs whose registration files the scope in force keeps."""
    from .scopefiles import supports

    return tuple(p for p in Platform if supports(p))


def filters_text(specs) -> bytes | None:
    """The text of .hookwrap/filters.json: each filtered hook's patterns; None when none is."""
    import json

    filters = {spec.name: list(spec.commands) for spec in specs if getattr(spec, "commands", ())}
    return (json.dumps(filters, indent=2) + "\n").encode() if filters else None


def plan_settings(plan: Plan, manifest, places: dict | None = None) -> None:
    """Every settings file made to register ``manifest``'s hooks; ``places`` (`adopt`): per
    platform, the hand-made handlers of its file that new registrations take over
    (settings.reconcile)."""
    from .originals import restored, restored_trust
    from .scope import current
    from .settings import lookalikes, parse_settings, reconcile

    plan.add(FILTERS_FILE, filters_text(manifest.hooks))
    desired, warnings = _desired(manifest)
    plan.warnings.extend(warnings)
    for platform in Platform:
        if not desired[platform] and platform not in scope_platforms():
            continue
        rel = settings_rel(platform)
        text = read_settings_text(plan.root, platform)
        result = reconcile(text, platform, desired[platform], label=rel,
                           places=(places or {}).get(platform))
        result = restored(plan, platform, text, result, bool(desired[platform]))
        if current().user and not desired[platform]:
            restored_trust(plan, platform)
        detail = [f"{c.action} {c.name} ({c.detail})" if c.detail else f"{c.action} {c.name}"
                  for c in result.changes if c.action != "unchanged"]
        new = None if result.new_text is None else result.new_text.encode("utf-8")
        # A symlinked settings file left empty is written as {} through the link, never
        # unlinked: its target may be shared, and would keep a stale hookwrap entry.
        plan.add(rel, new, detail=detail, keep_link_as=b"{}\n")
        agent = setup_of(platform)
        files, problems = agent.registration.hook_files(agent, plan.root, result.new_text)
        for path, data in files:  # made from the registration file (Cline's hook files)
            plan.add(path, data)
        plan.problems.extend(problems)
        if text is not None:
            plan.warnings.extend(f"{rel}: {found}" for found in
                                 lookalikes(parse_settings(text, platform, label=rel), platform))
        if result.changed:
            from .trust import untrusted_note

            note = untrusted_note(platform, plan.root, result.new_text)
            if note:
                plan.notes.append(note)
            unreachable = agent.registration.unreachable_note(agent, plan.root) \
                if result.new_text is not None and desired[platform] \
                and not current().user else None
            if unreachable:
                plan.warnings.append(unreachable)
        if result.new_text is not None and setup_of(platform).facts.invalid_entry_drops_event \
                and desired[platform]:
            # Most CLIs skip an invalid entry on its own; Claude Code drops its neighbours
            # too. Only a file holding hookwrap's hooks can hurt them.
            events = {r.event: r.name for r in desired[platform]}
            plan.problems.extend(_invalid_entries(result.new_text, platform, rel, events))


def _invalid_entries(text: str, platform: Platform, rel: str, events: dict[str, str]) -> list[str]:
    """Errors in entries hookwrap does not own that take hookwrap's hooks down with them.

    Claude Code drops every hook of an event when one entry of it is invalid, and a file-level
    error drops the whole file. ``events`` maps each event hookwrap writes to one hook name.
    """
    from .schema import validate_settings
    from .settings import parse_settings

    label = setup_of(platform).label
    found = []
    for problem in validate_settings(parse_settings(text, platform, label=rel), platform):
        if problem.severity != "error":
            continue
        event = problem.path.split(".")[1].split("[")[0] if problem.path.startswith("hooks.") else None
        if event is None:
            found.append(f"{rel}: {problem.path}: {problem.message}; {label} may ignore this "
                         f"whole file, hookwrap's hooks included")
        elif event in events:
            found.append(f"{rel}: {problem.path}: {problem.message}; {label} drops every {event} "
                         f"hook of this file, {events[event]} included")
    return found


def plan_runtime(plan: Plan) -> None:
    source = PACKAGE
    for module in RUNTIME_MODULES:
        plan.add(f"{RUNTIME_DIR}/{module}", (source / module).read_bytes())
    plan.add(LAUNCHER, (source / LAUNCHER_SOURCE).read_bytes())
    plan.add(LAUNCHER_MODULE, (source / LAUNCHER_MODULE_SOURCE).read_bytes())
    target = plan.root / RUNTIME_DIR
    for folder in sorted({str(Path(module).parent) for module in RUNTIME_MODULES}):
        if not (target / folder).is_dir():
            continue
        for extra in sorted((target / folder).glob("*.py")):
            rel = extra.relative_to(target).as_posix()
            if rel not in RUNTIME_MODULES:
                plan.add(f"{RUNTIME_DIR}/{rel}", None, detail=["not part of this runtime"])
    plan.add(".hookwrap/.gitignore", HOOKWRAP_GITIGNORE.encode())
    plan.bytecode.extend(f"{RUNTIME_DIR}/{module}" for module in RUNTIME_MODULES)
    plan.bytecode.append(LAUNCHER_MODULE)


def _plan_hook_bytecode(plan: Plan, specs) -> None:
    """Cache each hook script's bytecode once applied, where the launcher looks for it, so even
    the first call (and every call where Python may not write bytecode) skips compiling."""
    plan.bytecode.extend(regs.script_path(spec.name) for spec in specs)


def compile_runtime(root: Path) -> list[str]:
    """Write checked-hash .pyc files for the copied runtime; returns the modules compiled
    (every plan that copies the runtime does this when applied)."""
    from .plan import compile_bytecode, stamp_runtime

    done = compile_bytecode(root, [f"{RUNTIME_DIR}/{module}" for module in RUNTIME_MODULES])
    stamp_runtime(root)
    return [rel[len(RUNTIME_DIR) + 1:] for rel in done]


def _plan_missing_scripts(plan: Plan, specs) -> None:
    """Re-render a hook script deleted by hand; never touch one that exists (it is user code)."""
    from .render import render_hook_files

    for spec in specs:
        script = regs.script_path(spec.name)
        if spec.template == EXTERNAL:  # hookwrap's own bridge script: always kept current
            plan.add(script, render_hook_files(spec)[script].encode())
        elif not (plan.root / script).exists():
            files = render_hook_files(spec)
            plan.add(script, files[script].encode(), detail=["script was missing"])


def sync_plan(root: Path) -> Plan:
    """What it takes for the runtime, the scripts and both settings files to match the manifest."""
    manifest = load_manifest(root)
    plan = Plan(root)
    plan.warnings.extend(manifest.warnings)
    plan.warnings.extend(_beyond_platforms(manifest))
    plan_runtime(plan)
    _plan_missing_scripts(plan, manifest.hooks)
    _plan_guard_upgrades(plan, manifest.hooks)
    _plan_hook_bytecode(plan, manifest.hooks)
    plan_settings(plan, manifest)
    _plan_startup(plan, manifest)
    if any(p in WINDOWS_FIELDS for spec in manifest.hooks for p in spec.platforms):
        # What the probe on Windows found, when it wrote another word than every machine would.
        plan.warnings.extend(_windows_choice(getattr(manifest, "python_windows", None))[1])
    plan.warnings.extend(_windows_only_word(manifest))
    return plan


def _windows_only_word(manifest) -> list[str]:
    """python_windows names `py` (only Windows has it) while a CLI with one command for every
    OS runs a hook: that command then starts nowhere else (docs/windows.md)."""
    setting = getattr(manifest, "python_windows", None)
    if not setting or setting.split()[0].lower() != "py":
        return []
    labels = sorted({setup_of(p).label for spec in manifest.hooks for p in spec.platforms
                     if p.value in ONE_COMMAND})
    if not labels:
        return []
    return [f"{MANIFEST}: python_windows = {setting!r}, and {', '.join(labels)} run one command "
            "on every OS: `py` is only on Windows, so macOS and Linux cannot start those hooks "
            '(set a word every machine has, e.g. python_windows = "python")']


def _beyond_platforms(manifest) -> list[str]:
    """A hook that lists a CLI the top-level ``platforms`` no longer names stays registered
    there (stopping a CLI takes both edits: docs/getting-started.md): say so, once per CLI."""
    beyond: dict[Platform, list[str]] = {}
    for spec in manifest.hooks:
        for platform in spec.platforms:
            if platform not in manifest.platforms:
                beyond.setdefault(platform, []).append(spec.name)
    return [f"{MANIFEST}: platforms leaves out {platform.value}, but {', '.join(names)} "
            f"{'lists' if len(names) == 1 else 'list'} it: still registered on "
            f"{setup_of(platform).label} (remove {platform.value} from the hook's platforms too, "
            "or add it back to platforms)" for platform, names in beyond.items()]


def guard_scripts(root: Path, specs):
    """(spec, script, text) of each guard hook whose script reads as text."""
    for spec in specs:
        rel = regs.script_path(spec.name)
        if spec.template == "guard":
            try:
                yield spec, rel, read_capped(root / rel).decode("utf-8")
            except (OSError, UnicodeDecodeError):  # NotARegularFile: doctor's startup says so
                continue


def guard_upgrades(root: Path, specs):
    """(script, Upgrade) for each guard hook whose script an older hookwrap rendered."""
    from .guard_upgrade import is_old_guard, plan_upgrade

    found = []
    for spec, rel, text in guard_scripts(root, specs):
        if not is_old_guard(text):  # current: nothing to render (jinja2 and the template
            continue                # are ~40 ms of CPU of a sync that changes nothing)
        from .render import render_hook_files

        upgrade = plan_upgrade(text, spec.name, render_hook_files(spec)[rel])
        if upgrade.action != "current":
            found.append((rel, upgrade))
    return found


def _plan_guard_upgrades(plan: Plan, specs) -> None:
    """A guard rendered by an older hookwrap: replaced by the new one (its policy edits
    carried), or left alone with a note that says what to do (guard_upgrade.py)."""
    for rel, upgrade in guard_upgrades(plan.root, specs):
        if upgrade.action == "keep":
            plan.notes.extend(upgrade.notes)
        else:
            plan.add(rel, upgrade.text.encode(), detail=upgrade.notes)


def _plan_startup(plan: Plan, manifest) -> None:
    """Faults that keep hooks from starting at all, which no file change of sync's repairs."""
    from .startup import interpreter_missing, script_errors

    plan.problems.extend(script_errors(plan.root, [spec.name for spec in manifest.hooks],
                                       blocking_names(manifest)))
    if manifest.hooks:
        error = interpreter_missing(python_of(manifest))
        if error:
            plan.problems.append(f"hookwrap.toml: python: {error}")


def init_plan(root: Path, platforms: tuple[Platform, ...] | None = None) -> Plan:
    """Create the manifest when missing, copy the runtime, and sync what the manifest holds.

    ``platforms`` (``init --platform``) becomes a new manifest's top-level ``platforms``;
    without it a new manifest gets the CLIs whose folders the repo has, else Claude Code and
    Gemini CLI. In an initialised project, ``platforms`` adds CLIs (projectclis.add_platforms).
    """
    from .manifest import Manifest, new_manifest_text
    from .projectclis import add_platforms, new_platforms, refuse_nested

    plan = Plan(root)
    path = root / MANIFEST
    if path.is_file():
        manifest = Manifest.load(path)
        if platforms:
            manifest = add_platforms(plan, manifest, platforms)
        plan.add(MANIFEST, manifest.dumps().encode())
    else:
        from .scope import current

        if not current().user:  # the user's folder is no repo's
            refuse_nested(root)
        chosen, notes = new_platforms(root, platforms)
        text = new_manifest_text(chosen)
        manifest = Manifest.loads(text, MANIFEST)
        plan.add(MANIFEST, text.encode())
        plan.notes.extend(notes)
    from .scopefiles import require

    require(manifest.platforms)
    plan_runtime(plan)
    _plan_missing_scripts(plan, manifest.hooks)
    plan_settings(plan, manifest)
    return plan


def parse_platforms(value: str | list[str] | tuple[str, ...] | None,
                    default: tuple[Platform, ...] | None = None) -> tuple[Platform, ...]:
    """Platform names (one, or a list: ``--platform`` repeated), or ``all`` / nothing: the
    ``default`` (the manifest's ``platforms``, else every platform a hook goes to by default)."""
    from .hookentry import ALL_PLATFORMS

    values = [value] if isinstance(value, str) or value is None else list(value)
    values = [v for v in values if v not in (None, "")]
    if not values or "all" in values:
        return default or ALL_PLATFORMS
    names = ", ".join(p.value for p in Platform)
    try:
        return tuple(dict.fromkeys(Platform(v) for v in values))
    except ValueError:
        bad = next(v for v in values if v not in {p.value for p in Platform})
        raise UsageError(f"unknown platform {bad!r}", hint=f"use {names} or all") from None


def refuse_taken(manifest, name: str) -> None:
    """ConflictError when ``manifest`` has a hook named ``name`` already."""
    if manifest.get(name) is not None:
        raise ConflictError(f"a hook named {name!r} is already in {MANIFEST}",
                            hint=f"choose another name, or `hookwrap remove {name}` first")


def plan_new_files(plan: Plan, spec) -> None:
    from .render import render_hook_files

    script = regs.script_path(spec.name)
    for rel, text in render_hook_files(spec).items():
        if rel != script and (plan.root / rel).is_file():
            # The hook's data (a context hook's .md) outlives `remove` when edited: reuse it.
            plan.notes.append(f"kept the existing {rel}")
            continue
        change = plan.add(rel, text.encode())
        if change.action == "update":
            raise ConflictError(f"{rel} already exists and hookwrap did not write it",
                                hint="move it away or pick another hook name")


def answer_warnings(spec, returns: frozenset[str] | None) -> list[str]:
    """What each CLI of ``spec`` cannot do with an answer the hook may give (``returns``: the
    parts of a HookOutput it can return, None for anything), one line per CLI. A hook that may
    answer anything (a skeleton, an external hook) on more than ``_SPELLED_OUT`` such CLIs gets
    one line naming each part and its CLIs instead (the docs give each CLI's text); a limit
    that holds whatever the hook answers (an event a CLI never awaits) keeps its own line."""
    from .words import join

    lines: list[tuple[str, list[str], list[str]]] = []  # (label, always, the parts' texts)
    unknown: dict[str, list[str]] = {}  # part -> the CLIs that cannot do it
    for platform in spec.platforms:
        agent = setup_of(platform)
        limits = agent.runtime.limits.get(spec.event, ())
        lines.append((agent.label, [text for part, text in limits if not part],
                      [text for part, text in limits
                       if part and (returns is None or part in returns)]))
        for part, _ in limits if returns is None else ():
            if part:
                unknown.setdefault(part, []).append(agent.label)
    collapse = returns is None and sum(1 for _, _, said in lines if said) > _SPELLED_OUT
    warnings = [f"{label}: {'; '.join(always + ([] if collapse else said))}"
                for label, always, said in lines if always or (said and not collapse)]
    if collapse:
        listed = "; ".join(f"{part} on {join(clis)}" for part, clis in unknown.items())
        warnings.append(f"{spec.name} may answer anything, and some answers do not work on every "
                        f"CLI: {listed} (what each does instead: docs/writing-hooks.md, \"What "
                        "each CLI cannot do\")")
    return warnings


def timeout_warnings(spec) -> list[str]:
    """A timeout past the longest a CLI of ``spec`` gives a hook: registered cut to it."""
    warnings = []
    for platform in spec.platforms:
        facts = setup_of(platform).facts
        if spec.timeout and facts.max_timeout_s and spec.timeout > facts.max_timeout_s:
            warnings.append(f"{setup_of(platform).label}: timeout {spec.timeout} s is cut to "
                            f"{facts.max_timeout_s} s: {facts.max_timeout_why}")
    return warnings


_SPELLED_OUT = 2  # CLIs whose limits `add` writes out one line each for a hook of any answer


def add_plan(root: Path, *, event: str, name: str, template: str | None = None,
             matcher: str | None = None, platforms: str | list[str] | None = None,
             timeout: int | None = None, resident: bool = False,
             commands: tuple[str, ...] = ()) -> Plan:
    """Render a hook, record it in the manifest, and register it on each platform."""
    from .hookentry import new_entry

    manifest = load_manifest(root, editable=True)
    refuse_taken(manifest, name)  # an invalid name is no hook's: new_entry says what is wrong
    # Checked by the same rules as an entry read from hookwrap.toml, with the template's defaults.
    spec, name_warnings = new_entry(name=name, event=event, template=template, matcher=matcher,
                                    platforms=parse_platforms(platforms, manifest.platforms),
                                    timeout=timeout, resident=resident, commands=commands)
    found, skipped = registrations_in(spec, manifest)
    if not found:
        raise UsageError(f"{spec.event.value} exists on none of the chosen platforms",
                         hint="; ".join(skipped) or "choose another --platform")
    manifest.add(spec)
    plan = Plan(root)
    plan.warnings.extend(name_warnings)
    for platform in parse_platforms(platforms, manifest.platforms):
        if platform not in spec.platforms:
            there = ", ".join(setup_of(p).label for p in spec.platforms)
            plan.warnings.append(f"{setup_of(platform).label} has no {spec.event.value} "
                                 f"event: {name} is registered on {there} only")
    plan.notes.extend(_serve_notes(spec.name, found, port_of(manifest)))
    plan_added(plan, manifest, spec)
    _plan_hook_bytecode(plan, [spec])
    return plan


def plan_added(plan: Plan, manifest, spec) -> None:
    """The rest of `add` for ``spec``, in ``manifest`` now: what its CLIs cannot do with its
    answers and timeout, its files, the manifest, the runtime and every settings file."""
    info = _template_info(spec.template)  # None for an external hook, which may answer anything
    plan.warnings.extend(answer_warnings(spec, info.returns if info is not None else None))
    plan.warnings.extend(timeout_warnings(spec))
    plan_new_files(plan, spec)
    plan.add(MANIFEST, manifest.dumps().encode())
    plan_runtime(plan)
    plan_settings(plan, manifest)


def _serve_notes(name: str, found, port: int) -> list[str]:
    """What a resident hook needs: `hookwrap serve` running, and what each CLI that posts to
    it does until it runs (docs/resident.md, "Failing closed")."""
    notes = []
    for reg in found:
        if reg.handler.get("type") != "http":
            continue
        agent = setup_of(reg.platform)
        label = agent.label
        # The CLI's fail-closed switch (Claude's onFailure: "block", pi's failClosed: true).
        if agent.facts.fail_closed_key and reg.handler.get(agent.facts.fail_closed_key) == agent.facts.fail_closed_value:
            until = f"{label} blocks every call {name} matches"
        else:
            until = f"{label} reports {name} as a failed hook on every call and goes on without it"
        notes.append(f"{label} posts {name} to `hookwrap serve` (127.0.0.1:{port}): until it "
                     f"runs, {until}. Start it: `hookwrap serve` (or `hookwrap serve "
                     "--print-service systemd|launchd` to keep it running); a server already "
                     f"running picks {name} up by itself")
        if agent.facts.resident_cost:
            notes.append(agent.facts.resident_cost)
    # A hook on two events of one CLI (Claude Code's PreToolUse and PreSkillShellCommand) is
    # said once.
    return list(dict.fromkeys(notes))


def _committed(root: Path, rel: str) -> bool:
    """Whether git's HEAD holds exactly the working copy of ``rel`` (False without git)."""
    import subprocess

    try:
        tracked = subprocess.run(["git", "-C", str(root), "ls-files", "--error-unmatch", "--", rel],
                                 capture_output=True, timeout=30, check=False)
        same = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD", "--", rel],
                              capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return tracked.returncode == 0 and same.returncode == 0


def _in_git(root: Path) -> bool:
    """Whether ``root`` is inside a git work tree (a .git folder or file here or above)."""
    return any((folder / ".git").exists() for folder in (root, *root.parents))


def remove_plan(root: Path, *, name: str) -> Plan:
    """Delete a hook's script, its manifest entry and its registrations."""
    from .render import render_hook_files

    manifest = load_manifest(root, editable=True)
    spec = manifest.get(name)
    if spec is None:
        raise ProjectError(f"no hook named {name!r} in {MANIFEST}",
                           hint="`hookwrap list` shows the hooks")
    manifest.remove(name)
    plan = Plan(root)
    for rel, text in render_hook_files(spec).items():
        path = root / rel
        edited = path.is_file() and path.read_bytes() != text.encode()
        if not edited:
            plan.add(rel, None)
        elif rel != regs.script_path(name):
            # The hook's data (a context hook's .md): `add` reuses it, so it stays.
            plan.notes.append(f"kept {rel}: it was edited (delete it by hand if unneeded)")
        elif _committed(root, rel):
            plan.add(rel, None)
            plan.notes.append(f"removed {rel}, which had your edits: git has them (committed)")
        else:
            # The user's work, which nothing else holds: never deleted.
            why = "edits that are not committed to git" if _in_git(root) else \
                "edits, and no git repository holds a copy"
            plan.notes.append(f"kept {rel}: it has {why} (delete it by hand once you no longer "
                              "need it)")
    plan.add(MANIFEST, manifest.dumps().encode())
    plan_settings(plan, manifest)
    return plan
