"""Doctor's version check: which release of each of the project's CLIs is on PATH, whether the
tests cover it (generator/pins.txt: from the oldest release checked to the pinned one), and what
an older release does to this repo's hooks where the record knows (``version_notes``).

The version is read without running anything where possible: an npm install's ``package.json``
beside the command (the package that provides the command, found from its real path), or a
native install's versioned file name (``.../versions/2.1.332``). Otherwise the command runs
once with ``--version``: stdin closed, a short timeout, from its own folder. A command inside
the project is never run (it would be the project's code), and nothing is written anywhere.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from ..generator.clis import setup_of
from ..generator.clis._base import AgentSetup
from ..generator.clis.kit import OK, WARN, Finding
from ..generator.pins import find_version, version_key
from ..names import Platform

CHECK = "cli-versions"
VERSION_TIMEOUT_S = 5.0
_PACKAGE_LEVELS = 4  # node_modules/<scope>/<pkg>/bin/<file>: the package is at most this far up


def installed_version(agent: AgentSetup, root: Path, env: Mapping[str, str]
                      ) -> tuple[Path | None, str, str]:
    """(the command on PATH or None, its version or "", why there is none)."""
    found = shutil.which(agent.executable, path=env.get("PATH", ""))
    if found is None:
        return None, "", "not on PATH"
    path = Path(found).absolute()
    real = path.resolve()
    for candidate in (path, real):
        if candidate.is_relative_to(root.resolve()) or candidate.is_relative_to(root):
            return path, "", "not run: it is inside this project"
    version = _from_package(agent, real) or _from_file_name(real)
    if version:
        return path, version, ""
    return path, *_from_run(real, env)


def _from_package(agent: AgentSetup, real: Path) -> str:
    """The version in the package.json of the npm package that provides the command."""
    for folder in list(real.parents)[:_PACKAGE_LEVELS]:
        manifest = folder / "package.json"
        if not manifest.is_file():
            continue
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return ""
        if not isinstance(data, dict):
            return ""
        bins = data.get("bin")
        provides = agent.executable in bins if isinstance(bins, dict) else isinstance(bins, str)
        if provides or data.get("name") == agent.npm_package:
            return find_version(str(data.get("version", "")))
        return ""
    return ""


def _from_file_name(real: Path) -> str:
    """A native installer keeps each release as ``versions/<version>``."""
    if real.parent.name == "versions":
        version = find_version(real.name)
        return version if version == real.name else ""
    return ""


def _from_run(real: Path, env: Mapping[str, str]) -> tuple[str, str]:
    try:
        proc = subprocess.run([str(real), "--version"], capture_output=True, text=True,
                              check=False, timeout=VERSION_TIMEOUT_S, env=dict(env),
                              stdin=subprocess.DEVNULL, cwd=real.parent)
    except subprocess.TimeoutExpired:
        return "", f"`{real.name} --version` did not answer within {VERSION_TIMEOUT_S:g} s"
    except OSError as error:
        return "", f"`{real.name} --version` could not run ({error.strerror or error})"
    version = find_version(proc.stdout) or find_version(proc.stderr)
    return (version, "") if version else ("", f"`{real.name} --version` printed no version")


def version_findings(agent: AgentSetup, version: str, path: Path,
                     events: set[str]) -> list[Finding]:
    """What ``version`` of ``agent`` means here: outside the tested range, and each note of
    the record that concerns an event this repo's hooks use."""
    label, pinned, oldest = agent.label, agent.version, agent.oldest_version
    tested = pinned if oldest == pinned else f"{oldest} to {pinned}"
    out = []
    if version_key(version) > version_key(pinned):
        out.append(Finding(CHECK, WARN, f"{label} {version} ({path}) is newer than the releases "
                           f"hookwrap's tests cover ({tested}): its hooks may read or answer "
                           "differently", f"run `hookwrap test` on your hooks; pin {label} "
                           f"{pinned} if they misbehave"))
    elif version_key(version) < version_key(oldest):
        out.append(Finding(CHECK, WARN, f"{label} {version} ({path}) is older than the releases "
                           f"hookwrap's tests cover ({tested})", f"update {label} to {pinned}"))
    for since, event, note in agent.version_notes:
        if event.value in events and version_key(version) < version_key(since):
            out.append(Finding(CHECK, WARN, f"{label} {version} {note}",
                               f"update {label} to {since} or newer"))
    return out


def check_versions(root: Path, platforms: tuple[Platform, ...], events: dict[Platform, set[str]],
                   env: Mapping[str, str]) -> list[Finding]:
    """Doctor's finding for each of ``platforms`` whose CLI is on PATH; ``events``: the
    normalized events this repo's hooks use on each."""
    out, seen = [], []
    for platform in platforms:
        agent = setup_of(platform)
        path, version, why = installed_version(agent, root, env)
        if path is None:
            continue
        if not version:
            out.append(Finding(CHECK, WARN, f"{agent.label} at {path}: version unknown ({why})",
                               f"check that it is {agent.version} "
                               f"(`{agent.executable} --version`)"))
            continue
        found = version_findings(agent, version, path, events.get(platform, set()))
        out += found
        if not found:
            seen.append(f"{agent.label} {version}")
    if seen:
        out.append(Finding(CHECK, OK, f"tested releases on PATH: {', '.join(seen)}"))
    return out or [Finding(CHECK, OK, "none of this project's CLIs is on PATH")]


def project_platforms(manifest) -> tuple[tuple[Platform, ...], dict[Platform, set[str]]]:
    """The manifest's CLIs, and the events its hooks use on each."""
    events: dict[Platform, set[str]] = {p: set() for p in manifest.platforms}
    for spec in manifest.hooks:
        for platform in spec.platforms:
            events.setdefault(platform, set()).add(str(spec.event))
    return tuple(events), events


