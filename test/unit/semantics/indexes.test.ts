/**
 * The engine's fast paths answer as its plain ones: equality lookups and indexes (a
 * PreparedDataset builds them the second time a query asks), the sort index, the digit-by-digit
 * timestamp reader and the collation's code-point shortcut. Expected ids are worked out by hand.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ConditionNode, QueryNode } from "../../../src/query/nodes.js";
import { collate } from "../../../src/emulation/postgres.js";
import { evaluate, PreparedDataset } from "../../../src/semantics/index.js";
import { timestampMicros } from "../../../src/vocabulary/timestamps.js";
import type { Dataset, TaskRecord } from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";

const task = (id: number, data: TaskRecord["data"]): TaskRecord => ({
  id,
  project: 1,
  inner_id: id,
  data,
  created_at: "2024-01-01T00:00:00.000000Z",
  updated_at: "2024-01-01T00:00:00.000000Z",
  updated_by: null,
  file_upload: null,
  storage_filename: null,
});
const datasetOf = (tasks: TaskRecord[]): Dataset => ({
  project: { id: 1, title: "p", label_config: "<View/>", model_version: null },
  tasks,
  annotations: [],
  predictions: [],
});
const cond = (column: string, operator: string, type: string, value: JsonValue): ConditionNode => ({
  column,
  operator,
  type,
  value,
  children: [],
});
const anyOf = (...items: ConditionNode[]): QueryNode => ({ filters: { conjunction: "or", items } });
const allOf = (...items: ConditionNode[]): QueryNode => ({ filters: { conjunction: "and", items } });

/** The answer cold, and again on the same PreparedDataset (indexed): both must be `expected`. */
function expectIds(dataset: Dataset, query: QueryNode, expected: readonly number[]): void {
  const ds = new PreparedDataset(dataset);
  expect(evaluate(ds, query).ids, "cold").toEqual(expected);
  expect(evaluate(ds, query).ids, "indexed").toEqual(expected);
  expect(evaluate(ds, query).ids, "indexed, again").toEqual(expected);
}

//   task  data.v
//   1     "1"       2  1        3  true     4  null     5  (missing)   6  {"a": 1}
//   7     [1]       8  "a"      9  1.5      10 "1"      11 1           12 false
const mixed = datasetOf([
  task(1, { v: "1" }),
  task(2, { v: 1 }),
  task(3, { v: true }),
  task(4, { v: null }),
  task(5, {}),
  task(6, { v: { a: 1 } }),
  task(7, { v: [1] }),
  task(8, { v: "a" }),
  task(9, { v: 1.5 }),
  task(10, { v: "1" }),
  task(11, { v: 1 }),
  task(12, { v: false }),
]);

