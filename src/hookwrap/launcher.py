"""hookwrap's launcher: runs a hook script from cached bytecode.

Copied into every project as ``.hookwrap/lib/_hookwrap_launcher.py``, beside the script every
registered command runs, ``python3 <root>/.hookwrap/lib/run.py <name> --platform <cli>``
(``launcher_stub.py``), which imports it: so this module comes from cached bytecode, where a
script run by name is compiled on every call (about 2 ms for this one; 5-9 ms for a long hook
script run directly). This runs ``<root>/.hookwrap/hooks/<name>.py`` exactly as ``python3 <that
script> --platform <cli>`` would (``__name__``, ``__file__``, ``sys.argv``, ``sys.path[0]``, the
exit code and message of a missing script or a syntax error), from a checked-hash .pyc (PEP 552)
in ``.hookwrap/hooks/__pycache__/``: the hash of the source is compared on every call, so an
edit takes effect at once, whatever the file's mtime and size. When the hook is done, the
process ends without the interpreter's teardown wherever that loses nothing (``_exit_now``).

The runtime beside this launcher (``.hookwrap/lib/``) comes from the checked-hash .pyc files
hookwrap writes (they stay valid across a git checkout, which changes every mtime). Two costs
come with importing it the usual way: to check such a .pyc, Python reads and hashes the module's
source (about 1.2 M instructions for the guard's modules), and importlib's own machinery costs
about 0.17 M instructions per module around the .pyc it reads (locks, finders, specs), for the
14 to 17 modules a hook loads. So while the script loads, this launcher stands in for
``builtins.__import__`` (``_import``): a runtime module that is not imported yet, that Python
would find in ``.hookwrap/lib`` (first on sys.path, or in a package found there; no finder of
the script's own serves it first), is imported from its .pyc directly (``_direct``), with the
attributes importlib gives a module (spec, loader, ``__file__``, ``__cached__``, ``__path__``).
The .pyc is checked as Python checks it (magic number; a timestamp .pyc against the source's
mtime and size), except a checked-hash one: hookwrap writes beside them the size, mtime and hash
of each source it compiled (``STAMPS``, for this Python's cache tag), and such a .pyc is taken
while its source still has that size and mtime and the .pyc that hash, as Python takes its own
timestamp-checked .pyc. Everything else is left to the usual import: another module, a source
changed since, another .pyc, a relative sys.path entry, a path hook or finder of the script's
own, an import from another thread (or while one runs: the usual import has the locks), odd
``__import__`` arguments, ``-O``, a pycache prefix, an import profile (``-X importtime``,
``PYTHONPROFILEIMPORTTIME``), ``--check-hash-based-pycs always``. The builtin ``__import__`` is
put back before the hook function runs (``resume_gc_for_hook``); a reference the script kept to
the launcher's then goes straight to the builtin.

The cyclic garbage collector is paused while the script and what it imports load (``GC_PAUSED``):
a process that lives for one call frees nothing by collecting then, and the collections cost
about a millisecond. hookwrap's runner resumes it (``runner._resume_gc``), with everything
loaded so far frozen, just before it calls the hook function (``resume_gc_for_hook``), so the
hook itself runs as usual; an exit that is not the launcher's quick one gets it back as it was.

A fail-closed hook (the guard) is registered with ``--fail-closed=SECONDS`` after its name
(``FAIL_CLOSED``). It must not let a call through because it could not judge it, and most CLIs
read a crash (exit 1) or a timeout as "go on". So the launcher blocks the call, in the one way
all ten CLIs read a block from a command (exit 2 and the reason on stderr, nothing on stdout),
when that hook cannot start (a syntax error, an exception at import: a runtime module missing or
broken, an interpreter below 3.9), ends without an answer, or has not answered SECONDS after its
process started (``_arm_deadline``: SIGALRM; SECONDS is inside the CLI's timeout). ``run.py``
blocks every hook the same way where this module cannot be imported (Python 2.7 to 3.5).

Stdlib only, Python 3.9+, and it imports nothing that is not loaded already at start-up but
the built-in ``gc`` module.
"""

import builtins
import gc
import marshal
import os
import sys

# For type checkers only: importing typing costs milliseconds.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from types import CodeType, ModuleType
    from typing import Any

