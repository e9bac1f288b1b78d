// --- hookwrap's hook runner: the part every hookwrap JS shim shares (one source in hookwrap,
// generator/clis/hook_runner.js, pasted into each shim when it is rendered). It selects an
// event's hooks, runs each as a command or posts it to `hookwrap serve`, reads the answer and
// applies the fail-closed rule. The shim around it defines ROOT, LOG, show(line) (how its CLI
// shows a line to the user) and post(url, body, signal) (its runtime's HTTP client, resolving
// { status, text }), and maps its CLI's events onto runHooks.
const DEFAULT_TIMEOUT_S = 60;

function report(message) {
  const line = `hookwrap: ${message}`;
  try {
    show(line);
  } catch {
    // Reporting must never break the call.
  }
  try {
    mkdirSync(dirname(LOG), { recursive: true });
    appendFileSync(LOG, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // Nor must the log.
  }
}

// The handlers of an event's groups whose matcher (a regex, hookwrap anchors it) selects target:
// the tool's name, or a lifecycle value; every group when there is no target.
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
      if (handler && handler.type === "command" && typeof handler.command === "string") {
        found.push(handler);
      } else if (handler && handler.type === "http" && typeof handler.url === "string") {
        found.push(handler); // a resident hook: answered by `hookwrap serve`
      }
    }
  }
  return found;
}

function timeoutOf(handler) {
  return Number(handler.timeout) || DEFAULT_TIMEOUT_S; // seconds
}

function timeoutMsOf(handler) {
  return Math.max(1, timeoutOf(handler)) * 1000;
}

// The environment of a hook process: the project it belongs to, and which CLI runs it.
function hookEnv() {
  return { ...process.env, HOOKWRAP_PROJECT_DIR: ROOT, @MARKER_ENV@: "1" };
}

// A hook's run, as { code, stdout, stderr, timedOut }: a command's process, or a resident hook's
// POST (HTTP 200 stands for exit 0).
function runHook(handler, payload) {
  return handler.type === "http" ? postHook(handler, payload) : runCommand(handler, payload, payload.cwd);
}

// A command's wait is bounded whatever the hook does (as hookwrap's hookproc.py): it ends
// GRACE_MS after the hook process exits even when a process it left behind still holds its
// stdout or stderr (a `sleep 600 &`, a daemon in a session of its own), at the timeout, or once
// it has written MAX_OUTPUT bytes; then its whole process group is killed.
const GRACE_MS = 500;
const MAX_OUTPUT = 8 * 1024 * 1024;

// The program and arguments a command hook is started with. On Windows, the handler's
// argvWindows (the interpreter, the launcher relative to the project, its arguments) as an
// argument vector: no shell (Windows has no /bin/sh), so nothing reparses a word. Elsewhere the
// command as written, through /bin/sh.
function commandArgv(handler) {
  if (process.platform === "win32" && Array.isArray(handler.argvWindows)) {
    return handler.argvWindows.map((word) => (word.startsWith(".hookwrap/") ? `${ROOT}/${word}` : word));
  }
  return ["/bin/sh", "-c", handler.command];
}
const ON_WINDOWS = process.platform === "win32";

