"""doctor's view of both scopes: which of a project's and the user's hooks runs where, and
whether the user scope's runtime is this hookwrap's."""

from __future__ import annotations

import re
from pathlib import Path

from .. import __version__
from ..generator.clis.kit import OK, WARN, Finding
from ..generator.scope import Scope, current, user_root, using

_VERSION_RE = re.compile(r'^__version__ = "([^"]+)"', re.MULTILINE)


def check_scopes(root: Path) -> list[Finding]:
    """At user scope, the user runtime's age; in a project, the user hooks it replaces."""
    user = user_root()
    if not (user / "hookwrap.toml").is_file():
        return []
    if current().user:
        return check_user_runtime(user)
    from ..generator.inventory import REPLACED, list_scopes

    try:
        rows = list_scopes(root if (root / "hookwrap.toml").is_file() else None, user)
    except (OSError, ValueError, LookupError) as error:  # doctor's other checks say what broke
        return [Finding("scopes", WARN, f"the user hooks could not be listed ({error})",
                        "run `hookwrap --user doctor`")]
    lines = []
    for row in rows:
        if row.get("scope") != "user" or row.get("orphan"):
            continue
        replaced = sorted(name for name, cell in row["platforms"].items()
                          if cell.get("status") == REPLACED)
        runs = sorted(name for name, cell in row["platforms"].items()
                      if cell.get("registered") and cell.get("status") != REPLACED)
        where = f"runs on {', '.join(runs)}" if runs else "runs nowhere here"
        lines.append(f"{row['name']} {where}" + (f"; on {', '.join(replaced)} this project's "
                                                  f"{row['name']} runs instead" if replaced else ""))
    if not lines:
        return [Finding("scopes", OK, "the user scope has no hooks")]
    return [Finding("scopes", OK, f"user hooks ({user}): {'; '.join(lines)}")]


def check_user_runtime(user: Path) -> list[Finding]:
    """The user scope's copy of the runtime is this command's (`pip install -U hookwrap` leaves
    it as it was until `hookwrap --user sync`)."""
    from ..generator.plan import Plan
    from ..generator.project import plan_runtime

    with using(Scope(user=True)):
        plan = Plan(user)
        plan_runtime(plan)
    stale = [change.rel for change in plan.pending]
    if not stale:
        return [Finding("user-runtime", OK, f"the user runtime is hookwrap {__version__}'s")]
    try:
        text = (user / ".hookwrap" / "lib" / "hookwrap" / "__init__.py").read_text("utf-8")
        found = _VERSION_RE.search(text)
        version = found.group(1) if found else "an unknown version"
    except OSError:
        version = "missing"
    what = "is missing" if version == "missing" else f"is hookwrap {version}'s" \
        if version != __version__ else "differs from this hookwrap's"
    return [Finding("user-runtime", WARN, f"the user runtime ({user}/.hookwrap/lib) {what}, "
                    f"and this command is hookwrap {__version__}: {len(stale)} file"
                    f"{'s' if len(stale) > 1 else ''} would change", "run `hookwrap --user sync`")]
