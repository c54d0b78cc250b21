/**
 * `startup.cli_vs_library_100k`: the command line (`dmq mock --data <seed>`, the built CLI) against the
 * library (`startMockServer` on the same file, the child of bench/children/mock.mjs `serve`), on the
 * 100k-task seed: each a fresh process, timed to its first answered list page by the CPU it used by
 * then (from /proc: a loaded machine's waits are not counted), with its memory then. Rounds alternate
 * after a warm-up round. The banner is what differs: it must read counts, not copy the store.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { processCpuMs, processRssMb, root, serveMock } from "../lib/children.js";
import { figure, fmt, median, RUNS, type Figure } from "../lib/stats.js";

interface Start {
  readonly cpuMs: number;
  readonly rssMb: number;
}

async function firstPage(url: string, token: string): Promise<void> {
  const res = await fetch(`${url}/api/tasks/?project=1&page_size=100`, { headers: { authorization: `Token ${token}` } });
  if (res.status !== 200) throw new Error(`first page: ${res.status} ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
}

/** `dmq mock --data seed --port 0 --quiet`: the URL and key come from its banner. */
async function cliStart(seedPath: string): Promise<Start> {
  const cli = join(root, "dist", "src", "cli", "main.js");
  // Without a key in the environment: the banner then prints the seed's key.
  const { LABEL_STUDIO_API_KEY: _, ...env } = process.env;
  const child = spawn(process.execPath, [cli, "mock", "--data", seedPath, "--port", "0", "--quiet"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      let url: string | undefined;
      child.once("exit", (code) => reject(new Error(`dmq mock exited ${code} before its banner`)));
      createInterface({ input: child.stdout }).on("line", (line) => {
        url ??= /listening on (\S+)/.exec(line)?.[1];
        const token = /legacy token:\s+(\S+)/.exec(line)?.[1];
        if (url && token) resolve({ url, token });
      });
    });
    await firstPage(url, token);
    return { cpuMs: processCpuMs(child.pid as number), rssMb: processRssMb(child.pid as number) };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

async function libraryStart(seedPath: string, token: string): Promise<Start> {
  const served = await serveMock(seedPath, token);
  try {
    await firstPage(served.url, token);
    return { cpuMs: processCpuMs(served.pid), rssMb: processRssMb(served.pid) };
  } finally {
    await served.stop();
  }
}

export async function cliStartFigures(seed100k: string, token: string, log: (line: string) => void): Promise<Figure[]> {
  const cli: Start[] = [],
    library: Start[] = [];
  for (let round = 0; round <= RUNS; round++) {
    const c = await cliStart(seed100k);
    const l = await libraryStart(seed100k, token);
    if (round > 0) {
      cli.push(c);
      library.push(l);
    }
  }
  const cpu = (runs: readonly Start[]) => median(runs.map((r) => r.cpuMs));
  const rss = (runs: readonly Start[]) => median(runs.map((r) => r.rssMb));
  log(
    `  start 100k to the first page: dmq mock ${fmt(cpu(cli))} ms CPU (${fmt(rss(cli))} MB), startMockServer ${fmt(cpu(library))} ms CPU (${fmt(rss(library))} MB)`,
  );
  return [
    figure(
      "startup.cli_vs_library_100k",
      cpu(cli) / cpu(library),
      "×",
      1.2,
      "lower",
      `dmq mock --data ${fmt(cpu(cli))} ms CPU, ${fmt(rss(cli))} MB ÷ startMockServer ${fmt(cpu(library))} ms CPU, ${fmt(rss(library))} MB (fresh processes, to the first list page, 100k tasks)`,
    ),
  ];
}
