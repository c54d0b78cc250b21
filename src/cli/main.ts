#!/usr/bin/env node
import { isMain } from "../../mock-server/is-main.js";
import { processIo, type CliIo } from "./io.js";
import { runProgram } from "./program.js";

export type { CliIo } from "./io.js";

/** Runs `dmq` with `argv` (without node and the script name); resolves to the exit code (0, 1 or 2). */
export function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  return runProgram(argv, io);
}

if (isMain(import.meta.url)) {
  // `dmq tasks list | head -1`: the reader is done, so is the command (no EPIPE stack trace).
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
  const code = await runCli(process.argv.slice(2));
  if (code !== 0) process.exitCode = code;
}
