"""Trust stores: where a Claude-dialect CLI records that it trusts a project enough to run its
hooks, what doctor says about it, and what `hookwrap trust` writes there.

A CLI's setup is composed with one of these, built with the store's facts (or with
``_base.NO_TRUST_GATE``: no trust gate, nothing to say); findings are named
``<platform>-trust`` and name the CLI by its ``label``:

- ``FolderDialog`` (Claude Code): no trust gate for hooks, but the folder trust dialog's
  answer, which doctor reads as the user's trust. Facts: ``dialog_file``.
- ``NoPrompt`` (Factory Droid): no trust gate at all, and doctor says so, since whoever can
  change the repo's hooks runs commands wherever the CLI starts. Facts: ``binary``.
- ``FolderRules`` (Qwen Code): when folder trust is on in the user's settings file (the first
  of ``scope_files``; ``switch``: the keys of that setting), the project's hooks load only in a
  folder a ``TRUST_FOLDER``/``TRUST_PARENT`` rule of a trustedFolders.json holds (the deepest
  rule wins, ``DO_NOT_TRUST`` a tie). Facts: ``file`` (a scope path), ``file_var`` (a variable
  that names the file instead), ``shown`` (the file as findings name it), ``untrusted`` (what
  else the CLI refuses in an untrusted folder).
- ``FolderList`` (Copilot CLI): repository hooks load only in a folder listed (or below one
  listed) in ``trustedFolders`` of a JSON-with-comments file. Facts: ``file``, ``shown``,
  ``legacy_key`` (an older spelling of the list, read too), ``allow_all_var`` (a variable
  whose ``true`` trusts every folder), ``untrusted``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

from ..errors import HookwrapError, SettingsError
from ._base import AgentSetup, TrustStore
from .kit import (
    DO_NOT_TRUST,
    FAIL,
    FOLDER_LEVELS,
    OK,
    TRUST_PARENT,
    Finding,
    Scope,
    TrustChange,
    TrustEdit,
    TrustEntry,
    folder_rule_edit,
    path_variants,
    read_trust_file,
    set_trust_member,
    within,
)


def _check(agent: AgentSetup) -> str:
    return f"{agent.platform.value}-trust"


class TrustFile(TrustStore):
    """A store that is one file of the user's: ``file`` (a scope path, ``${VAR:-~/...}``),
    ``file_var`` (a variable that names the file instead), ``shown`` (the file as findings name
    it), ``untrusted`` (what else the CLI refuses in an untrusted folder)."""

    def __init__(self, *, file: str, shown: str, untrusted: str = "", file_var: str = "") -> None:
        self.file, self.shown, self.untrusted, self.file_var = file, shown, untrusted, file_var

    def path(self, root: Path, home: Path, env: Mapping[str, str]) -> Path:
        """The store's file: ``file_var``'s value when set, else ``file``."""
        from ._base import fill_path

        override = env.get(self.file_var) if self.file_var else None
        return Path(override) if override else Path(fill_path(self.file, root, home, env))


class FolderDialog(TrustStore):
    """No trust gate for hooks (they run in any folder), but the interactive CLI asks once per
    folder and records the answer in ``dialog_file`` (``projects.<path>.hasTrustDialogAccepted``),
    which doctor reads as the user's trust in the folder."""

    def __init__(self, *, dialog_file: str) -> None:
        self.dialog_file = dialog_file

    def trust_dialog_accepted(self, agent: AgentSetup, root: Path, home: Path,
                              env: Mapping[str, str]) -> bool:
        """The dialog was accepted for ``root`` itself (a parent's answer is not counted: not
        seen to apply)."""
        from ..fsutil import read_text
        from ._base import fill_path

        try:
            data = json.loads(read_text(Path(fill_path(self.dialog_file, root, home, env)),
                                        self.dialog_file) or "{}")
        except (HookwrapError, ValueError):
            return False
        projects = data.get("projects") if isinstance(data, dict) else None
        if not isinstance(projects, dict):
            return False
        entries = [projects.get(key) for key in dict.fromkeys((str(root), str(root.resolve())))]
        return any(isinstance(e, dict) and e.get("hasTrustDialogAccepted") is True
                   for e in entries)


