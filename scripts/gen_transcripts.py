#!/usr/bin/env python3
"""Run the console transcripts of README.md and docs/*.md and write their output, or check it.

A transcript is a ``console`` block with a marker on the line before it:

    <!-- transcript: SANDBOX; setup: STEP, STEP; requires: PROGRAM -->
    ```console
    $ hookwrap init
    ...the output, written by this script...
    ```

- Each ``$ `` line (with the lines a trailing backslash continues) is a command; every other
  line of the block is output, and is replaced by what the command prints: stdout and stderr
  together, as a terminal shows them.
- SANDBOX names a project: the transcripts of one file with the same SANDBOX run one after the
  other in one temporary project, a fresh git repo, with a throwaway HOME (and XDG dirs,
  CODEX_HOME). ``python3`` there is the interpreter running this script; ``hookwrap`` is
  ``python3 -m hookwrap`` (forked from one server that has imported hookwrap already, where
  the system can: hookwrap_forks.py).
- ``setup`` (optional) names steps from STEPS below, run before the block's commands and not
  shown (``init``, ``add:before_tool guard``, ``example:no-push``, ...).
- ``requires`` (optional) names a program the commands need (``pre-commit``); the block is
  skipped, and said so, where it is not installed.
- Every command's first word must be one of ALLOWED: nothing else from a doc is executed.
- Run-specific values are normalised: the project's path becomes ``<repo>``, HOME ``~``, the
  interpreter's version ``3.x``, and ``duration: 12 ms`` ``duration: <n> ms``.

Usage:
    python scripts/gen_transcripts.py                # rewrite the transcripts that differ
    python scripts/gen_transcripts.py --check        # write nothing; exit 1 if any differs
    python scripts/gen_transcripts.py docs/cli.md    # only these files

Standard library, hookwrap (run as a command) and git.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import difflib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docblocks import (
    Block,
    Example,
    blocks,
    commands,
    doc_files,
    examples,
    hook_script,
    normalise,
    put_hook_function,
)

ROOT = Path(__file__).resolve().parent.parent
FORKS = Path(__file__).resolve().parent / "hookwrap_forks.py"
ALLOWED = {"hookwrap", "echo", "python3", "pre-commit"}
TIMEOUT = 600
_SEPARATOR = "\x1ehookwrap-transcript {}\x1e"
_SPLIT = re.compile("\n?\x1ehookwrap-transcript \\d+\x1e\n")


class TranscriptError(Exception):
    """A transcript that cannot be run: the message names the block."""


# --------------------------------------------------------------------------------- sandbox

class Sandbox:
    """A temporary project with a throwaway HOME, and the PATH the transcripts run with."""

    def __init__(self, root: Path, python: str = sys.executable, fork: bool = True) -> None:
        self.root = root
        self.python = python
        self.fresh = True  # no block has run in it yet: the project is a fresh git repo
        self.tmp = Path(tempfile.mkdtemp(prefix="hookwrap-transcript-"))
        self.repo = self.tmp / "repo"
        self.home = self.tmp / "home"
        self.bin = self.tmp / "bin"
        for folder in (self.repo, self.home, self.bin):
            folder.mkdir()
        (self.bin / "python3").symlink_to(python)
        self.env = {
            # This interpreter's folder too: the programs installed beside it (pre-commit).
            "PATH": os.pathsep.join([str(self.bin), _sandbox_path()]),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "CODEX_HOME": str(self.home / ".codex"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "COLUMNS": "100",
            # One pipe for stdout and stderr: unbuffered, they interleave as on a terminal.
            "PYTHONUNBUFFERED": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "doc", "GIT_AUTHOR_EMAIL": "doc@example.com",
            "GIT_COMMITTER_NAME": "doc", "GIT_COMMITTER_EMAIL": "doc@example.com",
        }
        self.fork = fork
        self.run(["git", "init", "-q", "-b", "main"])

    def put_hookwrap(self) -> None:
        """The sandbox's `hookwrap` command, before the first command that may run it (not
        sooner: a block refused before it runs starts no server)."""
        wrapper = self.bin / "hookwrap"
        if not wrapper.exists():
            wrapper.write_text(f"#!/bin/sh\n{_hookwrap_command(self.env) if self.fork else _FRESH}\n",
                               encoding="utf-8")
            wrapper.chmod(0o755)

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run(self, argv: list[str]) -> str:
        """Run a set-up command in the project; its output, or TranscriptError on failure."""
        done = subprocess.run(argv, cwd=self.repo, env=self.env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=TIMEOUT, check=False)
        if done.returncode != 0:
            raise TranscriptError(f"set-up command {shlex.join(argv)} failed ({done.returncode}): "
                                  f"{done.stdout}{done.stderr}")
        return done.stdout

    def hookwrap(self, *args: str) -> str:
        self.put_hookwrap()
        return self.run([str(self.bin / "hookwrap"), *args])

    def replacements(self) -> list[tuple[str, str]]:
        if self.python not in _VERSIONS:
            _VERSIONS[self.python] = subprocess.run(
                [self.python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True, text=True, timeout=60, check=True).stdout.strip()
        version = _VERSIONS[self.python]
        pairs = []
        for path, token in ((self.repo, "<repo>"), (self.home, "~"), (self.tmp, "<tmp>")):
            real = os.path.realpath(path)
            if real != str(path):
                pairs.append((real, token))
            pairs.append((str(path), token))
        return [*pairs, (f"Python {version}", "Python 3.x")]


_VERSIONS: dict[str, str] = {}  # interpreter -> its "3.x"

_FRESH = f'exec {shlex.quote(sys.executable)} -m hookwrap "$@"'
_SERVER: list[tuple[subprocess.Popen[bytes], str]] = []  # the fork server and its socket
_SERVER_LOCK = threading.Lock()


def _hookwrap_command(env: dict[str, str]) -> str:
    """The sandboxes' `hookwrap`: ``python -m hookwrap`` forked from one server, started once,
    that has imported hookwrap already (hookwrap_forks.py: ~80 ms of CPU less a command). The
    server's environment is a sandbox's (``env``), its HOME and folders a throwaway one of its
    own; each command gets its own sandbox's environment and folder."""
    with _SERVER_LOCK:
        if not _SERVER:
            base = Path(tempfile.mkdtemp(prefix="hookwrap-transcript-server-"))
            listen = str(base / "hookwrap.sock")
            if len(listen) >= 100 or not hasattr(os, "fork"):  # a Unix socket's path: < 108 bytes
                shutil.rmtree(base, ignore_errors=True)
                return _FRESH
            home = Path(env["HOME"]).parent
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(listen)
            listener.listen(64)
            server = subprocess.Popen(
                [sys.executable, str(FORKS), "serve", str(listener.fileno())], cwd=base,
                env={key: value.replace(str(home), str(base)) for key, value in env.items()},
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, pass_fds=[listener.fileno()],
                start_new_session=True)
            listener.close()
            _SERVER.append((server, listen))
            atexit.register(_stop_server, server, base)
        listen = _SERVER[0][1]
    return f"exec {shlex.quote(sys.executable)} -I -S {shlex.quote(str(FORKS))} connect " \
           f'{shlex.quote(listen)} "$@"'


