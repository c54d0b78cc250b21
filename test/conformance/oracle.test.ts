/**
 * The oracle against statements of docs/reference/, with expected answers written by hand from
 * the spec (the page and heading in each title). If the oracle drifts from the spec, these fail first.
 */
import { describe, expect, test } from "vitest";
import type { ConditionNode, QueryNode } from "../../src/query/nodes.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { annotation, dataset, prediction, task } from "./fixtures.js";
import { certainIds, isDefinite, oracle, oracleBody, type Outcome } from "./oracle/index.js";

const cond = (column: string, operator: string, type: string, value: JsonValue, children: ConditionNode[] = []): ConditionNode => ({
  column,
  operator,
  type,
  value,
  children,
});
const where = (conjunction: "and" | "or", ...items: ConditionNode[]): QueryNode => ({ filters: { conjunction, items } });

function ids(outcome: Outcome): number[] {
  expect(outcome.result, JSON.stringify(outcome.errors)).not.toBeNull();
  expect(isDefinite(outcome.result!), outcome.result!.notes.join("; ")).toBe(true);
  return certainIds(outcome.result!);
}
const status = (outcome: Outcome) => {
  expect(outcome.result).toBeNull();
  return outcome.errors.map((e) => e.status);
};

const words = dataset([task(1, { t: "Apple pie" }), task(2, { t: "apple" }), task(3, { t: "Banana" }), task(4, {}), task(5, { t: null })]);

describe("filters on data keys (docs/reference/filters.md#data-keys-and-null)", () => {
  test("contains is case-insensitive; not_contains drops NULL and missing", () => {
    expect(ids(oracle(words, where("and", cond("data.t", "contains", "String", "APP"))))).toEqual([1, 2]);
    expect(ids(oracle(words, where("and", cond("data.t", "not_contains", "String", "APP"))))).toEqual([3]);
  });
  test("regex is case-sensitive and searches anywhere", () => {
    expect(ids(oracle(words, where("and", cond("data.t", "regex", "String", "pp"))))).toEqual([1, 2]);
    expect(ids(oracle(words, where("and", cond("data.t", "regex", "String", "^A"))))).toEqual([1]);
  });
  test("an invalid regex anywhere empties the whole result, whatever the conjunction", () => {
    const q = where("or", cond("data.t", "contains", "String", "a"), cond("data.t", "regex", "String", "("));
    expect(ids(oracle(words, q))).toEqual([]);
  });
  test("equality on String is JSON-typed: '20' is not 20", () => {
    const d = dataset([task(1, { n: 20 }), task(2, { n: "20" })]);
    expect(ids(oracle(d, where("and", cond("data.n", "equal", "String", "20"))))).toEqual([2]);
    expect(ids(oracle(d, where("and", cond("data.n", "equal", "Unknown", 20))))).toEqual([1]);
  });
  test("Number casts: '50' counts as 50; in is inclusive; not_in_list drops missing (C1, F09, D2)", () => {
    const d = dataset([task(1, { n: 50 }), task(2, { n: "50" }), task(3, { n: 10 }), task(4, {})]);
    expect(ids(oracle(d, where("and", cond("data.n", "equal", "Number", 50))))).toEqual([1, 2]);
    expect(ids(oracle(d, where("and", cond("data.n", "in", "Number", { min: 10, max: 50 }))))).toEqual([1, 2, 3]);
    expect(ids(oracle(d, where("and", cond("data.n", "not_in_list", "Number", [10]))))).toEqual([1, 2]);
    expect(ids(oracle(d, where("and", cond("data.n", "empty", "Number", true))))).toEqual([4]);
  });
  test("Number on a non-numeric value is a cast error (500)", () => {
    const d = dataset([task(1, { n: 5 }), task(2, { n: "abc" })]);
    expect(status(oracle(d, where("and", cond("data.n", "greater", "Number", 1))))).toContain(500);
  });
  test(
    "in_list normalises (trim, quotes, dedupe); an empty in_list matches nothing, an empty not_in_list is dropped" +
      " (docs/reference/filters.md#in_list-and-not_in_list)",
    () => {
      expect(ids(oracle(words, where("and", cond("data.t", "in_list", "String", [' "apple" ', "Banana", "apple"]))))).toEqual([2, 3]);
      expect(
        ids(oracle(words, where("or", cond("data.t", "in_list", "String", ["  "]), cond("data.t", "equal", "String", "Banana")))),
      ).toEqual([3]);
      expect(ids(oracle(words, where("and", cond("data.t", "not_in_list", "String", [""]))))).toEqual([1, 2, 3, 4, 5]);
    },
  );
  test("empty on String: missing and null are empty", () => {
    expect(ids(oracle(words, where("and", cond("data.t", "empty", "String", true))))).toEqual([4, 5]);
    expect(ids(oracle(words, where("and", cond("data.t", "empty", "String", "False"))))).toEqual([1, 2, 3]);
  });
  test("unknown operators act as equal, not_* ones as not-equal (docs/reference/filters.md#generic-operators)", () => {
    expect(ids(oracle(words, where("and", cond("data.t", "starts_with", "String", "apple"))))).toEqual([2]);
  });
});

