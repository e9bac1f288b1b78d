// hookwrap: generated @LABEL@ plugin.
// It runs this repository's hookwrap hooks (hookwrap.toml) as commands: one JSON payload on
// stdin, one JSON answer on stdout (a resident hook's payload is POSTed to `hookwrap serve`).
// `hookwrap sync` rewrites this whole file: edit hookwrap.toml, or the hook scripts in
// .hookwrap/hooks/, never this file. Plain JavaScript, no dependencies.
//
// Answers applied: "decision": "block" + "reason" (PreToolUse: the tool does not run and the
// model gets the reason; PostToolUse: the tool's output is replaced by it; UserPromptSubmit: the
// prompt is refused), "updatedInput" (PreToolUse: the arguments are changed in place; an
// apply_patch call is blocked instead),
// "additionalContext" (appended to the tool's output, added to the prompt, or a system string
// for SessionStart), "systemMessage" (printed for the user); on Stop, where KEEP_WORKING is true,
// a block's reason is sent as the next user message. A hook that cannot answer (python3 or its
// script missing, a crash outside hookwrap, a timeout) is reported and the call goes on, except
// a fail-closed PreToolUse hook, which then blocks the call.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// @REGISTRATIONS@

// This file sits in <project>/@PLUGIN_DIR@/.
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LOG = join(ROOT, ".hookwrap", "logs", "@PLATFORM@-plugin.log");
// A Stop hook's block keeps the agent working (the reason becomes the next user message), at
// most MAX_KEEP_WORKING times in a row per session, so a hook that always blocks cannot loop.
const KEEP_WORKING = @KEEP_WORKING@;
const MAX_KEEP_WORKING = 8;
const PATCH_REWRITE_REASON = "hookwrap: a hook asked to rewrite this apply_patch call, and a " +
  "patch is not rewritten (the hooks checked the files it names); the call was blocked. " +
  "Make the change the hook asks for in a new patch.";

// @HOOK_RUNNER@

function show(line) {
  console.error(line);
}

// The runtime's HTTP client for `hookwrap serve`: Bun's fetch, its cheapest there, unless an HTTP
// proxy is set. Bun, which runs this plugin (1.3.14 as checked), sends even a request for
// 127.0.0.1 to http_proxy / HTTP_PROXY unless NO_PROXY names the host, with fetch and node:http
// alike, and no fetch option turns that off; the proxy would then answer for the hook (a
// fail-closed one would block every call). So with either set, the post goes over a loopback
// socket of its own, and the CLI's environment stays as it is for its other traffic.
function post(url, body, signal) {
  return process.env.http_proxy || process.env.HTTP_PROXY
    ? postDirect(url, body, signal) : postFetch(url, body, signal);
}

async function postFetch(url, body, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    signal,
  });
  return { status: response.status, text: await response.text() };
}

// A command's run, synchronously: for the Stop hooks of a CLI that keeps the agent working.
// `kilo run` ends as soon as nothing holds the session after session.idle, so the answer must
// be read, and the next message sent, before this process's event loop turns again. Bounded as
// runCommand is, as far as a synchronous run can be: on POSIX the hook gets a process group of
// its own, which is killed once the hook exits or times out (a `sleep 600 &` it left does not
// outlive it), and at MAX_OUTPUT bytes it is stopped. Bun (1.3.14, which runs this plugin)
// honours `detached` in its own Bun.spawnSync only, and returns when the hook exits even while a
// process it left behind holds its stdout; node's spawnSync (where there is no Bun) waits for
// the pipes until the timeout, and a hook that had exited by then has still answered.
function spawnHookSync(argv, input, cwd, timeoutMs) {
  if (typeof Bun !== "undefined" && typeof Bun.spawnSync === "function") {
    const run = Bun.spawnSync({
      cmd: argv, cwd, env: hookEnv(), stdin: Buffer.from(input), stdout: "pipe", stderr: "pipe",
      timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: MAX_OUTPUT, detached: !ON_WINDOWS,
      windowsHide: true,
    });
    return { pid: run.pid, status: run.exitCode, stdout: run.stdout, stderr: run.stderr,
             timedOut: Boolean(run.exitedDueToTimeout), overflow: Boolean(run.exitedDueToMaxBuffer),
             error: "" };
  }
  const [program, ...args] = argv;
  const run = spawnSync(program, args, {
    cwd, input, env: hookEnv(), timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: MAX_OUTPUT,
    detached: !ON_WINDOWS, windowsHide: true,
  });
  const code = run.error && run.error.code;
  return { pid: run.pid, status: run.status, stdout: run.stdout, stderr: run.stderr,
           timedOut: code === "ETIMEDOUT" && run.status === null, overflow: code === "ENOBUFS",
           // A hook that exits without reading its stdin leaves an EPIPE: its exit status counts.
           error: run.error && !run.stderr ? String(run.error) : "" };
}

