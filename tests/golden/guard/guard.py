#!/usr/bin/env python3
"""guard: stops dangerous shell commands and edits to secrets before they run.

Rendered once by `hookwrap add` from the guard template; it is yours now. The rules are
plain data at the top: add, remove or loosen them. Anything no rule matches is allowed.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import fnmatch
import os
import re
import shlex
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402

HOOK_NAME = 'guard'

# Shell rules: (what it is, regex, what to do instead). Each regex is searched in every
# command the shell line would run, normalized first (see _commands): quotes removed,
# `sudo`, `env`, `timeout 5`, `xargs`, `nohup`, `VAR=value`... prefixes dropped (_WRAPPERS),
# `bash -c '...'` and `eval` bodies checked as commands of their own, lines split at
# ; && || & ( ), and the stages of a pipeline joined by " | ". So the first rule also catches
# `sudo rm -fr ~`, `cd x && rm -r -f $HOME`, `timeout -s KILL 5 rm -rf /`,
# `find . | xargs -0 rm -rf ~` and `bash -c 'rm --recursive --force ..'`.
SHELL_RULES = [
    (
        "recursive forced delete of /, ~, $HOME or ..",
        r"(^|\| )rm\b(?=.* (-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)( |$))(?=.* (-[a-zA-Z]*f[a-zA-Z]*|--force)( |$))"
        r".* (/|~|\$HOME|\$\{HOME\}|\.\.(/\.\.)*)/?\*?( |$)",
        "Delete only the specific paths you mean, inside the project (e.g. `rm -rf build`).",
    ),
    (
        "git push --force / -f",
        r"(^|\| )git( -\S+( \S+)?)* push\b.* (--force|-[a-zA-Z]*f[a-zA-Z]*)( |$)",
        "Push without force; if the remote history must be rewritten, ask the user to do it.",
    ),
    (
        "git push of a +refspec (a forced update)",
        r"(^|\| )git( -\S+( \S+)?)* push\b.* \+\S+",
        "Push without the leading +; if the remote history must be rewritten, ask the user to do it.",
    ),
    # --force-with-lease refuses to overwrite commits it has not seen, but it still rewrites
    # the shared history: blocked too. Delete this rule to allow it.
    (
        "git push --force-with-lease",
        r"(^|\| )git( -\S+( \S+)?)* push\b.* --force-with-lease(=\S*)?( |$)",
        "Push without force; if the remote history must be rewritten, ask the user to do it.",
    ),
    # Only shells: `curl ... | python3 -m json.tool` is common and harmless.
    (
        "a download piped into a shell",
        r"\b(curl|wget)\b.*\| (ba|z|da|k|fi)?sh( |$)",
        "Download the script to a file, read it, and ask the user before running it.",
    ),
    (
        "a download run by a shell",
        r"(^|\| )((ba|z|da|k|fi)?sh <\(|\$\() (curl|wget)\b",
        "Download the script to a file, read it, and ask the user before running it.",
    ),
]

# File rules for every file a call writes (write_file, edit_file, a Codex patch): (what it is, where the patterns apply: "name" =
# the file name, "dir" = any component of the path, fnmatch patterns, what to do instead).
# Shell commands that write these files (`echo x > .env`) are not covered here.
PATH_RULES = [
    (
        "a .env file, which holds secrets",
        "name",
        [".env", ".env.*"],
        "Edit .env.example instead and tell the user which values to set in their .env.",
    ),
    (
        "a file inside .git/",
        "dir",
        [".git"],
        "Use git commands (git add, git commit, git config) instead of editing .git/ directly.",
    ),
]
# File names no rule blocks: templates that hold no secrets by convention.
ALLOWED_NAMES = [".env.example", ".env.sample", ".env.template"]

# Words that run the rest of the line as a command: {word: (options that take a value,
# arguments before the command)}. Their options are skipped; a listed option given as
# `-s KILL` or `--signal KILL` skips its value too (`-sKILL`, `--signal=KILL` are one word).
# `timeout` takes one argument, its duration, before the command.
_WRAPPERS = {
    "sudo": ({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "--user", "--group", "--host",
              "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user"}, 0),
    "doas": ({"-u", "-C"}, 0),
    "env": ({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}, 0),
    "nice": ({"-n", "--adjustment"}, 0),
    "nohup": (set(), 0),
    "timeout": ({"-s", "-k", "--signal", "--kill-after"}, 1),
    "xargs": ({"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter",
               "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, 0),
    "stdbuf": ({"-i", "-o", "-e", "--input", "--output", "--error"}, 0),
    "time": ({"-f", "-o", "--format", "--output"}, 0),
    "command": (set(), 0),
    "exec": ({"-a"}, 0),
    "builtin": (set(), 0),
}
_KEYWORDS = {"{", "}", "!", "if", "then", "elif", "else", "do", "while", "until"}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish"}
_SEPARATORS = {";", ";;", "&", "&&", "||", "(", ")"}
_PIPES = {"|", "|&"}

# What arrives (before_tool; Claude Code: PreToolUse, Gemini CLI: BeforeTool):
#   event.tool_name    normalized: shell, write_file, edit_file, read_file, glob, grep,
#                      web_fetch, web_search, task; other names lower-cased (MCP tools:
#                      Claude "mcp__server__tool", Gemini "mcp_server_tool")
#   event.raw_tool_name  as the CLI sent it: Claude Bash/Write/Edit, Gemini
#                      run_shell_command/write_file/replace
#   event.tool_input   the tool's arguments (a dict):
#                        shell: tool_input["command"] on both
#                        write_file, edit_file, read_file: tool_input["file_path"] on both
#                        (Claude sends absolute paths; Gemini may send them relative to cwd)
#                        write_file: "content"; edit_file: "old_string", "new_string"
#   event.cwd, event.session_id, event.transcript_path: on both
#   Claude only: event.tool_use_id, event.permission_mode
#   Gemini only: event.timestamp, event.mcp_context (MCP tools)
#   Any other payload key: event.get("key"); the whole payload: event.raw_input.


def hook(event: HookInput) -> HookOutput | None:
    """Block the call when a rule matches; otherwise no opinion (None)."""
    # Every file the call writes: write_file's or edit_file's file_path, or each file a Codex
    # apply_patch adds, updates, deletes or moves (event.files has the details).
    for path in event.file_paths:
        blocked = _check_path(path, event.cwd)
        if blocked:
            return blocked
    if event.tool_name == "shell":
        return _check_command(event.tool_input.get("command"))
    return None


def _check_command(command: object) -> HookOutput | None:
    if not isinstance(command, str):
        return None
    for line in _commands(command):
        for what, pattern, instead in SHELL_RULES:
            if re.search(pattern, line):
                return _block(what, line, instead)
    return None


def _check_path(path: object, cwd: str) -> HookOutput | None:
    if not isinstance(path, str) or not path:
        return None
    # Gemini may send a path relative to cwd; normpath folds `a/../.git` into `.git`.
    full = os.path.normpath(os.path.join(cwd or os.getcwd(), path))
    parts = [part.lower() for part in full.split(os.sep) if part]
    name = parts[-1] if parts else ""
    if any(fnmatch.fnmatchcase(name, allowed) for allowed in ALLOWED_NAMES):
        return None
    for what, where, patterns, instead in PATH_RULES:
        candidates = parts if where == "dir" else [name]
        if any(fnmatch.fnmatchcase(part, pattern) for part in candidates for pattern in patterns):
            return _block(what, path, instead)
    return None


def _block(what: str, target: str, instead: str) -> HookOutput:
    if len(target) > 200:
        target = target[:200] + "..."
    return HookOutput.block(
        f"Blocked by the {HOOK_NAME} hook: {what} (`{target}`). {instead} "
        f"(The rules are in .hookwrap/hooks/{HOOK_NAME}.py.)"
    )


def _commands(command: str, depth: int = 0) -> list[str]:
    """Every simple pipeline the line would run, normalized as described above SHELL_RULES."""
    lines: list[str] = []
    for pipeline in _split(_tokens(command)):
        stages = []
        for stage in pipeline:
            words = _strip_wrappers(stage)
            body = _shell_body(words)
            if body is not None and depth < 5:
                lines.extend(_commands(body, depth + 1))
            stages.append(" ".join(_quoted(word) for word in words))
        lines.append(" | ".join(stage for stage in stages if stage))
    return lines


def _quoted(word: str) -> str:
    """A word holding spaces or operators (a quoted argument) stays quoted, so that
    `grep 'curl x | sh'` cannot look like a pipeline to the rules."""
    return f"'{word}'" if any(char in word for char in " \t|;&") else word


def _tokens(command: str) -> list[str]:
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        tokens = command.split()
    # `$(` arrives as "$" then "("; keep it one word so "(" does not split the command there.
    merged: list[str] = []
    for token in tokens:
        if token == "(" and merged and merged[-1] == "$":
            merged[-1] = "$("
        else:
            merged.append(token)
    return merged


def _split(tokens: list[str]) -> list[list[list[str]]]:
    """Tokens -> pipelines -> stages -> words."""
    pipelines: list[list[list[str]]] = [[[]]]
    for token in tokens:
        if token in _SEPARATORS:
            pipelines.append([[]])
        elif token in _PIPES:
            pipelines[-1].append([])
        else:
            pipelines[-1][-1].append(token)
    return [[stage for stage in pipeline if stage] for pipeline in pipelines if any(pipeline)]


def _strip_wrappers(words: list[str]) -> list[str]:
    words = list(words)
    while words:
        first = os.path.basename(words[0]) or words[0]
        if first in _KEYWORDS or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", first):
            words.pop(0)
        elif first in _WRAPPERS:
            with_value, arguments = _WRAPPERS[first]
            words = _skip_options(words[1:], with_value)[arguments:]
        else:
            words[0] = first
            break
    return words


def _skip_options(words: list[str], with_value: set[str]) -> list[str]:
    while words and words[0].startswith("-"):
        option = words.pop(0)
        if option == "--":  # the end of the options
            break
        if option in with_value and words:
            words.pop(0)
    return words


def _shell_body(words: list[str]) -> str | None:
    """The command string of `bash -c '...'` or `eval ...`, or None."""
    if words and words[0] == "eval":
        return " ".join(words[1:])
    if not words or words[0] not in _SHELLS:
        return None
    for index, word in enumerate(words[1:], start=1):
        if not word.startswith("-"):
            return None
        if "c" in word.lstrip("-") and not word.startswith("--") and index + 1 < len(words):
            return words[index + 1]
    return None


if __name__ == "__main__":
    raise SystemExit(main(hook))
