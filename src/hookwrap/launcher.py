"""hookwrap's launcher: runs a hook script from cached bytecode.

Copied into every project as ``.hookwrap/lib/run.py``; every registered command runs
``python3 <root>/.hookwrap/lib/run.py <name> --platform <cli>``. Python never caches the
bytecode of a script it runs as ``__main__``, so a hook run directly is compiled afresh on every
call (5-9 ms for a long script). This runs ``<root>/.hookwrap/hooks/<name>.py`` exactly as
``python3 <that script> --platform <cli>`` would (``__name__``, ``__file__``, ``sys.argv``,
``sys.path[0]``, the exit code and message of a missing script or a syntax error), from a
checked-hash .pyc (PEP 552) in ``.hookwrap/hooks/__pycache__/``: the hash of the source is
compared on every call, so an edit takes effect at once, whatever the file's mtime and size.

Stdlib only, Python 3.9+, and it imports nothing that is not loaded already at start-up.
"""

import builtins
import marshal
import os
import sys

# For type checkers only: importing typing costs milliseconds.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import CodeType

_FLAGS = (3).to_bytes(4, "little")  # hash-based, checked (PEP 552)


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
        with open(cache, "rb") as file:
            data = file.read()
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


def main() -> None:
    argv = sys.argv
    name = argv[1] if len(argv) > 1 else ""
    if not _valid_name(name):
        sys.stderr.write(f"hookwrap: run.py needs a hook name, not {name!r}\n"
                         "usage: python3 .hookwrap/lib/run.py <name> --platform <cli>\n")
        raise SystemExit(2)
    path = _beside(os.path.abspath(__file__), name)
    shown = _beside(argv[0], name)
    try:
        with open(path, "rb") as file:
            source = file.read()
    except OSError as error:  # as Python's own "can't open file", exit 2
        sys.stderr.write(f"{os.path.basename(sys.executable) or 'python3'}: can't open file "
                         f"{path!r}: [Errno {error.errno}] {error.strerror}\n")
        raise SystemExit(2) from None
    try:
        code = load(path, source, _cache_path(os.path.dirname(path), name))
    except SyntaxError as error:  # printed as a direct run prints it: no launcher frames
        sys.excepthook(type(error), error.with_traceback(None), None)
        raise SystemExit(1) from None
    module = type(sys)("__main__")
    bootstrap = sys.modules.get("_frozen_importlib_external")
    loader = getattr(bootstrap, "SourceFileLoader", None)
    module.__dict__.update({"__file__": path, "__builtins__": builtins, "__cached__": None,
                            "__package__": None, "__spec__": None,
                            "__loader__": loader("__main__", path) if loader else None})
    sys.modules["__main__"] = module
    sys.argv = [shown, *argv[2:]]
    # As a direct run: the script's real folder first (no such entry under python3 -I).
    if sys.path and sys.path[0] == os.path.dirname(os.path.realpath(__file__)):
        sys.path[0] = os.path.dirname(os.path.realpath(path))
    try:
        exec(code, module.__dict__)
    except Exception as error:  # printed without this launcher's frame, exit 1 as usual
        traceback = error.__traceback__
        traceback = traceback.tb_next if traceback else None
        sys.excepthook(type(error), error.with_traceback(traceback), traceback)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
