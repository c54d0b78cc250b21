import { configDefaults, defineConfig } from "vitest/config";
import HeaviestFirst from "./test/helpers/sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The soak runs on its own (`npm run test:soak`, vitest.soak.config.ts).
    exclude: [...configDefaults.exclude, "test/soak/**"],
    // The CLI tests run the built CLI (dist/) as a child process: rebuild it when sources changed.
    globalSetup: ["test/helpers/build-dist.ts"],
    // The contract suite (test/contract, on dmq/testing) runs on in-process mocks here, even when the shell has
    // LABEL_STUDIO_URL set; `npm run test:real` runs it on a server (vitest.real.config.ts).
    env: { DMQ_TARGET: "mock" },
    typecheck: {
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One worker per core (vitest's default leaves one core free: a single worker on two cores). Much of the
    // suite waits on child processes (the CLI, npm, tsc, a browser), so the second worker is nearly free.
    maxWorkers: 2,
    sequence: { sequencer: HeaviestFirst },
  },
});
