"""The guard's file protection over every file tool of every CLI hookwrap knows.

For each platform of the registry, every tool name its record maps to write_file or edit_file
(aliases and ``extra_tool_names`` included), its patch tool (``apply_patch`` on Codex CLI and
OpenCode: a file added, updated, deleted or moved onto another) and, where the record says the
shell tool applies patches too, ``apply_patch <<'EOF'`` through the shell: each call goes to the
rendered guard as that CLI's payload, through its registered matcher. Writes to `.env` files,
to the files that define which hooks run (every CLI's settings file, from the records) and into
`.git/` are blocked with their rule; ordinary files and `.env.example` are not. A CLI added to
the registry is covered without a change here. Nothing is executed: the guard only classifies.
"""

from __future__ import annotations

import os
import sys

import pytest

from hookwrap.generator.clis import setup_of
from hookwrap.platforms import Platform

PLATFORMS = list(Platform)
FILE_TOOLS = ("write_file", "edit_file")
# path (from the project root) -> the rule that must block a change to it ("" = allowed)
TARGETS = {
    ".env": "secrets.env-write",
    "config/.env.production": "secrets.env-write",
    ".hookwrap/hooks/guard.py": "hooks.files",
    "hookwrap.toml": "hooks.files",
    ".git/config": "git.internals",
    "src/app.py": "",
    ".env.example": "",
    "docs/new-page.md": "",
}
SETTINGS_FILES = sorted({setup_of(p).facts.settings_file for p in PLATFORMS if setup_of(p).facts.settings_file})


def _targets() -> dict[str, str]:
    return {**TARGETS, **dict.fromkeys(SETTINGS_FILES, "hooks.files")}


def _patches(path: str) -> list[tuple[str, str]]:
    """(what the patch does, the patch) changing ``path``: add, update, delete, move onto it."""
    return [
        ("add", f"*** Begin Patch\n*** Add File: {path}\n+X=1\n*** End Patch\n"),
        ("update", f"*** Begin Patch\n*** Update File: {path}\n@@\n-X=1\n+X=2\n*** End Patch\n"),
        ("delete", f"*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n"),
        ("move onto", f"*** Begin Patch\n*** Update File: src/other.py\n*** Move to: {path}\n@@\n-a\n+b\n"
                      "*** End Patch\n"),
    ]


def _calls(platform: Platform, root: str) -> list[tuple[str, str, str, dict]]:
    """(label, path, the platform's tool name, its tool_input) for every file-tool call."""
    agent = setup_of(platform).runtime
    calls = []
    for path in _targets():
        full = os.path.join(root, path)
        for tool in FILE_TOOLS:
            common = {"file_path": full, "content": "X=1\n"} if tool == "write_file" else \
                {"file_path": full, "old_string": "X=1", "new_string": "X=2"}
            for name in agent.platform_tool_names(tool):
                if name == agent.patch_tool:
                    continue
                calls.append((f"{name} {path}", path, name, agent.own_tool_input(tool, common)))
        if agent.patch_tool:
            for what, patch in _patches(path):
                if what == "delete" and path in ("src/app.py", "docs/new-page.md", ".env.example"):
                    continue  # deleting a file is not a write the guard stops
                for key in agent.patch_keys:
                    calls.append((f"{agent.patch_tool} ({key}) {what} {path}", path, agent.patch_tool,
                                  {key: patch}))
        if agent.patch_in_shell:
            shell = agent.tool_names()["shell"]
            patch = _patches(path)[1][1]
            calls.append((f"{shell} apply_patch update {path}", path, shell,
                          agent.own_tool_input("shell", {"command": f"apply_patch <<'EOF'\n{patch}EOF\n"})))
    return calls


def test_every_platform_has_a_file_tool_the_guard_sees() -> None:
    for platform in PLATFORMS:
        agent = setup_of(platform).runtime
        names = [n for tool in FILE_TOOLS for n in agent.platform_tool_names(tool)]
        assert names, platform.value
        for name in names:
            assert agent.normalize_tool(name) in FILE_TOOLS or name == agent.patch_tool, (platform.value, name)


def test_the_patch_tools_are_where_the_records_say() -> None:
    """Codex CLI and OpenCode carry apply_patch; the test covers whatever the records name."""
    assert {p.value for p in PLATFORMS if setup_of(p).runtime.patch_tool} >= {"codex", "opencode"}


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_every_file_tool_of_every_cli_keeps_env_and_hook_files(bench, sandbox, registered, platform) -> None:
    from hookwrap.generator.samples import sample_payload

    reg = registered[platform.value]
    calls = _calls(platform, str(sandbox.root))
    payloads = []
    for _label, _path, name, tool_input in calls:
        payload = sample_payload(platform, reg.event, project_dir=sandbox.root, home=sandbox.home, tool=name,
                                 tool_input=tool_input)
        payload["cwd"] = str(sandbox.root)
        payloads.append(payload)
    outcomes = bench.run_payloads(sandbox, reg, payloads, sys.executable)
    wrong = []
    targets = _targets()
    for (label, path, _name, _input), outcome in zip(calls, outcomes):
        rule = targets[path]
        if not outcome.called:
            wrong.append(f"{label}: the registered matcher does not select the tool")
        elif rule and not (outcome.blocked and f"rule {rule}" in outcome.reason):
            wrong.append(f"{label}: {outcome.verdict}, expected rule {rule}: {outcome.reason[:160]!r}")
        elif not rule and outcome.blocked:
            wrong.append(f"{label}: blocked: {outcome.reason[:160]!r}")
    assert not wrong, f"{platform.value}:\n" + "\n".join(wrong)
    assert len(calls) >= len(targets) * 2  # a write and an edit tool at least
