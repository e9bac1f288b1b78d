"""Which CLIs a project is for: chosen (and said why) when it is created, added to it later
with `init --platform`, and where a project may start at all."""

from __future__ import annotations

from pathlib import Path

from ..names import Platform
from ..options import MANIFEST
from .clis import setup_of
from .errors import ProjectError, UsageError
from .plan import Plan
from .words import join


def _folders(platform: Platform) -> tuple[str, ...]:
    """The folders whose presence says the repo uses a CLI: its record's ``config_folders``,
    else the top folder of its project settings file (``.claude``)."""
    agent = setup_of(platform)
    return agent.facts.config_folders or (Path(agent.facts.settings_file).parts[0],)


def _found_folder(root: Path, platform: Platform) -> str | None:
    return next((f for f in _folders(platform) if (root / f).is_dir()), None)


def detected_platforms(root: Path) -> tuple[Platform, ...] | None:
    """The CLIs whose folder (``.claude``, ``.codex``, ...) the repo already has, or None."""
    found = tuple(p for p in Platform if _found_folder(root, p))
    return found or None


def new_platforms(root: Path, given: tuple[Platform, ...] | None = None
                  ) -> tuple[tuple[Platform, ...], list[str]]:
    """The platforms of a new manifest, and notes that say which and why: ``given``
    (``--platform``), else the CLIs whose folders the repo has, else hookwrap's default."""
    from .hookentry import ALL_PLATFORMS
    from .scope import current

    user = current().user  # the user scope's folder is no repo: no CLI folders to look at
    found = () if user else detected_platforms(root)
    if given:
        chosen, why = given, "from --platform"
    elif found:
        chosen, why = found, "the repo has " + join([f"{_found_folder(root, p)}/" for p in found])
    else:
        chosen, why = ALL_PLATFORMS, "the default" if user else \
            "the default: the repo has no CLI's folder yet"
    notes = [f"platforms: {', '.join(p.value for p in chosen)} ({why})"]
    others = [p.value for p in Platform if p not in chosen]
    if others:
        notes.append(f"hookwrap also supports {join(others)}; add one with "
                     f"`hookwrap {'--user ' if user else ''}init --platform NAME`")
    return chosen, notes


def enclosing_project(root: Path) -> Path | None:
    """The hookwrap project ``root`` lies inside: the nearest parent holding hookwrap.toml,
    within the same git repository. A folder that is the top of its own git repository (a
    submodule, a nested clone) belongs to no project above it: the CLIs that look for the
    project's root stop at its git root too."""
    if (root / ".git").exists():
        return None
    for directory in root.resolve().parents:
        if (directory / MANIFEST).is_file():
            return directory
        if (directory / ".git").exists():
            return None
    return None


def refuse_nested(root: Path) -> None:
    """Raise ProjectError when `init` in ``root`` would start a project inside another."""
    enclosing = None if (root / MANIFEST).is_file() else enclosing_project(root)
    if enclosing is not None:
        raise ProjectError(
            f"{root} is inside the hookwrap project at {enclosing}: init here would start a "
            "second project nested in it",
            hint=f"every hookwrap command run here uses that project; to re-run init, run "
                 f"`hookwrap -C {enclosing} init` (only a folder that is its own git "
                 "repository can hold a project of its own)")


def add_platforms(plan: Plan, manifest, platforms: tuple[Platform, ...]):
    """`init --platform` in a project: add the CLIs it does not have yet to ``platforms``, and
    to every hook that runs on each of the project's CLIs (its event allowing); a hook limited
    to some of them keeps its list. Returns the manifest as written."""
    from .hookentry import check_matcher
    from .manifest import Manifest

    old = manifest.platforms
    added = tuple(p for p in platforms if p not in old)
    if not added:
        return manifest
    manifest.set_platforms(old + added)
    names = join([p.value for p in added])
    plan.notes.append(f"platforms: {', '.join(p.value for p in old + added)} (added {names})")
    for spec in manifest.hooks:
        if not manifest.own_platforms(spec.name):
            continue  # it follows the top-level platforms already
        everywhere = [p for p in old if spec.event in setup_of(p).runtime.event_names()]
        if not set(everywhere) <= set(spec.platforms):
            own = ", ".join(p.value for p in spec.platforms)
            plan.notes.append(f"{spec.name} keeps its own platforms ({own}): add {names} to "
                              f"them in [hooks.{spec.name}] if it should run there too")
            continue
        extended = list(spec.platforms)
        for platform in added:
            label = setup_of(platform).label
            if platform in extended:
                continue
            if spec.event not in setup_of(platform).runtime.event_names():
                plan.warnings.append(f"{label} has no {spec.event.value} event: {spec.name} "
                                     "is not registered there")
                continue
            try:
                check_matcher(spec.matcher, spec.event, (*extended, platform))
            except UsageError as error:
                plan.warnings.append(f"{spec.name} is not registered on {label}: "
                                     f"{error.message}")
                continue
            extended.append(platform)
        if len(extended) > len(spec.platforms):
            manifest.set_hook_platforms(spec.name, tuple(extended))
    return Manifest.loads(manifest.dumps(), MANIFEST)
