"""`import hookwrap` loads the standard library and the runtime modules only (STYLE.md §4)."""

from __future__ import annotations

import ast
import subprocess
import sys

from hookwrap.project import RUNTIME_MODULES

from runtime_support import SRC, cli_env

# inspect too: dataclasses imports it, and hookwrap defers it (hookwrap/_dataclasses.py).
FORBIDDEN = ("typer", "click", "jinja2", "tomlkit", "rich", "pydantic", "importlib.metadata",
             "inspect")
# The modules `hookwrap init` copies into a repo are exactly the ones `import hookwrap` loads.
RUNTIME = {"hookwrap"} | {f"hookwrap.{m[:-3]}" for m in RUNTIME_MODULES if m != "__init__.py"}


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


def test_inspect_stays_the_real_module_for_everyone_else() -> None:
    code = (
        "import hookwrap, sys, dataclasses\n"
        "assert 'inspect' not in sys.modules\n"
        "import inspect\n"
        "assert inspect.signature(hookwrap.HookOutput.block).parameters['reason']\n"
        "@dataclasses.dataclass\n"
        "class NoDoc:\n"
        "    a: int = 1\n"
        "print(NoDoc.__doc__)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, env=cli_env(),
                          timeout=60, text=True)
    assert proc.returncode == 0, proc.stderr
    # dataclasses builds this docstring with inspect.signature: the deferred module served it.
    assert proc.stdout.strip() == "NoDoc(a: int = 1)"
