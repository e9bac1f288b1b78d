"""scripts/drift_canary.py: a package that ships an invented hook event and output field is
reported with both named; nothing runs but the scan (no npm, no CLI)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


PINNED = "2.1.0"  # the record's pin, as far as the canary is told


@pytest.fixture
def canary(monkeypatch):
    spec = importlib.util.spec_from_file_location("hookwrap_drift_canary", REPO / "scripts" / "drift_canary.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    record = module.record_of("claude")
    pin = module.pin_of("claude")._replace(version=PINNED)
    monkeypatch.setattr(module, "record_of", lambda cli: record)
    monkeypatch.setattr(module, "pin_of", lambda cli: pin)
    return module


# What a minified Claude Code bundle holds: the event list and zod-style schemas.
OLD_BUNDLE = ('var E=["PreToolUse","PostToolUse","Stop","SessionStart"];'
              'var I=p(()=>u({hook_event_name:P("PreToolUse"),tool_name:r(),tool_input:de()}));'
              'var O=p(()=>u({hookEventName:P("PreToolUse"),permissionDecision:nk().optional(),'
              'updatedInput:Te(r(),de()).optional()}));var D=m(["allow","deny","ask"]);')
NEW_BUNDLE = (OLD_BUNDLE.replace('"SessionStart"]', '"SessionStart","InventedEvent"]')
              .replace("updatedInput:", 'inventedOutputField:r().optional(),updatedInput:'))


def install(root: Path, version: str, bundle: str) -> Path:
    """A fake install of Claude Code under ``root``, laid out like the CLI cache."""
    modules = root / "node_modules" / "@anthropic-ai"
    (modules / "claude-code").mkdir(parents=True)
    (modules / "claude-code" / "package.json").write_text(json.dumps({"version": version}))
    (modules / "claude-code-linux-x64").mkdir()
    (modules / "claude-code-linux-x64" / "cli.js").write_text(bundle)
    return root


def test_an_invented_event_and_output_field_are_named(canary, tmp_path: Path, monkeypatch,
                                                      capsys) -> None:
    old = canary.read_installed(install(tmp_path / "old", PINNED, OLD_BUNDLE), "claude")
    assert "PreToolUse.permissionDecision" in old["surface"]["output_fields"]
    assert "PreToolUse.tool_input" in old["surface"]["input_fields"]
    monkeypatch.setattr(canary, "SURFACES", tmp_path / "surfaces")
    canary.write_snapshot("claude", old)

    code = canary.main(["--installed", str(install(tmp_path / "new", "9.9.9", NEW_BUNDLE)),
                        "--cli", "claude"])

    report = capsys.readouterr().out
    assert code == 1, report
    assert "newest 9.9.9" in report
    assert "events added (1):" in report
    assert "InventedEvent  (not in hookwrap's record of Claude Code)" in report
    assert "output_fields added (1):" in report and "PreToolUse.inventedOutputField" in report
    assert "removed" not in report


def test_the_same_surface_reports_no_change(canary, tmp_path: Path, monkeypatch, capsys) -> None:
    old = canary.read_installed(install(tmp_path / "old", PINNED, OLD_BUNDLE), "claude")
    monkeypatch.setattr(canary, "SURFACES", tmp_path / "surfaces")
    canary.write_snapshot("claude", old)
    code = canary.main(["--installed", str(install(tmp_path / "new", "9.9.9", OLD_BUNDLE)),
                        "--cli", "claude"])
    assert code == 0
    assert "no change in the hook surface" in capsys.readouterr().out


def test_codex_schemas_inside_a_binary(canary, tmp_path: Path) -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "invented.command.input",
              "type": "object", "properties": {"hook_event_name": {"const": "InventedEvent"},
                                               "invented_field": {"type": "string"}}}
    output = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "pre-tool-use.command.output",
              "properties": {"hookSpecificOutput": {"$ref": "#/definitions/H"}},
              "definitions": {"H": {"properties": {"permissionDecision": {"enum": ["allow", "deny"]}}}}}
    binary = tmp_path / "codex"
    binary.write_bytes(b"\x7fELF\0\0" + json.dumps(schema).encode() + b"\0\0" + json.dumps(output).encode())
    surface = canary.read_surface(canary.code_files(tmp_path), ())
    assert "InventedEvent" in surface["events"]
    assert "InventedEvent.invented_field" in surface["input_fields"]
    assert "pre-tool-use.command.output.hookSpecificOutput.permissionDecision" in surface["output_fields"]
    assert surface["decisions"] == ["allow", "deny"]
