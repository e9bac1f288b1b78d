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
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// @REGISTRATIONS@

// This file sits in <project>/@PLUGIN_DIR@/.
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LOG = join(ROOT, ".hookwrap", "logs", "@PLATFORM@-plugin.log");
const DEFAULT_TIMEOUT_S = 60;
// A Stop hook's block keeps the agent working (the reason becomes the next user message), at
// most MAX_KEEP_WORKING times in a row per session, so a hook that always blocks cannot loop.
const KEEP_WORKING = @KEEP_WORKING@;
const MAX_KEEP_WORKING = 8;
const PATCH_REWRITE_REASON = "hookwrap: a hook asked to rewrite this apply_patch call, and a " +
  "patch is not rewritten (the hooks checked the files it names); the call was blocked. " +
  "Make the change the hook asks for in a new patch.";

function report(message) {
  const line = `hookwrap: ${message}`;
  console.error(line);
  try {
    mkdirSync(dirname(LOG), { recursive: true });
    appendFileSync(LOG, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // Reporting must never break the call.
  }
}

function handlersFor(event, toolName) {
  const groups = (REGISTRATIONS.hooks || {})[event] || [];
  const found = [];
  for (const group of groups) {
    if (toolName !== undefined && typeof group.matcher === "string" && group.matcher !== "*") {
      let matches = false;
      try {
        matches = new RegExp(group.matcher).test(toolName);
      } catch {
        matches = false;
      }
      if (!matches) continue;
    }
    for (const handler of group.hooks || []) {
      if (handler && handler.type === "command" && typeof handler.command === "string") {
        found.push(handler);
      } else if (handler && handler.type === "http" && typeof handler.url === "string") {
        found.push(handler); // a resident hook: answered by `hookwrap serve`
      }
    }
  }
  return found;
}

// A resident hook: POST the payload to `hookwrap serve` (no process per call). HTTP 200 is the
// answer, as a command's stdout at exit 0; a refused connection, a hang past the timeout or any
// other status is a hook that could not answer (a fail-closed one blocks the call).
async function postHook(handler, payload) {
  const timeoutMs = Math.max(1, Number(handler.timeout) || DEFAULT_TIMEOUT_S) * 1000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(handler.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      signal: controller.signal,
    });
    const text = await response.text();
    return response.status === 200
      ? { code: 0, stdout: text, stderr: "", timedOut: false }
      : { code: null, stdout: "", stderr: `HTTP ${response.status} from ${handler.url}: ${text}`, timedOut: false };
  } catch (error) {
    const timedOut = controller.signal.aborted;
    const cause = error && error.cause ? ` (${error.cause.code || error.cause})` : "";
    return { code: null, stdout: "", timedOut,
             stderr: `${handler.url}: ${error}${cause}; is \`hookwrap serve\` running?` };
  } finally {
    clearTimeout(timer);
  }
}

function runCommand(handler, payload, cwd) {
  if (handler.type === "http") return postHook(handler, payload);
  const timeoutMs = Math.max(1, Number(handler.timeout) || DEFAULT_TIMEOUT_S) * 1000;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn("/bin/sh", ["-c", handler.command], {
        cwd,
        detached: true, // its own process group: a timeout kills the hook and its children
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, HOOKWRAP_PROJECT_DIR: ROOT, @MARKER_ENV@: "1" },
      });
    } catch (error) {
      resolve({ code: null, stdout: "", stderr: String(error), timedOut: false });
      return;
    }
    const out = [];
    const err = [];
    let timedOut = false;
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        try { child.kill("SIGKILL"); } catch { /* gone already */ }
      }
    }, timeoutMs);
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", (error) => finish({ code: null, stdout: "", stderr: String(error), timedOut }));
    child.on("close", (code) => finish({
      code,
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      timedOut,
    }));
    child.stdin.on("error", () => {}); // a hook that exits without reading stdin
    child.stdin.end(JSON.stringify(payload));
  });
}

// The same run, synchronously: for the Stop hooks of a CLI that keeps the agent working.
// `kilo run` ends as soon as nothing holds the session after session.idle, so the answer must
// be read, and the next message sent, before this process's event loop turns again.
function runCommandSync(handler, payload, cwd) {
  const timeoutS = Math.max(1, Number(handler.timeout) || DEFAULT_TIMEOUT_S);
  const result = spawnSync("/bin/sh", ["-c", handler.command], {
    cwd,
    input: JSON.stringify(payload),
    timeout: timeoutS * 1000,
    killSignal: "SIGKILL",
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, HOOKWRAP_PROJECT_DIR: ROOT, @MARKER_ENV@: "1" },
  });
  const timedOut = Boolean(result.error && result.error.code === "ETIMEDOUT");
  return {
    // A hook that exits without reading its stdin leaves an EPIPE in result.error: its exit
    // status still counts.
    code: typeof result.status === "number" && !timedOut ? result.status : null,
    stdout: result.stdout ? result.stdout.toString("utf8") : "",
    stderr: result.stderr ? result.stderr.toString("utf8") : String(result.error || ""),
    timedOut,
  };
}

