"""The rendered guard against the corpus: recall and false positives per category, on every CLI.

Usage: python benchmarks/guard.py [--corpus tuning|heldout|both|DIR] [--cli NAME ...]
                                  [--category NAME ...] [--show WHAT] [--reveal-heldout]
                                  [--check N] [--no-peer] [--python PY] [--setting KEY=VALUE ...]
                                  [--packs-on NAME ...] [--json FILE] [--stats] [--keep]

Two corpora, scored apart (--corpus both, the default): the tuning corpus,
tests/fixtures/guard_corpus/*.tsv, which the guard's rules were written against, and the held-out
split, tests/fixtures/guard_heldout/*.tsv, other projects' test cases and tldr-pages' examples
that the rules are never written against (each folder's README.md gives the format and sources).
The held-out split's misses and blocked safe calls are counted by category unless
--reveal-heldout lists them, so that reading the report does not tune the rules. A throwaway
project is made outside /tmp (guards treat /tmp as scratch space), `hookwrap init` for every
platform and `hookwrap add before_tool guard` render the guard there, and every case goes to the
rendered hook as each CLI's payload (built from the CLI records, as `hookwrap test` builds them;
a CLI's registered matcher decides whether the hook is called at all); the hook's answer is read
by that CLI's rules (`AgentSetup.interpret`, `hookwrap.generator.clis`). Nothing is executed: the guard only classifies.

The cases of one CLI run in one process on the hook interpreter, one after the other, each as
`python3 .hookwrap/hooks/guard.py --platform CLI` would run them (same argv, stdin, cwd and
environment; the script's code is compiled once). `--check N` runs N cases per CLI through the
real registered command, one process each, and compares the verdicts (and gives the CPU per
process next to the cheapest possible hook). The npm peer, cc-safety-net (pinned in
.ci/install-clis.sh), gets the same cases where it is installed: shell commands through its
library API in one node process, file-tool calls and a sample of shell commands through its
Claude Code hook.

Standard library only, plus hookwrap itself (run it with the venv that has hookwrap installed).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwrap.generator.pins import PINS

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS_DIR = REPO / "tests" / "fixtures" / "guard_corpus"
HELDOUT_DIR = REPO / "tests" / "fixtures" / "guard_heldout"
SPLITS = {"tuning": CORPUS_DIR, "heldout": HELDOUT_DIR}
HOOK = "guard"
PEER = "cc-safety-net"
PEER_VERSION = PINS[PEER].version  # the release .ci/install-clis.sh installs
TOOLS = ("shell", "write_file", "edit_file", "read_file")
PACKS = ("infrastructure", "databases", "backups")
# A hook's answer that stops the call: a deny, an ask (the user must say yes), a stop.
BLOCKING = frozenset({"blocked", "ask", "stopped"})
# The thresholds of issue 22, which tests/safety/test_guard_corpus.py holds the guard to.
RECALL_TARGET = 0.90
FP_TARGET = 0.01
# Issue 31's goal on the held-out split: reported by the benchmark, asserted only once it is met
# (tests/safety/test_guard_heldout.py holds the guard to a floor under today's score meanwhile).
HELDOUT_RECALL_GOAL = 0.90
HELDOUT_FP_GOAL = 0.005
# The cheapest possible hook (benchmarks/run.py's floor): what any hook process costs at least.
FLOOR_HOOK = 'import json, sys\njson.load(sys.stdin)\nprint("{}")\n'


class CorpusError(ValueError):
    """A corpus line that does not follow the format (README.md)."""


@dataclass(frozen=True)
class Case:
    expect: str  # "block" or "allow"
    category: str
    pack: str  # "" outside the opt-in packs
    tool: str  # normalized: shell, write_file, edit_file, read_file
    cwd: str  # relative to the project root ("." = the root)
    input: str  # the command line, or the file path
    why: str
    where: str  # file:line

    @property
    def dangerous(self) -> bool:
        return self.expect == "block"


def load_corpus(directory: Path = CORPUS_DIR) -> list[Case]:
    """Every case of the *.tsv files in ``directory``, in file and line order."""
    cases: list[Case] = []
    seen: dict[tuple[str, str, str], str] = {}
    files = sorted(Path(directory).glob("*.tsv"))
    if not files:
        raise CorpusError(f"no *.tsv file in {directory}")
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            where = f"{path.name}:{number}"
            fields = line.split("\t")
            if len(fields) != 7:
                raise CorpusError(f"{where}: {len(fields)} tab-separated fields, expected 7")
            expect, category, pack, tool, cwd, text, why = fields
            if expect not in ("block", "allow"):
                raise CorpusError(f"{where}: expect is {expect!r}, not block or allow")
            if pack != "-" and pack not in PACKS:
                raise CorpusError(f"{where}: unknown pack {pack!r} (use - or {', '.join(PACKS)})")
            if pack != "-" and expect != "block":
                raise CorpusError(f"{where}: a pack case is a block case (its pack turns the block on)")
            if tool not in TOOLS:
                raise CorpusError(f"{where}: unknown tool {tool!r} (use {', '.join(TOOLS)})")
            if not category or not why:
                raise CorpusError(f"{where}: empty category or why")
            if cwd.startswith("/") or ".." in cwd.split("/"):
                raise CorpusError(f"{where}: cwd {cwd!r} must be a folder inside the project")
            if text.startswith("json:"):
                try:
                    text = json.loads(text[5:])
                except ValueError as error:
                    raise CorpusError(f"{where}: bad json: input ({error})") from None
                if not isinstance(text, str):
                    raise CorpusError(f"{where}: a json: input must be a JSON string")
            if not text:
                raise CorpusError(f"{where}: empty input")
            key = (tool, cwd, text)
            if key in seen:
                raise CorpusError(f"{where}: the same call as {seen[key]}")
            seen[key] = where
            cases.append(Case(expect, category, "" if pack == "-" else pack, tool, cwd, text, why, where))
    return cases


# --- the sandbox ---------------------------------------------------------------------------------

@dataclass
class Sandbox:
    base: Path
    home: Path
    root: Path  # the project
    tmp: Path

    def expand(self, text: str) -> str:
        return text.replace("@HOME@", str(self.home)).replace("@ROOT@", str(self.root))

    def cwd(self, case: Case) -> str:
        return str(self.root) if case.cwd in ("", ".") else os.path.join(str(self.root), case.cwd)

    def env(self, path_first: str | None = None) -> dict[str, str]:
        """The environment of every hook process: a throwaway HOME, XDG dirs and TMPDIR."""
        keep = ("PATH", "LANG", "LC_ALL", "TERM", "SYSTEMROOT")
        env = {key: os.environ[key] for key in keep if key in os.environ}
        env.update(HOME=str(self.home), TMPDIR=str(self.tmp), USER="dev", LOGNAME="dev",
                   SHELL="/bin/bash", XDG_CONFIG_HOME=str(self.home / ".config"),
                   XDG_DATA_HOME=str(self.home / ".local/share"),
                   XDG_CACHE_HOME=str(self.home / ".cache"), XDG_STATE_HOME=str(self.home / ".local/state"),
                   CODEX_HOME=str(self.home / ".codex"), GIT_CONFIG_NOSYSTEM="1")
        if path_first:
            env["PATH"] = path_first + os.pathsep + env.get("PATH", "")
        return env


def sandbox_base() -> Path:
    """Where sandboxes are made: $HOOKWRAP_GUARD_SANDBOX, else ~/.cache/hookwrap-guard-bench of
    the user's own home (from the password database: a test's throwaway HOME is under /tmp).

    Not under /tmp nor $TMPDIR: the peer (and any guard that allows deletes in scratch space)
    would take every path of a project there for a temp path, and allow `rm -rf ~/Documents`.
    Each sandbox is a fresh folder inside it, removed when the run ends.
    """
    given = os.environ.get("HOOKWRAP_GUARD_SANDBOX")
    if given:
        return Path(given).expanduser().resolve()
    return (real_home() / ".cache" / "hookwrap-guard-bench").resolve()


def real_home() -> Path:
    """The user's home from the password database, whatever $HOME says (tests change it)."""
    try:
        import pwd

        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):
        return Path.home()


