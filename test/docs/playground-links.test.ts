import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { demoData } from "../../mock-server/demo.js";
import { docLinks, nullExample, operatorExamples, PLAYGROUND_BASE } from "../../playground/examples.js";
import { build } from "../../playground/src/chain.js";
import { fromSeed } from "../../playground/src/data.js";
import { draftFromBody, parseLink } from "../../playground/src/link.js";
import { evaluateBody } from "../../src/semantics/index.js";

/*
 * docs/semantics.md links each operator to the playground, preloaded with an example on the demo
 * project. The links are generated (playground/examples.ts); this keeps the docs equal to them and
 * checks that each example is a real lesson: the editor can hold it and it selects some, not all.
 */
const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "semantics.md"), "utf8");

describe("docs/semantics.md playground links", () => {
  test("the docs carry exactly the generated link definitions", () => {
    expect(docs).toContain(`${docLinks()}\n`);
  });

  test.each(Object.keys(operatorExamples))("the operator table links %s", (op) => {
    expect(docs).toContain(`[${op}][try-${op}]`);
  });

  test("every [try-…] reference has a definition", () => {
    const used = new Set([...docs.matchAll(/\]\[(try-[a-z_]+)\]/g)].map((m) => m[1]));
    const defined = new Set([...docs.matchAll(/^\[(try-[a-z_]+)\]: /gm)].map((m) => m[1]));
    expect([...used].sort()).toEqual([...defined].sort());
  });

  const demo = { project: demoData().projects[0]!, ...demoData() };
  test.each(Object.entries(operatorExamples))("%s: the link opens in the editor unchanged and selects some demo tasks", (op, link) => {
    const url = docsUrl(op);
    expect(url.startsWith(PLAYGROUND_BASE)).toBe(true);
    const parsed = parseLink(new URL(url).hash);
    expect(parsed.problems).toEqual([]);
    const { draft, problems } = draftFromBody(1, parsed.body);
    expect(problems).toEqual([]);
    expect(build(draft).body).toEqual(link.body);
    const ids = evaluateBody(demo, link.body).ids;
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(demo.tasks.length);
  });

  test("the NULL example's inline tasks: only the JSON null differs from 'other'", () => {
    const loaded = fromSeed(nullExample.data, 1, "2024-01-01T00:00:00Z");
    expect(evaluateBody(loaded.dataset, nullExample.body).ids).toEqual([3]);
  });
});

/** The URL docs/semantics.md defines for `[try-<name>]`. */
function docsUrl(name: string): string {
  const line = docs.split("\n").find((l) => l.startsWith(`[try-${name}]: `));
  if (!line) throw new Error(`docs/semantics.md has no [try-${name}] definition`);
  return line.slice(`[try-${name}]: `.length);
}
