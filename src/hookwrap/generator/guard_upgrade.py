"""Upgrading a guard rendered by an older hookwrap (self-contained, ~750 lines) to the guard
that holds only its policy and runs the runtime's engine (guard_engine.py).

`hookwrap sync` asks `plan_upgrade` about every guard hook's script:

- a rendering nobody edited (any rendering the old template ever gave, told by a fingerprint)
  is replaced by the new rendering;
- a rendering of the last old template whose only edits are in its policy lists (HOOK_FILES,
  ALLOWED_NAMES, PATH_RULES, SHELL_RULES), in ways the new policy can say, is replaced by the new
  rendering with those edits carried over (NOT_SECRETS, DISABLED_RULES, EXTRA_RULES);
- anything else is left as it is, byte for byte (it keeps working: it needs only HookInput,
  HookOutput and main from the runtime), and sync and doctor say what to do.

Generator only (not copied into projects).
"""

from __future__ import annotations

import ast
import difflib
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

OLD_GUARD_TEMPLATE = Path(__file__).resolve().parent / "legacy" / "guard_424f00d.txt"
# sha256 of every rendering the old guard template gave (tests/golden/guard/guard.py up to
# 424f00d), with the hook's name replaced by @NAME@ (see _normalized).
OLD_DIGESTS = frozenset((
    "b7a2c394257c902ef19b3e50df7f222155cbd0836a9088918fcb9f55444dadb6",
    "ccb92c5bb2a090411b66fa0eb59d0beed0b70c1b9539677d5c0095cc151fc221",
    "35e0d0dad8219fe4c3770ac7a94526629396b08a74f4073aeeb649b1d86bd195",
    "59551f18cad66cbe8a1dc1df0eb6cc5639019927ec90b3f02a02e96ed1fd8702",
    "0f4ae9e83066522e06279a65e32feed2be8e94f52bef9908a6c1110e6a1cb07c",
    "614d87916b9d4884779aef123865ab878e6bb6253dd315d5aa9db37898d12005",
    "6c75ad4118b3b2d909fc8c49e4484b037606e9f6213ce4f31f46d7f79b6e6465",
    "520d10e567aa2284576c379dc670232fb0d86a0b297a1986588f6f7ea1925331",
    "50579342f07b3b894518c5bff6e6d2e5f2a34338858a054bdaf6a74ed0c1f965",
))
# Policy lists of the last old template, and what each of its SHELL_RULES is now.
_POLICY = ("HOOK_FILES", "PATH_RULES", "ALLOWED_NAMES", "SHELL_RULES")
_SHELL_RULE_IDS = {
    "_deletes_everything": ("fs.rm-root-or-home",),
    "_finds_and_deletes_everything": ("fs.find-delete",),
    "_shell_reads_a_download": ("code.download-to-shell",),
    "_download_runs_as_code": ("code.download-run",),
    "_pushes_with_lease": (),  # the new default: --force-with-lease is allowed
}
_PATH_RULE_IDS = ("secrets.env-write", "git.internals", "hooks.files")


def move_aside(name: str) -> str:
    """What to run to trade an old guard for the new one."""
    return (f"`mv .hookwrap/hooks/{name}.py {name}.py.old && hookwrap sync` (sync writes the "
            "new guard), then add your own rules to its EXTRA_RULES")


@dataclass
class Upgrade:
    """What sync does with one guard script: "current" (nothing), "replace", "carry" (replace,
    with the policy edits carried) or "keep" (too edited to carry: notes say what to do)."""

    action: str
    text: str = ""
    notes: list[str] = field(default_factory=list)


def old_rendering(name: str) -> str:
    """What the last old template rendered for a guard named ``name``."""
    return OLD_GUARD_TEMPLATE.read_text(encoding="utf-8").replace("@NAME@", name)


def _normalized(text: str, name: str) -> str:
    out = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith(f'"""{name}: '):
            out.append('"""@NAME@: ' + line[len(f'"""{name}: '):])
        elif line == f"HOOK_NAME = {name!r}":
            out.append("HOOK_NAME = '@NAME@'")
        else:
            out.append(line)
    return "\n".join(out)


