import { defineConfig } from "vitest/config";

/**
 * `npm run test:real`: the contract suite (test/contract), unchanged, against the server at
 * LABEL_STUDIO_URL with LABEL_STUDIO_API_KEY. Each test seeds its own projects through the API and
 * deletes them; nothing else on the server is touched. `npm test` runs the same files on mocks.
 */
export default defineConfig({
  test: {
    include: ["test/contract/**/*.test.ts"],
    env: { DMQ_TARGET: "server" },
    // A real server on a loaded machine answers in hundreds of milliseconds per request.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