function runCommandSync(handler, payload, cwd) {
  let result;
  try {
    result = spawnHookSync(commandArgv(handler), JSON.stringify(payload), cwd, timeoutMsOf(handler));
  } catch (error) {
    return { code: null, stdout: "", stderr: String(error), timedOut: false };
  }
  if (result.pid && !ON_WINDOWS) {
    try {
      process.kill(-result.pid, "SIGKILL"); // what the hook left in its group
    } catch {
      // Gone already, or no group of its own.
    }
  }
  const stopped = result.timedOut || result.overflow;
  return {
    code: typeof result.status === "number" && !stopped ? result.status : null,
    stdout: result.stdout ? result.stdout.toString("utf8").slice(0, MAX_OUTPUT) : "",
    stderr: result.stderr ? result.stderr.toString("utf8") : result.error,
    timedOut: result.timedOut,
    overflow: result.overflow,
  };
}

// The Stop hooks, in turn and synchronously (runCommandSync); returns a block's reason or null.
function stopBlockSync(payload, cwd) {
  for (const handler of handlersFor("Stop").filter((h) => h.type === "command")) {
    const result = runCommandSync(handler, payload, cwd);
    const answer = answerOf(result);
    if (answer === null) {
      report(`Stop hook \`${handler.command}\` ${failureOf(handler, result)}: the agent stops; ` +
             "run `hookwrap doctor`");
      continue;
    }
    if (typeof answer.systemMessage === "string" && answer.systemMessage) report(answer.systemMessage);
    if (answer.decision === "block" || answer.decision === "deny") {
      return typeof answer.reason === "string" && answer.reason
        ? answer.reason : "Blocked by a hookwrap hook.";
    }
  }
  return null;
}

// A patch is never rewritten: the hooks checked the files it names, and a new patch (or a
// write-style rewrite @LABEL@ would silently ignore) could touch others. The same patch handed
// back is no rewrite.
function refusePatchRewrite(updated, input) {
  const unchanged = Object.keys(updated).length === 1 && updated.patchText === input.patchText;
  return unchanged ? "" : PATCH_REWRITE_REASON;
}

