"""Resident hooks and command filters without a CLI: the filter's matching rule, the server
answering over loopback, the manifest keys, the registrations, ownership, doctor and test."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookwrap import commandfilter
from hookwrap.checks import doctor
from hookwrap.checks.hooktest import run_hook_test
from hookwrap.generator import resident
from hookwrap.generator.clis import setup_of
from hookwrap.generator.errors import ConflictError, HookwrapError, ManifestError
from hookwrap.generator.manifest import Manifest
from hookwrap.generator.project import add_plan, init_plan, sync_plan
from hookwrap.generator.resident import (DOWN, HUNG, OTHER, UP, check_port_free, server_state,
                                         service_text)
from hookwrap.platforms import Platform
from hookwrap.server import HookServer

# --- the filter's rule -----------------------------------------------------------------------

# (command, must the "git *" hook see it?) Rows marked "Claude" were checked against Claude Code
# 2.1.328's `if: "Bash(git *)"` (docs/resident.md); the runtime never skips what Claude runs.
GIT_CASES = [
    ("touch m1.txt", False),                                   # Claude: skipped
    ("git status > m2.txt", True),                             # Claude: ran
    ("echo ok > m3.txt && git push --force origin main", True),  # Claude: ran
    ("FOO=1 git log", True),                                   # Claude: ran
    ("  git log", True),                                       # Claude: ran
    ("cd . && git status", True),                              # Claude: ran
    ("git", True),                                             # Claude: ran
    ("true\ngit status", True),                                # Claude: ran
    ("ls; GIT_DIR=x git status", True),                        # Claude: ran
    ("git\tstatus", True),                                     # Claude: ran
    ("gitx status", False),                                    # Claude: skipped
    ("echo 'git push'", False),                                # Claude: skipped
    ("ls -la | grep x", False),
    # Claude skips these; the runtime cannot rule them out, so it runs the hook.
    ("bash -c 'git status'", True),
    ("/usr/bin/git status", True),
    ("env FOO=1 git status", True),
    ("command git status", True),
    ("eval git status", True),
    ("sudo git push", True),
    ("echo $(git status)", True),
    ("echo `git log`", True),
    ("(git push -f) > out; true", True),
    ("2>/dev/null git push", True),
    ("echo 'unclosed", True),
]


@pytest.mark.parametrize(("command", "seen"), GIT_CASES)
def test_the_filter_never_hides_a_git_command(command: str, seen: bool) -> None:
    assert commandfilter.matches(["git *"], command) is seen


def test_a_pattern_is_a_glob_over_the_whole_simple_command() -> None:
    assert commandfilter.matches(["git push*"], "git  push --force")
    assert not commandfilter.matches(["git push*"], "git -C . status")
    assert commandfilter.matches(["npm test", "git *"], "npm test")
    assert not commandfilter.matches(["npm test"], "npm test --watch")
    # Each simple command is matched as its words, without its assignments and the program's
    # folder.
    line = "A=1 B=2 /bin/ls -l; echo x|wc"
    assert all(commandfilter.matches([pattern], line) for pattern in ("ls -l", "echo x", "wc"))
    assert not commandfilter.matches(["A=1*", "/bin/ls*", "echo x|*"], line)


# Lines that run `rm` in a way the first word does not show: a filter for "rm *" must never
# skip them (each is either read as running rm, or not read for certain).
RUNS_RM = [
    "for d in b; do rm -rf $d; done",
    "if true; then rm -rf x; fi",
    "if ! rm -rf x; then :; fi",
    "until false; do rm -rf x; done",
    "while true; do rm -rf x; done",
    "select s in a; do rm -rf x; done",
    "case a in a) rm -rf x;; esac",
    "case a in (a) rm -rf x;; esac",
    "coproc rm -rf x",
    "coproc N { rm -rf x; }",
    "{ rm -rf x; }",
    "( rm -rf x )",
    "! rm -rf x",
    "time rm -rf x",
    "(( x = 1 )) && rm -rf x",
    "X=rm; $X -rf x",
    "${X} -rf x",
    "/bin/r? -rf x",
    "/bin/r[m] -rf x",
    "{rm,-rf,x}",
    "~/bin/rm -rf x",
    "$'\\x72m' -rf x",
    "'rm' -rf x",
    "r''m -rf x",
    "\\rm -rf x",
    "r\\\nm -rf x",
    "echo a &&\nrm -rf x",
    "rm${IFS}-rf x",
    "trap 'rm -rf x' EXIT",
    "function f { rm -rf x; }; f",
    "f() { rm -rf x; }; f",
    "g() ( ls ); g",
    "shopt -s expand_aliases; alias ls='rm -rf x'\nls",
    "hash -p /bin/rm ls; ls -rf x",
    "exec rm -rf x",
    "nohup rm -rf x",
    "echo x | xargs rm",
    "find . -exec rm {} +",
    "cat <<EOF\nrm -rf x\nEOF",
    "> out rm -rf x",
    "ls |& rm x",
    "mapfile -C 'rm -rf x' -c 1 < f",
    "source ./s.sh",
    ". ./s.sh",
    "=rm -rf x",
    "ls # ; rm -rf x",
    "# comment\nrm -rf x",
    "read X < f; (( X ))",
    "[[ $X -eq 1 ]]",
    "let X",
]


@pytest.mark.parametrize("command", RUNS_RM)
def test_the_filter_never_skips_a_line_that_may_run_the_pattern(command: str) -> None:
    assert commandfilter.matches(["rm *"], command)


@pytest.mark.parametrize("command", [
    "ls -la", "npm test && echo ok", "echo 'rm -rf x'", "ls *.txt", "echo $HOME",
    "for d in a; do echo $d; done", "[ -f x ] && ls", "X=rm ls",
])
def test_the_filter_skips_lines_it_reads_for_certain(command: str) -> None:
    assert not commandfilter.matches(["rm *"], command)


def test_an_expanded_argument_may_match_a_pattern_that_reaches_past_the_program() -> None:
    assert commandfilter.matches(["git push*"], "git $P --force")
    assert not commandfilter.matches(["git push*"], "ls $P")
    assert not commandfilter.matches(["git push*"], "git status --short")


def _script(root: Path, name: str, body: str) -> Path:
    path = root / ".hookwrap" / "hooks" / f"{name}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return path


def test_skips_reads_the_hook_s_patterns_from_filters_json(tmp_path: Path) -> None:
    script = str(_script(tmp_path, "audit", "def hook(event):\n    return None\n"))
    assert not commandfilter.skips(script, ["ls"])  # no filters file: every call
    (tmp_path / ".hookwrap" / "filters.json").write_text(json.dumps({"audit": ["git *"]}))
    assert commandfilter.skips(script, ["ls"])
    assert not commandfilter.skips(script, ["git status"])
    assert not commandfilter.skips(script, ["ls", "git status"])  # each line must be left out
    assert not commandfilter.skips(script, [])
    (tmp_path / ".hookwrap" / "filters.json").write_text("{broken")
    assert not commandfilter.skips(script, ["ls"])  # unreadable: the hook runs


# --- the server ------------------------------------------------------------------------------

RECORDING_HOOK = '''\
import os
from hookwrap import HookOutput

def hook(event):
    print("printed by the hook")  # must not reach the answer
    if event.tool_input.get("command") == "boom":
        raise RuntimeError("kaput")
    return HookOutput(context=f"VERSION-1 cwd={os.getcwd()} project={event.project_dir} "
                              f"session={event.session_id}")

if __name__ == "__main__":
    raise SystemExit("main must not run in the server")
'''


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    root = tmp_path / "repo"
    (root / "sub").mkdir(parents=True)
    (root / "hookwrap.toml").write_text("version = 1\n")
    _script(root, "rec", RECORDING_HOOK)
    server = HookServer(str(root), 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield root, server.server_address[1]
    server.shutdown()
    server.server_close()


def _post(port: int, name: str, payload: dict, headers: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/hookwrap/claude/{name}",
                                     data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _payload(cwd: Path, command: str = "ls") -> dict:
    return {"session_id": "s-1", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}


def test_the_server_answers_as_a_command_run_with_the_call_s_cwd_and_session(served) -> None:
    root, port = served
    before = os.getcwd(), os.environ.get("CLAUDE_PROJECT_DIR")
    status, body = _post(port, "rec", _payload(root / "sub"))
    assert status == 200
    context = json.loads(body)["hookSpecificOutput"]["additionalContext"]
    assert context == f"VERSION-1 cwd={root / 'sub'} project={root.resolve()} session=s-1"
    assert (os.getcwd(), os.environ.get("CLAUDE_PROJECT_DIR")) == before  # put back after the call


def test_the_server_reloads_a_changed_script(served) -> None:
    root, port = served
    assert "VERSION-1" in _post(port, "rec", _payload(root))[1]
    path = root / ".hookwrap" / "hooks" / "rec.py"
    path.write_text(path.read_text().replace("VERSION-1", "VERSION-22"))
    assert "VERSION-22" in _post(port, "rec", _payload(root))[1]


def test_a_crashing_hook_gets_the_runtime_s_error_document(served) -> None:
    root, port = served
    status, body = _post(port, "rec", _payload(root, "boom"))
    assert status == 200
    document = json.loads(body)
    assert document["decision"] == "block" and "kaput" in document["reason"], document


def test_a_call_from_another_project_is_refused(served, tmp_path: Path) -> None:
    root, port = served
    status, body = _post(port, "rec", _payload(tmp_path))
    assert status == 409 and "answers for" in body
    nested = root / "vendor" / "other"
    nested.mkdir(parents=True)
    (nested / "hookwrap.toml").write_text("version = 1\n")
    status, body = _post(port, "rec", _payload(nested))
    assert status == 409 and f"not for {nested.resolve()}" in body


def test_only_a_json_request_to_this_host_runs_a_hook(served) -> None:
    root, port = served
    assert _post(port, "rec", _payload(root), {"Content-Type": "text/plain"})[0] == 415
    assert _post(port, "rec", _payload(root), {"Host": f"evil.example:{port}"})[0] == 403
    assert _post(port, "rec", _payload(root), {"Content-Type": "application/json; charset=utf-8"})[0] == 200


def test_health_answers_only_a_request_to_this_host(served) -> None:
    root, port = served

    def health(host: str) -> tuple[int, str]:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/hookwrap/health",
                                         headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    status, body = health(f"rebound.example:{port}")
    assert status == 403 and str(root) not in body  # a rebinding page learns nothing
    status, body = health(f"127.0.0.1:{port}")
    assert status == 200 and json.loads(body)["root"] == str(root.resolve())


def test_a_missing_or_broken_script_is_a_failure_not_an_answer(served) -> None:
    root, port = served
    assert _post(port, "nosuch", _payload(root))[0] == 500
    _script(root, "broken", "def hook(:\n")
    assert _post(port, "broken", _payload(root))[0] == 500
    assert _post(port, "Bad.Name", _payload(root))[0] == 404


def test_server_state_tells_up_down_and_another_project(served, tmp_path: Path) -> None:
    root, port = served
    assert server_state(root, port).state == UP
    assert server_state(tmp_path, port).state == OTHER
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert server_state(root, free).state == DOWN


HELPER_HOOK = """\
import sys
import rules  # from the script's own directory, as in a command run
from hookwrap import HookOutput

