/**
 * Start-up and memory (issue #12): a fresh process per run, the mock from the built package.
 * Times are CPU time of the child (a shared machine deschedules it; the wall time is shown too).
 * `startup.10k_ms`: `startMockServer` with a 10k-task seed file to its first answered list page;
 * `startup.load_vs_parse`: `startMockServer` on a 100k-task seed file (read, parse, validate, store,
 * listen) ÷ `JSON.parse` of the file's text in a fresh process (the state the mock parses it in), the
 * worse of two seeds: timestamps in the stored form, and written `…:SSZ` (converted while loading);
 * `memory.100k_mb`: RSS (after a GC) of a mock holding 100k tasks with two annotations each, once it
 * has answered. Stock json-server starts on the same files (create, defaults, router, listen, first
 * page) alongside. (Writes at 100k tasks: bench/figures/writes.ts.)
 */
import { runJson } from "../lib/children.js";
import { figure, fmt, median, RUNS, type Figure } from "../lib/stats.js";

interface MockStart {
  readonly loadMs: number;
  readonly wallMs: number;
  readonly startMs: number;
  readonly rssMb: number;
}
interface StockStart {
  readonly startMs: number;
  readonly wallMs: number;
  readonly rssMb: number;
}

/** Alternating runs after a warm-up round: the mock, then (when given) json-server, then a cold JSON.parse. */
async function rounds(seedPath: string, token: string, runs: number, stock: boolean) {
  const mock: MockStart[] = [],
    json: StockStart[] = [],
    parse: number[] = [];
  for (let round = 0; round <= runs; round++) {
    const m = await runJson<MockStart>("mock.mjs", ["startup", seedPath, token], ["--expose-gc"]);
    const s = stock ? await runJson<StockStart>("json-server.mjs", ["startup", seedPath], ["--expose-gc"]) : undefined;
    const p = await runJson<{ parseMs: number }>("mock.mjs", ["parse", seedPath]);
    if (round > 0) {
      mock.push(m);
      if (s) json.push(s);
      parse.push(p.parseMs);
    }
  }
  const load = median(mock.map((r) => r.loadMs)),
    parseMs = median(parse);
  return { mock, json, load, parseMs, ratio: load / parseMs };
}

export interface StartupSeeds {
  readonly seed10k: string;
  /** 100k tasks with two annotations each: timestamps as stored, and written `…:SSZ`. */
  readonly seed100k: string;
  readonly seed100kZ: string;
}

export async function startupFigures(seeds: StartupSeeds, token: string, log: (line: string) => void): Promise<Figure[]> {
  const small = await rounds(seeds.seed10k, token, RUNS, true);
  const start = median(small.mock.map((r) => r.startMs)),
    stockStart = median(small.json.map((r) => r.startMs));
  const loads = (r: { load: number; parseMs: number }) => `load ${fmt(r.load)} ms, JSON.parse ${fmt(r.parseMs)} ms`;
  log(`  start 10k: mock ${fmt(start)} ms, json-server ${fmt(stockStart)} ms; ${loads(small)}`);
  const big = await rounds(seeds.seed100k, token, RUNS, true);
  const rss = median(big.mock.map((r) => r.rssMb)),
    stockRss = median(big.json.map((r) => r.rssMb));
  const bigStart = median(big.mock.map((r) => r.startMs)),
    bigStockStart = median(big.json.map((r) => r.startMs));
  log(`  start 100k: mock ${fmt(bigStart)} ms (${fmt(rss)} MB), json-server ${fmt(bigStockStart)} ms (${fmt(stockRss)} MB); ${loads(big)}`);
  const z = await rounds(seeds.seed100kZ, token, RUNS, false);
  const zStart = median(z.mock.map((r) => r.startMs)),
    zRss = median(z.mock.map((r) => r.rssMb));
  log(`  start 100k, Z timestamps: mock ${fmt(zStart)} ms (${fmt(zRss)} MB); ${loads(z)}`);
  const ratio = (r: { load: number; parseMs: number; ratio: number }) => `${fmt(r.ratio)}× (${fmt(r.load)} ÷ ${fmt(r.parseMs)} ms)`;
  return [
    figure(
      "startup.10k_ms",
      start,
      "ms",
      500,
      "lower",
      `json-server ${fmt(stockStart)} ms (${fmt(start / stockStart)}×); wall ${fmt(median(small.mock.map((r) => r.wallMs)))} ms`,
    ),
    figure(
      "startup.load_vs_parse",
      Math.max(big.ratio, z.ratio),
      "×",
      3,
      "lower",
      `startMockServer(seed file) ÷ JSON.parse of its text, 100k tasks, the worse of: stored timestamps ${ratio(big)}, Z timestamps ${ratio(z)}`,
    ),
    figure(
      "startup.load_vs_parse_10k",
      small.ratio,
      "×",
      null,
      "lower",
      `the same at 10k tasks, ${ratio(small)}: the process's fixed costs (JIT, express) weigh`,
    ),
    figure(
      "startup.100k_ms",
      bigStart,
      "ms",
      null,
      "lower",
      `json-server ${fmt(bigStockStart)} ms (${fmt(bigStart / bigStockStart)}×), 100k tasks, 2 annotations each`,
    ),
    figure("startup.100k_z_ms", zStart, "ms", null, "lower", `the same seed with timestamps written …:SSZ; RSS ${fmt(zRss)} MB`),
    figure("memory.100k_mb", rss, "MB", null, "lower", `json-server ${fmt(stockRss)} MB (${fmt(rss / stockRss)}×)`),
  ];
}
