"""e2e probe: loaded by every python3 a CLI starts during a test run (the harness puts it on PYTHONPATH).

It does two things and prints nothing:

* drops the installed hookwrap from ``sys.path`` (``HOOKWRAP_E2E_HIDE_PATHS``), so a hook only works
  if the copy of the runtime inside the repo does, as on a teammate's machine without hookwrap;
* appends one JSON line per started script to ``HOOKWRAP_E2E_PROBE_LOG``, so a test can tell which
  hook scripts each CLI really ran (both CLIs drop an invalid settings entry without a word).
"""

import os
import sys

for _path in filter(None, os.environ.get("HOOKWRAP_E2E_HIDE_PATHS", "").split(os.pathsep)):
    while _path in sys.path:
        sys.path.remove(_path)

_log = os.environ.get("HOOKWRAP_E2E_PROBE_LOG")
if _log and sys.argv and sys.argv[0] not in ("", "-c", "-m"):
    import json
    import time

    with open(_log, "a", encoding="utf-8") as _f:
        _record = {"argv": sys.argv, "cwd": os.getcwd(), "pid": os.getpid(), "t": time.time()}
        _f.write(json.dumps(_record) + "\n")