def hook(event):
    sys.path.insert(0, "/nonexistent/hookwrap-test")  # a call's change must not last
    return HookOutput(context=rules.WORD)
"""


def test_a_changed_helper_module_is_imported_again_and_sys_path_stays_put(served) -> None:
    import sys

    root, port = served
    _script(root, "helped", HELPER_HOOK)
    helper = root / ".hookwrap" / "hooks" / "rules.py"
    helper.write_text('WORD = "FIRST"\n')
    path_before = list(sys.path)
    for _ in range(3):
        status, body = _post(port, "helped", _payload(root))
        assert status == 200 and "FIRST" in body
    assert sys.path == path_before
    helper.write_text('WORD = "SECOND-VERSION"\n')  # another size: a new stamp
    status, body = _post(port, "helped", _payload(root))
    assert status == 200 and "SECOND-VERSION" in body
    assert sys.path == path_before
    assert "rules" in sys.modules
    sys.modules.pop("rules")  # the test process is the server's: leave no helper behind


LATE_HELPER_HOOK = """\
from hookwrap import HookOutput

def hook(event):
    import late_rules  # only once a call comes: after the script's own import
    return HookOutput(context=late_rules.WORD)
"""


def test_a_helper_first_imported_by_a_call_is_watched_too(served) -> None:
    """The server reads which helper modules the hooks imported only when sys.modules has
    changed since it last looked: a helper a call imports is still seen, and reloaded."""
    import sys

    root, port = served
    _script(root, "late", LATE_HELPER_HOOK)
    helper = root / ".hookwrap" / "hooks" / "late_rules.py"
    helper.write_text('WORD = "EARLY"\n')
    try:
        for _ in range(2):
            status, body = _post(port, "late", _payload(root))
            assert status == 200 and "EARLY" in body
        helper.write_text('WORD = "LATER-VERSION"\n')
        status, body = _post(port, "late", _payload(root))
        assert status == 200 and "LATER-VERSION" in body
    finally:
        sys.modules.pop("late_rules", None)


SLEEPING_HOOK = """\
import time