def in_temp_dir(path: Path) -> bool:
    temps = {Path("/tmp").resolve(), Path("/var/tmp").resolve(), Path(tempfile.gettempdir()).resolve()}
    return any(path == temp or temp in path.parents for temp in temps)


_FILES = {
    "README.md": "# proj\n",
    "package.json": '{"name": "proj", "version": "1.0.0", "scripts": {"test": "jest"}}\n',
    ".gitignore": ".env\n.env.*\n!.env.example\nbuild/\ndist/\nnode_modules/\n",
    ".env": "API_KEY=not-a-real-secret\n",
    ".env.example": "API_KEY=\n",
    "src/__init__.py": "",
    "src/app.py": "print('hello')\n",
    "src/config/settings.py": "DEBUG = False\n",
    "tests/test_app.py": "def test_app():\n    assert True\n",
    "docs/index.md": "# docs\n",
    "build/out.txt": "built\n",
    "dist/app.js": "console.log(1)\n",
    "certs/server.crt": "not a real certificate\n",
    "certs/server.key": "not a real key\n",
}
_HOME_FILES = {
    ".ssh/id_rsa": "not a real key\n", ".ssh/id_ed25519": "not a real key\n",
    ".ssh/id_ed25519.pub": "ssh-ed25519 AAAA dev@host\n", ".ssh/config": "Host *\n",
    ".aws/credentials": "[default]\n", ".kube/config": "apiVersion: v1\n",
    ".docker/config.json": "{}\n", ".netrc": "machine example.com\n", ".gitconfig": "[user]\n",
    ".bashrc": "# bashrc\n", "Documents/notes.txt": "notes\n", "Downloads/file.zip": "",
    "work/other/README.md": "# other\n",
}


def make_sandbox(generator: str, settings: dict[str, object] | None = None,
                 base: Path | None = None) -> Sandbox:
    """A fresh home, project and temp dir, with the guard rendered for every platform."""
    box = _new_sandbox(base)
    try:
        return _fill_sandbox(box, generator, settings)
    except BaseException:
        shutil.rmtree(box.base, ignore_errors=True)
        raise


def copy_sandbox(source: Sandbox, generator: str, settings: dict[str, object] | None = None,
                 base: Path | None = None) -> Sandbox:
    """A fresh sandbox holding a copy of ``source``'s home and project (no file in them names
    their folder), with ``settings`` then set and synced: what make_sandbox makes, without
    running git, `init` and `add` again."""
    box = _new_sandbox(base)
    try:
        shutil.copytree(source.home, box.home, symlinks=True)
        box.tmp.mkdir()
        _configure(box, generator, settings)
        return box
    except BaseException:
        shutil.rmtree(box.base, ignore_errors=True)
        raise


def _new_sandbox(base: Path | None) -> Sandbox:
    parent = base or sandbox_base()
    parent.mkdir(parents=True, exist_ok=True)
    top = Path(tempfile.mkdtemp(prefix="run-", dir=parent)).resolve()
    return Sandbox(top, top / "home", top / "home" / "work" / "proj", top / "tmp")


def _fill_sandbox(box: Sandbox, generator: str, settings: dict[str, object] | None) -> Sandbox:
    for folder in (box.root, box.tmp):
        folder.mkdir(parents=True)
    for name, text in _HOME_FILES.items():
        (box.home / name).parent.mkdir(parents=True, exist_ok=True)
        (box.home / name).write_text(text)
    for name, text in _FILES.items():
        (box.root / name).parent.mkdir(parents=True, exist_ok=True)
        (box.root / name).write_text(text)
    env = box.env()
    git = ["git", "-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main"]
    for argv in ([*git, "init", "-q"], [*git, "add", "-A"], [*git, "commit", "-qm", "initial"]):
        _run(argv, cwd=box.root, env=env)
    from hookwrap.platforms import Platform

    init = [generator, "-m", "hookwrap", "init"]
    for platform in Platform:
        init += ["--platform", platform.value]
    _run(init, cwd=box.root, env=env)
    _run([generator, "-m", "hookwrap", "add", "before_tool", HOOK], cwd=box.root, env=env)
    _configure(box, generator, settings)
    return box


def _configure(box: Sandbox, generator: str, settings: dict[str, object] | None) -> None:
    if settings:
        apply_settings(box, settings)
        _run([generator, "-m", "hookwrap", "sync"], cwd=box.root, env=box.env())


def apply_settings(box: Sandbox, settings: dict[str, object]) -> None:
    """Set keys of the guard's [hooks.guard] table in hookwrap.toml (comments kept)."""
    import tomlkit

    path = box.root / "hookwrap.toml"
    document = tomlkit.parse(path.read_text())
    table = document["hooks"][HOOK]  # type: ignore[index]
    for key, value in settings.items():
        table[key] = value  # type: ignore[index]
    path.write_text(tomlkit.dumps(document))