_FLAGS = (3).to_bytes(4, "little")  # hash-based, checked (PEP 552)
# True while this launcher keeps the garbage collector paused for the script's loading; and
# once resume_gc_for_hook has frozen what was loaded.
GC_PAUSED = False
GC_FROZEN = False
# Each runtime source hookwrap compiled, as it was then (generator/plan.py writes it): the header
# and the cache tag of the .pyc; the stamped modules' names, then their sources (paths from
# .hookwrap/lib/, with "/"), each on one line, in the same order; then "size mtime hash path"
# per source (mtime as Python's repr of os.stat's st_mtime; the .pyc's source hash in hex).
STAMPS = os.path.join("__pycache__", "hookwrap-sources.txt")
STAMPS_HEADER = "hookwrap runtime sources 3"
# The flag a fail-closed hook's command carries after the hook's name, with the seconds it has
# to answer (clis/_base.py: FAIL_CLOSED_FLAG).
FAIL_CLOSED = "--fail-closed="
# The last word of a user-scope hook's command (generator/scope.py USER_FLAG): the hook steps
# aside where the project the CLI works in registers a hook of the same name (project_wins).
USER_FLAG = "--user"
# Where a CLI's project hooks find the project (clis/<cli>.py, command_form): the folder in its
# variable; a CLI not listed walks up from its hooks' working folder to hookwrap.toml. Written
# out here so a hook process imports no CLI's record (tests/runtime/test_user_scope_launcher.py
# checks it against the records).
PROJECT_VARS = {"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR",
                "qwen": "QWEN_PROJECT_DIR", "copilot": "COPILOT_PROJECT_DIR"}
# A CLI that asks for trust in a project's hooks skips them without a word until it is given
# (TRUST_CHECKS, below). Where the project's hook is not trusted, the user's runs: a guard that
# runs twice beats one that runs nowhere.
# Gemini CLI 0.61.0 reads a folder's .gemini/settings.json, its hooks with it, only when the
# folder is trusted as settings load, before argv is parsed (chunk-5FZXKDXH.js checkPathTrust):
# `--skip-trust` sets GEMINI_CLI_TRUST_WORKSPACE=true after that (gemini-3HFX2LNT.js L8232), so
# a hook sees the variable set whether the project's hooks were dropped or not. Only the
# trusted folders file tells: its path (GEMINI_CLI_TRUSTED_FOLDERS_PATH, else
# $GEMINI_CLI_HOME/.gemini/, else ~/.gemini/) and its levels, the longest matching rule winning.
GEMINI_TRUSTED_FOLDERS = ("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "GEMINI_CLI_HOME",
                          os.path.join(".gemini", "trustedFolders.json"))
GEMINI_TRUST_LEVELS = {"TRUST_FOLDER": True, "TRUST_PARENT": True, "DO_NOT_TRUST": False}
# Qwen Code 0.24.4 (a fork of Gemini CLI) drops a project's hooks in an untrusted folder only
# where its user or system settings turn folder trust on (`security.folderTrust.enabled`, off
# by default; reference/qwen-code.md 1.4). Its system settings, by platform:
QWEN_SYSTEM_SETTINGS = {"linux": "/etc/qwen-code/settings.json",
                        "darwin": "/Library/Application Support/QwenCode/settings.json",
                        "win32": "C:\\ProgramData\\qwen-code\\settings.json"}
# Copilot CLI 1.0.102 runs a repo's hooks only in a folder it trusts; in `-p` that is
# COPILOT_ALLOW_ALL=true, which its hooks see. A saved trust decision or `--trust-folder` a hook
# cannot see: there the user's hook runs too (reference/copilot-cli.md).
# Set to "user" for a user-scope hook's process.
SCOPE_VAR = "HOOKWRAP_SCOPE"
# A hook's answer when it has no opinion, the same on every CLI (REQ-006.7.2, hookoutput.py).
NO_OPINION = b"{}\n"
# A manifest without a top-level `platforms` (generator/hookentry.py ALL_PLATFORMS).
DEFAULT_PLATFORMS = ("claude", "gemini")
# While the launcher imports the runtime (_start_imports): the stamps, the modules they name, the
# builtin __import__ to put back...
_IMPORTS: "dict[str, Any]" = {"runtime": {}}


def _valid_name(name: str) -> bool:
    """``^[a-z][a-z0-9_-]{0,63}$`` without the re module (a name is never a path)."""
    return 0 < len(name) <= 64 and "a" <= name[0] <= "z" and \
        all("a" <= c <= "z" or "0" <= c <= "9" or c in "_-" for c in name)


def _magic() -> "tuple[bytes, int]":
    """importlib's MAGIC_NUMBER and the key source_hash takes, from the loaded bootstrap."""
    magic = getattr(sys.modules.get("_frozen_importlib_external"), "MAGIC_NUMBER", None)
    if not isinstance(magic, bytes):
        import importlib.util

        magic = importlib.util.MAGIC_NUMBER
    return magic, int.from_bytes(magic, "little")


def _cache_path(hooks: str, name: str) -> str:
    tag = sys.implementation.cache_tag
    if sys.flags.optimize:
        tag += f".opt-{sys.flags.optimize}"
    return os.path.join(hooks, "__pycache__", f"{name}.{tag}.pyc")


def _write(cache: str, data: bytes) -> None:
    """Atomically, or not at all (a read-only checkout, a full disk: the next call compiles)."""
    if sys.dont_write_bytecode:
        return
    temp = f"{cache}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(temp, "wb") as file:
            file.write(data)
        os.replace(temp, cache)
    except OSError:
        try:  # noqa: SIM105 (contextlib is not loaded at start-up)
            os.unlink(temp)
        except OSError:
            pass


