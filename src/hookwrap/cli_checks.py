"""`hookwrap test` and `hookwrap doctor`: thin commands over hooktest.py and doctor.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .cli_types import PlatformChoice


def _print_test(report, *, verbose: bool) -> None:
    for test in report.tests:
        typer.echo(f"{test.platform}: {test.summary}")
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


def test_command(
    name: str = typer.Argument(..., help="The hook to run."),
    platform: PlatformChoice = typer.Option(PlatformChoice.all, "--platform", "-p", help="Which CLI's registration to run."),
    payload: Optional[Path] = typer.Option(None, "--payload", help="A JSON file to send instead of a built-in sample.", exists=True, dir_okay=False),
    tool: Optional[str] = typer.Option(None, "--tool", help="Normalized tool name of the call (shell, write_file, ...)."),
    tool_input: Optional[str] = typer.Option(None, "--input", help='Tool input as JSON, e.g. \'{"command": "rm -rf /"}\'.'),
    event: Optional[str] = typer.Option(None, "--event", help="Normalized event, when the hook has several."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show exit code, stdout, stderr and duration."),
) -> None:
    """Run a hook exactly as each CLI would, and say what the CLI will do with its answer."""
    from .cli import _root_dir
    from .hooktest import run_hook_test

    if payload is not None and (tool or tool_input):
        raise typer.BadParameter("use --payload, or --tool/--input, not both")
    report = run_hook_test(_root_dir(), name, platform=platform.value, payload_file=payload,
                           tool=tool, tool_input=tool_input, event=event)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, default=str))
    else:
        _print_test(report, verbose=verbose)
    raise typer.Exit(report.exit_code)


def doctor_command(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Find what would make hooks fail silently, each with a one-line fix."""
    from .cli import _cwd
    from .doctor import diagnose, exit_code, findings_to_json
    from .errors import ProjectError
    from .project import find_root

    try:
        root = find_root(_cwd())
    except ProjectError:
        root = _cwd()  # doctor still checks the settings files of a project without a manifest
    findings = diagnose(root)
    if as_json:
        typer.echo(json.dumps(findings_to_json(findings), indent=2))
    else:
        for finding in findings:
            typer.echo(f"{finding.status:4} {finding.check}: {finding.message}")
            if finding.status != "ok" and finding.fix:
                typer.echo(f"     fix: {finding.fix}")
    raise typer.Exit(exit_code(findings))


def register(app: typer.Typer) -> None:
    """Attach the commands to the main app."""
    app.command("test")(test_command)
    app.command("doctor")(doctor_command)