def parse_setting(text: str) -> tuple[str, object]:
    """KEY=VALUE with a TOML value (`allow_lease=false`, `packs=["databases"]`)."""
    import tomllib

    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=VALUE")
    try:
        parsed = tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value  # a bare word: a string
    return key.strip(), parsed


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:5])} exited {done.returncode}: "
                           f"{(done.stderr or done.stdout).strip()[-500:]}")
    return done


# --- payloads --------------------------------------------------------------------------------------

@dataclass
class Registration:
    platform: str
    event: str  # the CLI's own event name
    command: Any  # hookwrap.checks.host.HookCommand


def registrations(box: Sandbox, platforms: list[str]) -> dict[str, Registration]:
    """The guard's registration on each platform, read back from the settings files."""
    from hookwrap.checks import host
    from hookwrap.checks.hooktest import owned_name
    from hookwrap.generator.settings import project_settings
    from hookwrap.platforms import Platform

    found = {}
    for name in platforms:
        data = project_settings(box.root, Platform(name))[1]
        mine = [c for c in host.commands_from_settings(name, data) if owned_name(c.command) == HOOK]
        if mine:
            found[name] = Registration(name, mine[0].event, mine[0])
    return found


def _claude_input(case: Case, box: Sandbox) -> dict[str, str]:
    if case.tool == "shell":
        return {"command": box.expand(case.input)}
    path = box.expand(case.input)
    path = os.path.normpath(os.path.join(box.cwd(case), path))  # the CLIs send absolute paths
    if case.tool == "write_file":
        return {"file_path": path, "content": "X=1\n"}
    if case.tool == "edit_file":
        return {"file_path": path, "old_string": "X=1", "new_string": "X=2"}
    return {"file_path": path}


def claude_payload(case: Case, box: Sandbox) -> dict:
    """Claude Code's PreToolUse payload of ``case`` (a new dict each call: made once per case and
    sandbox, then read back; every CLI's payload starts from it)."""
    return json.loads(_claude_payload_text(case, box.base, box.home, box.root, box.tmp))


@functools.lru_cache(maxsize=8192)
def _claude_payload_text(case: Case, base: Path, home: Path, root: Path, tmp: Path) -> str:
    from hookwrap.platforms import Platform
    from hookwrap.generator.samples import sample_payload

    box = Sandbox(base, home, root, tmp)
    tool = {"shell": "Bash", "write_file": "Write", "edit_file": "Edit", "read_file": "Read"}[case.tool]
    payload = sample_payload(Platform.CLAUDE, "PreToolUse", project_dir=box.root, home=box.home,
                             tool=tool, tool_input=_claude_input(case, box))
    payload["cwd"] = box.cwd(case)
    return json.dumps(payload)


def platform_payload(case: Case, box: Sandbox, reg: Registration) -> dict | None:
    """The payload ``reg.platform`` sends for this call, or None when it has no such tool."""
    from hookwrap.platforms import Platform, runtime_of

    if reg.platform == "claude":
        return claude_payload(case, box)
    agent = runtime_of(Platform(reg.platform))
    own = agent.payload_for(_claude_call(case, box.base, box.home, box.root, box.tmp),
                            runtime_of(Platform.CLAUDE))
    # A CLI without the tool keeps Claude's name, which it does not read as that tool.
    if own is None or agent.normalize_call(own["tool_name"], own["tool_input"]) != case.tool:
        return None
    # sample_payload(..., tool_input=own["tool_input"]), its sample read and filled in once per
    # CLI, event, tool and sandbox (the guard tests build ~22,000 payloads): the tool input
    # comes from Claude Code's payload, whose placeholders sample_payload filled already.
    payload = json.loads(_sample_text(reg.platform, reg.event, own["tool_name"], box.root, box.home))
    payload["tool_input"] = own["tool_input"]
    payload["cwd"] = box.cwd(case)
    return payload


@functools.lru_cache(maxsize=8192)
def _claude_call(case: Case, base: Path, home: Path, root: Path, tmp: Path) -> Any:
    """Claude Code's payload of ``case`` as the runtime reads it (a HookInput, read-only here:
    every other CLI's payload is made from it)."""
    from hookwrap.hookinput import normalize_input
    from hookwrap.platforms import Platform

    return normalize_input(_claude_payload_text(case, base, home, root, tmp), Platform.CLAUDE)


@functools.lru_cache(maxsize=1024)
def _sample_text(platform: str, event: str, tool: str, root: Path, home: Path) -> str:
    from hookwrap.platforms import Platform
    from hookwrap.generator.samples import sample_payload

    return json.dumps(sample_payload(Platform(platform), event, project_dir=root, home=home, tool=tool,
                                     tool_input={}))


# --- running the rendered hook ---------------------------------------------------------------------

@dataclass
class Outcome:
    verdict: str  # "block", "allow", or "n/a" (this CLI cannot make the call)
    reason: str = ""
    cpu_ms: float = 0.0
    called: bool = True  # False: the CLI's matcher does not select the tool

    @property
    def blocked(self) -> bool:
        return self.verdict == "block"


