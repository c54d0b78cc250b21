import { defineConfig } from "vitest/config";

/** `npm run test:soak`: the 60 s soak of the mock server (test/soak), run by .ci/run after `npm test`. */
export default defineConfig({
  test: {
    include: ["test/soak/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
