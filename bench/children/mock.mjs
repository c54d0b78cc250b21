// The dmq mock in its own process, from the built package (dist/).
//   node mock.mjs serve <seed.json> <token>    prints {"url"} and serves until stdin closes
//   node mock.mjs startup <seed.json> <token>  prints CPU ms of startMockServer on the seed (loadMs)
//       and to its first answered list page (startMs), the wall time of the latter (wallMs), the RSS
//       then, after a GC (rssMb), and the CPU ms of JSON.parse of the seed's text (parseMs); exits
import { readFileSync } from "node:fs";
import { startMockServer } from "../../dist/mock-server/index.js";
import { loadServerModules } from "../../dist/mock-server/json-server.js";
import { cpuMs, get } from "./http-get.mjs";

const [mode, seedPath, token] = process.argv.slice(2);
const auth = { authorization: `Token ${token}` };

if (mode === "serve") {
  const server = await startMockServer({ data: seedPath, logger: false });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.on("end", () => server.close().then(() => process.exit(0)));
  process.stdin.resume();
} else if (mode === "startup") {
  // The server from the seed file to its first answer, its memory then; what parsing the same file
  // costs is measured last, so that it leaves nothing in the memory figure. Modules are loaded
  // first (startMockServer imports json-server on its first call), as for json-server's child.
  await loadServerModules();
  const t0 = performance.now(), c0 = cpuMs();
  const server = await startMockServer({ data: seedPath, logger: false });
  const loadMs = cpuMs() - c0;
  const res = await get(`${server.url}/api/tasks/?project=1&page_size=100`, auth);
  const wallMs = performance.now() - t0, startMs = cpuMs() - c0;
  if (res.status !== 200) throw new Error(`first answer: ${res.status} ${res.body.slice(0, 200)}`);
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const text = readFileSync(seedPath, "utf8");
  const p0 = cpuMs();
  JSON.parse(text);
  const parseMs = cpuMs() - p0;
  process.stdout.write(`${JSON.stringify({ parseMs, loadMs, startMs, wallMs, rssMb })}\n`);
  await server.close();
  process.exit(0);
} else throw new Error(`mode: expected serve or startup, found ${mode}`);
