import { describe, expect, test } from "vitest";
import type { ConditionNode } from "../../../src/query/nodes.js";
import { parseQueryBody, type ParseOptions } from "../../../src/wire/parse.js";

const item = (filter: string, operator: string, type: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  filter,
  operator,
  type,
  value,
  ...extra,
});
const cond = (column: string, operator: string, type: string, value: unknown, children: ConditionNode[] = []): ConditionNode =>
  ({ column, operator, type, value, children }) as ConditionNode;
const paths = (body: unknown, context: "inline" | "view" = "inline") =>
  parseQueryBody(body, { context }).issues.map((i) => `${i.effect} ${i.path}`);
const paths2 = (body: unknown, options: ParseOptions = {}) => parseQueryBody(body, options).issues.map((i) => `${i.effect} ${i.path}`);

describe("what is read and what is left alone", () => {
  test("a missing or null filters means no filter", () => {
    for (const body of [{}, { filters: null }]) {
      const r = parseQueryBody(body);
      expect(r.query).toEqual({});
      expect(r.issues).toEqual([]);
    }
  });

  test("every top-level key the server does not read is reported as ignored; the query is read all the same", () => {
    const r = parseQueryBody({ model_version: "v1", project: 3, title: "Tab", id: "delete_tasks", ordering: ["tasks:id"] });
    expect(r.query).toEqual({ ordering: [{ column: "id", descending: false }] });
    expect(r.issues.map((i) => `${i.effect} ${i.path}: ${i.found}`)).toEqual([
      'ignored model_version: an unknown key "model_version"',
      'ignored project: "project", which the server reads from the URL (?project=) only',
      'ignored title: an unknown key "title"',
      'ignored id: "id", which the server reads from the URL (?id=) only: the action\'s id',
    ]);
    expect(r.answer).toBeUndefined();
  });

  test("an action's body: its own fields are read (any key, for an action the vocabulary does not know)", () => {
    const body = { model_version: "v1", filters: null };
    expect(parseQueryBody(body, { action: "predictions_to_annotations" }).issues).toEqual([]);
    expect(paths2(body, { action: "delete_tasks" })).toEqual(["ignored model_version"]);
    expect(parseQueryBody({ ...body, whatever: 1 }, { action: "my_plugin_action" }).issues).toEqual([]);
    // A near miss is one even there.
    expect(paths2({ filter: {} }, { action: "my_plugin_action" })).toEqual(["ignored filter"]);
  });

  test("the task list's query parameter and an action's body read different keys", () => {
    expect(paths2({ view: 2, hiddenColumns: { explore: [], labeling: [] } }, { endpoint: "tasks" })).toEqual(["ignored view"]);
    expect(paths2({ view: 2, hiddenColumns: { explore: [], labeling: [] } }, { endpoint: "actions" })).toEqual(["ignored hiddenColumns"]);
    expect(paths2({ view: 2, hiddenColumns: { explore: [], labeling: [] } })).toEqual([]);
    expect(() => parseQueryBody({}, { endpoint: "tasks", action: "delete_tasks" })).toThrow(TypeError);
  });

  test.each([
    [{ filter: { conjunction: "and", items: [] } }, 'an unknown key "filter" (did you mean filters?), so the server applies no filter'],
    [
      { selected_items: { all: false, included: [1] } },
      'an unknown key "selected_items" (did you mean selectedItems?), so the server takes every filtered task',
    ],
    [{ Ordering: ["-tasks:id"] }, 'an unknown key "Ordering" (did you mean ordering?), so the server keeps its default order'],
    [
      { query: { filters: {} } },
      'a "query" wrapper (an object) around the selection: the server reads nothing under it and selects every task',
    ],
    [
      { query: '{"filters": {}}' },
      'a "query" wrapper (a JSON string) around the selection: the server reads nothing under it and selects every task',
    ],
  ])("%j: the key it stands for, and what its absence does", (body, found) => {
    const [issue, ...rest] = parseQueryBody(body).issues;
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ effect: "ignored", path: Object.keys(body)[0], found });
  });

  test("a view's data keeps the web UI's keys: only near misses of the query's keys are reported", () => {
    expect(paths({ title: "Tab", type: "list", target: "tasks", columnsWidth: {}, hiddenColumns: {}, filter: {} }, "view")).toEqual([
      "ignored filter",
    ]);
  });

  test("no body at all reads as an empty body", () => {
    expect(parseQueryBody(undefined)).toEqual({ query: {}, issues: [], answer: undefined });
  });

  test("empty items constrain nothing but keep the conjunction", () => {
    const r = parseQueryBody({ filters: { conjunction: "or", items: [] } });
    expect(r.query).toEqual({ filters: { conjunction: "or", items: [] } });
    expect(r.issues).toEqual([]);
  });

  test("the query is frozen", () => {
    const q = parseQueryBody({ filters: { conjunction: "and", items: [item("filter:tasks:id", "equal", "Number", 1)] } }).query;
    expect(Object.isFrozen(q)).toBe(true);
    expect(Object.isFrozen(q?.filters?.items)).toBe(true);
    expect(Object.isFrozen(q?.filters?.items[0])).toBe(true);
  });
});

