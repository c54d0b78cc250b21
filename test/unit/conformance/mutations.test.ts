import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { mutationList } from "../../conformance/mutations.js";

// The mutation script (test/conformance/mutations.ts) edits one text per mutation and counts one that no longer
// matches as a survivor; this keeps a refactor from quietly leaving a behaviour without its mutation.
const root = resolve(import.meta.dirname, "../../..");

describe("the conformance suite's mutations", () => {
  it("have unique names", () => {
    const names = mutationList.map((m) => m.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it.each(mutationList.map((m) => [m.name, m] as const))("%s still finds its text exactly once, and changes it", (_, m) => {
    const text = readFileSync(resolve(root, m.file), "utf8");
    expect(text.split(m.from).length - 1, `${m.file} should contain ${JSON.stringify(m.from)} once`).toBe(1);
    expect(m.to).not.toBe(m.from);
  });
});
