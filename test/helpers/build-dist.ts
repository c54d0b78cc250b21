import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * vitest globalSetup: the CLI tests run the built `dist/` as a child process, so build it once
 * when any source under src/ or mock-server/ is newer than the last build (a fresh clone builds on
 * `npm ci`; this catches edits since).
 */
const root = join(import.meta.dirname, "..", "..");
const marker = join(root, "dist", "src", "cli", "main.js");

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts")) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

export default function setup(): void {
  let built = 0;
  try {
    built = statSync(marker).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(newest(join(root, "src")), newest(join(root, "mock-server")), statSync(join(root, "package.json")).mtimeMs);
  if (sources <= built) return;
  try {
    execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // tsc still writes the files of a program with type errors: the CLI tests run on them (and say so),
    // and a half-edited tree does not stop every other test from running. tsc --noEmit reports the errors.
    const output = String((error as { stdout?: unknown }).stdout ?? "").split("\n").slice(0, 5).join("\n");
    process.stderr.write(`build-dist: tsc -p tsconfig.build.json reported errors; dist/ may be stale:\n${output}\n`);
  }
}