describe("column names (docs/reference/filters.md#column-names)", () => {
  test("filter:tasks:-annotations_results is annotations_results (the '-' means nothing in a filter)", () => {
    const r = parseQueryBody({
      filters: { conjunction: "and", items: [item("filter:tasks:-annotations_results", "contains", "String", "x")] },
    });
    expect(r.query?.filters?.items).toEqual([cond("annotations_results", "contains", "String", "x")]);
    expect(r.issues.map((i) => [i.path, i.effect])).toEqual([["filters.items[0].filter", "evaluated"]]);
  });

  test("a second '-' stays in the name", () => {
    const r = parseQueryBody({ filters: { conjunction: "and", items: [item("filter:tasks:--id", "equal", "Number", 1)] } });
    expect(r.query?.filters?.items[0]?.column).toBe("-id");
  });

  test("data.<key> is kept as is: a '.' or '__' inside the key is literal", () => {
    const r = parseQueryBody({
      filters: {
        conjunction: "and",
        items: [item("filter:tasks:data.a.b", "equal", "String", "x"), item("filter:tasks:data.images__0", "contains", "String", "y")],
      },
    });
    expect(r.query?.filters?.items.map((c) => c.column)).toEqual(["data.a.b", "data.images__0"]);
    expect(r.issues).toEqual([]);
  });
});

describe("child filters", () => {
  test("the legacy singular child_filter becomes the only child", () => {
    const r = parseQueryBody({
      filters: {
        conjunction: "or",
        items: [item("filter:tasks:id", "greater", "Number", 1, { child_filter: item("filter:tasks:id", "less", "Number", 9) })],
      },
    });
    expect(r.query?.filters?.items).toEqual([cond("id", "greater", "Number", 1, [cond("id", "less", "Number", 9)])]);
    expect(r.issues).toEqual([]);
  });

  test("child_filter: null means no child", () => {
    const r = parseQueryBody({
      filters: { conjunction: "and", items: [item("filter:tasks:id", "greater", "Number", 1, { child_filter: null })] },
    });
    expect(r.query?.filters?.items[0]?.children).toEqual([]);
    expect(r.issues).toEqual([]);
  });

  test("when both are given the plural wins and the singular is dropped", () => {
    const r = parseQueryBody({
      filters: {
        conjunction: "and",
        items: [
          item("filter:tasks:id", "greater", "Number", 1, {
            child_filters: [item("filter:tasks:id", "less", "Number", 5)],
            child_filter: item("filter:tasks:id", "less", "Number", 9),
          }),
        ],
      },
    });
    expect(r.query?.filters?.items[0]?.children).toEqual([cond("id", "less", "Number", 5)]);
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      "ignored filters.items[0].child_filter: expected child_filters or child_filter, not both (the server uses child_filters), found object with keys filter, operator, type, value",
    ]);
  });
});

