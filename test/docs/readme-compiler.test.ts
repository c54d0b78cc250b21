import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { editor } from "../types/language-service.js";

/**
 * The README's table of compiler refusals quotes what today's compiler prints: each row's code,
 * after `selection(1)`, is compiled with the project's options, and the quoted message (its parts
 * between `…`) must be in one of the errors, in order.
 */
const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
const start = readme.indexOf("| you write | the server would | dmq says |");
const rows = readme
  .slice(start, readme.indexOf("\n\n", start))
  .split("\n")
  .slice(2)
  .map((line) => [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string))
  .map((cells) => ({ code: cells[0] as string, says: cells.at(-1) as string }));

const snippet = (code: string) => `void selection(1)${code};`;

describe("README: what the compiler refuses", () => {
  const ed = editor();
  const errorsOf = new Map<string, string[]>();
  // One program for every row: its checker works out the builder's types once (2–3 s of CPU on an idle
  // machine, the whole cost of this file), many times that on a loaded one; so in a hook with a
  // timeout of its own, and each test only reads its row's errors.
  beforeAll(() => {
    ed.prepare(rows.map((r) => snippet(r.code)));
    for (const { code } of rows) errorsOf.set(code, ed.errors(snippet(code)));
  }, 180_000);

  test("the table has its rows", () => {
    expect(rows.length).toBeGreaterThanOrEqual(9);
  });

  test.each(rows)("$code: the compiler says $says", ({ code, says }) => {
    const errors = errorsOf.get(code) ?? [];
    expect(errors.length, `${code} compiles without an error`).toBeGreaterThan(0);
    const parts = says
      .split("…")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    const quoted = errors.find((e) => {
      let at = 0;
      for (const part of parts) {
        const found = e.indexOf(part, at);
        if (found < 0) return false;
        at = found + part.length;
      }
      return true;
    });
    expect(quoted, `none of the errors quotes ${JSON.stringify(says)}:\n${errors.join("\n")}`).toBeDefined();
  });
});
