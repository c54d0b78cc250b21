import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

/**
 * The soak (`npm run test:soak`): 60 s of mixed traffic from 20 clients against a mock in its own
 * process, sampling the mock's resident memory and the requests' p99 latency every second. It
 * asserts that memory has no upward trend beyond what the journal's cap allows (the journal is the
 * only thing meant to grow, and it stops at its capacity) and that p99 stays flat. Every answer must
 * be one the traffic expects: no 5xx, no 503, no dropped connection.
 */
const SECONDS = Number(process.env["DMQ_SOAK_SECONDS"] ?? 60);
const CLIENTS = 20;
/** Memory the full journal may hold: 1000 entries of up to 8 KiB of body, counted twice for object overhead. */
const JOURNAL_CAP_BYTES = 1000 * 8192 * 2;
const MB = 1024 * 1024;

interface Sample {
  readonly second: number;
  readonly rss: number;
  readonly p99: number;
  readonly requests: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const p99 = (xs: number[]) => (xs.length === 0 ? 0 : ([...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] as number));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function startChild(): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = fork(join(import.meta.dirname, "child.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; key: string }));
    child.once("exit", (code) => reject(new Error(`the mock exited (${code})`)));
  });
  return { child, url, key };
}

function sample(child: ChildProcess): Promise<{ rss: number }> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as { rss: number }));
    child.send("sample");
  });
}

describe("soak", () => {
  test(
    `${SECONDS} s of mixed traffic from ${CLIENTS} clients: flat memory and flat p99`,
    async () => {
      const { child, url, key } = await startChild();
      try {
        await run(child, url, key);
      } finally {
        // Whatever happened, the mock process does not outlive the test.
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
    SECONDS * 1000 + 120_000,
  );
});

/** The traffic, the samples and the verdict. */
async function run(child: ChildProcess, url: string, key: string): Promise<void> {
  const auth = { authorization: `Token ${key}`, "content-type": "application/json" };
  const unexpected: string[] = [];
  let window: number[] = [];
  let total = 0;
  let stop = false;

  const call = async (
    method: string,
    path: string,
    expected: readonly number[],
    body?: unknown,
    headers: Record<string, string> = auth,
  ) => {
    const started = performance.now();
    try {
      const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await response.text();
      window.push(performance.now() - started);
      total += 1;
      if (!expected.includes(response.status)) unexpected.push(`${method} ${path} → ${response.status} ${text.slice(0, 120)}`);
      return response.status < 300 && text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch (error) {
      unexpected.push(`${method} ${path} → ${(error as Error).message}`);
      return undefined;
    }
  };

  const words = ["great", "awful", "fine", "late", "broken", "love"];
  const client = async (lane: number) => {
    const r = rng(lane + 1);
    const mine: number[] = [];
    while (!stop) {
      const roll = r();
      const word = words[Math.floor(r() * words.length)] as string;
      if (roll < 0.3) {
        const query = {
          filters: {
            conjunction: "and",
            items: [
              {
                filter: "filter:tasks:data.text",
                operator: r() < 0.2 ? "regex" : "contains",
                type: "String",
                value: r() < 0.2 ? "^(a+)+$" : word,
              },
            ],
          },
          ordering: ["-tasks:id"],
        };
        await call("GET", `/api/tasks/?project=1&page_size=20&query=${encodeURIComponent(JSON.stringify(query))}`, [200]);
      } else if (roll < 0.45) {
        await call("GET", `/api/tasks/${1 + Math.floor(r() * 200)}/`, [200, 404]);
      } else if (roll < 0.55 || mine.length === 0) {
        const created = await call("POST", "/api/tasks/", [201], {
          project: 1,
          data: { text: `${word} ${"x".repeat(Math.floor(r() * 4000))}` },
        });
        if (typeof created?.["id"] === "number") mine.push(created["id"]);
      } else if (roll < 0.65) {
        await call("PATCH", `/api/tasks/${mine[mine.length - 1]}/`, [200], { data: { text: `${word} patched` } });
      } else if (roll < 0.75) {
        await call("DELETE", `/api/tasks/${mine.shift()}/`, [204]);
      } else if (roll < 0.8) {
        await call("POST", "/api/dm/actions/?id=retrieve_tasks_predictions&project=1", [200], {
          selectedItems: { all: false, included: [1, 2, 3] },
        });
      } else if (roll < 0.85) {
        const view = await call("POST", "/api/dm/views/", [201], { project: 1, data: { title: `soak ${lane}` } });
        if (typeof view?.["id"] === "number") await call("DELETE", `/api/dm/views/${view["id"]}/`, [204]);
      } else if (roll < 0.9) {
        await call("GET", "/api/projects/1/", [200]);
      } else if (roll < 0.95) {
        await call("GET", `/api/nothing/${word}/`, [404]);
      } else {
        await call("GET", "/api/current-user/whoami", [401], undefined, { authorization: "Token wrong" });
      }
    }
  };

  const samples: Sample[] = [];
  const clients = Array.from({ length: CLIENTS }, (_, lane) => client(lane));
  // A sample at each whole second of the run (a busy mock may answer a sample late; the run still ends on time).
  const start = Date.now();
  for (let second = 1; second <= SECONDS; second = Math.floor((Date.now() - start) / 1000) + 1) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + second * 1000 - Date.now())));
    const { rss } = await sample(child);
    samples.push({ second, rss, p99: p99(window), requests: window.length });
    window = [];
  }
  stop = true;
  await Promise.all(clients);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send("stop");
  await exited;

  // The first 10 s warm up (JIT, the journal filling to its capacity); compare the rest in thirds.
  const steady = samples.slice(Math.min(10, Math.floor(SECONDS / 4)));
  const third = Math.max(1, Math.floor(steady.length / 3));
  const early = steady.slice(0, third);
  const late = steady.slice(-third);
  const rssGrowth = median(late.map((s) => s.rss)) - median(early.map((s) => s.rss));
  const p99Early = median(early.map((s) => s.p99));
  const p99Late = median(late.map((s) => s.p99));
  console.log(
    [
      `soak: ${total} requests in ${SECONDS} s from ${CLIENTS} clients`,
      `RSS: ${(samples[0]!.rss / MB).toFixed(1)} MB at 1 s, ${(median(early.map((s) => s.rss)) / MB).toFixed(1)} MB early, ` +
        `${(median(late.map((s) => s.rss)) / MB).toFixed(1)} MB late, ${(samples.at(-1)!.rss / MB).toFixed(1)} MB at the end`,
      `p99: ${p99Early.toFixed(1)} ms early, ${p99Late.toFixed(1)} ms late`,
      `RSS every 10 s (MB): ${samples
        .filter((_x, i) => i % 10 === 9)
        .map((x) => (x.rss / MB).toFixed(0))
        .join(" ")}`,
    ].join("\n"),
  );

  expect(unexpected.slice(0, 10)).toEqual([]);
  expect(total).toBeGreaterThan(SECONDS * 50);
  expect(rssGrowth).toBeLessThan(JOURNAL_CAP_BYTES);
  expect(p99Late).toBeLessThan(p99Early * 2 + 25);
}