def load(path: str, source: bytes, cache: str) -> "CodeType":
    """The code of ``source``: from ``cache`` when its magic and source hash match, else
    compiled (SyntaxError as from a direct run) and written to ``cache``."""
    import _imp

    magic, key = _magic()
    digest = _imp.source_hash(key, source)
    try:
        data = _read(cache)
    except OSError:
        data = b""
    if data[:4] == magic and data[4] & 1 and data[8:16] == digest:
        try:
            code = marshal.loads(data[16:])
        except (EOFError, ValueError, TypeError):
            pass
        else:
            if type(code) is type(load.__code__):
                fix = getattr(_imp, "_fix_co_filename", None)
                if fix is not None:  # as importlib does: the path run, not the one compiled
                    fix(code, path)
                return code
    code = compile(source, path, "exec", dont_inherit=True)
    _write(cache, magic + _FLAGS + digest + marshal.dumps(code))
    return code


def _beside(launcher: str, name: str) -> str:
    """``<dir>/hooks/<name>.py`` for a launcher path ``<dir>/lib/run.py``, kept as relative or
    absolute as the launcher's own path."""
    lib = os.path.dirname(launcher)
    top = os.path.dirname(lib) if os.path.basename(lib) else ""
    if not top:
        top = os.path.join(lib, os.pardir) if lib else os.pardir
    return os.path.join(top, "hooks", f"{name}.py")


def _open_fds() -> "dict[str, tuple[int, int] | None] | None":
    """The process's open file descriptors, each with the file it points to (device, inode;
    None for the listing's own, closed by the time it is read), or None where the system does
    not list them."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found: "dict[str, tuple[int, int] | None]" = {}  # noqa: UP037 (vermin: 3.9)
        for name in names:
            try:
                status = os.fstat(int(name))
            except (OSError, ValueError):
                found[name] = None
            else:
                found[name] = (status.st_dev, status.st_ino)
        return found
    return None


def _same_files(before: "dict[str, tuple[int, int] | None]",
                after: "dict[str, tuple[int, int] | None] | None") -> bool:
    """The same descriptors, pointing to the same files; but 0, 1 and 2 may each point to any of
    the three's first files (the runner sends 1 to stderr once the answer is out)."""
    if after is None or after.keys() != before.keys():
        return False
    standard = {before.get(name) for name in ("0", "1", "2")}
    return all(after[name] in standard if name in ("0", "1", "2") else after[name] == before[name]
               for name in after)


def _answered() -> bool:
    """True once hookwrap's runner (or bridge) has written its one answer, flushed it, and sent
    file descriptor 1 to stderr (``runner.seal_stdout``): nothing written later is an answer."""
    runner = sys.modules.get("hookwrap.runner")
    return getattr(runner, "answer_sealed", False) is True