describe("special columns (docs/reference/filters.md#special-columns)", () => {
  const d = dataset(
    [task(1), task(2), task(3, {}, { updated_by: 2 }), task(4)],
    [
      annotation(1, { completed_by: 1 }),
      annotation(1, { completed_by: 2, result: [] }),
      annotation(2, { completed_by: 2, was_cancelled: true }),
    ],
    [prediction(2, { model_version: "v2" })],
  );
  test("annotators: separate AND lines may match different annotations (F19); cancelled ones count", () => {
    const q = where("and", cond("annotators", "contains", "List", [1]), cond("annotators", "contains", "List", [2]));
    expect(ids(oracle(d, q))).toEqual([1]);
    expect(ids(oracle(d, where("and", cond("annotators", "contains", "List", [2]))))).toEqual([1, 2]);
    expect(ids(oracle(d, where("and", cond("annotators", "not_contains", "List", [2]))))).toEqual([3, 4]);
  });
  test("an empty user list drops the whole line (N3)", () => {
    expect(
      ids(oracle(d, where("and", { ...cond("annotators", "contains", "List", []), children: [cond("id", "equal", "Number", 1)] }))),
    ).toEqual([1, 2, 3, 4]);
  });
  test("updated_by not_contains keeps tasks without updated_by (J7)", () => {
    expect(ids(oracle(d, where("and", cond("updated_by", "not_contains", "List", [2]))))).toEqual([1, 2, 4]);
  });
  test("results empty: a task with a [] annotation is empty and not non-empty; no annotation is empty (H1–H4)", () => {
    expect(ids(oracle(d, where("and", cond("annotations_results", "empty", "String", true))))).toEqual([1, 3, 4]);
    expect(ids(oracle(d, where("and", cond("annotations_results", "empty", "String", false))))).toEqual([2]);
    // predictions_results empty tests annotations too (a quirk)
    expect(ids(oracle(d, where("and", cond("predictions_results", "empty", "String", true))))).toEqual([1, 3, 4]);
  });
  test("results equal with a value that is not JSON empties the result (J5)", () => {
    expect(
      ids(oracle(d, where("or", cond("id", "greater", "Number", 0), cond("annotations_results", "equal", "String", "PREDICTIONS")))),
    ).toEqual([]);
  });
  test("results contains is case-sensitive on the jsonb text", () => {
    expect(ids(oracle(d, where("and", cond("annotations_results", "contains", "String", '{"value": {"choices": ["A"]}}'))))).toEqual([
      1, 2,
    ]);
    expect(ids(oracle(d, where("and", cond("annotations_results", "contains", "String", 'choices": ["a'))))).toEqual([]);
  });
  test("counters: empty means == 0; cancelled annotations are not in total_annotations", () => {
    expect(ids(oracle(d, where("and", cond("total_annotations", "empty", "Number", true))))).toEqual([2, 3, 4]);
    expect(ids(oracle(d, where("and", cond("cancelled_annotations", "equal", "Number", 1))))).toEqual([2]);
  });
  test("in_list is refused outside its allow-list (400), and so is a user filter's unsupported operator", () => {
    expect(status(oracle(d, where("and", cond("created_at", "in_list", "Datetime", ["2024-01-01T00:00:00.000Z"]))))).toEqual([400]);
    expect(status(oracle(d, where("and", cond("annotators", "greater", "List", 1))))).toEqual([400]);
  });
  test("an Enterprise column is a FieldError (500); agreement filters are skipped", () => {
    expect(status(oracle(d, where("and", cond("reviewed", "equal", "Boolean", true))))).toEqual([500]);
    expect(ids(oracle(d, where("and", cond("agreement", "greater", "Number", 50))))).toEqual([1, 2, 3, 4]);
  });
  test("model versions contains is a case-sensitive substring per version", () => {
    expect(ids(oracle(d, where("and", cond("predictions_model_versions", "contains", "List", ["v"]))))).toEqual([2]);
    expect(ids(oracle(d, where("and", cond("predictions_model_versions", "contains", "List", ["V"]))))).toEqual([]);
  });
});

