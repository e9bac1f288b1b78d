// A stand-in for a Windows Python under Wine (no Windows CPython is to be had here): it hands
// its arguments, cwd, stdin and the project variables to the test in a request file; the test
// runs the real CPython on Linux with them and writes back stdout, stderr and the exit code,
// which this process then gives as its own. Started two ways: as `py.cmd` -> `node bridge.js
// ARGS` (cmd.exe's %* passed on: node parses its command line as python.exe would), or as
// `python.exe`, a link to node.exe with this file preloaded (NODE_OPTIONS=--require): what
// a spawn without a shell finds on PATH.
"use strict";
const fs = require("fs");
const path = require("path");

const asPython = /^python(\.exe)?$/i.test(path.parse(process.execPath).name);
if (asPython || require.main === module) {
  let args = process.argv.slice(asPython ? 1 : 2);
  if (!asPython && /^-\d/.test(args[0] || "")) args = args.slice(1); // py -3: the launcher's
  let stdin = "";
  try { stdin = fs.readFileSync(0).toString("base64"); } catch { /* no stdin */ }
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /_PROJECT_DIR$/i.test(k)));
  const dir = process.env.WINE_BRIDGE;
  const id = `${process.pid}-${Date.now()}`;
  fs.writeFileSync(path.join(dir, `req-${id}.tmp`), JSON.stringify({ args, cwd: process.cwd(), stdin, env }));
  fs.renameSync(path.join(dir, `req-${id}.tmp`), path.join(dir, `req-${id}.json`));
  const answer = path.join(dir, `res-${id}.json`);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !fs.existsSync(answer); waited += 50) {
    if (waited > 120000) process.exit(99);
    Atomics.wait(pause, 0, 0, 50);
  }
  const res = JSON.parse(fs.readFileSync(answer, "utf8"));
  fs.writeSync(1, Buffer.from(res.stdout, "base64"));
  fs.writeSync(2, Buffer.from(res.stderr, "base64"));
  process.exit(res.code);
}
