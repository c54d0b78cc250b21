import { beforeAll, describe, expect, test } from "vitest";
import { editor } from "../types/language-service.js";
import { quoting, readmeRefusals as rows, refusalSnippet as snippet } from "./readme-refusals.js";

/**
 * The README's table of compiler refusals quotes what today's compiler prints: each row's code,
 * after `selection(1)`, is compiled with the project's options, and the quoted message (its parts
 * between `…`) must be in one of the errors, in order.
 */
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
    expect(quoting(errors, says), `none of the errors quotes ${JSON.stringify(says)}:\n${errors.join("\n")}`).toBeDefined();
  });
});
