import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ConditionNode } from "../../../src/query/nodes.js";
import { evaluate, PreparedDataset } from "../../../src/semantics/index.js";
import type { Dataset } from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import { cond, fixture } from "./fixture.js";

/*
 * Laws that hold for any data (docs/reference/filters.md#lines-and-the-conjunction,
 * docs/reference/ordering.md#ordering, docs/reference/selection.md#when-it-applies): lines combine
 * as set operations, ordering permutes the filtered tasks with NULLs last, selection only narrows,
 * and a reused PreparedDataset answers like a fresh one.
 */
const value = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom("1", "2.5", "x", "", "A b"),
  fc.constant(null),
  fc.constant(undefined),
);

const datasetArb = fc.array(fc.record({ n: value, s: value }), { minLength: 0, maxLength: 12 }).map(
  (rows): Dataset => ({
    ...fixture,
    tasks: rows.map((r, i) => {
      const data: Record<string, JsonValue> = {};
      if (r.n !== undefined) data.n = r.n;
      if (r.s !== undefined) data.s = r.s;
      return { ...(fixture.tasks[0] as Dataset["tasks"][number]), id: i + 1, inner_id: i + 1, data };
    }),
  }),
);

// Conditions that never raise on this data (text comparisons, ids, JSON equality).
const conditionArb: fc.Arbitrary<ConditionNode> = fc.oneof(
  fc
    .record({ op: fc.constantFrom("contains", "not_contains", "equal", "not_equal"), v: fc.constantFrom("1", "x", "a", "") })
    .map(({ op, v }) => cond("data.s", op, "String", v)),
  fc
    .record({ op: fc.constantFrom("equal", "not_equal"), v: fc.integer({ min: -5, max: 5 }) })
    .map(({ op, v }) => cond("data.n", op, "Unknown", v)),
  fc
    .record({ op: fc.constantFrom("less", "greater", "not_equal"), v: fc.integer({ min: 0, max: 12 }) })
    .map(({ op, v }) => cond("id", op, "Number", v)),
  fc.boolean().map((b) => cond("data.s", "empty", "String", b)),
);

const ids = (data: Dataset, items: ConditionNode[], conjunction: "and" | "or" = "and") =>
  evaluate(data, { filters: { conjunction, items } }).ids;

describe("laws", () => {
  test("AND of lines is the intersection, OR the union (in id order)", () => {
    fc.assert(
      fc.property(datasetArb, conditionArb, conditionArb, (data, a, b) => {
        const x = new Set(ids(data, [a])),
          y = new Set(ids(data, [b]));
        const all = data.tasks.map((t) => t.id);
        expect(ids(data, [a, b], "and")).toEqual(all.filter((id) => x.has(id) && y.has(id)));
        expect(ids(data, [a, b], "or")).toEqual(all.filter((id) => x.has(id) || y.has(id)));
      }),
    );
  });

  test("a child is the same as a separate AND line for task-level conditions", () => {
    fc.assert(
      fc.property(datasetArb, conditionArb, conditionArb, (data, a, b) => {
        expect(ids(data, [{ ...a, children: [b] }])).toEqual(ids(data, [a, b], "and"));
      }),
    );
  });

  test("ordering permutes the filtered tasks; NULLs last either way; ties by id", () => {
    fc.assert(
      fc.property(datasetArb, conditionArb, fc.boolean(), (data, c, descending) => {
        const filtered = ids(data, [c]);
        const ordered = evaluate(data, { filters: { conjunction: "and", items: [c] }, ordering: [{ column: "data.s", descending }] }).ids;
        expect([...ordered].sort((p, q) => p - q)).toEqual(filtered);
        const text = (id: number) => data.tasks[id - 1]?.data.s;
        const firstNull = ordered.findIndex((id) => text(id) === undefined || text(id) === null);
        if (firstNull >= 0) expect(ordered.slice(firstNull).every((id) => text(id) === undefined || text(id) === null)).toBe(true);
        for (let k = 1; k < ordered.length; k++) {
          const p = ordered[k - 1] as number,
            q = ordered[k] as number;
          if (JSON.stringify(text(p)) === JSON.stringify(text(q))) expect(p).toBeLessThan(q);
        }
      }),
    );
  });

  test("selection only narrows and keeps the order (lists shorter and longer than the project, repeats, unknown ids)", () => {
    fc.assert(
      fc.property(datasetArb, fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 40 }), fc.boolean(), (data, picked, all) => {
        const base = evaluate(data, { ordering: [{ column: "data.n", descending: true }] }).ids;
        const sel = all ? { all: true as const, excluded: picked } : { all: false as const, included: picked };
        const got = evaluate(data, { ordering: [{ column: "data.n", descending: true }], selectedItems: sel }).ids;
        const keep = (id: number) => (all ? !picked.includes(id) : picked.length === 0 || picked.includes(id));
        expect(got).toEqual(base.filter(keep));
      }),
    );
  });

  test("a reused PreparedDataset answers like the raw dataset", () => {
    fc.assert(
      fc.property(datasetArb, fc.array(conditionArb, { minLength: 1, maxLength: 3 }), (data, conditions) => {
        const prepared = new PreparedDataset(data);
        for (const c of conditions) expect(evaluate(prepared, { filters: { conjunction: "and", items: [c] } }).ids).toEqual(ids(data, [c]));
      }),
    );
  });
});
