/** Timing and reporting helpers shared by the benchmark figures. */
import { existsSync, readFileSync } from "node:fs";

/** One row of bench/results.json. `target: null` means "report only". */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target: number | null;
  readonly better: "lower" | "higher";
  /** What was compared, for the printed table (e.g. "dmq 910 req/s, json-server 640 req/s"). */
  readonly detail?: string;
}

export const figure = (
  name: string,
  value: number,
  unit: string,
  target: number | null,
  better: Figure["better"],
  detail?: string,
): Figure => ({ name, value, unit, target, better, ...(detail === undefined ? {} : { detail }) });

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Runs of each figure (the issue asks for medians of at least five, after a warm-up). */
export const RUNS = 5;

/**
 * CPU time of this process in ms (user + system). Synchronous work is timed by the CPU it uses, not
 * by the wall clock: on a shared machine the process is often descheduled, which the wall clock
 * would count. (GC helper threads are counted too: their work is part of the cost.)
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU ms the whole machine has spent busy (user, nice, system, irq, softirq, steal) since boot, where Linux
 * tells it (/proc/stat, in 10 ms ticks); undefined elsewhere. Less a child's own CPU, what other processes used.
 */
export function machineBusyMs(): number | undefined {
  if (!existsSync("/proc/stat")) return undefined;
  const ticks = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) * 10;
}

const schedstat = `/proc/self/task/${process.pid}/schedstat`;
/**
 * CPU time of this process's main thread in ms where Linux tells it (else `cpuMs`): what a
 * single-threaded tool such as tsc reports as its own time, without V8's compiler and GC threads.
 */
export function mainThreadMs(): number {
  if (!existsSync(schedstat)) return cpuMs();
  return Number(readFileSync(schedstat, "utf8").split(" ")[0]) / 1e6;
}

/**
 * Time several contenders in alternation (A B C, A B C, …) so that a noisy neighbour slows them
 * alike; the first round is a warm-up and is dropped. Returns each contender's median CPU ms.
 */
export function timeAlternating(contenders: Readonly<Record<string, () => unknown>>, runs = RUNS): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let round = 0; round <= runs; round++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = cpuMs();
      run();
      const ms = cpuMs() - start;
      if (round > 0) (times[name] as number[]).push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

export const fmt = (x: number, digits = 2): string =>
  Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(digits);

export function meets(f: Figure): boolean | undefined {
  if (f.target === null) return undefined;
  return f.better === "lower" ? f.value <= f.target : f.value >= f.target;
}

export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => {
    const ok = meets(f);
    const target = f.target === null ? "report" : `${f.better === "lower" ? "≤" : "≥"} ${f.target}`;
    return [f.name, `${fmt(f.value)} ${f.unit}`, target, ok === undefined ? "" : ok ? "ok" : "MISSED", f.detail ?? ""];
  });
  const head = ["figure", "value", "target", "", "measured"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join("  ")
      .trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
