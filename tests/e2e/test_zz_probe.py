from __future__ import annotations
import json, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from .mockmodel import Reply

LOG = []
MODE = {"m": "ok"}

class H(BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n)
        LOG.append({"path": self.path, "headers": dict(self.headers), "body": json.loads(body or b"{}")})
        m = MODE["m"]
        if m == "hang":
            time.sleep(6)
        if m == "500":
            self.send_response(500); self.end_headers(); self.wfile.write(b"x"); return
        out = b"{}"
        if m == "deny":
            out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "DENIED-BY-HTTP"}}).encode()
        if m == "ctx":
            out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-FROM-HTTP"}}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass

def _srv():
    s = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=s.serve_forever, daemon=True).start()
    return s

def _settings(project, hooks):
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude/settings.json").write_text(json.dumps({"hooks": hooks}))

def test_probe(claude, project):
    s = _srv(); port = s.server_address[1]
    url = f"http://127.0.0.1:{port}/hooks/x"
    out = []
    def run(name, hooks, cmds, mode="ok", env=None):
        LOG.clear(); MODE["m"] = mode
        _settings(project, hooks)
        for f in project.glob("m*.txt"): f.unlink()
        steps = [claude.shell(c) for c in cmds] + [Reply("Finished.")]
        r = claude.run(project, steps, env=env or {"HWT": "tok123"})
        files = sorted(p.name for p in project.glob("m*.txt"))
        trs = [(t["is_error"], t["text"][:150]) for t in r.tool_results()]
        out.append({"name": name, "rc": r.rc, "dur": round(r.duration,2), "posts": [(l["path"], l["body"].get("tool_input", {}).get("command") if isinstance(l["body"].get("tool_input"), dict) else None, l["body"].get("hook_event_name")) for l in LOG], "files": files, "tool_results": trs,
                    "hook_events": [{k: e.get(k) for k in ("subtype","hook_name","hook_event","outcome","exit_code","stderr","stdout")} for e in r.events if e.get("type")=="system" and str(e.get("subtype","")).startswith("hook")],
                    "first_post": LOG[0] if LOG and name=="if" else None})
    h = lambda extra=None, ev="PreToolUse", matcher="Bash": {ev: [{"matcher": matcher, "hooks": [{"type": "http", "url": url, "timeout": 3, "headers": {"X-P": "$CLAUDE_PROJECT_DIR", "X-T": "${HWT}", "X-N": "$NOTALLOWED"}, "allowedEnvVars": ["CLAUDE_PROJECT_DIR", "HWT"], **(extra or {})}]}]}
    run("if", h({"if": "Bash(git *)"}), ["touch m1.txt", "git status > m2.txt", "echo ok > m3.txt && git push --force origin main", "FOO=1 git log > m4.txt", "  git log > m5.txt", "(git push -f) > m6.txt; true", "cd . && git status > m7.txt"])
    run("if2", h({"if": "Bash(git *)"}), ["git", "bash -c 'git status' > m1.txt", "echo $(git status) > m2.txt", "echo `git log` > m3.txt", "sudo -n true; env FOO=1 git status > m4.txt", "/usr/bin/git status > m5.txt", "true\ngit status > m6.txt", "eval git status > m7.txt", "echo x | xargs git status > m8.txt", "gitx status > m9.txt", "echo 'git push' > ma.txt", "git\tstatus > mb.txt", "command git status > mc.txt", "ls; GIT_DIR=x git status"])
    run("if3", h({"if": "Bash(git push*)"}), ["git push", "git pushx", "git  push", "git -C . push > m1.txt"])

    s.shutdown(); s.server_close()
    Path("/tmp/claude_probe.json").write_text(json.dumps(out, indent=1))
