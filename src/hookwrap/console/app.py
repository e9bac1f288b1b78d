"""The `hookwrap` command: parses options, calls one core function, prints, returns an exit code."""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .. import __version__
from ..generator import words
from ..generator.errors import HookwrapError, UsageError
from ..names import Platform

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPT = 0, 1, 2, 3, 130

# Values of --platform: every platform, then "all".
# (mypy's enum plugin reads only literal member names; typer reads the members at run time.)
PlatformName = Enum("PlatformName", {p.value: p.value for p in Platform},  # type: ignore[misc]
                    type=str)
PlatformChoice = Enum("PlatformChoice", {**{p.value: p.value for p in Platform}, "all": "all"},  # type: ignore[misc]
                      type=str)

app = typer.Typer(
    name="hookwrap",
    help=f"Write an AI-agent hook once in Python; run it on {words.labels()}."
         "\n\nhookwrap.toml is the source of truth: `add`, `remove` and `sync` keep the "
         f"registration file of each CLI the repo uses ({words.settings_files()}) in step with "
         "it.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class _State:
    directory: Path = Path(".")
    user: bool = False


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hookwrap {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    directory: Path = typer.Option(Path("."), "-C", "--directory", metavar="DIR",
                                   help="Run as if started in DIR."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
    user: bool = typer.Option(False, "--user", help="Work on the user scope: hooks for every "
                              "repo on this machine (a manifest in your config folder, "
                              "registrations in each CLI's user-level file), as "
                              "`git config --global`; see docs/user-scope.md."),
) -> None:
    from ..generator import scope

    _State.directory = directory
    _State.user = user
    scope.set_current(scope.Scope(user=True) if user else scope.PROJECT)


def _user_only_project(command: str) -> None:
    """`--user` with a command that has no user scope."""
    if _State.user:
        raise UsageError(f"{command} works on a project only, not with --user",
                         hint=f"run `hookwrap {command}` in the repo, without --user")


def _cwd() -> Path:
    directory = _State.directory
    if not directory.is_dir():
        what = "is not a directory" if directory.exists() else "does not exist"
        raise UsageError(f"-C {directory}: {what}",
                         hint="give -C the project's folder (or one inside it)")
    return directory.resolve()


def _root_dir() -> Path:
    from ..generator.project import find_root

    if _State.user:
        return _user_root(existing=True)
    return find_root(_cwd())


def _both_scopes() -> tuple[Optional[Path], Optional[Path]]:
    """(the project's root, the user scope's folder), each None where there is none; the one
    the command is run for must exist (its error says so)."""
    import contextlib

    from ..generator.project import find_root

    project = user = None
    with contextlib.suppress(HookwrapError):
        user = _user_root(existing=True)
    with contextlib.suppress(HookwrapError):
        project = find_root(_cwd())
    if (user if _State.user else project) is None:
        _root_dir()  # raises the scope's own "not set up" error
    return project, user


def _user_root(*, existing: bool = False) -> Path:
    """The user scope's folder; with ``existing``, one that holds its manifest."""
    from ..generator.errors import ProjectError
    from ..generator.project import MANIFEST
    from ..generator.scope import user_root

    root = user_root()
    if existing and not (root / MANIFEST).exists():
        raise ProjectError(f"no user manifest: {root / MANIFEST} does not exist",
                           hint="run `hookwrap --user init` first")
    return root


def _print_plan(plan, *, dry_run: bool = False, check: bool = False) -> None:
    prefix = "would " if (dry_run or check) else ""
    for warning in plan.warnings:
        typer.echo(f"warning: {warning}", err=True)
    for problem in plan.problems:
        typer.echo(f"problem: {problem}", err=True)
    if plan.problems:
        typer.echo("hint: sync cannot fix these by itself: fix them by hand; "
                   "`hookwrap doctor` lists them with a fix each", err=True)
    for change in plan.pending:
        detail = f": {'; '.join(change.detail)}" if change.detail else ""
        typer.echo(f"{prefix}{change.action:<7} {change.rel}{detail}")
    for note in plan.notes:
        typer.echo(f"note: {note}")
    if not plan.pending and plan.problems:
        typer.echo("nothing of hookwrap's to change, but the problems above need fixing")
    elif not plan.pending:
        typer.echo("nothing to change: everything matches hookwrap.toml")


def _execute(root: Path, build, *, dry_run: bool = False, check: bool = False,
             problems_fail: bool = False) -> None:
    """The one way a command that writes runs: plan, then apply under the project lock, or
    only print (``dry_run``), or fail on drift (``check``); neither takes the lock (the lock
    file is a write too). ``problems_fail``: exit 1 after applying when problems remain."""
    from ..generator.fsutil import project_lock

    if dry_run or check:
        plan = build()
        _print_plan(plan, dry_run=dry_run, check=check)
        if check and plan.pending:
            typer.echo("hint: run `hookwrap sync` to fix", err=True)
        if check and (plan.pending or plan.problems):
            raise typer.Exit(EXIT_USER)
        return
    with project_lock(root):
        plan = build()
        plan.apply()
    _print_plan(plan)
    if problems_fail and plan.problems:
        raise typer.Exit(EXIT_USER)


def _complete_events(incomplete: str) -> list[str]:
    from ..names import NormalizedEvent

    return [e.value for e in NormalizedEvent if e.value.startswith(incomplete)]


def _complete_templates(incomplete: str) -> list[str]:
    from ..generator.catalogue import TEMPLATES

    return [name for name in TEMPLATES if name.startswith(incomplete)]


def _complete_hooks(incomplete: str) -> list[str]:
    from ..generator.project import hook_names

    return [name for name in hook_names(_cwd()) if name.startswith(incomplete)]


def _platform_names(values: Optional[list[PlatformChoice]]) -> list[str]:
    return [v.value for v in values or []]


@app.command()
def init(
    platform: Optional[list[PlatformChoice]] = typer.Option(
        None, "--platform", "-p", help="A CLI this repo uses (repeat for several). A new "
        "project gets these, else the CLIs whose folders the repo has, else claude and gemini; "
        "in a project, each one it lacks is added."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
) -> None:
    """Set up hookwrap here: hookwrap.toml and the runtime under .hookwrap/ (safe to re-run).

    It says which CLIs the project is for, and why. In a project already set up,
    `--platform NAME` adds that CLI to hookwrap.toml's platforms and to every hook that runs
    on all of the project's CLIs (a hook limited to some keeps its list). It refuses to start
    a project inside another one, unless the folder is its own git repository.
    """
    from ..generator.project import init_plan, parse_platforms, scope_platforms
    from ..generator.projectclis import refuse_nested

    names = _platform_names(platform)
    # `--platform all` is every CLI hookwrap supports (for `add`, all = the manifest's platforms);
    # at user scope, every CLI with a user-level place hookwrap writes.
    chosen = parse_platforms(names, default=scope_platforms()) if names else None
    if _State.user:
        root = _user_root()
    else:
        root = _cwd()
        refuse_nested(root)  # before the project lock, which would create .hookwrap/ here
    _execute(root, lambda: init_plan(root, chosen), dry_run=dry_run)


@app.command()
def add(
    event: str = typer.Argument(..., help="Normalized event: before_tool, after_tool, before_prompt, "
                                          "after_agent, session_start, session_end, ...",
                                autocompletion=_complete_events),
    name: str = typer.Argument(..., help="Hook name; a template's name (guard, context, audit, "
                                         "stop_gate, format) picks that template.",
                               autocompletion=_complete_templates),
    template: Optional[str] = typer.Option(None, "--template", "-t", help="Template to render (default: NAME if it is one, else the event's skeleton).", autocompletion=_complete_templates),
    matcher: Optional[str] = typer.Option(None, "--matcher", "-m", help="Normalized tool names joined by |, e.g. shell|write_file; or a lifecycle value such as startup."),
    platform: Optional[list[PlatformChoice]] = typer.Option(
        None, "--platform", "-p", help="Where to register it (repeat for several; default: "
        "hookwrap.toml's platforms)."),
    timeout: Optional[int] = typer.Option(None, "--timeout", help=f"Timeout in {words.timeout_units()}."),
    command: Optional[str] = typer.Option(None, "--command", help="An external hook: this shell command (any language) instead of a rendered script; see docs/external-hooks.md."),
    speaks: Optional[PlatformName] = typer.Option(None, "--speaks", help="The CLI whose hook protocol --command speaks (default: claude); other CLIs are bridged."),
    fail_closed: bool = typer.Option(False, "--fail-closed", help="With --command: block when the command cannot start, times out or crashes."),
    resident: bool = typer.Option(False, "--resident", help="Answer it from `hookwrap serve` "
                                  f"where the CLI can post to it ({words.resident_labels()}), "
                                  "which must then run; see docs/resident.md (what it saves on "
                                  "each CLI: docs/performance.md)."),
    commands: Optional[list[str]] = typer.Option(
        None, "--commands", metavar="GLOB", help='Only shell commands matching GLOB call the hook, '
        'e.g. "git *" (repeat for several; needs --matcher shell).'),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
) -> None:
    """Render a hook script, record it in hookwrap.toml, register it with each of its CLIs."""
    from ..generator.project import add_plan

    root = _root_dir()
    if command is not None:
        from ..generator.adopt import add_external_plan

        if template is not None or resident or commands:
            raise UsageError("--template, --resident and --commands do not go together with "
                             "--command", hint="an external hook runs its command instead of a "
                             "template, as its own process")
        _execute(root, lambda: add_external_plan(
            root, event=event, name=name, command=command,
            speaks=speaks.value if speaks else None, matcher=matcher,
            platforms=_platform_names(platform), timeout=timeout, fail_closed=fail_closed),
            dry_run=dry_run)
        return
    if speaks is not None or fail_closed:
        raise UsageError("--speaks and --fail-closed need --command",
                         hint="they describe an external hook's command")
    _execute(root, lambda: add_plan(root, event=event, name=name, template=template,
                                    matcher=matcher, platforms=_platform_names(platform),
                                    timeout=timeout, resident=resident,
                                    commands=tuple(commands or ())),
             dry_run=dry_run)


@app.command()
def adopt(
    source: PlatformName = typer.Option("claude", "--from", help="The CLI whose project settings file holds the hand-made hooks."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would move; write nothing."),
) -> None:
    """Move hooks registered by hand (in the --from CLI's project settings file) into
    hookwrap.toml, so they run on every CLI the repo uses; an entry that cannot move stays
    where it is and is reported."""
    import contextlib

    from ..generator.adopt import adopt_plan

    _user_only_project("adopt")
    root = _cwd()
    with contextlib.suppress(HookwrapError):  # no hookwrap.toml: adopt creates one here
        root = _root_dir()
    _execute(root, lambda: adopt_plan(root, source.value), dry_run=dry_run)


@app.command()
def remove(
    name: str = typer.Argument(..., help="The hook to remove.", autocompletion=_complete_hooks),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
) -> None:
    """Delete a hook: its script, its manifest entry, and its registration on each CLI."""
    from ..generator.project import remove_plan

    root = _root_dir()
    _execute(root, lambda: remove_plan(root, name=name), dry_run=dry_run)


@app.command("list")
def list_(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Show the hooks and, per platform, whether each registration is present and current
    ("no runtime" or "no script" when it is, but a file its command runs is missing); with
    user hooks, both scopes, and "project's" where a repo's hook of the same name runs
    instead of the user's."""
    from ..generator.inventory import format_table, list_scopes

    project, user = _both_scopes()
    rows = list_scopes(project, user)
    typer.echo(json.dumps(rows, indent=2) if as_json else format_table(rows))


@app.command()
def sync(
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if anything differs."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
) -> None:
    """Make the runtime, the scripts and each CLI's registration file match hookwrap.toml.

    It exits 1 when a problem it cannot fix remains (each printed as `problem:`), after
    writing what it could; `--check` exits 1 on those and on any change it would make.
    """
    from ..generator.project import sync_plan

    root = _root_dir()
    _execute(root, lambda: sync_plan(root), dry_run=dry_run and not check, check=check,
             problems_fail=not dry_run)


class ServiceKind(str, Enum):
    systemd = "systemd"
    launchd = "launchd"


@app.command()
def serve(
    port: Optional[int] = typer.Option(None, "--port", help="Port on 127.0.0.1 (default: "
                                       "hookwrap.toml's [serve] port, else 48620)."),
    print_service: Optional[ServiceKind] = typer.Option(
        None, "--print-service", help="Print a systemd user unit or a launchd agent that keeps "
        "the server running, to install yourself; start nothing."),
) -> None:
    """Answer this repo's resident hooks on 127.0.0.1 (foreground, log on stderr; Ctrl-C,
    SIGTERM or SIGHUP stop it, exit 128 + the signal's number; a server that stops on its own
    is reported, exit 128 + its signal's number or its own exit code).

    A CLI that can (docs/resident.md) posts each resident hook's payload to it instead of
    starting a process per call;
    the server runs the repo's own runtime (.hookwrap/lib) with the manifest's python.
    """
    from ..generator.project import load_manifest, python_of, serve_port
    from ..generator.resident import run_server, service_text

    _user_only_project("serve")
    root = _root_dir()
    manifest = load_manifest(root)
    chosen, warnings = serve_port(manifest, port)
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    if print_service is not None:
        typer.echo(service_text(print_service.value, root, chosen, python_of(manifest)), nl=False)
        return
    end = run_server(root, chosen, python_of(manifest))
    if end.problem:
        typer.echo(f"hookwrap serve: {end.problem}", err=True)
        typer.echo("hint: its log above says what it did last; `hookwrap serve` starts it again",
                   err=True)
    raise typer.Exit(end.code)


@app.command()
def trust(
    platform: Optional[list[PlatformChoice]] = typer.Option(
        None, "--platform", "-p", help="Only this CLI's trust (repeat for several; default: every CLI)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
) -> None:
    """Record this repo's trust wherever a CLI would otherwise not run its hooks.

    Codex CLI: the project and each hook's trusted_hash in $CODEX_HOME/config.toml. Gemini CLI:
    the folder in ~/.gemini/trustedFolders.json. Copilot CLI: trustedFolders in
    ~/.copilot/config.json. Qwen Code, with its folder trust on: ~/.qwen/trustedFolders.json.
    Only those entries change (comments, other keys and the file's mode stay); each file is read
    and written under a lock beside it (.NAME.hookwrap-lock), so projects trusting at once lose
    nothing. Exits 1 when something only you can change keeps a CLI from running the hooks.
    """
    from ..generator.project import parse_platforms
    from ..generator.trust import record_trust, trust_plan

    names = _platform_names(platform)
    platforms = list(parse_platforms(names, tuple(Platform))) if names else None
    edits = (trust_plan if dry_run else record_trust)(_root_dir(), platforms)
    prefix = "would " if dry_run else ""
    for edit in edits:
        for note in edit.notes:
            typer.echo(f"warning: {note}", err=True)
        for change in edit.changes:
            typer.echo(f"{prefix if change.action != 'unchanged' else ''}{change.action:<9} "
                       f"{edit.label}: {change.shown}  # {change.entry.what}")
    todo = [line for edit in edits for line in edit.todo]
    for line in todo:
        typer.echo(f"error: {line}", err=True)
    if todo:
        raise typer.Exit(EXIT_USER)
    if not any(edit.pending for edit in edits):
        typer.echo("nothing to trust: every hookwrap hook is trusted" if edits else
                   "nothing to trust: no CLI here skips hookwrap's hooks for want of trust")


@app.command()
def templates() -> None:
    """List the templates `hookwrap add` can render."""
    from ..generator.render import TEMPLATES

    for name, info in TEMPLATES.items():
        events = ", ".join(e.value for e in info.events) if info.events else "any event"
        typer.echo(f"{name:<10} {info.summary} [{events}]")


def _print_test(report, *, verbose: bool) -> None:
    counts = Counter(test.platform for test in report.tests)
    for test in report.tests:
        # A CLI that runs the hook on several events (Claude Code's PreToolUse and
        # PreSkillShellCommand) gets one line per event.
        where = f"{test.platform} ({test.event})" if counts[test.platform] > 1 else test.platform
        typer.echo(f"{where}: {test.summary}")
        for problem in test.problems:
            typer.echo(f"  problem: {problem}")
        for note in test.notes:
            typer.echo(f"  note: {note}")
        if verbose and test.result is not None:
            result = test.result
            typer.echo(f"  event: {test.event}")
            typer.echo(f"  command: {test.command}")
            typer.echo(f"  exit code: {result.exit_code}  duration: {result.duration_ms:.0f} ms"
                       + ("  (timed out)" if result.timed_out else ""))
            typer.echo(f"  stdout: {result.stdout.rstrip() or '(empty)'}")
            typer.echo(f"  stderr: {result.stderr.rstrip() or '(empty)'}")


@app.command("test")
def test_command(
    name: str = typer.Argument(..., help="The hook to run.", autocompletion=_complete_hooks),
    platform: Optional[list[PlatformChoice]] = typer.Option(
        None, "--platform", "-p", help="Which CLI's registration to run (repeat for several; "
        "default: every CLI the hook is registered on)."),
    payload: Optional[Path] = typer.Option(None, "--payload", help="A JSON file to send instead of a built-in sample.", exists=True, dir_okay=False),
    tool: Optional[str] = typer.Option(None, "--tool", help="Normalized tool name of the call (shell, write_file, ...)."),
    tool_input: Optional[str] = typer.Option(None, "--input", help='Tool input as JSON, e.g. \'{"command": "rm -rf /"}\', in any CLI\'s words: each CLI gets it in its own.'),
    event: Optional[str] = typer.Option(None, "--event", help="Normalized event, when the hook has several.", autocompletion=_complete_events),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show exit code, stdout, stderr and duration."),
    explain: Optional[str] = typer.Option(None, "--explain", help="A guard only: show how it reads this shell command and which rule matches (nothing runs)."),
) -> None:
    """Run a hook exactly as each CLI would, and say what the CLI will do with its answer.

    The hook runs for real, with everything its script does: an audit hook logs the sample,
    a stop_gate runs its check command. Each command is printed (to stderr) before it runs.
    With --explain, nothing runs: the guard shows how it reads the command.
    """
    from ..checks.hooktest import explain_guard, explain_lines, run_hook_test

    if explain is not None:
        if payload is not None or tool or tool_input:
            raise typer.BadParameter("use --explain alone, without --payload, --tool or --input")
        reading = explain_guard(_root_dir(), name, explain, cwd=_cwd())
        for problem in reading.get("settings", {}).get("problems", []):
            typer.echo(f"warning: {name}'s settings: {problem}", err=True)
        typer.echo(json.dumps(reading, indent=2) if as_json else "\n".join(explain_lines(reading)))
        raise typer.Exit(0)
    if payload is not None and (tool or tool_input):
        raise typer.BadParameter("use --payload, or --tool/--input, not both")
    report = run_hook_test(_root_dir(), name, platform=_platform_names(platform) or "all",
                           payload_file=payload, tool=tool, tool_input=tool_input, event=event,
                           on_run=lambda where, command: typer.echo(f"{where}: running {command}",
                                                                     err=True))
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, default=str))
    else:
        _print_test(report, verbose=verbose)
    raise typer.Exit(report.exit_code)


@app.command("doctor")
def doctor_command(
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    no_run: bool = typer.Option(False, "--no-run", help="Do not run the hooks (the hook-runs "
                                "check); only read the files."),
    run_untrusted: bool = typer.Option(
        False, "--run-untrusted", help="Run the hooks on every CLI, also where none would run "
        "them yet (a folder no CLI trusts: a repo you cloned to look at). For real: each hook's "
        "code runs with your rights and does whatever it does."),
) -> None:
    """Find what would make hooks fail silently, each with a one-line fix.

    It also runs every registered hook once per CLI, as that CLI would, on a harmless sample
    call, and checks each answer is one that CLI reads. The hooks run for real, as in `hookwrap
    test`: their code runs with your rights (an audit hook logs the sample, a stop_gate runs
    its check), so only where a CLI would run them already: a CLI whose trust gate lets this
    folder's hooks through, and a CLI without one once you trust the folder somewhere (`hookwrap
    trust`, Claude Code's folder trust dialog). doctor says which it did not run and why;
    --run-untrusted runs them anyway, --no-run runs none.
    """
    from ..checks.doctor import diagnose, exit_code, findings_to_json
    from ..generator.errors import ProjectError

    try:
        root = _root_dir()
    except ProjectError:
        if _State.user:
            raise
        root = _cwd()  # doctor still checks the settings files of a project without a manifest
    findings = diagnose(root, run_hooks=not no_run, run_untrusted=run_untrusted)
    if as_json:
        typer.echo(json.dumps(findings_to_json(findings), indent=2))
    else:
        for finding in findings:
            typer.echo(f"{finding.status:4} {finding.check}: {finding.message}")
            if finding.status != "ok" and finding.fix:
                typer.echo(f"     fix: {finding.fix}")
    raise typer.Exit(exit_code(findings))


def _print_error(error: HookwrapError) -> None:
    typer.echo(f"error: {error.message}", err=True)
    if error.hint:
        typer.echo(f"hint: {error.hint}", err=True)


def _click_exceptions():
    """The exceptions module of the click typer runs on: click's own before typer 0.26,
    typer's bundled copy after. Asking typer's public class keeps both working."""
    import importlib

    return importlib.import_module(typer.BadParameter.__module__)


def _printable_streams() -> None:
    """A settings file may hold a lone surrogate (valid JSON): messages that quote it must not
    crash the output stream, so unencodable characters are written as backslash escapes."""
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


@functools.cache
def _command():  # typer's click Command (click's module moved between typer releases)
    """The click command of ``app``, built once per process: building it takes ~7 ms, and a
    test suite runs ``main`` in-process thousands of times (click makes a new context per run)."""
    return typer.main.get_command(app)


def main(argv: Optional[list[str]] = None) -> int:
    """Run the CLI and map every outcome to hookwrap's exit codes (never a traceback for users)."""
    exceptions = _click_exceptions()
    command = _command()
    _printable_streams()
    from ..generator import scope

    try:
        with scope.using(scope.PROJECT):  # --user sets the user scope for this run only
            result = command.main(args=argv, prog_name="hookwrap", standalone_mode=False)
        return result if isinstance(result, int) else EXIT_OK
    except UsageError as error:  # a wrong argument value, as click's own BadParameter
        _print_error(error)
        return EXIT_USAGE
    except HookwrapError as error:
        _print_error(error)
        return EXIT_USER
    except typer.Exit as done:  # click's Exit before typer 0.26, typer's own after
        return done.exit_code
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("interrupted", err=True)
        return EXIT_INTERRUPT
    except exceptions.ClickException as error:
        error.show()
        return EXIT_USAGE if isinstance(error, exceptions.UsageError) else EXIT_USER
    except Exception as error:  # a bug: say so plainly, with the traceback for the report
        import traceback

        traceback.print_exc()
        typer.echo(f"internal error: {type(error).__name__}: {error}\n"
                   "hint: please report this with the traceback above", err=True)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