def _stop_server(server: subprocess.Popen[bytes], base: Path) -> None:
    """Stop the server, and any command of it still running (a timed-out one)."""
    server.stdin.close()  # type: ignore[union-attr]
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait()
    shutil.rmtree(base, ignore_errors=True)


def _sandbox_path() -> str:
    """The PATH of a sandbox after its own bin folder: this interpreter's folder (pre-commit and
    the other programs installed beside it), then the PATH this script runs with."""
    return os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", os.defpath)])


# ----------------------------------------------------------------------------------- steps

def _hook_file(sandbox: Sandbox, name: str) -> Path:
    return sandbox.repo / ".hookwrap" / "hooks" / f"{name}.py"


def step_init(sandbox: Sandbox, arg: str) -> None:
    """`hookwrap init ARG` (ARG optional: `--platform codex`)."""
    sandbox.hookwrap("init", *shlex.split(arg))


def step_add(sandbox: Sandbox, arg: str) -> None:
    """`hookwrap add ARG`: `add:before_tool guard`."""
    sandbox.hookwrap("add", *shlex.split(arg))


def step_example(sandbox: Sandbox, arg: str) -> None:
    """The python example of the docs whose `hookwrap add` names hook ARG: that `add`, then the
    example as the hook's script (as tests/docs/test_python_examples.py installs it)."""
    found = [ex for ex in examples(sandbox.root) if ex.kind != "fragment" and ex.name == arg]
    if len(found) != 1:
        raise TranscriptError(f"setup example:{arg}: {len(found)} python examples add a hook {arg!r}")
    install_example(sandbox, found[0])


