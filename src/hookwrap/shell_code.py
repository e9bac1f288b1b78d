"""The code handed to interpreters (python -c, node -e, ruby -e, perl -e, awk, sed's e,
vim's :!, PowerShell...), read for the commands it would run and the files it would delete,
write or read. Loaded by shell.py only when a line hands code to an interpreter, so that a
hook process does not pay for it on every shell call.

Stdlib only, Python 3.9+, linear in the length of the code; never raises.
"""

from __future__ import annotations

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Tuple, Union

_EXEC_HINTS = ("system", "popen", "exec", "spawn", "subprocess", "check_output", "check_call",
               "Popen", "shell_exec", "passthru", "execute", "qx", "%x", "run(", "call(",
               "ProcessBuilder", "proc_open", "pty.", "shell script", "Deno.Command",
               "Bun.spawn", "Bun.$", "$`")
_DELETE_CALLS = {
    "rmtree": "-rf", "rm_rf": "-rf", "rm_r": "-rf", "remove_dir_all": "-rf", "rimraf": "-rf",
    "remove_entry": "-rf", "remove_entry_secure": "-rf", "rmSync": "", "rmdirSync": "",
    "removeSync": "", "rmdir": "", "remove": "", "unlink": "", "unlinkSync": "", "rm": "",
    "delete": "", "remove_file": "", "remove_tree": "-rf", "rmtree_p": "-rf",
}
# Calls that copy or move their first argument, a path: `shutil.copy(".env", ...)` copies it
# out, `os.rename(".hookwrap", ...)` takes it away.
_COPY_CALLS = frozenset(("copy", "copy2", "copyfile", "copyFile", "copyFileSync", "cpSync",
                         "copytree", "copy_file", "cp_r", "copySync"))
_MOVE_CALLS = frozenset(("rename", "renameSync", "move", "moveSync", "mv"))
_WRITE_CALLS = frozenset(("writeFileSync", "appendFileSync", "write_text", "write_bytes",
                          "writeFile", "appendFile", "file_put_contents"))


def code_commands(code: str, language: str) -> List[Union[str, List[str]]]:
    """Shell lines (str) and commands (argv lists) that interpreter code would run or do: the
    strings handed to system/exec/spawn/popen/subprocess calls (and every string literal of
    code that makes such a call: `cmd = "rm -rf x"; os.system(cmd)`), a list of literals
    as an argv (`["rm", "-rf", "x"]`), and files deleted, written or read by library call
    (`shutil.rmtree("x")` is `rm -rf x`, `os.remove(".env")` is `rm .env`, `open(".env")`
    is `cat .env`); sed's `e` command, vim's `:!`, PowerShell's Remove-Item."""
    if language == "sed":
        return _sed_commands(code)
    if language == "vim":
        return [line.lstrip(": ")[1:] for line in code.split("\n")
                if line.lstrip(": ").startswith("!")]
    if language == "pwsh":
        return [_powershell(line) for line in code.replace(";", "\n").split("\n")
                if line.strip()]
    found: List[Union[str, List[str]]] = _home_deletes(code)
    literals = string_literals(code, language)
    runs = any(hint in code for hint in _EXEC_HINTS) or \
        (language in ("ruby", "perl") and any(kind == "`" for _, _, _, kind in literals))
    index = 0
    while index < len(literals):
        start, _, text, kind = literals[index]
        call = _called_through(code, start)
        group = [literals[index]]
        while index + len(group) < len(literals) and \
                _joined(code, group[-1][1], literals[index + len(group)][0]):
            group.append(literals[index + len(group)])
        index += len(group)
        name = call.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
        file_use = _file_use(code, call, name, group)
        inner = _called(code, start) if not file_use else call
        if inner != call:  # `print(Path(".env").read_text())`: the path's own call
            file_use = _file_use(code, inner, inner.rsplit(".", 1)[-1], group)
        if file_use:
            found.append(_synthetic([*file_use, text]))
            continue
        if len(group) > 1 and (runs or name in ("spawn", "spawnSync", "execFile",
                                                "execFileSync")):
            found.append(_synthetic([item[2] for item in group]))
            continue
        if kind == "`" and language in ("ruby", "perl", "php"):
            found.append(text)
        elif (runs and any(c in text for c in " \t\n")) or name in ("system", "popen", "exec",
                                                                   "execSync", "spawnSync"):
            found.extend(item[2] for item in group)
    return found


