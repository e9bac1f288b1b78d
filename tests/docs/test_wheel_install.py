"""Build the wheel, install it into a fresh venv, and run the README's set-up with it.

This is what a user gets from `pip install .` (or pipx / uv tool): the console script, its
dependencies from the index, and the templates and runtime from inside the wheel, with no help
from this source tree.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hookwrap.generator.vendor import RUNTIME_MODULES

REPO = Path(__file__).resolve().parents[2]
# Taken before the autouse fixture points HOME at a temp dir: pip's cache lets a later run
# install the dependencies again when the index cannot be reached.
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")


def _run(args: list, *, cwd: Path | None = None, env: dict | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _clean_env(venv: Path) -> dict[str, str]:
    """The environment a user's shell would have with the venv's bin first on PATH."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSAFEPATH",
                        "PYTHONDONTWRITEBYTECODE")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_CACHE_DIR"] = PIP_CACHE
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _build_wheel(out: Path) -> Path:
    """`python -m build --wheel` (no isolation when hatchling is here), else `pip wheel`."""
    if importlib.util.find_spec("build") is not None:
        args = [sys.executable, "-m", "build", "--wheel", "--outdir", out]
        if importlib.util.find_spec("hatchling") is not None:
            args.append("--no-isolation")
        done = _run([*args, REPO])
    else:
        done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", out, REPO])
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = sorted(out.glob("hookwrap-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(base / "dist")
    venv = base / "venv"
    # A venv without pip of its own (ensurepip takes seconds): this pip installs into it.
    done = _run([sys.executable, "-m", "venv", "--without-pip", venv])
    assert done.returncode == 0, done.stderr
    env = _clean_env(venv)
    # --no-compile: pip byte-compiles every module it installs (typer, click, jinja2, ...), half
    # of the install's CPU; the venv's python writes the bytecode of the modules it imports.
    pip = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--quiet",
           "--no-compile"]
    done = _run([*pip, wheel], env=env, timeout=600)
    if done.returncode != 0:  # no index: the dependencies may still be in pip's cache
        retry = _run([*pip, "--no-index", "--find-links", PIP_CACHE, wheel], env=env)
        if retry.returncode != 0:
            pytest.fail("could not install the wheel's dependencies into a fresh venv:\n"
                        + done.stderr[-2000:])
    return {"wheel": wheel, "venv": venv, "env": env, "bin": venv / "bin" / "hookwrap"}


def test_wheel_holds_templates_runtime_and_py_typed(installed: dict) -> None:
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    templates = {p.name for p in (REPO / "templates").iterdir() if p.is_file()}
    assert {f"hookwrap/templates/{name}" for name in templates} <= names
    assert {f"hookwrap/{name}" for name in RUNTIME_MODULES} <= names
    assert "hookwrap/py.typed" in names
    assert "hookwrap/generator/clis/opencode_plugin.js" in names  # the OpenCode plugin's template
    assert "hookwrap/generator/clis/hook_runner.js" in names  # the runner every JS shim pastes in
    assert "hookwrap/generator/legacy/guard_424f00d.txt" in names  # sync upgrades old guards
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(installed["wheel"]).read(entry_points).decode()
    assert "hookwrap = hookwrap.console.app:main" in text


def test_console_script_runs_init_and_add_in_a_repo(installed: dict, tmp_path: Path) -> None:
    hookwrap, env = installed["bin"], installed["env"]
    repo = tmp_path / "my repo"  # a space: the registered commands must survive it
    repo.mkdir()

    version = _run([hookwrap, "--version"], cwd=repo, env=env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("hookwrap ")

    init = _run([hookwrap, "init"], cwd=repo, env=env)
    assert init.returncode == 0, init.stdout + init.stderr
    add = _run([hookwrap, "add", "before_tool", "guard"], cwd=repo, env=env)
    assert add.returncode == 0, add.stdout + add.stderr
    assert "create  .hookwrap/hooks/guard.py" in add.stdout

    manifest = (repo / "hookwrap.toml").read_text()
    assert '[hooks.guard]\nevent = "before_tool"\ntemplate = "guard"' in manifest
    for module in RUNTIME_MODULES:
        assert (repo / ".hookwrap" / "lib" / "hookwrap" / module).is_file(), module
    assert (repo / ".hookwrap" / "lib" / "run.py").is_file()
    assert "GUARD = Guard(__file__" in (repo / ".hookwrap" / "hooks" / "guard.py").read_text()

    claude = json.loads((repo / ".claude" / "settings.json").read_text())
    [group] = claude["hooks"]["PreToolUse"]
    assert group["matcher"] == "Bash|PowerShell|Write|Edit|Read"
    assert group["hooks"][0]["command"] == \
        'python3 "$CLAUDE_PROJECT_DIR"/.hookwrap/lib/run.py guard --fail-closed=7 --platform claude'
    assert group["hooks"][0]["timeout"] == 10

    gemini = json.loads((repo / ".gemini" / "settings.json").read_text())
    [group] = gemini["hooks"]["BeforeTool"]
    assert group["matcher"] == "^(run_shell_command|write_file|replace|read_file)$"
    assert group["hooks"][0]["command"] == \
        'python3 "${GEMINI_PROJECT_DIR}/.hookwrap/lib/run.py" guard --fail-closed=7 --platform gemini'
    assert group["hooks"][0]["timeout"] == 10000

    check = _run([hookwrap, "sync", "--check"], cwd=repo, env=env)
    assert check.returncode == 0, check.stdout + check.stderr


def test_templates_and_runtime_come_from_the_wheel(installed: dict, tmp_path: Path) -> None:
    python = installed["venv"] / "bin" / "python"
    code = ("import hookwrap, hookwrap.generator.render as r; "
            "print(hookwrap.__file__); print(r.templates_dir())")
    done = _run([python, "-c", code], cwd=tmp_path, env=installed["env"])
    assert done.returncode == 0, done.stderr
    module, templates = (Path(line) for line in done.stdout.splitlines())
    site = installed["venv"].resolve()
    assert site in module.resolve().parents
    assert templates.resolve() == module.resolve().parent / "templates"
    assert REPO not in templates.resolve().parents


def test_rendered_guard_blocks_with_plain_python(installed: dict, tmp_path: Path) -> None:
    """The repo's hook runs on a python3 that has no hookwrap: the runtime came along."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (["init"], ["add", "before_tool", "guard"]):
        assert _run([installed["bin"], *args], cwd=repo, env=installed["env"]).returncode == 0
    payload = json.dumps({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                          "tool_input": {"command": "rm -rf /"}})
    env = {k: v for k, v in installed["env"].items() if k != "PATH"}
    env["PATH"] = os.defpath
    done = subprocess.run([sys.executable, "-I", "-S", ".hookwrap/hooks/guard.py", "--platform", "gemini"],
                          input=payload, cwd=repo, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "deny"


def test_every_command_runs_from_the_installed_script(installed: dict, tmp_path: Path) -> None:
    """Each command's --help works: nothing the CLI imports is missing from the dependencies."""
    hookwrap, env = installed["bin"], installed["env"]
    for command in ("init", "add", "remove", "list", "sync", "templates", "test", "doctor"):
        done = _run([hookwrap, command, "--help"], cwd=tmp_path, env=env)
        assert done.returncode == 0, (command, done.stderr)
        assert f"hookwrap {command}" in done.stdout


def test_usage_errors_exit_2(installed: dict, tmp_path: Path) -> None:
    done = _run([installed["bin"], "add"], cwd=tmp_path, env=installed["env"])
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
