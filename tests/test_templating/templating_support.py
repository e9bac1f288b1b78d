"""Old home of the template-test helpers, kept for branches that still import it: use
``support.hookrepo`` (and ``support`` for the paths)."""

from support import GOLDEN, PAYLOADS, REPO_ROOT, RUNTIME_SRC  # noqa: F401
from support.cli import payload as load_payload  # noqa: F401
from support.hookrepo import HookRepo, make_hook_repo  # noqa: F401
from hookwrap.generator.vendor import RUNTIME_MODULES  # noqa: F401
