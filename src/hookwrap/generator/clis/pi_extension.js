// hookwrap: generated pi extension.
// It runs this repository's hookwrap hooks (hookwrap.toml) as commands: one JSON payload on
// stdin, one JSON answer on stdout. `hookwrap sync` rewrites this whole file: edit hookwrap.toml,
// or the hook scripts in .hookwrap/hooks/, never this file. Plain JavaScript, no dependencies.
//
// Events: PreToolUse (tool_call; and user_bash, a user's `!cmd`, as a call of the bash tool:
// a block keeps it from running and shows the reason), PostToolUse and PostToolUseFailure (tool_result, by its
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
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// @REGISTRATIONS@

// This file sits in <project>/.pi/extensions/.
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LOG = join(ROOT, ".hookwrap", "logs", "pi-extension.log");

// @HOOK_RUNNER@

let ui = null; // pi's UI, when it has one (not in print mode)

function show(line) {
  if (ui) ui.notify(line, "warning");
  else console.error(line);
}

// The HTTP client for `hookwrap serve`: the hook runner's own loopback one (postDirect), one
// kept connection and one write a post. Node's http agent, with its connection kept too, cost
// about three times its CPU a call in pi 0.73.1's node (0.72 against 0.26 ms warm, 1.0-1.4
// against 0.4-0.6 ms over a fresh process's first 30 calls; benchmarks/run.py --cli).
function post(url, body, signal) {
  return postDirect(url, body, signal);
}

function textOf(content) {
  return (Array.isArray(content) ? content : [])
    .filter((part) => part && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

export default function hookwrap(pi) {
  const pending = new Map(); // toolCallId -> PreToolUse context, delivered with the tool's result
  let starting = null; // Promise of the SessionStart context
  let promptContext = []; // UserPromptSubmit context, added after the prompt

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

  // A user's `!cmd` or `!!cmd` (interactive mode, 0.73.1) runs no tool: user_bash is its only
  // hook. The bash tool's PreToolUse hooks see it as a bash call; a block (or a rewrite, which
  // pi cannot apply to a typed command) becomes its result, and the command does not run.
  pi.on("user_bash", async (event, ctx) => {
    const handlers = handlersFor("PreToolUse", "bash");
    if (!handlers.length) return undefined;
    const payload = {
      ...base("PreToolUse", ctx),
      cwd: event.cwd || (ctx && ctx.cwd) || process.cwd(),
      tool_name: "bash",
      tool_input: { command: event.command },
      tool_use_id: "",
    };
    const verdict = await runHooks("PreToolUse", payload, handlers);
    let reason = "";
    if (verdict.block) reason = verdict.reason || "blocked by a hook";
    else if (verdict.updatedInput) {
      reason = `a hook rewrote this command, which pi cannot do to a typed one: ${JSON.stringify(verdict.updatedInput)}`;
    } else return undefined;
    return { result: { output: `${reason}\n`, exitCode: 1, cancelled: false, truncated: false } };
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
