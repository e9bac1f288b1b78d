from pathlib import Path
import json, shutil
from .mockmodel import Reply, ToolCall
from .qwen_copilot_support import hookwrap_repo
from .test_opencode_hookwrap import opencode, opencode_binary  # noqa

CAP = '''import sys, os, json
data = sys.stdin.read()
d = os.path.join(os.environ["HOOKWRAP_PROJECT_DIR"], "cap")
os.makedirs(d, exist_ok=True)
ev = json.loads(data)
name = ev["hook_event_name"] + ("." + ev["tool_name"] if ev.get("tool_name") else "")
open(os.path.join(d, name + ".json"), "w").write(json.dumps(ev, indent=2))
env = {k: v for k, v in os.environ.items() if k.startswith(("HOOKWRAP", "OPENCODE", "AGENT"))}
open(os.path.join(d, "_env.json"), "w").write(json.dumps(env, indent=2))
print("{}")
'''

def test_capture(opencode, git_project):
    repo = hookwrap_repo(opencode, git_project, "opencode")
    for ev, name in [("before_tool", "a"), ("after_tool", "b"), ("before_prompt", "c"), ("session_start", "d"), ("after_agent", "e")]:
        repo.add(ev, name, "--template", "skeleton")
        repo.script(name).write_text(CAP)
    steps = [opencode.shell("echo hi > ran.txt"), opencode.write_file(str(git_project / "w.txt"), "written\n"),
             ToolCall("edit", {"filePath": str(git_project / "w.txt"), "oldString": "written", "newString": "edited"}),
             ToolCall("read", {"filePath": str(git_project / "w.txt")}), Reply("Finished.")]
    r = opencode.run(git_project, steps, prompt="run it")
    print(r.describe())
    shutil.copytree(git_project / "cap", "/tmp/oc-cap", dirs_exist_ok=True)
    shutil.copy(git_project / ".opencode/plugins/hookwrap.js", "/tmp/oc-cap/_plugin.js")