describe("ordering (docs/reference/ordering.md#ordering)", () => {
  const order = (ordering: unknown) => parseQueryBody({ ordering });

  test("-tasks:x and tasks:-x are both descending; tasks:x ascending", () => {
    expect(order(["-tasks:created_at"]).query?.ordering).toEqual([{ column: "created_at", descending: true }]);
    expect(order(["tasks:-created_at"]).query?.ordering).toEqual([{ column: "created_at", descending: true }]);
    expect(order(["tasks:created_at"]).query?.ordering).toEqual([{ column: "created_at", descending: false }]);
    expect(order(["tasks:-created_at"]).issues).toEqual([]);
  });

  test("a double negative keeps the second '-' in the name", () => {
    const r = order(["-tasks:-created_at"]);
    expect(r.query?.ordering).toEqual([{ column: "-created_at", descending: true }]);
    expect(r.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["evaluated ordering[0]"]);
  });

  test("the filter: prefix is stripped too (an evaluated deviation)", () => {
    const r = order(["filter:tasks:id"]);
    expect(r.query?.ordering).toEqual([{ column: "id", descending: false }]);
    expect(r.issues.map((i) => i.message)).toEqual([
      'ordering[0]: expected "tasks:<column>" or "-tasks:<column>" (the server strips a "filter:" prefix too), found string "filter:tasks:id"',
    ]);
  });

  test("only the first key is used: further keys are kept but reported as ignored", () => {
    const r = order(["tasks:id", "-tasks:inner_id"]);
    expect(r.query?.ordering).toEqual([
      { column: "id", descending: false },
      { column: "inner_id", descending: true },
    ]);
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'ignored ordering[1]: expected a single ordering key (the server orders by the first key only), found string "-tasks:inner_id"',
    ]);
  });

  test("an empty list is no ordering", () => {
    expect(order([])).toEqual({ query: {}, issues: [], answer: undefined });
  });

  test("a data key orders as given; columnsDisplayType is carried for numeric ordering", () => {
    const r = parseQueryBody({ ordering: ["-tasks:data.score"], columnsDisplayType: { "tasks:data.score": "Number" } });
    expect(r.query).toEqual({
      ordering: [{ column: "data.score", descending: true }],
      columnsDisplayType: { "tasks:data.score": "Number" },
    });
    expect(r.issues).toEqual([]);
  });
});

describe("selectedItems (docs/reference/selection.md#shape)", () => {
  test("missing selectedItems stays absent (the server then acts on every filtered task)", () => {
    expect(parseQueryBody({ ordering: ["tasks:id"] }).query).not.toHaveProperty("selectedItems");
  });

  test("a JSON string is decoded (the SDK's delete_multi_tasks sends one)", () => {
    const r = parseQueryBody({ selectedItems: '{"all": true, "excluded": [4, 7]}' });
    expect(r.query).toEqual({ selectedItems: { all: true, excluded: [4, 7] } });
    expect(r.issues).toEqual([]);
  });

  test("included/excluded default to []", () => {
    expect(parseQueryBody({ selectedItems: { all: true } }).query).toEqual({ selectedItems: { all: true, excluded: [] } });
  });

  test("the list the server ignores is dropped, with an ignored issue only when it is non-empty", () => {
    const a = parseQueryBody({ selectedItems: { all: true, excluded: [1], included: [2] } });
    expect(a.query).toEqual({ selectedItems: { all: true, excluded: [1] } });
    expect(a.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["ignored selectedItems.included"]);
    const b = parseQueryBody({ selectedItems: { all: false, included: [2], excluded: [1] } });
    expect(b.query).toEqual({ selectedItems: { all: false, included: [2] } });
    expect(b.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["ignored selectedItems.excluded"]);
    expect(parseQueryBody({ selectedItems: { all: true, excluded: [], included: [] } }).issues).toEqual([]);
  });

  test("lax booleans and integers are coerced as pydantic does, each with an evaluated issue", () => {
    const r = parseQueryBody({ selectedItems: { all: "false", included: ["12", true, 5] } });
    expect(r.query).toEqual({ selectedItems: { all: false, included: [12, 1, 5] } });
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'evaluated selectedItems.all: expected true or false (the server reads this as false), found string "false"',
      'evaluated selectedItems.included[0]: expected an integer task id (the server reads this as 12), found string "12"',
      "evaluated selectedItems.included[1]: expected an integer task id (the server reads this as 1), found boolean true",
    ]);
  });
});

