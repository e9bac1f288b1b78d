// hookwrap: generated pi extension.
// It runs this repository's hookwrap hooks (hookwrap.toml) as commands: one JSON payload on
// stdin, one JSON answer on stdout. `hookwrap sync` rewrites this whole file: edit hookwrap.toml,
// or the hook scripts in .hookwrap/hooks/, never this file. Plain JavaScript, no dependencies.
//
// Events: PreToolUse (tool_call), PostToolUse and PostToolUseFailure (tool_result, by its
// isError), UserPromptSubmit (input), SessionStart (session_start), Stop (agent_end),
// SessionEnd (session_shutdown). Answers applied: "decision": "block" + "reason" (PreToolUse:
// the tool does not run and the model gets the reason; PostToolUse: the tool's result is
// replaced by it; UserPromptSubmit: the prompt is dropped), "updatedInput" (PreToolUse: the
// arguments are changed in place), "additionalContext" (appended to the tool's result, added
// as a message after the prompt, or to the system prompt for SessionStart), "systemMessage"
// (printed for the user). A hook that cannot answer (python3 or its script missing, a crash
// outside hookwrap, a timeout) is reported and the call goes on, except a fail-closed
// PreToolUse hook, which then blocks the call. A resident hook ("type": "http") is posted to
// `hookwrap serve` instead of run as a command; a refused connection, a status other than 200
// or a timeout is a hook that could not answer, with the same rules.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// @REGISTRATIONS@

// This file sits in <project>/.pi/extensions/.
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LOG = join(ROOT, ".hookwrap", "logs", "pi-extension.log");
const DEFAULT_TIMEOUT_S = 60;
const SERVER = new Agent({ keepAlive: true }); // one connection to `hookwrap serve`, kept open

