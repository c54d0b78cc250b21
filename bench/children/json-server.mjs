// Stock json-server 0.17, the baseline, on the same seed file.
//   node json-server.mjs startup <seed.json>  its programmatic start (create, defaults, router(file),
//                                             listen) to the first answered page; prints {"startMs","rssMb"}
//   node json-server.mjs writes <seed.json> _ <runs>  in memory: wall ms of each POST /tasks (createMs) and
//                                             of the first page read right after it (listMs), after a warm-up pair
// (Throughput runs its CLI, lib/cli/bin.js, unchanged.)
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { cpuMs, get, post } from "./http-get.mjs";

const jsonServer = createRequire(import.meta.url)("json-server");
const [mode, seedPath] = process.argv.slice(2);
if (mode === "writes") {
  // In memory (the router given the parsed seed, not the file: no write to disk), as the mock's writes mode:
  // a task created, then the first page read, after a warm-up pair; wall ms of each.
  const app = jsonServer.create();
  app.use(jsonServer.defaults({ logger: false }));
  app.use(jsonServer.router(JSON.parse(readFileSync(seedPath, "utf8"))));
  const server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  const createMs = [],
    listMs = [];
  for (let round = 0; round <= Number(process.argv[5]); round++) {
    const t0 = performance.now();
    const created = await post(`${base}/tasks`, { project: 1, data: { text: `created ${round}`, rank: round } });
    const t1 = performance.now();
    const page = await get(`${base}/tasks?_page=1&_limit=100`);
    const t2 = performance.now();
    if (created.status !== 201 || page.status !== 200) throw new Error(`create ${created.status}, list ${page.status}`);
    if (round > 0) {
      createMs.push(t1 - t0);
      listMs.push(t2 - t1);
    }
  }
  process.stdout.write(`${JSON.stringify({ createMs, listMs })}\n`);
  server.close();
  process.exit(0);
}
if (mode !== "startup") throw new Error(`mode: expected startup or writes, found ${mode}`);
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