def is_old_guard(text: str) -> bool:
    """Whether a script is a self-contained guard of an older hookwrap (edited or not)."""
    return "def _commands(line: str" in text and "SHELL_RULES" in text and \
        "guard_engine" not in text


def plan_upgrade(text: str, name: str, new_text: str) -> Upgrade:
    """What to do with guard script ``text`` (``new_text``: the new template's rendering)."""
    if not is_old_guard(text):
        return Upgrade("current")
    if hashlib.sha256(_normalized(text, name).encode()).hexdigest() in OLD_DIGESTS:
        return Upgrade("replace", new_text, ["upgraded from the guard of an older hookwrap "
                                             "(its rules now live in the runtime)"])
    try:
        policy = _carried_policy(text, old_rendering(name))
    except _CannotCarry as reason:
        return Upgrade("keep", notes=[
            f".hookwrap/hooks/{name}.py was rendered by an older hookwrap and has edits that "
            f"cannot be carried into the new guard ({reason}); it keeps working with its own "
            f"rules, without the new ones. To upgrade: {move_aside(name)}"])
    return Upgrade("carry", _apply(new_text, policy), [
        "upgraded from the guard of an older hookwrap; your policy edits were carried over ("
        + ", ".join(policy.summary()) + "); comments inside the old lists were not"])


class _CannotCarry(Exception):
    """An edit the new guard's policy cannot say."""


@dataclass
class _Policy:
    not_secrets: list[str] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)  # Rule(...) source lines

    def summary(self) -> list[str]:
        parts = [name for name, value in (("NOT_SECRETS", self.not_secrets),
                                          ("DISABLED_RULES", self.disabled),
                                          ("EXTRA_RULES", self.rules)) if value]
        return parts or ["none needed"]


def _assignments(tree: ast.Module) -> dict[str, ast.stmt]:
    found: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                found[target.id] = node
    return found


