// `run.py --cli`'s benchmark-only wrapper around hookwrap's rendered shim, for the CLIs that run
// it in their own process (OpenCode and Kilo CLI: the plugin on Bun; pi: the extension on node).
// cli_bench.py moves the rendered shim out of the folder the CLI loads (to the same depth, so it
// finds its project as before) and writes this file there in its place, its @...@ fields filled
// in. The CLI then loads this wrapper, which loads the real shim and hands the CLI each of its
// handlers wrapped: every call's wall time (performance.now) and this process's CPU around it
// (process.cpuUsage; for the tool hooks also the CPU of the children it reaped meanwhile, from
// /proc/self/stat) go to a JSON-lines file, outside the timed part. What the CLI awaits for a
// tool call is then the sum of these calls; for a handler the CLI calls without awaiting it
// (OpenCode's and Kilo CLI's `event`, 1.18.33 and 7.7.9), only its synchronous part, until it
// returns its promise, holds the CLI up, and that is recorded too (sync_ms).
// PROBE makes the PreToolUse handler a check instead: "sleep" sleeps SLEEP_MS first, inside the
// timed part (the sessions show whether the CLI really waits for it); "floor" only GETs
// FLOOR_URL (the server's health check) the way the shim posts (fetch in a plugin, a kept
// node:net socket in the extension) and answers nothing: what any handler that waits for one
// loopback round trip costs inside this CLI, whatever it posts.
import { appendFileSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import * as real from "@REAL@";

const KIND = "@KIND@"; // "plugin" or "extension"
const LOG = "@LOG@";
const PROBE = "@PROBE@"; // "", "sleep" or "floor"
const SLEEP_MS = Number("@SLEEP_MS@");
const FLOOR_URL = "@FLOOR_URL@";
const TICK_MS = Number("@TICK_MS@");
// The handlers of one tool call, by the CLI's names: PreToolUse first.
const TOOL = KIND === "plugin" ? ["tool.execute.before", "tool.execute.after"] : ["tool_call", "tool_result"];
const buffered = [];

function childTicks() {
  const fields = readFileSync("/proc/self/stat", "latin1").split(")").pop().trim().split(" ");
  return Number(fields[13]) + Number(fields[14]); // cutime + cstime
}

// The tool call's id and, for PreToolUse, its command (the benchmark's `echo callN` says which).
function callOf(args) {
  if (KIND === "plugin") {
    const [input, output] = args;
    return { id: input && input.callID, command: output && output.args ? output.args.command : undefined };
  }
  const [event] = args;
  return { id: event && event.toolCallId, command: event && event.input ? event.input.command : undefined };
}

function flush() {
  if (buffered.length) appendFileSync(LOG, buffered.splice(0).join(""));
}
process.on("exit", flush);

async function probe(name, handler, args) {
  if (name !== TOOL[0] || !PROBE) return handler(...args);
  if (PROBE === "sleep") {
    await new Promise((done) => setTimeout(done, SLEEP_MS));
    return handler(...args);
  }
  if (KIND === "plugin") {
    await (await fetch(FLOOR_URL)).text();
  } else {
    await floorGet();
  }
  return undefined;
}

// The extension's client is a kept node:net socket, one write a request, the answer read by its
// Content-Length: the floor's GET goes the same way.
let floorSocket = null;
function floorGet() {
  const url = new URL(FLOOR_URL);
  if (!floorSocket || floorSocket.destroyed) {
    floorSocket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
  }
  const socket = floorSocket.ref(); // unref'd while idle: it must not keep the CLI alive
  return new Promise((done, fail) => {
    let received = Buffer.alloc(0);
    const onData = (chunk) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      const length = /content-length:\s*(\d+)/i.exec(received.subarray(0, Math.max(end, 0)).toString("latin1"));
      if (end >= 0 && length && received.length >= end + 4 + Number(length[1])) {
        socket.off("data", onData).off("error", fail).unref();
        done();
      }
    };
    socket.on("data", onData).on("error", fail);
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
  });
}

function timed(name, handler) {
  const tool = TOOL.includes(name);
  return async (...args) => {
    const call = tool ? callOf(args) : {};
    const ticks = tool ? childTicks() : 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    let syncMs = 0;
    try {
      const pending = probe(name, handler, args);
      syncMs = performance.now() - start;
      return await pending;
    } finally {
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const children = tool ? (childTicks() - ticks) * TICK_MS : 0;
      buffered.push(`${JSON.stringify({ handler: name, id: call.id, command: call.command, ms, sync_ms: syncMs,
                                        cpu_ms: (used.user + used.system) / 1000, child_cpu_ms: children })}\n`);
      if (name === TOOL[1]) flush();
    }
  };
}

// cli_bench.py appends the export the CLI looks for: a plugin function, or the extension.
async function pluginWrapper(ctx) {
  const plugin = Object.values(real).find((value) => typeof value === "function");
  const hooks = await plugin(ctx);
  return Object.fromEntries(Object.entries(hooks).map(
    ([name, handler]) => [name, typeof handler === "function" ? timed(name, handler) : handler]));
}

function extensionWrapper(pi) {
  const on = (event, handler) => pi.on(event, timed(event, handler));
  return real.default(new Proxy(pi, {
    get(target, key) {
      if (key === "on") return on;
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }));
}
