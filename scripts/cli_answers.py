#!/usr/bin/env python3
"""Print what every CLI answers over many generated cases, to compare two trees of hookwrap.

For each CLI: its registrations (commands, handlers, matchers, whole registration sets), the
validation of many settings documents, the host rules `hookwrap test` emulates (match targets,
matchers, timeouts, commands read back, environment, stdin), what `hookwrap test` reads from
many finished runs, the runtime's answers (denormalized outputs, normalized payloads, external
answers read), and doctor's and `hookwrap trust`'s view of a few projects and homes (made in a
temporary folder; no hook is run). A refactor that must not change behaviour prints the same:

    PYTHONPATH=/path/to/before/src python scripts/cli_answers.py > before.txt
    PYTHONPATH=src python scripts/cli_answers.py > after.txt
    cmp before.txt after.txt

Both trees must know the same CLIs. Standard library and hookwrap only.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from hookwrap import HookOutput, denormalize_output, normalize_input
from hookwrap.checks import doctor, host
from hookwrap.generator import registrations

try:
    from hookwrap.generator import schema
except ImportError:  # a tree from before schema moved out of checks/
    from hookwrap.checks import schema  # type: ignore[no-redef]
from hookwrap.generator.clis import setup_of
from hookwrap.generator.clis.kit import HookCommand, RunResult
from hookwrap.names import NormalizedEvent, Platform
from hookwrap.platforms import runtime_of

OUT = []
PLATFORMS = list(Platform)


class _Setup:
    """A CLI's setup, its record's facts and its runtime description read as one, and its
    behaviours' methods as its own (so the script also reads a tree from before the command's
    half held its facts and runtime apart, and one where the setup forwarded to its behaviours)."""

    BEHAVIOURS = ("registration", "matchers", "handlers", "host", "doctor", "trust")

    def __init__(self, setup):
        self._setup = setup
        self._layers = (setup, getattr(setup, "facts", None), getattr(setup, "runtime", None))

    def __getattr__(self, name):
        for layer in self._layers:
            if layer is not None and hasattr(layer, name):
                return getattr(layer, name)
        for behaviour in self.BEHAVIOURS:
            found = getattr(getattr(self._setup, behaviour, None), name, None)
            if found is not None:
                return functools.partial(found, self._setup)
        raise AttributeError(name)


def out(*parts):
    OUT.append(" | ".join(repr(p) if not isinstance(p, str) else p for p in parts))


def safe(fn, *a, **k):
    try:
        return fn(*a, **k)
    except Exception as e:
        return f"EXC {type(e).__name__}: {e}"


# --- registrations ----------------------------------------------------------------------
MATCHERS = [None, "shell", "write_file|edit_file", "shell|read_file|grep", "startup", "manual",
            "auto", "clear|resume", "mcp__srv__tool", "task", "glob"]
for p in PLATFORMS:
    s = _Setup(setup_of(p))
    out("attrs", p.value, s.label, s.settings_file, s.config_folders, s.settings_comments,
        s.settings_generated, s.settings_owned, sorted(s.tool_events), s.known_settings_events,
        s.invalid_entry_drops_event, s.handler_keys, s.default_timeout_s, s.stdin_newline,
        s.payload_has_timestamp, s.empty_tool_response, s.system_message_shown,
        sorted(s.doctor_reported_paths), s.event_names(), s.tool_names())
    for name, python in itertools.product(["guard", "a-b_1"], ["python3", "/usr/bin/python3.9",
                                                                "'/opt/my py/bin/python3'"]):
        for launcher in (True, False):
            c = s.command(name, python, launcher=launcher)
            out("command", p.value, name, python, launcher, c, s.owned_name(c))
    for cmd in ["python3 .hookwrap/hooks/x.py", "echo .hookwrap/lib/run.py guard", "",
                'python3 "$CLAUDE_PROJECT_DIR/.hookwrap/lib/run.py" guard --platform claude',
                'python3 "$QWEN_PROJECT_DIR/.hookwrap/lib/run.py" guard --platform qwen',
                'python3 "$COPILOT_PROJECT_DIR/.hookwrap/lib/run.py" guard --platform copilot']:
        out("owned", p.value, cmd, s.owned_name(cmd))
    for ev in NormalizedEvent:
        for matcher in MATCHERS:
            out("matcher_for", p.value, ev.value, matcher,
                safe(registrations.matcher_for, matcher, ev, p))
        for t, fc in itertools.product([5, 60, 999, 1000, 1200], [False, True]):
            out("handler", p.value, ev.value, t, fc,
                safe(registrations.handler_for, "guard", p, timeout=t, fail_closed=fc, event=ev,
                     description="hookwrap guard: x"))
            out("http", p.value, ev.value, t, fc,
                safe(s.http_handler, "http://127.0.0.1:1/hookwrap/x/guard", timeout_s=t,
                     fail_closed=fc, event=ev))
        for resident, commands, plats in itertools.product(
                [False, True], [(), ("git push*",), ("a*", "b*")], [[p.value], [x.value for x in PLATFORMS]]):
            for matcher in [None, "shell", "shell|write_file"]:
                spec = SimpleNamespace(event=ev.value, platforms=plats, name="g", template="guard",
                                       timeout=None, resident=resident, commands=commands,
                                       matcher=matcher)
                res = safe(registrations.registrations_for, spec, fail_closed=True, summary="s")
                if isinstance(res, tuple):
                    regs, warns = res
                    res = ([(r.name, r.platform.value, r.event, r.matcher, r.handler) for r in regs], warns)
                out("regs", p.value, ev.value, resident, commands, len(plats), matcher, res)
    out("command_filter", p.value, s.command_filter(["git push*"], ["Bash"]),
        s.command_filter(["a", "b"], ["Bash"]))
    for names in (["Bash"], ["Bash", "Write"], ["mcp__a__b"], ["a.b"], ["run_shell_command"]):
        out("tool_matcher", p.value, names, s.tool_matcher(names))
    for t in [None, 0, 1, 30, 600, 999, 1000, 5000, 60000]:
        out("timeout", p.value, t, safe(s.timeout_seconds, t), safe(s.timeout_value, t or 0))

# --- validation -------------------------------------------------------------------------
HANDLERS = [
    {"type": "command", "command": "x"},
    {"type": "command", "command": "x", "timeout": 5},
    {"type": "command", "command": "x", "timeout": 10000},
    {"type": "command", "command": "x", "timeout": 700},
    {"type": "command", "command": "x", "timeout": "30"},
    {"type": "command", "command": "x", "timeout": -1},
    {"type": "command", "command": ""},
    {"type": "command"},
    {"type": "command", "bash": "x"},
    {"type": "command", "command": "x", "if": "Bash(git *)"},
    {"type": "command", "command": "x", "onFailure": "block"},
    {"type": "command", "command": "x", "name": "n", "description": "d"},
    {"type": "command", "command": "x", "env": {"A": "b"}},
    {"type": "command", "command": "x", "env": {"A": 1}},
    {"type": "command", "command": "x", "rewakeMessage": "m"},
    {"type": "command", "command": "x", "bogus": 1},
    {"type": "http", "url": "http://x"},
    {"type": "http"},
    {"type": "prompt", "prompt": "p"},
    {"type": "agent", "prompt": "p"},
    {"type": "mcp_tool", "server": "s", "tool": "t"},
    {"type": "weird"},
    {"command": "x"},
    "string",
    None,
    {"type": "command", "command": "x", "timeoutSec": 3},
    {"type": "command", "command": "x", "shell": "zsh"},
]
GROUPS = [
    lambda h: {"hooks": [h]},
    lambda h: {"matcher": "Bash", "hooks": [h]},
    lambda h: {"matcher": None, "hooks": [h]},
    lambda h: {"matcher": "", "hooks": [h]},
    lambda h: {"matcher": 3, "hooks": [h]},
    lambda h: {"matcher": "x", "sequential": True, "hooks": [h]},
    lambda h: {"matcher": "x", "sequential": "yes", "hooks": [h]},
    lambda h: {"hooks": h},
    lambda h: {"hooks": "x"},
    lambda h: {"matcher": "x", "hooks": [h], "extra": 1},
    lambda h: "notagroup",
]
for p in PLATFORMS:
    s = _Setup(setup_of(p))
    events = [*list(s.known_settings_events)[:40], "Bogus", "BeforeTool", "before_tool"]
    for ev in events:
        for gi, g in enumerate(GROUPS):
            for hi, h in enumerate(HANDLERS):
                data = {"hooks": {ev: [g(h)]}}
                out("validate", p.value, ev, gi, hi,
                    [(x.path, x.message, x.severity) for x in safe(schema.validate_settings, data, p)])
        out("validate_nonlist", p.value, ev,
            [(x.path, x.message, x.severity) for x in schema.validate_settings({"hooks": {ev: {}}}, p)])
    for data in [{}, {"permissions": 3}, {"permissions": {"allow": [1]}}, {"disableAllHooks": True},
                 {"hooksDisabled": True}, {"hooks": []}, [], {"hooks": {"PreToolUse": []}},
                 {"hooksConfig": {"enabled": False}}]:
        out("validate_file", p.value, data,
            [(x.path, x.message, x.severity) for x in safe(schema.validate_settings, data, p)])
    for ev in ["PreToolUse", "Stop", "SessionStart"]:
        d = {"hooks": {ev: [{"hooks": [{"type": "weird"}]}, {"hooks": [{"type": "command", "command": "x"}]}]}}
        out("dropping", p.value, ev, [(x.path, x.message) for x in safe(schema.dropping_errors, d, p, ev) or []])

# --- host rules -------------------------------------------------------------------------
TARGETS = ["Bash", "Write", "Edit", "Read", "Agent", "Task", "run_shell_command", "write_file",
           "edit", "replace", "Execute", "Create", "bash", "shell", "mcp__s__t", "startup",
           "resume", "auto", "manual", "idle_prompt", "a/b/c.py", ".envrc", "TaskStop", "KillShell",
           "", "apply_patch", "Grep", "grep_search", "glob", "Glob", "read_file", "Exec"]
MATCHERS2 = [None, "", "*", ".*", "Bash", "bash", "Bash|Write", "Bash, Write", "^Bash$", "^(Bash|Write)$",
             "Ba", "ba", "Exec", "Task", "KillShell", "mcp__.*", "Write|Edit|MultiEdit", "[", "startup",
             "startup|resume", "auto", "run_shell_command", "Shell", "ShellTool", "(Bash)",
             "write_file|edit", "  Bash  ", "Bash|", "Read.*", "envrc", ".envrc", "c.py", "ReadFile",
             "TaskStop", "Grep", "SearchFiles", "Agent", "agent"]
for p in PLATFORMS:
    s = _Setup(setup_of(p))
    events = sorted(set(list(s.known_settings_events) + list(s.match_targets) + ["Bogus"]))
    for ev in events:
        out("is_tool_event", p.value, ev, safe(s.is_tool_event, ev), ev in s.env_file_events)
        for tgt in TARGETS:
            payload = {"tool_name": tgt, "source": tgt, "trigger": tgt, "reason": tgt,
                       "agent_type": tgt, "notification_type": tgt, "file_path": tgt,
                       "error": tgt, "command_name": tgt, "toolName": tgt, "tool": tgt}
            target = safe(s.match_target, ev, payload)
            for m in MATCHERS2:
                out("match", p.value, ev, tgt, m, target, safe(host.matcher_matches, p, ev, m, target))
            out("match_none", p.value, ev, safe(host.matcher_matches, p, ev, "Bash", None))
        for t in [None, 0, 1, 5.5, 30, 60, 120, 1000]:
            cmd = HookCommand(p.value, ev, "x", t)
            out("eff_timeout", p.value, ev, t, safe(host.effective_timeout, cmd))
    for group, handler in [({"matcher": "Bash"}, {"type": "command", "command": "c", "timeout": 5}),
                           ({}, {"type": "command", "command": "c", "timeout": 5000, "name": "n"}),
                           ({"sequential": True, "matcher": 3}, {"type": "command", "command": "c",
                                                                  "env": {"A": "1"}, "onFailure": "block"}),
                           ({}, {"type": "command", "bash": "b", "timeoutSec": 9}),
                           ({}, {"type": "command", "command": "c", "timeout": True, "name": 3})]:
        out("read_command", p.value, safe(s.read_command, "PreToolUse", group, handler))
    for cmds in [(HookCommand(p.value, "E", "a", name="n"), HookCommand(p.value, "E", "a")),
                 (HookCommand(p.value, "E", "a", sequential=True),)]:
        out("dedup", p.value, [s.dedup_key(c) for c in cmds], s.runs_sequentially(cmds))
    for payload in [{"session_id": "s1", "tool_name": "Bash", "effort": {"level": "high"}, "cwd": "/x",
                     "hook_event_name": "PreToolUse", "n": 3},
                    {"session_id": 5}]:
        env = s.hook_env(payload, "/proj", {"BASE": "1"})
        env.pop("HOOKWRAP_PID", None)
        out("hook_env", p.value, sorted((k, v.replace(str(os.getpid()), "PID")) for k, v in env.items()))
        out("stdin", p.value, s.stdin_bytes(payload))
        out("expand", p.value, s.expand_command('echo "$CLAUDE_PROJECT_DIR" $GEMINI_PROJECT_DIR', env))
    out("commands_from", p.value, host.commands_from_settings(p, {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "c", "timeout": 5}]}],
        "BeforeTool": [{"hooks": [{"type": "command", "command": "d"}]}]}}))

# --- verdicts (hookwrap test reads a run) -------------------------------------------------
STDOUTS = ["", "hello", "{", "{bad}", "[1]", '{"a":1}{"b":2}',
           '{"decision":"block","reason":"r"}', '{"decision":"deny","reason":"r"}',
           '{"decision":"approve"}', '{"decision":"weird"}',
           '{"continue":false,"stopReason":"s"}', '{"systemMessage":"m"}',
           '{"additionalContext":"top"}',
           '{"permissionDecision":"deny","permissionDecisionReason":"pr"}',
           '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}',
           '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}',
           '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}',
           '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}',
           '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"This call needs the user\'s confirmation, and Copilot CLI hooks cannot ask for it, so it was blocked: ask the user, and run it only if they agree."}}',
           '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"This call needs the user\'s confirmation, and Droid hooks cannot ask for it, so it was blocked: ask the user, and run it only if they agree."}}',
           '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}',
           '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}',
           '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}',
           '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}',
           '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}',
           '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"a":1}}}}',
           '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"o"}}',
           '{"modifiedArgs":{"a":1}}',
           '{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"Stop"}}',
           '{"hookSpecificOutput":{"hookEventName":"BeforeTool","additionalContext":"c"}}',
           '{"hookSpecificOutput":{"hookEventName":"AfterTool","tailToolCallRequest":{"name":"x"}}}',
           ]
for p in PLATFORMS:
    s = _Setup(setup_of(p))
    events = sorted(set(list(s.known_settings_events) + list(s.events)))
    rt = runtime_of(p)
    for ev in events:
        for so in STDOUTS:
            for code, se in [(0, ""), (0, "err"), (2, ""), (2, "why\nnot"), (2, '{"decision":"block","reason":"j"}'),
                             (1, "oops"), (1, ""), (127, "python3: can't open file '/x/y.py': [Errno 2] No such file or directory")]:
                for of in (None, "block"):
                    r = RunResult(code, so, se, 5)
                    out("verdict", p.value, ev, so, code, se, of, safe(setup_of(p).interpret, ev, r, of))
            r = RunResult(None, so, "", 5, timed_out=True)
            out("verdict_to", p.value, ev, so, safe(setup_of(p).interpret, ev, r, "block"))
            r = RunResult(None, so, "", 5, signal=9)
            out("verdict_sig", p.value, ev, so, safe(setup_of(p).interpret, ev, r, None))
            r = RunResult(None, "", "", 5, spawn_error="nope")
            out("verdict_spawn", p.value, ev, safe(setup_of(p).interpret, ev, r, None))
        # runtime read_answer
        ne = rt.events.get(ev)
        if ne is not None:
            for so in STDOUTS[:20]:
                for code, se in [(0, ""), (2, "why"), (1, "x"), (2, "")]:
                    out("read_answer", p.value, ev, so, code, se, safe(rt.read_answer, ne, code, so, se))

# --- runtime answers ----------------------------------------------------------------------
OUTPUTS = [HookOutput(), HookOutput.block("no"), HookOutput.allow(), HookOutput.ask("sure?"),
           HookOutput(context="ctx"), HookOutput(updated_input={"command": "ls"}),
           HookOutput(system_message="m"), HookOutput(continue_loop=False, stop_reason="s"),
           HookOutput.block("no", context="c"), HookOutput.allow(updated_input={"a": 1}, reason="r")]
for p in PLATFORMS:
    for ev in NormalizedEvent:
        for i, o in enumerate(OUTPUTS):
            out("denorm", p.value, ev.value, i, safe(denormalize_output, o, p, ev))
    rt = runtime_of(p)
    for raw_ev in list(rt.events)[:20]:
        for tool in [*list(rt.tools)[:12], "mcp__a__b", "Unknown"]:
            payload = {"hook_event_name": raw_ev, "tool_name": tool, "session_id": "s",
                       "tool_input": {"command": "ls", "file_path": "/a", "path": "/b",
                                      "content": "x", "file_text": "y"}, "cwd": "/c",
                       "prompt": "", "toolName": tool}
            hi = safe(normalize_input, json.dumps(payload), p)
            if not isinstance(hi, str):
                hi = (hi.event, hi.tool_name, hi.raw_tool_name, hi.tool_input, hi.prompt,
                      safe(getattr, hi, "file_paths"))
            out("normalize", p.value, raw_ev, tool, hi)

# --- doctor: scopes, commands, trust ----------------------------------------------------------

def doctor_cases(base: Path) -> None:
    for case in range(4):
        root = base / f"p{case}" / "proj"
        home = base / f"p{case}" / "home"
        root.mkdir(parents=True)
        home.mkdir(parents=True)
        (root / "hookwrap.toml").write_text("")
        hooks = {"PreToolUse": [{"matcher": "^(Bash|Write).*$", "hooks": [
            {"type": "command", "command": 'python3 "$QWEN_CODE_PROJECT_DIR/x.py" $FACTORY_PROJECT_DIR',
             "timeout": 5000 if case % 2 else 5}]}],
            "Stop": [{"matcher": "x", "hooks": [{"type": "command", "command": "echo hi", "timeout": 1500}]}]}
        for p in PLATFORMS:
            s = _Setup(setup_of(p))
            if s.settings_generated:
                continue
            f = root / s.settings_file
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(json.dumps({"hooks": hooks, "hooksDisabled": case == 3,
                                     "disableAllHooks": case == 3}))
        if case >= 1:
            (home / ".qwen").mkdir()
            (home / ".qwen/settings.json").write_text(json.dumps({"security": {"folderTrust": {"enabled": True}}}))
        if case == 2:
            (home / ".qwen/trustedFolders.json").write_text(json.dumps({str(root): "TRUST_FOLDER"}))
            (home / ".copilot").mkdir()
            (home / ".copilot/config.json").write_text(json.dumps({"trustedFolders": [str(root)]}))
        if case == 3:
            (home / ".copilot").mkdir()
            (home / ".copilot/config.json").write_text('// c\n{"trustedFolders": ["/else"], "x": 1}\n')
            (home / ".qwen/trustedFolders.json").write_text(json.dumps({str(root.parent): "DO_NOT_TRUST"}))
        env = {"HOME": str(home)}
        scopes = doctor.load_scopes(root, home, env)
        for check in (doctor.check_schema, doctor.check_hooks_enabled, doctor.check_dead_keys,
                      doctor.check_commands):
            out("doctor", case, check.__name__, safe(check, scopes))
        out("doctor", case, "trust", safe(doctor.check_trust, root, home, scopes, env))
        for p in PLATFORMS:
            s = _Setup(setup_of(p))
            out("scopes", case, p.value, [(label, str(x), pr) for label, x, pr in s.scopes(root, home, env)])
            edits = safe(s.trust_edits, root, home, env)
            if isinstance(edits, list):
                edits = [(e.platform, str(e.path), e.label, e.new_text,
                          [(c.action, c.entry, c.shown) for c in e.changes], e.todo, e.pending)
                         for e in edits]
            out("trust_edits", case, p.value, edits)


with tempfile.TemporaryDirectory(prefix="hookwrap-cli-answers-") as folder:
    base = Path(folder).resolve()
    doctor_cases(base)
    text = "\n".join(OUT).replace(str(base), "BASE") + "\n"
sys.stdout.write(text)
