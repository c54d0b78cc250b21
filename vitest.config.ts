import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import HeaviestFirst from "./test/helpers/sequencer.js";

/**
 * Two projects; `npm test` runs both. `unit` runs the sources as they are (no build): the inner loop,
 * `npx vitest run --project unit`. `integration` runs every other test file: what needs dist/ or real
 * processes (the CLI as a process, the package, the docs, the editor, the browser, the mock over HTTP),
 * the longer property runs and the audits (test/audit); its globalSetup builds dist/ once per source
 * change, in the background.
 */
export const UNIT = [
  "test/unit/**/*.test.ts",
  "test/property/**/*.test.ts",
  "test/layers/**/*.test.ts",
  // The fast conformance runs; the longer property runs (seconds each) and those over HTTP are in `integration`.
  "test/conformance/oracle.test.ts",
  "test/conformance/parser.test.ts",
];

/**
 * Where test/unit/typecheck.test.ts leaves its tsc result for this run's typecheck, whose checker
 * (test/helpers/tsc-replay.mjs) replays it instead of checking the whole project again at the end. One file
 * per run (this process), removed when the run ends.
 */
const tscResult = join(import.meta.dirname, "node_modules", ".cache", "dmq", `tsc-result-${process.pid}.json`);
mkdirSync(join(tscResult, ".."), { recursive: true });
process.env["DMQ_TSC_RESULT"] = tscResult;
process.on("exit", () => rmSync(tscResult, { force: true }));

export default defineConfig({
  test: {
    // The contract suite (test/contract, on dmq/testing) runs on in-process mocks here, even when the shell has
    // LABEL_STUDIO_URL set; `npm run test:real` runs it on a server (vitest.real.config.ts).
    env: { DMQ_TARGET: "mock" },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One worker per core (vitest's default leaves one core free: a single worker on two cores). Much of the
    // suite waits on child processes (the CLI, npm, tsc, a browser), so the second worker is nearly free.
    maxWorkers: 2,
    sequence: { sequencer: HeaviestFirst },
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache): a warm run
    // transforms only what changed.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          isolate: false,
          include: UNIT,
          // The type tests (expectTypeOf, @ts-expect-error): tsc, incremental, beside the runtime tests.
          // Its tsc is test/unit/typecheck.test.ts's, replayed when that test ran (test/helpers/tsc-replay.mjs).
          typecheck: {
            enabled: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "./tsconfig.json",
            checker: join(import.meta.dirname, "test", "helpers", "tsc-replay.mjs"),
          },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          isolate: false,
          include: ["test/**/*.test.ts"],
          // The soak runs on its own (`npm run test:soak`, vitest.soak.config.ts).
          exclude: [...configDefaults.exclude, ...UNIT, "test/soak/**"],
          // dist/ built once when the sources changed: the CLI tests run it as a child process, the
          // playground test serves dist/playground, the package test packs it.
          globalSetup: ["test/helpers/build-dist.ts"],
        },
      },
    ],
  },
});
