/**
 * Exports (issue #20): a snapshot of a whole project — the tasks filtered, written as the server's
 * standard-library JSON (`", "`, `": "`, floats as Python prints them, jsonb's key order), hashed and
 * stored — at 10k and 100k tasks (two annotations each), as a ratio to `JSON.stringify` of the same
 * tasks (the exported file read back): CPU time (medians of alternating rounds in one process, the
 * route's whole handling included), and the bytes each allocates (heap and external, garbage
 * included: the heap's growth plus what the GCs in between freed, read from `--trace-gc`). Each ratio has a
 * ceiling: docs/performance.md#exports.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root, runJson } from "../lib/children.js";
import { figure, fmt, RUNS, type Figure } from "../lib/stats.js";

interface ExportRun {
  readonly exportMs: number;
  readonly stringifyMs: number;
  readonly bytes: number;
  readonly tasks: number;
}

const MB = 2 ** 20;

/**
 * The bytes each measured operation of `export.mjs memory` allocated: heap growth between its
 * markers, plus what every GC between them freed (`--trace-gc`: `used before (…) -> used after (…)
 * MB`), plus external growth.
 */
function allocations(seed: string, token: string): Record<string, number> {
  const run = spawnSync(
    process.execPath,
    ["--expose-gc", "--trace-gc", join(root, "bench", "children", "export.mjs"), "memory", seed, token, "0"],
    {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * MB,
    },
  );
  if (run.status !== 0) throw new Error(`export.mjs memory exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const out: Record<string, number> = {};
  let open: { name: string; heap: number; external: number; freed: number } | undefined;
  for (const line of run.stdout.split("\n")) {
    const marker = /^@@(begin|end) (\w+) (\d+) (\d+)$/.exec(line);
    if (marker) {
      const [, edge, name, heap, external] = marker as unknown as [string, string, string, string, string];
      if (edge === "begin") open = { name, heap: Number(heap), external: Number(external), freed: 0 };
      else if (open?.name === name)
        out[name] = (Number(heap) - open.heap + open.freed + Math.max(0, Number(external) - open.external)) / MB;
      continue;
    }
    const gc = /: (?:Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Compact)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(line);
    if (gc && open) open.freed += (Number(gc[1]) - Number(gc[2])) * MB;
  }
  return out;
}

export async function exportFigures(
  seeds: { readonly seed10k: string; readonly seed100k: string },
  token: string,
  log: (line: string) => void,
) {
  const figures: Figure[] = [];
  for (const [label, seed, runs] of [
    ["10k", seeds.seed10k, RUNS],
    ["100k", seeds.seed100k, 3],
  ] as const) {
    const t = await runJson<ExportRun>("export.mjs", ["time", seed, token, String(runs)], ["--expose-gc"]);
    const m = allocations(seed, token);
    const r = { ...t, exportMb: m["export"] as number, stringifyMb: m["stringify"] as number };
    log(
      `  ${label}: export ${fmt(r.exportMs, 0)} ms, ${fmt(r.exportMb, 0)} MB; JSON.stringify ${fmt(r.stringifyMs, 0)} ms, ${fmt(r.stringifyMb, 0)} MB; ${fmt(r.bytes / 2 ** 20, 1)} MB file`,
    );
    figures.push(
      figure(
        `export.snapshot_${label}_time_vs_stringify`,
        r.exportMs / r.stringifyMs,
        "x",
        10,
        "lower",
        `export ${fmt(r.exportMs, 0)} ms, JSON.stringify ${fmt(r.stringifyMs, 0)} ms (${r.tasks} tasks, ${fmt(r.bytes / 2 ** 20, 1)} MB)`,
      ),
      figure(
        `export.snapshot_${label}_memory_vs_stringify`,
        r.exportMb / r.stringifyMb,
        "x",
        15,
        "lower",
        `export ${fmt(r.exportMb, 0)} MB, JSON.stringify ${fmt(r.stringifyMb, 0)} MB allocated`,
      ),
    );
  }
  return figures;
}
