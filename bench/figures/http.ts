/**
 * The mock's Data Manager list against stock json-server on the same 10k tasks (issue #12 "the
 * list route"): autocannon, 10 connections, each server alone in a child process, rounds in
 * alternation after a warm-up round; and `users.whoami()` through the client against raw `fetch`
 * on the same mock, in alternating blocks of sequential calls (`clientFigures`).
 */
import autocannon from "autocannon";
import { createClient } from "../../src/client/index.js";
import { selection } from "../../src/selection.js";
import { serveJsonServer, serveMock } from "../lib/children.js";
import { figure, fmt, median, RUNS, type Figure } from "../lib/stats.js";

const CONNECTIONS = 10;
const SECONDS = 2;

/** The filtered, ordered list: a Data Manager view as a browser sends it (the `query` parameter). */
export const listQuery = selection(1)
  .where("tasks:total_annotations")
  .greaterOrEqual(1)
  .and("tasks:data.text")
  .contains("lorem")
  .orderBy("-tasks:created_at")
  .toJSON();

interface Load {
  readonly rps: number;
  readonly p99: number;
}

/**
 * The same list with a query no request sent before: `id > -n` (true of every task) added, n counting up,
 * so every request is evaluated afresh (what an app's users or a test suite send), not served from the
 * evaluations the mock keeps per query.
 */
let freshCount = 0;
export function freshListPath(): string {
  const query = selection(1)
    .where("tasks:total_annotations")
    .greaterOrEqual(1)
    .and("tasks:data.text")
    .contains("lorem")
    .and("tasks:id")
    .greater(-++freshCount)
    .orderBy("-tasks:created_at")
    .toJSON();
  return `/api/tasks/?project=1&page_size=100&query=${encodeURIComponent(JSON.stringify(query))}`;
}

