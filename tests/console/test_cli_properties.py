"""Property: add/remove/sync/hand edits in random orders over settings files with random foreign
content never change anything foreign, and removing every hook gives back the original files."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from support.cli import CLAUDE, GEMINI, canonical, hw, strip_owned
from support.projects import initialised
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookwrap.generator.clis import all_setups
from hookwrap.generator.jsonc import parse


def owned_name(handler: object) -> str | None:
    """hookwrap's hook name for a handler written in any CLI's exact command form."""
    command = handler.get("command") if isinstance(handler, dict) else None
    if not isinstance(command, str):
        return None
    return next((name for agent in all_setups() if (name := agent.owned_name(command))), None)


# name -> (add arguments, platforms it ends up registered on)
HOOKS = {
    "guard": (["before_tool", "guard"], {"claude", "gemini"}),
    "audit": (["before_tool", "audit", "--matcher", "shell"], {"claude", "gemini"}),
    "context": (["session_start", "context"], {"claude", "gemini"}),
    "stop_gate": (["after_agent", "stop_gate"], {"claude", "gemini"}),
    "format": (["after_tool", "format"], {"claude", "gemini"}),
    "m": (["before_model", "m"], {"gemini"}),
    "mine": (["before_tool", "mine", "--matcher", "write_file|edit_file", "--timeout", "5"], {"claude", "gemini"}),
    "bye": (["session_end", "bye", "--platform", "claude"], {"claude"}),
}
EVENTS = {"claude": ["PreToolUse", "PostToolUse", "SessionStart", "Stop", "SessionEnd", "Notification"],
          "gemini": ["BeforeTool", "AfterTool", "SessionStart", "AfterAgent", "BeforeModel", "Notification"]}
FOREIGN_COMMANDS = ["./lint.sh", "python3 .claude/hooks/guard.py", "npx prettier --write",
                    "python3 \"$CLAUDE_PROJECT_DIR\"/tools/hooks/audit.py", "echo '.hookwrap'"]

_scalar = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["", "x", "ünï", "$HOME"])
_value = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=2)
                      | st.dictionaries(st.sampled_from(["a", "b", "zz"]), inner, max_size=2), max_leaves=4)
_keys = st.sampled_from(["model", "env", "permissions", "general", "ui", "zeta", "$schema"])


def _handler(platform: str):
    base = {"type": st.just("command"), "command": st.sampled_from(FOREIGN_COMMANDS)}
    if platform == "gemini":
        base["name"] = st.sampled_from(["lint", "fmt"])
    return st.fixed_dictionaries(base, optional={"timeout": st.integers(1, 9), "__marker__": st.booleans()})


def _group(platform: str):
    return st.builds(lambda matcher, hs: ({} if matcher is None else {"matcher": matcher}) | {"hooks": hs},
                     st.none() | st.sampled_from(["Bash", "Write|Edit", "^read_file$", "startup"]),
                     st.lists(_handler(platform), min_size=1, max_size=2))


def _settings(platform: str):
    # Non-empty events and groups only: hooks that start empty are covered by xfail tests.
    hooks = st.dictionaries(st.sampled_from(EVENTS[platform] + ["Custom"]),
                            st.lists(_group(platform), min_size=1, max_size=2), min_size=1, max_size=3)
    top = st.dictionaries(_keys, _value, max_size=3)
    return st.tuples(top, st.none() | hooks, st.integers(0, 3)).map(_place).filter(bool)


def _place(parts) -> dict:
    top, hooks, at = parts
    items = list(top.items())
    if hooks is not None:
        items.insert(min(at, len(items)), ("hooks", hooks))
    return dict(items)


_ops = st.lists(st.one_of(
    st.tuples(st.just("add"), st.sampled_from(sorted(HOOKS))),
    st.tuples(st.just("remove"), st.sampled_from(sorted(HOOKS))),
    st.tuples(st.just("sync"), st.just("")),
    st.tuples(st.just("drift"), st.integers(0, 5)),
), min_size=1, max_size=7)


def _read(root: Path, rel: str) -> Any:
    path = root / rel
    if not path.exists():
        return None
    return parse(path.read_text(encoding="utf-8"), label=rel, allow_comments=rel == GEMINI)


def _owned(doc: Any) -> set[str]:
    if not doc:
        return set()
    return {owned_name(h) for groups in doc.get("hooks", {}).values() for g in groups
            for h in g["hooks"] if owned_name(h)}


def _drift(root: Path, pick: int) -> None:
    """Delete one hookwrap handler from the Claude file by hand (an accidental edit)."""
    doc = _read(root, CLAUDE)
    spots = [(g, h) for groups in (doc or {}).get("hooks", {}).values() for g in groups
             for h in g["hooks"] if owned_name(h)]
    if not spots:
        return
    group, handler = spots[pick % len(spots)]
    group["hooks"].remove(handler)
    # A careful hand edit: drop what the deletion emptied.
    hooks = doc["hooks"]
    for event in list(hooks):
        hooks[event] = [g for g in hooks[event] if g["hooks"]]
        if not hooks[event]:
            del hooks[event]
    if not hooks:
        del doc["hooks"]
    if not doc:
        (root / CLAUDE).unlink()
        return
    (root / CLAUDE).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _write(root: Path, rel: str, doc: dict | None, prefix: str) -> bytes | None:
    if doc is None:
        return None
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (prefix + json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()
    path.write_bytes(data)
    return data


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each example's project goes: the run's temporary folder (in memory where
    tests/conftest.py can put it), not the system's temp dir (every write fsynced to a disk)."""
    return tmp_path_factory.mktemp("properties")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claude=st.none() | _settings("claude"), gemini=st.none() | _settings("gemini"),
       commented=st.booleans(), ops=_ops)
