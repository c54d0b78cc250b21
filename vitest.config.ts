import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The soak runs on its own (`npm run test:soak`, vitest.soak.config.ts).
    exclude: [...configDefaults.exclude, "test/soak/**"],
    // The CLI tests run the built CLI (dist/) as a child process: rebuild it when sources changed.
    globalSetup: ["test/helpers/build-dist.ts"],
    typecheck: {
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
