// Exports at size, in their own process, from the built package (dist/):
//   node export.mjs time|memory <seed.json> <token> <runs>
// A snapshot of the whole project (`POST /api/projects/1/exports/`: filter, serialize with the
// standard library's JSON rules, md5, store) against `JSON.stringify` of the same tasks (the file
// read back with JSON.parse). `time`: the median CPU ms of each (alternating rounds after a warm-up
// round); `memory`: the bytes each allocates. Also the file's size.
import http from "node:http";
import { startMockServer } from "../../dist/mock-server/index.js";
import { cpuMs, get, post } from "./http-get.mjs";

const [mode, seedPath, token, runsText] = process.argv.slice(2);
const runs = Number(runsText);
// A new connection per request: a kept-alive socket can be closed by the server (its 5 s keep-alive timeout)
// while a 100k-task round runs JSON.stringify, and the next request on it is an ECONNRESET.
http.globalAgent = new http.Agent({ keepAlive: false });
const auth = { authorization: `Token ${token}` };
// A 100k-task export takes seconds: past the default time limit on a busy machine.
const server = await startMockServer({ data: seedPath, logger: false, journalCapacity: 0, requestTimeLimit: 600 });
const base = `${server.url}/api/projects/1/exports/`;

const median = (xs) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function exportOnce() {
  const res = await post(base, {}, auth);
  if (res.status !== 201) throw new Error(`export: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body).id;
}
const remove = (id) =>
  new Promise((resolve, reject) => {
    import("node:http").then(({ request }) => {
      const req = request(`${base}${id}`, { method: "DELETE", headers: auth }, (r) => (r.resume(), r.on("end", resolve)));
      req.on("error", reject);
      req.end();
    });
  });

// The same tasks as plain objects: the file read back.
const first = await exportOnce();
const file = await get(`${base}${first}/download`, auth);
const tasks = JSON.parse(file.body);
const bytes = Buffer.byteLength(file.body);
await remove(first);

// CPU (`time` mode): alternating rounds, the first a warm-up.
const exportMs = [],
  stringifyMs = [];
for (let round = 0; mode === "time" && round <= runs; round++) {
  globalThis.gc?.();
  let c0 = cpuMs();
  const id = await exportOnce();
  const e = cpuMs() - c0;
  await remove(id);
  globalThis.gc?.();
  c0 = cpuMs();
  const text = JSON.stringify(tasks);
  const s = cpuMs() - c0;
  if (text.length === 0) throw new Error("nothing written");
  if (round > 0) {
    exportMs.push(e);
    stringifyMs.push(s);
  }
}

// Memory (`memory` mode, run with --trace-gc): each operation between two marker lines carrying the
// heap in use and the external memory; the parent adds what the GCs between them freed (their
// trace lines) to the growth, which gives the bytes the operation allocated, garbage included.
if (mode === "memory") {
  const mark = (what) => {
    const m = process.memoryUsage();
    process.stdout.write(`@@${what} ${m.heapUsed} ${m.external + m.arrayBuffers}\n`);
  };
  async function measured(name, run) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    mark(`begin ${name}`);
    const result = await run();
    mark(`end ${name}`);
    return result;
  }
  await remove(await measured("export", () => exportOnce()));
  await measured("stringify", () => JSON.stringify(tasks).length);
}
process.stdout.write(`${JSON.stringify({ exportMs: median(exportMs), stringifyMs: median(stringifyMs), bytes, tasks: tasks.length })}\n`);
await server.close();
process.exit(0);
