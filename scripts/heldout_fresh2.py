"""Candidates for tests/fixtures/guard_heldout/fresh2.tsv, read as data from pinned commits.

Usage: python scripts/heldout_fresh2.py MIRRORS OUT

MIRRORS holds a bare clone of each source as ``owner+name/repo`` (the sources and commits are
below and in the held-out README). OUT gets one candidate per line: ``ref<TAB>input``, where ref
is ``prefix:path:line``. Nothing here runs a command line: each one is only read, filled in,
squeezed and compared. The verdicts are written by hand afterwards, against docs/guard.md.

Selection: NL2Bash's one-liners and the two cheat-sheet collections are picked by a hash of
source, path and line (a fixed share, more of the lines whose program a guard rule is about);
orchestkit's guard tests are all taken. Left out here already: lines already in the split or in
the tuning corpus (whitespace-squeezed), lines whose quotes do not close or that start with an
operator, and lines with a placeholder this script cannot fill.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCES = {
    "nl2bash": ("TellinaTool+nl2bash", "466c5fe873ab08c7cc0112ea1521cc6ad9c20992"),
    "cheat": ("cheat+cheatsheets", "36bdb99dcfadde210503d8c2dcf94b34ee950e1d"),
    "navi": ("denisidoro+cheats", "1339965e9615ce00174cc308a41279d9c59aa75f"),
    "orchestkit": ("yonatangross+orchestkit", "7c4f5aa8453eab32ccfeb2b08b77fe4c31fc6256"),
}
ORCHESTKIT_TESTS = (
    "src/hooks/src/__tests__/pretool/dangerous-command-blocker.test.ts",
    "src/hooks/src/__tests__/security-critical-hooks.test.ts",
    "src/hooks/src/__tests__/pretool/compound-command-validator.test.ts",
    "src/hooks/src/__tests__/e2e/security-boundaries.test.ts",
    "src/hooks/src/__tests__/pretool/network-egress-guard.test.ts",
    "src/hooks/src/__tests__/lib/bash-patterns.test.ts",
    "src/hooks/src/__tests__/agent/ci-safety-check.test.ts",
    "src/hooks/src/__tests__/agent/migration-safety-check.test.ts",
    "src/hooks/src/__tests__/permission/auto-approve-safe-bash.test.ts",
)
# Programs some guard rule is about: their lines are taken more often.
RISKY = re.compile(
    r"\b(rm|rmdir|find|xargs|dd|mkfs\S*|shred|wipefs|fdisk|parted|chmod|chown|mv|cp|ln|tee|sed|"
    r"git|crontab|curl|wget|sudo|kill|shutdown|reboot|useradd|usermod|passwd|iptables|ufw|"
    r"ssh|scp|rsync|tar|zip|openssl|gpg|base64|eval|bash|sh|python\d?|perl|node|truncate|"
    r"docker|kubectl|terraform|systemctl)\b"
)
SHARE = {"nl2bash": (0.015, 0.04), "cheat": (0.08, 0.20), "navi": (0.20, 0.35)}
# NL2Bash lines whose effect a guard rule is about (deletes, devices, system and start-up files,
# secrets, git's data loss, downloads run): a larger share of them, for the dangerous side.
EFFECT = re.compile(
    r"(rm\s+-\w*[rR]|-delete\b|-exec\s+rm|xargs\s+(-\S+\s+)*rm\b|\bshred\b|\bdd\b.*of=|\bmkfs|"
    r"chmod\s+-R|chown\s+-R|>\s*/etc/|\.bashrc|\.profile|crontab|"
    r"\bgit\s+(reset|clean|push|checkout|branch\s+-D)|\.ssh/|id_rsa|/etc/shadow|\.env\b|"
    r"\bsudo\s+rm|\brm\s+/|\bmv\s+/|curl.*\|\s*(ba)?sh|wget.*\|\s*(ba)?sh)")
EFFECT_SHARE = 0.22
# The cheat sheets' lines of that kind, and of git's, the system's, the packs' and the secrets'
# other destructive programs: all of them (there are about a hundred).
SHEET_EFFECT = re.compile(
    EFFECT.pattern[:-1] + r"|xargs.*\brm\b|\.zshrc|\bgit\s+(stash\s+(drop|clear)|tag\s+-d|"
    r"filter-branch|restore|update-ref|reflog|gc)|\bwipefs|\bfdisk|\bparted|\bshutdown|\breboot|"
    r"\bpoweroff|\buseradd|\buserdel|\busermod|\bpasswd\b|iptables\s+-F|ufw\s+disable|setenforce|"
    r"\bterraform\s+destroy|kubectl\s+delete|helm\s+(uninstall|delete)|"
    r"docker\s+(system|volume|image|container)\s+prune|docker\s+rm|DROP\s|redis-cli|dropdb|"
    r"\.npmrc|\.netrc|\.aws/|\.kube/|gcloud.*delete|aws\s.*delete|\bsudo\s+(tee|cp|mv|sed)|"
    r">>?\s*~/\.|\bvisudo|\blvremove|\bvgremove|zfs\s+destroy|\bgpg\s+--delete|\bhistory\s+-c|"
    r"\bkill\s+-9)")
# Placeholders of the cheat sheets (<name>, navi's <name>), by the words they contain.
FILL = [
    (("branch",), "feature-login"), (("remote",), "origin"), (("commit", "sha", "hash"), "a1b2c3d"),
    (("tag",), "v1.2.0"), (("url", "repository", "repo"), "https://example.com/app.git"),
    (("host", "server", "domain"), "example.com"), (("port",), "8080"), (("user",), "alice"),
    (("email",), "alice@example.com"), (("message", "msg"), "'fix typo'"),
    (("dir", "folder", "directory", "path"), "src"), (("file",), "src/app.py"),
    (("pattern", "regex", "search", "query"), "TODO"), (("image",), "nginx:1.27"),
    (("container",), "web"), (("name",), "demo"), (("package", "pkg"), "requests"),
    (("version",), "1.2.0"), (("number", "count", "n", "num", "lines"), "10"),
    (("pid",), "4242"), (("key",), "token"), (("value",), "42"), (("namespace",), "dev"),
    (("pod",), "web-0"), (("deployment",), "web"), (("service",), "web"), (("ip",), "10.0.0.5"),
    (("interface",), "eth0"), (("device",), "/dev/sdb"), (("archive",), "src.tar.gz"),
    (("output",), "out.txt"), (("input",), "in.txt"), (("date",), "2024-01-01"),
    (("editor",), "vim"), (("command", "cmd"), "ls"), (("env",), "staging"), (("text",), "hello"),
]
PLACEHOLDER = re.compile(r"<([A-Za-z][\w .-]*)>")


def show(source: str, path: str, mirrors: Path) -> str:
    mirror, commit = SOURCES[source]
    return subprocess.run(["git", "-C", str(mirrors / mirror / "repo"), "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def files(source: str, mirrors: Path) -> list[str]:
    mirror, commit = SOURCES[source]
    out = subprocess.run(["git", "-C", str(mirrors / mirror / "repo"), "ls-tree", "-r",
                          "--name-only", commit], check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def picked(ref: str, text: str, source: str) -> bool:
    base, risky = SHARE[source]
    share = risky if RISKY.search(text) else base
    if source == "nl2bash" and EFFECT.search(text):
        share = EFFECT_SHARE
    elif source != "nl2bash" and SHEET_EFFECT.search(text):
        share = 1.0
    digest = int(hashlib.sha256(ref.encode()).hexdigest()[:8], 16)
    return digest / 0xFFFFFFFF < share


def fill(text: str) -> str | None:
    def one(match: re.Match[str]) -> str:
        words = set(re.split(r"[\W_]+", match[1].lower()))
        for keys, value in FILL:
            if words & set(keys):
                return value
        raise KeyError(match[1])

    try:
        return PLACEHOLDER.sub(one, text)
    except KeyError:
        return None


def well_formed(text: str) -> bool:
    try:
        shlex.split(text, comments=False, posix=True)
    except ValueError:
        return False
    return bool(text.strip()) and not re.match(r"\s*(&&|\|\||\||;)", text)


def nl2bash(mirrors: Path):
    for number, line in enumerate(show("nl2bash", "data/bash/all.cm", mirrors).splitlines(), 1):
        ref = f"nl2bash:data/bash/all.cm:{number}"
        if line.strip() and picked(ref, line, "nl2bash"):
            yield ref, line.strip()


def cheat(mirrors: Path):
    for path in files("cheat", mirrors):
        if path.startswith(".") or "/" in path:  # the licence, README and vim plugins' sheets
            continue
        body = show("cheat", path, mirrors).splitlines()
        front = body[:1] == ["---"]
        for number, line in enumerate(body, 1):
            if front:
                if number > 1 and line == "---":
                    front = False
                continue
            if not line.strip() or line.lstrip().startswith("#") or line.endswith("\\"):
                continue
            ref = f"cheat:{path}:{number}"
            if picked(ref, line, "cheat"):
                yield ref, line.strip()


def navi(mirrors: Path):
    for path in files("navi", mirrors):
        if not path.endswith(".cheat"):
            continue
        for number, line in enumerate(show("navi", path, mirrors).splitlines(), 1):
            if (not line.strip() or line[0] in "#%$;@" or line.endswith("\\")
                    or line.startswith(" ")):
                continue
            ref = f"navi:{path}:{number}"
            if picked(ref, line, "navi"):
                yield ref, line.strip()


TS_STRING = re.compile(r"""'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)\"""")


