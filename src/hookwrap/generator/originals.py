"""What each CLI's user-level file held before hookwrap first wrote a user hook into it.

At user scope hookwrap edits files that are the user's own (``~/.claude/settings.json``), often
with their own formatting, which a JSON rewrite does not keep. So the first write records the
file's text (or that there was none) beside the user manifest, in ``.hookwrap/originals/``, and
when the last user hook of that CLI goes, the file gets exactly that text back, provided that
what is left means the same (the same keys and values in the same order). When the user changed
something meanwhile, what is left is written as usual: their change is kept, their layout is
not. Either way the record goes with the last hook.
"""

from __future__ import annotations

import json
from typing import Any

from ..names import Platform
from .plan import Plan
from .scope import ORIGINALS_DIR, current
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
            data = {"path": str(plan.root / _settings_rel(platform)), "text": text}
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


def _settings_rel(platform: Platform) -> str:
    return current().settings_rel(platform)


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
