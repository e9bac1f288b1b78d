"""`import hookwrap` loads the standard library and the runtime modules only (STYLE.md §4)."""

from __future__ import annotations

import ast
import subprocess
import sys

from runtime_support import SRC, cli_env

FORBIDDEN = ("typer", "click", "jinja2", "tomlkit", "rich", "pydantic", "importlib.metadata")
RUNTIME = {
    "hookwrap", "hookwrap.platforms", "hookwrap.tools", "hookwrap.hookinput",
    "hookwrap.hookoutput", "hookwrap.protocol", "hookwrap.runner",
}


def _modules(code: str, *flags: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, *flags, "-c", code], capture_output=True, env=cli_env(), timeout=60, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return set(ast.literal_eval(proc.stdout.strip()))


def _loaded_by_import() -> set[str]:
    """Modules present after `import hookwrap` that were not there at interpreter start."""
    before = _modules("import sys; print(sorted(sys.modules))")
    after = _modules("import hookwrap, sys; print(sorted(sys.modules))")
    return after - before


def _is_forbidden(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in FORBIDDEN)


def test_import_loads_no_cli_dependency() -> None:
    after = _modules("import hookwrap, sys; print(sorted(sys.modules))")
    assert sorted(m for m in after if _is_forbidden(m)) == []


def test_import_loads_only_stdlib_and_runtime_modules() -> None:
    new = _loaded_by_import()
    assert RUNTIME <= new
    outside = sorted(m for m in new if m.split(".")[0] not in sys.stdlib_module_names and m not in RUNTIME)
    assert outside == []


def test_import_without_site_packages_needs_nothing_else() -> None:
    # -S: no site-packages at all, hookwrap found through PYTHONPATH=src only.
    assert (SRC / "hookwrap" / "__init__.py").is_file()
    loaded = _modules("import hookwrap, sys; print(sorted(sys.modules))", "-S")
    outside = sorted(
        m for m in loaded
        if m.split(".")[0] not in sys.stdlib_module_names and m not in RUNTIME and m != "__main__"
    )
    assert outside == []


def test_running_a_hook_loads_no_cli_dependency() -> None:
    code = (
        "import hookwrap, sys, io\n"
        "sys.stdin = io.StringIO('{\"hook_event_name\": \"PreToolUse\", \"tool_name\": \"Bash\"}')\n"
        "real = sys.stdout; sys.stdout = io.StringIO()\n"
        "def hook(inp): raise ValueError('x')\n"
        "hookwrap.run_hook(hook, 'claude')\n"
        "sys.stdout = real\n"
        "print(sorted(sys.modules))\n"
    )
    loaded = _modules(code)
    assert sorted(m for m in loaded if _is_forbidden(m)) == []
    assert "traceback" in loaded  # the error path ran