function runCommand(handler, payload, cwd) {
  return new Promise((resolve) => {
    let child;
    try {
      const [program, ...args] = commandArgv(handler);
      child = spawn(program, args, {
        cwd,
        // Its own process group (POSIX): a timeout kills the hook and its children. On Windows
        // detached would only take it out of the CLI's job and console.
        detached: !ON_WINDOWS,
        windowsHide: true,
        stdio: ["pipe", "pipe", "pipe"],
        env: hookEnv(),
      });
    } catch (error) {
      resolve({ code: null, stdout: "", stderr: String(error), timedOut: false });
      return;
    }
    const out = [];
    const err = [];
    let size = 0;
    let timedOut = false;
    let overflow = false;
    let exitCode;
    let settled = false;
    let grace;
    const killGroup = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        try { child.kill("SIGKILL"); } catch { /* gone already */ }
      }
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      child.stdout.destroy(); // a process left behind may hold them: stop reading
      child.stderr.destroy();
      const stopped = timedOut || overflow;
      resolve({
        code: stopped || exitCode === undefined ? null : exitCode,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut,
        overflow,
      });
    };
    const stop = () => {
      killGroup();
      finish();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMsOf(handler));
    const keep = (chunks) => (chunk) => {
      if (settled) return;
      chunks.push(chunk.subarray(0, Math.max(0, MAX_OUTPUT - size)));
      size += chunk.length;
      if (size >= MAX_OUTPUT) {
        overflow = true;
        stop();
      }
    };
    child.stdout.on("data", keep(out));
    child.stderr.on("data", keep(err));
    child.on("error", (error) => {
      err.push(Buffer.from(String(error)));
      finish();
    });
    child.on("exit", (code) => {
      exitCode = code;
      // What the hook wrote before it exited is read by then; what is left in its group goes.
      grace = setTimeout(stop, GRACE_MS);
    });
    child.on("close", finish);
    child.stdin.on("error", () => {}); // a hook that exits without reading stdin
    child.stdin.end(JSON.stringify(payload));
  });
}

// A resident hook: POST the payload to `hookwrap serve` (no process per call). A refused
// connection, no answer within the timeout (the request is then aborted) or a status other
// than 200 is a hook that could not answer (a fail-closed one blocks the call).
async function postHook(handler, payload) {
  const controller = new AbortController();
  let timer;
  const expired = new Promise((resolve) => {
    timer = setTimeout(() => {
      resolve(null);
      controller.abort();
    }, timeoutMsOf(handler));
  });
  try {
    const response = await Promise.race([post(handler.url, JSON.stringify(payload), controller.signal), expired]);
    if (response === null) return { code: null, stdout: "", stderr: "", timedOut: true };
    return response.status === 200
      ? { code: 0, stdout: response.text, stderr: "", timedOut: false }
      : { code: null, stdout: "", stderr: `HTTP ${response.status} from ${handler.url}: ${response.text}`, timedOut: false };
  } catch (error) {
    const cause = error && error.cause ? ` (${error.cause.code || error.cause})` : "";
    return { code: null, stdout: "", timedOut: controller.signal.aborted,
             stderr: `${handler.url}: ${error}${cause}; is \`hookwrap serve\` running?` };
  } finally {
    clearTimeout(timer);
  }
}

// A POST straight to the URL's host and port on a socket of the shim's own (node:net's connect,
// which the shim imports; never a proxy), on the connection the previous post left open when
// there is one: a new connection costs a handshake and a thread of the server's on every call.
// The request goes out in one write; the answer is read by its Content-Length (`hookwrap serve`
// always sends one) or to the close. A connection waits in IDLE only while it is open and no
// post uses it, and unref'd, so it never keeps the CLI's process alive.
const IDLE = new Map(); // "host:port" -> { socket, drop }: an open connection no post uses