describe("equality lookups", () => {
  test("an OR of equalities on a data key is one lookup with JSON equality: '1' is not 1, true is not 1", () => {
    expectIds(mixed, anyOf(cond("data.v", "equal", "String", "1"), cond("data.v", "equal", "String", "a")), [1, 8, 10]);
    expectIds(mixed, anyOf(cond("data.v", "equal", "Unknown", 1), cond("data.v", "equal", "Unknown", true)), [2, 3, 11]);
    expectIds(mixed, anyOf(cond("data.v", "equal", "Boolean", false), cond("data.v", "equal", "String", "zzz")), [12]);
  });

  test("in_list is a set; with Number every stored value is cast (a 500 for text that is not a number)", () => {
    expectIds(mixed, allOf(cond("data.v", "in_list", "String", ["1", 1.5])), [1, 9, 10]);
    const numbers = datasetOf([
      task(1, { n: "2" }),
      task(2, { n: 2 }),
      task(3, { n: 2.5 }),
      task(4, {}),
      task(5, { n: "nan" }),
      task(6, { n: null }),
    ]);
    expectIds(numbers, allOf(cond("data.n", "in_list", "Number", [2, "nan"])), [1, 2, 5]);
    expectIds(numbers, anyOf(cond("data.n", "equal", "Number", 2.5), cond("data.n", "equal", "Number", "2")), [1, 2, 3]);
  });

  test("lookups on different targets are not merged; lookups and scans mix under AND and OR", () => {
    const two = datasetOf([task(1, { a: "x", b: "y" }), task(2, { a: "y", b: "x" }), task(3, { a: "x", b: "x" }), task(4, { a: "z" })]);
    expectIds(two, anyOf(cond("data.a", "equal", "String", "x"), cond("data.b", "equal", "String", "y")), [1, 3]);
    expectIds(two, anyOf(cond("data.a", "equal", "String", "z"), cond("data.b", "equal", "String", "x")), [2, 3, 4]);
    expectIds(two, allOf(cond("data.a", "equal", "String", "x"), cond("data.b", "contains", "String", "X")), [3]);
    expectIds(two, anyOf(cond("data.a", "equal", "String", "y"), cond("data.b", "contains", "String", "Y")), [1, 2]);
  });

  test("ids read the primary key: Django's int() truncates, unknown ids select nothing, negation is a scan", () => {
    const tasks = datasetOf([task(3, {}), task(5, {}), task(9, {}), task(10, {})]);
    expectIds(tasks, allOf(cond("id", "in_list", "Number", [9, 4, 3])), [3, 9]);
    expectIds(tasks, anyOf(cond("id", "equal", "Number", 5.9), cond("id", "equal", "Number", 10)), [5, 10]);
    expectIds(tasks, allOf(cond("id", "not_in_list", "Number", [9, 4, 3])), [5, 10]);
    expectIds(tasks, { ...allOf(cond("id", "greater", "Number", 3)), selectedItems: { all: false, included: [10, 3, 9, 10] } }, [9, 10]);
  });

  test("NULL and a missing key equal nothing; a negated equality never matches them", () => {
    expectIds(mixed, allOf(cond("data.v", "not_equal", "String", "1")), [2, 3, 4, 6, 7, 8, 9, 11, 12]);
  });
});

describe("PreparedDataset.index", () => {
  test("built the second time it is asked for, then kept", () => {
    const ds = new PreparedDataset(mixed);
    let builds = 0;
    const build = () => ++builds;
    expect(ds.index("k", build)).toBeUndefined();
    expect(ds.index("k", build)).toBe(1);
    expect(ds.index("k", build)).toBe(1);
    expect(builds).toBe(1);
  });
});

describe("ordering", () => {
  const textArb = fc.oneof(
    fc.stringMatching(/^[0-9a-z ]{0,4}$/),
    fc.constantFrom("A", "a", "B", "b-", "é", "e", "E", "10", "9", " x", "x ", "_", "ä", "Z"),
  );
  test("text keys order as the collation does (code points only where it agrees), NULLs last, ties by id", () => {
    fc.assert(
      fc.property(fc.array(fc.option(textArb, { nil: undefined }), { maxLength: 40 }), fc.boolean(), (values, descending) => {
        const dataset = datasetOf(values.map((s, i) => task(i + 1, s === undefined ? {} : { s })));
        const expected = values
          .map((s, i) => ({ id: i + 1, s: s ?? null }))
          .sort((x, y) => {
            if (x.s === null || y.s === null) return x.s === y.s ? x.id - y.id : x.s === null ? 1 : -1;
            return (descending ? -collate(x.s, y.s) : collate(x.s, y.s)) || x.id - y.id;
          })
          .map((r) => r.id);
        expectIds(dataset, { ordering: [{ column: "data.s", descending }] }, expected);
      }),
      { numRuns: 300 },
    );
  });

  test("a small selection of a large project is sorted, a large one walks the kept order: the same answer", () => {
    const dataset = datasetOf(
      Array.from({ length: 600 }, (_, i) => task(i + 1, { s: `k${(i * 7919) % 600}`, g: i % 300 === 0 ? "few" : "many" })),
    );
    const byKey = (ids: readonly number[]) =>
      [...ids].sort((a, b) => collate(`k${((a - 1) * 7919) % 600}`, `k${((b - 1) * 7919) % 600}`) || a - b);
    const ordering = [{ column: "data.s", descending: false }];
    expectIds(dataset, { ...allOf(cond("data.g", "equal", "String", "few")), ordering }, byKey([1, 301]));
    expectIds(
      dataset,
      { ...allOf(cond("data.g", "equal", "String", "many")), ordering },
      byKey(Array.from({ length: 600 }, (_, i) => i + 1).filter((id) => id !== 1 && id !== 301)),
    );
  });
});

