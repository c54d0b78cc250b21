/**
 * The testing kit for vitest: `useTarget()` gives a test file one target (an in-process mock, or the
 * server at `LABEL_STUDIO_URL`), and every project a test seeds is deleted when that test finishes,
 * passed or failed. docs/testing.md shows a file that passes on both targets unchanged.
 *
 * @module dmq/testing/vitest
 */
import { afterAll, beforeAll, onTestFinished } from "vitest";
import type { Client } from "../src/client/index.js";
import type { SeededProject, SeedOptions } from "./seed.js";
import type { SeedSpec } from "./spec.js";
import { resolveTarget, type Target, type TargetOptions } from "./target.js";

/** Options of `useTarget`: which target (as `resolveTarget`), and how it announces itself. */
export interface UseTargetOptions extends TargetOptions {
  /**
   * Print `dmq/testing: <target.describe()>` when the file's target is ready, so a run's log says
   * which target each file ran against. Default true.
   */
  readonly announce?: boolean;
  /** Time limit of the file's set-up and tear-down hooks, in milliseconds. Default 120000. */
  readonly hookTimeout?: number;
}

/** The file's target, available from the first test (or `beforeAll`/`beforeEach` registered after `useTarget()`). */
export interface TargetHandle {
  /** The target; throws when read before `useTarget`'s `beforeAll` ran. */
  readonly target: Target;
  /** `target.client`. */
  readonly client: Client;
  /**
   * Seed a fresh project. Called in a test (or its `beforeEach`), the project is deleted when the test
   * finishes, even when it fails; called in a `beforeAll`, when the file finishes.
   */
  seed(spec?: SeedSpec, options?: Omit<SeedOptions, "onCreated">): Promise<SeededProject>;
}

/**
 * Registers the file's hooks: `beforeAll` resolves the target (starting a mock when there is no
 * server to use: one mock per file, so files in parallel workers never share data), `afterAll`
 * deletes what is left and stops the mock. Call it at the top level of the file or of a `describe`.
 *
 * @example
 * ```ts
 * const ls = useTarget();
 * test("counts the unlabelled tasks", async () => {
 *   const { project } = await ls.seed({ tasks: [{ data: {} }] });
 *   expect((await project.tasks().page(1)).total).toBe(1);
 * });
 * ```
 */
export function useTarget(options: UseTargetOptions = {}): TargetHandle {
  const { announce = true, hookTimeout = 120_000, ...targetOptions } = options;
  let target: Target | undefined;

  beforeAll(async () => {
    target = await resolveTarget(targetOptions);
    if (announce) console.info(`dmq/testing: ${target.describe()}`);
  }, hookTimeout);

  afterAll(async () => {
    await target?.close();
  }, hookTimeout);

  const current = (): Target => {
    if (target === undefined)
      throw new Error("dmq/testing: the target is not ready: use it in a test or a hook registered after useTarget()");
    return target;
  };

  return {
    get target() {
      return current();
    },
    get client() {
      return current().client;
    },
    async seed(spec, seedOptions) {
      const on = current();
      // Registered before the first request, while vitest still knows the running test. A seed still
      // under way when the test ends (a time-out) is left to the file's afterAll, which deletes everything.
      const made: { project?: SeededProject } = {};
      try {
        onTestFinished(async () => {
          await made.project?.delete();
        });
      } catch {
        // Outside a test (a beforeAll): the file's afterAll cleans it up.
      }
      made.project = await on.seed(spec, seedOptions);
      return made.project;
    },
  };
}
