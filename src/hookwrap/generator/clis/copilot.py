"""GitHub Copilot CLI: what the hookwrap command needs to know about it (a hook process needs only
``copilot.py``, which the class here extends).

``.github/hooks/hookwrap.json``, a file hookwrap owns (seconds, Claude matchers,
``$COPILOT_PROJECT_DIR``); repo hooks load only in a trusted folder, recorded by `hookwrap trust`
in ``trustedFolders`` of ``$COPILOT_HOME/config.json``.
"""

from __future__ import annotations

import re

from ...clis._base import BLOCKING
from ...clis._claude_protocol import ClaudeProtocol
from ...clis.copilot import COPILOT
from ...names import Platform
from ._base import AgentSetup, nonempty_matcher_problems
from .kit import (
    ERROR,
    FAIL,
    OK,
    Finding,
    HookCommand,
    Problem,
    RunResult,
    Scope,
    TrustChange,
    TrustEdit,
    TrustEntry,
    Verdict,
    check_keys,
    failure_line,
    nonempty_string,
    number_or_none,
    one_of,
    parse_object,
    positive_number,
    retold,
    settle,
    string,
    string_map,
    unknown_keys,
)

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Mapping




class CopilotCLISetup(ClaudeProtocol, AgentSetup):
    """GitHub Copilot CLI's validation, host rules, doctor checks and trust (its record holds
    the hooks file, the command form and the tables)."""

    # --- generator: validation -------------------------------------------------------------
    def validate_group_keys(self, group: dict[str, Any], event: str, path: str) -> list[Problem]:
        return nonempty_matcher_problems(group, path)

    def validate_handler(self, handler: Any, event: str, path: str) -> list[Problem]:
        return _validate_handler(handler, path)

    # --- generator: host rules -------------------------------------------------------------
    def matcher_matches(self, event: str, matcher: str | None, target: str | None) -> bool:
        """A full-match regex against the tool name (``ba`` does not match ``bash``)."""
        if target is None or matcher is None or matcher.strip() in ("", "*"):
            return True
        try:
            return re.fullmatch(matcher, target) is not None
        except re.error:
            return False

    def read_command(self, event: str, group: Mapping[str, Any],
                     handler: Mapping[str, Any]) -> HookCommand:

        matcher = group.get("matcher")
        command = handler.get("command", handler.get("bash", ""))
        timeout = handler.get("timeout", handler.get("timeoutSec"))
        return HookCommand(self.platform.value, event, str(command), number_or_none(timeout),
                           matcher if isinstance(matcher, str) else None, None, None)

    def interpret(self, event: str, result: RunResult, on_failure: str | None) -> Verdict:
        return _interpret(event, result)

    # --- generator: doctor -----------------------------------------------------------------
    def trust_findings(self, root: Path, home: Path, scopes: list[Scope],
                       env: Mapping[str, str]) -> list[Finding]:
        return _trust_findings(root, home, scopes, env)

    def trust_edits(self, root: Path, home: Path, env: Mapping[str, str],
                    settings_text: str | None = None) -> list[TrustEdit]:
        if settings_text is None and not (root / COPILOT.own_registration).is_file():
            return []
        return _trust_edits(root, home, env)



def copilot_home(home: Any, env: Mapping[str, str]) -> Any:
    """``$COPILOT_HOME``, else ``~/.copilot``."""
    from pathlib import Path

    return Path(env["COPILOT_HOME"]) if env.get("COPILOT_HOME") else Path(home) / ".copilot"


def _validate_handler(handler: Any, path: str) -> list[Problem]:

    if not isinstance(handler, dict):
        return [Problem(path, "must be an object")]
    spec = {"type": one_of("command", "http", "prompt"), "command": nonempty_string,
            "bash": nonempty_string, "powershell": nonempty_string, "exec": nonempty_string,
            "cwd": string, "env": string_map, "timeout": positive_number,
            "timeoutSec": positive_number, "url": string, "prompt": string}
    required = ("url",) if handler.get("type") == "http" else ()
    problems = check_keys(handler, spec, required, path, ERROR)
    if handler.get("type", "command") == "command" and not any(
            k in handler for k in ("command", "bash", "powershell", "exec")):
        problems.append(Problem(path, "has no command; Copilot CLI drops it"))
    return problems + unknown_keys(handler, frozenset(spec), path, "Copilot CLI")


