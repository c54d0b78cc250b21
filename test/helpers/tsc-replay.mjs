#!/usr/bin/env node
/*
 * vitest's typecheck checker (vitest.config.ts, `typecheck.checker`): tsc, unless test/unit/typecheck.test.ts
 * ran this very command earlier in the same run. That test runs vitest's command (same arguments, same
 * incremental state) among the runtime tests, so that the cold check overlaps them; vitest's own typecheck
 * comes only after every runtime test, alone. When the test left its result for this run (the file named by
 * DMQ_TSC_RESULT, set by vitest.config.ts for each run) and its arguments are these, this prints that result
 * and exits with its status: vitest maps the same tsc output to the type tests. Otherwise (the test did not
 * run, other arguments, --watch) it runs tsc.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const args = process.argv.slice(2);
const file = process.env["DMQ_TSC_RESULT"];

/** The result the typecheck test left for this run, if it ran these arguments. */
function recorded() {
  if (file === undefined || args.includes("--watch")) return undefined;
  try {
    const result = JSON.parse(readFileSync(file, "utf8"));
    return JSON.stringify(result.args) === JSON.stringify(args) ? result : undefined;
  } catch {
    return undefined;
  }
}

const result = recorded();
if (result !== undefined) {
  rmSync(file, { force: true });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
} else {
  const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
  const run = spawnSync(process.execPath, [tsc, ...args], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
}
