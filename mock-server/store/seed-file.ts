import { readFileSync } from "node:fs";
import { SeedError } from "../../src/contract/seed.js";

// Apart from the seed loader (src/contract/seed.ts), which has no Node imports: the playground loads inline seeds in the browser.

/** Read a seed file (JSON); the error names the file and what went wrong. */
export function readSeedFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new SeedError("(file)", `a readable JSON seed file at ${path}`, (error as Error).message);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SeedError("(file)", `JSON in ${path}`, `a parse error: ${(error as Error).message}`);
  }
}
