// The dmq mock in its own process, from the built package (dist/).
//   node mock.mjs serve <seed.json> <token>    prints {"url"} and serves until stdin closes
//   node mock.mjs startup <seed.json> <token>  prints CPU ms of JSON.parse of the seed (parseMs), of
//       startMockServer on it (loadMs) and to its first answered list page (startMs), the wall time
//       of the latter (wallMs) and the RSS after a GC (rssMb), then exits
import { readFileSync } from "node:fs";
import { startMockServer } from "../../dist/mock-server/index.js";
import { cpuMs, get } from "./http-get.mjs";

const [mode, seedPath, token] = process.argv.slice(2);
const auth = { authorization: `Token ${token}` };

if (mode === "serve") {
  const server = await startMockServer({ data: seedPath, logger: false });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.on("end", () => server.close().then(() => process.exit(0)));
  process.stdin.resume();
} else if (mode === "startup") {
  // What parsing the seed costs, then the server from the same file to its first answer.
  const text = readFileSync(seedPath, "utf8");
  const p0 = cpuMs();
  JSON.parse(text);
  const parseMs = cpuMs() - p0;
  const t0 = performance.now(), c0 = cpuMs();
  const server = await startMockServer({ data: seedPath, logger: false });
  const loadMs = cpuMs() - c0;
  const res = await get(`${server.url}/api/tasks/?project=1&page_size=100`, auth);
  const wallMs = performance.now() - t0, startMs = cpuMs() - c0;
  if (res.status !== 200) throw new Error(`first answer: ${res.status} ${res.body.slice(0, 200)}`);
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  process.stdout.write(`${JSON.stringify({ parseMs, loadMs, startMs, wallMs, rssMb })}\n`);
  await server.close();
  process.exit(0);
} else throw new Error(`mode: expected serve or startup, found ${mode}`);
