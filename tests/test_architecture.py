"""The shape of src/hookwrap: no import cycles, and what one CLI needs lives in its own module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from hookwrap import platforms
from hookwrap.agents import cli
from hookwrap.clis._base import AgentCLI
from hookwrap.clis._base_setup import AgentSetup
from hookwrap.platforms import Platform
from hookwrap.project import RUNTIME_MODULES

SRC = Path(__file__).resolve().parents[1] / "src" / "hookwrap"
MODULES = {p.relative_to(SRC).with_suffix("").as_posix().replace("/", ".").replace(".__init__", ""): p
           for p in SRC.rglob("*.py")}


def _module_name(key: str) -> str:
    return "hookwrap" if key == "__init__" else f"hookwrap.{key}"


def _imports(path: Path, name: str) -> set[str]:
    """Every hookwrap module ``path`` imports, at module level or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("hookwrap"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            if not base.startswith("hookwrap"):
                continue
            found.add(base)
            # `from . import schema` imports a module, not a name.
            found.update(f"{base}.{a.name}" for a in node.names
                         if _module_name_exists(f"{base}.{a.name}"))
    return {m for m in found if _module_name_exists(m)}


def _runtime_nodes(tree: ast.AST):
    """Every node, except those under ``if TYPE_CHECKING:`` (imports for type checkers only)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) \
                    and child.test.id == "TYPE_CHECKING":
                stack.extend(child.orelse)
                continue
            stack.append(child)


def _module_name_exists(name: str) -> bool:
    return name in {_module_name(k) for k in MODULES}


GRAPH = {_module_name(k): _imports(p, _module_name(k)) - {_module_name(k)} for k, p in MODULES.items()}


def _cycle_from(start: str) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in GRAPH.get(node, ()):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_import_cycle(module: str) -> None:
    cycle = _cycle_from(module)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_graph_sees_imports_inside_functions() -> None:
    # render imports jinja2 lazily and hookentry at module level; project imports render inside
    # functions: both kinds of edge are in the graph.
    assert "hookwrap.hookentry" in GRAPH["hookwrap.render"]
    assert "hookwrap.render" in GRAPH["hookwrap.project"]


def test_no_module_imports_a_cli_module_but_the_registry() -> None:
    """Generic code asks platforms.cli(); it never imports clis.claude or clis.gemini itself."""
    for name, imports in GRAPH.items():
        if name.startswith("hookwrap.clis.") or name == "hookwrap.testing":
            continue
        direct = {m for m in imports if m.startswith("hookwrap.clis.") and m != "hookwrap.clis._base"}
        assert direct == set(), name


PLATFORM_BRANCH = re.compile(r"Platform\.(?:CLAUDE|GEMINI)\b|[\"'](?:claude|gemini)[\"']\s*(?:==|!=|in\b)"
                             r"|(?:==|!=|is|is not)\s*[\"'](?:claude|gemini)[\"']")


@pytest.mark.parametrize("name", sorted(k for k in MODULES if not k.startswith("clis.")))
def test_generic_code_never_branches_on_a_platform(name: str) -> None:
    allowed = {"platforms", "hookentry"}  # the enum itself; the default platforms of a hook
    if name in allowed:
        return
    text = MODULES[name].read_text(encoding="utf-8")
    assert PLATFORM_BRANCH.findall(text) == [], name


@pytest.mark.parametrize("platform", list(Platform))
def test_every_platform_has_a_complete_module(platform: Platform) -> None:
    """Two halves per CLI: clis/<p>.py (what a hook process needs, copied into projects) and
    clis/<p>_setup.py (what the hookwrap command needs), whose class extends the first."""
    agent, runtime = cli(platform), platforms.cli(platform)
    assert isinstance(agent, type(runtime)) and isinstance(agent, AgentSetup)
    assert not isinstance(runtime, AgentSetup)
    assert agent.platform is runtime.platform is platform and agent.label and agent.version
    assert agent.settings_file and agent.events and agent.tools
    assert f"clis/{platform.value}.py" in RUNTIME_MODULES
    assert f"clis/{platform.value}_setup.py" not in RUNTIME_MODULES
    assert type(runtime).__module__ == f"hookwrap.clis.{platform.value}"
    assert type(agent).__module__ == f"hookwrap.clis.{platform.value}_setup"
    for method in ("command", "handler", "validate_group_keys", "validate_handler", "match_target",
                   "is_tool_event", "matcher_matches", "read_command", "interpret"):
        assert getattr(type(agent), method) is not getattr(AgentSetup, method), method


@pytest.mark.parametrize("platform", list(Platform))
def test_the_two_halves_of_a_cli_never_define_the_same_name(platform: Platform) -> None:
    """A setup class that redefined a runtime name would make `hookwrap test` emulate a hook
    process that differs from the real one."""
    mro = type(cli(platform)).__mro__
    runtime = {name for klass in mro if issubclass(AgentCLI, klass) or not issubclass(klass, AgentSetup)
               for name in vars(klass) if not name.startswith("__")}
    for klass in mro:
        if klass is not object and issubclass(klass, AgentSetup):
            assert set(vars(klass)) & runtime - {"__module__", "__doc__"} == set(), klass.__name__


def test_the_runtime_imports_only_runtime_modules_at_module_level() -> None:
    runtime = {_module_name(m[:-3].replace("/", ".").replace(".__init__", "")) for m in RUNTIME_MODULES}
    for module in runtime:
        path = MODULES[module.removeprefix("hookwrap.") if module != "hookwrap" else "__init__"]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        for node in top:
            if isinstance(node, ast.ImportFrom) and node.level:
                target = node.module or ""
                resolved = f"hookwrap.{target}" if not module.startswith("hookwrap.clis") else \
                    ("hookwrap." + target if node.level == 2 else f"hookwrap.clis.{target}")
                assert resolved.rstrip(".") in runtime | {"hookwrap.clis"}, (module, resolved)