# Runs the hook script once per payload, as `python3 <script> --platform <cli>` would: the same
# argv, sys.path[0], stdin, __name__ and __file__, in this process (compiled once). The jobs file
# holds [platform, environment or null (the process's own), [payload, ...]] per platform.
# --share-engine (run_batches): the guard engine's finding is worked out once per distinct call
# as the engine reads it (KEY below) and reused for every other payload, of any platform, that
# reads the same; each payload still goes through its platform's whole hook (stdin, its
# normalization, the hook, its output and exit code). The engine may read nothing of the call
# but what the key holds (hookwrap.toml, which it also reads, does not change during a run):
# any other read stops the run.
DRIVER = r"""
import builtins, io, json, os, sys, time
script, jobs_file, out_file = sys.argv[1:4]
with open(script, "rb") as handle:
    code = compile(handle.read(), script, "exec", dont_inherit=True)
with open(jobs_file, encoding="utf-8") as handle:
    jobs = json.load(handle)
path = [os.path.dirname(script)] + sys.path[1:]
share = "--share-engine" in sys.argv[4:]
if share:
    sys.path[:] = [os.path.join(os.path.dirname(os.path.abspath(script)), os.pardir, "lib")] + path
    from hookwrap import guard_engine
    assert guard_engine.__file__.startswith(sys.path[0]), guard_engine.__file__  # the hook's own
    KEYED = {"tool_name", "cwd", "file_paths", "shell_lines"}  # and tool_input of a read_file
    stray = set()

    class Reads:  # the call as the engine sees it, refusing what the key does not hold
        def __init__(self, event):
            self.event = event

        def __getattr__(self, name):
            if name in KEYED or (name == "tool_input" and self.event.tool_name == "read_file"):
                return getattr(self.event, name)
            stray.add(f"the guard engine read event.{name}, which --share-engine's key does not "
                      "hold: add it to KEYED and to the key")
            raise AttributeError(name)  # the hook fails; the driver exits with the message

    real, memo = guard_engine.Guard.finding, {}

    def finding(self, event):
        key = (event.tool_name, event.cwd or os.getcwd(), tuple(event.file_paths),
               tuple(event.shell_lines), json.dumps(event.tool_input, sort_keys=True, default=repr)
               if event.tool_name == "read_file" else None,
               tuple(map(os.environ.get, ("HOME", "TMPDIR", "USER", "LOGNAME", "HOOKWRAP_SCOPE"))),
               repr({name: getattr(self, name) for name in guard_engine.SETTINGS}), self.script,
               repr(self.extra_rules))
        if key not in memo:
            memo[key] = real(self, Reads(event))
        return memo[key]

    guard_engine.Guard.finding = finding
saved = sys.stdout, sys.stderr
results = []
for platform, env, payloads in jobs:
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    rows = []
    for text in payloads:
        sys.argv = [script, "--platform", platform]
        sys.path[:] = path
        sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = out, err
        status = 0
        start = time.process_time()
        try:
            exec(code, {"__name__": "__main__", "__file__": script, "__builtins__": builtins})
        except SystemExit as stop:
            if stop.code is None or isinstance(stop.code, int):
                status = stop.code or 0
            else:
                status = 1
                err.write(str(stop.code))
        except BaseException as error:  # a crash is the hook's answer too
            status = 1
            err.write(repr(error))
        used = (time.process_time() - start) * 1000
        sys.stdout, sys.stderr = saved
        rows.append([status, out.getvalue(), err.getvalue()[-4000:], used])
    results.append(rows)
if share and stray:
    sys.exit("; ".join(sorted(stray)))
with open(out_file, "w", encoding="utf-8") as handle:
    json.dump(results, handle)
"""


def run_batch(box: Sandbox, reg: Registration, cases: list[Case], python: str) -> list[Outcome]:
    """Every case through the rendered hook on one platform, in one process."""
    return run_payloads(box, reg, [platform_payload(case, box, reg) for case in cases], python)


def run_batches(box: Sandbox, regs: dict[str, Registration], cases: list[Case],
                python: str) -> dict[str, list[Outcome]]:
    """run_batch on each platform of ``regs``, in one process with the engine shared
    (DRIVER's --share-engine): each case's verdict on each platform as run_batch gives it, for
    a fraction of the CPU. Not for measuring: the hook's CPU per case is no longer its own."""
    selected = {name: _selected(reg, [platform_payload(case, box, reg) for case in cases])
                for name, reg in regs.items()}
    jobs = [(name, _hook_env(box, reg, sent, python), sent) for name, reg in regs.items()
            for sent in [selected[name][1]]]
    answers = _drive(box, "all", jobs, python, share_engine=True)
    return {name: _interpreted(reg, *selected[name], rows)
            for (name, reg), rows in zip(regs.items(), answers)}


def run_payloads(box: Sandbox, reg: Registration, payloads: list[dict | None],
                 python: str) -> list[Outcome]:
    """Each payload (``reg.platform``'s own; None: the CLI cannot make the call) through the
    rendered hook, in one process, when the registered matcher selects its tool."""
    outcomes, sent = _selected(reg, payloads)
    rows = _drive(box, reg.platform, [(reg.platform, None, sent)], python,
                  env=_hook_env(box, reg, sent, python))[0] if sent else []
    return _interpreted(reg, outcomes, sent, rows)


def _selected(reg: Registration, payloads: list[dict | None]
              ) -> tuple[list[Outcome | None], list[tuple[int, dict]]]:
    """The outcome of each payload the hook is not called for, and those it is called for."""
    from hookwrap.checks import host

    outcomes: list[Outcome | None] = []
    sent: list[tuple[int, dict]] = []
    for index, payload in enumerate(payloads):
        if payload is None:
            outcomes.append(Outcome("n/a"))
            continue
        target = host.match_target(reg.platform, reg.event, payload)
        if not host.matcher_matches(reg.platform, reg.event, reg.command.matcher, target):
            outcomes.append(Outcome("allow", called=False))
            continue
        outcomes.append(None)
        sent.append((index, payload))
    return outcomes, sent


def _hook_env(box: Sandbox, reg: Registration, sent: list[tuple[int, dict]], python: str) -> dict[str, str]:
    from hookwrap.checks import host

    return host.hook_env(reg.platform, sent[0][1] if sent else {}, project_dir=box.root,
                         base=box.env(str(Path(python).parent)))


def _drive(box: Sandbox, label: str, jobs: list[tuple[str, dict[str, str] | None, list[tuple[int, dict]]]],
           python: str, *, env: dict[str, str] | None = None, share_engine: bool = False) -> list[list]:
    """DRIVER's answers ([status, stdout, stderr, CPU ms] per payload) for each job."""
    script = box.root / ".hookwrap" / "hooks" / f"{HOOK}.py"
    work = Path(tempfile.mkdtemp(prefix=f"{label}-", dir=box.base))
    (work / "jobs.json").write_text(json.dumps(
        [[name, job_env, [json.dumps(p) for _, p in sent]] for name, job_env, sent in jobs]), encoding="utf-8")
    (work / "driver.py").write_text(DRIVER)
    _run([python, str(work / "driver.py"), str(script), str(work / "jobs.json"), str(work / "out.json"),
          *(["--share-engine"] if share_engine else [])],
         cwd=box.root, env=env if env is not None else next((e for _, e, _ in jobs if e), None))
    return json.loads((work / "out.json").read_text(encoding="utf-8"))