def hook(event):
    time.sleep(float(event.tool_input["command"]))
    return None
"""


def _post_in_background(port: int, name: str, payload: dict) -> tuple[threading.Thread, list]:
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(_post(port, name, payload)))
    thread.start()
    return thread, answers


def test_a_hung_hook_fails_the_other_calls_at_once_and_shows_in_health(served) -> None:
    import time

    root, port = served
    (root / "hookwrap.toml").write_text(BASE + "[hooks.slow]\ntimeout = 1\n"
                                        "[hooks.rec]\ntimeout = 30\n")
    _script(root, "slow", SLEEPING_HOOK)
    thread, answers = _post_in_background(port, "slow", _payload(root, "2.5"))
    time.sleep(0.2)
    started = time.monotonic()
    status, body = _post(port, "rec", _payload(root))
    waited = time.monotonic() - started
    # rec may wait 28 s, but slow outlives its own 1 s timeout: rec fails as soon as it does.
    assert status == 503 and "'slow'" in body and "timeout of 1 s" in body
    assert waited < 2.0
    state = server_state(root, port)
    assert state.state == HUNG and "'slow'" in state.detail
    thread.join()
    assert answers == [(200, "{}")]
    assert _post(port, "rec", _payload(root))[0] == 200
    assert server_state(root, port).state == UP


def test_a_call_waits_for_a_slow_one_only_within_its_own_timeout(served) -> None:
    import time

    root, port = served
    (root / "hookwrap.toml").write_text(BASE + "[hooks.slow]\ntimeout = 30\n"
                                        "[hooks.rec]\ntimeout = 3\n")
    _script(root, "slow", SLEEPING_HOOK)
    thread, answers = _post_in_background(port, "slow", _payload(root, "2.5"))
    time.sleep(0.2)
    assert server_state(root, port).state == UP  # slow, not hung
    started = time.monotonic()
    status, body = _post(port, "rec", _payload(root))
    # rec's timeout is 3 s: it gives up 2 s before Claude would, with an answer that says why.
    assert status == 503 and "still runs after 1 s" in body
    assert 0.8 < time.monotonic() - started < 2.0
    thread.join()
    assert answers == [(200, "{}")]


# --- manifest, registrations, ownership --------------------------------------------------------

BASE = 'version = 1\n'


def test_the_manifest_checks_the_new_keys() -> None:
    good = Manifest.loads(BASE + '[serve]\nport = 49000\n[hooks.audit]\nevent = "before_tool"\n'
                          'template = "audit"\nmatcher = "shell"\nresident = true\ncommands = ["git *"]\n')
    [spec] = good.hooks
    assert (spec.resident, spec.commands, good.serve_port) == (True, ("git *",), 49000)
    bad = [
        ('[serve]\nport = 80\n', "serve.port"),
        ('[serve]\nhost = "x"\n', "serve.host"),
        ('[hooks.a]\nevent = "before_tool"\nresident = "yes"\n', "hooks.a.resident"),
        ('[hooks.a]\nevent = "before_tool"\nmatcher = "shell|write_file"\ncommands = ["git *"]\n',
         "hooks.a.commands"),
        ('[hooks.a]\nevent = "before_tool"\nmatcher = "shell"\ncommands = ["Bash(git *)"]\n',
         "hooks.a.commands"),
        ('[hooks.a]\nevent = "after_agent"\ncommands = ["git *"]\n', "hooks.a.commands"),
        ('[hooks.guard]\nevent = "before_tool"\ntemplate = "guard"\nmatcher = "shell"\n'
         'commands = ["git *"]\n', "hooks.guard.commands"),
    ]
    for text, key in bad:
        with pytest.raises(ManifestError) as caught:
            Manifest.loads(BASE + text)
        assert key in caught.value.message, (text, caught.value.message)


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    init_plan(root).apply()
    return root


def test_sync_writes_http_entries_filters_and_keeps_commands_elsewhere(project: Path) -> None:
    add_plan(project, event="before_tool", name="guard", resident=True).apply()
    add_plan(project, event="before_tool", name="audit", matcher="shell", resident=True,
             commands=("git *",)).apply()
    add_plan(project, event="before_tool", name="two", template="skeleton", matcher="shell",
             commands=("git *", "npm *")).apply()
    claude = json.loads((project / ".claude/settings.json").read_text())["hooks"]["PreToolUse"]
    handlers = [group["hooks"][0] for group in claude]
    assert handlers[0] == {"type": "http", "url": "http://127.0.0.1:48620/hookwrap/claude/guard",
                           "timeout": 10, "onFailure": "block"}
    assert handlers[1] == {"type": "http", "url": "http://127.0.0.1:48620/hookwrap/claude/audit",
                           "timeout": 10, "if": "Bash(git *)"}
    assert handlers[2]["type"] == "command" and "if" not in handlers[2]  # two patterns: runtime
    gemini = json.loads((project / ".gemini/settings.json").read_text())["hooks"]["BeforeTool"]
    assert all(group["hooks"][0]["type"] == "command" for group in gemini)
    assert json.loads((project / ".hookwrap/filters.json").read_text()) == \
        {"audit": ["git *"], "two": ["git *", "npm *"]}
    assert sync_plan(project).pending == []  # in step: nothing to change

    manifest = project / "hookwrap.toml"
    manifest.write_text(manifest.read_text() + "\n[serve]\nport = 49001\n")
    plan = sync_plan(project)
    assert sorted(change.rel for change in plan.pending) == [".claude/settings.json"]
    plan.apply()
    text = (project / ".claude/settings.json").read_text()
    assert "127.0.0.1:49001/hookwrap/claude/guard" in text and ":48620/" not in text


def test_only_the_exact_resident_url_is_hookwrap_s() -> None:
    def own(url: str, kind: str = "http") -> str | None:
        return setup_of(Platform.CLAUDE).owned_handler({"type": kind, "url": url})

    assert own("http://127.0.0.1:48620/hookwrap/claude/guard") == "guard"
    assert own("http://127.0.0.1:48620/hookwrap/gemini/guard") is None
    assert own("http://localhost:48620/hookwrap/claude/guard") is None
    assert own("https://hooks.example.com/hookwrap/claude/guard") is None
    assert own("http://127.0.0.1:48620/hookwrap/claude/guard?x=1") is None
    assert own("http://127.0.0.1:48620/hookwrap/claude/guard", kind="command") is None


def test_a_user_http_entry_survives_sync(project: Path) -> None:
    add_plan(project, event="before_tool", name="guard", resident=True).apply()
    path = project / ".claude/settings.json"
    data = json.loads(path.read_text())
    mine = {"type": "http", "url": "http://127.0.0.1:9999/my/own", "timeout": 5}
    data["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [mine]})
    path.write_text(json.dumps(data))
    sync_plan(project).apply()
    assert mine in [h for g in json.loads(path.read_text())["hooks"]["PreToolUse"] for h in g["hooks"]]


# --- doctor, test, service files ----------------------------------------------------------------

def test_doctor_and_test_report_a_dead_server_and_use_a_live_one(project: Path, isolated_home: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (project / "hookwrap.toml").write_text((project / "hookwrap.toml").read_text()
                                           + f"\n[serve]\nport = {port}\n")
    add_plan(project, event="before_tool", name="guard", resident=True).apply()
    found = [f for f in doctor.diagnose(project, home=isolated_home) if f.check == "resident-server"]
    assert [f.status for f in found] == [doctor.FAIL] and "nothing listens" in found[0].message
    report = run_hook_test(project, "guard", platform="claude", tool="shell",
                           tool_input={"command": "ls"})
    assert not report.ok and "Connection refused" in report.tests[0].problems[0]

    server = HookServer(str(project), port)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        found = [f for f in doctor.diagnose(project, home=isolated_home) if f.check == "resident-server"]
        assert [f.status for f in found] == [doctor.OK]
        report = run_hook_test(project, "guard", platform="claude", tool="shell",
                               tool_input={"command": "git push --force origin main"})
        # On PreToolUse and, for the shell, PreSkillShellCommand: the server answers both.
        assert [t.event for t in report.tests] == ["PreToolUse", "PreSkillShellCommand"]
        for test in report.tests:
            assert test.command.endswith("/hookwrap/claude/guard")
            assert test.summary.startswith("blocked: Blocked by the guard hook: git push --force")
    finally:
        server.shutdown()
        server.server_close()


def test_the_service_files_run_the_vendored_server(project: Path) -> None:
    unit = service_text("systemd", project, 49002, "python3")
    assert f'Environment="PYTHONPATH={project}/.hookwrap/lib"' in unit
    assert '"-m" "hookwrap.server" "--root" ' in unit and '"--port" "49002"' in unit
    plist = service_text("launchd", project, 49002, "python3")
    assert "<string>hookwrap.server</string>" in plist and "<string>49002</string>" in plist
    with pytest.raises(HookwrapError):
        service_text("upstart", project, 49002, "python3")


# A project path with what each systemd directive reads specially: blanks, specifiers (%n),
# variables ($HOME, ${X}, $$), quotes, a backslash; what a unit's name may not hold (é); and
# "--" (invalid in an XML comment).
AWKWARD = 'my  café repo %n 100% $HOME ${X} $$ "q" \'s\' a\\b & <x>'


def _awkward_project(tmp_path: Path) -> tuple[Path, str]:
    """An initialised project under AWKWARD, and a `python` naming an interpreter whose path
    holds blanks and a specifier (systemd runs that path as written)."""
    import sys

    root = tmp_path / AWKWARD
    root.mkdir()
    init_plan(root).apply()
    bindir = tmp_path / "py dir 100%n"
    bindir.mkdir()
    (bindir / "python3").symlink_to(sys.executable)
    return root, f"'{bindir / 'python3'}'"


def _systemd_words(value: str) -> list[str]:
    """systemd's reading of a quoted value (extract_first_word with EXTRACT_UNQUOTE |
    EXTRACT_CUNESCAPE), for the escapes hookwrap writes; anything else fails the test."""
    words: list[str] = []
    i = 0
    while i < len(value):
        if value[i] == " ":
            i += 1
            continue
        assert value[i] == '"', f"an unquoted word in {value!r}"
        word, i = "", i + 1
        while value[i] != '"':
            if value[i] == "\\":
                assert value[i + 1] in '\\"', f"an unexpected escape in {value!r}"
                i += 1
            word += value[i]
            i += 1
        words.append(word)
        i += 1
    return words


def _specifiers(text: str) -> str:
    """systemd's specifier expansion, for a value meant to have none: %% is a literal %."""
    import re

    assert not re.search(r"%[^%]", text.replace("%%", "")), f"a specifier in {text!r}"
    return text.replace("%%", "%")