async function load(url: string, headers: Record<string, string>, seconds = SECONDS, path?: () => string): Promise<Load> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    ...(path ? { requests: [{ method: "GET" as const, setupRequest: (req: autocannon.Request) => ({ ...req, path: path() }) }] } : {}),
  });
  if (r.errors > 0 || r.non2xx > 0 || r.timeouts > 0) {
    throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx answers, ${r.timeouts} timeouts`);
  }
  return { rps: r.requests.total / seconds, p99: r.latency.p99 };
}

export async function httpFigures(seedPath: string, token: string, log: (line: string) => void): Promise<Figure[]> {
  const mock = await serveMock(seedPath, token);
  const stock = await serveJsonServer(seedPath);
  const auth = { authorization: `Token ${token}` };
  const targets = {
    filtered: {
      url: `${mock.url}/api/tasks/?project=1&page_size=100&query=${encodeURIComponent(JSON.stringify(listQuery))}`,
      headers: auth,
    },
    fresh: { url: mock.url, headers: auth, path: freshListPath },
    plain: { url: `${mock.url}/api/tasks/?project=1&page_size=100`, headers: auth },
    jsonServer: { url: `${stock.url}/tasks?_page=1&_limit=100`, headers: {} },
  };
  const runs: Record<keyof typeof targets, Load[]> = { filtered: [], fresh: [], plain: [], jsonServer: [] };
  const figures: Figure[] = [];
  try {
    for (let round = 0; round <= RUNS; round++) {
      for (const [name, t] of Object.entries(targets) as [keyof typeof targets, (typeof targets)[keyof typeof targets]][]) {
        const r = await load(t.url, t.headers, round === 0 ? 1 : SECONDS, "path" in t ? t.path : undefined);
        if (round > 0) runs[name].push(r);
      }
    }
    const rps = (name: keyof typeof targets) => median(runs[name].map((r) => r.rps));
    const p99 = (name: keyof typeof targets) => median(runs[name].map((r) => r.p99));
    log(
      `  list: filtered ${fmt(rps("filtered"))} req/s (p99 ${p99("filtered")} ms), fresh queries ${fmt(rps("fresh"))} req/s, plain ${fmt(rps("plain"))} req/s, json-server ${fmt(rps("jsonServer"))} req/s (p99 ${p99("jsonServer")} ms)`,
    );
    const vs = `dmq ${fmt(rps("filtered"))} req/s vs json-server ${fmt(rps("jsonServer"))} req/s`;
    figures.push(
      figure("server.tasks_list.vs_jsonserver", rps("filtered") / rps("jsonServer"), "×", 1, "higher", vs),
      figure(
        "server.tasks_list_fresh.vs_jsonserver",
        rps("fresh") / rps("jsonServer"),
        "×",
        2,
        "higher",
        `a query no request sent before on every request: ${fmt(rps("fresh"))} req/s (p99 ${p99("fresh")} ms) vs json-server ${fmt(rps("jsonServer"))} req/s`,
      ),
      figure("server.tasks_list.p99_ms", p99("filtered"), "ms", null, "lower", `json-server p99 ${p99("jsonServer")} ms`),
      figure(
        "server.tasks_list.rps",
        rps("filtered"),
        "req/s",
        null,
        "higher",
        `10k tasks, filtered and ordered, page_size=100, ${CONNECTIONS} connections`,
      ),
      figure(
        "server.tasks_list_plain.vs_jsonserver",
        rps("plain") / rps("jsonServer"),
        "×",
        1,
        "higher",
        `no query: ${fmt(rps("plain"))} req/s, p99 ${p99("plain")} ms`,
      ),
      figure("server.jsonserver.rps", rps("jsonServer"), "req/s", null, "higher", "stock json-server 0.17 GET /tasks?_page=1&_limit=100"),
    );
    figures.push(...(await clientFigures(mock.url, token, log)));
  } finally {
    await Promise.all([mock.stop(), stock.stop()]);
  }
  return figures;
}

/** Calls per block; blocks of the two alternate (client, fetch; then fetch, client), so both see the same load. */
const BLOCK = 50;
/** Measured pairs of blocks (after a warm-up of WARM_UP calls each): 10,000 calls each. */
const PAIRS = 200;
const WARM_UP = 500;

/**
 * µs per whoami, the client against `fetch` + `res.json()` with the same headers, on the same mock:
 * blocks of BLOCK sequential calls alternate (the order flips every pair), and the figure is the
 * median over PAIRS of each pair's wall-time ratio: a loaded machine slows the two blocks of a pair
 * alike, and a pair it disturbed is outvoted. Wall time is what a caller waits (this process's CPU,
 * the mock's and the loopback's); this process's CPU per call is logged too (the client's own cost).
 */
async function clientFigures(url: string, token: string, log: (line: string) => void): Promise<Figure[]> {
  const client = createClient({ baseUrl: url, apiKey: token, maxRetries: 0 });
  const whoami = `${url}/api/current-user/whoami`;
  const headers = { accept: "application/json", authorization: `Token ${token}` };
  const contenders = {
    client: () => client.users.whoami(),
    fetch: async () => {
      const res = await fetch(whoami, { headers });
      if (!res.ok) throw new Error(`whoami: ${res.status}`);
      return res.json();
    },
  };
  type Name = keyof typeof contenders;
  const block = async (name: Name, calls: number) => {
    const call = contenders[name];
    const cpu = process.cpuUsage(),
      start = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const used = process.cpuUsage(cpu);
    return { wall: ((performance.now() - start) * 1000) / calls, cpu: (used.user + used.system) / calls };
  };
  await block("client", WARM_UP);
  await block("fetch", WARM_UP);
  const ratios: number[] = [];
  const wall: Record<Name, number[]> = { client: [], fetch: [] };
  const cpu: Record<Name, number[]> = { client: [], fetch: [] };
  for (let pair = 0; pair < PAIRS; pair++) {
    const order: Name[] = pair % 2 === 0 ? ["client", "fetch"] : ["fetch", "client"];
    const times = {} as Record<Name, { wall: number; cpu: number }>;
    for (const name of order) {
      times[name] = await block(name, BLOCK);
      wall[name].push(times[name].wall);
      cpu[name].push(times[name].cpu);
    }
    ratios.push(times.client.wall / times.fetch.wall);
  }
  const c = median(wall.client),
    f = median(wall.fetch),
    cc = median(cpu.client),
    fc = median(cpu.fetch);
  log(
    `  whoami: client ${fmt(c)} µs/call, fetch ${fmt(f)} µs/call (wall, medians of ${PAIRS} blocks of ${BLOCK}); CPU of this process: client ${fmt(cc)} µs/call, fetch ${fmt(fc)} µs/call`,
  );
  return [
    figure(
      "client.vs_fetch",
      median(ratios),
      "×",
      1.15,
      "lower",
      `median of ${PAIRS} paired blocks: ${fmt(c)} µs vs fetch ${fmt(f)} µs per whoami; this process's CPU ${fmt(cc)} vs ${fmt(fc)} µs`,
    ),
  ];
}