class NoPrompt(TrustStore):
    """No trust gate at all, and doctor says so: whoever can change the repo's hooks runs
    commands wherever ``binary`` (the CLI's command) starts."""

    def __init__(self, *, binary: str) -> None:
        self.binary = binary

    def trust_findings(self, agent: AgentSetup, root: Path, home: Path, scopes: list[Scope],
                 env: Mapping[str, str]) -> list[Finding]:
        if not any(s.project and s.data and s.data.get("hooks") for s in scopes):
            return [Finding(_check(agent), OK, f"no {agent.label} project hooks to check")]
        # Nothing to record or fix, so ok; but said, since it is the opposite of Codex or Qwen.
        return [Finding(_check(agent), OK, f"{agent.label} runs the hooks in {agent.facts.settings_file} "
                        "with no trust prompt at all (nothing to trust): whoever can change this "
                        f"repo's hooks runs commands wherever {self.binary} "
                        "starts here")]


class FolderRules(TrustFile):
    """Folder trust, when ``switch`` (the keys of the setting in the user's settings file) is
    on: the project's hooks load only in a folder a rule of the trusted-folders file holds."""

    def __init__(self, *, switch: tuple[str, ...], **where: str) -> None:
        super().__init__(**where)
        self.switch = switch

    def trust_findings(self, agent: AgentSetup, root: Path, home: Path, scopes: list[Scope],
                 env: Mapping[str, str]) -> list[Finding]:
        """What `hookwrap trust` would do, as a finding: ok when it has nothing to do."""
        check, label = _check(agent), agent.label
        if not any(s.project and s.data and s.data.get("hooks") for s in scopes):
            return [Finding(check, OK, f"no {label} project hooks to check")]
        if not any(self._on(agent, scope.data) for scope in scopes if not scope.project):
            return [Finding(check, OK, f"{label}'s folder trust is off: project hooks load")]
        try:
            edits = self.trust_edits(agent, root, home, env, None)
        except SettingsError as error:
            return [Finding(check, FAIL, f"{error.message}; {label} cannot read its trusted "
                            "folders", error.hint)]
        todo = [line for edit in edits for line in edit.todo]
        if todo:
            return [Finding(check, FAIL, todo[0])]
        if any(edit.pending for edit in edits):
            return [Finding(check, FAIL, f"{root} is not trusted and folder trust is on: "
                            f"{label} drops the project's hooks "
                            f"{self.untrusted}".rstrip(),
                            f"run `hookwrap trust --platform {agent.platform.value}`")]
        return [Finding(check, OK, f"the folder is trusted in {self.shown}")]

    def trust_edits(self, agent: AgentSetup, root: Path, home: Path, env: Mapping[str, str],
              settings_text: str | None) -> list[TrustEdit]:
        """``"<root>": "TRUST_FOLDER"`` in the trusted folders file (JSON with comments, kept),
        when folder trust is on and the project has hooks."""
        (project_label, project_path, _), (user_label, user_path, _) = \
            agent.scopes(root, home, env)[:2]
        try:
            user = agent.settings_data(user_path, user_label)
            project = agent.settings_data(project_path, project_label, settings_text)
        except SettingsError:
            return []  # doctor reports a broken settings file
        if not (self._on(agent, user) and isinstance(project, dict) and project.get("hooks")):
            return []
        path = self.path(root, home, env)
        return [folder_rule_edit(agent.platform, path, str(path), root, deepest_rule,
                                 agent.label, strict=False)]

    def _on(self, agent: AgentSetup, data: Any) -> bool:
        for key in self.switch:
            data = data.get(key) if isinstance(data, dict) else None
        return data is True


