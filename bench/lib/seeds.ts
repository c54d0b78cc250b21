/** Seed files the child processes load: written once per run under bench/.tmp/ (not committed). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./children.js";
import { benchSeed, type DataOptions } from "./data.js";

export const tmpDir = join(root, "bench", ".tmp");

export function writeSeed(name: string, tasks: number, options: DataOptions): string {
  mkdirSync(tmpDir, { recursive: true });
  const path = join(tmpDir, `${name}.json`);
  writeFileSync(path, JSON.stringify(benchSeed(tasks, options)));
  return path;
}
