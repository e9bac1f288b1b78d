"""hookwrap's launcher: `python3 .hookwrap/lib/run.py <name> --platform <cli>` runs
.hookwrap/hooks/<name>.py (copied into every project as .hookwrap/lib/run.py).

Python compiles a script it runs on every run and never caches it, so this file stays this
short; the launcher's code is _hookwrap_launcher.py beside it, served from its cached bytecode.
"""

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        from _hookwrap_launcher import main  # type: ignore[import-not-found]
    except ImportError as error:  # exit 2, as for a missing hook script: a guard still blocks
        sys.stderr.write(f"hookwrap: the launcher is missing or broken ({error}); "
                         "run `hookwrap sync` in the project\n")
        raise SystemExit(2) from None
    finally:
        del sys.path[0]
    main()