def _synthetic(argv: List[str]) -> List[str]:
    return [word for word in argv if word]


# Calls whose argument is a path they read or write; `Path("x").read_text()` reads x.
_READ_CALLS = frozenset(("readFileSync", "readFile", "read_text", "read_bytes", "readlines",
                         "file_get_contents", "readLines", "read_file", "load_dotenv"))
_PATH_MAKERS = frozenset(("Path", "PurePath", "PosixPath", "File", "open", "io.open",
                          "codecs.open", "pathlib.Path", "Pathname", "new File", "fopen"))


def _file_use(code: str, call: str, name: str, group: List[Tuple[int, int, str, str]]
              ) -> Optional[List[str]]:
    """The command words that stand for what a call does with its first literal, a path:
    ["rm", "-rf"], ["rm"], ["tee"] (writes) or ["cat"] (reads); None for anything else."""
    end = group[0][1]
    after = code[end:end + 120]
    if name in _DELETE_CALLS:
        if name in ("delete", "remove", "rm", "unlink", "rmdir") and not \
                (call.startswith(("os.", "fs.", "File.", "FileUtils.", "Files.", "shutil.",
                                  "Deno.", "Dir.", "FileUtils::", "pathlib."))
                 or call in ("unlink", "rmdir", "remove") or _fs_module(code, call)):
            return None
        recursive = _DELETE_CALLS[name] or ("-rf" if "recursive" in after.split(")", 1)[0]
                                            or "TRUE" in after.split(")", 1)[0] else "")
        return ["rm", recursive] if recursive else ["rm"]
    if name in _WRITE_CALLS:
        return ["tee"]
    if name in _COPY_CALLS and (call.startswith(("shutil.", "fs.", "FileUtils", "File")) or
                                _fs_module(code, call) or name != "copy"):
        return ["cp", "-r"] if name in ("copytree", "cpSync", "cp_r") else ["cp"]
    if name in _MOVE_CALLS and (call.startswith(("os.", "shutil.", "fs.", "File", "Deno.")) or
                                _fs_module(code, call) or name in ("renameSync", "moveSync")):
        return ["mv"]
    if name in _READ_CALLS:
        return ["cat"]
    if name in ("open", "fopen") or call in _PATH_MAKERS:
        mode = group[1][2] if len(group) > 1 else ""
        if mode[:1] in ("w", "a", "x") and len(mode) <= 3:
            return ["tee"]
        method = after.split(")", 1)[1][:16] if ")" in after else ""
        if method.startswith((".write_text", ".write_bytes", ".write(")) or \
                "w" in mode[:1]:
            return ["tee"]
        if method.startswith((".unlink", ".rmdir", ".delete")):
            return ["rm"]
        if method.startswith((".rmtree",)):
            return ["rm", "-rf"]
        if method.startswith((".rename", ".replace")):
            return ["mv"]
        if name in ("open", "fopen") or method.startswith((".read", ".open")):
            return ["cat"]
    return None


def _fs_module(code: str, call: str) -> bool:
    """Whether a method call is on Node's fs module under another name (`require('fs/promises')
    .rm(...)`, `fsp.rm(...)`, `fse.copySync(...)`)."""
    owner = call.rsplit(".", 1)[0] if "." in call else ""
    return (owner == "" and call.startswith(".") and ("fs/promises" in code or "'fs'" in code
                                                       or '"fs"' in code)) or \
        (owner != "" and "fs" in owner.lower() and ("fs" in code))


