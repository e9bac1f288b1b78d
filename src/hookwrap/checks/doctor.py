"""The core of `hookwrap doctor`: find what keeps a project's hooks from running as intended.

Each check returns Findings with a one-line fix. Nothing is printed or written here; a check
that finds nothing wrong reports one "ok" finding, so the user sees what was checked.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path

from ..generator import schema
from ..generator.clis import all_setups, setup_of
from ..generator.clis.kit import ERROR, FAIL, OK, WARN, Finding, Problem, Scope
from ..generator.errors import HookwrapError
from ..generator.registrations import script_path
from ..generator.settings import (
    OWNED_COMMAND_RE,
    load_settings,
    lookalikes,
    user_scope_name,
)
from ..generator.words import join
from ..names import Platform
from .host import commands_from_settings
from .scopes import check_scopes
from .unhooked import check_unhooked_shell
from .versions import check_versions, project_platforms

SYNC = "run `hookwrap sync`"
_PROJECT_VARS = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "GEMINI_CWD")
_RELATIVE_SCRIPT = re.compile(r"""(?:^|[\s"'=])((?:\./|\.\./|[\w.-]+/)[^\s"']*\.(?:py|sh|js|mjs|ts|rb|pl))""")


def exit_code(findings: list[Finding]) -> int:
    """0 when every finding is ok, 1 when something needs fixing."""
    return 0 if all(f.status == OK for f in findings) else 1


def findings_to_json(findings: list[Finding]) -> list[dict]:
    """The findings as plain data, for `doctor --json`."""
    return [asdict(f) for f in findings]


def diagnose(root: Path, *, home: Path | None = None, env: Mapping[str, str] | None = None,
             python: str | None = None, run_hooks: bool = True,
             run_untrusted: bool = False, windows: bool | None = None) -> list[Finding]:
    """Run every check on the project at ``root``.

    Args:
        home: the user's home (default ``Path.home()``); user-scope settings are read from it.
        env: the environment the CLIs would see (default ``os.environ``).
        python: the interpreter hooks run with (default: the manifest's, else ``python3``).
        run_hooks: run every registered hook as its CLI would (``hookruns.py``); it runs for
            real, as in `hookwrap test`, but only where a CLI would already run it (a folder
            the user trusts), unless ``run_untrusted``.
        windows: add the Windows checks (``windows.py``); default: when running on Windows.
    """
    env = dict(os.environ if env is None else env)
    home = Path(home) if home is not None else Path.home()
    scopes = load_scopes(root, home, env)
    manifest, found = _manifest(root)
    findings = found + check_parse(scopes)
    if manifest is not None:
        findings += check_registrations(root, manifest, scopes)
        findings += check_orphans(root, manifest, scopes)
    findings += check_lookalikes(scopes)
    findings += check_scripts(root, scopes)
    if manifest is not None:
        findings += check_startup(root, manifest)
        findings += check_guards(root, manifest)
    findings += check_unhooked_shell(root, manifest.platforms if manifest is not None else None)
    if manifest is not None:
        findings += check_external(root, manifest, env)
        findings += check_resident(root, manifest)
    interpreter = python or getattr(manifest, "python", None) or "python3"
    held = "" if run_untrusted or python else _held_interpreter(root, home, env, scopes, interpreter)
    if held:
        findings.append(Finding("python", WARN, f"not run: {held}, and nothing records that you "
                                "trust this folder (so neither is the hook-runs check)",
                                "`hookwrap trust` records your trust where a CLI asks for it; "
                                "`hookwrap doctor --run-untrusted` runs it anyway, for real"))
    else:
        findings += check_python(interpreter, env)
        findings += check_shim(interpreter, env)
    if manifest is not None:
        findings += check_versions(root, *project_platforms(manifest), env)
    findings += check_schema(scopes)
    findings += check_trust(root, home, scopes, env)
    findings += check_hooks_enabled(scopes)
    findings += check_dead_keys(scopes)
    findings += check_duplicates(scopes)
    findings += check_commands(scopes)
    findings += check_scopes(root)
    if manifest is not None and (os.name == "nt" if windows is None else windows):
        from .windows import check_windows

        findings += check_windows(manifest, scopes, env)
    if manifest is not None and run_hooks:
        from .hookruns import check_hook_runs

        findings += check_hook_runs(root, manifest, scopes, env, home=home,
                                    run_untrusted=run_untrusted)
    return findings


def _held_interpreter(root: Path, home: Path, env: Mapping[str, str], scopes: list[Scope],
                      python: str) -> str:
    """Why the manifest's `python` is not run in a folder nobody trusts ("" when it may be): a
    command line with arguments the repo chose (`bash tools/x.sh`, `uv run python`, which
    builds the project) or a program inside the repo runs the repo's code, as a hook would."""
    import shutil

    from ..generator.registrations import python_words
    from .hookruns import consent

    try:
        words = python_words(python)
    except HookwrapError:
        return ""  # check_python reports a bad `python`
    found = shutil.which(words[0], path=env.get("PATH"))
    inside = found is not None and Path(found).resolve().is_relative_to(root.resolve())
    if len(words) == 1 and not inside:
        return ""
    if consent(root, home, env, scopes).trusted_by:
        return ""
    what = f"{found}, a file of this repo" if inside else f"{words[0]} with the arguments it names"
    return f"hookwrap.toml's python = {python!r} runs {what}"


# ------------------------------------------------------------------------------ loading

def load_scopes(root: Path, home: Path, env: Mapping[str, str]) -> list[Scope]:
    """Every settings file of every CLI that can hold hooks for this project, parsed where it
    exists (each CLI's module names them: project, local and user files)."""
    scopes = [Scope(label, agent.platform, path, project)
              for agent in all_setups() for label, path, project in agent.scopes(root, home, env)]
    for scope in scopes:
        try:
            text, data = load_settings(scope.path, scope.platform, scope.label)
        except HookwrapError as error:
            scope.error = str(error)
        else:
            scope.data = data if text is not None else None
    return scopes


def _manifest(root: Path):
    from ..generator.project import load_manifest

    try:
        return load_manifest(root), []
    except HookwrapError as error:
        return None, [Finding("manifest", FAIL, str(error), error.hint or "run `hookwrap init`")]


def _owned(scopes: list[Scope], *, project_only: bool = False):
    for scope in scopes:
        if scope.data is not None and (scope.project or not project_only):
            for entry in setup_of(scope.platform).owned_entries(scope.data):
                yield scope, entry


def _ok(check: str, message: str) -> list[Finding]:
    return [Finding(check, OK, message)]


def _result(check: str, found: list[Finding], ok: str, scopes: list[Scope], *,
            project_only: bool = False) -> list[Finding]:
    """A check's findings, else one "ok"; and, for each settings file that does not parse (so
    the check could not look at it), a warning that says so, never an "ok"."""
    unread = [s.label for s in scopes if s.error and (s.project or not project_only)]
    if not unread:
        return found or _ok(check, ok)
    files = join(unread)
    verb = "was" if len(unread) == 1 else "were"
    rest = "" if found else f"; in the other files: {ok}"
    return [*found, Finding(check, WARN, f"{files} {verb} not checked: it does not parse "
                            f"(settings-parse){rest}", f"fix {files} by hand, then run "
                            "`hookwrap doctor` again")]


# ------------------------------------------------------------------------------- checks

def check_resident(root: Path, manifest) -> list[Finding]:
    """A CLI posts resident hooks to `hookwrap serve`: is it up, and serving this project?"""
    from ..generator.project import port_of
    from ..generator.resident import UP, resident_hooks, server_state

    names = resident_hooks(manifest)
    if not names:
        return []
    port = port_of(manifest)
    state = server_state(root, port)
    hooks = ", ".join(names)
    if state.state == UP:
        return _ok("resident-server", f"{state.detail}; it answers {hooks}")
    return [Finding("resident-server", FAIL,
                    f"{state.detail}: the resident hooks ({hooks}) fail on every call; a "
                    "fail-closed one (guard) blocks every call it matches, the others are "
                    "skipped with an error",
                    "run `hookwrap serve` (keep it running: `hookwrap serve --print-service "
                    "systemd` or `launchd`), or drop resident = true and run `hookwrap sync`")]


def check_parse(scopes: list[Scope]) -> list[Finding]:
    """Every settings file that exists parses (Claude: JSON; Gemini: JSON with comments)."""
    bad = [Finding("settings-parse", FAIL, s.error, f"fix {s.label} by hand, then {SYNC}")
           for s in scopes if s.error]
    return bad or _ok("settings-parse", "every settings file parses")


def check_registrations(root: Path, manifest, scopes: list[Scope]) -> list[Finding]:
    """Each manifest hook is present and current on each platform it should be on."""
    from ..generator.inventory import CURRENT, MISSING, dropped_status, registration_status
    from ..generator.project import registrations_in

    out: list[Finding] = []
    project = {s.platform: s for s in scopes if s.project}
    for spec in manifest.hooks:
        try:
            wanted, _ = registrations_in(spec, manifest)
        except HookwrapError as error:
            out.append(Finding("registration", FAIL, f"hookwrap.toml: hooks.{spec.name}: {error}",
                               error.hint or "fix the entry in hookwrap.toml"))
            continue
        for reg in wanted:
            scope = project[reg.platform]
            if scope.error:
                continue
            # The same comparison as `list` and `sync`, so the three never disagree.
            events = [r.event for r in wanted if r.platform == reg.platform]
            status = registration_status(reg, setup_of(reg.platform).owned_entries(scope.data or {}),
                                         events)
            if status == MISSING:
                out.append(Finding("registration", FAIL, f"{reg.name} is missing from {scope.label} "
                                   "(removed by hand, or dropped when the CLI rewrote the file)", SYNC))
            elif status != CURRENT:
                out.append(Finding("registration", FAIL, f"{reg.name} in {scope.label} differs from "
                                   "what hookwrap.toml asks for", SYNC))
            elif dropped_status(reg, scope.data or {}):
                # The same judgement as `hookwrap test` and `hookwrap list`.
                out.append(Finding("registration", FAIL, f"{reg.name} in {scope.label} is dropped: "
                                   f"{setup_of(reg.platform).label} skips every {reg.event} hook of "
                                   "the file because of an invalid entry there",
                                   "fix the entry the schema check names, then run `hookwrap test "
                                   f"{reg.name}`"))
        for scope, entry in _owned(scopes, project_only=True):
            if entry.name == spec.name and scope.platform not in spec.platforms:
                out.append(Finding("registration", FAIL, f"{spec.name} is registered in {scope.label} "
                                   f"but hookwrap.toml does not list {scope.platform.value}", SYNC))
    # Once per hook and file, also for a hook on several events of it (Claude Code's before_tool).
    return _result("registration", list(dict.fromkeys(out)), "every hook is registered and current",
                   scopes, project_only=True)


def check_orphans(root: Path, manifest, scopes: list[Scope]) -> list[Finding]:
    """No hookwrap entry or script without a manifest hook."""
    known = {spec.name for spec in manifest.hooks}
    out = [Finding("orphans", FAIL, f"{scope.label}: {entry.name} is registered but not in hookwrap.toml",
                   SYNC if scope.project else f"remove it from {scope.label}")
           for scope, entry in _owned(scopes) if entry.name not in known]
    hooks_dir = root / ".hookwrap" / "hooks"
    for script in sorted(hooks_dir.glob("*.py")) if hooks_dir.is_dir() else ():
        if script.stem not in known:
            out.append(Finding("orphans", WARN, f"{script_path(script.stem)} belongs to no hook in "
                               "hookwrap.toml", f"delete it, or `hookwrap add` a hook named {script.stem}"))
    return _result("orphans", out, "no orphaned entries or scripts", scopes)


def check_lookalikes(scopes: list[Scope]) -> list[Finding]:
    """Entries that run a hookwrap script in a form hookwrap did not write: never changed by
    `sync`, so a hand edit there is not repaired either."""
    out = [Finding("lookalikes", WARN, f"{scope.label}: {found}",
                   "remove it if it duplicates a hook of hookwrap.toml; `hookwrap sync` writes "
                   "hookwrap's own entries")
           for scope in scopes if scope.data for found in lookalikes(scope.data, scope.platform)]
    return _result("lookalikes", out, "no entry imitates hookwrap's commands", scopes)


def check_scripts(root: Path, scopes: list[Scope]) -> list[Finding]:
    """Every script a hookwrap entry runs exists (a missing one exits 2 or 127: both can block)."""
    out = [Finding("scripts", FAIL, f"{scope.label}: {entry.name} runs {script_path(entry.name)}, "
                   "which does not exist", f"{SYNC} (it restores missing scripts), or remove the hook")
           for scope, entry in _owned(scopes) if not (root / script_path(entry.name)).is_file()]
    # Once per file, also for a hook on several events of it (Claude Code's before_tool).
    return _result("scripts", list(dict.fromkeys(out)), "every registered script exists", scopes)


def check_external(root: Path, manifest, env: Mapping[str, str]) -> list[Finding]:
    """An external hook's command must start: its program exists and may run."""
    from ..generator.adopt import command_problem

    external = [spec for spec in manifest.hooks if "speaks" in spec.options]
    out = []
    for spec in external:
        problem = command_problem(root, str(spec.options["command"]), str(spec.options["speaks"]),
                                  env.get("PATH"))
        if problem:
            out.append(Finding("external", FAIL, f"hookwrap.toml: hooks.{spec.name}.command: "
                               f"{problem}", "fix the command in hookwrap.toml, then run "
                               f"`hookwrap test {spec.name}`"))
    return out or (_ok("external", f"{len(external)} external hook command(s) found")
                   if external else [])


def check_python(python: str, env: Mapping[str, str]) -> list[Finding]:
    """The interpreter the registered commands name is on PATH and new enough for the runtime."""
    from ..generator.startup import FLOOR, check_interpreter

    floor = f"{FLOOR[0]}.{FLOOR[1]}"
    fix = f"install Python {floor}+ as python3, or set `python` in hookwrap.toml, then {SYNC}"
    error, version = check_interpreter(python, env)
    if error:
        return [Finding("python", FAIL, error, fix)]
    return _ok("python", f"{python} is Python {version}")


def check_shim(python: str, env: Mapping[str, str]) -> list[Finding]:
    """The interpreter is not a version manager's shim, which every hook call pays for."""
    from ..generator.registrations import python_words
    from .shims import find_shim, measure

    try:
        word = python_words(python)[0]
    except HookwrapError:
        return []  # check_python reports a bad `python`
    found = find_shim(word, env)
    if found is None:
        return _ok("python-shim", f"{word} is an interpreter, not a version manager's shim")
    shim = measure(found, env)
    if not shim.target:
        return [Finding("python-shim", WARN, f"{word} is {shim.manager}'s shim {shim.path}: every hook "
                        "call runs it before the interpreter", shim.advice())]
    if shim.shim_cpu_ms or shim.target_cpu_ms:  # CPU: steadier than wall time on a busy machine
        cost = f"about {shim.shim_cpu_ms - shim.target_cpu_ms:.0f} ms of CPU"
        times = (f"{shim.shim_cpu_ms:.0f} ms CPU through the shim, {shim.target_cpu_ms:.0f} ms as "
                 f"{shim.target}; wall {shim.shim_ms:.0f} vs {shim.target_ms:.0f} ms")
    else:
        cost = f"about {shim.cost_ms:.0f} ms"
        times = f"{shim.shim_ms:.0f} ms through the shim, {shim.target_ms:.0f} ms as {shim.target}"
    return [Finding("python-shim", WARN,
                    f"{word} is {shim.manager}'s shim {shim.path}: every hook call pays {cost} for it "
                    f"(`{word} -c pass` takes {times}; medians of 5)", shim.advice())]


def check_guards(root: Path, manifest) -> list[Finding]:
    """A guard rendered by an older hookwrap: `sync` upgrades it, or says why it cannot; a
    guard whose DISABLED_RULES names no rule (a typo switches nothing off)."""
    from ..generator.project import guard_scripts, guard_upgrades

    out = []
    older = set()
    for rel, upgrade in guard_upgrades(root, manifest.hooks):
        older.add(rel)
        if upgrade.action == "keep":
            message, _, fix = upgrade.notes[0].partition(" To upgrade: ")
            out.append(Finding("guard", WARN, message, f"to upgrade: {fix}"))
        else:
            out.append(Finding("guard", WARN, f"{rel} was rendered by an older hookwrap: its "
                               "rules stop short of today's", SYNC))
    for _, rel, text in guard_scripts(root, manifest.hooks):
        problem = None if rel in older else disabled_rule_problem(text)
        if problem:
            out.append(Finding("guard", WARN, f"{rel}: DISABLED_RULES {problem[0]}", problem[1]))
    return out or _ok("guard", "every guard runs the runtime's rules")


def disabled_rule_problem(text: str) -> tuple[str, str] | None:
    """(what is wrong, a hint) when a guard script's DISABLED_RULES names a rule id that is
    neither the runtime's nor one of its EXTRA_RULES; read from the source, nothing runs."""
    import ast

    from ..generator.hookentry import unknown_rule_ids
    from ..guard_rules import rule_ids

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    names: list[str] = []
    own: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "DISABLED_RULES" for t in targets) and \
                    isinstance(node.value, (ast.List, ast.Tuple, ast.Set)):
                names += [item.value for item in node.value.elts
                          if isinstance(item, ast.Constant) and isinstance(item.value, str)]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Rule" and \
                node.args and isinstance(node.args[0], ast.Constant) and \
                isinstance(node.args[0].value, str):
            own.append(node.args[0].value)
    return unknown_rule_ids(names, (*rule_ids(), *own))


def check_startup(root: Path, manifest) -> list[Finding]:
    """Each hook can start: its script compiles for Python 3.9 and the runtime is in the repo."""
    from ..generator.project import blocking_names
    from ..generator.startup import runtime_gaps, script_errors

    out = [Finding("startup", FAIL, problem, "fix the script, then run `hookwrap test NAME`")
           for problem in script_errors(root, [spec.name for spec in manifest.hooks],
                                        blocking_names(manifest))]
    missing = runtime_gaps(root)
    if missing and manifest.hooks:
        out.append(Finding("startup", FAIL, f"the runtime is missing ({', '.join(missing[:3])}"
                           f"{', ...' if len(missing) > 3 else ''}): no hook can start", SYNC))
    return out or _ok("startup", "every hook script compiles and the runtime is in place")


def _schema_overlap(problem: Problem, platform: Platform) -> bool:
    # Reported by their own checks below, with a better fix.
    return problem.path in setup_of(platform).facts.doctor_reported_paths or \
        (problem.path.endswith(".timeout") and "milliseconds" in problem.message)


def check_schema(scopes: list[Scope]) -> list[Finding]:
    """Every hooks entry is valid for its CLI: Claude Code drops a whole event (or file) silently."""
    out = []
    for scope in scopes:
        if scope.data is None:
            continue
        for problem in schema.validate_settings(scope.data, scope.platform):
            if not _schema_overlap(problem, scope.platform):
                status = FAIL if problem.severity == ERROR else WARN
                out.append(Finding("schema", status, f"{scope.label}: {problem}",
                                   f"fix that key by hand, then {SYNC}"))
    return _result("schema", out, "every hooks entry is valid for its CLI", scopes)


def _of(scopes: list[Scope], platform: Platform) -> list[Scope]:
    return [s for s in scopes if s.platform == platform]


def check_trust(root: Path, home: Path, scopes: list[Scope], env: Mapping[str, str]) -> list[Finding]:
    """Each CLI with a trust gate trusts this folder (Gemini runs no hook at all otherwise)."""
    return [finding for agent in all_setups()
            for finding in agent.trust_findings(root, home, _of(scopes, agent.platform), env)]


def check_hooks_enabled(scopes: list[Scope]) -> list[Finding]:
    """Nothing switches hooks off (Claude's disableAllHooks, Gemini's hooksConfig, ...)."""
    out = [finding for agent in all_setups()
           for finding in agent.doctor.hooks_off_findings(agent, _of(scopes, agent.platform))]
    return _result("hooks-enabled", out, "no setting turns hookwrap's hooks off", scopes)


def check_dead_keys(scopes: list[Scope]) -> list[Finding]:
    """Settings keys that older guides mention and the CLI never reads."""
    out = [finding for agent in all_setups()
           for finding in agent.doctor.dead_key_findings(agent, _of(scopes, agent.platform))]
    return _result("dead-keys", out, "no dead settings keys", scopes)


def _scripts_run(scopes: list[Scope]):
    """(scope, hook name, command) of every command that runs a hookwrap script, in whatever
    form (a look-alike fires as surely as hookwrap's own entry)."""
    for scope in scopes:
        for cmd in commands_from_settings(scope.platform, scope.data or {}):
            match = OWNED_COMMAND_RE.search(cmd.command)
            if match:
                yield scope, match.group("name"), cmd.command


def check_duplicates(scopes: list[Scope]) -> list[Finding]:
    """A hookwrap hook in a second scope of the same CLI fires twice (when its command differs)."""
    out = []
    for platform in Platform:
        seen: dict[str, tuple[Scope, str]] = {}
        for scope, name, command in _scripts_run([s for s in scopes if s.platform == platform]):
            if user_scope_name(command, platform) is not None:
                continue  # a user hook: it steps aside where a project has one of its name
            first = seen.setdefault(name, (scope, command))
            if first[0] is scope:
                continue
            twice = first[1] != command
            out.append(Finding("duplicates", FAIL if twice else WARN,
                               f"{name} is in both {first[0].label} and {scope.label}"
                               + (" with different commands: it fires twice" if twice else
                                  " (the CLI runs it once)"), f"remove it from {scope.label}"))
    return _result("duplicates", out, "no hook is registered in two scopes", scopes)


def check_commands(scopes: list[Scope]) -> list[Finding]:
    """Command strings that break: relative paths, Gemini's quoting, matchers, timeout units."""
    out = []
    for scope in scopes:
        for cmd in commands_from_settings(scope.platform, scope.data or {}):
            out += _command_findings(scope, cmd)
    return _result("commands", out, "every command, matcher and timeout looks right", scopes)


def _command_findings(scope: Scope, cmd) -> list[Finding]:
    where = f"{scope.label}: {cmd.event} {cmd.command!r}"
    out = []
    relative = _relative_script(cmd.command)
    if relative:
        out.append(Finding("commands", FAIL, f"{where} runs {relative} relative to the working "
                           "directory, which is not always the project root",
                           f"start the path with \"$CLAUDE_PROJECT_DIR\" (Claude) or "
                           f"\"${{GEMINI_PROJECT_DIR}}\" (Gemini), or {SYNC}"))
    agent = setup_of(scope.platform)
    return out + agent.doctor.command_findings(agent, scope, cmd)


def _relative_script(command: str) -> str | None:
    """A script path in ``command`` that does not start at a variable or the root."""
    for match in _RELATIVE_SCRIPT.finditer(command):
        path = match.group(1)
        start = match.start(1)
        before = command[:start].rstrip("\"'")
        if not before.endswith(("}", "/")) and not any(before.endswith(v) for v in _PROJECT_VARS):
            return path
    return None
