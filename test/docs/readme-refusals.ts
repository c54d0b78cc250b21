import { readFileSync } from "node:fs";
import { join } from "node:path";

/*
 * The README's table of compiler refusals: each row's code (to follow `selection(1)`) and the message it quotes
 * (its parts between `…`). Compiled by the project's TypeScript (readme-compiler.test.ts) and by TypeScript 7
 * (test/types/typescript7.test.ts).
 */
const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
const start = readme.indexOf("| you write | the server would | dmq says |");

export const readmeRefusals = readme
  .slice(start, readme.indexOf("\n\n", start))
  .split("\n")
  .slice(2)
  .map((line) => [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string))
  .map((cells) => ({ code: cells[0] as string, says: cells.at(-1) as string }));

/** A row's code as a statement (after the prelude of test/types/error-texts.ts). */
export const refusalSnippet = (code: string) => `void selection(1)${code};`;

/** The error that quotes `says` (its parts, in order), if any. */
export function quoting(errors: readonly string[], says: string): string | undefined {
  const parts = says
    .split("…")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return errors.find((e) => {
    let at = 0;
    for (const part of parts) {
      const found = e.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
    return true;
  });
}
