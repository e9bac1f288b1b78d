"""`import hookwrap` loads the standard library and the runtime modules only (STYLE.md §4)."""

from __future__ import annotations

import ast
import subprocess
import sys

from support import SRC
from support.runtime import cli_env

from hookwrap.generator.vendor import RUNTIME_MODULES

# inspect too: dataclasses imports it, and hookwrap defers it (hookwrap/_dataclasses.py).
FORBIDDEN = ("typer", "click", "jinja2", "tomlkit", "rich", "pydantic", "importlib.metadata",
             "inspect")
# Copied for type checkers only (the CLI descriptions' annotations): never imported at run time.
TYPES_ONLY = {"hookwrap.clis._views"}
# The modules `hookwrap init` copies into a repo are exactly the ones `import hookwrap` loads.
RUNTIME = {"hookwrap"} | {"hookwrap." + m[:-3].replace("/", ".").replace(".__init__", "")
                          for m in RUNTIME_MODULES if m != "__init__.py"} - TYPES_ONLY
# The CLIs' records (clis/claude.py...), not the families they share (clis/_claude_protocol.py).
CLI_MODULES = {m for m in RUNTIME if m.startswith("hookwrap.clis.") and not m.rpartition(".")[2].startswith("_")}


def test_types_only_modules_define_nothing_at_run_time() -> None:
    for module in TYPES_ONLY:
        source = (SRC / (module.replace(".", "/") + ".py")).read_text()
        body = [n for n in ast.parse(source).body if not isinstance(n, (ast.Expr, ast.ImportFrom))]
        assert [type(n).__name__ for n in body] == ["Assign", "If"], module  # TYPE_CHECKING = False


def _modules(code: str, *flags: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, *flags, "-c", code], capture_output=True, env=cli_env(), timeout=60, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return set(ast.literal_eval(proc.stdout.strip()))


def _loaded_by_import(code: str = "import hookwrap") -> set[str]:
    """Modules present after ``code`` that were not there at interpreter start."""
    before = _modules("import sys; print(sorted(sys.modules))")
    after = _modules(f"{code}; import sys; print(sorted(sys.modules))")
    return after - before


def _is_forbidden(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in FORBIDDEN)


def test_import_loads_no_cli_dependency() -> None:
    after = _modules("import hookwrap, sys; print(sorted(sys.modules))")
    assert sorted(m for m in after if _is_forbidden(m)) == []


def test_import_loads_only_stdlib_and_runtime_modules() -> None:
    # Every CLI's module too: all of them are copied into a repo, and must be stdlib only.
    # commandfilter (a shell call's filter), server (the resident mode), bridge
    # (external hooks), hookproc (a command run by the bridge or Cline's dispatcher) and the
    # shell's full parser load on demand, and _cline_hooks runs only in a Cline hook file.
    new = _loaded_by_import("import hookwrap, hookwrap.options, hookwrap.commandfilter, "
                            "hookwrap.server, hookwrap.bridge, hookwrap.hookproc, "
                            "hookwrap.guard_engine, "
                            "hookwrap.guard_checks, hookwrap.guard_packs, "
                            "hookwrap.shell_code, hookwrap.shell_parser, hookwrap.clis._cline_hooks; "
                            "hookwrap.platforms.all_runtimes()")
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
        "import hookwrap, sys\n"
        "assert 'dataclasses' not in sys.modules\n"
        "assert hookwrap.HookInput.__dataclass_fields__['platform'].type == 'Platform'\n"
        "assert 'inspect' not in sys.modules\n"
        "import dataclasses\n"
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


def test_import_loads_no_cli_module_until_one_is_needed() -> None:
    assert _loaded_by_import() & CLI_MODULES == set()


def test_a_hook_call_loads_only_its_own_cli_module() -> None:
    code = ("import hookwrap; hookwrap.denormalize_output(hookwrap.HookOutput.block('x'), "
            "'claude', 'before_tool')")
    assert _loaded_by_import(code) & CLI_MODULES == {"hookwrap.clis.claude"}