function postDirect(url, body, signal) {
  const target = new URL(url);
  const port = Number(target.port) || 80;
  const key = `${target.hostname}:${port}`;
  const kept = take(key);
  const data = Buffer.from(body);
  const head = `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${data.length}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = kept || connect({ host: target.hostname, port, noDelay: true });
    const abort = () => finish(new Error("the request was aborted"));
    function onData(chunk) {
      received = Buffer.concat([received, chunk]);
      read(false);
    }
    const onEnd = () => read(true);
    const onError = (error) => finish(error);
    function finish(error, answer, reusable) {
      if (settled) return;
      settled = true;
      if (signal) signal.removeEventListener("abort", abort);
      socket.off("data", onData).off("end", onEnd).off("close", onEnd).off("error", onError);
      if (reusable && !IDLE.has(key)) park(key, socket);
      else socket.destroy();
      if (error) reject(error);
      else resolve(answer);
    }
    function read(ended) {
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) {
        if (ended) finish(new Error("the connection closed without an HTTP answer"));
        return;
      }
      const lines = received.subarray(0, end).toString("latin1").split("\r\n");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
      if (!status) {
        finish(new Error(`not an HTTP answer: ${lines[0].slice(0, 80)}`));
        return;
      }
      const field = lines.find((line) => /^content-length:/i.test(line));
      const length = field === undefined ? -1 : Number(field.slice(field.indexOf(":") + 1));
      // An HTTP/1.0 answer closes its connection unless it says keep-alive (RFC 9112, 9.3).
      const closes = lines[0].startsWith("HTTP/1.0 ")
        ? !lines.some((line) => /^connection:\s*keep-alive\s*$/i.test(line))
        : lines.some((line) => /^connection:\s*close\s*$/i.test(line));
      const rest = received.subarray(end + 4);
      if (length >= 0 && rest.length >= length) {
        const answer = { status: Number(status[1]), text: rest.subarray(0, length).toString("utf8") };
        finish(null, answer, !ended && !closes && rest.length === length);
      } else if (ended && length < 0) {
        finish(null, { status: Number(status[1]), text: rest.toString("utf8") });
      } else if (ended) {
        finish(new Error("the connection closed in the middle of the answer"));
      }
    }
    if (signal) {
      if (signal.aborted) return abort();
      signal.addEventListener("abort", abort);
    }
    socket.on("data", onData).on("end", onEnd).on("close", onEnd).on("error", onError);
    const request = Buffer.concat([Buffer.from(head, "latin1"), data]); // one segment
    if (kept) {
      kept.ref();
      kept.write(request);
    } else {
      socket.on("connect", () => socket.write(request));
    }
  });
}

// An open connection kept for the next post, dropped as soon as the server closes it; take()
// hands it out (null when there is none).
function park(key, socket) {
  const drop = () => {
    if (IDLE.get(key) && IDLE.get(key).socket === socket) IDLE.delete(key);
    socket.destroy();
  };
  socket.once("end", drop).once("close", drop).once("error", drop);
  socket.unref();
  IDLE.set(key, { socket, drop });
}

function take(key) {
  const idle = IDLE.get(key);
  IDLE.delete(key);
  if (!idle) return null;
  idle.socket.off("end", idle.drop).off("close", idle.drop).off("error", idle.drop);
  return idle.socket.destroyed ? null : idle.socket;
}

// A finished run's answer: the JSON object on stdout at exit 0 ({} for anything else there), or
// null for a hook that could not answer.
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
  if (result.timedOut) return `timed out after ${timeoutOf(handler)} s`;
  if (result.overflow) return `wrote more than ${MAX_OUTPUT / 1024 / 1024} MiB and was stopped`;
  if (handler.type === "http") return `could not answer: ${lastLine(result.stderr)}`;
  return `exited ${result.code === null ? "abnormally" : result.code} without an answer` +
      (result.stderr.trim() ? ` (${lastLine(result.stderr)})` : "");
}

// Run the handlers of one event in turn; a later hook sees an earlier one's rewrite. Returns
// { block, reason, context: [], updatedInput }. A hook that cannot answer is reported and the
// call goes on, except a fail-closed PreToolUse hook, which blocks it. refuseRewrite, when
// given, is asked about each rewrite (updatedInput, the input it would replace): a reason
// blocks the call instead, "" lets the rewrite stand.
async function runHooks(event, payload, handlers, refuseRewrite) {
  const verdict = { block: false, reason: "", context: [], updatedInput: null };
  for (const handler of handlers) {
    const result = await runHook(handler, payload);
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
      const refused = refuseRewrite ? refuseRewrite(updated, payload.tool_input) : "";
      if (refused) {
        verdict.block = true;
        verdict.reason = refused;
        return verdict;
      }
      verdict.updatedInput = updated;
      payload = { ...payload, tool_input: updated };
    }
  }
  return verdict;
}

// The CLI hands its own arguments object to the tool: only changes made in place count.
function rewriteInPlace(args, updated) {
  for (const key of Object.keys(args)) {
    if (!(key in updated)) delete args[key];
  }
  Object.assign(args, updated);
}
// --- end of the hook runner ---