describe("legacy Python SDK output (docs/reference/python-sdk.md#legacy-filter-helpers) parses with no issue", () => {
  test("the data_manager module's own _test() output", () => {
    const filters = {
      conjunction: "or",
      items: [
        { filter: "filter:tasks:id", operator: "greater", type: "Number", value: 42 },
        {
          filter: "filter:tasks:completed_at",
          operator: "in",
          type: "Datetime",
          value: { min: "2021-11-01T00:00:00.000000Z", max: "2021-11-05T00:00:00.000000Z" },
        },
      ],
    };
    const r = parseQueryBody({ filters, ordering: ["-tasks:total_annotations"], selectedItems: '{"all": true, "excluded": [3]}' });
    expect(r.issues).toEqual([]);
    expect(r.query).toEqual({
      filters: {
        conjunction: "or",
        items: [
          cond("id", "greater", "Number", 42),
          cond("completed_at", "in", "Datetime", { min: "2021-11-01T00:00:00.000000Z", max: "2021-11-05T00:00:00.000000Z" }),
        ],
      },
      ordering: [{ column: "total_annotations", descending: true }],
      selectedItems: { all: true, excluded: [3] },
    });
  });

  test("Filters.item over Column values with each Type", () => {
    const items = [
      item("filter:tasks:created_at", "greater", "Datetime", "2021-11-01T00:00:00.000000Z"),
      item("filter:tasks:annotators", "contains", "List", [1, 2]),
      item("filter:tasks:predictions_model_versions", "contains", "List", ["v1"]),
      item("filter:tasks:data.f", "contains", "String", "cat"),
      item("filter:tasks:data.f", "equal", "Unknown", 3),
      item("filter:tasks:ground_truth", "equal", "Boolean", true),
      item("filter:tasks:inner_id", "in_list", "Number", [1, 2, 3]),
      item("filter:tasks:file_upload", "regex", "String", "^a.*\\.json$"),
      item("filter:tasks:total_predictions", "empty", "Number", false),
    ];
    const r = parseQueryBody({ filters: { conjunction: "and", items } });
    expect(r.issues).toEqual([]);
    expect(r.query?.filters?.items.map((c) => c.column)).toEqual([
      "created_at",
      "annotators",
      "predictions_model_versions",
      "data.f",
      "data.f",
      "ground_truth",
      "inner_id",
      "file_upload",
      "total_predictions",
    ]);
  });
});

describe("a saved view's data (context: view)", () => {
  test('"filters": {} means no filter group', () => {
    expect(parseQueryBody({ title: "Tab", filters: {}, ordering: [], columnsDisplayType: {} }, { context: "view" })).toEqual({
      query: { columnsDisplayType: {} },
      issues: [],
      answer: undefined,
    });
  });

  test("a view read back from the server (plural child_filters, selectedItems) parses with no issue", () => {
    const data = {
      title: "Tasks",
      columnsDisplayType: { "tasks:data.int_field": "Number" },
      filters: {
        conjunction: "and",
        items: [item("filter:tasks:data.int_field", "greater", "Number", 5, { child_filters: [] })],
      },
      ordering: ["tasks:data.int_field"],
      selectedItems: { all: false, included: [1, 2] },
    };
    const r = parseQueryBody(data, { context: "view" });
    expect(r.issues).toEqual([]);
    expect(r.query).toEqual({
      filters: { conjunction: "and", items: [cond("data.int_field", "greater", "Number", 5)] },
      ordering: [{ column: "data.int_field", descending: false }],
      selectedItems: { all: false, included: [1, 2] },
      columnsDisplayType: { "tasks:data.int_field": "Number" },
    });
  });

  test("legacy user filters are read back as contains / not_contains (normalize_persisted_user_filter)", () => {
    const data = {
      filters: {
        conjunction: "and",
        items: [
          item("filter:tasks:updated_by", "equal", "List", 5),
          item("filter:tasks:annotators", "not_equal", "List", "7"),
          item("filter:tasks:annotators", "empty", "List", "yes"),
          item("filter:tasks:annotators", "contains", "List", [3, "3", 4]),
        ],
      },
    };
    const r = parseQueryBody(data, { context: "view" });
    expect(r.query?.filters?.items.map((c) => [c.operator, c.value])).toEqual([
      ["contains", 5],
      ["not_contains", 7],
      ["empty", true],
      ["contains", [3, 4]],
    ]);
    expect(paths(data, "view")).toEqual([
      "evaluated filters.items[0].operator",
      "evaluated filters.items[1].operator",
      "evaluated filters.items[2].operator",
      "evaluated filters.items[3].operator",
      // a lone user id is documented wire form (the server reads it as a one-item list): no value issue
    ]);
  });

  test("falsy ordering or selectedItems mean none", () => {
    expect(parseQueryBody({ ordering: null, selectedItems: {} }, { context: "view" })).toEqual({
      query: {},
      issues: [],
      answer: undefined,
    });
  });

  test("view saves trim the filter's text", () => {
    const r = parseQueryBody(
      { filters: { conjunction: "or", items: [item("filter:tasks:data.k ", " equal", "String", "x")] } },
      { context: "view" },
    );
    expect(r.query?.filters?.items[0]).toMatchObject({ column: "data.k", operator: "equal" });
    expect(r.issues.map((i) => `${i.effect} ${i.path}`)).toEqual([
      "evaluated filters.items[0].filter",
      "evaluated filters.items[0].operator",
    ]);
  });
});
