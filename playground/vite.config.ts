import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** `npm run build` writes the playground to dist/playground; the mock serves it at /playground/. */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/playground/",
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/playground", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
  },
});