function handlersFor(event, target) {
  const groups = (REGISTRATIONS.hooks || {})[event] || [];
  const found = [];
  for (const group of groups) {
    if (target !== undefined && typeof group.matcher === "string" && group.matcher !== "*") {
      let matches = false;
      try {
        matches = new RegExp(group.matcher).test(target);
      } catch {
        matches = false;
      }
      if (!matches) continue;
    }
    for (const handler of group.hooks || []) {
      if (handler && ((handler.type === "command" && typeof handler.command === "string") ||
                      (handler.type === "http" && typeof handler.url === "string"))) {
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
        env: { ...process.env, HOOKWRAP_PROJECT_DIR: ROOT, HOOKWRAP_PI: "1" },
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

// POST the payload to the resident server; the answer as runCommand's result (HTTP 200 is exit 0).
function postHook(handler, payload) {
  const timeoutMs = Math.max(1, Number(handler.timeout) || DEFAULT_TIMEOUT_S) * 1000;
  const body = Buffer.from(JSON.stringify(payload));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let req;
    const timer = setTimeout(() => {
      finish({ code: null, stdout: "", stderr: "", timedOut: true });
      if (req) req.destroy();
    }, timeoutMs);
    try {
      req = request(handler.url, {
        method: "POST",
        agent: SERVER,
        headers: { "Content-Type": "application/json", "Content-Length": body.length },
      }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("error", (error) => finish({ code: null, stdout: "", stderr: String(error), timedOut: false }));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          finish(res.statusCode === 200
            ? { code: 0, stdout: text, stderr: "", timedOut: false }
            : { code: null, stdout: "", stderr: `HTTP ${res.statusCode} from ${handler.url}: ${text}`, timedOut: false });
        });
      });
      req.on("error", (error) => finish({
        code: null, stdout: "", timedOut: false,
        stderr: `${handler.url}: ${error.message}; is \`hookwrap serve\` running?`,
      }));
      req.end(body);
    } catch (error) {
      finish({ code: null, stdout: "", stderr: String(error), timedOut: false });
    }
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

function textOf(content) {
  return (Array.isArray(content) ? content : [])
    .filter((part) => part && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

// pi hands its own object to the tool: only changes made in place count.
function rewriteInPlace(args, updated) {
  for (const key of Object.keys(args)) {
    if (!(key in updated)) delete args[key];
  }
  Object.assign(args, updated);
}

export default function hookwrap(pi) {
  let ui = null; // pi's UI, when it has one (not in print mode)
  const pending = new Map(); // toolCallId -> PreToolUse context, delivered with the tool's result
  let starting = null; // Promise of the SessionStart context
  let promptContext = []; // UserPromptSubmit context, added after the prompt

  function report(message) {
    const line = `hookwrap: ${message}`;
    try {
      if (ui) ui.notify(line, "warning");
      else console.error(line);
      mkdirSync(dirname(LOG), { recursive: true });
      appendFileSync(LOG, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // Reporting must never break the call.
    }
  }

  function base(event, ctx) {
    const session = ctx && ctx.sessionManager;
    if (ctx && ctx.hasUI) ui = ctx.ui;
    return {
      hook_event_name: event,
      session_id: (session && session.getSessionId && session.getSessionId()) || "",
      transcript_path: (session && session.getSessionFile && session.getSessionFile()) || "",
      cwd: (ctx && ctx.cwd) || process.cwd(),
    };
  }

  // Run the hooks of one event in turn; a later hook sees an earlier one's rewrite. Returns
  // { block, reason, context: [], updatedInput }.
  async function runHooks(event, payload, handlers) {
    const verdict = { block: false, reason: "", context: [], updatedInput: null };
    for (const handler of handlers) {
      const resident = handler.type === "http";
      const result = resident ? await postHook(handler, payload) : await runCommand(handler, payload, payload.cwd);
      const answer = answerOf(result);
      if (answer === null) {
        const why = result.timedOut
          ? `timed out after ${Number(handler.timeout) || DEFAULT_TIMEOUT_S} s`
          : resident ? `failed (${lastLine(result.stderr)})`
          : `exited ${result.code === null ? "abnormally" : result.code} without an answer` +
            (result.stderr.trim() ? ` (${lastLine(result.stderr)})` : "");
        const failClosed = handler.failClosed === true && event === "PreToolUse";
        report(`${event} hook \`${resident ? handler.url : handler.command}\` ${why}` +
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
        verdict.updatedInput = updated;
        payload = { ...payload, tool_input: updated };
      }
    }
    return verdict;
  }

  pi.on("session_start", async (event, ctx) => {
    const handlers = handlersFor("SessionStart", event.reason);
    if (!handlers.length) return;
    const payload = { ...base("SessionStart", ctx), source: event.reason || "startup" };
    starting = runHooks("SessionStart", payload, handlers).then((verdict) => verdict.context.join("\n\n"));
  });

  pi.on("input", async (event, ctx) => {
    const handlers = handlersFor("UserPromptSubmit");
    if (!handlers.length) return undefined;
    const payload = { ...base("UserPromptSubmit", ctx), prompt: event.text || "" };
    const verdict = await runHooks("UserPromptSubmit", payload, handlers);
    if (verdict.block) {
      // pi drops a handled prompt without a word: say why.
      report(`the prompt was blocked: ${verdict.reason}`);
      return { action: "handled" };
    }
    promptContext.push(...verdict.context);
    return undefined;
  });

  pi.on("before_agent_start", async (event) => {
    const result = {};
    const start = starting ? await starting : "";
    if (start) result.systemPrompt = `${event.systemPrompt}\n\n${start}`;
    if (promptContext.length) {
      result.message = { customType: "hookwrap", content: promptContext.join("\n\n"), display: false };
      promptContext = [];
    }
    return Object.keys(result).length ? result : undefined;
  });

  pi.on("tool_call", async (event, ctx) => {
    const handlers = handlersFor("PreToolUse", event.toolName);
    if (!handlers.length) return undefined;
    const payload = {
      ...base("PreToolUse", ctx),
      tool_name: event.toolName,
      tool_input: event.input,
      tool_use_id: event.toolCallId || "",
    };
    const verdict = await runHooks("PreToolUse", payload, handlers);
    if (verdict.block) return { block: true, reason: verdict.reason };
    if (verdict.updatedInput) rewriteInPlace(event.input, verdict.updatedInput);
    if (verdict.context.length) pending.set(event.toolCallId, verdict.context);
    return undefined;
  });

  pi.on("tool_result", async (event, ctx) => {
    const context = pending.get(event.toolCallId) || [];
    pending.delete(event.toolCallId);
    // pi fires tool_result for failed tools too (isError): those are PostToolUseFailure.
    const name = event.isError ? "PostToolUseFailure" : "PostToolUse";
    const handlers = handlersFor(name, event.toolName);
    const result = {};
    if (handlers.length) {
      const payload = {
        ...base(name, ctx),
        tool_name: event.toolName,
        tool_input: event.input || {},
        tool_use_id: event.toolCallId || "",
        tool_response: { content: event.content, details: event.details, isError: event.isError === true },
      };
      if (event.isError) payload.error = textOf(event.content);
      const verdict = await runHooks(name, payload, handlers);
      if (verdict.block) {
        result.content = [{ type: "text", text: verdict.reason }];
        result.isError = true;
      }
      context.push(...verdict.context);
    }
    if (context.length) {
      result.content = [...(result.content || event.content || []), { type: "text", text: context.join("\n\n") }];
    }
    return Object.keys(result).length ? result : undefined;
  });

  pi.on("agent_end", async (event, ctx) => {
    const handlers = handlersFor("Stop");
    if (!handlers.length) return;
    const messages = Array.isArray(event.messages) ? event.messages : [];
    const last = [...messages].reverse().find((m) => m && m.role === "assistant");
    const payload = {
      ...base("Stop", ctx),
      stop_hook_active: false,
      last_assistant_message: last ? textOf(last.content) : "",
    };
    // pi does not wait for agent_end, and cannot be kept working: notify only.
    const verdict = await runHooks("Stop", payload, handlers);
    if (verdict.block) report(`a Stop hook asked to keep working, which pi cannot do here: ${verdict.reason}`);
  });

  pi.on("session_shutdown", async (event, ctx) => {
    const handlers = handlersFor("SessionEnd", event.reason);
    if (!handlers.length) return;
    await runHooks("SessionEnd", { ...base("SessionEnd", ctx), reason: event.reason || "" }, handlers);
  });
}
