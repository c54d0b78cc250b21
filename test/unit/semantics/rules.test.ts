import { describe, expect, test } from "vitest";
import type { QueryNode } from "../../../src/query/nodes.js";
import { selection } from "../../../src/selection.js";
import { evaluate, EvaluationError } from "../../../src/semantics/index.js";
import type { Dataset } from "../../../src/semantics/records.js";
import { anyOf, cond, fixture, where } from "./fixture.js";

/*
 * Each rule and quirk of the server the engine reproduces, one named row each, with the page and
 * heading of docs/reference/ that states it. Expected ids are worked out by hand from fixture.ts
 * (or the row's own dataset); errors give the status and a fragment of the server's detail text.
 */
type Expect = readonly number[] | { readonly status: 400 | 500; readonly detail: string };
interface Row {
  readonly name: string;
  readonly ref: string;
  readonly query: QueryNode;
  readonly expect: Expect;
  readonly data?: Dataset;
}

const q = (s: { toQuery(): QueryNode }): QueryNode => s.toQuery();

/** Tasks with only `data`, for ordering rows. */
function tasks(...data: Dataset["tasks"][number]["data"][]): Dataset {
  return {
    ...fixture,
    tasks: data.map((d, i) => ({ ...(fixture.tasks[0] as Dataset["tasks"][number]), id: i + 1, inner_id: i + 1, data: d })),
    annotations: [],
    predictions: [],
    drafts: [],
  };
}

