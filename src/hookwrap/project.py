"""The generator's core: init, add, remove, sync and list as plans over a project directory."""

from __future__ import annotations

from pathlib import Path

from . import registrations as regs
from .errors import ConflictError, ManifestError, ProjectError, SettingsError, UsageError
from .plan import Plan
from .platforms import NORMALIZED_TO_EVENT, NormalizedEvent, Platform

MANIFEST = "hookwrap.toml"
RUNTIME_DIR = ".hookwrap/lib/hookwrap"
# The stdlib-only runtime copied into every project so hooks run where hookwrap is not installed.
RUNTIME_MODULES = ("__init__.py", "_dataclasses.py", "platforms.py", "tools.py", "hookinput.py",
                   "hookoutput.py", "protocol.py", "runner.py")
HOOKWRAP_GITIGNORE = "# written by hookwrap: run-time files that do not belong in git\n" \
                     "__pycache__/\nlogs/\nstate/\n.lock\n"


def find_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` that holds hookwrap.toml."""
    start = start.resolve()
    for directory in (start, *start.parents):
        if (directory / MANIFEST).is_file():
            return directory
    raise ProjectError(f"no {MANIFEST} in {start} or any parent directory",
                       hint="run `hookwrap init` at the root of your project first")


def load_manifest(root: Path, *, editable: bool = False):
    """The project's manifest (raises ManifestError on a broken file); read-only unless
    ``editable``, which costs a tomlkit parse."""
    from .manifest import Manifest

    path = root / MANIFEST
    if not path.is_file():
        raise ProjectError(f"{MANIFEST} not found in {root}", hint="run `hookwrap init` first")
    return Manifest.load(path) if editable else Manifest.read(path)


def _python(manifest) -> str:
    return getattr(manifest, "python", None) or "python3"


def _template_info(template: str):
    from .render import TEMPLATES

    return TEMPLATES.get(template)


def spec_registrations(spec, python: str = "python3"):
    """Registrations and warnings for one manifest entry, with its template's policy."""
    info = _template_info(spec.template)
    return regs.registrations_for(
        spec, fail_closed=bool(info and info.fail_closed),
        summary=info.summary if info else "", python=python)


def manifest_registrations(spec, python: str = "python3"):
    """spec_registrations for an entry read from hookwrap.toml: a value the manifest's syntax
    allows but a platform cannot take is the manifest's error, named by its key."""
    try:
        return spec_registrations(spec, python)
    except UsageError as error:
        raise ManifestError(f"{MANIFEST}: hooks.{spec.name}.matcher: {error.message}",
                            hint=error.hint) from None


def _desired(specs, python: str) -> tuple[dict[Platform, list], list[str]]:
    desired: dict[Platform, list] = {p: [] for p in Platform}
    warnings: list[str] = []
    for spec in specs:
        found, skipped = manifest_registrations(spec, python)
        warnings.extend(skipped)
        for registration in found:
            desired[registration.platform].append(registration)
    return desired, warnings


def read_settings_text(root: Path, platform: Platform) -> str | None:
    """The settings file's text, or None when it does not exist."""
    rel = regs.SETTINGS_FILES[platform]
    path = root / rel
    if not path.exists():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise SettingsError(f"{rel}: not UTF-8 text (byte {error.start})",
                            hint="fix the file by hand, then run hookwrap sync") from None
    except OSError as error:
        raise SettingsError(f"{rel}: cannot read it ({error.strerror})") from None


def _plan_settings(plan: Plan, specs, python: str) -> None:
    from .settings import reconcile

    desired, warnings = _desired(specs, python)
    plan.warnings.extend(warnings)
    for platform in Platform:
        rel = regs.SETTINGS_FILES[platform]
        text = read_settings_text(plan.root, platform)
        result = reconcile(text, platform, desired[platform], label=rel)
        detail = [f"{c.action} {c.name} ({c.detail})" if c.detail else f"{c.action} {c.name}"
                  for c in result.changes if c.action != "unchanged"]
        new = None if result.new_text is None else result.new_text.encode("utf-8")
        # A symlinked settings file left empty is written as {} through the link, never
        # unlinked: its target may be shared, and would keep a stale hookwrap entry.
        plan.add(rel, new, detail=detail, keep_link_as=b"{}\n")
        if result.new_text is not None and platform is Platform.CLAUDE and desired[platform]:
            # Gemini only warns about invalid entries and skips them one by one; Claude Code
            # drops their neighbours too. Only a file holding hookwrap's hooks can hurt them.
            events = {r.event: r.name for r in desired[platform]}
            plan.problems.extend(_invalid_entries(result.new_text, platform, rel, events))


def _invalid_entries(text: str, platform: Platform, rel: str, events: dict[str, str]) -> list[str]:
    """Errors in entries hookwrap does not own that take hookwrap's hooks down with them.

    Claude Code drops every hook of an event when one entry of it is invalid, and a file-level
    error drops the whole file. ``events`` maps each event hookwrap writes to one hook name.
    """
    from .schema import validate_settings
    from .settings import parse_settings

    label = regs.PLATFORM_LABELS[platform]
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


def _plan_runtime(plan: Plan) -> None:
    source = Path(__file__).resolve().parent
    for module in RUNTIME_MODULES:
        plan.add(f"{RUNTIME_DIR}/{module}", (source / module).read_bytes())
    target = plan.root / RUNTIME_DIR
    if target.is_dir():
        for extra in sorted(target.glob("*.py")):
            if extra.name not in RUNTIME_MODULES:
                plan.add(f"{RUNTIME_DIR}/{extra.name}", None, detail=["not part of this runtime"])
    plan.add(".hookwrap/.gitignore", HOOKWRAP_GITIGNORE.encode())


def compile_runtime(root: Path) -> list[str]:
    """Write checked-hash .pyc files for the copied runtime; returns the modules compiled.

    Python caches bytecode itself, unless PYTHONDONTWRITEBYTECODE is set (common in
    containers) or the checkout is read-only: then every hook call recompiles the runtime,
    ~12 ms. Checked-hash files (PEP 552) stay valid across git checkouts, which reset mtimes.
    They are a cache, not project state: `sync --check` ignores them and git ignores them.
    """
    import importlib.util
    import py_compile

    from .fsutil import is_safe_path

    if not is_safe_path(root, f"{RUNTIME_DIR}/__pycache__/x.pyc"):
        return []  # a cache: never written through a symlink (fsutil.check_path)
    compiled = []
    for module in RUNTIME_MODULES:
        source = root / RUNTIME_DIR / module
        if not source.is_file():
            continue
        cache = Path(importlib.util.cache_from_source(str(source)))
        expected = importlib.util.source_hash(source.read_bytes())
        try:
            current = cache.read_bytes()[8:16]
        except OSError:
            current = b""
        if current != expected:
            py_compile.compile(str(source), cfile=str(cache), doraise=False, quiet=2,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
            compiled.append(module)
    return compiled


def _plan_missing_scripts(plan: Plan, specs) -> None:
    """Re-render a hook script deleted by hand; never touch one that exists (it is user code)."""
    from .render import render_hook_files

    for spec in specs:
        script = regs.script_path(spec.name)
        if not (plan.root / script).exists():
            files = render_hook_files(spec)
            plan.add(script, files[script].encode(), detail=["script was missing"])


def sync_plan(root: Path) -> Plan:
    """What it takes for the runtime, the scripts and both settings files to match the manifest."""
    manifest = load_manifest(root)
    plan = Plan(root)
    _plan_runtime(plan)
    _plan_missing_scripts(plan, manifest.hooks)
    _plan_settings(plan, manifest.hooks, _python(manifest))
    return plan


def init_plan(root: Path) -> Plan:
    """Create the manifest when missing, copy the runtime, and sync what the manifest holds."""
    from .manifest import Manifest, new_manifest_text

    plan = Plan(root)
    path = root / MANIFEST
    if path.is_file():
        manifest = Manifest.load(path)
        plan.add(MANIFEST, path.read_bytes())
    else:
        text = new_manifest_text()
        manifest = Manifest.loads(text, MANIFEST)
        plan.add(MANIFEST, text.encode())
    _plan_runtime(plan)
    _plan_missing_scripts(plan, manifest.hooks)
    _plan_settings(plan, manifest.hooks, _python(manifest))
    return plan


def parse_event(value: str) -> NormalizedEvent:
    """A NormalizedEvent from its value; the error lists every valid one."""
    try:
        return NormalizedEvent(value)
    except ValueError:
        valid = ", ".join(e.value for e in NormalizedEvent)
        raise UsageError(f"unknown event {value!r}", hint=f"valid events: {valid}") from None


def parse_platforms(value: str | None) -> tuple[Platform, ...]:
    """``claude``, ``gemini`` or ``all`` (the default)."""
    if value in (None, "", "all"):
        return (Platform.CLAUDE, Platform.GEMINI)
    try:
        return (Platform(value),)
    except ValueError:
        raise UsageError(f"unknown platform {value!r}", hint="use claude, gemini or all") from None


def _with_event(platforms: tuple[Platform, ...], event: NormalizedEvent) -> tuple[Platform, ...]:
    """Only the platforms that have ``event``, so the manifest says where the hook really runs
    (or all of them, to let the caller report that none has it)."""
    present = tuple(p for p in platforms if event in NORMALIZED_TO_EVENT[p])
    return present or platforms


def build_spec(manifest, *, event: str, name: str, template: str | None, matcher: str | None,
               platforms: str | None, timeout: int | None):
    """The manifest entry `hookwrap add` would create, with the template's defaults."""
    from .manifest import HookSpec, check_name
    from .render import TEMPLATES, check_event, choose_template

    check_name(name)
    normalized = parse_event(event)
    if manifest.get(name) is not None:
        raise ConflictError(f"a hook named {name!r} is already in {MANIFEST}",
                            hint=f"choose another name, or `hookwrap remove {name}` first")
    chosen = choose_template(name, template)
    check_event(chosen, normalized)
    info = TEMPLATES[chosen]
    if timeout is not None and timeout <= 0:
        raise UsageError(f"--timeout must be a positive number of seconds, not {timeout}",
                         hint="leave it out for the template's default, e.g. --timeout 30")
    if matcher is not None:
        matcher = "|".join(regs.split_matcher(matcher))  # "shell | write_file" -> "shell|write_file"
    elif any(normalized in regs.TOOL_EVENTS[p] for p in Platform):
        matcher = info.default_matcher
    return HookSpec(name=name, event=normalized, template=chosen, matcher=matcher or None,
                    platforms=_with_event(parse_platforms(platforms), normalized),
                    timeout=timeout if timeout is not None else info.default_timeout,
                    options=dict(info.default_options))


def _plan_new_files(plan: Plan, spec) -> None:
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


def add_plan(root: Path, *, event: str, name: str, template: str | None = None,
             matcher: str | None = None, platforms: str | None = None,
             timeout: int | None = None) -> Plan:
    """Render a hook, record it in the manifest, and register it on each platform."""
    manifest = load_manifest(root, editable=True)
    spec = build_spec(manifest, event=event, name=name, template=template, matcher=matcher,
                      platforms=platforms, timeout=timeout)
    found, skipped = spec_registrations(spec, _python(manifest))
    name_warnings = []
    if any(spec.event in regs.TOOL_EVENTS[p] for p in spec.platforms):
        name_warnings = regs.check_tool_names(spec.matcher)
    if not found:
        raise UsageError(f"{spec.event.value} exists on none of the chosen platforms",
                         hint="; ".join(skipped) or "choose another --platform")
    if spec.matcher and not any(spec.event in regs.TOOL_EVENTS[p] or
                                spec.event in regs.LIFECYCLE_VALUES[p] for p in spec.platforms):
        raise UsageError(f"{spec.event.value} has no matcher on these platforms: it runs every time",
                         hint="drop --matcher")
    manifest.add(spec)
    plan = Plan(root)
    plan.warnings.extend(name_warnings)
    for platform in parse_platforms(platforms):
        if platform not in spec.platforms:
            there = ", ".join(regs.PLATFORM_LABELS[p] for p in spec.platforms)
            plan.warnings.append(f"{regs.PLATFORM_LABELS[platform]} has no {spec.event.value} "
                                 f"event: {name} is registered on {there} only")
    _plan_new_files(plan, spec)
    plan.add(MANIFEST, manifest.dumps().encode())
    _plan_runtime(plan)
    _plan_settings(plan, manifest.hooks, _python(manifest))
    return plan


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
        if rel == regs.script_path(name):
            plan.add(rel, None)
            if edited:
                plan.notes.append(f"removed {rel}, which had your edits (version control still "
                                  "has them)")
        elif edited:
            plan.notes.append(f"kept {rel}: it was edited (delete it by hand if unneeded)")
        else:
            plan.add(rel, None)
    plan.add(MANIFEST, manifest.dumps().encode())
    _plan_settings(plan, manifest.hooks, _python(manifest))
    return plan
