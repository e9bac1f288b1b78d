// hookwrap: generated OpenCode plugin.
// It runs this repository's hookwrap hooks (hookwrap.toml) as commands: one JSON payload on
// stdin, one JSON answer on stdout. `hookwrap sync` rewrites this whole file: edit hookwrap.toml,
// or the hook scripts in .hookwrap/hooks/, never this file. Plain JavaScript, no dependencies.
//
// Answers applied: "decision": "block" + "reason" (PreToolUse: the tool does not run and the
// model gets the reason; PostToolUse: the tool's output is replaced by it; UserPromptSubmit: the
// prompt is refused), "updatedInput" (PreToolUse: the arguments are changed in place; an
// apply_patch call is blocked instead),
// "additionalContext" (appended to the tool's output, added to the prompt, or a system string
// for SessionStart), "systemMessage" (printed for the user). A hook that cannot answer (python3
// or its script missing, a crash outside hookwrap, a timeout) is reported and the call goes on,
// except a fail-closed PreToolUse hook, which then blocks the call.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// @REGISTRATIONS@

// This file sits in <project>/.opencode/plugins/.
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LOG = join(ROOT, ".hookwrap", "logs", "opencode-plugin.log");
const DEFAULT_TIMEOUT_S = 60;
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
      }
    }
  }
  return found;
}

function runCommand(handler, payload, cwd) {
  const timeoutMs = Math.max(1, Number(handler.timeout) || DEFAULT_TIMEOUT_S) * 1000;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn("/bin/sh", ["-c", handler.command], {
        cwd,
        detached: true, // its own process group: a timeout kills the hook and its children
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, HOOKWRAP_PROJECT_DIR: ROOT, HOOKWRAP_OPENCODE: "1" },
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

// Run every hook of one event in turn; a later hook sees an earlier one's rewrite. Returns
// { block, reason, context: [], updatedInput }.
async function runHooks(event, payload, cwd, toolName) {
  const verdict = { block: false, reason: "", context: [], updatedInput: null };
  for (const handler of handlersFor(event, toolName)) {
    const result = await runCommand(handler, payload, cwd);
    const answer = answerOf(result);
    if (answer === null) {
      const why = result.timedOut
        ? `timed out after ${Number(handler.timeout) || DEFAULT_TIMEOUT_S} s`
        : `exited ${result.code === null ? "abnormally" : result.code} without an answer` +
          (result.stderr.trim() ? ` (${lastLine(result.stderr)})` : "");
      const failClosed = handler.failClosed === true && event === "PreToolUse" && !result.timedOut;
      report(`${event} hook \`${handler.command}\` ${why}` +
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
      if (toolName === "apply_patch" && !unchanged) {
        // A patch is never rewritten: the hooks checked the files it names, and a new patch
        // (or a write-style rewrite OpenCode would silently ignore) could touch others.
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

// OpenCode passes its own object to the tool: only changes made in place count.
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
      } else if (event.type === "session.idle" && handlersFor("Stop").length) {
        const payload = { ...base("Stop", props.sessionID), stop_hook_active: false };
        // OpenCode does not wait for this, and cannot be kept working: notify only.
        await runHooks("Stop", payload, directory);
      }
    },
  };
};
