// `run.py --cli`'s look at hookwrap's own part of a resident call inside the CLIs whose shim runs
// in the CLI's process (OpenCode and Kilo CLI: the plugin on Bun; pi: the extension on node).
// Usage: <runtime> shim_bench.mjs plugin|extension <shim file> <project> <calls> <warm-up calls>
//        <server pid> <ms a clock tick>
// Loads the rendered shim as the CLI does, then calls its PreToolUse handler (the plugin's
// tool.execute.before, the extension's tool_call) <calls> times in turn with a shell call the
// guard allows, as the CLI would between the model's answer and the tool's run, after <warm-up
// calls> untimed ones (a fresh process's first hundred calls run slower while its JIT compiles
// them: the sessions show that part). Prints one JSON line: each timed call's wall ms, and this
// process's CPU ms (user + system) and the server's (Linux /proc) over the timed calls.
import { readFileSync } from "node:fs";

const [kind, file, project, count, warm, server, tick] = process.argv.slice(2);
const calls = Number(count);

function serverCpuMs() {
  const fields = readFileSync(`/proc/${server}/stat`, "latin1").split(")").pop().trim().split(" ");
  return (Number(fields[11]) + Number(fields[12])) * Number(tick);
}

async function handlerOf() {
  const module = await import(file);
  if (kind === "plugin") {
    const plugin = Object.values(module).find((value) => typeof value === "function");
    const hooks = await plugin({ directory: project, worktree: project, client: {} });
    return (i) => hooks["tool.execute.before"](
      { tool: "bash", sessionID: "bench", callID: `call${i}` },
      { args: { command: `echo call${i}`, description: "Run the command" } });
  }
  const handlers = {};
  module.default({ on: (event, handler) => { handlers[event] = handler; } });
  const ctx = { cwd: project, hasUI: false, sessionManager: { getSessionId: () => "bench" } };
  return async (i) => {
    const verdict = await handlers.tool_call(
      { toolName: "bash", toolCallId: `call${i}`, input: { command: `echo call${i}` } }, ctx);
    if (verdict && verdict.block) throw new Error(`blocked: ${verdict.reason}`);
  };
}

const call = await handlerOf();
for (let i = 0; i < Number(warm); i++) await call(-1 - i); // the first opens the connection
const ms = [];
const serverBefore = serverCpuMs();
const cpu = process.cpuUsage();
for (let i = 0; i < calls; i++) {
  const start = performance.now();
  await call(i);
  ms.push(performance.now() - start);
}
const used = process.cpuUsage(cpu);
const serverUsed = serverCpuMs() - serverBefore;
console.log(JSON.stringify({ ms, cpu_ms: (used.user + used.system) / 1000, server_cpu_ms: serverUsed }));
process.exit(0);