function answerOf(result) {
  if (result.code !== 0 || result.timedOut) return null;
  const text = result.stdout.trim();
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {}; // plain text is not an answer, and not a failure either
  }
}

function lastLine(text) {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] || "";
}

function failureOf(handler, result) {
  if (result.timedOut) return `timed out after ${Number(handler.timeout) || DEFAULT_TIMEOUT_S} s`;
  if (handler.type === "http") return `could not answer: ${lastLine(result.stderr)}`;
  return `exited ${result.code === null ? "abnormally" : result.code} without an answer` +
      (result.stderr.trim() ? ` (${lastLine(result.stderr)})` : "");
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

// Run every hook of one event in turn; a later hook sees an earlier one's rewrite. Returns
// { block, reason, context: [], updatedInput }.
async function runHooks(event, payload, cwd, toolName) {
  const verdict = { block: false, reason: "", context: [], updatedInput: null };
  for (const handler of handlersFor(event, toolName)) {
    const result = await runCommand(handler, payload, cwd);
    const answer = answerOf(result);
    if (answer === null) {
      const why = failureOf(handler, result);
      const failClosed = handler.failClosed === true && event === "PreToolUse";
      report(`${event} hook \`${handler.command || handler.url}\` ${why}` +
             (failClosed ? ": it fails closed, so the call is blocked" : ": the call goes on") +
             "; run `hookwrap doctor`");
      if (failClosed) {
        verdict.block = true;
        verdict.reason = `hookwrap: a fail-closed hook could not run (${why}); the call was blocked. ` +
          "Run `hookwrap doctor` in the project.";
        return verdict;
      }
      continue;
    }
    if (typeof answer.systemMessage === "string" && answer.systemMessage) report(answer.systemMessage);
    if (typeof answer.additionalContext === "string" && answer.additionalContext) {
      verdict.context.push(answer.additionalContext);
    }
    if (answer.decision === "block" || answer.decision === "deny") {
      verdict.block = true;
      verdict.reason = typeof answer.reason === "string" && answer.reason
        ? answer.reason : "Blocked by a hookwrap hook.";
      return verdict;
    }
    const updated = answer.updatedInput;
    if (updated && typeof updated === "object" && !Array.isArray(updated) && payload.tool_input) {
      const unchanged = Object.keys(updated).length === 1 &&
        updated.patchText === payload.tool_input.patchText;
      if (event === "PreToolUse" && toolName === "apply_patch" && !unchanged) {
        // A patch is never rewritten: the hooks checked the files it names, and a new patch
        // (or a write-style rewrite @LABEL@ would silently ignore) could touch others.
        verdict.block = true;
        verdict.reason = PATCH_REWRITE_REASON;
        return verdict;
      }
      verdict.updatedInput = updated;
      payload = { ...payload, tool_input: updated };
    }
  }
  return verdict;
}

// @LABEL@ passes its own object to the tool: only changes made in place count.
function rewriteInPlace(args, updated) {
  for (const key of Object.keys(args)) {
    if (!(key in updated)) delete args[key];
  }
  Object.assign(args, updated);
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
      const verdict = await runHooks("PreToolUse", payload, directory, input.tool);
      if (verdict.block) throw new Error(verdict.reason);
      if (verdict.updatedInput) rewriteInPlace(output.args, verdict.updatedInput);
      if (verdict.context.length) pending.set(input.callID, verdict.context);
    },

    "tool.execute.after": async (input, output) => {
      const context = pending.get(input.callID) || [];
      pending.delete(input.callID);
      if (handlersFor("PostToolUse", input.tool).length) {
        const payload = {
          ...base("PostToolUse", input.sessionID),
          tool_name: input.tool,
          tool_input: input.args || {},
          tool_use_id: input.callID || "",
          tool_response: { output: output.output, title: output.title, metadata: output.metadata },
        };
        const verdict = await runHooks("PostToolUse", payload, directory, input.tool);
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
      if (!handlersFor("UserPromptSubmit").length) return;
      const payload = { ...base("UserPromptSubmit", input.sessionID), prompt: promptText(output.parts) };
      const verdict = await runHooks("UserPromptSubmit", payload, directory);
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
        starts.set(sessionID, runHooks("SessionStart", payload, directory)
          .then((verdict) => verdict.context.join("\n\n")));
      } else if (event.type === "session.idle" && handlersFor("Stop").length && !KEEP_WORKING) {
        const payload = { ...base("Stop", props.sessionID), stop_hook_active: false };
        // @LABEL@ does not wait for this, and cannot be kept working: notify only.
        await runHooks("Stop", payload, directory);
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
