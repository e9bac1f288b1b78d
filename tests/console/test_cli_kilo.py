"""The generator on Kilo CLI: the plugin it renders (golden; OpenCode's template with Kilo's
record), init from Kilo's folder, the user's own plugins and Kilo's .kilo/.gitignore left alone,
doctor, `hookwrap test` (a Stop block keeps Kilo working), and Kilo's own tools as the hooks see
them: background_process is a shell call, cron_create and schedule_wakeup are "schedule"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import GOLDEN
from support.cli import hw
from support.projects import from_template

from hookwrap import HookInput, Platform
from hookwrap.clis.kilo import KILO
from hookwrap.clis.opencode import OPENCODE
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.opencode import plugin_text

PLUGIN = ".kilo/plugins/hookwrap.js"
ADDS = [["before_tool", "guard"], ["before_prompt", "context"], ["after_agent", "stop_gate"],
        ["before_tool", "audit", "--matcher", "shell"]]
USER_PLUGIN = "export const Mine = async () => ({});\n"
# What Kilo writes into each config folder that holds a plugin (7.7.9).
KILO_GITIGNORE = "node_modules\npackage.json\nbun.lock\n.gitignore\n"
# Never run: only compared as data (the guard blocks it before any shell could see it).
FORCED_PUSH = "git push --force origin main"


def _kilo_project(root: Path) -> None:
    (root / ".kilo" / "plugins").mkdir(parents=True)
    (root / ".kilo" / "plugins" / "mine.js").write_text(USER_PLUGIN)
    (root / ".kilo" / ".gitignore").write_text(KILO_GITIGNORE)
    assert hw(root, "init").code == 0  # .kilo/ exists: init picks Kilo CLI
    for args in ADDS:
        result = hw(root, "add", *args)
        assert result.code == 0, result.err


@pytest.fixture
def project(empty_dir: Path) -> Path:
    return from_template(empty_dir, _kilo_project)


def test_init_picks_kilo_from_its_folder(project: Path) -> None:
    assert 'platforms = ["kilo"]' in (project / "hookwrap.toml").read_text()


def test_the_plugin_matches_the_golden_file(project: Path, update_golden: bool) -> None:
    golden = GOLDEN / "settings" / "kilo.hookwrap.js"
    data = (project / PLUGIN).read_bytes()
    if update_golden:
        golden.write_bytes(data)
        return
    assert data == golden.read_bytes(), f"{PLUGIN} differs from {golden.name}: run pytest --update-golden"


def test_the_plugin_is_opencodes_with_kilos_words() -> None:
    data = {"hooks": {"PreToolUse": [{"matcher": "^bash$", "hooks": [
        {"type": "command", "command": "x --platform @PLATFORM@", "timeout": 5}]}]}}
    kilo, opencode = plugin_text(data, setup_of("kilo")), plugin_text(data, setup_of("opencode"))
    assert kilo.startswith("// hookwrap: generated Kilo CLI plugin.\n")
    assert "<project>/.kilo/plugins/" in kilo and '"kilo-plugin.log"' in kilo
    assert 'HOOKWRAP_KILO: "1"' in kilo and "HOOKWRAP_OPENCODE" not in kilo and "OpenCode" not in kilo
    assert "const KEEP_WORKING = true;" in kilo and "const KEEP_WORKING = false;" in opencode
    # A mark inside a registration is the user's text, never filled in.
    assert '"x --platform @PLATFORM@"' in kilo
    # Same code otherwise: the lines that differ are the ones that carry those words.
    differ = [(a, b) for a, b in zip(kilo.splitlines(), opencode.splitlines()) if a != b]
    assert len(kilo.splitlines()) == len(opencode.splitlines()) and len(differ) <= 10, differ


def test_remove_keeps_the_users_plugin_and_kilos_gitignore(project: Path) -> None:
    for args in ADDS:
        assert hw(project, "remove", args[1]).code == 0
    assert not (project / PLUGIN).exists()
    assert (project / ".kilo" / "plugins" / "mine.js").read_text() == USER_PLUGIN
    assert (project / ".kilo" / ".gitignore").read_text() == KILO_GITIGNORE


def test_doctor_says_there_is_no_trust_prompt_and_what_turns_plugins_off(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = hw(project, "doctor")
    assert "kilo-trust: Kilo CLI loads .kilo/plugins/hookwrap.js" in result.out, result.out
    assert "npm install @kilocode/plugin" in result.out and ".kilo/.gitignore" in result.out
    monkeypatch.setenv("KILO_DISABLE_PROJECT_CONFIG", "1")
    result = hw(project, "doctor")
    assert "fail hooks-enabled: KILO_DISABLE_PROJECT_CONFIG is set: Kilo CLI loads no project " \
           "plugin" in result.out, result.out


def test_add_does_not_warn_that_kilo_cannot_keep_working(empty_dir: Path) -> None:
    assert hw(empty_dir, "init", "--platform", "kilo", "--platform", "opencode").code == 0
    result = hw(empty_dir, "add", "after_agent", "stop_gate")
    said = result.out + result.err
    assert "OpenCode: cannot keep the agent working" in said
    assert "Kilo CLI: cannot keep the agent working" not in said


def test_hookwrap_test_keeps_kilo_working_on_a_stop_block(project: Path) -> None:
    text = (project / "hookwrap.toml").read_text()
    start = text.index("[hooks.stop_gate]")
    end = text.index("check = ", start)
    line_end = text.index("\n", end)
    (project / "hookwrap.toml").write_text(text[:end] + 'check = "false"' + text[line_end:])
    result = hw(project, "test", "stop_gate", "--platform", "kilo")
    assert "kilo: agent kept working: `false` failed" in result.out, result.out


def test_background_process_is_a_shell_call_the_guard_reads(project: Path) -> None:
    payload = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "payloads" / "kilo"
                          / "PreToolUse.bash.plugin.json").read_text())
    payload.update(cwd=str(project), worktree=str(project), tool_name="background_process",
                   tool_input={"action": "start", "command": FORCED_PUSH, "description": "push"})
    event = HookInput.from_dict(payload, Platform.KILO)
    assert (event.tool_name, event.raw_tool_name, event.tool_input["command"]) == \
        ("shell", "background_process", FORCED_PUSH)
    path = project / "payload.json"
    path.write_text(json.dumps(payload))
    result = hw(project, "test", "guard", "--platform", "kilo", "--payload", str(path))
    assert "kilo: blocked: Blocked by the guard hook" in result.out and "rule git.push-force" in result.out
    # The guard's and audit's registered matchers select it with bash.
    registrations = setup_of("kilo").registration.parse_settings_text(setup_of("kilo"), (project / PLUGIN).read_text(), PLUGIN)
    matchers = [g["matcher"] for g in registrations["hooks"]["PreToolUse"]]
    assert "^(bash|background_process)$" in matchers, matchers
    assert any("background_process" in m and "write" in m for m in matchers), matchers


def test_the_scheduling_tools_are_one_normalized_tool() -> None:
    runtime = setup_of("kilo").runtime
    for name in ("cron_create", "schedule_wakeup"):
        assert runtime.normalize_tool(name) == "schedule"
    assert runtime.platform_tool_names("schedule") == ["cron_create", "schedule_wakeup"]
    assert runtime.platform_tool_names("shell") == ["bash", "background_process"]
    # Kilo's record is OpenCode's with its differences: the shared facts are the same objects.
    assert KILO.events == OPENCODE.events and KILO.protocol is OPENCODE.protocol
    assert setup_of("kilo").facts.settings_file == PLUGIN and KILO.marker_env == "HOOKWRAP_KILO"
