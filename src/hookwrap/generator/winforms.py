"""The Windows form of each CLI's registered command, and a lint of a Windows-bound command for
what the shells that CLI may use cannot parse (docs/windows.md).

No shell on Windows reads `$VAR` the way bash does (PowerShell: a PowerShell variable; cmd.exe:
literal text), and each CLI picks its own shell there (``SHELLS``), so the Windows form names
no variable and needs no shell knowledge: a bare interpreter word, then ``-c`` and one
double-quoted line of Python that finds the project itself (the CLI's project variable when it
sets one, else the folder holding hookwrap.toml at or above the cwd) and runs the launcher there,
as ``python3 .hookwrap/lib/run.py NAME --platform CLI`` would. Qwen Code's cmd.exe spawn breaks
every double quote, so its form is the quote-free relative one (its hooks run in the project).

Where a CLI has a per-OS field (``WINDOWS_FIELDS``: Codex CLI ``commandWindows``, Copilot CLI
``powershell``, and ``argvWindows`` in the plugins hookwrap generates for OpenCode, Kilo CLI and
pi, which spawn it as an argument vector, no shell) registrations carry the form there; the POSIX
command is left as it is. Cline's registrations (hookwrap.json) carry ``argvWindows`` too, but
only when hookwrap.toml names ``python_windows``: its hook files then take their Python form,
which Cline runs with ``py -3`` on Windows, and their dispatcher spawns that vector there. A CLI with one command for every OS (``ONE_COMMAND``: Claude Code,
Gemini CLI, Qwen Code, Factory Droid) gets the Windows form in that command only when
hookwrap.toml names ``python_windows`` (the team runs hooks on Windows); else its command stays
the POSIX one (``windows_registration``).
"""

from __future__ import annotations

import re

from .vendor import LAUNCHER

# How each CLI starts a command hook on Windows, read from its shipped code (versions as pinned
# in DESIGN.md; details and sources in docs/windows.md). Shell names: "bash" (Git Bash),
# "powershell" (pwsh 7 or Windows PowerShell 5.1), "cmd" (cmd.exe /d /s /c, verbatim
# arguments), "cmd-quoted" (cmd.exe /d /s /c spawned by Node without verbatim arguments:
# every " becomes \", which cmd.exe does not undo).
SHELLS: dict[str, tuple[str, ...]] = {
    "claude": ("bash", "powershell"),  # 2.1.332: Git Bash when found, else PowerShell
    "gemini": ("powershell",),  # 0.61.0 getShellConfiguration: ComSpec, pwsh, powershell.exe
    # 0.171.0: the session shell, pwsh or Windows PowerShell (cmd.exe only on a Windows without
    # PowerShell, which every Windows since 7 ships: not linted for).
    "codex": ("powershell",),
    "qwen": ("cmd-quoted", "powershell", "bash"),  # 0.24.4: ComSpec (cmd), PowerShell, Git Bash
    "copilot": ("powershell",),  # 1.0.102: the `powershell` field, run by pwsh (its docs)
    "droid": ("cmd",),  # 0.225.2: %ComSpec% /d /s /c, windowsVerbatimArguments
}
# The field that holds the Windows command, for a CLI that has one beside its POSIX `command`.
WINDOWS_FIELDS = {"codex": "commandWindows", "copilot": "powershell",
                  **dict.fromkeys(("opencode", "kilo", "pi", "cline"), "argvWindows")}
# CLIs whose Windows field is written only when hookwrap.toml names python_windows: Cline's hook
# files then take their Python form (generator/clis/cline.py), whose dispatcher spawns it.
_FIELD_WHEN_NAMED = frozenset({"cline"})
# The plugins' field is a list: the program and its arguments, spawned without a shell.
_ARGV_FIELDS = frozenset({"argvWindows"})
# CLIs whose settings file has one command for every OS.
ONE_COMMAND = frozenset(SHELLS) - frozenset(WINDOWS_FIELDS)
# The variable a CLI sets to the project for its hooks (read by Python, not by a shell).
_PROJECT_VARS = {"claude": "CLAUDE_PROJECT_DIR", "copilot": "COPILOT_PROJECT_DIR"}
# Forms that run the launcher by its relative path: the CLI runs hooks in the project (Qwen
# Code), or the plugin (or Cline's dispatcher) resolves a ".hookwrap/" argument against the
# project before it spawns.
_RELATIVE = frozenset({"qwen", "opencode", "kilo", "pi", "cline"})
_EXIT = {False: 1, True: 2}  # no hookwrap.toml found: fail open (1) or block (2)