# Expressions for the home directory in interpreter code; a delete call given one deletes it.
_HOME_EXPRESSIONS = ("expanduser('~')", 'expanduser("~")', "Path.home()", "homedir()",
                     "Dir.home", "ENV['HOME']", 'ENV["HOME"]', "environ['HOME']",
                     'environ["HOME"]', "$ENV{HOME}", "process.env.HOME", "getenv('HOME')",
                     'getenv("HOME")', "Deno.env.get('HOME')", "os.UserHomeDir()",
                     "path.expand('~')", 'path.expand("~")', "Sys.getenv('HOME')")


def _home_deletes(code: str) -> List[Union[str, List[str]]]:
    """`shutil.rmtree(os.path.expanduser('~'))`, `fs.rmSync(require('os').homedir(), ...)`:
    a delete call whose argument is the home directory, as `rm -rf ~`."""
    if not any(expression in code for expression in _HOME_EXPRESSIONS):
        return []
    found: List[Union[str, List[str]]] = []
    for name, flags in _DELETE_CALLS.items():
        at = code.find(name + "(")
        while at >= 0 and len(found) < 4:
            argument = code[at + len(name) + 1:at + len(name) + 120]
            head = argument.split(",", 1)[0]
            if any(expression in head for expression in _HOME_EXPRESSIONS):
                recursive = flags or ("-rf" if "recursive" in argument or "TRUE" in argument
                                      else "")
                found.append(_synthetic(["rm", *([recursive] if recursive else []), "~"]))
            at = code.find(name + "(", at + 1)
    return found


def _sed_commands(script: str) -> List[Union[str, List[str]]]:
    """The shell lines of sed's `e COMMAND` (GNU sed runs them)."""
    found: List[Union[str, List[str]]] = []
    for part in script.replace(";", "\n").split("\n"):
        command = part.strip()
        i = 0
        while i < len(command) and (command[i].isdigit() or command[i] in "$,~!+ "):
            i += 1
        if i < len(command) and command[i] == "/":  # a /regex/ address
            close = command.find("/", i + 1)
            i = len(command) if close < 0 else close + 1
            while i < len(command) and command[i] in " !":
                i += 1
        rest = command[i:]
        if rest[:1] == "e" and rest[1:2] in (" ", "\t") and rest[1:].strip():
            found.append(rest[1:].strip())
    return found


def _powershell(line: str) -> Union[str, List[str]]:
    """A PowerShell line as the shell command it amounts to: Remove-Item -Recurse -Force X
    (rm, ri, del, rd, rmdir, erase) is `rm -r -f X`; anything else is read as it is."""
    words = line.split()
    if not words or words[0].lower() not in ("remove-item", "ri", "rm", "del", "rd", "rmdir",
                                             "erase"):
        return line
    argv = ["rm"]
    for word in words[1:]:
        lower = word.lower()
        if lower.startswith("-r") and "recurse".startswith(lower[1:]):
            argv.append("-r")
        elif lower.startswith("-fo") and "force".startswith(lower[1:]):
            argv.append("-f")
        elif lower.startswith("-") and lower[1:] in ("path", "literalpath", "lp"):
            continue
        elif not lower.startswith("-"):
            argv.append(_windows_path(word.strip("'\"")))
    return _synthetic(argv)


def _windows_path(path: str) -> str:
    """A PowerShell path as the guard reads paths: a drive root (`C:\\`, `D:/x`) from `/`, the
    home (`$env:USERPROFILE`, `$HOME`, `~`) as `~`, backslashes as slashes."""
    lower = path.lower()
    for home in ("$env:userprofile", "$env:home", "${env:userprofile}", "$home", "~"):
        if lower.startswith(home) and (len(path) == len(home) or path[len(home)] in "\\/"):
            return "~" + path[len(home):].replace("\\", "/")
    for temp in ("$env:temp", "$env:tmp", "${env:temp}", "${env:tmp}"):
        if lower.startswith(temp) and (len(path) == len(temp) or path[len(temp)] in "\\/"):
            return "$TMPDIR" + path[len(temp):].replace("\\", "/")
    if len(path) >= 2 and path[0].isalpha() and path[1] == ":" and \
            (len(path) == 2 or path[2] in "\\/"):
        return "/" + path[3:].replace("\\", "/")
    return path.replace("\\", "/") if "\\" in path and "/" not in path else path