def _dollars(word: str) -> str:
    """An ExecStart argument's variable expansion, for a word meant to have none."""
    import re

    assert not re.search(r"\$[^$]", word.replace("$$", "")), f"a variable in {word!r}"
    return word.replace("$$", "$")


def test_the_systemd_unit_reads_back_as_written_by_systemd_s_rules(tmp_path: Path) -> None:
    """Each directive by its own rules (systemd.unit(5), systemd.service(5), systemd.exec(5)):
    Description= and WorkingDirectory= are taken as they stand (a quote would be part of the
    path: "not absolute"), Environment= and ExecStart= are quoted words with C escapes, every
    value has its specifiers expanded, ExecStart='s arguments their variables, and ExecStart='s
    path is used as written."""
    from hookwrap.generator.resident import server_command

    root, python = _awkward_project(tmp_path)
    unit = service_text("systemd", root, 49002, python)
    command, env = server_command(root, 49002, python)
    values = dict(line.split("=", 1) for line in unit.splitlines()
                  if "=" in line and not line.startswith("#"))
    assert _specifiers(values["Description"]) == f"hookwrap resident hooks for {root}"
    assert _specifiers(values["WorkingDirectory"]) == str(root)
    assert [_specifiers(w) for w in _systemd_words(values["Environment"])] == \
        [f"PYTHONPATH={env['PYTHONPATH']}"]
    executable, *arguments = (_specifiers(w) for w in _systemd_words(values["ExecStart"]))
    assert executable == command[0] and not any(c in executable for c in "\"'\\$")
    assert [_dollars(w) for w in arguments] == command[1:]
    for line in unit.splitlines():  # nothing systemd strips or reads as a continuation
        assert line == line.strip() and not line.endswith("\\")


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    import shutil
    import subprocess

    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (the syntax test above still runs)")
    units = tmp_path / "units"
    units.mkdir()
    probe = units / "hookwrap-probe.service"
    probe.write_text("[Service]\nExecStart=/bin/true\n")
    if subprocess.run([analyze, "verify", str(probe)], capture_output=True, text=True,
                      timeout=60).returncode != 0:
        pytest.skip("systemd-analyze verify cannot run here (it fails a minimal unit)")
    probe.unlink()
    root, python = _awkward_project(tmp_path)
    unit = service_text("systemd", root, 49002, python)
    label = next(line for line in unit.splitlines() if line.startswith("#   systemctl --user enable"))
    path = units / label.split()[-1]
    path.write_text(unit)
    done = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True, timeout=60)
    report = done.stdout + done.stderr
    assert done.returncode == 0 and path.name not in report, report


