import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { manifest, root } from "./pack.js";
import { npm, ok } from "./run.js";

/*
 * A fresh clone stays clean after `npm ci` / `npm install`: the committed lockfile is exactly what
 * npm writes for package.json (its root entry mirrors the manifest, `bin` included).
 */
const scratch = mkdtempSync(join(tmpdir(), "dmq-lock-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const committed = readFileSync(join(root, "package-lock.json"), "utf8");

describe("package-lock.json", () => {
  test("its root entry repeats the manifest's bin, dependencies and peers", () => {
    const entry = (JSON.parse(committed) as { packages: Record<string, Record<string, unknown>> }).packages[""]!;
    const normalised = Object.fromEntries(Object.entries(manifest.bin).map(([k, v]) => [k, v.replace(/^\.\//, "")]));
    expect(entry["bin"]).toEqual(normalised);
    expect(entry["dependencies"]).toEqual(manifest.dependencies);
    expect(entry["devDependencies"]).toEqual(manifest.devDependencies);
    expect(entry["peerDependencies"]).toEqual(manifest.peerDependencies);
    expect(entry["peerDependenciesMeta"]).toEqual(manifest.peerDependenciesMeta);
  });

  test("npm install leaves it as committed", async () => {
    copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
    copyFileSync(join(root, "package-lock.json"), join(scratch, "package-lock.json"));
    ok(await npm(["install", "--package-lock-only", "--ignore-scripts", "--prefer-offline"], scratch), "npm install --package-lock-only");
    const rewritten = readFileSync(join(scratch, "package-lock.json"), "utf8");
    expect(rewritten, "npm rewrites the lockfile: run npm install and commit package-lock.json").toBe(committed);
  }, 60_000);
});
