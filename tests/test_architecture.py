"""The shape of src/hookwrap: no import cycles, and what one CLI needs lives in its own module."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from hookwrap.clis._base import AgentCLI
from hookwrap.clis._record import CLIRecord
from hookwrap.generator.clis import SETUPS, setup_of
from hookwrap.generator.clis._base import AgentSetup, Handlers, Matchers
from hookwrap.generator.clis._facts import CommandFacts
from hookwrap.generator.vendor import RUNTIME_MODULES
from hookwrap.platforms import Platform, runtime_of

SRC = Path(__file__).resolve().parents[1] / "src" / "hookwrap"
MODULES = {p.relative_to(SRC).with_suffix("").as_posix().replace("/", ".").replace(".__init__", ""): p
           for p in SRC.rglob("*.py")}


def _module_name(key: str) -> str:
    return "hookwrap" if key == "__init__" else f"hookwrap.{key}"


_MODULE_NAMES = frozenset(_module_name(k) for k in MODULES)


def _imports(path: Path, name: str) -> set[str]:
    """Every hookwrap module ``path`` imports: at module level, inside a function, or for type
    checkers only (``if TYPE_CHECKING:``), since a cycle of annotations is a cycle too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


def _module_name_exists(name: str) -> bool:
    return name in _MODULE_NAMES


def _loads_by_name(path: Path) -> bool:
    """Whether a module imports modules by a computed name (``__import__``, importlib)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (
        (isinstance(n.func, ast.Name) and n.func.id == "__import__")
        or (isinstance(n.func, ast.Attribute) and n.func.attr == "import_module"))]
    # A constant name outside hookwrap ("inspect") is an ordinary lazy import of the stdlib.
    return any(not (isinstance(c.args[0], ast.Constant) and not str(c.args[0].value).startswith("hookwrap"))
               and "typer" not in ast.unparse(c) for c in calls)


# The two registries: each loads one module per CLI by name. Their edges are counted like
# imports, since that is what happens at run time.
REGISTRIES = {
    "hookwrap.platforms": {f"hookwrap.clis.{p.value}" for p in Platform},
    "hookwrap.generator.clis": set(SETUPS.values()),
}


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Each module's hookwrap imports (made when a test first asks: parsing every module takes
    ~0.35 s, which every xdist worker paid while collecting, whether it ran these tests or not)."""
    graph = {_module_name(k): _imports(p, _module_name(k)) - {_module_name(k)} for k, p in MODULES.items()}
    for registry, loaded in REGISTRIES.items():
        graph[registry] |= loaded
    return graph


def _strong_components() -> list[list[str]]:
    """The import graph's cycles: its strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(_graph().get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(_graph()):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_counting_every_kind_of_import() -> None:
    assert _strong_components() == []


def test_the_registries_are_the_only_modules_that_import_by_name() -> None:
    loaders = {_module_name(k) for k, p in MODULES.items() if _loads_by_name(p)}
    assert loaders == set(REGISTRIES)


def test_the_graph_sees_every_kind_of_import() -> None:
    # project imports render inside functions; clis._base imports its views for type checkers
    # only; the runtime registry loads each CLI's module by name.
    assert "hookwrap.generator.render" in _graph()["hookwrap.generator.project"]
    assert "hookwrap.clis._views" in _graph()["hookwrap.clis._base"]
    assert "hookwrap.clis.claude" in _graph()["hookwrap.platforms"]


def test_a_cycle_would_be_found() -> None:
    _graph()["hookwrap.names"].add("hookwrap.platforms")
    try:
        assert _strong_components() != []
    finally:
        _graph()["hookwrap.names"].discard("hookwrap.platforms")


COMMAND_PACKAGES = ("generator", "checks", "console")


def test_the_test_folders_mirror_src() -> None:
    """tests/runtime for the copied runtime, tests/<package> for each of the command's packages;
    the other folders are about the whole (docs, safety, e2e, support, fixtures, golden), and no
    test module sits at the top but this one and the support package's own."""
    tests = Path(__file__).resolve().parent
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    assert {"runtime", *COMMAND_PACKAGES} <= folders
    assert folders - {"runtime", *COMMAND_PACKAGES} <= {
        "docs", "safety", "e2e", "support", "fixtures", "golden"}
    assert sorted(p.name for p in tests.glob("test_*.py")) == [
        "test_architecture.py", "test_support_projects.py"]


def test_the_folders_show_what_travels() -> None:
    """Every module outside the command's three subpackages is copied into a project (except
    ``__main__`` and the launcher's two files, copied beside the package), and no copied module
    imports anything of the command, not even for type checkers."""
    runtime = {"hookwrap" if m == "__init__.py" else _module_name(m[:-3].replace("/", ".").replace(".__init__", ""))
               for m in RUNTIME_MODULES}
    outside = {_module_name(k) for k in MODULES if k.split(".")[0] not in COMMAND_PACKAGES}
    assert outside - runtime == {"hookwrap.__main__", "hookwrap.launcher", "hookwrap.launcher_stub"}
    assert runtime <= outside
    for module in runtime:
        command = {m for m in _graph()[module] if m.split(".")[1] in COMMAND_PACKAGES}
        assert command == set(), module


def test_the_checks_and_the_generator_never_import_the_console() -> None:
    for module, imports in _graph().items():
        if not module.startswith("hookwrap.console") and module != "hookwrap.__main__":
            assert not {m for m in imports if m.startswith("hookwrap.console")}, module