describe("stored timestamps", () => {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  test("read digit by digit exactly as Date.parse and the microsecond digits read them", () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.integer({ min: 0, max: 9999 }),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
          fc.integer({ min: 0, max: 25 }),
          fc.integer({ min: 0, max: 61 }),
          fc.integer({ min: 0, max: 61 }),
          fc.integer({ min: 0, max: 999_999 }),
        ),
        ([y, mo, d, h, mi, s, us]) => {
          const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(us, 6)}Z`;
          const ms = Date.parse(text);
          if (!Number.isNaN(ms)) expect(timestampMicros(text), text).toBe(ms * 1000 + (us % 1000));
        },
      ),
      { numRuns: 2000 },
    );
    expect(timestampMicros("2024-02-29T23:59:59.999999Z")).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999) * 1000 + 999);
    expect(timestampMicros("2024-02-30T00:00:00.000001Z"), "out of range: Date.parse's lenient answer").toBe(
      Date.UTC(2024, 2, 1) * 1000 + 1,
    );
  });
});

describe("number comparisons read the cast straight", () => {
  // data.x cast to float: 1 -> NaN (a value, greater than every number in Postgres), 2 -> 5, 3 -> 3,
  // 4 -> NULL (missing), 5 -> NULL (JSON null), 6 -> -Infinity's text, 7 -> 4 as text.
  const ds = datasetOf([
    task(1, { x: "NaN" }),
    task(2, { x: "5" }),
    task(3, { x: 3 }),
    task(4, {}),
    task(5, { x: null }),
    task(6, { x: "-Infinity" }),
    task(7, { x: "4" }),
  ]);
  // Each query on the records (the cast read task by task in the scan) and three times on one
  // prepared dataset (the second builds the cast column, the third reads it): one answer.
  const ids = (operator: string, value: JsonValue) => {
    const query = allOf(cond("data.x", operator, "Number", value));
    const prepared = new PreparedDataset(ds);
    const answers = [evaluate(ds, query), evaluate(prepared, query), evaluate(prepared, query), evaluate(prepared, query)].map(
      (e) => e.ids,
    );
    for (const other of answers.slice(1)) expect(other, `${operator} ${JSON.stringify(value)} on a prepared dataset`).toEqual(answers[0]);
    return answers[0];
  };
  test("NaN is greater than every number, NULL passes nothing, as Postgres orders float8", () => {
    expect(ids("greater", 4)).toEqual([1, 2]);
    expect(ids("greater_or_equal", 4)).toEqual([1, 2, 7]);
    expect(ids("less", 4)).toEqual([3, 6]);
    expect(ids("less_or_equal", 5)).toEqual([2, 3, 6, 7]);
    expect(ids("in", { min: 3, max: 4 })).toEqual([3, 7]);
    expect(ids("not_equal", 3)).toEqual([1, 2, 6, 7]);
  });
  test("counters and the id compare on their columns, NULL-free", () => {
    const q = (column: string, operator: string, value: JsonValue) => evaluate(ds, allOf(cond(column, operator, "Number", value))).ids;
    expect(q("id", "greater", 5)).toEqual([6, 7]);
    expect(q("inner_id", "less_or_equal", 2)).toEqual([1, 2]);
    expect(q("total_annotations", "greater_or_equal", 0)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(q("total_annotations", "greater", 0)).toEqual([]);
  });
});