# Foreign content a CLI finds invalid ("permissions": null voids Claude Code's file) is a problem
# sync reports and cannot fix: it exits 1 there, and still keeps the content.
@example(claude={"permissions": None}, gemini=None, commented=False,
         ops=[("add", "audit"), ("sync", "")])
def test_foreign_content_survives_any_sequence(scratch: Path, claude, gemini, commented, ops) -> None:
    with tempfile.TemporaryDirectory(prefix="hw prop ", dir=scratch) as tmp:
        root = initialised(Path(tmp) / "a project")  # `hookwrap init`, copied from its template
        originals = {CLAUDE: _write(root, CLAUDE, claude, ""),
                     GEMINI: _write(root, GEMINI, gemini, "// team file\n" if commented else "")}
        foreign = {CLAUDE: canonical(claude), GEMINI: canonical(gemini)}
        present: set[str] = set()
        drifted = False  # a hand edit is repaired by the next command that writes
        for op, arg in ops:
            if op == "add":
                result = hw(root, "add", *HOOKS[arg][0])
                assert result.code == (1 if arg in present else 0), result.err
                drifted = drifted and arg in present
                present.add(arg)
            elif op == "remove":
                result = hw(root, "remove", arg)
                assert result.code == (0 if arg in present else 1), result.err
                drifted = drifted and arg not in present
                present.discard(arg)
            elif op == "sync":
                result = hw(root, "sync")  # exit 1 while a problem it cannot fix remains
                assert result.code == (1 if "problem: " in result.err else 0), result.err
                drifted = False
            else:
                _drift(root, arg)
                drifted = True
            for rel, platform in ((CLAUDE, "claude"), (GEMINI, "gemini")):
                doc = _read(root, rel)
                if foreign[rel] == "null":
                    assert doc is None or canonical(strip_owned(doc)) == "{}"
                else:
                    assert canonical(strip_owned(doc)) == foreign[rel], (op, arg, rel)
                if not drifted:
                    assert _owned(doc) == {n for n in present if platform in HOOKS[n][1]}, (op, arg, rel)
        synced = hw(root, "sync")
        assert synced.code == (1 if "problem: " in synced.err else 0), synced.err
        # Nothing of hookwrap's is left to change. Random foreign content may still be invalid for
        # a CLI (e.g. "permissions": null makes Claude Code drop the file): --check reports that
        # as a problem, which is its job, so only the planned changes are compared here.
        check = hw(root, "sync", "--check")
        if "problem: " in check.err:
            assert (check.code, check.out) == (
                1, "nothing of hookwrap's to change, but the problems above need fixing\n")
        else:
            assert (check.code, check.out) == (0, "nothing to change: everything matches hookwrap.toml\n")
        for name in sorted(present):
            assert hw(root, "remove", name).code == 0
        for rel, original in originals.items():
            path = root / rel
            assert (path.read_bytes() if path.exists() else None) == original, rel
