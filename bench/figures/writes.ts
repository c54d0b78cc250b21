/**
 * Writes between reads at 100k tasks (what a contract test does): "create a task, read the first page",
 * `POST /api/tasks/` then `GET /api/tasks/?project=1&page_size=100` on the mock, against `POST /tasks` then
 * `GET /tasks?_page=1&_limit=100` on stock json-server holding the same seed in memory. Each server in its own
 * child process, which times its own requests (wall, node:http) over WRITES pairs after a warm-up pair; the two
 * children alternate, ROUNDS times each.
 * `server.write_read_100k.vs_jsonserver`: the median pair's time, the mock's ÷ json-server's.
 * `server.task_create_100k_ms`, `server.list_after_create_100k_ms`: the mock's create and the page after it.
 */
import { runJson } from "../lib/children.js";
import { figure, fmt, median, type Figure } from "../lib/stats.js";

const WRITES = 15;
const ROUNDS = 2;

interface Writes {
  readonly createMs: number[];
  readonly listMs: number[];
}

export async function writeFigures(seed100k: string, token: string, log: (line: string) => void): Promise<Figure[]> {
  const mock: Writes[] = [],
    stock: Writes[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    mock.push(await runJson<Writes>("mock.mjs", ["writes", seed100k, token, String(WRITES)]));
    stock.push(await runJson<Writes>("json-server.mjs", ["writes", seed100k, "_", String(WRITES)]));
  }
  const pairs = (runs: readonly Writes[]) => runs.flatMap((r) => r.createMs.map((c, i) => c + (r.listMs[i] as number)));
  const create = median(mock.flatMap((r) => r.createMs)),
    listAfter = median(mock.flatMap((r) => r.listMs));
  const mine = median(pairs(mock)),
    theirs = median(pairs(stock));
  log(
    `  writes at 100k: create ${fmt(create)} ms, the page after it ${fmt(listAfter)} ms; create + page ${fmt(mine)} ms, json-server ${fmt(theirs)} ms`,
  );
  return [
    figure(
      "server.write_read_100k.vs_jsonserver",
      mine / theirs,
      "×",
      1,
      "lower",
      `create a task then read the first page, 100k tasks: ${fmt(mine)} ms vs json-server in memory ${fmt(theirs)} ms (wall, medians of ${ROUNDS * WRITES})`,
    ),
    figure(
      "server.task_create_100k_ms",
      create,
      "ms",
      null,
      "lower",
      `POST /api/tasks/ into a 100k-task project (wall, median of ${ROUNDS * WRITES})`,
    ),
    figure(
      "server.list_after_create_100k_ms",
      listAfter,
      "ms",
      null,
      "lower",
      "the first list page after that create (the prepared dataset patched, not built again)",
    ),
  ];
}