def install_example(sandbox: Sandbox, ex: Example) -> None:
    sandbox.hookwrap("add", *ex.add_args)
    script = _hook_file(sandbox, ex.name)
    script.write_text(hook_script(ex, script.read_text(encoding="utf-8")), encoding="utf-8")


def step_set(sandbox: Sandbox, arg: str) -> None:
    """`set:HOOK KEY=VALUE`: KEY of [hooks.HOOK] in hookwrap.toml becomes the TOML value VALUE
    (`set:guard timeout=20`, `set:stop_gate check="false"`); nothing is synced."""
    import tomlkit

    hook, _, assignment = arg.partition(" ")
    key, _, value = assignment.partition("=")
    path = sandbox.repo / "hookwrap.toml"
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["hooks"][hook][key.strip()] = tomlkit.parse(f"v = {value.strip()}")["v"]  # type: ignore[index]
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")


def step_raise(sandbox: Sandbox, arg: str) -> None:
    """`raise:NAME`: hook NAME (a rendered skeleton) raises ValueError("oops")."""
    script = _hook_file(sandbox, arg)
    script.write_text(put_hook_function(
        script.read_text(encoding="utf-8"),
        'def hook(event: HookInput) -> HookOutput | None:\n    raise ValueError("oops")\n'),
        encoding="utf-8")


def step_import(sandbox: Sandbox, arg: str) -> None:
    """`import:NAME MODULE`: hook NAME's script imports MODULE first (a module the hooks'
    interpreter does not have makes it fail at import, before it can answer)."""
    name, module = arg.split()
    script = _hook_file(sandbox, name)
    text = script.read_text(encoding="utf-8")
    marker = "from __future__ import annotations"
    head, found, rest = text.partition(marker)
    if not found:
        raise TranscriptError(f"setup import:{arg}: no {marker!r} line in {script.name}")
    line_end = rest.index("\n") + 1
    script.write_text(head + found + rest[:line_end] + f"\nimport {module}\n" + rest[line_end:],
                      encoding="utf-8")


def step_delete(sandbox: Sandbox, arg: str) -> None:
    """`delete:PATH`: delete a file of the project."""
    (sandbox.repo / arg).unlink()