def ts_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m[1], m[1]), text)


def orchestkit(mirrors: Path):
    for path in ORCHESTKIT_TESTS:
        for number, line in enumerate(show("orchestkit", path, mirrors).splitlines(), 1):
            # One string literal, or several joined by + (the tests split some words so as not
            # to trip their own hook: 'terra'+'form destroy' is "terraform destroy").
            call = re.search(r"(?:(?:createBashInput|denies|asks|notDenied)\(|command:)\s*"
                             r"((?:(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\s*\+?\s*)+)[,)]", line)
            if call:
                parts = re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", call[1])
                yield f"orchestkit:{path}:{number}", "".join(ts_unescape(a or b) for a, b in parts)
                continue
            item = re.fullmatch(r"\s*(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"),?\s*(//.*)?",
                                line)
            if item:
                yield f"orchestkit:{path}:{number}", ts_unescape(item[1] or item[2] or "")


def known_commands() -> set[str]:
    seen: set[str] = set()
    for folder in ("guard_corpus", "guard_heldout"):
        for tsv in (REPO / "tests" / "fixtures" / folder).glob("*.tsv"):
            if tsv.name == "fresh2.tsv":  # the file these candidates are for
                continue
            for line in tsv.read_text(encoding="utf-8").splitlines():
                fields = line.split("\t")
                if line.startswith("#") or len(fields) != 7:
                    continue
                text = fields[5]
                if text.startswith("json:"):
                    text = json.loads(text[5:])
                seen.add(" ".join(text.split()))
    return seen


def main(mirrors: Path, out: Path) -> None:
    seen = known_commands()
    rows, counts = [], {"dup": 0, "malformed": 0, "placeholder": 0}
    for gen in (orchestkit, nl2bash, cheat, navi):
        for ref, text in gen(mirrors):
            filled = fill(text)
            if filled is None:
                counts["placeholder"] += 1
                continue
            if not well_formed(filled):
                counts["malformed"] += 1
                continue
            key = " ".join(filled.split())
            if key in seen:
                counts["dup"] += 1
                continue
            seen.add(key)
            field = "json:" + json.dumps(filled) if "\n" in filled or "\t" in filled else filled
            rows.append(f"{ref}\t{field}")
    out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(len(rows), "candidates;", counts, file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
