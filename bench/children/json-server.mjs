// Stock json-server 0.17, the baseline, on the same seed file.
//   node json-server.mjs startup <seed.json>  its programmatic start (create, defaults, router(file),
//                                             listen) to the first answered page; prints {"startMs","rssMb"}
// (Throughput runs its CLI, lib/cli/bin.js, unchanged.)
import { createRequire } from "node:module";
import { cpuMs, get } from "./http-get.mjs";

const jsonServer = createRequire(import.meta.url)("json-server");
const [mode, seedPath] = process.argv.slice(2);
if (mode !== "startup") throw new Error(`mode: expected startup, found ${mode}`);
const t0 = performance.now(),
  c0 = cpuMs();
const app = jsonServer.create();
app.use(jsonServer.defaults({ logger: false }));
app.use(jsonServer.router(seedPath));
const server = await new Promise((resolve) => {
  const s = app.listen(0, "127.0.0.1", () => resolve(s));
});
const res = await get(`http://127.0.0.1:${server.address().port}/tasks?_page=1&_limit=100`);
const wallMs = performance.now() - t0,
  startMs = cpuMs() - c0;
if (res.status !== 200) throw new Error(`first answer: ${res.status}`);
globalThis.gc?.();
const rssMb = process.memoryUsage().rss / 2 ** 20;
process.stdout.write(`${JSON.stringify({ startMs, wallMs, rssMb })}\n`);
server.close();
process.exit(0);