def test_the_checks_sit_above_the_generator() -> None:
    """``checks/`` (`hookwrap test`, doctor) reads the generator; the generator never imports the
    checks, not even for type checkers."""
    for name, imports in _graph().items():
        if name.startswith("hookwrap.generator"):
            assert {m for m in imports if m.startswith("hookwrap.checks")} == set(), name


def test_no_module_imports_a_cli_module_but_the_registry() -> None:
    """Generic code asks runtime_of(); it never imports clis.claude or clis.gemini itself."""
    for name, imports in _graph().items():
        if name.startswith(("hookwrap.clis.", "hookwrap.generator.clis.")) or name in REGISTRIES:
            continue
        if name == "hookwrap.checks.testing":  # the seed contract reads Gemini CLI's output fields
            imports = imports - {"hookwrap.generator.clis.gemini"}
        direct = {m for m in imports if m.startswith(("hookwrap.clis.", "hookwrap.generator.clis."))
                  and m.rpartition(".")[2] in {p.value for p in Platform}}
        assert direct == set(), name


PLATFORM_BRANCH = re.compile(r"Platform\.(?:CLAUDE|GEMINI)\b|[\"'](?:claude|gemini)[\"']\s*(?:==|!=|in\b)"
                             r"|(?:==|!=|is|is not)\s*[\"'](?:claude|gemini)[\"']")


@pytest.mark.parametrize("name", sorted(k for k in MODULES if not k.startswith(("clis.", "generator.clis."))))
def test_generic_code_never_branches_on_a_platform(name: str) -> None:
    # The enum itself; the default platforms of a hook; the table of the CLIs' setup modules.
    allowed = {"names", "generator.hookentry", "generator.clis"}
    if name in allowed:
        return
    text = MODULES[name].read_text(encoding="utf-8")
    assert PLATFORM_BRANCH.findall(text) == [], name


def test_the_table_of_setups_names_every_cli_once() -> None:
    """``SETUPS`` is the one static list of the command's CLI modules, in Platform order, each
    at generator/clis/<value>.py."""
    assert list(SETUPS) == list(Platform)
    for platform, module in SETUPS.items():
        assert module == f"hookwrap.generator.clis.{platform.value}"
        assert f"generator.clis.{platform.value}" in MODULES


@pytest.mark.parametrize("platform", list(Platform))
def test_every_platform_is_one_record_and_a_composed_setup(platform: Platform) -> None:
    """clis/<p>.py holds the CLI's record (copied into projects), named after the platform; its
    protocol family builds the runtime description; generator/clis/<p>.py holds the command's
    facts (never copied) and composes the command's half (``SETUP``) from the record, the facts
    and a behaviour per slot."""
    import sys

    runtime, agent = runtime_of(platform), setup_of(platform)
    record = getattr(sys.modules[f"hookwrap.clis.{platform.value}"], platform.name)
    assert isinstance(record, CLIRecord) and record.platform is platform
    assert record.label and record.events and record.tools
    assert agent.version and agent.npm_package  # from generator/pins.txt
    assert type(runtime) is record.protocol and runtime.record is record
    assert sys.modules[SETUPS[platform]].SETUP is agent
    assert type(agent.runtime) is record.protocol and agent.runtime.record is record
    assert agent.platform is platform and agent.label == record.label
    # The command's facts, beside the setup: its file, events, tool events, match targets.
    facts = agent.facts
    assert isinstance(facts, CommandFacts) and not set(vars(facts)) & set(CLIRecord.__annotations__)
    assert facts.settings_file and facts.known_settings_events and facts.tool_events
    assert {e for e, key in facts.match_targets.items() if key == "tool_name"}
    assert set(facts.match_targets) <= set(facts.known_settings_events)
    assert f"clis/{platform.value}.py" in RUNTIME_MODULES
    # What each CLI must say for itself: how it validates, matches and reads.
    assert type(agent.matchers).matcher_matches is not Matchers.matcher_matches
    assert type(agent.handlers).object_problems is not Handlers.object_problems
    assert callable(agent.answers)


@pytest.mark.parametrize("platform", list(Platform))
def test_a_setup_holds_its_runtime_and_inherits_none(platform: Platform) -> None:
    """Composition, not inheritance: the command's half of a CLI is one concrete class for
    every CLI, with no runtime class among its bases, and no behaviour deeper than three
    classes (itself, one family, object)."""
    agent = setup_of(platform)
    assert type(agent) is AgentSetup
    assert not any(issubclass(klass, AgentCLI) for klass in type(agent).__mro__)
    behaviours = (agent.registration, agent.matchers, agent.handlers, agent.trust, agent.host,
                  agent.doctor)
    for behaviour in behaviours:
        mro = [k for k in type(behaviour).__mro__ if k is not object]
        assert not any(issubclass(klass, (AgentCLI, AgentSetup)) for klass in mro), behaviour
        assert len(type(behaviour).__mro__) <= 4, type(behaviour).__mro__


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


def test_no_module_imports_another_module_s_private_name() -> None:
    """A name another module needs is public (``project.python_of``, ``runner.seal_stdout``);
    ``_name`` stays inside its module."""
    found = []
    for key, path in MODULES.items():
        name = _module_name(key)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.startswith("hookwrap"):
                found += [f"{name}: {base}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert found == []
