// What an editor on TypeScript 7 waits for: the first completion after a `$if`. Drives TypeScript 7's language
// server (`tsc --lsp --stdio`, LSP over stdio) on one file importing dist/, in <dir> (a tsconfig.json with the
// type benchmark's options is written there):
//   node ts7-completion.mjs <tsc> <dir> <options.json> <runs>
// Each round edits the file (a new literal, as typing makes) and asks the members after a `$if` chain, then after
// the same chain without the `$if`. Prints {"openMs","ifMs","plainMs"}: wall ms from the request to the answer of
// the first completion after opening the file (the server loads the program), then the medians over `runs` rounds
// after a warm-up round. Wall, not CPU: the server is another process, and its answer is what the editor waits for.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [tsc, dir, optionsJson, runsText] = process.argv.slice(2);
const runs = Number(runsText);
writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: JSON.parse(optionsJson), include: ["*.ts"] }));
const head = `import { selection } from "../../../dist/src/index.js";\ndeclare const flag: boolean;\n`;
const file = join(dir, "editor.ts");
writeFileSync(file, head);
const uri = pathToFileURL(file).href;

const server = spawn(process.execPath, [tsc, "--lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
// Its log (it says "context canceled" on a normal exit) is shown only if it stops while a request waits.
let log = "";
server.stderr.on("data", (chunk) => (log += chunk));
server.on("exit", (code) => {
  if (pending.size === 0) return;
  process.stderr.write(`tsc --lsp exited ${code} with ${pending.size} request(s) unanswered:\n${log}`);
  process.exit(1);
});
const send = (message) => {
  const text = JSON.stringify({ jsonrpc: "2.0", ...message });
  server.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
};
const pending = new Map();
let lastId = 0;
const request = (method, params) =>
  new Promise((resolve) => {
    const id = ++lastId;
    pending.set(id, resolve);
    send({ id, method, params });
  });
const notify = (method, params) => send(params === undefined ? { method } : { method, params });

let buffer = Buffer.alloc(0);
server.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    if (message.method === undefined && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    } else if (message.method !== undefined && message.id !== undefined) {
      // The server's own requests (configuration, capability registration): answered with defaults.
      const items = message.params?.items;
      send({ id: message.id, result: Array.isArray(items) ? items.map(() => null) : null });
    }
  }
});

const folder = pathToFileURL(dir).href;
await request("initialize", {
  processId: process.pid,
  rootUri: folder,
  capabilities: {},
  workspaceFolders: [{ uri: folder, name: "bench" }],
});
notify("initialized", {});
let version = 1;
notify("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version, text: head } });

/** Wall ms of the completion at the end of `body` (after a new edit); checks that it offers `expect`. */
async function complete(body, expect) {
  const text = head + body;
  notify("textDocument/didChange", { textDocument: { uri, version: ++version }, contentChanges: [{ text }] });
  const lines = text.split("\n");
  const started = performance.now();
  const answer = await request("textDocument/completion", {
    textDocument: { uri },
    position: { line: lines.length - 1, character: lines.at(-1).length },
  });
  const ms = performance.now() - started;
  const items = Array.isArray(answer.result) ? answer.result : (answer.result?.items ?? []);
  if (!items.some((item) => item.label === expect)) throw new Error(`no ${expect} after ${body}: ${JSON.stringify(answer).slice(0, 300)}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
let openMs = 0;
const ifs = [];
const plains = [];
for (let round = 0; round <= runs; round++) {
  const id = 1 + round;
  const chain = `selection(${id}).where("tasks:id").equal(${id})`;
  const withIf = await complete(`${chain}.$if(flag, (x) => x.and("tasks:inner_id").less(3)).`, "and");
  const plain = await complete(`${chain}.and("tasks:inner_id").less(3).`, "and");
  if (round === 0) openMs = withIf;
  else {
    ifs.push(withIf);
    plains.push(plain);
  }
}
await request("shutdown");
notify("exit");
server.stdin.end();
console.log(JSON.stringify({ openMs, ifMs: median(ifs), plainMs: median(plains) }));