@pytest.mark.parametrize(("where", "message"), [
    ("root", "control character"), ("root-blank", "ends in a blank"), ("python", "quotes"),
])
def test_a_path_a_systemd_unit_cannot_hold_is_refused_in_one_line(
        tmp_path: Path, where: str, message: str) -> None:
    import sys

    root = tmp_path / ("repo\nline" if where == "root" else "repo " if where == "root-blank" else "repo")
    root.mkdir()
    init_plan(root).apply()
    python = "python3"
    if where == "python":
        odd = tmp_path / 'py"dir'
        odd.mkdir()
        (odd / "python3").symlink_to(sys.executable)
        python = f"'{odd / 'python3'}'"
    with pytest.raises(HookwrapError) as caught:
        service_text("systemd", root, 49002, python)
    assert message in caught.value.message and "\n" not in caught.value.message.replace(str(root), "")


def test_the_launchd_agent_is_a_valid_plist_of_the_server_s_command(tmp_path: Path) -> None:
    import plistlib

    from hookwrap.generator.resident import server_command

    root, python = _awkward_project(tmp_path)
    command, env = server_command(root, 49002, python)
    agent = plistlib.loads(service_text("launchd", root, 49002, python).encode())
    assert agent["ProgramArguments"] == command
    assert agent["WorkingDirectory"] == str(root)
    assert agent["EnvironmentVariables"] == {"PYTHONPATH": env["PYTHONPATH"]}
    assert agent["Label"].startswith("hookwrap-my-caf-repo-n-100-home-x-q-s-a-b-x-")
    assert agent["KeepAlive"] is True and agent["RunAtLoad"] is True


