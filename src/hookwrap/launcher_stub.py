"""hookwrap's launcher: `python3 .hookwrap/lib/run.py <name> --platform <cli>` runs
.hookwrap/hooks/<name>.py (copied into every project as .hookwrap/lib/run.py). Python compiles
this file on every run, so it stays short: the code is in _hookwrap_launcher.py, from bytecode.
It parses on Python 2.7 too: a fail-closed hook (--fail-closed=SECONDS) blocks (exit 2) there.
"""
import os
import sys

if __name__ == "__main__":
    closed = sys.argv[2:3] and sys.argv[2].startswith("--fail-closed=")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        if closed and sys.version_info < (3, 9):
            raise ImportError("Python {}.{} is older than 3.9, the floor".format(*sys.version_info))
        from _hookwrap_launcher import main  # type: ignore[import-not-found]
    except Exception as error:  # exit 2, as for a missing hook script: the call is blocked
        if not (closed or isinstance(error, ImportError)):
            raise
        why = "hookwrap: {} cannot start ({}), so the call is blocked; run `hookwrap doctor`\n"
        sys.stderr.write(why.format(" ".join(sys.argv[1:2]) or "run.py", error))
        raise SystemExit(2)
    finally:
        del sys.path[0]
    main()
