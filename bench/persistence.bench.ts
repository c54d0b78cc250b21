/**
 * The cost of persistence: a task create (`POST /api/tasks/`) at 100k tasks, over HTTP, with and
 * without `persist`. Prints the median time of each, the ratio (target: ≤ 5), and the bytes the
 * persist files grew by per create (the write-ahead log: the size of the change, not of the store).
 *
 *   npx tsx bench/persistence.bench.ts [tasks] [creates]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type MockSeed } from "../mock-server/index.js";

const TASKS = Number(process.argv[2] ?? 100_000);
const CREATES = Number(process.argv[3] ?? 60);
const KEY = "bench000000000000000000000000000000000001";

function seed(n: number): MockSeed {
  return {
    users: [{ id: 1, username: "bench", token: KEY }],
    projects: [{ id: 1, title: "bench" }],
    tasks: Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      project: 1,
      data: { text: `task number ${i + 1} with some words in it`, score: (i % 100) / 100 },
      created_at: "2024-01-01T00:00:00Z",
    })),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const bytesIn = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

async function createTimes(persist: string | undefined): Promise<{ times: number[]; grew: number }> {
  const server = await startMockServer({ data: seed(TASKS), journalCapacity: 0, ...(persist ? { persist } : {}) });
  const dir = persist ? join(persist, "..") : undefined;
  const headers = { authorization: `Token ${KEY}`, "content-type": "application/json" };
  const create = async (i: number) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/tasks/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ project: 1, data: { text: `created ${i}`, score: 0.5 } }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i++) await create(-i); // warm-up
  const before = dir ? bytesIn(dir) : 0;
  const times: number[] = [];
  for (let i = 0; i < CREATES; i++) times.push(await create(i));
  const grew = dir ? bytesIn(dir) - before : 0;
  await server.close();
  return { times, grew };
}

const dir = mkdtempSync(join(tmpdir(), "dmq-bench-persist-"));
try {
  const without = await createTimes(undefined);
  const withPersist = await createTimes(join(dir, "db.json"));
  const a = median(without.times);
  const b = median(withPersist.times);
  console.log(`tasks: ${TASKS}, creates: ${CREATES}`);
  console.log(`create without persistence: ${a.toFixed(2)} ms (median)`);
  console.log(`create with persistence:    ${b.toFixed(2)} ms (median)`);
  console.log(`ratio: ${(b / a).toFixed(2)} (target ≤ 5)`);
  console.log(`persist files grew ${(withPersist.grew / CREATES).toFixed(0)} bytes per create`);
  if (b / a > 5) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