const rows: readonly Row[] = [
  // lines and conjunction
  {
    name: "a line is its root AND its child_filters",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: where(cond("data.text", "contains", "String", "o", [cond("id", "greater", "Number", 1)])),
    expect: [2],
  },
  {
    name: "lines are AND-ed with conjunction and",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: q(selection(1).where("tasks:id").less(3).and("tasks:total_predictions").equal(1)),
    expect: [2],
  },
  {
    name: "lines are OR-ed with conjunction or",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: q(selection(1).where("tasks:id").equal(1).or("tasks:id").equal(4)),
    expect: [1, 4],
  },
  {
    name: "empty items select every task",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: { filters: { conjunction: "and", items: [] } },
    expect: [1, 2, 3, 4],
  },
  {
    name: "no filters select every task of the project only",
    ref: "docs/reference/request.md#the-pipeline",
    query: {},
    expect: [1, 2, 3, 4],
  },
  {
    name: "a root with an empty user list drops its whole line, children included",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("annotators", "contains", "List", [], [cond("id", "equal", "Number", 1)])),
    expect: [1, 2, 3, 4],
  },
  {
    name: "a dropped line drops out of an OR instead of matching everything",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: anyOf(cond("annotators", "contains", "List", []), cond("id", "equal", "Number", 2)),
    expect: [2],
  },
  {
    name: "a child with an empty user list drops only itself",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("id", "less", "Number", 3, [cond("annotators", "contains", "List", [])])),
    expect: [1, 2],
  },
  {
    name: "an empty not_in_list is no constraint",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: where(cond("id", "not_in_list", "Number", [" ", "x"])),
    expect: [1, 2, 3, 4],
  },
  {
    name: "an empty in_list matches nothing, also under OR",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: anyOf(cond("id", "in_list", "Number", []), cond("id", "equal", "Number", 2)),
    expect: [2],
  },

  // errors and empty results
  {
    name: "an invalid regex anywhere empties the result",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: anyOf(cond("id", "greater", "Number", 0), cond("id", "equal", "Number", 1, [cond("data.text", "regex", "String", "(")])),
    expect: [],
  },
  {
    name: "unparsable JSON for a results equal empties the whole result, even under OR",
    ref: "docs/reference/filters.md#result-columns",
    query: anyOf(cond("id", "greater", "Number", 0), cond("annotations_results", "equal", "String", "PREDICTIONS")),
    expect: [],
  },
  {
    name: "an unknown filter:tasks:<column> is the server's 500",
    ref: "docs/reference/filters.md#filter-errors",
    query: where(cond("no_such_column", "equal", "String", "x")),
    expect: { status: 500, detail: "Cannot resolve keyword 'no_such_column' into field" },
  },
  {
    name: "an Enterprise column is a 500 on a community server",
    ref: "docs/reference/columns.md#task-columns",
    query: where(cond("comments", "greater", "Number", 0)),
    expect: { status: 500, detail: "Cannot resolve keyword 'comments'" },
  },
  {
    name: "an agreement filter is skipped (stale LSE field)",
    ref: "docs/reference/filters.md#steps-within-a-line",
    query: where(cond("agreement", "greater", "Number", 50), cond("id", "less", "Number", 3)),
    expect: [1, 2],
  },
  {
    name: "a non-numeric value with type Number is a 500",
    ref: "docs/reference/filters.md#filter-errors",
    query: where(cond("id", "equal", "Number", "abc")),
    expect: { status: 500, detail: "could not convert string to float: 'abc'" },
  },
  {
    name: "a data key with non-numeric text under a Number filter makes Postgres fail",
    ref: "docs/reference/filters.md#data-keys-and-null",
    query: where(cond("data.text", "greater", "Number", 1)),
    expect: { status: 500, detail: 'invalid input syntax for type double precision: "Hello World"' },
  },
  {
    name: "a null value is refused by pydantic",
    ref: "docs/reference/filters.md#wire-shape",
    query: where(cond("id", "equal", "Number", null)),
    expect: { status: 500, detail: "validation error" },
  },
  {
    name: "in needs { min, max }",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("id", "in", "Number", 3)),
    expect: { status: 500, detail: "'float' object has no attribute 'min'" },
  },
  {
    name: "an operator containing 'equal' on a key whose first row holds a list is a 400",
    ref: "docs/reference/filters.md#data-keys-and-null",
    data: tasks({ tags: ["a"] }, { tags: "b" }),
    query: where(cond("data.tags", "not_equal", "String", "b")),
    expect: { status: 400, detail: "Not supported filter type" },
  },

  // operators
  {
    name: "regex is a case-sensitive search (matches anywhere)",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("data.text", "regex", "String", "World")),
    expect: [1],
  },
  {
    name: "contains is a case-insensitive substring",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("data.text", "contains", "String", "HELLO")),
    expect: [1],
  },
  {
    name: "in is inclusive at both ends",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("id", "in", "Number", { min: 2, max: 3 })),
    expect: [2, 3],
  },
  {
    name: "an unknown operator acts as equal",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("data.text", "starts_with", "String", "Hello")),
    expect: [],
  },
  {
    name: "an unknown operator acts as equal (exact value)",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("data.text", "ends_with", "String", "other")),
    expect: [2],
  },
  {
    name: "an unknown operator starting with not_ acts as not_equal",
    ref: "docs/reference/filters.md#generic-operators",
    query: where(cond("id", "not_exists", "Number", 2)),
    expect: [1, 3, 4],
  },
  {
    name: "equal on an integer column truncates a fraction (Django's int())",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("id", "equal", "Number", 2.9)),
    expect: [2],
  },

  // casting
  {
    name: 'Number casts data.* text: the string "5" counts as 5',
    ref: "docs/reference/filters.md#data-keys-and-null",
    query: where(cond("data.num", "equal", "Number", "5")),
    expect: [2],
  },
  {
    name: "Datetime values are parsed as %Y-%m-%dT%H:%M:%S.%fZ in UTC",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("created_at", "less", "Datetime", "2024-02-10T00:00:00.000001Z")),
    expect: [1, 2],
  },
  {
    name: "a Datetime value in another ISO form is parsed by Django (offset honoured)",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("created_at", "less", "Datetime", "2024-02-10T01:00:00+02:00")),
    expect: [1],
  },
  {
    name: "an unparsable Datetime value is a 500",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("created_at", "less", "Datetime", "yesterday")),
    expect: { status: 500, detail: "value has an invalid format" },
  },
  {
    name: "Boolean strings: True, yes, on, 1 / false, no, off, 0",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("draft_exists", "equal", "Boolean", "True")),
    expect: [2],
  },
  {
    name: "an unknown Boolean string is a 500",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("draft_exists", "equal", "Boolean", "maybe")),
    expect: { status: 500, detail: 'Incorrect bool value "maybe"' },
  },
  {
    name: "empty takes a Boolean string too",
    ref: "docs/reference/filters.md#value-casting",
    query: where(cond("completed_at", "empty", "Datetime", "True")),
    expect: [3, 4],
  },

  // NULL handling
  {
    name: "negated operators exclude NULL computed values",
    ref: "docs/reference/filters.md#data-keys-and-null",
    query: where(cond("avg_lead_time", "not_equal", "Number", 1)),
    expect: [1],
  },
  {
    name: "negated operators exclude missing data keys",
    ref: "docs/reference/filters.md#data-keys-and-null",
    query: where(cond("data.num", "not_in_list", "Number", [99])),
    expect: [1, 2],
  },
  {
    name: "updated_by NULL is included by not_contains",
    ref: "docs/reference/filters.md#data-keys-and-null",
    query: where(cond("updated_by", "not_contains", "List", [8])),
    expect: [1, 2, 3],
  },
  {
    name: "updated_by legacy not_equal includes NULL too",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("updated_by", "not_equal", "List", 7)),
    expect: [2, 3, 4],
  },
  {
    name: "updated_by legacy equal is a plain comparison",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("updated_by", "equal", "List", 8)),
    expect: [4],
  },
  {
    name: 'String empty: missing, JSON null or "" (first row holds text)',
    ref: "docs/reference/filters.md#data-keys-and-null",
    data: tasks({ t: "x" }, { t: "" }, {}, { t: null }),
    query: where(cond("data.t", "empty", "String", true)),
    expect: [2, 3, 4],
  },
  {
    name: 'String empty ignores "" when the first row\'s value is not text',
    ref: "docs/reference/filters.md#data-keys-and-null",
    data: tasks({ t: 1 }, { t: "" }, {}),
    query: where(cond("data.t", "empty", "String", true)),
    expect: [3],
  },

  // users
  {
    name: "annotators contains counts cancelled annotations",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("annotators", "contains", "List", [2])),
    expect: [1],
  },
  {
    name: "separate AND lines may match different annotations",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: where(cond("annotators", "contains", "List", [1]), cond("annotators", "contains", "List", [2])),
    expect: [1],
  },
  {
    name: "conditions of one line must hold for the same annotation",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: where(cond("annotators", "contains", "List", [1], [cond("annotators", "contains", "List", [2])])),
    expect: [],
  },
  {
    name: "annotators and annotations_ids in one line share the joined annotation",
    ref: "docs/reference/filters.md#lines-and-the-conjunction",
    query: where(cond("annotators", "contains", "List", [2], [cond("annotations_ids", "equal", "String", 11)])),
    expect: [1],
  },
  {
    name: "a list-valued user filter takes contains / not_contains only",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("annotators", "equal", "List", [1])),
    expect: { status: 400, detail: "List-valued user filters support only these operators: contains, not_contains." },
  },
  {
    name: "a user filter refuses other operators",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("annotators", "greater", "List", 1)),
    expect: {
      status: 400,
      detail: 'User filter "annotators" does not support operator "greater". Allowed: contains, empty, not_contains.',
    },
  },
  {
    name: "user ids must be integers",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("annotators", "contains", "List", [1.5])),
    expect: { status: 400, detail: "User filter values must be integer ids." },
  },
  {
    name: "a legacy scalar equal on annotators is a 400 (its value is a list)",
    ref: "docs/reference/filters.md#user-columns",
    query: where(cond("annotators", "equal", "List", 1)),
    expect: { status: 400, detail: "Not supported filter type" },
  },

  // results
  {
    name: 'results contains reads Postgres\' jsonb text (": " and ", " separators)',
    ref: "docs/reference/filters.md#result-columns",
    query: where(cond("annotations_results", "contains", "String", '"from_name": "sentiment", "to_name"')),
    expect: [],
  },
  {
    name: "results text orders keys by length (jsonb storage order)",
    ref: "docs/reference/filters.md#result-columns",
    query: where(
      cond(
        "annotations_results",
        "contains",
        "String",
        '{"type": "choices", "value": {"choices": ["Negative"]}, "to_name": "text", "from_name": "sentiment"}',
      ),
    ),
    expect: [2],
  },
  {
    name: "results equal compares as jsonb (key order irrelevant)",
    ref: "docs/reference/filters.md#result-columns",
    query: where(
      cond(
        "annotations_results",
        "equal",
        "String",
        '[{"value":{"choices":["Negative"]},"type":"choices","to_name":"text","from_name":"sentiment"}]',
      ),
    ),
    expect: [2],
  },
  {
    name: "results empty false excludes a task with any [] annotation",
    ref: "docs/reference/filters.md#result-columns",
    query: where(cond("annotations_results", "empty", "String", false)),
    expect: [2],
  },

  // annotation ids and model versions
  {
    name: "annotations_ids contains splits text on , ; and white space",
    ref: "docs/reference/filters.md#annotation-ids",
    query: where(cond("annotations_ids", "contains", "String", "12;11")),
    expect: [1, 2],
  },
  {
    name: "annotations_ids in_list is refused",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: where(cond("annotations_ids", "in_list", "String", [10])),
    expect: {
      status: 400,
      detail: "`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields.",
    },
  },
  {
    name: "model version contains is a substring test per listed version",
    ref: "docs/reference/filters.md#prediction-model-versions",
    query: where(cond("predictions_model_versions", "contains", "List", ["1", "x"])),
    expect: [1],
  },

  // in_list
  {
    name: "in_list on another column is a 400",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: where(cond("created_at", "in_list", "Datetime", ["2024-01-10T00:00:00.000000Z"])),
    expect: { status: 400, detail: "`is any of`" },
  },
  {
    name: "in_list needs a list",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: where(cond("id", "in_list", "Number", 1)),
    expect: { status: 400, detail: "Filter value must be a list" },
  },
  {
    name: "in_list drops a null element (Django's In lookup discards None)",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: where(cond("data.text", "in_list", "String", [null, "other"])),
    expect: [2],
  },
  {
    name: "in_list of only null matches nothing; not_in_list of only null matches everything",
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    query: anyOf(
      cond("id", "in_list", "String", [null]),
      cond("data.text", "not_in_list", "String", [null], [cond("id", "greater", "Number", 2)]),
    ),
    expect: [3, 4],
  },
  {
    name: 'String in_list compares JSON-typed: ["1"] does not match the number 1',
    ref: "docs/reference/filters.md#in_list-and-not_in_list",
    data: tasks({ k: 1 }, { k: "1" }),
    query: where(cond("data.k", "in_list", "String", ["1"])),
    expect: [2],
  },

  // data keys
  {
    name: "data.a__b reaches a nested key for String filters",
    ref: "docs/reference/filters.md#column-names",
    data: tasks({ a: { b: "x" } }, { a: { b: "y" } }),
    query: where(cond("data.a__b", "equal", "String", "x")),
    expect: [1],
  },
  {
    name: "a Number filter reads data.a__b as one literal key (KeyTextTransform)",
    ref: "docs/reference/filters.md#data-keys-and-null",
    data: tasks({ a: { b: 1 } }, { a__b: 1 }),
    query: where(cond("data.a__b", "equal", "Number", 1)),
    expect: [2],
  },
  {
    name: "a single int-like key indexes, so never matches an object key",
    ref: "docs/reference/filters.md#column-names",
    data: tasks({ "0": "x" }),
    query: where(cond("data.0", "equal", "String", "x")),
    expect: [],
  },

  // storage_filename
  {
    name: "storage_filename is the ';'-joined link keys: never empty",
    ref: "docs/reference/columns.md#task-columns",
    query: where(cond("storage_filename", "empty", "String", true)),
    expect: [],
  },
  {
    name: "storage_filename equal the key alone matches nothing",
    ref: "docs/reference/columns.md#task-columns",
    query: where(cond("storage_filename", "equal", "String", "s3/one.jpg")),
    expect: [],
  },
  {
    name: "storage_filename contains finds the key",
    ref: "docs/reference/columns.md#task-columns",
    query: where(cond("storage_filename", "contains", "String", "ONE.jpg")),
    expect: [1],
  },

  // ordering
  {
    name: "ordering: only the first key counts",
    ref: "docs/reference/ordering.md#ordering",
    query: {
      ordering: [
        { column: "total_predictions", descending: true },
        { column: "id", descending: true },
      ],
    },
    expect: [1, 2, 3, 4],
  },
  {
    name: "ordering: descending with NULLs last",
    ref: "docs/reference/ordering.md#ordering",
    query: q(selection(1).orderBy("-tasks:completed_at")),
    expect: [2, 1, 3, 4],
  },
  {
    name: "ordering: ascending with NULLs last",
    ref: "docs/reference/ordering.md#ordering",
    query: q(selection(1).orderBy("tasks:completed_at")),
    expect: [1, 2, 3, 4],
  },
  {
    name: "ordering: ties by id ascending in both directions",
    ref: "docs/reference/ordering.md#ordering",
    query: q(selection(1).orderBy("-tasks:total_annotations")),
    expect: [1, 2, 3, 4],
  },
  {
    name: 'ordering data.* as text: "10" < "9"',
    ref: "docs/reference/ordering.md#ordering",
    data: tasks({ n: 9 }, { n: 10 }, { n: "8" }),
    query: q(selection(1).orderBy("tasks:data.n")),
    expect: [2, 3, 1],
  },
  {
    name: "ordering data.* numerically with columnsDisplayType Number",
    ref: "docs/reference/ordering.md#ordering",
    data: tasks({ n: 9 }, { n: 10 }, { n: "8" }),
    query: { ordering: [{ column: "data.n", descending: false }], columnsDisplayType: { "tasks:data.n": "Number" } },
    expect: [3, 1, 2],
  },
  {
    name: "numeric ordering falls back to text when a value does not cast",
    ref: "docs/reference/ordering.md#ordering",
    data: tasks({ n: 9 }, { n: 10 }, { n: "x" }),
    query: { ordering: [{ column: "data.n", descending: false }], columnsDisplayType: { "tasks:data.n": "Number" } },
    expect: [2, 1, 3],
  },
  {
    name: "text ordering follows en_US collation (case-insensitive first)",
    ref: "docs/reference/ordering.md#ordering",
    data: tasks({ s: "yoyo" }, { s: "Test example phrase 1" }, { s: "opop" }, { s: "x2" }),
    query: q(selection(1).orderBy("tasks:data.s")),
    expect: [3, 2, 4, 1],
  },
  {
    name: "ordering by an agreement column falls back to id",
    ref: "docs/reference/ordering.md#ordering",
    query: { ordering: [{ column: "agreement", descending: true }] },
    expect: [1, 2, 3, 4],
  },
  {
    name: "ordering by an unknown column is a 500",
    ref: "docs/reference/ordering.md#ordering",
    query: { ordering: [{ column: "nope", descending: false }] },
    expect: { status: 500, detail: "Cannot resolve keyword 'nope'" },
  },

  // selectedItems
  {
    name: "selection applies after filtering and ordering",
    ref: "docs/reference/selection.md#when-it-applies",
    query: q(selection(1).where("tasks:id").greater(1).orderBy("-tasks:id").including([1, 2, 4])),
    expect: [4, 2],
  },
  {
    name: "excluded ids are dropped",
    ref: "docs/reference/selection.md#when-it-applies",
    query: q(selection(1).excluding([2, 3])),
    expect: [1, 4],
  },
  {
    name: "{all: false, included: []} selects every filtered task (quirk)",
    ref: "docs/reference/selection.md#when-it-applies",
    query: { selectedItems: { all: false, included: [] } },
    expect: [1, 2, 3, 4],
  },
  {
    name: "ids outside the project or filter simply do not appear",
    ref: "docs/reference/selection.md#when-it-applies",
    query: { selectedItems: { all: false, included: [5, 99, 3] } },
    expect: [3],
  },
];

function answer(row: Row): readonly number[] | { status: number; detail: string } {
  try {
    return evaluate(row.data ?? fixture, row.query).ids;
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    const detail = e.validationErrors ? Object.values(e.validationErrors).flat().join(" ") : e.detail;
    return { status: e.status, detail };
  }
}

describe("server rules and quirks", () => {
  test.each(rows.map((r) => [`${r.name} (${r.ref})`, r] as const))("%s", (_, row) => {
    const got = answer(row);
    if (Array.isArray(row.expect)) expect(got).toEqual(row.expect);
    else {
      const want = row.expect as { status: number; detail: string };
      expect(got).toMatchObject({ status: want.status });
      expect((got as { detail: string }).detail).toContain(want.detail);
    }
  });
});