def _interpreted(reg: Registration, outcomes: list[Outcome | None], sent: list[tuple[int, dict]],
                 rows: list) -> list[Outcome]:
    """The outcomes with the hook's answers read as ``reg.platform`` reads them."""
    from hookwrap.generator.clis import setup_of
    from hookwrap.checks.host import RunResult

    read: dict[tuple[int, str, str], tuple[str, str]] = {}  # an answer's reading (a pure function)
    for (index, _), (status, out, err, cpu) in zip(sent, rows, strict=True):
        if (status, out, err) not in read:
            verdict = setup_of(reg.platform).interpret(reg.event, RunResult(status, out, err, 0),
                                                       reg.command.on_failure)
            read[status, out, err] = ("block" if verdict.outcome in BLOCKING else "allow", verdict.reason)
        outcomes[index] = Outcome(*read[status, out, err], cpu)
    return [outcome or Outcome("allow") for outcome in outcomes]


@dataclass
class ProcessCheck:
    """Cases run through the real registered command, one process each."""

    platform: str
    runs: int = 0
    mismatches: list[tuple[Case, str, str]] = field(default_factory=list)  # case, batch, process
    cpu_ms: list[float] = field(default_factory=list)
    floor_ms: list[float] = field(default_factory=list)  # the cheapest hook, run right after each
    failures: list[str] = field(default_factory=list)  # runs that ended without an answer


