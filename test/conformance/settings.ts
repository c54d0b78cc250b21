/**
 * Run settings for the conformance properties. `npm test` uses fixed seeds and small run counts;
 * `FC_NUM_RUNS` / `FC_SEED` / `FC_PATH` (set by `run.ts --runs N --seed S --path P`) override them
 * for long runs and replays. A failure throws fast-check's report (seed, path, counterexample) plus
 * a description of the counterexample: the builder chain and the dataset.
 */
import fc from "fast-check";
import { expect } from "vitest";

const env = (name: string): string | undefined => {
  const v = process.env[name];
  return v === undefined || v === "" ? undefined : v;
};

/** The fixed seed of `npm test` (a failure there reproduces on every machine). */
export const DEFAULT_SEED = 20_240_601;

export interface RunSettings {
  /** Runs in `npm test`. */
  readonly runs: number;
  /** Share of `FC_NUM_RUNS` this property takes (HTTP properties are costlier than pure ones). */
  readonly share?: number;
  readonly seed?: number;
}

export function parameters<Ts>(settings: RunSettings): fc.Parameters<Ts> {
  const override = env("FC_NUM_RUNS");
  const numRuns = override ? Math.max(1, Math.round(Number(override) * (settings.share ?? 1))) : settings.runs;
  const seed = env("FC_SEED") !== undefined ? Number(env("FC_SEED")) : (settings.seed ?? DEFAULT_SEED);
  const path = env("FC_PATH");
  return { numRuns, seed, ...(path ? { path } : {}) };
}

/** Run a property; on failure throw the report with `describe(counterexample)` appended. */
export async function check<Ts extends unknown[]>(
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  settings: RunSettings,
  describe: (...args: Ts) => string,
): Promise<void> {
  const details = await fc.check(property as fc.IAsyncProperty<Ts>, parameters<Ts>(settings));
  if (!details.failed) return;
  const report = fc.defaultReportMessage(details) ?? "property failed";
  let extra = "";
  if (details.counterexample) {
    try {
      extra = describe(...(details.counterexample as Ts));
    } catch (e) {
      extra = `(could not describe the counterexample: ${(e as Error).message})`;
    }
  }
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  extra = `Failure: ${cause}\n\n${extra}`;
  const name = expect.getState().currentTestName?.split(" > ").at(-1);
  const replay =
    `Replay: npm run test:conformance -- --seed ${details.seed} --path ${JSON.stringify(details.counterexamplePath ?? "")}` +
    // vitest reads -t as a regular expression.
    (name ? ` -t ${JSON.stringify(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))}` : "");
  throw new Error(`${report}\n\n${extra}\n\n${replay}`);
}

/** A test's time limit: its `npm test` budget, or an hour for long runs (`FC_NUM_RUNS` set). */
export const timeLimit = (ms: number): number => (env("FC_NUM_RUNS") ? 3_600_000 : ms);