describe("ordering and selection (docs/reference/ordering.md#ordering, docs/reference/selection.md#when-it-applies)", () => {
  const d = dataset(
    [task(1, { s: "9" }), task(2, { s: "10" }), task(3, {}), task(4, { s: "8" })],
    [annotation(2, { created_at: "2024-03-01T00:00:00.000000Z" })],
  );
  const order = (q: QueryNode) => certainIds(oracle(d, q).result!);
  test("data keys order as text unless columnsDisplayType says Number", () => {
    expect(order({ ordering: [{ column: "data.s", descending: false }] })).toEqual([2, 4, 1, 3]);
    expect(order({ ordering: [{ column: "data.s", descending: false }], columnsDisplayType: { "tasks:data.s": "Number" } })).toEqual([
      4, 1, 2, 3,
    ]);
  });
  test("NULLs last in both directions (O03/O04)", () => {
    expect(order({ ordering: [{ column: "completed_at", descending: false }] })[0]).toBe(2);
    expect(order({ ordering: [{ column: "completed_at", descending: true }] })[0]).toBe(2);
    expect(order({ ordering: [{ column: "data.s", descending: true }] })).toEqual([1, 4, 2, 3]);
  });
  test("selection narrows the filtered set; {all: false, included: []} selects everything", () => {
    expect(order({ selectedItems: { all: false, included: [3, 1, 99] } })).toEqual([1, 3]);
    expect(order({ selectedItems: { all: false, included: [] } })).toEqual([1, 2, 3, 4]);
    expect(
      order({ selectedItems: { all: true, excluded: [2] }, filters: { conjunction: "and", items: [cond("id", "greater", "Number", 1)] } }),
    ).toEqual([3, 4]);
  });
});

describe("raw bodies (docs/reference/request.md#where-the-query-comes-from, docs/reference/selection.md#invalid-shapes)", () => {
  test("a filter without the filter:tasks: prefix is ignored; its children go with it", () => {
    const body = {
      filters: {
        conjunction: "and",
        items: [
          {
            filter: "tasks:id",
            operator: "equal",
            type: "Number",
            value: 1,
            child_filter: { filter: "filter:tasks:id", operator: "equal", type: "Number", value: 2 },
          },
        ],
      },
    };
    expect(ids(oracleBody(words, body))).toEqual([1, 2, 3, 4, 5]);
  });
  test("tasks:-x orders descending; only ordering[0] counts; selectedItems may be a JSON string", () => {
    const body = { ordering: ["tasks:-id", "tasks:id"], selectedItems: JSON.stringify({ all: true, excluded: [2] }) };
    expect(certainIds(oracleBody(words, body).result!)).toEqual([5, 4, 3, 1]);
  });
  test("shape errors are 500, traversal is 400", () => {
    expect(status(oracleBody(words, { filters: { items: [] } }))).toEqual([500]);
    expect(status(oracleBody(words, { selectedItems: [1] }))).toEqual([500]);
    expect(status(oracleBody(words, { selectedItems: "{oops" }))).toEqual([500]);
    expect(
      status(
        oracleBody(words, {
          filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "equal", type: "Number", value: null }] },
        }),
      ),
    ).toEqual([500]);
    expect(
      status(
        oracleBody(words, {
          filters: {
            conjunction: "and",
            items: [{ filter: "filter:tasks:updated_by__email", operator: "equal", type: "String", value: "x" }],
          },
        }),
      ),
    ).toEqual([400]);
  });
});
