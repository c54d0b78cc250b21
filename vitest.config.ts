import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The soak runs on its own (`npm run test:soak`, vitest.soak.config.ts).
    exclude: [...configDefaults.exclude, "test/soak/**"],
    typecheck: {
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
