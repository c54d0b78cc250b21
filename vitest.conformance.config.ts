import { defineConfig } from "vitest/config";

/**
 * Long conformance runs: `npm run test:conformance -- --runs 10000` (see test/conformance/run.ts).
 * The same files run in `npm test` with fixed seeds and small run counts.
 */
export default defineConfig({
  test: {
    include: ["test/conformance/**/*.test.ts"],
    testTimeout: 3_600_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