def step_hand_entries(sandbox: Sandbox, arg: str) -> None:
    """Hand-written entries beside hookwrap's, with the mistakes docs/troubleshooting.md shows:
    Claude Code: a PostToolUse entry with a relative script path and a timeout of 0; Gemini
    CLI: the dead key tools.enableHooks and an AfterTool entry with "$GEMINI_PROJECT_DIR/..."
    in quotes, an unanchored matcher and a timeout of 5 (ms)."""
    claude = sandbox.repo / ".claude" / "settings.json"
    data = json.loads(claude.read_text(encoding="utf-8"))
    data["hooks"]["PostToolUse"] = [{"matcher": "Write", "hooks": [
        {"type": "command", "command": "./scripts/lint.sh", "timeout": 0}]}]
    claude.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    gemini = sandbox.repo / ".gemini" / "settings.json"
    data = json.loads(gemini.read_text(encoding="utf-8"))
    data["tools"] = {"enableHooks": True}
    data["hooks"]["AfterTool"] = [{"matcher": "write_file", "hooks": [
        {"type": "command", "command": 'bash "$GEMINI_PROJECT_DIR/lint.sh"', "timeout": 5}]}]
    gemini.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def hookwrap_name(command: str) -> str | None:
    """The hook a command of Claude Code's settings runs, when hookwrap wrote it."""
    from hookwrap.generator.clis import setup_of
    from hookwrap.names import Platform

    return setup_of(Platform.CLAUDE).owned_name(command)


