import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseQueryBody } from "../../src/wire/parse.js";
import { arbConditionOf, arbSelectionSpec, buildableKinds, buildSelection, operatorsOf, type SelectionSpec } from "./arbitraries.js";

/** What travels: the selection's JSON text, decoded as the server decodes it. */
const wire = (s: { toJSON(): unknown }): unknown => JSON.parse(JSON.stringify(s));

function roundTrips(spec: SelectionSpec, context: "inline" | "view"): void {
  const sel = buildSelection(spec);
  const parsed = parseQueryBody(wire(sel), { context });
  expect(parsed.issues).toEqual([]);
  expect(parsed.answer).toBeUndefined();
  expect(parsed.query).toEqual(sel.toQuery());
}

describe("round trip: builder → JSON → parser", () => {
  test("a request body parses back to the builder's query, with no issue", () => {
    fc.assert(
      fc.property(arbSelectionSpec(), (spec) => roundTrips(spec, "inline")),
      { numRuns: 400 },
    );
  });

  test("the same body saved as a view's data parses back unchanged (view-safe keys and user ids)", () => {
    fc.assert(
      fc.property(arbSelectionSpec({ viewSafe: true }), (spec) => roundTrips(spec, "view")),
      { numRuns: 300 },
    );
  });

  // The property above picks kinds and operators at random; this makes every pair certain.
  for (const kind of buildableKinds) {
    for (const operator of operatorsOf(kind)) {
      test(`${kind} × ${operator}`, () => {
        const line = (root: fc.Arbitrary<SelectionSpec["lines"][number]["root"]>) => root.map((r) => ({ root: r, children: [] }));
        const spec = fc.record({
          project: fc.constant(1),
          conjunction: fc.constant("and" as const),
          lines: fc.tuple(line(arbConditionOf(kind, operator))),
        });
        fc.assert(
          fc.property(spec, (s) => roundTrips(s, "inline")),
          { numRuns: 25 },
        );
      });
    }
  }
});
