"""The hook runner hookwrap's JS shims share (generator/clis/hook_runner.js): one source, pasted
whole into the plugin OpenCode and Kilo CLI load and into pi's extension. Each shim defines what
the runner asks of it and none of the runner's functions again, so the code that decides
whether a call is blocked cannot drift between them. What each does with the runner is tested
in node (tests/runtime/test_opencode_plugin.py, test_kilo_plugin.py, test_pi_extension.py)."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from hookwrap.generator.clis import setup_of

SHIMS = ("opencode", "kilo", "pi")
DATA = {"hooks": {"PreToolUse": [{"matcher": "^bash$", "hooks": [
    {"type": "command", "command": "echo '@LABEL@ // @HOOK_RUNNER@'", "timeout": 5, "failClosed": True}]}]}}


def _runner() -> str:
    return resources.files("hookwrap").joinpath("generator", "clis", "hook_runner.js").read_text(
        encoding="utf-8")


def _functions(text: str) -> set[str]:
    return set(re.findall(r"^(?:async )?function (\w+)\(", text, re.MULTILINE))


@pytest.mark.parametrize("platform", SHIMS)
def test_each_shim_holds_the_runner_once_and_none_of_its_functions_again(platform: str) -> None:
    agent = setup_of(platform)
    runner = _runner().replace("@MARKER_ENV@", agent.runtime.marker_env)
    shim = agent.registration.render_settings(agent, DATA)
    assert shim is not None and shim.count(runner) == 1
    rest = shim.replace(runner, "")
    assert not _functions(rest) & _functions(runner)
    # What the runner asks of the shim around it.
    assert {"show", "post"} <= _functions(rest)
    assert re.search(r"^const ROOT = ", rest, re.MULTILINE) and re.search(r"^const LOG = ", rest, re.MULTILINE)
    # Every mark filled, and the registrations' own text left as it is.
    assert "echo '@LABEL@ // @HOOK_RUNNER@'" in shim
    assert not re.search(r"@[A-Z_]+@", shim.replace("echo '@LABEL@ // @HOOK_RUNNER@'", ""))


def test_the_runner_is_a_fragment_and_every_shim_imports_what_it_uses() -> None:
    """Pasted mid-file: no import or export of its own (OpenCode calls every exported function
    as a plugin); each shim imports the names the runner uses."""
    runner = _runner()
    assert not re.search(r"^(import|export) ", runner, re.MULTILINE)
    for platform in SHIMS:
        shim = setup_of(platform).registration.render_settings(setup_of(platform), DATA) or ""
        imported = set(re.findall(r"\b(\w+)\b", " ".join(re.findall(r"^import \{([^}]*)\}", shim, re.MULTILINE))))
        assert {"spawn", "appendFileSync", "mkdirSync", "dirname"} <= imported, platform