def _exit_now(code: object, opened: "dict[str, tuple[int, int] | None] | None") -> None:
    """End the hook process at once, without the interpreter's teardown, when nothing can be
    lost; return (for the usual exit) otherwise.

    The teardown (freeing every module and object one by one) costs a hook process about as
    much CPU as its whole runtime import (3-5 ms measured, benchmarks/run.py). What it would do
    that matters is done here: atexit handlers run (logging's flush among them), the standard
    streams are flushed. The quick exit is taken only after hookwrap's runner has written and
    sealed the hook's answer (a script that writes its own output keeps the usual exit), with
    an exit status from 0 to 255, and it is not taken whenever something else could need the
    teardown: a thread still running, a file descriptor opened or replaced during the hook and
    still open (a file object's unwritten buffer, a pipe, a socket), a system that does not list
    descriptors, ``python3 -i``. ``opened`` is the listing taken before the hook ran:
    descriptors the CLI passed in do not count. What is still not flushed: a second file object
    the hook made over a descriptor that was open before it ran (``open(2, "w")``) and left
    unflushed; hookwrap's answer never goes through one.
    """
    if code is None:
        code = 0
    if type(code) is not int or not 0 <= code <= 255 or opened is None or sys.flags.inspect \
            or not _answered():
        return
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    atexit = sys.modules.get("atexit")
    if atexit is not None:
        # It forgets them: the usual exit would not run them twice. 3.9 and 3.10 re-raise a
        # handler's error here (printed already); the usual exit would not, nor change the
        # status. (Not contextlib.suppress: contextlib is not loaded at start-up.)
        try:  # noqa: SIM105
            atexit._run_exitfuncs()
        except BaseException:
            pass
    if not _same_files(opened, _open_fds()):
        return
    try:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _read(path: str) -> bytes:
    """The bytes of the file at ``path``, without the io objects ``open`` makes (a third of the
    instructions), in reads of 64 KB: a larger buffer would be a memory mapping of its own,
    which costs the kernel a map, a remap and an unmap per file."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(fd, 1 << 16)]
        while len(chunks[-1]) == 1 << 16:
            chunks.append(os.read(fd, 1 << 16))
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _start_imports(lib: str) -> None:
    """While the script loads, import the runtime's modules from their .pyc files directly (see
    the module docstring): with Python's own checks of each .pyc, but without importlib's
    machinery around them, and for hookwrap's checked-hash .pyc with ``STAMPS`` in place of
    hashing the source. Anything else, or any doubt, goes through the usual import."""
    if os.sep != "/" or sys.flags.optimize or getattr(sys, "pycache_prefix", None) or \
            "importtime" in sys._xoptions or not sys.implementation.cache_tag or \
            (not sys.flags.ignore_environment and  # posix.environ: os.environ's own dict
             b"PYTHONPROFILEIMPORTTIME" in getattr(sys.modules.get("posix"), "environ", ())):
        return  # a .pyc elsewhere or of another kind, or an import profile asked for: as usual
    import _imp

    bootstrap = sys.modules.get("_frozen_importlib")
    external = sys.modules.get("_frozen_importlib_external")
    if getattr(_imp, "check_hash_based_pycs", "default") == "always" or bootstrap is None or \
            not isinstance(getattr(external, "MAGIC_NUMBER", None), bytes) or \
            getattr(external, "PathFinder", None) is None:
        return
    try:
        stamps = _read(os.path.join(lib, STAMPS)).decode("utf-8")
        status = os.stat(lib)
    except (OSError, ValueError):
        return
    if not stamps.startswith(STAMPS_HEADER + " "):
        return
    names, sources = stamps.split("\n", 3)[1:3] if stamps.count("\n") >= 3 else ("", "")
    runtime = dict(zip(names.split(), sources.split()))  # a module's name: its source
    if len(runtime) != len(sources.split()):
        return
    _IMPORTS.update(stamps=stamps, runtime=runtime, lib=(status.st_dev, status.st_ino),
                    roots={}, bootstrap=bootstrap, external=external, imp=_imp,
                    own_tag=stamps.startswith(
                        f"{STAMPS_HEADER} {sys.implementation.cache_tag}\n"),
                    builtin=builtins.__import__, hooks=list(sys.path_hooks),
                    thread=sys.modules.get("_thread"),
                    ident=getattr(sys.modules.get("_thread"), "get_ident", int)())
    builtins.__import__ = _import


def _import(name: str, globals: "Mapping[str, object] | None" = None,
            locals: "Mapping[str, object] | None" = None,
            fromlist: "Sequence[str] | None" = (), level: int = 0) -> "ModuleType":
    """``builtins.__import__`` while the script loads: a runtime module not imported yet is
    imported by ``_direct`` first, then the builtin does the rest (binding names, fromlist)."""
    # Arguments the builtin would refuse reach it as they are, for its own error.
    full = name
    if level:
        try:
            package = globals.get("__package__") if type(globals) is dict and level > 0 \
                else None
        except TypeError:  # a level that is not a number
            package = None
        if not isinstance(package, str) or package.count(".") < level - 1:
            full = ""
        else:
            base = package.rsplit(".", level - 1)[0] if level > 1 else package
            full = f"{base}.{name}" if name else base
    runtime = _IMPORTS["runtime"]
    try:
        wanted = full in runtime
    except TypeError:  # a name that is not a string
        wanted = False
    if wanted:
        modules = sys.modules
        if full not in modules and _alone():
            _direct(full)
        if fromlist and type(fromlist) in (list, tuple) and full in modules:
            for item in fromlist:  # `from hookwrap import shell`: a module too
                sub = f"{full}.{item}" if isinstance(item, str) else ""
                if sub in runtime and sub not in modules and \
                        not hasattr(modules[full], item) and _alone():
                    _direct(sub)
    module: ModuleType = _IMPORTS["builtin"](name, globals, locals, fromlist, level)
    return module


def _alone() -> bool:
    """Whether the thread that loads the script is the only one: another one would need the
    usual import's locks."""
    thread = _IMPORTS.get("thread")
    return thread is not None and not thread._count() and thread.get_ident() == _IMPORTS["ident"]