def _carried_policy(text: str, old: str) -> _Policy:
    try:
        tree, base = ast.parse(text), ast.parse(old)
    except SyntaxError:
        raise _CannotCarry("it does not parse") from None
    mine, theirs = _assignments(tree), _assignments(base)
    # Every other statement must be the template's, and every changed line must sit inside a
    # policy list (a comment elsewhere would be lost).
    policy_nodes = [mine.get(k) for k in _POLICY]
    base_nodes = [theirs.get(k) for k in _POLICY]
    rest = [ast.dump(n) for n in tree.body if n not in policy_nodes]
    if rest != [ast.dump(n) for n in base.body if n not in base_nodes]:
        raise _CannotCarry("code outside its policy lists was changed")
    spans = [(mine[k].lineno, mine[k].end_lineno or mine[k].lineno) for k in _POLICY if k in mine]
    matcher = difflib.SequenceMatcher(a=old.split("\n"), b=text.split("\n"), autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag != "equal" and not any(start <= j1 + 1 and max(j2, j1 + 1) <= end
                                      for start, end in spans):
            raise _CannotCarry("lines outside its policy lists were changed")
    policy = _Policy()
    values = {k: _literal(mine[k], k) for k in _POLICY if k in mine}
    defaults = {k: _literal(theirs[k], k) for k in _POLICY}
    _carry_hook_files(values.get("HOOK_FILES", []), defaults["HOOK_FILES"], policy)
    _carry_names(values.get("ALLOWED_NAMES", []), defaults["ALLOWED_NAMES"], policy)
    _carry_path_rules(values.get("PATH_RULES", []), defaults["PATH_RULES"], policy)
    _carry_shell_rules(values.get("SHELL_RULES", []), defaults["SHELL_RULES"], policy)
    return policy


def _literal(node: ast.stmt, name: str) -> list:
    """A policy list's value; names (HOOK_FILES, a rule's function) stand as ("name", id)."""
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    if not isinstance(value, ast.List):
        raise _CannotCarry(f"{name} is not a plain list")

    def convert(item: ast.expr) -> object:
        if isinstance(item, ast.Name):
            return ("name", item.id)
        if isinstance(item, ast.Tuple):
            return tuple(convert(e) for e in item.elts)
        if isinstance(item, (ast.List, ast.Set)):
            return [convert(e) for e in item.elts]
        try:
            return ast.literal_eval(item)
        except ValueError:
            raise _CannotCarry(f"{name} holds an expression") from None

    return [convert(item) for item in value.elts]


def _carry_hook_files(mine: list, base: list, policy: _Policy) -> None:
    if any(item not in mine for item in base):
        raise _CannotCarry("HOOK_FILES lost some of hookwrap's own files")
    added = [item for item in mine if item not in base]
    if not added:
        return
    if not all(isinstance(item, str) for item in added):
        raise _CannotCarry("HOOK_FILES holds something that is not a path")
    files = [item if item.startswith(("./", "/")) else "./" + item for item in added]
    policy.rules.append(
        'Rule("hooks.files-extra", "a file that defines which hooks run", "Hooks are changed '
        'by the user with the `hookwrap` command; ask the user to make this change.", '
        f'category="hooks", files={_strings(files)}, changes="edit write remove"),')


def _carry_names(mine: list, base: list, policy: _Policy) -> None:
    if any(item not in mine for item in base):
        raise _CannotCarry("ALLOWED_NAMES lost a name")
    policy.not_secrets.extend(item for item in mine if item not in base)


def _carry_path_rules(mine: list, base: list, policy: _Policy) -> None:
    for index, rule in enumerate(base):
        if rule not in mine:
            policy.disabled.append(_PATH_RULE_IDS[index])
    for number, rule in enumerate((r for r in mine if r not in base), 1):
        if not (isinstance(rule, tuple) and len(rule) == 5):
            raise _CannotCarry("PATH_RULES holds a rule of another shape")
        what, where, patterns, instead, changes = rule
        if where not in ("name", "dir", "root") or not isinstance(patterns, list) or \
                not all(isinstance(p, str) for p in patterns):
            raise _CannotCarry("a PATH_RULES rule of its own is not a plain one")
        key = "dirs" if where == "dir" else "files"
        found = [p if where != "root" or p.startswith(("./", "/")) else "./" + p for p in patterns]
        kinds = " ".join(sorted(changes)) if isinstance(changes, (set, list, tuple)) else ""
        policy.rules.append(f'Rule("files.extra-{number}", {what!r}, {instead!r}, '
                            f'{key}={_strings(found)}, changes={kinds!r}),')


def _carry_shell_rules(mine: list, base: list, policy: _Policy) -> None:
    if any(rule not in base for rule in mine):
        raise _CannotCarry("SHELL_RULES holds a rule of its own or an edited message")
    for rule in base:
        if rule in mine:
            continue
        function = rule[1][1]
        if function not in _SHELL_RULE_IDS:
            raise _CannotCarry(f"SHELL_RULES lost {function}, which the new rules cannot leave "
                               "out on its own")
        policy.disabled.extend(_SHELL_RULE_IDS[function])


def _strings(items: list[str]) -> str:
    return "[" + ", ".join(f'"{item}"' if '"' not in item and "\\" not in item else repr(item)
                           for item in items) + "]"


def _apply(new_text: str, policy: _Policy) -> str:
    """The new rendering with the carried policy written into its lists."""
    text = new_text
    if policy.not_secrets:
        text = text.replace("NOT_SECRETS: list[str] = []",
                            f"NOT_SECRETS: list[str] = {_strings(policy.not_secrets)}", 1)
    if policy.disabled:
        text = text.replace("DISABLED_RULES: list[str] = []",
                            f"DISABLED_RULES: list[str] = {_strings(policy.disabled)}", 1)
    if policy.rules:
        anchor = "EXTRA_RULES: list[Rule] = [\n"
        at = text.index(anchor) + len(anchor)
        text = text[:at] + "".join(f"    {rule}\n" for rule in policy.rules) + text[at:]
    return text
