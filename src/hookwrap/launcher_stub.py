"""hookwrap's launcher: `python3 .hookwrap/lib/run.py <name> --platform <cli>` runs
.hookwrap/hooks/<name>.py (copied into every project as .hookwrap/lib/run.py).

Python compiles a script it runs on every run and never caches it, so this file stays this
short; the launcher's code is _hookwrap_launcher.py beside it, served from its cached bytecode.
It parses on Python 2.7 too: where the launcher cannot run, every hook blocks (exit 2).
"""

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from _hookwrap_launcher import main  # type: ignore[import-not-found]
    except (ImportError, SyntaxError) as error:  # exit 2, as for a missing hook script: a block
        why = "hookwrap: the launcher cannot run on Python {} ({}); run `hookwrap doctor`\n"
        sys.stderr.write(why.format(sys.version.split()[0], error))
        raise SystemExit(2)
    finally:
        del sys.path[0]
    main()