_BOOT = ("import os,runpy,sys;p=os.path;"
         "f=lambda d:d if p.isfile(p.join(d,'hookwrap.toml')) or p.dirname(d)==d "
         "else f(p.dirname(d));r=f({start});s=p.join(r,{script});"
         "p.isfile(s) or sys.exit(print('hookwrap: no hookwrap.toml in '+os.getcwd()+"
         "' or above, so hook {name} cannot run',file=sys.stderr) or {code});"
         "os.environ['HOOKWRAP_PROJECT_DIR']=r;sys.argv[0]=s;"
         "sys.path[0]=='' and sys.path.__setitem__(0,p.dirname(p.realpath(s)));"
         "runpy.run_path(s,run_name='__main__')")


def windows_command(platform: str, name: str, python: str, *, fail_closed: bool = False) -> str:
    """The command that runs hook ``name`` for ``platform`` on Windows with interpreter words
    ``python`` (``py -3``): the same in every shell ``SHELLS[platform]`` names."""
    if platform in _RELATIVE:
        return f"{python} {LAUNCHER} {name} --platform {platform}"
    var = _PROJECT_VARS.get(platform)
    start = f"os.environ.get('{var}') or os.getcwd()" if var else "os.getcwd()"
    script = ",".join(repr(part) for part in LAUNCHER.split("/"))
    code = _BOOT.format(start=start, script=script, name=name, code=_EXIT[fail_closed])
    return f'{python} -c "{code}" {name} --platform {platform}'


def windows_registration(platform: str, handler: dict, command: str, *,
                         everywhere: bool = False) -> dict:
    """``handler`` with ``command`` (a ``windows_command``) in the CLI's per-OS field, after its
    other keys (a plugin's or Cline's as a list of words; Cline's only when ``everywhere``); for
    a CLI with one command for every OS, as that command when ``everywhere`` (hookwrap.toml
    names python_windows); else, or for a URL handler, the handler as it is."""
    if handler.get("type", "command") != "command":
        return handler
    field = WINDOWS_FIELDS.get(platform)
    if field is not None and (everywhere or platform not in _FIELD_WHEN_NAMED):
        return {**handler, field: command.split() if field in _ARGV_FIELDS else command}
    if everywhere and platform in ONE_COMMAND:
        return {**handler, "command": command}
    return handler


# What each shell cannot take in a command meant to run one program with plain arguments.
_EVERY_SHELL = [
    (re.compile(r"^\s*[\"']"), "starts with a quote (PowerShell: a string, run as nothing; "
                               "cmd.exe /s: the first and last quote are dropped)"),
    (re.compile(r"\$"), "holds $ (PowerShell reads a PowerShell variable, cmd.exe the text)"),
    (re.compile(r"%"), "holds % (cmd.exe expands %VAR%, even inside quotes)"),
    (re.compile(r"`"), "holds ` (PowerShell's escape character)"),
    (re.compile(r"&&|\|\|"), "holds && or || (not in Windows PowerShell 5.1)"),
    (re.compile(r"/dev/null|/bin/sh|\bexec\b|\buntil\b"), "holds POSIX shell syntax"),
    (re.compile(r"^\s*python3(\s|$)"), "runs python3, the Microsoft Store stub on stock "
                                        "Windows (exit 49, no output: the hook does nothing)"),
    (re.compile(r"(^|\s)/[^\s]"), "has an argument that starts with / (Git Bash rewrites it "
                                  "as a path, cmd.exe reads it as a switch)"),
    (re.compile(r"!"), "holds ! (cmd.exe's delayed expansion)"),
]
_OUTSIDE_QUOTES = {
    "powershell": (re.compile(r"[;&|<>(){}@,]"), "PowerShell syntax outside quotes"),
    "cmd": (re.compile(r"[&|<>^()]"), "cmd.exe syntax outside quotes"),
    "cmd-quoted": (re.compile(r"[&|<>^()]"), "cmd.exe syntax outside quotes"),
    "bash": (re.compile(r"[;&|<>()`\\*?\[\]{}~#]"), "bash syntax outside quotes"),
}


def lint(command: str, shells: tuple[str, ...]) -> list[str]:
    """What keeps ``command`` from running as one program with plain arguments in each of
    ``shells`` (names as in ``SHELLS``), one line each; [] when every shell runs it as written."""
    problems = [why for pattern, why in _EVERY_SHELL if pattern.search(command)]
    if command.count('"') % 2:
        problems.append("has an unpaired double quote")
    outside = "".join(command.split('"')[0::2])
    for shell in shells:
        rule = _OUTSIDE_QUOTES.get(shell)
        found = rule[0].search(outside) if rule else None
        if rule and found:
            problems.append(f"{shell}: {rule[1]} ({found.group()!r})")
        if shell == "cmd-quoted" and '"' in command:
            problems.append(f"{shell}: holds a double quote, which Node or Rust passes to "
                            'cmd.exe as \\" and cmd.exe does not undo')
    return problems