def deepest_rule(rules: dict[str, Any], root: Path) -> tuple[bool | None, str | None]:
    """Of the rules whose folder (a TRUST_PARENT rule's parent) holds ``root``, as written or as
    real paths, the deepest wins, and DO_NOT_TRUST wins a tie. Returns (trusted, the winning
    rule), (None, None) if none."""
    locations = path_variants(str(root))
    winner, depth, level_won = None, -1, None
    for raw, level in rules.items():
        if level not in FOLDER_LEVELS:
            continue  # the CLI skips a rule it does not know
        folder = os.path.normpath(raw)
        effective = os.path.dirname(folder) if level == TRUST_PARENT else folder
        found = max((len([part for part in variant.split(os.sep) if part])
                     for variant in path_variants(effective) for location in locations
                     if within(location, variant)), default=-1)
        if found > depth or (found == depth >= 0 and level == DO_NOT_TRUST and level_won != DO_NOT_TRUST):
            winner, depth, level_won = raw, found, level
    return (None if winner is None else level_won != DO_NOT_TRUST), winner


class FolderList(TrustFile):
    """Repository hooks load only in a folder listed (or below one listed) in
    ``trustedFolders`` of a JSON-with-comments file (``legacy_key``: an older spelling of the
    list, read too; ``allow_all_var``: a variable whose ``true`` trusts every folder)."""

    def __init__(self, *, legacy_key: str = "", allow_all_var: str = "", **where: str) -> None:
        super().__init__(**where)
        self.legacy_key, self.allow_all_var = legacy_key, allow_all_var

    def trust_findings(self, agent: AgentSetup, root: Path, home: Path, scopes: list[Scope],
                 env: Mapping[str, str]) -> list[Finding]:
        check, label = _check(agent), agent.label
        if not any(s.data and s.data.get("hooks") for s in scopes):
            return [Finding(check, OK, f"no {label} hooks to check")]
        allow_all = self.allow_all_var
        if allow_all and env.get(allow_all) == "true":
            return [Finding(check, OK, f"{allow_all}=true trusts the folder")]
        if self._trusted(agent, root, home, env):
            return [Finding(check, OK, f"the folder is trusted in {self.shown}")]
        return [Finding(check, FAIL, f"{root} is not a trusted folder: {label} loads no "
                        f"repository hooks here {self.untrusted}".rstrip(),
                        f"run `hookwrap trust --platform {agent.platform.value}`")]

    def _trusted(self, agent: AgentSetup, root: Path, home: Path, env: Mapping[str, str]) -> bool:
        from ..jsonc import parse

        path = self.path(root, home, env)
        try:
            data = parse(path.read_text(encoding="utf-8"), label=str(path), allow_comments=True)
        except (OSError, ValueError):
            return False
        return self._trusts(agent, data, root)

    def _trusts(self, agent: AgentSetup, data: Any, root: Path) -> bool:
        """Whether the list (or its legacy spelling) holds ``root`` or a parent."""
        legacy = self.legacy_key
        folders = data.get("trustedFolders", data.get(legacy) if legacy else None) \
            if isinstance(data, dict) else None
        resolved = root.resolve()
        return isinstance(folders, list) and any(
            isinstance(f, str) and (Path(f) == resolved or Path(f) in resolved.parents)
            for f in folders)

    def trust_edits(self, agent: AgentSetup, root: Path, home: Path, env: Mapping[str, str],
              settings_text: str | None) -> list[TrustEdit]:
        """Add the project to ``trustedFolders`` (JSON with comments, rewritten by the CLI
        itself): every other key and comment is kept. Nothing while the project has no hooks
        file of this CLI."""
        from ..jsonc import to_json

        if settings_text is None and not (root / agent.facts.settings_file).is_file():
            return []
        path = self.path(root, home, env)
        label = str(path)
        text, data = read_trust_file(path, label)
        key = str(root.resolve())
        entry = TrustEntry(("trustedFolders",), key, "the project")
        shown = f"trustedFolders += {to_json(key)}"
        if self._trusts(agent, data, root):
            return [TrustEdit(agent.platform, path, label, text,
                              [TrustChange("unchanged", entry, shown)])]
        folders = data.get("trustedFolders", [])
        if not isinstance(folders, list):
            raise SettingsError(f"{label}: \"trustedFolders\" is not a list, so the project cannot "
                                "be added to it", hint="make it a list of folders (or remove it), "
                                "then run `hookwrap trust` again")
        new_text = set_trust_member(text, "trustedFolders", [*folders, key], label)
        return [TrustEdit(agent.platform, path, label, new_text,
                          [TrustChange("create", entry, shown)])]
