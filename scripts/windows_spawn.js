// Runs the cases scripts/windows_cases.py wrote: each CLI's Windows spawn of hookwrap's guard,
// with a harmless payload the guard blocks (`git reset --hard`, read as text, never run) and
// one it allows, and checks that each answers exactly as the launcher run directly does.
// Usage: node scripts/windows_spawn.js CASES.json   (exit 1 when any case differs)
"use strict";
const fs = require("fs");
const { spawnSync } = require("child_process");

const { root, notes, cases, plugins } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const payload = (command) => JSON.stringify({
  hook_event_name: "PreToolUse", tool_name: "Bash", session_id: "s", cwd: root,
  tool_input: { command },
});
for (const note of notes) console.log(`note: ${note}`);
let failed = 0;
for (const c of cases) {
  if (c.argv[0].includes("\\") && !fs.existsSync(c.argv[0])) {
    console.log(`skip ${c.cli}/${c.shell}: ${c.argv[0]} is not on this runner`);
    continue;
  }
  for (const command of ["git reset --hard", "ls"]) {
    const options = { input: payload(command), env: { ...process.env, ...c.env },
                      windowsVerbatimArguments: c.verbatim, timeout: 60000 };
    const got = spawnSync(c.argv[0], c.argv.slice(1), { ...options, cwd: c.cwd });
    const want = spawnSync(c.direct[0], c.direct.slice(1), { ...options, cwd: root,
                                                            windowsVerbatimArguments: false });
    const same = got.status === want.status && String(got.stdout) === String(want.stdout);
    const blocked = /"deny"|"block"/.test(String(got.stdout));
    console.log(`${same ? "ok  " : "FAIL"} ${c.cli}/${c.shell} ${JSON.stringify(command)}: ` +
                `exit ${got.status}${blocked ? ", blocked" : ""}`);
    if (!same) {
      failed++;
      console.log(`  argv: ${JSON.stringify(c.argv)}\n  stderr: ${String(got.stderr)}` +
                  `\n  want: exit ${want.status} ${String(want.stdout)}\n  got: ${String(got.stdout)}`);
    }
  }
}
// The generated plugins (OpenCode, Kilo CLI) and extension (pi), imported and called as their
// CLI calls them before a shell call, from a subfolder: their own Windows spawn (argvWindows, no
// shell) must start the guard and stop the call.
(async () => {
  const { pathToFileURL } = require("url");
  const deep = require("path").join(root, "src", "deep");
  for (const [cli, file] of Object.entries(plugins || {})) {
    const mod = await import(pathToFileURL(file).href);
    let stopped = null;
    try {
      if (cli === "pi") {
        const on = {};
        mod.default({ on: (name, fn) => { on[name] = fn; } });
        const r = await on.tool_call({ toolName: "bash", input: { command: "git reset --hard" },
                                      toolCallId: "c" }, { cwd: deep });
        stopped = r && r.block ? r.reason : null;
      } else {
        const hooks = await mod.HookwrapPlugin({ directory: deep, worktree: root });
        await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" },
                                           { args: { command: "git reset --hard" } });
      }
    } catch (error) {
      stopped = String(error.message || error);
    }
    const ok = stopped !== null && !/could not run|timed out/.test(stopped);
    console.log(`${ok ? "ok  " : "FAIL"} ${cli}/plugin "git reset --hard": ${stopped}`);
    if (!ok) failed++;
  }
  process.exit(failed ? 1 : 0);
})();