function promptText(parts) {
  return (parts || [])
    .filter((part) => part && part.type === "text" && !part.synthetic && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

let partCounter = 0;
function partId() {
  partCounter += 1;
  return `prt_${Date.now().toString(16)}hookwrap${partCounter}`;
}

export const HookwrapPlugin = async (ctx) => {
  const directory = ctx.directory || process.cwd();
  const base = (event, sessionID) => ({
    hook_event_name: event,
    session_id: sessionID || "",
    cwd: directory,
    worktree: ctx.worktree || "",
  });
  const pending = new Map(); // callID -> PreToolUse context, delivered with the tool's output
  const starts = new Map(); // sessionID -> Promise of SessionStart context
  const keptWorking = new Map(); // sessionID -> Stop blocks in a row (stop_hook_active)
  const resuming = new Map(); // sessionID -> a Stop block's reason, sent as the next message

  return {
    "tool.execute.before": async (input, output) => {
      const payload = {
        ...base("PreToolUse", input.sessionID),
        tool_name: input.tool,
        tool_input: output.args,
        tool_use_id: input.callID || "",
      };
      const verdict = await runHooks("PreToolUse", payload, handlersFor("PreToolUse", input.tool),
                                     input.tool === "apply_patch" ? refusePatchRewrite : null);
      if (verdict.block) throw new Error(verdict.reason);
      if (verdict.updatedInput) rewriteInPlace(output.args, verdict.updatedInput);
      if (verdict.context.length) pending.set(input.callID, verdict.context);
    },

    "tool.execute.after": async (input, output) => {
      const context = pending.get(input.callID) || [];
      pending.delete(input.callID);
      const handlers = handlersFor("PostToolUse", input.tool);
      if (handlers.length) {
        const payload = {
          ...base("PostToolUse", input.sessionID),
          tool_name: input.tool,
          tool_input: input.args || {},
          tool_use_id: input.callID || "",
          tool_response: { output: output.output, title: output.title, metadata: output.metadata },
        };
        const verdict = await runHooks("PostToolUse", payload, handlers);
        if (verdict.block) output.output = verdict.reason;
        context.push(...verdict.context);
      }
      if (context.length) output.output = `${output.output ?? ""}\n\n${context.join("\n\n")}`;
    },

    "chat.message": async (input, output) => {
      const resumed = resuming.get(input.sessionID);
      resuming.delete(input.sessionID);
      // A Stop block's reason, sent by the event handler below, is no prompt of the user's.
      if (resumed !== undefined && promptText(output.parts).includes(resumed)) return;
      keptWorking.delete(input.sessionID);
      const handlers = handlersFor("UserPromptSubmit");
      if (!handlers.length) return;
      const payload = { ...base("UserPromptSubmit", input.sessionID), prompt: promptText(output.parts) };
      const verdict = await runHooks("UserPromptSubmit", payload, handlers);
      if (verdict.block) {
        report(`the prompt was blocked: ${verdict.reason}`);
        throw new Error(verdict.reason);
      }
      for (const text of verdict.context) {
        output.parts.push({
          id: partId(),
          type: "text",
          synthetic: true,
          text,
          messageID: output.message ? output.message.id : undefined,
          sessionID: input.sessionID,
        });
      }
    },

    "experimental.chat.system.transform": async (input, output) => {
      const start = starts.get(input.sessionID);
      if (!start) return;
      const context = await start;
      if (context) output.system.push(context);
    },

    event: async ({ event }) => {
      if (!event) return;
      const props = event.properties || {};
      if (event.type === "session.created" && handlersFor("SessionStart").length) {
        const sessionID = props.sessionID || (props.info && props.info.id);
        const payload = { ...base("SessionStart", sessionID), source: "startup" };
        starts.set(sessionID, runHooks("SessionStart", payload, handlersFor("SessionStart"))
          .then((verdict) => verdict.context.join("\n\n")));
      } else if (event.type === "session.idle" && handlersFor("Stop").length && !KEEP_WORKING) {
        const payload = { ...base("Stop", props.sessionID), stop_hook_active: false };
        // @LABEL@ does not wait for this, and cannot be kept working: notify only.
        await runHooks("Stop", payload, handlersFor("Stop"));
      } else if (event.type === "session.idle" && handlersFor("Stop").length && props.sessionID) {
        // No await before the next message is sent: the run would end in between.
        const sessionID = props.sessionID;
        const blocks = keptWorking.get(sessionID) || 0;
        const payload = { ...base("Stop", sessionID), stop_hook_active: blocks > 0 };
        const reason = stopBlockSync(payload, directory);
        keptWorking.delete(sessionID);
        if (reason === null) return;
        if (blocks >= MAX_KEEP_WORKING) {
          report(`a Stop hook blocked ${blocks} times in a row: the agent stops (${reason})`);
          return;
        }
        keptWorking.set(sessionID, blocks + 1);
        resuming.set(sessionID, reason);
        try {
          await ctx.client.session.prompt({
            path: { id: sessionID },
            body: { parts: [{ type: "text", text: reason }] },
          });
        } catch (error) {
          resuming.delete(sessionID);
          report(`a Stop hook blocked, and the agent could not be kept working: ${error}`);
        }
      }
    },
  };
};
