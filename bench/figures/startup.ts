/**
 * Start-up and memory (issue #12): a fresh process per run, the mock from the built package.
 * Times are CPU time of the child (a shared machine deschedules it; the wall time is shown too).
 * `startup.10k_ms`: `startMockServer` with a 10k-task seed file to its first answered list page;
 * `startup.load_vs_parse`: `startMockServer` on that file (read, parse, validate, store, listen) ÷
 * `JSON.parse` of the file's text; `memory.100k_mb`: RSS
 * (after a GC) of a mock holding 100k tasks with two annotations each, once it has answered. Stock
 * json-server starts on the same files (create, defaults, router, listen, first page) alongside.
 * `server.task_create_100k_ms`: a `POST /api/tasks/` into that 100k-task project, and the list page
 * answered right after it (`server.list_after_create_100k_ms`).
 */
import { runJson } from "../lib/children.js";
import { figure, fmt, median, RUNS, type Figure } from "../lib/stats.js";

interface MockStart {
  readonly parseMs: number;
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

const WRITES = 15;

async function rounds(seedPath: string, token: string, runs: number): Promise<{ mock: MockStart[]; stock: StockStart[] }> {
  const mock: MockStart[] = [], stock: StockStart[] = [];
  for (let round = 0; round <= runs; round++) {
    const m = await runJson<MockStart>("mock.mjs", ["startup", seedPath, token], ["--expose-gc"]);
    const s = await runJson<StockStart>("json-server.mjs", ["startup", seedPath], ["--expose-gc"]);
    if (round > 0) (mock.push(m), stock.push(s));
  }
  return { mock, stock };
}

export async function startupFigures(seed10k: string, seed100k: string, token: string, log: (line: string) => void): Promise<Figure[]> {
  const small = await rounds(seed10k, token, RUNS);
  const start = median(small.mock.map((r) => r.startMs)), stockStart = median(small.stock.map((r) => r.startMs));
  const ratios = small.mock.map((r) => r.loadMs / r.parseMs);
  log(`  start 10k: mock ${fmt(start)} ms, json-server ${fmt(stockStart)} ms, JSON.parse ${fmt(median(small.mock.map((r) => r.parseMs)))} ms`);
  const big = await rounds(seed100k, token, RUNS);
  const rss = median(big.mock.map((r) => r.rssMb)), stockRss = median(big.stock.map((r) => r.rssMb));
  const bigStart = median(big.mock.map((r) => r.startMs)), bigStockStart = median(big.stock.map((r) => r.startMs));
  log(`  start 100k: mock ${fmt(bigStart)} ms (${fmt(rss)} MB), json-server ${fmt(bigStockStart)} ms (${fmt(stockRss)} MB)`);
  // Writes at 100k tasks: one child, RUNS creates after a warm-up one, each followed by a list page.
  const writes = await runJson<{ createMs: number[]; listMs: number[] }>("mock.mjs", ["writes", seed100k, token, String(WRITES)]);
  const create = median(writes.createMs), listAfter = median(writes.listMs);
  log(`  writes at 100k: create ${fmt(create)} ms, the list page after it ${fmt(listAfter)} ms`);
  return [
    figure("server.task_create_100k_ms", create, "ms", null, "lower", `POST /api/tasks/ into a 100k-task project (wall, median of ${WRITES})`),
    figure("server.list_after_create_100k_ms", listAfter, "ms", null, "lower", "the first list page after that create (the project's columns computed again)"),
    figure("startup.10k_ms", start, "ms", 500, "lower", `json-server ${fmt(stockStart)} ms (${fmt(start / stockStart)}×); wall ${fmt(median(small.mock.map((r) => r.wallMs)))} ms`),
    figure("startup.load_vs_parse", median(ratios), "×", 3, "lower", `startMockServer(seed file) ÷ JSON.parse of its text, 10k tasks`),
    figure("startup.100k_ms", bigStart, "ms", null, "lower", `json-server ${fmt(bigStockStart)} ms (${fmt(bigStart / bigStockStart)}×), 100k tasks, 2 annotations each`),
    figure("memory.100k_mb", rss, "MB", null, "lower", `json-server ${fmt(stockRss)} MB (${fmt(rss / stockRss)}×)`),
  ];
}