def _direct(name: str) -> bool:
    """Import runtime module ``name`` from its .pyc where Python would find it in lib and take
    that .pyc; False leaves it to the usual import."""
    modules = sys.modules
    state = _IMPORTS
    rel = state["runtime"][name]
    package = rel.endswith("/__init__.py")
    parent, _, child = name.rpartition(".")
    folders = None
    if parent:
        if parent not in modules and (parent not in state["runtime"] or not _direct(parent)):
            return False
        if name in modules:  # the parent's own code imported it
            return True
        folders = getattr(modules[parent], "__path__", None)
        folder = folders[0] if type(folders) is list and len(folders) == 1 else None
        tail = "/" + parent.replace(".", "/")
        if type(folder) is not str or not folder.endswith(tail) or \
                not _in_lib(folder[:-len(tail)]):
            return False
        root = folder[:-len(tail)]
    else:
        first = sys.path[0] if sys.path else None
        if type(first) is not str or not first.startswith("/") or not _in_lib(first) or \
                name in sys.builtin_module_names:
            return False
        root = first.rstrip("/")
    if sys.path_hooks != state["hooks"] or (folders is None and first in sys.path_importer_cache
                                            and type(sys.path_importer_cache[first]) is not
                                            state["external"].FileFinder):
        return False
    if not _no_finder_first(name, folders):
        return False
    source = f"{root}/{rel}"
    folder, _, base = source.rpartition("/")
    cached = f"{folder}/__pycache__/{base[:-3]}.{sys.implementation.cache_tag}.pyc"
    code = _pyc_code(rel, source, cached)
    if code is None:
        return False
    sys.audit("import", name, None, sys.path, sys.meta_path, sys.path_hooks)  # as Python's
    module = _new_module(name, source, cached, package)
    modules[name] = module
    spec: Any = module.__spec__
    spec._initializing = True  # as importlib marks it while the module runs
    try:
        exec(code, module.__dict__)
    except BaseException:
        modules.pop(name, None)
        raise
    finally:
        spec._initializing = False
    if parent:
        setattr(modules[parent], child, modules[name])
    return True


def _no_finder_first(name: str, path: "list[str] | None") -> bool:
    """Whether no finder before sys.path's serves ``name``, asked as the usual import asks them
    (setuptools' finder for distutils comes first; the built-in and frozen ones never serve a
    module of the runtime)."""
    bootstrap = _IMPORTS["bootstrap"]
    path_finder = _IMPORTS["external"].PathFinder
    for finder in sys.meta_path:
        if finder is path_finder:
            return True
        if finder is bootstrap.BuiltinImporter or finder is bootstrap.FrozenImporter:
            continue
        try:
            if finder.find_spec(name, path) is not None:
                return False
        except Exception:
            return False
    return False  # no sys.path finder: not an import this launcher can stand in for


def _in_lib(root: str) -> bool:
    """Whether the folder ``root`` (as sys.path or a package's __path__ spells it) is lib."""
    roots: dict[str, bool] = _IMPORTS["roots"]
    known = roots.get(root)
    if known is None:
        try:
            status = os.stat(root)
        except OSError:
            known = False
        else:
            known = (status.st_dev, status.st_ino) == _IMPORTS["lib"]
        roots[root] = known
    return known


