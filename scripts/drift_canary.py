#!/usr/bin/env python3
"""The drift canary: the newest release of every agent CLI against what hookwrap records of it.

Usage:
    python scripts/drift_canary.py                    # install the newest releases, report
    python scripts/drift_canary.py --cli codex --e2e  # ... then run the e2e tests on them
    python scripts/drift_canary.py --snapshot         # re-read the pinned CLIs (CLI cache)
    python scripts/drift_canary.py --installed DIR    # read CLIs already installed in DIR

Each CLI's newest npm release (`npm view PKG version`, the packages of .ci/install-clis.sh) goes
into a throwaway prefix laid out like the CLI cache. Its shipped code (JS bundles, the JS inside
Bun binaries, the JSON schemas inside Codex's binary) is read with regex scans of the mapped
files; no CLI is started. The surface read (hook events, input and output fields, settings keys,
decision values, trust messages) is compared with the snapshot read the same way from the pinned
release (scripts/drift_surfaces/<cli>.json) and with the event tables of the CLI's record
(src/hookwrap/clis/). The report names, per CLI, what was added and removed; docs/drift.md says
how to read it. Pins are hookwrap/generator/pins.txt's: nothing here repeats them.

Exit codes: 0 nothing changed, 1 a surface changed or an e2e test failed, 2 usage or a CLI that
could not be installed or read.
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from hookwrap.generator.pins import PINS, Pin  # noqa: E402
from hookwrap.names import Platform  # noqa: E402

SURFACES = ROOT / "scripts" / "drift_surfaces"
# The packages whose files hold each CLI's code: the npm package, and the platform package npm
# installs beside it (its optional dependency) where the code is a native or Bun binary.
PACKAGES: dict[str, tuple[str, ...]] = {
    "claude": ("@anthropic-ai/claude-code-linux-x64", "@anthropic-ai/claude-code"),
    "gemini": ("@google/gemini-cli",),
    "codex": ("@openai/codex-linux-x64", "@openai/codex"),
    "qwen": ("@qwen-code/qwen-code",),
    "copilot": ("@github/copilot-linux-x64", "@github/copilot"),
    "opencode": ("opencode-linux-x64", "opencode-ai"),
    "droid": ("@factory/cli-linux-x64",),
    "pi": ("@mariozechner/pi-coding-agent",),
    "kilo": ("@kilocode/cli-linux-x64",),
    "cline": ("@cline/cli-linux-x64", "cline"),
}
# Their hooks are a plugin's or extension's: the record's event names are not theirs.
PLUGIN_CLIS = frozenset({"opencode", "kilo", "pi"})
# Claude Code, Gemini CLI and Codex CLI share the cache's top prefix (.ci/install-clis.sh).
SHARED_PREFIX = frozenset({"claude", "gemini", "codex"})
CATEGORIES = ("events", "input_fields", "output_fields", "settings_keys", "decisions", "trust")
DECISION_WORDS = frozenset({"allow", "deny", "ask", "block", "approve", "defer"})
CODE_SUFFIXES = (".js", ".mjs", ".cjs")

_NAME = rb'"[A-Za-z][\w.]{1,60}"'
STRING_ARRAY = re.compile(rb"\[\s*" + _NAME + rb"(?:\s*,\s*" + _NAME + rb"){1,80}\s*,?\s*\]")
TRIGGER = re.compile(rb'\.trigger\("([a-z]+\.[\w.]{2,60})"')           # OpenCode, Kilo
HANDLERS = re.compile(rb'handlers\.get\("([a-z_]{3,40})"\)')             # pi
ENUM_MEMBER = re.compile(rb'HookEventName\w*\["(\w+)"\]\s*=\s*"\1"')     # Gemini, Qwen (TS enum)
# Zod-style schema objects; minified, `z.literal("X")` is any call (`P("PreToolUse")`).
INPUT_LITERAL = re.compile(rb'hook_event_name:\s*[\w$.]+\(\s*"(\w+)"\s*\)')
OUTPUT_LITERAL = re.compile(rb'hookEventName:\s*[\w$.]+\(\s*"(\w+)"\s*\)')
COMMAND_HANDLER = re.compile(rb'type:\s*[\w$.]+\(\s*"command"\s*\)')
SETTINGS_PATH = re.compile(rb'"(hooks(?:Config)?\.[a-zA-Z]+(?:\.[a-zA-Z]+)?)"')
TRUST_TAIL = re.compile(rb'rust[^"\\\n]{0,160}"')  # after a "t" or "T" (a literal first is fast)
CODE_CHARS = re.compile(r"[{};=`|&]|\w\(")
SCHEMA_START = re.compile(rb'\{\s*"\$schema"\s*:')
KEY = re.compile(r"([A-Za-z_$][\w$]*|\"[^\"]+\")\s*:")


# Reading a package --------------------------------------------------------------------------


def pin_of(cli: str) -> Pin:
    """The CLI's pinned release and npm package (hookwrap/generator/pins.txt)."""
    return PINS[cli]


