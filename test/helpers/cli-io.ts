import type { CliIo } from "../../src/cli/io.js";

/** A CLI io that hears nothing and says nothing: no terminal, empty stdin, no answers. Spread it and replace what a test reads. */
export const quietIo: CliIo = {
  stdout: () => {},
  stderr: () => {},
  env: {},
  stdinIsTTY: false,
  stderrIsTTY: false,
  readStdin: async () => "",
  ask: async () => "",
};