def sample_cases(cases: list[Case], count: int, seed: int = 22) -> list[int]:
    """``count`` case indexes, half of them block cases, the same for every run of a corpus."""
    rng = random.Random(seed)
    block = [i for i, c in enumerate(cases) if c.dangerous]
    allow = [i for i, c in enumerate(cases) if not c.dangerous]
    picked = rng.sample(block, min(len(block), count // 2))
    picked += rng.sample(allow, min(len(allow), count - len(picked)))
    return sorted(picked)


def children_cpu_ms() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (used.ru_utime + used.ru_stime) * 1000


def process_check(box: Sandbox, reg: Registration, cases: list[Case], batch: list[Outcome],
                  indexes: list[int], python: str, *, floor_runs: bool = True) -> ProcessCheck:
    """Each case of ``indexes`` through the registered command, one process each, compared with
    its batch verdict; with ``floor_runs``, the cheapest hook run after each (its CPU the
    floor the benchmark's table shows)."""
    from hookwrap.checks import host
    from hookwrap.generator.clis import setup_of

    check = ProcessCheck(reg.platform)
    floor = box.base / "floor.py"
    floor.write_text(FLOOR_HOOK)
    env = box.env(str(Path(python).parent))
    for index in indexes:
        if batch[index].verdict == "n/a" or not batch[index].called:
            continue
        payload = platform_payload(cases[index], box, reg)
        before = children_cpu_ms()
        result = host.run_command(reg.command, payload, project_dir=box.root, env=env)  # type: ignore[arg-type]
        check.cpu_ms.append(children_cpu_ms() - before)
        if floor_runs:
            before = children_cpu_ms()
            subprocess.run(["bash", "-c", f'python3 "{floor}"'], input=json.dumps(payload).encode(),
                           capture_output=True, cwd=box.root, env=env, check=False)
            check.floor_ms.append(children_cpu_ms() - before)
        verdict = setup_of(reg.platform).interpret(reg.event, result, reg.command.on_failure)
        got = "block" if verdict.outcome in BLOCKING else "allow"
        check.runs += 1
        if got != batch[index].verdict:
            check.mismatches.append((cases[index], batch[index].verdict, got))
    return check


# --- the npm peer ----------------------------------------------------------------------------------

def peer_dir() -> Path:
    cache = Path(os.environ.get("HOOKWRAP_CLI_CACHE") or real_home() / ".cache" / "hookwrap-clis")
    return cache / PEER / "node_modules" / PEER


def peer_available() -> str:
    """"" when the pinned peer is installed and node runs, else why not."""
    package = peer_dir() / "package.json"
    if shutil.which("node") is None:
        return "node is not on PATH"
    try:
        version = json.loads(package.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return f"{PEER} is not installed in {peer_dir().parent} (.ci/install-clis.sh {PEER})"
    if version != PEER_VERSION:
        return f"{PEER} {version} is installed, this benchmark pins {PEER_VERSION}"
    return ""


PEER_API = r'''
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [api, input, output] = process.argv.slice(2);
const { checkCommand } = await import(pathToFileURL(api).href);
const results = [];
for (const [command, cwd] of JSON.parse(readFileSync(input, 'utf8'))) {
  let verdict;
  try {
    const r = checkCommand({ command, cwd });
    verdict = [r.kind, r.ruleId || '', r.reason || ''];
  } catch (error) {
    verdict = ['deny', 'threw', String(error)];  // the API says: if it throws, do not run
  }
  results.push(verdict);
}
writeFileSync(output, JSON.stringify(results));
'''


def peer_command() -> list[str]:
    return ["node", str(peer_dir() / "dist" / "bin" / f"{PEER}.js"), "hook", "--coding-cli"]


def run_peer(box: Sandbox, cases: list[Case], hook_sample: list[int]) -> tuple[list[Outcome], ProcessCheck]:
    """The peer's verdicts: shell commands through its library API (one node process), the
    file-tool calls and ``hook_sample`` through its Claude Code hook (one process each)."""
    from hookwrap.generator.clis import setup_of
    from hookwrap.checks.host import RunResult

    env = box.env()
    env["CLAUDE_PROJECT_DIR"] = str(box.root)
    work = Path(tempfile.mkdtemp(prefix="peer-", dir=box.base))
    shell = [i for i, c in enumerate(cases) if c.tool == "shell"]
    (work / "in.json").write_text(json.dumps([[box.expand(cases[i].input), box.cwd(cases[i])] for i in shell]))
    (work / "api.mjs").write_text(PEER_API)
    _run(["node", str(work / "api.mjs"), str(peer_dir() / "dist" / "api.js"), str(work / "in.json"),
          str(work / "out.json")], cwd=box.root, env=env)
    outcomes = [Outcome("n/a")] * len(cases)
    for index, (kind, rule, reason) in zip(shell, json.loads((work / "out.json").read_text())):
        outcomes[index] = Outcome("allow" if kind == "allow" else "block", f"{rule}: {reason}".strip(": "))
    check = ProcessCheck("claude")
    for index in sorted(set(hook_sample) | {i for i, c in enumerate(cases) if c.tool != "shell"}):
        payload = claude_payload(cases[index], box)
        before = children_cpu_ms()
        start = time.monotonic()
        done = subprocess.run(peer_command(), input=json.dumps(payload).encode(), capture_output=True,
                              cwd=box.root, env=env, timeout=60, check=False)
        used = children_cpu_ms() - before
        result = RunResult(done.returncode, done.stdout.decode(errors="replace"),
                            done.stderr.decode(errors="replace"), int((time.monotonic() - start) * 1000))
        verdict = setup_of("claude").interpret("PreToolUse", result, None)
        got = Outcome("block" if verdict.outcome in BLOCKING else "allow", verdict.reason, used)
        check.cpu_ms.append(used)
        check.runs += 1
        if done.returncode not in (0, 2):  # it could not answer: not a verdict of the tool
            check.failures.append(f"{cases[index].where}: exit {done.returncode}: "
                                  f"{result.stderr.strip()[-300:]}")
        if cases[index].tool == "shell" and got.verdict != outcomes[index].verdict:
            check.mismatches.append((cases[index], outcomes[index].verdict, got.verdict))
        if cases[index].tool != "shell":
            outcomes[index] = got
    return outcomes, check


# --- scoring ---------------------------------------------------------------------------------------

@dataclass
class Score:
    blocked: int = 0
    dangerous: int = 0
    false_pos: int = 0
    safe: int = 0

    @property
    def recall(self) -> float:
        return self.blocked / self.dangerous if self.dangerous else 1.0

    @property
    def fp_rate(self) -> float:
        return self.false_pos / self.safe if self.safe else 0.0


def case_verdict(per_cli: list[Outcome], expect: str) -> bool | None:
    """Whether the case counts as blocked: a block case only when every CLI that can make the
    call blocks it; a safe case as soon as one CLI blocks it (the strict reading both ways).
    None when no CLI can make the call (Codex CLI and a read_file case): it does not count."""
    applied = [o for o in per_cli if o.verdict != "n/a"]
    if not applied:
        return None
    if expect == "block":
        return all(o.blocked for o in applied)
    return any(o.blocked for o in applied)


def score(cases: list[Case], results: dict[str, list[Outcome]], packs_on: set[str] = frozenset()  # type: ignore[assignment]
          ) -> tuple[dict[str, Score], Score, Score]:
    """Per category, overall outside the packs (plus the packs turned on), and the pack cases
    (blocked with their pack off, counted apart)."""
    per: dict[str, Score] = defaultdict(Score)
    overall, packs = Score(), Score()
    for index, case in enumerate(cases):
        blocked = case_verdict([outcomes[index] for outcomes in results.values()], case.expect)
        if blocked is None:
            continue
        if case.pack and case.pack not in packs_on:
            packs.dangerous += 1
            packs.blocked += blocked
            continue
        for bucket in (per[case.category], overall):
            if case.dangerous:
                bucket.dangerous += 1
                bucket.blocked += blocked
            else:
                bucket.safe += 1
                bucket.false_pos += blocked
    return dict(per), overall, packs


def disagreements(cases: list[Case], results: dict[str, list[Outcome]]) -> list[tuple[Case, dict[str, str]]]:
    found = []
    for index, case in enumerate(cases):
        verdicts = {cli: outcomes[index].verdict for cli, outcomes in results.items()
                    if outcomes[index].verdict != "n/a"}
        if len(set(verdicts.values())) > 1:
            found.append((case, verdicts))
    return found


# --- report ----------------------------------------------------------------------------------------

def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} {100 * part / whole:.0f}%" if whole else "-"


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms"


def stats_table(cases: list[Case]) -> str:
    counts: dict[str, Counter] = defaultdict(Counter)
    for case in cases:
        counts[case.category][case.expect] += 1
        counts[case.category]["tool:" + case.tool] += 1
    lines = [f"{'category':<22}{'block':>6}{'allow':>6}  tools"]
    for category in sorted(counts):
        c = counts[category]
        tools = ", ".join(f"{t} {c['tool:' + t]}" for t in TOOLS if c["tool:" + t])
        lines.append(f"{category:<22}{c['block']:>6}{c['allow']:>6}  {tools}")
    total = Counter(case.expect for case in cases)
    packs = sum(1 for case in cases if case.pack)
    lines.append(f"{'total':<22}{total['block']:>6}{total['allow']:>6}  "
                 f"({len(cases)} cases; {packs} block cases in opt-in packs)")
    return "\n".join(lines)


def report(cases: list[Case], results: dict[str, list[Outcome]], peer: list[Outcome] | None,
           packs_on: set[str]) -> list[str]:
    per, overall, packs = score(cases, results, packs_on)
    peer_per, peer_overall, peer_packs = score(cases, {"claude": peer}, packs_on) if peer else ({}, None, None)
    head = f"{'category':<22}{'guard recall':>16}{'guard FP':>14}"
    if peer:
        head += f"{'npm recall':>16}{'npm FP':>14}"
    lines = [head]

    def row(label: str, mine: Score, theirs: Score | None) -> str:
        text = f"{label:<22}{_pct(mine.blocked, mine.dangerous):>16}{_pct(mine.false_pos, mine.safe):>14}"
        if theirs is not None:
            text += f"{_pct(theirs.blocked, theirs.dangerous):>16}{_pct(theirs.false_pos, theirs.safe):>14}"
        return text

    for category in sorted(per):
        lines.append(row(category, per[category], peer_per.get(category) if peer else None))
    label = "overall" + (f" (+{','.join(sorted(packs_on))})" if packs_on else " (no packs)")
    lines.append(row(label, overall, peer_overall))
    if packs.dangerous:
        text = f"{'packs off: blocked':<22}{_pct(packs.blocked, packs.dangerous):>16}{'':>14}"
        if peer_packs is not None:
            text += f"{_pct(peer_packs.blocked, peer_packs.dangerous):>16}"
        lines.append(text)
    return lines


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", nargs="+", metavar="NAME", help="only these platforms (default: all)")
    parser.add_argument("--category", nargs="+", metavar="NAME", help="only these categories")
    parser.add_argument("--show", choices=("none", "misses", "fp", "both", "disagree", "all"), default="both",
                        help="list the guard's missed block cases, its blocked safe ones, or both (default)")
    parser.add_argument("--check", type=int, default=24, metavar="N",
                        help="N cases per CLI also through the real registered command, one process each, "
                             "paired with the cheapest possible hook (verdicts compared; CPU per process; "
                             "default 24, 0 = none)")
    parser.add_argument("--no-peer", action="store_true", help=f"leave out {PEER}")
    parser.add_argument("--peer-check", type=int, default=40, metavar="N",
                        help=f"N shell cases also through {PEER}'s hook process (default 40)")
    parser.add_argument("--python", help="the hook interpreter (default: as benchmarks/run.py picks it)")
    parser.add_argument("--setting", action="append", type=parse_setting, default=[], metavar="KEY=VALUE",
                        help="set KEY in the guard's [hooks.guard] table (a TOML value), repeatable")
    parser.add_argument("--packs-on", nargs="+", default=[], choices=PACKS, metavar="PACK",
                        help="count these packs' cases as block cases (turn them on with --setting)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every verdict to FILE")
    parser.add_argument("--stats", action="store_true", help="print the corpus counts and stop")
    parser.add_argument("--corpus", default="both", metavar="SPLIT",
                        help="tuning (tests/fixtures/guard_corpus), heldout (tests/fixtures/guard_heldout), "
                             "both, scored apart (default), or a folder of *.tsv")
    parser.add_argument("--reveal-heldout", action="store_true",
                        help="list the held-out split's misses and blocked safe calls (by default only "
                             "their counts per category, so the report does not tune the rules)")
    parser.add_argument("--keep", action="store_true", help="keep the sandbox (its path is printed)")
    return parser


@dataclass
class Run:
    """Everything one benchmark run measured."""

    cases: list[Case]
    results: dict[str, list[Outcome]] = field(default_factory=dict)
    checks: list[ProcessCheck] = field(default_factory=list)
    peer: list[Outcome] | None = None
    peer_check: ProcessCheck | None = None
    peer_note: str = ""
    split: list[tuple[Case, dict[str, str]]] = field(default_factory=list)


def corpus_splits(value: str) -> list[tuple[str, Path]]:
    """--corpus: the named splits ("both": tuning, then held-out), or one folder of *.tsv."""
    if value == "both":
        return list(SPLITS.items())
    if value in SPLITS:
        return [(value, SPLITS[value])]
    folder = Path(value).resolve()
    name = next((key for key, path in SPLITS.items() if path == folder), folder.name)
    return [(name, folder)]


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        splits = [(name, folder, load_corpus(folder)) for name, folder in corpus_splits(args.corpus)]
    except CorpusError as error:
        parser.error(str(error))
    if args.category:
        unknown = set(args.category) - {c.category for _, _, cases in splits for c in cases}
        if unknown:
            parser.error(f"unknown category: {', '.join(sorted(unknown))}")
        splits = [(name, folder, [c for c in cases if c.category in args.category])
                  for name, folder, cases in splits]
    if args.stats:
        for name, folder, cases in splits:
            print(f"{name}: {_shown(folder)}")
            print(stats_table(cases))
        return 0
    from hookwrap.platforms import Platform

    platforms = args.cli or [p.value for p in Platform]
    unknown = set(platforms) - {p.value for p in Platform}
    if unknown:
        parser.error(f"unknown platform: {', '.join(sorted(unknown))}")
    bench = _load_run_py()
    python, why = (args.python, "--python") if args.python else bench.clean_interpreter()
    if in_temp_dir(sandbox_base()):
        print(f"warning: the sandbox base {sandbox_base()} is in a temp dir: a guard that allows deletes "
              "in scratch space will allow deletes outside the project", file=sys.stderr)
    started = time.monotonic()
    try:
        box = make_sandbox(sys.executable, dict(args.setting))
    except RuntimeError as error:  # hookwrap refused the setup (an unknown --setting key...)
        print(f"error: {error}", file=sys.stderr)
        return 1
    try:
        print(bench.machine_line(python))
        print(f"hook interpreter: {python} ({why}); sandbox: {box.base}")
        runs = []
        for name, folder, cases in splits:
            print(f"\n=== {name}: {_shown(folder)}, {len(cases)} cases ===")
            run = _measure(args, box, cases, platforms, python)
            _summary(args, run)
            if name == "heldout":
                _goal(run, set(args.packs_on))
            reveal = name != "heldout" or args.reveal_heldout
            _show(args.show, cases, run.results, run.split, set(args.packs_on), reveal)
            runs.append((name, run))
        if args.json:
            _write_json(args.json, runs, set(args.packs_on))
        print(f"\n({time.monotonic() - started:.0f} s)")
    finally:
        if args.keep:
            print(f"sandbox kept: {box.base}")
        else:
            shutil.rmtree(box.base, ignore_errors=True)
    return 0


def _shown(folder: Path) -> str:
    return str(folder.relative_to(REPO) if folder.is_relative_to(REPO) else folder)


def _goal(run: Run, packs_on: set[str]) -> None:
    """Issue 31's goal on the held-out split, met or not."""
    _, overall, _ = score(run.cases, run.results, packs_on)
    met = overall.recall >= HELDOUT_RECALL_GOAL and overall.fp_rate <= HELDOUT_FP_GOAL
    print(f"held-out goal (issue 31): recall >= {HELDOUT_RECALL_GOAL:.0%} and false positives <= "
          f"{HELDOUT_FP_GOAL:.1%}: {'met' if met else 'not met'} (recall {overall.recall:.1%}, "
          f"false positives {overall.fp_rate:.2%})")


def _measure(args: argparse.Namespace, box: Sandbox, cases: list[Case], platforms: list[str],
             python: str) -> Run:
    run = Run(cases)
    regs = registrations(box, platforms)
    missing = [p for p in platforms if p not in regs]
    if missing:
        print(f"not registered: {', '.join(missing)}")
    sample = sample_cases(cases, args.check) if args.check else []
    for name, reg in regs.items():
        begun = time.monotonic()
        run.results[name] = run_batch(box, reg, cases, python)
        if sample:
            run.checks.append(process_check(box, reg, cases, run.results[name], sample, python))
        sent = sum(1 for o in run.results[name] if o.verdict != "n/a" and o.called)
        print(f"  {name}: {sent} calls in {time.monotonic() - begun:.1f} s")
    if not args.no_peer:
        run.peer_note = peer_available()
        if not run.peer_note:
            shell = [i for i, c in enumerate(cases) if c.tool == "shell"]
            picked = [shell[j] for j in sample_cases([cases[i] for i in shell], args.peer_check)]
            run.peer, run.peer_check = run_peer(box, cases, picked)
    run.split = disagreements(cases, run.results)
    return run


def _summary(args: argparse.Namespace, run: Run) -> None:
    cases, results, packs_on = run.cases, run.results, set(args.packs_on)
    print()
    print(f"guard: {len(results)} CLIs ({', '.join(results)}); a block case counts when every CLI "
          "blocks it, a safe case counts against the guard when any CLI blocks it")
    if run.peer is not None:
        print(f"npm: {PEER} {PEER_VERSION}, Claude Code hook (file tools) and library API (shell)")
    elif not args.no_peer:
        print(f"npm: {PEER} unavailable: {run.peer_note}")
    for line in report(cases, results, run.peer, packs_on):
        print(line)
    print()
    for name, outcomes in results.items():
        _, overall, _ = score(cases, {name: outcomes}, packs_on)
        print(f"  {name:<9} recall {_pct(overall.blocked, overall.dangerous):>13}   "
              f"FP {_pct(overall.false_pos, overall.safe):>11}")
    split = run.split
    applied = sum(1 for i in range(len(cases)) if any(o[i].verdict != "n/a" for o in results.values()))
    print(f"same verdict on every CLI: {applied - len(split)}/{applied} cases")
    cpu = [o.cpu_ms for outcomes in results.values() for o in outcomes if o.verdict != "n/a" and o.called]
    print(f"guard CPU per call inside one process (no interpreter start): {_ms(cpu)}")
    if run.checks:
        runs = sum(c.runs for c in run.checks)
        bad = [m for c in run.checks for m in c.mismatches]
        guard_cpu = [v for c in run.checks for v in c.cpu_ms]
        floor = [v for c in run.checks for v in c.floor_ms]
        ratios = [g / f for c in run.checks for g, f in zip(c.cpu_ms, c.floor_ms) if f > 0]
        print(f"guard through the registered command, one process each: {runs} runs, "
              f"{runs - len(bad)} with the batch's verdict; CPU {_ms(guard_cpu)}")
        if ratios:
            print(f"  paired with the cheapest possible hook (json.load, print): floor CPU {_ms(floor)}; "
                  f"guard/floor x{statistics.median(ratios):.2f} (median of pairs)")
        for case, batch, real in bad:
            print(f"  MISMATCH {case.where}: batch {batch}, process {real}: {case.input!r}")
    if run.peer_check is not None:
        check = run.peer_check
        print(f"{PEER} through its Claude Code hook, one process each: {check.runs} runs, "
              f"CPU {_ms(check.cpu_ms)}; {len(check.mismatches)} shell cases where its hook and its "
              "API differ")
        if check.failures:
            print(f"  WARNING: {len(check.failures)} of its runs ended without an answer (counted as allow), "
                  f"e.g. {check.failures[0]}")


def _show(what: str, cases: list[Case], results: dict[str, list[Outcome]],
          split: list[tuple[Case, dict[str, str]]], packs_on: set[str], reveal: bool = True) -> None:
    """The guard's misses and blocked safe calls (and the calls the CLIs disagree on); with
    ``reveal`` off, only how many there are per category and rule."""
    if what == "none":
        return
    misses, fps = [], []
    for index, case in enumerate(cases):
        if case.pack and case.pack not in packs_on:
            continue
        blocked = case_verdict([o[index] for o in results.values()], case.expect)
        if blocked is None:
            continue
        if case.dangerous and not blocked:
            misses.append(case)
        elif not case.dangerous and blocked:
            fps.append((case, next(o[index].reason for o in results.values() if o[index].blocked)))
    if what in ("misses", "both", "all"):
        print(f"\nmissed ({len(misses)}):")
        if not reveal:
            _counted(Counter(case.category for case in misses))
        for case in misses if reveal else ():
            print(f"  {case.where:<18} {case.category:<16} {case.input!r}")
    if what in ("fp", "both", "all"):
        print(f"\nblocked safe calls ({len(fps)}):")
        if not reveal:
            _counted(Counter(f"{case.category} ({_rule_of(reason)})" for case, reason in fps))
        for case, reason in fps if reveal else ():
            print(f"  {case.where:<18} {case.category:<16} {case.input!r}: {reason[:120]}")
    if what in ("disagree", "all"):
        print(f"\nverdicts that differ across CLIs ({len(split)}):")
        if not reveal:
            _counted(Counter(case.category for case, _ in split))
        for case, verdicts in split if reveal else ():
            print(f"  {case.where:<18} {case.input!r}: "
                  + ", ".join(f"{cli} {v}" for cli, v in sorted(verdicts.items())))
    if not reveal and (misses or fps or split):
        print("  (held-out cases are counted, not listed: --reveal-heldout lists them)")


def _counted(counts: Counter) -> None:
    for label, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {count:>4}  {label}")


def _rule_of(reason: str) -> str:
    """The rule id a block names (`...; rule fs.rm-root-or-home)`), or "?"."""
    found = reason.split("; rule ", 1)
    return found[1].split(")", 1)[0] if len(found) == 2 else "?"


def score_json(cases: list[Case], results: dict[str, list[Outcome]], packs_on: set[str]) -> dict:
    """The per-category table and the totals, as the report prints them."""
    per, overall, packs = score(cases, results, packs_on)

    def row(s: Score) -> dict:
        return {"blocked": s.blocked, "dangerous": s.dangerous, "recall": round(s.recall, 4),
                "false_positives": s.false_pos, "safe": s.safe, "fp_rate": round(s.fp_rate, 4)}

    return {"per_category": {name: row(s) for name, s in sorted(per.items())}, "overall": row(overall),
            "packs_off": {"blocked": packs.blocked, "dangerous": packs.dangerous}}


def _write_json(path: Path, runs: list[tuple[str, Run]], packs_on: set[str]) -> None:
    """Per split: the guard's (and the peer's) per-category table, and every verdict per CLI."""
    document: dict[str, Any] = {"splits": {}, "cases": []}
    for name, run in runs:
        summary = {"cases": len(run.cases), "guard": score_json(run.cases, run.results, packs_on)}
        if run.peer is not None:
            summary[PEER] = score_json(run.cases, {"claude": run.peer}, packs_on)
        if name == "heldout":
            summary["goal"] = {"recall": HELDOUT_RECALL_GOAL, "fp_rate": HELDOUT_FP_GOAL}
        document["splits"][name] = summary
        for index, case in enumerate(run.cases):
            row = {"split": name, "where": case.where, "expect": case.expect, "category": case.category,
                   "pack": case.pack, "tool": case.tool, "cwd": case.cwd, "input": case.input,
                   "why": case.why,
                   "guard": {cli: [o[index].verdict, o[index].reason] for cli, o in run.results.items()}}
            if run.peer is not None:
                row[PEER] = [run.peer[index].verdict, run.peer[index].reason]
            document["cases"].append(row)
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def _load_run_py():  # the module benchmarks/run.py
    spec = importlib.util.spec_from_file_location("hookwrap_bench_run", HERE / "run.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]  (its dataclasses look it up)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


if __name__ == "__main__":
    raise SystemExit(main())