def test_the_seed_maps_still_import_and_cover_every_platform() -> None:
    from hookwrap import EVENT_TO_NORMALIZED, NORMALIZED_TO_TOOL, Platform

    assert set(EVENT_TO_NORMALIZED) == set(Platform) == set(NORMALIZED_TO_TOOL)


def _cli_modules_of_a_claude_call(**env: str) -> set[str]:
    code = ("import io, sys; sys.stdin = io.StringIO('{\"hook_event_name\": \"PreToolUse\"}'); "
            "import hookwrap; hookwrap.main(lambda e: None, ['--platform', 'claude'])")
    before = _modules("import sys; print(sorted(sys.modules))")
    base = {k: v for k, v in cli_env().items() if k not in ("CLAUDECODE", "COPILOT_PROJECT_DIR")}
    proc = subprocess.run([sys.executable, "-c", code + "; print(sorted(sys.modules), file=sys.stderr)"],
                          capture_output=True, text=True, timeout=60, env={**base, **env})
    assert proc.returncode == 0, proc.stderr
    return (set(ast.literal_eval(proc.stderr.strip().splitlines()[-1])) - before) & CLI_MODULES


def test_a_claude_code_hook_call_does_not_load_a_guest_cli_s_module() -> None:
    """Copilot's module is imported only when its own hook-only variable says it hosts the call;
    Claude Code's CLAUDECODE (also exported to its Bash tool) decides nothing."""
    assert _cli_modules_of_a_claude_call(CLAUDECODE="1") == {"hookwrap.clis.claude"}
    assert _cli_modules_of_a_claude_call() == {"hookwrap.clis.claude"}
    assert _cli_modules_of_a_claude_call(COPILOT_PROJECT_DIR="/tmp") == {
        "hookwrap.clis.claude", "hookwrap.clis.copilot"}


def test_every_guest_cli_is_named_with_the_variable_it_sets() -> None:
    from hookwrap.platforms import all_runtimes, runtime_of

    guests = {(agent.platform.value, name, variable) for agent in all_runtimes()
              for name, variable in agent.guest_clis.items()}
    assert guests  # Copilot runs Claude Code's registrations
    for _host, name, variable in guests:
        assert variable == runtime_of(name).marker_env


def test_a_shell_call_loads_the_command_filter_only_when_some_hook_has_patterns(tmp_path) -> None:
    """No .hookwrap/filters.json (no hook has `commands`): a shell call never imports the filter."""
    import json
    import os

    hooks = tmp_path / ".hookwrap" / "hooks"
    hooks.mkdir(parents=True)
    script = hooks / "h.py"
    script.write_text(
        "import sys\nimport hookwrap\n"
        "def hook(event):\n    print('called', file=sys.stderr)\n    return hookwrap.HookOutput.block('no')\n"
        "try:\n    hookwrap.main(hook, ['--platform', 'claude'])\n"
        "finally:\n    print(sorted(sys.modules), file=sys.stderr)\n", encoding="utf-8")
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "ls -la"}})
    env = {**cli_env(), "CLAUDECODE": "1", **{k: v for k, v in os.environ.items() if k == "PATH"}}

    def run() -> tuple[set[str], str, str]:
        proc = subprocess.run([sys.executable, str(script)], input=payload, capture_output=True,
                              text=True, timeout=60, env=env)
        assert proc.returncode == 0, proc.stderr
        return set(ast.literal_eval(proc.stderr.strip().splitlines()[-1])), proc.stdout, proc.stderr

    loaded, out, err = run()
    assert "hookwrap.commandfilter" not in loaded and "called" in err and "deny" in out
    (tmp_path / ".hookwrap" / "filters.json").write_text(json.dumps({"h": ["git *"]}))
    loaded, out, err = run()
    assert "hookwrap.commandfilter" in loaded and "called" not in err and out.strip() == "{}"