# --- the serve command --------------------------------------------------------------------------

def _with_port(project: Path, port: int) -> None:
    path = project / "hookwrap.toml"
    path.write_text(path.read_text() + f"\n[serve]\nport = {port}\n")


def test_serve_prints_a_service_file_and_names_who_holds_a_taken_port(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hookwrap.console.app import main

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    _with_port(project, port)
    try:
        assert main(["-C", str(project), "serve", "--print-service", "launchd"]) == 0
        assert f"<string>{port}</string>" in capsys.readouterr().out
        assert main(["-C", str(project), "serve"]) == 1
    finally:
        holder.close()
    err = capsys.readouterr().err
    assert f"error: port {port} on 127.0.0.1 is taken" in err and "did not answer" in err
    assert "[serve] port = N" in err


def test_serve_runs_the_vendored_server_until_interrupted(project: Path, isolated_home: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _with_port(project, port)
    env = {**os.environ, "HOME": str(isolated_home)}
    process = subprocess.Popen([sys.executable, "-m", "hookwrap", "serve"], cwd=project, env=env,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while server_state(project, port, timeout=0.5).state != UP:
            assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole group
        assert process.wait(timeout=20) == 130
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    log = process.stderr.read() if process.stderr else ""
    assert f"serving {project.resolve()} on http://127.0.0.1:{port}" in log
    assert server_state(project, port).state == DOWN


def _serve(project: Path, isolated_home: Path, port: int):
    """`hookwrap serve` in a session of its own (the group's id is its pid), once it answers;
    with the pid of the server that answers."""
    import os
    import subprocess
    import sys
    import time

    _with_port(project, port)
    env = {**os.environ, "HOME": str(isolated_home)}
    process = subprocess.Popen([sys.executable, "-m", "hookwrap", "serve"], cwd=project, env=env,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while server_state(project, port, timeout=0.5).state != UP:
            assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
            time.sleep(0.1)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/hookwrap/health")
        with urllib.request.urlopen(request, timeout=10) as response:
            return process, json.loads(response.read())["pid"]
    except BaseException:
        _kill_group(process)
        raise


def _kill_group(process) -> None:
    """SIGKILL to everything left in `hookwrap serve`'s session (the server too, when it
    outlived it)."""
    import os
    import signal

    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_sigterm_or_sighup_to_serve_stops_the_server_too(
        project: Path, isolated_home: Path, signame: str) -> None:
    """What a supervisor, `timeout` or `kill PID` sends reaches `hookwrap serve` alone (not
    its process group): the server it started stops with it."""
    import os
    import signal

    number = getattr(signal, signame)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process, server_pid = _serve(project, isolated_home, port)
    try:
        assert server_pid is not None and server_pid != process.pid  # the server is a child
        process.send_signal(number)
        code = process.wait(timeout=20)
        assert server_state(project, port, timeout=2).state == DOWN, "the server still answers"
        with pytest.raises(ProcessLookupError):
            os.kill(server_pid, 0)
        assert code == 128 + number
    finally:
        _kill_group(process)


def test_serve_names_the_pid_of_a_server_that_already_runs(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from hookwrap.console.app import main

    other = tmp_path / "other"
    other.mkdir()
    (other / "hookwrap.toml").write_text("version = 1\n")
    for root, expected in ((project, "a hookwrap server for this project already runs"),
                           (other, f"is a hookwrap server for {other.resolve()}")):
        server = HookServer(str(root), 0)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        path = project / "hookwrap.toml"
        saved = path.read_text()
        try:
            _with_port(project, server.server_address[1])
            assert main(["-C", str(project), "serve"]) == 1
        finally:
            path.write_text(saved)
            server.shutdown()
            server.server_close()
        err = capsys.readouterr().err
        assert expected in err and f"pid {os.getpid()}" in err, err


# --- add --resident and test say what the server's absence means ----------------------------------

def test_add_resident_says_that_hookwrap_serve_must_run(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hookwrap.console.app import main

    assert main(["-C", str(project), "add", "before_tool", "guard", "--resident"]) == 0
    out = capsys.readouterr().out
    assert "note: Claude Code posts guard to `hookwrap serve` (127.0.0.1:48620): until it runs, " \
           "Claude Code blocks every call guard matches" in out, out
    # Once, though the guard is registered on two of Claude Code's events (PreToolUse and
    # PreSkillShellCommand).
    assert out.count("note: Claude Code posts guard to `hookwrap serve`") == 1, out
    # What a resident call still costs there, measured, where it is more than hookwrap's part.
    assert "note: Claude Code 2.1.332 spends 5-10 ms of CPU of its own around each call it posts" in out, out
    assert main(["-C", str(project), "add", "before_prompt", "context", "--resident"]) == 0
    out = capsys.readouterr().out
    assert "until it runs, Claude Code reports context as a failed hook on every call and goes " \
           "on without it" in out, out
    assert main(["-C", str(project), "add", "before_tool", "audit", "--matcher", "shell"]) == 0
    assert "hookwrap serve" not in capsys.readouterr().out  # a command hook needs no server


@pytest.mark.parametrize(("platform", "label"), [("opencode", "OpenCode 1.18.33"),
                                                  ("kilo", "Kilo CLI 7.7.9"), ("pi", "pi 0.73.1")])
def test_add_resident_says_what_the_cli_itself_waits_where_it_is_past_the_target(
        tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str], platform: str,
        label: str) -> None:
    """Where the resident guard is awaited longer than 3 ms a call in the CLI's own process,
    measured, `add --resident` says it, with the measured figures and where they are."""
    from hookwrap.console.app import main

    root = tmp_path / "repo"
    root.mkdir()
    assert main(["-C", str(root), "init", "--platform", platform]) == 0
    capsys.readouterr()
    assert main(["-C", str(root), "add", "before_tool", "guard", "--resident"]) == 0
    out = capsys.readouterr().out
    (note,) = [line for line in out.splitlines() if line.startswith(f"note: {label} ")
               and "docs/performance.md" in line]
    assert " ms " in note and "as a command" in note, note
    assert main(["-C", str(root), "add", "before_tool", "audit", "--matcher", "shell"]) == 0
    assert "docs/performance.md" not in capsys.readouterr().out  # a command hook: no such note


def test_test_reports_why_the_resident_server_could_not_be_reached(project: Path) -> None:
    """Claude Code blocks a fail-closed resident hook it cannot reach: the summary says why,
    not "No stderr output" (there is no process, hence no stderr)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _with_port(project, port)
    add_plan(project, event="before_tool", name="guard", resident=True).apply()
    test, _on_skill_shell = run_hook_test(project, "guard", platform="claude", tool="shell",
                                          tool_input={"command": "ls"}).tests
    assert test.summary.startswith("blocked: could not start: http://127.0.0.1:")
    assert "Connection refused" in test.summary and "hookwrap serve" in test.summary
    assert "No stderr output" not in test.summary


# --- starting and ending `hookwrap serve` -------------------------------------------------------

def _closed_by_the_server_first() -> int:
    """A port a server just closed a connection on: the kernel holds that connection in
    TIME_WAIT for about a minute, and nothing listens there any more."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    accepted.close()  # the server's side closes first: its end waits in TIME_WAIT
    client.recv(1)
    client.close()
    listener.close()
    return port


def test_serve_starts_again_at_once_on_a_port_it_just_left(project: Path) -> None:
    port = _closed_by_the_server_first()
    check_port_free(project, port)  # no ConflictError "port is taken: nothing listens"
    server = HookServer(str(project), port)  # and the server binds it too
    server.server_close()


def test_a_port_that_cannot_be_bound_says_why_not_that_it_is_taken(project: Path) -> None:
    with socket.socket() as holder:  # bound, not listening: nothing answers, the bind fails
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
        with pytest.raises(ConflictError) as caught:
            check_port_free(project, port)
    message = caught.value.message
    assert f"port {port} on 127.0.0.1 cannot be used" in message and "in use" in message, message
    assert "nothing listens" in message  # what the server check saw, said as such


@pytest.mark.parametrize(("code", "exit_code", "said"), [
    ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", 143,
     "the server stopped: killed by signal 15 (SIGTERM)"),
    ("raise SystemExit(4)", 4, "the server stopped: it exited with code 4"),
])
def test_a_server_that_dies_is_reported_with_a_documented_code(
        project: Path, monkeypatch: pytest.MonkeyPatch, code: str, exit_code: int, said: str) -> None:
    monkeypatch.setattr(resident, "check_port_free", lambda root, port: None)
    monkeypatch.setattr(resident, "server_command",
                        lambda root, port, python: ([sys.executable, "-c", code], {}))
    end = resident.run_server(project, 1, "python3")
    assert (end.code, end.problem) == (exit_code, said)


def test_serve_says_that_its_server_died_and_exits_128_plus_the_signal(
        project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from hookwrap.console.app import main

    code = "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"
    monkeypatch.setattr(resident, "check_port_free", lambda root, port: None)
    monkeypatch.setattr(resident, "server_command",
                        lambda root, port, python: ([sys.executable, "-c", code], {}))
    assert main(["-C", str(project), "serve"]) == 143
    err = capsys.readouterr().err
    assert "hookwrap serve: the server stopped: killed by signal 15 (SIGTERM)" in err
    assert "hint: " in err


def test_a_call_whose_cwd_cannot_be_restored_still_frees_the_server(tmp_path: Path) -> None:
    # The server's own working directory removed during a call: putting it back fails, and that
    # failure must not keep the call lock (every later call would be refused with 503).
    from hookwrap import server as server_module

    root = tmp_path / "repo"
    root.mkdir()
    (root / "hookwrap.toml").write_text("version = 1\n")
    gone = tmp_path / "gone"
    gone.mkdir()
    _script(root, "rm_cwd", "import os\nfrom hookwrap import HookOutput\n\n"
                            f"def hook(event):\n    os.rmdir({str(gone)!r})\n    return HookOutput()\n")
    loader = server_module.HookLoader(str(root))
    raw = json.dumps(_payload(root))
    before = os.getcwd(), os.environ.get("CLAUDE_PROJECT_DIR")
    os.chdir(gone)
    try:
        with pytest.raises(FileNotFoundError):
            server_module.answer(loader, Platform.CLAUDE, "rm_cwd", raw, str(root))
    finally:
        os.chdir(before[0])
    assert not server_module._CALL_LOCK.locked()
    assert server_module._running == []
    assert os.environ.get("CLAUDE_PROJECT_DIR") == before[1]
    _script(root, "ok", RECORDING_HOOK)
    assert "VERSION-1" in server_module.answer(loader, Platform.CLAUDE, "ok", raw, str(root))
