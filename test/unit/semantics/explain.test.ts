import { describe, expect, test } from "vitest";
import { evaluate, EvaluationError, explain } from "../../../src/semantics/index.js";
import { thrown } from "../../helpers/thrown.js";
import { anyOf, cond, fixture, where } from "./fixture.js";

/* Expected traces are worked out by hand from the fixture's table (fixture.ts), never by the engine. */

describe("explain: each condition's value and verdict for one task", () => {
  const after2024 = where(cond("completed_at", "greater", "Datetime", "2024-01-01T00:00:00.000Z"));

  test("a NULL completed_at fails a comparison, and the trace says so", () => {
    const why = explain(fixture, after2024).why(3);
    expect(why.lines).toHaveLength(1);
    const [c] = why.lines[0]!.conditions;
    expect(c).toMatchObject({ path: "filters.items[0]", column: "completed_at", reads: "NULL", outcome: false });
    expect(c!.text).toBe('completed_at = NULL → "greater" is false (NULL satisfies no comparison)');
    expect(why).toMatchObject({ passesFilters: false, selected: false, position: undefined });
    expect(why.steps).toEqual(["filters (and): line 1 false → filtered out"]);
  });

  test("a set completed_at reads as Postgres prints it and passes", () => {
    const why = explain(fixture, after2024).why(1);
    expect(why.lines[0]!.conditions[0]).toMatchObject({ reads: "2024-05-02 00:00:00+00", outcome: true });
    expect(why.lines[0]!.conditions[0]!.text).toBe('completed_at = 2024-05-02 00:00:00+00 → "greater" is true');
    expect(why.steps).toEqual(["filters (and): line 1 true → passes", "selected: #1 in the order by id"]);
  });

  test("missing key, JSON null and text under a negated operator", () => {
    const e = explain(fixture, where(cond("data.text", "not_equal", "String", "other")));
    expect(e.ids).toEqual([1, 4]);
    expect(e.why(3).lines[0]!.conditions[0]!.text).toBe(
      'data.text = NULL (no such key) → "not_equal" is false (a negated condition never matches NULL)',
    );
    expect(e.why(4).lines[0]!.conditions[0]).toMatchObject({ reads: "null", outcome: true });
    expect(e.why(2).lines[0]!.conditions[0]).toMatchObject({ reads: '"other"', outcome: false });
  });

  test("a Number filter shows the stored text and its cast", () => {
    const e = explain(fixture, where(cond("data.num", "greater", "Number", 6)));
    expect(e.why(2).lines[0]!.conditions[0]).toMatchObject({ reads: '"5", cast to float: 5', outcome: false });
    expect(e.why(1).lines[0]!.conditions[0]).toMatchObject({ reads: "10", outcome: true });
  });

  test("list columns read their aggregate; a task without annotations reads NULL", () => {
    const e = explain(fixture, where(cond("annotators", "contains", "List", [2])));
    expect(e.why(1).lines[0]!.conditions[0]).toMatchObject({ reads: "[1, 2]", outcome: true });
    expect(e.why(3).lines[0]!.conditions[0]).toMatchObject({ reads: "NULL (no annotation)", outcome: false });
  });
});

describe("explain: lines, the conjunction, selectedItems and order", () => {
  test("two conditions on one line must hold for the same annotation; as two lines they need not", () => {
    const child = explain(fixture, where(cond("annotators", "contains", "List", [1], [cond("annotators", "contains", "List", [2])])));
    expect(child.ids).toEqual([]);
    const line = child.why(1).lines[0]!;
    expect(line.conditions.map((c) => [c.path, c.outcome])).toEqual([
      ["filters.items[0]", true],
      ["filters.items[0].child_filters[0]", true],
    ]);
    expect(line.outcome).toBe(false);
    expect(line.note).toMatch(/not on the same annotation/);

    const apart = explain(fixture, where(cond("annotators", "contains", "List", [1]), cond("annotators", "contains", "List", [2])));
    expect(apart.ids).toEqual([1]);
    expect(apart.why(1).lines.map((l) => [l.outcome, l.note])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
  });

  test("a line with nothing to test drops out; under or it does not match everything", () => {
    const e = explain(fixture, anyOf(cond("annotators", "contains", "List", []), cond("id", "equal", "Number", 1)));
    expect(e.ids).toEqual([1]);
    const why = e.why(2);
    expect(why.lines.map((l) => l.outcome)).toEqual(["dropped", false]);
    expect(why.lines[0]!.note).toMatch(/drops out/);
    expect(why.lines[0]!.conditions[0]!.text).toBe('annotators = [3] → "contains" drops out (nothing to test)');
    expect(why.steps).toEqual(["filters (or): line 1 dropped, line 2 false → filtered out"]);
  });

  test("selectedItems and ordering: excluded ids and positions", () => {
    const e = explain(fixture, { ordering: [{ column: "id", descending: true }], selectedItems: { all: true, excluded: [2] } });
    expect(e.ids).toEqual([4, 3, 1]);
    expect(e.why(2)).toMatchObject({ passesFilters: true, selected: false, position: undefined });
    expect(e.why(2).steps).toEqual(["filters: none, every task passes", "selectedItems: excluded by id → not selected"]);
    expect(e.why(3).steps).toEqual(["filters: none, every task passes", "selected: #2 in the order by -id, ties by id"]);
    const included = explain(fixture, { selectedItems: { all: false, included: [4, 2] } });
    expect(included.ids).toEqual([2, 4]);
    expect(included.why(1).steps[1]).toBe("selectedItems: not among the included ids → not selected");
    expect(explain(fixture, { selectedItems: { all: false, included: [] } }).why(1).steps[1]).toBe(
      "selectedItems: included is empty, which selects every task",
    );
  });

  test("an uncompilable regex empties the answer, and every task says why", () => {
    const e = explain(fixture, where(cond("data.text", "regex", "String", "(")));
    expect(e.ids).toEqual([]);
    expect(e.emptied).toMatch(/^the regex "\(" at filters\.items\[0\]\.value does not compile in Python/);
    expect(e.why(1).steps[0]).toBe(`filters: ${e.emptied}`);
  });
});

describe("explain agrees with evaluate", () => {
  test("same ids, derived columns and totals", () => {
    const q = anyOf(cond("data.num", "greater", "Number", 6), cond("total_predictions", "equal", "Number", 0));
    const e = explain(fixture, q),
      v = evaluate(fixture, q);
    expect(e.ids).toEqual(v.ids);
    expect(e.totals()).toEqual(v.totals());
    expect(e.derived(1)).toEqual(v.derived(1));
  });

  test("same errors, thrown before any trace", () => {
    const q = where(cond("data.num", "greater", "Number", "ten"));
    const fromExplain = thrown(EvaluationError, () => explain(fixture, q));
    const fromEvaluate = thrown(EvaluationError, () => evaluate(fixture, q));
    expect(fromExplain.message).toBe(fromEvaluate.message);
  });

  test("why() of a task outside the project is a RangeError naming it", () => {
    expect(() => explain(fixture, {}).why(5)).toThrow("why(5): task 5 is not a task of project 1");
  });
});