def step_hand_edit_claude(sandbox: Sandbox, arg: str) -> None:
    """`hand-edit-claude:NAME SECONDS`: the timeout of hook NAME in .claude/settings.json,
    changed by hand."""
    name, seconds = arg.split()
    path = sandbox.repo / ".claude" / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for groups in data["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                if hookwrap_name(handler.get("command", "")) == name:
                    handler["timeout"] = int(seconds)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def step_pre_commit(sandbox: Sandbox, arg: str) -> None:
    """The local pre-commit hook of docs/ci-and-pre-commit.md in .pre-commit-config.yaml, and
    everything staged (pre-commit runs on staged files)."""
    (sandbox.repo / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: local\n    hooks:\n      - id: hookwrap-sync-check\n"
        "        name: hookwrap sync --check\n        entry: hookwrap sync --check\n"
        "        language: system\n        pass_filenames: false\n"
        "        files: ^(hookwrap\\.toml|\\.claude/settings\\.json|\\.gemini/settings\\.json|\\.hookwrap/)\n",
        encoding="utf-8")
    sandbox.run(["git", "add", "-A"])


# Set-up steps whose result is the same files whatever sandbox runs them, from the same project:
# `init`, `add` and `example` (an `add`, then the docs' script) write only into the project,
# from what is there. The project that a fresh
# sandbox's leading steps of these kinds make is kept (without .git), and a later fresh sandbox
# with the same leading steps and interpreter gets a copy instead of running them again (each
# is a `hookwrap` process: ~0.3 s of CPU, and most transcripts start with `init`).
_REPEATABLE = ("init", "add", "example")
_STATES: dict[tuple[str, tuple[str, ...]], Path] = {}
_STATE_DIR: list[Path] = []
_STATE_LOCK = threading.Lock()  # files render side by side (main)


def _restore(sandbox: Sandbox, steps: list[str]) -> int:
    """Copy the kept project of the longest leading run of ``steps``; how many steps it holds."""
    leading = 0
    while leading < len(steps) and steps[leading].partition(":")[0] in _REPEATABLE:
        leading += 1
    for count in range(leading, 0, -1):
        kept = _STATES.get((sandbox.python, tuple(steps[:count])))
        if kept is not None:
            shutil.copytree(kept, sandbox.repo, symlinks=True, dirs_exist_ok=True)
            return count
    return 0


def _keep(sandbox: Sandbox, steps: list[str]) -> None:
    with _STATE_LOCK:
        if not _STATE_DIR:
            _STATE_DIR.append(Path(tempfile.mkdtemp(prefix="hookwrap-transcript-states-")))
            atexit.register(shutil.rmtree, _STATE_DIR[0], True)
    kept = Path(tempfile.mkdtemp(dir=_STATE_DIR[0])) / "repo"
    shutil.copytree(sandbox.repo, kept, symlinks=True, ignore=lambda folder, names:
                    [".git"] if Path(folder) == sandbox.repo else [])
    _STATES[(sandbox.python, tuple(steps))] = kept


def run_steps(sandbox: Sandbox, block: Block, steps: list[str]) -> None:
    """Run the set-up ``steps`` (the leading `init`, `add` and `example` steps of a fresh sandbox
    from a kept copy when an earlier sandbox ran the same)."""
    for step in steps:
        if step.partition(":")[0] not in STEPS:
            raise TranscriptError(f"{block.where}: unknown setup step {step.partition(':')[0]!r} "
                                  f"(one of {', '.join(STEPS)})")
    done = _restore(sandbox, steps) if sandbox.fresh else 0
    for index in range(done, len(steps)):
        name, _, arg = steps[index].partition(":")
        STEPS[name](sandbox, arg)
        if sandbox.fresh and all(s.partition(":")[0] in _REPEATABLE for s in steps[:index + 1]):
            _keep(sandbox, steps[:index + 1])
    sandbox.fresh = False


STEPS: dict[str, Callable[[Sandbox, str], None]] = {
    "init": step_init,
    "add": step_add,
    "example": step_example,
    "set": step_set,
    "raise": step_raise,
    "import": step_import,
    "delete": step_delete,
    "hand-entries": step_hand_entries,
    "hand-edit-claude": step_hand_edit_claude,
    "pre-commit": step_pre_commit,
}


# ---------------------------------------------------------------------------------- blocks

def _fields(block: Block) -> tuple[str, list[str], str]:
    """The sandbox, the set-up steps and the required program of a transcript marker."""
    sandbox, *rest = block.marker_fields
    steps: list[str] = []
    requires = ""
    for item in rest:
        key, _, value = item.partition(":")
        if key.strip() == "setup":
            steps += [s.strip() for s in value.split(",") if s.strip()]
        elif key.strip() == "requires":
            requires = value.strip()
        else:
            raise TranscriptError(f"{block.where}: unknown marker field {item!r} "
                                  "(setup: ..., requires: ...)")
    if not re.fullmatch(r"[\w-]+", sandbox):
        raise TranscriptError(f"{block.where}: the sandbox name {sandbox!r} is not a word")
    return sandbox, steps, requires


def _check_allowed(block: Block, command: str) -> None:
    """Refuse a command whose programs are not in ALLOWED (after VAR=value prefixes), and one
    that would run anything else through bash: a substitution outside single quotes
    (``$(...)``, backquotes, ``<(...)``, ``>(...)``). Docs show dangerous commands as text for
    a hook to read, always single-quoted; bash must never run one."""
    unquoted = re.sub(r"'[^']*'", "''", command)
    if any(mark in unquoted for mark in ("$(", "`", "<(", ">(")):
        raise TranscriptError(f"{block.where}: refusing to run a command with a substitution "
                              "outside single quotes")
    lexer = shlex.shlex(command.replace("\\\n", " "), posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    starts, expect = [], True
    for token in lexer:
        if token and set(token) <= set(";&|"):
            expect = True
        elif expect and not re.fullmatch(r"[A-Za-z_]\w*=.*", token):
            starts.append(token)
            expect = False
    bad = [word for word in starts if word not in ALLOWED]
    if bad:
        raise TranscriptError(f"{block.where}: refusing to run {bad[0]!r} "
                              f"(a transcript may run only {', '.join(sorted(ALLOWED))})")


def run_block(sandbox: Sandbox, block: Block, steps: list[str]) -> list[str]:
    """The block's lines with each command's output replaced by what it prints now."""
    cmds = commands(block)
    if not cmds:
        raise TranscriptError(f"{block.where}: a transcript without a `$ ` command")
    run_steps(sandbox, block, steps)
    script = ["exec 2>&1"]
    for index, cmd in enumerate(cmds):
        _check_allowed(block, cmd.shell)
        script += [f"__status=$?; printf '\\n{_SEPARATOR.format(index)}\\n'; (exit $__status)",
                   cmd.shell]
    script.append(f"printf '\\n{_SEPARATOR.format(len(cmds))}\\n'")
    sandbox.put_hookwrap()
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=sandbox.repo, env=sandbox.env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                          timeout=TIMEOUT, check=False)
    parts = _SPLIT.split(done.stdout)
    if len(parts) != len(cmds) + 2:
        raise TranscriptError(f"{block.where}: the commands did not all run:\n{done.stdout}")
    replacements = sandbox.replacements()
    lines: list[str] = []
    for cmd, output in zip(cmds, parts[1:-1]):
        lines += cmd.lines
        text = normalise(output, replacements).rstrip("\n")
        if text:
            lines += text.split("\n")
    return lines


def sandbox_steps(path: Path) -> dict[str, list[str]]:
    """Each sandbox of ``path`` and the set-up steps of all its transcripts."""
    found: dict[str, list[str]] = {}
    for block in blocks(path):
        if block.marker_kind == "transcript":
            name, steps, _ = _fields(block)
            found.setdefault(name, []).extend(steps)
    return found


def render(root: Path, path: Path, messages: list[str], python: str = sys.executable,
           only: set[str] | None = None) -> str:
    """The text of ``path`` with every transcript rewritten from a fresh run, its hooks run by
    ``python``; with ``only``, the transcripts of those sandboxes only."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    sandboxes: dict[str, Sandbox] = {}
    try:
        # Run in document order (later blocks see what earlier ones did), then splice from the
        # end so the line numbers of earlier blocks stay valid.
        new_bodies: list[tuple[Block, list[str]]] = []
        for block in blocks(path, text):
            if block.marker_kind != "transcript":
                continue
            name, steps, requires = _fields(block)
            if only is not None and name not in only:
                continue
            if requires and shutil.which(requires, path=_sandbox_path()) is None:
                messages.append(f"skipped {block.where}: {requires} is not installed")
                continue
            if name not in sandboxes:
                sandboxes[name] = Sandbox(root, python)
            new_bodies.append((block, run_block(sandboxes[name], block, steps)))
    finally:
        for sandbox in sandboxes.values():
            sandbox.close()
    for block, body in reversed(new_bodies):
        lines[block.start + 1:block.end] = body
    return "\n".join(lines)


def _render_file(root: Path, path: Path) -> tuple[str, list[str], Exception | None]:
    """render() of one file: its text, its messages, or the error that stopped it."""
    messages: list[str] = []
    try:
        return render(root, path, messages), messages, None
    except (TranscriptError, ValueError) as error:
        return "", messages, error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path,
                        help="the docs to process (default: README.md and docs/*.md)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a transcript differs from a fresh run")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the repository root (default: this script's repository)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    files = [(root / f if not f.is_absolute() else f) for f in args.files] or doc_files(root)
    stale, messages = [], []
    # Each file's sandboxes are its own: the files render side by side (their commands are
    # processes), and are compared and written in order.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = [pool.submit(_render_file, root, path) for path in files]
        results = [future.result() for future in futures]
    for path, (wanted, file_messages, error) in zip(files, results):
        if error is not None:
            print(f"error: {error}", file=sys.stderr)
            return 1
        messages += file_messages
        current = path.read_text(encoding="utf-8")
        if current == wanted:
            continue
        rel = path.relative_to(root)
        stale.append(str(rel))
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(
                current.splitlines(True), wanted.splitlines(True), f"{rel} (current)",
                f"{rel} (fresh run)"))
        else:
            path.write_text(wanted, encoding="utf-8")
            print(f"wrote {rel}")
    for message in messages:
        print(message, file=sys.stderr)
    if args.check and stale:
        print(f"out of date: {', '.join(stale)}\nhint: run `python scripts/gen_transcripts.py`",
              file=sys.stderr)
        return 1
    if not stale:
        print("transcripts are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
