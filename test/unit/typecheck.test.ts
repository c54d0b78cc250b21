import { execFile } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";

/*
 * The whole project type-checks: `tsc --noEmit -p tsconfig.json` (src, mock-server, testing, playground,
 * test, bench). vitest's typecheck of the type tests runs this very command, but only after every runtime
 * test of the run, on one core while the other idles (22 s of CPU from a fresh clone). Run here, among the
 * runtime tests (the sequencer starts it first), it overlaps them, and it leaves its result for vitest's
 * run (the file DMQ_TSC_RESULT names, set by vitest.config.ts), whose checker, test/helpers/tsc-replay.mjs,
 * replays it for the same arguments instead of running tsc again, alone at the end. Same checks, in
 * parallel; the errors are reported by both. Its incremental state is vitest's (same --tsBuildInfoFile), so a
 * second run checks only what changed.
 */
const root = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
/** Where vitest keeps its typecheck's incremental state (vitest/dist/tsconfig.tmp.tsbuildinfo, its Typechecker). */
const BUILD_INFO = join(dirname(require.resolve("vitest/package.json")), "dist", "tsconfig.tmp.tsbuildinfo");
const TSC = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");

test("tsc finds no error in the project (the command vitest's typecheck runs)", async () => {
  const args = ["--noEmit", "--pretty", "false", "--incremental", "--tsBuildInfoFile", BUILD_INFO, "-p", join(root, "tsconfig.json")];
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [TSC, ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
  const result = process.env["DMQ_TSC_RESULT"];
  if (result !== undefined) {
    // Whole or not at all: written aside, then renamed.
    writeFileSync(`${result}.tmp`, JSON.stringify({ args, code, stdout, stderr }));
    renameSync(`${result}.tmp`, result);
  }
  const output = `${stdout}${stderr}`;
  const errors = output.split("\n").filter((line) => / error TS\d+:/.test(line));
  expect(errors.slice(0, 20)).toEqual([]);
  expect([code, output.trim()]).toEqual([0, ""]);
}, 600_000);
