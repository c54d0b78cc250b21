// The dmq mock in its own process, from the built package (dist/).
//   node mock.mjs serve <seed.json> <token>    prints {"url"} and serves until stdin closes
//   node mock.mjs startup <seed.json> <token>  prints CPU ms of startMockServer on the seed (loadMs)
//       and to its first answered list page (startMs), the wall time of the latter (wallMs), the RSS
//       then, after a GC (rssMb); exits
//   node mock.mjs parse <seed.json>  prints the CPU ms of JSON.parse of the seed's text (parseMs), in
//       the state the startup mode starts the mock in (a fresh process, the same modules loaded)
//   node mock.mjs writes <seed.json> <token> <runs>  prints the wall ms of each `POST /api/tasks/`
//       (createMs) and of the list page answered right after it (listMs), after a warm-up pair
import { readFileSync } from "node:fs";
import { startMockServer } from "../../dist/mock-server/index.js";
import { loadServerModules } from "../../dist/mock-server/json-server.js";
import { cpuMs, get, post } from "./http-get.mjs";

const [mode, seedPath, token] = process.argv.slice(2);
const auth = { authorization: `Token ${token}` };

if (mode === "serve") {
  const server = await startMockServer({ data: seedPath, logger: false });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.on("end", () => server.close().then(() => process.exit(0)));
  process.stdin.resume();
} else if (mode === "startup") {
  // The server from the seed file to its first answer, its memory then. Modules are loaded first
  // (startMockServer imports json-server on its first call), as for json-server's child.
  await loadServerModules();
  const t0 = performance.now(),
    c0 = cpuMs();
  const server = await startMockServer({ data: seedPath, logger: false });
  const loadMs = cpuMs() - c0;
  const res = await get(`${server.url}/api/tasks/?project=1&page_size=100`, auth);
  const wallMs = performance.now() - t0,
    startMs = cpuMs() - c0;
  if (res.status !== 200) throw new Error(`first answer: ${res.status} ${res.body.slice(0, 200)}`);
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  process.stdout.write(`${JSON.stringify({ loadMs, startMs, wallMs, rssMb })}\n`);
  await server.close();
  process.exit(0);
} else if (mode === "parse") {
  // What parsing the seed costs in the state the mock parses it in: a fresh process with the same
  // modules loaded. (A parse after the start runs in a heap the start has grown, and costs about
  // half as much at 10k tasks: it is not the work the start did.)
  await loadServerModules();
  const text = readFileSync(seedPath, "utf8");
  const p0 = cpuMs();
  JSON.parse(text);
  const parseMs = cpuMs() - p0;
  process.stdout.write(`${JSON.stringify({ parseMs })}\n`);
  process.exit(0);
} else if (mode === "writes") {
  // A write at the size of a real project: a task create, then the list page it changes (the
  // project's prepared dataset is patched by the write). Wall time: a request waits on nothing else here.
  const server = await startMockServer({ data: seedPath, logger: false, journalCapacity: 0 });
  const list = `${server.url}/api/tasks/?project=1&page_size=100`;
  const createMs = [],
    listMs = [];
  for (let round = 0; round <= Number(process.argv[5]); round++) {
    const t0 = performance.now();
    const created = await post(`${server.url}/api/tasks/`, { project: 1, data: { text: `created ${round}`, rank: round } }, auth);
    const t1 = performance.now();
    const page = await get(list, auth);
    const t2 = performance.now();
    if (created.status !== 201 || page.status !== 200)
      throw new Error(`create ${created.status}, list ${page.status}: ${created.body.slice(0, 200)}`);
    if (round > 0) {
      createMs.push(t1 - t0);
      listMs.push(t2 - t1);
    }
  }
  process.stdout.write(`${JSON.stringify({ createMs, listMs })}\n`);
  await server.close();
  process.exit(0);
} else throw new Error(`mode: expected serve, startup, parse or writes, found ${mode}`);
