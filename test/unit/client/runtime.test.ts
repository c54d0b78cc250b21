import { readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

/*
 * The client must run in browsers as well as Node ≥ 20: no Node built-ins, no `process`/`Buffer`
 * beyond the guarded environment lookup, and only browser-safe packages.
 */
const dir = join(import.meta.dirname, "..", "..", "..", "src", "client");
const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
const builtins = new Set(builtinModules);
const allowedPackages = new Set(["ofetch", "jose/jwt/decode"]);

describe("src/client is runtime-neutral", () => {
  test("there are client sources to check", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  test.each(files.map((f) => [f.slice(dir.length + 1), f]))("%s imports no Node built-in and only browser-safe packages", (_name, file) => {
    const source = readFileSync(file, "utf8");
    const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);
    for (const spec of specifiers) {
      if (spec.startsWith(".")) {
        expect(spec, `${spec} must stay inside src/ and not reach mock-server/ or cli/`).not.toMatch(/mock-server|\/cli\//);
        continue;
      }
      expect(spec.startsWith("node:") || builtins.has(spec), `${spec} is a Node built-in`).toBe(false);
      expect(allowedPackages.has(spec), `${spec} is not on the browser-safe list`).toBe(true);
    }
    expect(source).not.toMatch(/\bBuffer\.|\brequire\(/);
    const processUses = source.match(/\bprocess\b/g) ?? [];
    if (processUses.length) expect(file.endsWith("options.ts"), "only options.ts reads the environment, guarded").toBe(true);
  });
});