def _pyc_code(rel: str, source: str, cached: str) -> "CodeType | None":
    """The code in ``cached``, if Python would take that .pyc for ``source`` now."""
    state = _IMPORTS
    try:
        status = os.stat(source)
        data = _read(cached)
    except OSError:
        return None
    flags = data[4:8]
    if data[:4] != state["external"].MAGIC_NUMBER:
        return None
    if flags == b"\0\0\0\0":  # timestamp-checked, as Python writes them itself
        if data[8:12] != (int(status.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") or \
                data[12:16] != (status.st_size & 0xFFFFFFFF).to_bytes(4, "little"):
            return None
    elif flags == b"\3\0\0\0":  # checked hash: hookwrap's, stamped when sync wrote it
        if not state["own_tag"] or f"\n{status.st_size} {status.st_mtime!r} " \
                                   f"{data[8:16].hex()} {rel}\n" not in state["stamps"]:
            return None
    elif flags != b"\1\0\0\0":  # unchecked hash: Python takes it as it is
        return None
    try:
        code = marshal.loads(data[16:])
    except Exception:  # a damaged .pyc (EOFError, ValueError, SystemError...): Python's import
        return None    # then says what is wrong with it
    if type(code) is not type(_pyc_code.__code__):
        return None
    fix = getattr(state["imp"], "_fix_co_filename", None)
    if fix is not None:  # as importlib does: the path imported, not the one compiled
        fix(code, source)
    return code


def _new_module(name: str, source: str, cached: str, package: bool) -> "ModuleType":
    """The module, with what importlib's FileFinder and module_from_spec give it."""
    loader = _IMPORTS["external"].SourceFileLoader(name, source)
    spec = _IMPORTS["bootstrap"].ModuleSpec(name, loader, origin=source, is_package=package)
    spec.has_location = True
    spec.cached = cached
    module = type(sys)(name)
    attrs = module.__dict__
    attrs["__loader__"] = loader
    attrs["__package__"] = name if package else name.rpartition(".")[0]
    attrs["__spec__"] = spec
    if package:
        spec.submodule_search_locations = attrs["__path__"] = [source.rpartition("/")[0]]
    attrs["__file__"] = source
    attrs["__cached__"] = cached
    return module


def _stop_imports() -> None:
    _IMPORTS["runtime"] = {}  # a saved reference to _import now goes straight to the builtin
    builtin = _IMPORTS.get("builtin")
    if builtin is not None and builtins.__import__ is _import:
        builtins.__import__ = builtin


def _pause_gc() -> None:
    global GC_PAUSED
    if gc.isenabled():
        gc.disable()
        GC_PAUSED = True


def resume_gc_for_hook() -> None:
    """Called by hookwrap's runner just before the hook function: the collector back on, with
    what is loaded frozen (later collections never walk it); every .pyc checked as usual again."""
    global GC_PAUSED, GC_FROZEN
    _stop_imports()
    if GC_PAUSED:
        GC_PAUSED = False
        gc.freeze()
        GC_FROZEN = True
        gc.enable()


def _resume_gc() -> None:
    """The collector as it was, before Python's own exit: its teardown may need it (an object
    frozen is never collected, so its ``__del__`` would not run)."""
    global GC_PAUSED, GC_FROZEN
    _stop_imports()
    if GC_FROZEN:
        GC_FROZEN = False
        gc.unfreeze()
    if GC_PAUSED:
        GC_PAUSED = False
        gc.enable()


def _deadline(argv: "list[str]") -> "float | None":
    """The seconds a fail-closed hook has to answer (``FAIL_CLOSED`` right after its name), or
    None for any other hook."""
    flag = argv[2] if len(argv) > 2 else ""
    if not flag.startswith(FAIL_CLOSED):
        return None
    try:
        seconds = float(flag[len(FAIL_CLOSED):])
    except ValueError:
        return 0.0  # fails closed, with no deadline of its own
    return seconds if 0 < seconds < 1e6 else 0.0


def _block(name: str, why: str) -> None:
    """End a fail-closed hook's process with a block: exit 2 and the reason on stderr, which
    every CLI reads as a block of the call (stdout stays empty: Gemini CLI would prefer JSON
    there to the exit code)."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    message = f"hookwrap: {name} fails closed and {why}, so the call is blocked; " \
              f"run `hookwrap doctor` in the project\n"
    try:  # noqa: SIM105
        os.write(2, message.encode("utf-8", "replace"))
    except OSError:
        pass
    os._exit(2)


def _age() -> float:
    """Seconds since this process started (the CLI's clock for its timeout started then, and
    Python's own start can take a good part of a second on a loaded machine); 0 where the
    system does not tell (only Linux's /proc is read)."""
    try:
        stat = _read("/proc/self/stat")
        ticks = int(stat.rsplit(b")", 1)[1].split()[19])
        clock = float(sys.modules["time"].clock_gettime(sys.modules["time"].CLOCK_BOOTTIME))
        return max(0.0, clock - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, KeyError, AttributeError):
        return 0.0


def _arm_deadline(name: str, seconds: float) -> None:
    """Block at ``seconds`` after this process started unless the hook has answered by then:
    most CLIs let the call through when a hook times out. Where there is no SIGALRM
    (Windows), the CLI's own timeout stands."""
    signal = sys.modules.get("_signal")  # built in, loaded at start-up (not `signal`: enum)
    if signal is None or not hasattr(signal, "setitimer") or seconds <= 0:
        return

    def expired(signum: int, frame: object) -> None:
        if not _answered():
            _block(name, f"gave no answer within {seconds:g} s")

    signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, max(0.05, seconds - _age()))


def main() -> None:
    """Run the hook named in sys.argv; a fail-closed one blocks whatever stops this launcher,
    and on a Python older than the runtime's 3.9 (run.py blocks every hook where this module
    cannot even be compiled: 2.7 to 3.5)."""
    if sys.version_info < (3, 9) and _deadline(sys.argv) is not None:
        _block(sys.argv[1], "could not start (Python {}.{} is older than 3.9, the runtime's "
               "floor; set `python` in hookwrap.toml)".format(*sys.version_info))
    try:
        _launch(sys.argv)
    except Exception as error:
        if _deadline(sys.argv) is None:
            raise
        sys.excepthook(type(error), error, error.__traceback__)
        _block(sys.argv[1], f"could not start ({type(error).__name__}: {error})")


def _launch(argv: "list[str]") -> None:
    name = argv[1] if len(argv) > 1 else ""
    if not _valid_name(name):
        sys.stderr.write(f"hookwrap: run.py needs a hook name, not {name!r}\n"
                         "usage: python3 .hookwrap/lib/run.py <name> --platform <cli>\n")
        raise SystemExit(2)
    if argv[-1] == USER_FLAG:
        del argv[-1]
        if project_wins(name, argv, os.environ, os.getcwd()):
            # No opinion, as the runtime writes it for every CLI (Cline's hook file wants a JSON
            # answer): the CLI goes on, and the project's hook decides.
            os.write(1, NO_OPINION)
            raise SystemExit(0)
        os.environ[SCOPE_VAR] = "user"  # what the hook says of itself (guard_engine.py)
    path = _beside(os.path.abspath(__file__), name)
    shown = _beside(argv[0], name)
    try:
        source = _read(path)
    except OSError as error:  # as Python's own "can't open file", exit 2
        sys.stderr.write(f"{os.path.basename(sys.executable) or 'python3'}: can't open file "
                         f"{path!r}: [Errno {error.errno}] {error.strerror}\n")
        raise SystemExit(2) from None
    deadline = _deadline(argv)
    if deadline is not None:
        _arm_deadline(name, deadline)
    _pause_gc()
    _start_imports(os.path.dirname(os.path.abspath(__file__)))
    try:  # load's other errors (a null byte in the source, 3.9-3.11...) go to main's handler
        code = load(path, source, _cache_path(os.path.dirname(path), name))
    except SyntaxError as error:  # printed as a direct run prints it: no launcher frames
        _resume_gc()
        sys.excepthook(type(error), error.with_traceback(None), None)
        if deadline is not None:
            _block(name, f"could not start ({type(error).__name__}: {error})")
        raise SystemExit(1) from None
    _run(code, name, path, [shown, *argv[2:]], deadline)


def project_wins(name: str, argv: "list[str]", env: "Mapping[str, str]", cwd: str) -> bool:
    """Whether a user-scope hook steps aside: the project the CLI works in (its folder in the
    CLI's variable, else the nearest folder at or above ``cwd`` holding hookwrap.toml, the user
    scope's own folder left out) registers a hook of the same ``name`` on this CLI, which then
    runs instead, so that each call runs the hook once. Costs one stat per folder and a read of
    the project's manifest; TOML is parsed only when it names the hook."""
    platform = argv[argv.index("--platform") + 1] if "--platform" in argv[:-1] else ""
    own = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    folder = env.get(PROJECT_VARS.get(platform, ""), "")
    folders = [folder] if folder else _parents(cwd)
    for folder in folders:
        path = os.path.join(folder, "hookwrap.toml")
        if os.path.isfile(path) and os.path.realpath(folder) != os.path.realpath(own):
            try:
                with open(path, "rb") as file:
                    data = file.read()
            except OSError:
                return False
            return name.encode() in data and platform in _registered_on(data, name) \
                and _trusted(platform, folder, env)
    return False


def _trusted(platform: str, folder: str, env: "Mapping[str, str]") -> bool:
    """Whether ``platform`` records trust in the project's hooks, where it asks for it."""
    check = TRUST_CHECKS.get(platform)
    return check is None or check(folder, env)


def _codex_trusted(folder: str, env: "Mapping[str, str]") -> bool:
    """Whether Codex CLI's config.toml holds a trusted hook of the project's hooks file (Codex
    CLI 0.171.0: reference/codex-cli.md 1.4; the project by its real path)."""
    home = env.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    try:
        with open(os.path.join(home, "config.toml"), encoding="utf-8") as file:
            return f'"{os.path.realpath(folder)}/.codex/hooks.json:' in file.read()
    except (OSError, ValueError):
        return False


def _gemini_trusted(folder: str, env: "Mapping[str, str]") -> bool:
    """Whether Gemini CLI's trusted folders file trusts ``folder`` (its isPathTrusted: each
    rule's folder, a TRUST_PARENT rule's parent, covers itself and what is below it; the
    longest rule wins; comments are read as Gemini CLI strips them). A file that does not read
    trusts nothing: the user's hook then runs too."""
    variable, home, rel = GEMINI_TRUSTED_FOLDERS
    path = env.get(variable) or os.path.join(env.get(home) or os.path.expanduser("~"), rel)
    return _folders_file_trusts(path, folder)


def _qwen_trusted(folder: str, env: "Mapping[str, str]") -> bool:
    """Whether Qwen Code loads the project's settings: folder trust is off unless its user or
    system settings turn it on, and then only its trusted folders file (Gemini CLI's rules)
    trusts a folder. A settings file that does not read counts as turning it on."""
    home = env.get("QWEN_HOME") or os.path.join(os.path.expanduser("~"), ".qwen")
    system = env.get("QWEN_CODE_SYSTEM_SETTINGS_PATH") or QWEN_SYSTEM_SETTINGS.get(
        sys.platform, QWEN_SYSTEM_SETTINGS["linux"])
    for path in (os.path.join(home, "settings.json"), system):
        settings = _read_jsonc(path, missing={})
        security = settings.get("security") if isinstance(settings, dict) else None
        trust = security.get("folderTrust") if isinstance(security, dict) else None
        if settings is None or (isinstance(trust, dict) and trust.get("enabled") is True):
            rules = env.get("QWEN_CODE_TRUSTED_FOLDERS_PATH") or os.path.join(
                home, "trustedFolders.json")
            return _folders_file_trusts(rules, folder)
    return True


def _read_jsonc(path: str, missing: "Any" = None) -> "Any":
    """The JSON value in ``path``, comments stripped; ``missing`` where there is no such file,
    None where it does not read."""
    try:
        with open(path, encoding="utf-8") as file:
            import json
            return json.loads(_strip_comments(file.read()))
    except FileNotFoundError:
        return missing
    except (OSError, ValueError, RecursionError):
        return None


def _folders_file_trusts(path: str, folder: str) -> bool:
    """Whether a Gemini CLI (or Qwen Code) trusted folders file trusts ``folder``."""
    rules = _read_jsonc(path)
    target, best, trusted = os.path.realpath(folder), -1, False
    for rule, level in rules.items() if isinstance(rules, dict) else ():
        if level not in GEMINI_TRUST_LEVELS or not isinstance(rule, str):
            continue
        base = os.path.realpath(os.path.dirname(rule) if level == "TRUST_PARENT" else rule)
        if (target == base or target.startswith(base.rstrip(os.sep) + os.sep)) \
                and len(rule) > best:
            best, trusted = len(rule), GEMINI_TRUST_LEVELS[level]
    return trusted


def _copilot_trusted(folder: str, env: "Mapping[str, str]") -> bool:
    """The one trust of Copilot CLI's a hook can see (the note on COPILOT_ALLOW_ALL, top)."""
    return env.get("COPILOT_ALLOW_ALL") == "true"


# The CLIs that ask for trust in a project's hooks: whether it is given.
TRUST_CHECKS = {"codex": _codex_trusted, "gemini": _gemini_trusted, "qwen": _qwen_trusted,
                "copilot": _copilot_trusted}


def _strip_comments(text: str) -> str:
    """JSON text without its ``//`` and ``/* */`` comments (those outside strings)."""
    out, i, end = [], 0, len(text)
    while i < end:
        char = text[i]
        if char == '"':
            close = i + 1
            while close < end and text[close] != '"':
                close += 2 if text[close] == "\\" else 1
            out.append(text[i:close + 1])
            i = close + 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else end
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = end if close < 0 else close + 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _parents(start: str) -> "list[str]":
    start = os.path.abspath(start)
    found = [start]
    while os.path.dirname(found[-1]) != found[-1]:
        found.append(os.path.dirname(found[-1]))
    return found


def _registered_on(data: bytes, name: str) -> "Sequence[str]":
    """The CLIs a manifest registers hook ``name`` on: its ``platforms``, else the manifest's,
    else the default; () when it has no such hook or does not read."""
    try:
        import tomllib  # novm: Python 3.11+; older ones read the two keys below by hand
    except ImportError:
        return _registered_on_39(data.decode("utf-8", "replace"), name)
    try:
        manifest = tomllib.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return ()
    hooks = manifest.get("hooks")
    entry = hooks.get(name) if isinstance(hooks, dict) else None
    if not isinstance(entry, dict):
        return ()
    platforms = entry.get("platforms") or manifest.get("platforms") or DEFAULT_PLATFORMS
    return platforms if isinstance(platforms, list) else DEFAULT_PLATFORMS


def _registered_on_39(text: str, name: str) -> "Sequence[str]":
    """``_registered_on`` without tomllib (Python 3.9 and 3.10): the hook's table by its header,
    and a one-line ``platforms = [...]`` in it or before the first table."""
    table, top, found, tables = "", None, None, set()
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            table = line.strip("[] ").replace('"', "").replace("'", "")
            tables.add(table)
            continue
        key, _, value = line.partition("=")
        if key.strip() != "platforms":
            continue
        words = tuple(w.strip().strip("\"'") for w in value.strip().strip("[]").split(","))
        if table == "":
            top = words
        elif table == f"hooks.{name}":
            found = words
    if f"hooks.{name}" not in tables:
        return ()
    return found or top or DEFAULT_PLATFORMS


def _run(code: "CodeType", name: str, path: str, argv: "list[str]",
         deadline: "float | None") -> None:
    """Run the script's code as ``__main__`` with ``argv``, as ``python3 <path>`` would; a
    fail-closed hook (``deadline`` not None) that raises or ends without an answer blocks."""
    module = type(sys)("__main__")
    bootstrap = sys.modules.get("_frozen_importlib_external")
    loader = getattr(bootstrap, "SourceFileLoader", None)
    module.__dict__.update({"__file__": path, "__builtins__": builtins, "__cached__": None,
                            "__package__": None, "__spec__": None,
                            "__loader__": loader("__main__", path) if loader else None})
    sys.modules["__main__"] = module
    sys.argv = argv
    # As a direct run: the script's real folder first (no such entry under python3 -I).
    if sys.path and sys.path[0] == os.path.dirname(os.path.realpath(__file__)):
        sys.path[0] = os.path.dirname(os.path.realpath(path))
    opened = _open_fds()
    try:
        exec(code, module.__dict__)
    except SystemExit as done:
        if deadline is not None and not _answered():
            _block(name, f"ended (exit code {done.code}) without an answer")
        _exit_now(done.code, opened)
        _resume_gc()
        raise
    except Exception as error:  # printed without this launcher's frame, exit 1 as usual
        _resume_gc()
        traceback = error.__traceback__
        traceback = traceback.tb_next if traceback else None
        sys.excepthook(type(error), error.with_traceback(traceback), traceback)
        if deadline is not None:
            _block(name, f"could not start ({type(error).__name__}: {error})")
        raise SystemExit(1) from None
    if deadline is not None and not _answered():
        _block(name, "ended without an answer")
    _exit_now(0, opened)
    _resume_gc()


if __name__ == "__main__":
    main()
