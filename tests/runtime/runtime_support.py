"""Old home of the runtime-test helpers, kept for branches that still import it: use
``support.runtime`` (and ``support`` for the paths)."""

from support import PAYLOADS, SRC  # noqa: F401
from support import REPO_ROOT as REPO  # noqa: F401
from support.runtime import (  # noqa: F401
    Run,
    capture_name,
    cli_env,
    load_payload,
    payload_path,
    run_in_process,
    run_script,
    single_json_object,
)
