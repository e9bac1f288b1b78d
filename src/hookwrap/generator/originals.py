"""What each CLI's user-level file held before hookwrap first wrote a user hook into it.

At user scope hookwrap edits files that are the user's own (``~/.claude/settings.json``), often
with their own formatting, which a JSON rewrite does not keep. So the first write records the
file's text (or that there was none) beside the user manifest, in ``.hookwrap/originals/``, and
when the last user hook of that CLI goes, the file gets exactly that text back, provided that
what is left means the same (the same keys and values in the same order). When the user changed
something meanwhile, what is left is written as usual: their change is kept, their layout is
not. Either way the record goes with the last hook.

The trust `hookwrap --user trust` records (Codex CLI's ``trusted_hash`` entries in
``$CODEX_HOME/config.toml``) is kept the same way: the file's text before the first entry, and
the entries written since; once no user hook of that CLI is left, the file gets its text back
when, without those entries, it means what it meant then.
"""

from __future__ import annotations

import json
from typing import Any

from ..names import Platform
from .plan import Plan
from .scope import ORIGINALS_DIR, current
from .scopefiles import settings_rel
from .settings import Reconciled, parse_settings


def record_rel(platform: Platform) -> str:
    return f"{ORIGINALS_DIR}/{platform.value}.json"


def restored(plan: Plan, platform: Platform, text: str | None, result: Reconciled,
             keeps_hooks: bool) -> Reconciled:
    """``result`` (``reconcile``'s for ``text``), with the plan's record of the original kept in
    step; at user scope, once no hook of ``platform`` is left, the original text where what is
    left means the same. A project's files are left to ``result`` as they are."""
    if not current().user:
        return result
    rel = record_rel(platform)
    record = _record(plan.root / rel)
    if keeps_hooks:
        if record is None and result.changed:
            data = {"path": str(plan.root / settings_rel(platform)), "text": text}
            plan.add(rel, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode(),
                     detail=[f"what {data['path']} held before hookwrap wrote to it"])
        return result
    if record is None:
        return result
    plan.add(rel, None)
    original = record.get("text")
    if not isinstance(original, str):
        original = None
    if _same(original, result.new_text, platform):
        return Reconciled(original, result.changes, original != text)
    return result


def _record(path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "text" in data else None


def _meaning(text: str | None, platform: Platform) -> str:
    if text is None or not text.strip():
        return "{}"
    try:
        data = parse_settings(text, platform, label="")
    except ValueError:
        return f"unreadable:{text}"
    return json.dumps(data, ensure_ascii=False)


def _same(original: str | None, new_text: str | None, platform: Platform) -> bool:
    return _meaning(original, platform) == _meaning(new_text, platform)


def trust_record_rel(platform: Platform) -> str:
    return f"{ORIGINALS_DIR}/{platform.value}-trust.json"


def record_trust_write(root, platform: Platform, path, old_text: str | None,
                       keys: list[tuple[str, ...]]) -> None:
    """Before `hookwrap --user trust` writes ``keys`` into ``path`` (holding ``old_text``):
    note the text of the first write, and every key written since (``root``: the user scope's
    folder)."""
    from .fsutil import atomic_write

    record_path = root / trust_record_rel(platform)
    record = _record(record_path) or {"path": str(path), "text": old_text, "keys": []}
    known = [list(k) for k in record.get("keys", [])]
    record["keys"] = known + [list(k) for k in keys if list(k) not in known]
    record_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(record_path, (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode())


def restored_trust(plan: Plan, platform: Platform) -> None:
    """Once no user hook of ``platform`` is left: its trust file's original text, where the file
    without the entries hookwrap wrote means what the original meant; else a note that they
    stay. The record goes either way."""
    from pathlib import Path

    from .fsutil import read_text

    rel = trust_record_rel(platform)
    record = _record(plan.root / rel)
    if record is None or not isinstance(record.get("path"), str):
        return
    plan.add(rel, None)
    path = Path(record["path"])
    try:
        text = read_text(path, str(path))
    except ValueError:
        text = None
    original = record.get("text") if isinstance(record.get("text"), str) else None
    keys = [tuple(k) for k in record.get("keys", []) if isinstance(k, list)]
    if _toml_without(text, keys) == _toml_without(original, []) and text != original:
        plan.add(str(path), None if original is None else original.encode("utf-8"),
                 detail=["the trust entries of the user hooks taken out: the file as it was"])
    elif text != original:
        plan.notes.append(f"{path}: the trust entries of the user hooks stay (the file changed "
                          "since they were written); delete them by hand if you like")


def _toml_without(text: str | None, keys: list[tuple[str, ...]]) -> str:
    import tomllib

    try:
        data = tomllib.loads(text or "")
    except tomllib.TOMLDecodeError:
        return f"unreadable:{text}"
    for path in keys:
        _drop(data, path)
    return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)


def _drop(data: dict[str, Any], path: tuple[str, ...]) -> None:
    """Delete ``path`` from nested tables, and each table that leaves empty."""
    if not path or not isinstance(data, dict) or path[0] not in data:
        return
    if len(path) == 1:
        del data[path[0]]
        return
    _drop(data[path[0]], path[1:])
    if data[path[0]] == {}:
        del data[path[0]]