def _interpret(event: str, r: RunResult) -> Verdict:
    """Copilot 1.0.102: a preToolUse hook that exits non-zero denies (its stderr dropped); a
    timeout lets the call run; JSON on stdout at exit 0 is read in Claude's and Copilot's
    words, except that a top-level decision does not block PreToolUse."""

    failure = failure_line(r)
    if failure:
        return Verdict(success=False, clean=False, problems=(failure,))
    if r.exit_code != 0:
        if event == "PreToolUse":
            return Verdict("blocked", reason=f"hook exited with code {r.exit_code}", success=False,
                           clean=False, problems=(f"exit {r.exit_code} denies on Copilot CLI and "
                                                  "its stderr is not shown to the model",))
        return Verdict(success=False, clean=False, problems=(f"exit {r.exit_code}: ignored",))
    output, parsed = parse_object(r.stdout.strip())
    if not parsed or output is None:
        return Verdict(notes=("plain stdout is ignored by Copilot CLI",)) if r.stdout.strip() else Verdict()
    found = output.get("hookSpecificOutput")
    hso: dict[str, Any] = found if isinstance(found, dict) else {}
    context = str(output.get("additionalContext") or (
        hso.get("additionalContext") if event == "PreToolUse" else "") or "")
    notes: tuple[str, ...] = ()
    if hso.get("additionalContext") and event != "PreToolUse":
        notes = (f"Copilot CLI drops hookSpecificOutput.additionalContext on {event}; "
                 "use top-level additionalContext",)
    base = Verdict(output=output, context=context, notes=notes,
                   system_message=str(output.get("systemMessage") or ""))
    if event == "PreToolUse":
        decision = output.get("permissionDecision") or hso.get("permissionDecision")
        reason = str(output.get("permissionDecisionReason") or hso.get("permissionDecisionReason") or "")
        updated = output.get("modifiedArgs") or hso.get("updatedInput")
        from dataclasses import replace

        base = replace(base, updated_input=updated if decision != "deny" else None)
        if decision == "deny":
            if COPILOT.ask_note in reason:
                base = replace(base, notes=(*base.notes, "Copilot CLI hooks cannot ask: hookwrap "
                                            "sent the ask as a deny"))
            return settle(base, "blocked", reason)
        if output.get("decision") in BLOCKING:
            note = "a top-level decision does not block PreToolUse on Copilot CLI; use permissionDecision"
            return settle(replace(base, notes=(*base.notes, note)), None)
        return settle(base, None)
    block = output.get("decision") == "block"
    if block and event in ("Stop", "SubagentStop"):
        return settle(base, "kept_working", str(output.get("reason") or ""))
    if block and event in ("UserPromptSubmit", "PostToolUse"):
        # PostToolUse: the tool has run; the model sees "Tool result blocked: <reason>".
        return settle(base, "blocked", str(output.get("reason") or ""))
    return settle(base, None)


def _trusted(root: Path, home: Path, env: Mapping[str, str]) -> bool:
    from ..jsonc import parse

    path = copilot_home(home, env) / "config.json"
    try:
        data = parse(path.read_text(encoding="utf-8"), label=str(path), allow_comments=True)
    except (OSError, ValueError):
        return False
    return _trusts(data, root)


def _trusts(data: Any, root: Path) -> bool:
    """Whether ``trustedFolders`` (or the older ``trusted_folders``) holds ``root`` or a parent."""
    from pathlib import Path

    folders = data.get("trustedFolders", data.get("trusted_folders")) if isinstance(data, dict) else None
    resolved = root.resolve()
    return isinstance(folders, list) and any(
        isinstance(f, str) and (Path(f) == resolved or Path(f) in resolved.parents) for f in folders)


def _trust_findings(root: Path, home: Path, scopes: list[Scope],
                    env: Mapping[str, str]) -> list[Finding]:

    if not any(s.data and s.data.get("hooks") for s in scopes):
        return [Finding("copilot-trust", OK, "no Copilot CLI hooks to check")]
    if env.get("COPILOT_ALLOW_ALL") == "true":
        return [Finding("copilot-trust", OK, "COPILOT_ALLOW_ALL=true trusts the folder")]
    if _trusted(root, home, env):
        return [Finding("copilot-trust", OK, "the folder is trusted in ~/.copilot/config.json")]
    return [Finding("copilot-trust", FAIL, f"{root} is not a trusted folder: Copilot CLI loads no "
                    "repository hooks here (nor .claude/settings.json hooks)",
                    "run `hookwrap trust --platform copilot`")]


def _trust_edits(root: Path, home: Path, env: Mapping[str, str]) -> list[TrustEdit]:
    """Add the project to ``trustedFolders`` in ``$COPILOT_HOME/config.json`` (JSON with
    comments, rewritten by Copilot itself): every other key and comment is kept."""
    from ..errors import SettingsError
    from ..fsutil import read_text
    from ..jsonc import parse, rewrite_member, to_json

    path = copilot_home(home, env) / "config.json"
    label = str(path)
    try:
        text = read_text(path, label)
        data = parse(text, label=label, allow_comments=True) if text and text.strip() else {}
    except SettingsError as error:
        raise retold(error) from None
    key = str(root.resolve())
    entry = TrustEntry(("trustedFolders",), key, "the project")
    shown = f"trustedFolders += {to_json(key)}"
    if _trusts(data, root):
        return [TrustEdit(Platform.COPILOT, path, label, text, [TrustChange("unchanged", entry, shown)])]
    folders = data.get("trustedFolders", [])
    if not isinstance(folders, list):
        raise SettingsError(f"{label}: \"trustedFolders\" is not a list, so the project cannot be "
                            "added to it", hint="make it a list of folders (or remove it), then "
                            "run `hookwrap trust` again")
    if text and text.strip():
        new_text = rewrite_member(text, "trustedFolders", [*folders, key], label=label,
                                  then="`hookwrap trust` again")
    else:
        new_text = to_json({"trustedFolders": [key]}, indent=2) + "\n"
    return [TrustEdit(Platform.COPILOT, path, label, new_text, [TrustChange("create", entry, shown)])]


CLI = CopilotCLISetup(COPILOT)
