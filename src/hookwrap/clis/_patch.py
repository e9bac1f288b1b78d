"""The apply_patch grammar: the files one patch adds, updates, deletes or moves.

Codex CLI's ``apply_patch`` and OpenCode's (the tool OpenCode 1.18.33 gives GPT models instead
of ``write`` and ``edit``) read the same text::

    *** Begin Patch
    *** Add File: <path>        (then "+" lines)
    *** Update File: <path>     (optionally "*** Move to: <path>", then "@@" hunks)
    *** Delete File: <path>
    *** End Patch

This reader is a guard's, so it errs on the side of seeing more: every header line counts
wherever it stands (OpenCode 1.18.33 reads headers only at the start of a line and between the
markers), the space after the colon is optional and the path is trimmed of JavaScript's
whitespace (OpenCode slices after ``File:`` and calls ``trim()``), and lines are split on
``\\n`` only, as both CLIs do (a ``\\r`` or U+2028 inside a path must not hide what follows it).
"""

from __future__ import annotations

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# String.prototype.trim's whitespace: WhiteSpace and LineTerminator (ECMA-262), nothing more.
_JS_SPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
             "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
_HEADERS = (("*** Add File:", "add"), ("*** Update File:", "update"),
            ("*** Delete File:", "delete"))
_MOVE = "*** Move to:"


def parse_patch(text: str) -> list[dict[str, Any]]:
    """The files an apply_patch body touches: ``{"path", "action", "move_to"}`` each, in order.

    ``action`` is ``add``, ``update`` or ``delete``; ``move_to`` is the new path of an
    ``Update File`` followed by ``Move to`` (else None). Paths are as written in the patch:
    relative to the session's directory, or absolute. [] when ``text`` is not a patch.
    """
    files: list[dict[str, Any]] = []
    if "*** Begin Patch" not in text:
        return files
    for raw in text.split("\n"):
        line = raw.strip(_JS_SPACE)
        if line.startswith(_MOVE):
            path = line[len(_MOVE):].strip(_JS_SPACE)
            if path and files and files[-1]["action"] == "update":
                files[-1]["move_to"] = path
            continue
        for header, action in _HEADERS:
            if line.startswith(header):
                path = line[len(header):].strip(_JS_SPACE)
                if path:
                    files.append({"path": path, "action": action, "move_to": None})
                break
    return files


def claude_shape(text: str) -> dict[str, Any] | None:
    """Claude's Write/Edit input for a patch that adds one file or changes one hunk of one file
    (no move), else None."""
    files = parse_patch(text)
    if len(files) != 1 or files[0]["move_to"] is not None or files[0]["action"] == "delete":
        return None
    lines = text.splitlines()
    try:
        body = lines[lines.index("*** Begin Patch") + 2:lines.index("*** End Patch")]
    except ValueError:
        return None
    path = files[0]["path"]
    if files[0]["action"] == "add":
        if not all(line.startswith("+") for line in body):
            return None
        return {"file_path": path, "content": "".join(line[1:] + "\n" for line in body)}
    if body and body[0].startswith("@@"):
        body = body[1:]
    old: list[str] = []
    new: list[str] = []
    for line in body:
        if line.startswith(("-", " ")):
            old.append(line[1:])
        if line.startswith(("+", " ")):
            new.append(line[1:])
        if not line.startswith(("-", "+", " ")):
            return None  # a second hunk (@@), an end-of-file marker: not one Edit
    if not old:
        return None
    return {"file_path": path, "old_string": "\n".join(old), "new_string": "\n".join(new)}


def patch_for(common: dict[str, Any]) -> str | None:
    """The one-file patch for Claude's Write (add) or Edit (one hunk) input, else None."""
    path = common.get("file_path")
    if not isinstance(path, str) or not path or "command" in common:
        return None
    content, old, new = (common.get(key) for key in ("content", "old_string", "new_string"))
    if isinstance(content, str) and set(common) == {"file_path", "content"}:
        lines = [f"+{line}" for line in content.splitlines()]
        return "\n".join(["*** Begin Patch", f"*** Add File: {path}", *lines,
                          "*** End Patch", ""])
    if isinstance(old, str) and isinstance(new, str) and old \
            and set(common) <= {"file_path", "old_string", "new_string", "replace_all"}:
        lines = [f"-{line}" for line in old.split("\n")] + [f"+{line}" for line in new.split("\n")]
        return "\n".join(["*** Begin Patch", f"*** Update File: {path}", "@@", *lines,
                          "*** End Patch", ""])
    return None