def _joined(code: str, end: int, start: int) -> bool:
    """Whether two literals are items of one list or call: only , [ ] ( ) and blanks between."""
    between = code[end:start]
    return "," in between and len(between) < 40 and all(c in " \t\n,[]()" for c in between) \
        and between.count("]") == 0


_PATH_WRAPPERS = frozenset(("expanduser", "expandvars", "abspath", "realpath", "normpath",
                            "resolve", "join", "expand_path", "fspath", "Path", "PurePath",
                            "str", "String", "path.resolve", "path.join"))


def _called_through(code: str, start: int) -> str:
    """_called(), looking through calls that only make a path (`os.path.expanduser("~")`
    inside `shutil.rmtree(...)` is rmtree's argument)."""
    call = _called(code, start)
    for _ in range(3):
        name = call.rsplit(".", 1)[-1]
        if name not in _PATH_WRAPPERS:
            return call
        at = code.rfind(call, 0, start)
        if at <= 0:
            return call
        outer = _called(code, at)
        if not outer:
            return call
        call, start = outer, at
    return call


def _called(code: str, start: int) -> str:
    """The name of the function whose arguments start at ``start``: `os.system(` or a bare
    `system ` (Perl, Ruby), else ""."""
    i = start - 1
    while i >= 0 and code[i] in " \t":
        i -= 1
    if i >= 0 and code[i] in "([":
        i -= 1
        while i >= 0 and code[i] in " \t([":
            i -= 1
    end = i + 1
    while i >= 0 and (code[i].isalnum() or code[i] in "_.:$"):
        i -= 1
    return code[i + 1:end]


def string_literals(code: str, language: str) -> List[Tuple[int, int, str, str]]:
    """(start, end, text, quote) of each string literal, in order; linear in the code."""
    found: List[Tuple[int, int, str, str]] = []
    n = len(code)
    i = 0
    quotes = "'\"`"
    while i < n:
        c = code[i]
        if c not in quotes:
            if c in "%q" and language in ("ruby", "perl") and (i == 0 or not code[i - 1].isalnum()):
                # Perl's q(...), qq{...}, qx(...) and Ruby's %x(...), %q{...}, %Q[...]
                head = code[i:i + 3]
                size = 3 if head[:2] in ("qq", "qx", "%x", "%q", "%Q", "%w") else 2
                opener = code[i + size - 1:i + size] if size == 3 else code[i + 1:i + 2]
                if head[:size - 1] in ("q", "qq", "qx", "%x", "%q", "%Q") and opener and \
                        opener in "({[/|!<":
                    close = {"(": ")", "{": "}", "[": "]", "<": ">"}.get(opener, opener)
                    end = code.find(close, i + size)
                    end = n if end < 0 else end
                    kind = "`" if head[:size - 1] in ("qx", "%x") else '"'
                    found.append((i, end + 1, code[i + size:end], kind))
                    i = end + 1
                    continue
            i += 1
            continue
        triple = code.startswith(c * 3, i) and language == "python"
        quote = c * 3 if triple else c
        j = i + len(quote)
        out: List[str] = []
        while j < n and not code.startswith(quote, j):
            if code[j] == "\\" and j + 1 < n:
                nxt = code[j + 1]
                out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                j += 2
                continue
            out.append(code[j])
            j += 1
        found.append((i, min(j + len(quote), n), "".join(out), c))
        i = j + len(quote)
    return found