def record_of(cli: str) -> Any:
    """The CLI's record (``hookwrap.clis.<cli>.<CLI>``): its label and its event tables."""
    platform = Platform(cli)
    module = __import__(f"hookwrap.clis.{cli}", fromlist=[platform.name])
    return getattr(module, platform.name)


def code_files(package_dir: Path) -> Iterator[Path]:
    """The files of a package that hold code: JS files, native or Bun binaries and native
    addons (ELF), JSON schemas (a ``schemas`` folder's); not those of its own dependencies."""
    for path in sorted(package_dir.rglob("*")):
        if "node_modules" in path.relative_to(package_dir).parts or not path.is_file():
            continue
        if (path.name.endswith(CODE_SUFFIXES) or (path.suffix == ".json" and path.parent.name == "schemas")
                or (path.suffix in ("", ".node") and _is_elf(path))):
            yield path


def _is_elf(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"\x7fELF"


def read_surface(files: Iterable[Path], known_events: Iterable[str]) -> dict[str, list[str]]:
    """The hook surface the files ship, category by category (each a sorted list)."""
    found: dict[str, set[str]] = {name: set() for name in CATEGORIES}
    known = set(known_events)
    for path in files:
        if path.stat().st_size == 0:
            continue
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            _scan(data, known, found)
    return {name: sorted(values) for name, values in found.items()}


def _scan(data: Any, known: set[str], found: dict[str, set[str]]) -> None:
    for match in STRING_ARRAY.finditer(data):
        items = [item.decode() for item in re.findall(rb'"([^"]+)"', match.group(0))]
        if len(known.intersection(items)) >= 3:
            found["events"].update(items)
        if len(DECISION_WORDS.intersection(items)) >= 2 and len(items) <= 8:
            found["decisions"].update(items)
    for pattern in (TRIGGER, HANDLERS, ENUM_MEMBER):
        found["events"].update(m.group(1).decode() for m in pattern.finditer(data))
    for kind, pattern in (("input_fields", INPUT_LITERAL), ("output_fields", OUTPUT_LITERAL)):
        for match in pattern.finditer(data):
            event = match.group(1).decode()
            found[kind].update(f"{event}.{key}" for key in _object_keys(data, match.start()))
    for match in COMMAND_HANDLER.finditer(data):
        found["settings_keys"].update(f"handler.{key}" for key in _object_keys(data, match.start()))
    found["settings_keys"].update(m.group(1).decode() for m in SETTINGS_PATH.finditer(data))
    for match in TRUST_TAIL.finditer(data):
        if data[match.start() - 1:match.start()] not in (b"t", b"T"):
            continue
        head = data[max(0, match.start() - 160):match.start()]
        quote = head.rfind(b'"')
        if quote < 0 or b"\n" in head[quote:] or b"\\" in head[quote:]:
            continue
        text = " ".join((head[quote + 1:] + match.group(0)[:-1]).decode("utf-8", "replace").split())
        # Prose, not the code between two strings of a minified bundle.
        if (text[:1].isalnum() and re.search(r"(?i)hook|folder|workspace|project", text)
                and not CODE_CHARS.search(text)):
            found["trust"].add(text)
    for schema in _schemas(data):
        _read_schema(schema, found)


def _object_keys(data: Any, at: int, reach: int = 20_000) -> list[str]:
    """The keys of the object literal around offset ``at`` of a minified bundle: its opening
    brace is found backwards, then its top-level ``key:`` pairs read forwards."""
    start = max(0, at - reach)
    text = data[start:at + reach].decode("utf-8", "replace")
    open_at = _enclosing_brace(text, at - start)
    if open_at < 0:
        return []
    keys: list[str] = []
    depth, i, quote = 0, open_at, ""
    expect_key = False
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`" and not expect_key:
            quote = char
        elif char in "{[(":
            depth += 1
            expect_key = depth == 1 and char == "{"
        elif char in "}])":
            depth -= 1
            if depth == 0:
                return keys
        elif char == "," and depth == 1:
            expect_key = True
        elif expect_key and not char.isspace():
            match = KEY.match(text, i)
            if match:
                keys.append(match.group(1).strip('"'))
                i = match.end() - 1
            expect_key = False
        i += 1
    return keys


def _enclosing_brace(text: str, at: int) -> int:
    depth = 0
    for i in range(at, -1, -1):
        char = text[i]
        if char in "}])":
            depth += 1
        elif char in "{[(":
            if depth == 0:
                return i if char == "{" else -1
            depth -= 1
    return -1


def _schemas(data: Any) -> Iterator[dict[str, Any]]:
    """The JSON schemas embedded in a binary (Codex CLI's hook input and output schemas)."""
    decoder = json.JSONDecoder()
    for match in SCHEMA_START.finditer(data):
        chunk = data[match.start():match.start() + 200_000].decode("utf-8", "replace")
        try:
            schema, _ = decoder.raw_decode(chunk)
        except ValueError:
            continue
        if isinstance(schema, dict):
            yield schema


def _read_schema(schema: dict[str, Any], found: dict[str, set[str]]) -> None:
    title = str(schema.get("title", ""))
    props = schema.get("properties")
    if not isinstance(props, dict) or not title.endswith((".input", ".output", "Input", "Output")):
        return
    event = _schema_event(schema) or title
    kind = "input_fields" if title.lower().endswith("input") else "output_fields"
    if kind == "input_fields" and event != title:
        found["events"].add(event)
    for key, value in props.items():
        found[kind].add(f"{event}.{key}")
        for inner in _refs(schema, value).get("properties", {}):
            found[kind].add(f"{event}.{key}.{inner}")
    for text in re.findall(r'"enum":\s*(\[[^\]]*\])', json.dumps(schema)):
        values = [v for v in json.loads(text) if isinstance(v, str)]
        if DECISION_WORDS.intersection(values):
            found["decisions"].update(values)


def _schema_event(schema: dict[str, Any]) -> str:
    name = schema.get("properties", {}).get("hook_event_name", {})
    value = name.get("const") or (name.get("enum") or [""])[0]
    return value if isinstance(value, str) else ""


def _refs(schema: dict[str, Any], value: Any) -> dict[str, Any]:
    """A property's own schema, through a local ``$ref`` or the first ``anyOf`` branch."""
    if not isinstance(value, dict):
        return {}
    for branch in value.get("anyOf") or value.get("allOf") or []:
        resolved = _refs(schema, branch)
        if resolved.get("properties"):
            return resolved
    ref = value.get("$ref", "")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = schema
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return target if isinstance(target, dict) else {}
    return value


# Comparing -----------------------------------------------------------------------------------


def known_events(record: Any) -> set[str]:
    """The event names the record knows, also spelled camelCase (Copilot CLI's other format)."""
    names = set(record.events) | set(record.known_settings_events)
    return names | {name[:1].lower() + name[1:] for name in names}


def compare(cli: str, old: dict[str, Any], new: dict[str, Any], record: Any) -> list[str]:
    """The report's lines for one CLI: what its newest release adds to or removes from the
    surface of the pinned one, and new events the record does not know."""
    lines = []
    for name in CATEGORIES:
        before, after = set(old["surface"].get(name, ())), set(new["surface"].get(name, ()))
        for label, items in (("added", after - before), ("removed", before - after)):
            if items:
                lines.append(f"  {name} {label} ({len(items)}):")
                lines.extend(f"    {_mark(cli, name, item, record)}" for item in sorted(items))
    return lines


def _mark(cli: str, category: str, item: str, record: Any) -> str:
    if category == "events" and item not in known_events(record) and cli not in PLUGIN_CLIS:
        return f"{item}  (not in hookwrap's record of {record.label})"
    return item


def report(results: dict[str, dict[str, Any]], snapshots: dict[str, dict[str, Any]]) -> tuple[str, bool]:
    """The whole report, and whether anything changed."""
    out, changed = [], False
    for cli, new in results.items():
        record = record_of(cli)
        old = snapshots.get(cli)
        pinned = pin_of(cli).version
        head = f"{record.label}: pinned {pinned}, newest {new['version']}"
        if old is None:
            out += [head, f"  no snapshot of {record.label} {pinned} in "
                    f"{SURFACES.relative_to(ROOT)}: run --snapshot with it installed", ""]
            changed = True
            continue
        lines = compare(cli, old, new, record)
        if not lines:
            same = "same release" if new["version"] == old["version"] else "no change in the hook surface"
            out += [f"{head}: {same}", ""]
            continue
        changed = True
        out += [head, *lines, ""]
    return "\n".join(out).rstrip() + "\n", changed


# Installing and running ----------------------------------------------------------------------


def prefix_of(root: Path, cli: str) -> Path:
    return root if cli in SHARED_PREFIX else root / cli


def newest_version(package: str) -> str:
    proc = subprocess.run(["npm", "view", package, "version"], capture_output=True, text=True,
                          check=False, timeout=120)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError(f"npm view {package} version failed: {proc.stderr.strip()[:300]}")
    return proc.stdout.strip().splitlines()[-1]


def install(root: Path, cli: str, version: str) -> None:
    """``npm install`` the CLI's package at ``version`` into its prefix under ``root``, as
    .ci/install-clis.sh does (install scripts run: Claude Code's puts its binary in place)."""
    prefix = prefix_of(root, cli)
    prefix.mkdir(parents=True, exist_ok=True)
    spec = f"{pin_of(cli).package}@{version}"
    with tempfile.TemporaryDirectory(prefix="drift-npm-home-") as home:
        env = {**os.environ, "HOME": home, "npm_config_cache": str(root / ".npm-cache")}
        proc = subprocess.run(["npm", "install", "--prefix", str(prefix), "--save-exact",
                               "--no-audit", "--no-fund", "--no-update-notifier",
                               "--loglevel=error", spec], capture_output=True, text=True,
                              check=False, timeout=1200, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"npm install {spec} failed: {proc.stderr.strip()[-500:]}")


def installed_version(root: Path, cli: str) -> str:
    package = prefix_of(root, cli) / "node_modules" / pin_of(cli).package / "package.json"
    return str(json.loads(package.read_text(encoding="utf-8"))["version"])


def read_installed(root: Path, cli: str) -> dict[str, Any]:
    """The surface of the CLI installed under ``root`` (the CLI cache's layout)."""
    modules = prefix_of(root, cli) / "node_modules"
    dirs = [modules / name for name in PACKAGES[cli] if (modules / name).is_dir()]
    if cli == "copilot":
        dirs.append(copilot_runtime(root, installed_version(root, cli)))
    if not dirs:
        raise RuntimeError(f"{cli}: none of {', '.join(PACKAGES[cli])} is in {modules}")
    files = [path for folder in dirs for path in code_files(folder)]
    surface = read_surface(files, known_events(record_of(cli)))
    return {"version": installed_version(root, cli), "surface": surface}


def copilot_runtime(root: Path, version: str) -> Path:
    """Copilot CLI's code: its binary unpacks it on its first start into the package cache
    (``$COPILOT_PKG_CACHE_HOME``, the CLI cache's ``copilot/pkg-cache``); ``--version`` is
    that first start."""
    cache = prefix_of(root, "copilot") / "pkg-cache"
    unpacked = cache / "pkg" / "linux-x64" / version
    if not unpacked.is_dir():
        binary = prefix_of(root, "copilot") / "node_modules" / ".bin" / "copilot"
        with tempfile.TemporaryDirectory(prefix="drift-copilot-home-") as home:
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
                   "COPILOT_PKG_CACHE_HOME": str(cache), "COPILOT_OFFLINE": "true",
                   "COPILOT_AUTO_UPDATE": "false"}
            subprocess.run([str(binary), "--version"], capture_output=True, check=False,
                           timeout=300, env=env, cwd=home, stdin=subprocess.DEVNULL)
    if not unpacked.is_dir():
        raise RuntimeError(f"copilot --version did not unpack its runtime into {unpacked}")
    return unpacked


def load_snapshots(clis: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The stored surface of each CLI's pinned release (``<cli>-<version>.json``), where there
    is one."""
    found = {}
    for cli in clis:
        path = SURFACES / f"{cli}-{pin_of(cli).version}.json"
        if path.exists():
            found[cli] = json.loads(path.read_text(encoding="utf-8"))
    return found


def write_snapshot(cli: str, surface: dict[str, Any]) -> Path:
    SURFACES.mkdir(parents=True, exist_ok=True)
    path = SURFACES / f"{cli}-{surface['version']}.json"
    path.write_text(json.dumps(surface, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def run_e2e(root: Path, clis: list[str]) -> int:
    """The e2e tests of ``clis`` on the binaries under ``root``, in a throwaway HOME (the
    harness finds them through ``$HOOKWRAP_CLI_CACHE``): every collected test whose node id
    names one of them as a word (``test_qwen_hookwrap.py``, ``[codex]``)."""
    with tempfile.TemporaryDirectory(prefix="drift-e2e-home-") as home:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "HOOKWRAP_CLI_CACHE": str(root), "LANG": "C.UTF-8"}
        pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "e2e"]
        listed = subprocess.run([*pytest, "--collect-only", "-q", "tests/e2e"], cwd=ROOT, env=env,
                                capture_output=True, text=True, check=False)
        words = re.compile(r"(?<![a-z])(" + "|".join(map(re.escape, clis)) + r")(?![a-z])")
        ids = [line for line in listed.stdout.splitlines() if "::" in line and words.search(line)]
        if not ids:
            print(f"drift: no e2e test names {', '.join(clis)}", file=sys.stderr)
            return 1
        print(f"drift: {len(ids)} e2e tests of {', '.join(clis)}", flush=True)
        return subprocess.run([*pytest, "-q", "-n", "0", *ids], cwd=ROOT, env=env,
                              check=False).returncode


def default_cache() -> Path:
    env = os.environ.get("HOOKWRAP_CLI_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "hookwrap-clis"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", action="append", choices=list(PACKAGES), help="only these CLIs")
    parser.add_argument("--installed", type=Path, help="read the CLIs installed in DIR (no npm)")
    parser.add_argument("--prefix", type=Path, help="install into DIR and keep it")
    parser.add_argument("--snapshot", action="store_true",
                        help="read the pinned CLIs (the CLI cache) into scripts/drift_surfaces")
    parser.add_argument("--e2e", action="store_true",
                        help="then run the e2e tests of the CLIs whose newest release is not the pinned one")
    parser.add_argument("--json", type=Path, help="also write the surfaces read to FILE")
    args = parser.parse_args(argv)
    clis = args.cli or list(PACKAGES)
    if args.snapshot:
        return _snapshot(args.installed or default_cache(), clis)
    with tempfile.TemporaryDirectory(prefix="drift-canary-") as scratch:
        root = args.installed or args.prefix or Path(scratch)
        results, failed = {}, []
        for cli in clis:
            try:
                if not args.installed:
                    install(root, cli, newest_version(pin_of(cli).package))
                results[cli] = read_installed(root, cli)
            except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
                failed.append(f"{cli}: {exc}")
        text, changed = report(results, load_snapshots(results))
        sys.stdout.write(text)
        for line in failed:
            print(f"drift: could not read {line}", file=sys.stderr)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        code = 2 if failed else 1 if changed else 0
        moved = [cli for cli, new in results.items() if new["version"] != pin_of(cli).version]
        if args.e2e and moved:
            code = max(code, 1 if run_e2e(root, moved) else 0)
    return code


def _snapshot(root: Path, clis: list[str]) -> int:
    """Read the CLIs installed in ``root`` into scripts/drift_surfaces (one file per CLI and
    version); a version other than the record's pin is said, not refused."""
    for cli in clis:
        surface = read_installed(root, cli)
        if surface["version"] != pin_of(cli).version:
            print(f"drift: {cli} in {root} is {surface['version']}, the record pins "
                  f"{pin_of(cli).version}", file=sys.stderr)
        print(f"drift: wrote {write_snapshot(cli, surface).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
