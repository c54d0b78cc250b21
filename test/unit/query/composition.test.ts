import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import { customAction } from "../../../src/query/builder.js";
import { condition, isOrderKey, type Condition } from "../../../src/query/condition.js";
import type { ActionRequest, ProjectHandle, RunOptions } from "../../../src/query/nodes.js";
import { QueryBuildError, rules } from "../../../src/query/rules.js";
import type { AndSelection } from "../../../src/query/types.js";
import { selection } from "../../../src/selection.js";
import { actionIds, actions, isDestructive } from "../../../src/vocabulary/actions.js";
import { parseQuery } from "../../../src/wire/parse.js";
import { QueryParseError } from "../../../src/wire/errors.js";
import { thrown } from "../../helpers/thrown.js";

/** Call through `any`, as JavaScript callers (and casts) can: the runtime must refuse what the types refuse. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliberately past the types, to test the run-time checks
const loose = (value: unknown): any => value;

function recordingHandle(id = 1) {
  const sent: { request: ActionRequest; options: RunOptions | undefined }[] = [];
  const handle: ProjectHandle = { id, perform: async (request, options) => (sent.push({ request, options }), { processed_items: 0 }) };
  return { handle, sent };
}

describe("conditions as values", () => {
  test("condition(column).operator(value) is a frozen value that where/and/or/child add", () => {
    const unlabeled = condition("tasks:total_annotations").equal(0);
    expect(unlabeled).toEqual({ column: "tasks:total_annotations", operator: "equal", value: 0 });
    expect(Object.isFrozen(unlabeled)).toBe(true);
    const s = selection(1).where(unlabeled).and(condition("tasks:data.score", "Number").greater(0.5));
    expect(s.toJSON().filters).toEqual({
      conjunction: "and",
      items: [
        { filter: "filter:tasks:total_annotations", operator: "equal", type: "Number", value: 0 },
        { filter: "filter:tasks:data.score", operator: "greater", type: "Number", value: 0.5 },
      ],
    });
  });
  test("the same body as the chained form, children included", () => {
    const chained = selection(1)
      .where("tasks:annotators")
      .contains(3)
      .child("tasks:completed_at")
      .greater("2024-06-01")
      .or("tasks:id")
      .less(10);
    const folded = selection(1)
      .where(condition("tasks:annotators").contains(3))
      .child(condition("tasks:completed_at").greater("2024-06-01"))
      .or(condition("tasks:id").less(10));
    expect(folded.toJSON()).toEqual(chained.toJSON());
  });
  test("folding a list: the first with where, the rest with and", () => {
    const conditions: Condition[] = [
      condition("tasks:id").greater(1),
      condition("tasks:inner_id").less(9),
      condition("tasks:total_annotations").equal(0),
    ];
    const [first, ...rest] = conditions;
    const s = rest.reduce<AndSelection>((acc, c) => acc.and(c), selection(1).where(first as Condition));
    expect(s.toJSON().filters?.items.map((i) => i.filter)).toEqual([
      "filter:tasks:id",
      "filter:tasks:inner_id",
      "filter:tasks:total_annotations",
    ]);
  });
  test("condition() checks at run time too, with the item's fields as the path", () => {
    expect(thrown(QueryBuildError, () => loose(condition)("tasks:nope")).path).toBe("filter");
    expect(thrown(QueryBuildError, () => loose(condition("tasks:id")).greater("1")).path).toBe("value");
    expect(thrown(QueryBuildError, () => loose(condition("tasks:completed_at")).contains("x")).path).toBe("operator");
  });
  test("condition.of<D>() types task data and builds the same values", () => {
    const c = condition.of<{ label: "cat" | "dog" }>()("tasks:data.label").equal("cat");
    expect(c).toEqual({ column: "tasks:data.label", operator: "equal", value: "cat" });
  });
});

describe("the dynamic entry: a condition from strings, checked at run time", () => {
  const fromUi = (column: string, operator: string, value: unknown, type?: string): Condition => ({
    column,
    operator,
    value,
    ...(type ? { type } : {}),
  });

  test("wire and method operator names; the next steps keep every rule", () => {
    const s = selection(1)
      .where(fromUi("tasks:id", "greater_or_equal", 3))
      .and(fromUi("tasks:data.score", "lessOrEqual", 9, "Number"));
    expect(s.toJSON().filters?.items).toEqual([
      { filter: "filter:tasks:id", operator: "greater_or_equal", type: "Number", value: 3 },
      { filter: "filter:tasks:data.score", operator: "less_or_equal", type: "Number", value: 9 },
    ]);
    expect(() => loose(s).or(fromUi("tasks:id", "equal", 1))).toThrow(rules.mixedOrAfterAnd);
    expect(() => loose(s).where(fromUi("tasks:id", "equal", 1))).toThrow(rules.whereTwice);
  });
  test.each([
    ["an unknown column", fromUi("tasks:nope", "equal", 1), "filters.items[1].filter", /expected a known column/],
    ["an unknown operator", fromUi("tasks:id", "bigger", 1), "filters.items[1].operator", /expected an operator \(equal, not_equal/],
    [
      "an operator the column does not have",
      fromUi("tasks:completed_at", "contains", "x"),
      "filters.items[1].operator",
      /contains is not allowed on tasks:completed_at/,
    ],
    [
      "a value of the wrong shape",
      fromUi("tasks:predictions_score", "in", [1, 2]),
      "filters.items[1].value",
      /expects \{ min: number, max: number \}/,
    ],
    [
      "a fraction on an integer column (the server would truncate it)",
      fromUi("tasks:total_annotations", "equal", 0.5),
      "filters.items[1].value",
      /^filters\.items\[1\]\.value: equal on tasks:total_annotations expects an integer, as the server truncates a fraction, found number 0\.5$/,
    ],
    [
      "a fractional range end on an id",
      fromUi("tasks:id", "in", { min: 1, max: 2.5 }),
      "filters.items[1].value",
      /expects \{ min: integer, max: integer \}, as the server truncates a fraction/,
    ],
    [
      "a fraction in an id list",
      fromUi("tasks:inner_id", "inList", [1, 2.5]),
      "filters.items[1].value",
      /expects a non-empty array of integers, as the server truncates a fraction/,
    ],
    [
      "a type on a non-data column",
      fromUi("tasks:id", "equal", 1, "Number"),
      "filters.items[1].type",
      /only tasks:data.<key> columns take a type/,
    ],
    ["an unknown data type", fromUi("tasks:data.x", "equal", 1, "Datetime"), "filters.items[1].type", /expected a data column type/],
    [
      "a key that is not a condition field",
      { ...fromUi("tasks:id", "equal", 1), typ: "Number" },
      "filters.items[1].typ",
      /a condition has column, operator, value and type; found typ/,
    ],
    ["not an object", 42, "filters.items[1]", /expected a column "tasks:<column>" or a condition/],
  ])("%s: QueryBuildError with the path", (_name, input, path, message) => {
    const base = selection(1).where("tasks:id").greater(0);
    const error = thrown(QueryBuildError, () => loose(base).and(input));
    expect(error.path).toBe(path);
    expect(error.message).toMatch(message);
  });
  test("a child condition's path points into child_filters", () => {
    const base = selection(1).where("tasks:id").greater(0);
    expect(thrown(QueryBuildError, () => loose(base).child(fromUi("tasks:id", "equal", "x"))).path).toBe(
      "filters.items[0].child_filters[0].value",
    );
  });
});

describe("nothing destructive by accident", () => {
  const destructive = actionIds.filter(isDestructive);

  test("the vocabulary marks the deleting and overwriting actions", () => {
    expect(destructive).toEqual([
      "remove_duplicates",
      "delete_tasks",
      "delete_tasks_annotations",
      "delete_tasks_predictions",
      "add_data_field",
      "delete_ground_truths",
      "delete_tasks_reviews",
      "delete_reviewers",
      "delete_annotators",
    ]);
    expect(isDestructive("retrieve_tasks_predictions")).toBe(false);
  });
  test.each(destructive)("%s is refused on a selection without filters, ids or view", async (id) => {
    const { handle, sent } = recordingHandle();
    const params = id === "add_data_field" ? { column_name: "c", value_type: "String", value: "v" } : undefined;
    for (const [s, rule] of [
      [selection(handle), rules.everyTask],
      [selection(handle).excluding([3]), rules.everyTaskExcluded],
      [selection(handle).orderBy("tasks:id"), rules.everyTask],
    ] as const) {
      const error = thrown(QueryBuildError, () => loose(s).toRequest(id, params));
      expect(error.message).toBe(`${id}: ${rule}`);
      expect(error.path).toBe("selectedItems");
      await expect(loose(s).run(id, params)).rejects.toThrow(rule);
    }
    expect(sent).toEqual([]);
  });
  test("filters, included ids, a view or .all() let it run", async () => {
    const { handle, sent } = recordingHandle();
    await selection(handle).where("tasks:total_annotations").equal(0).run("delete_tasks");
    await selection(handle).including([4]).run("delete_tasks");
    await selection(handle).fromView(2).run("delete_tasks");
    await selection(handle).all().run("delete_tasks");
    await selection(handle).excluding([3]).all().run("delete_tasks");
    await selection(handle).all().excluding([3]).run("delete_tasks");
    expect(sent.map((s) => s.request.body.selectedItems)).toEqual([
      undefined,
      { all: false, included: [4] },
      undefined,
      { all: true, excluded: [] },
      { all: true, excluded: [3] },
      { all: true, excluded: [3] },
    ]);
  });
  test("a known id wrapped in customAction() (a run-time action id) gets the same checks", () => {
    expect(() => selection(1).toRequest(customAction("delete_tasks"))).toThrow(rules.everyTask);
    expect(() => selection(1).all().toRequest(customAction("delete_tasks"), { annotator: 1 })).toThrow("delete_tasks takes no params");
    expect(selection(1).toRequest(customAction("my_plugin_delete")).query.id).toBe("my_plugin_delete");
  });
  test("other actions run on any selection", () => {
    expect(selection(1).toRequest("retrieve_tasks_predictions").body).toEqual({});
  });
});

describe("params are checked at run time with the compiler's messages", () => {
  test.each([
    [
      "a missing required param",
      () => loose(selection(1).all()).toRequest("propagate_annotations"),
      "params",
      "propagate_annotations needs params { source_annotation_id }",
    ],
    [
      "an unknown param",
      () => loose(selection(1).all()).toRequest("delete_tasks", { annotator: 3 }),
      "params.annotator",
      "delete_tasks takes no params; annotator is not one of them",
    ],
    [
      "options passed as params",
      () => loose(selection(1).all()).toRequest("delete_tasks_annotations", { timeoutInSeconds: 3 }),
      "params.timeoutInSeconds",
      "delete_tasks_annotations: timeoutInSeconds is a request option, not an action param; pass options third: .run(delete_tasks_annotations, params or undefined, options)",
    ],
  ])("%s", (_name, call, path, message) => {
    const error = thrown(QueryBuildError, call);
    expect(error.message).toBe(message);
    expect(error.path).toBe(path);
  });
  test("custom actions take any params; run() passes options to the handle", async () => {
    const { handle, sent } = recordingHandle();
    const signal = new AbortController().signal;
    await selection(handle)
      .where("tasks:id")
      .equal(1)
      .run("delete_tasks_annotations", { annotator: 2 }, { timeoutInSeconds: 3, maxRetries: 0, signal });
    expect(sent[0]?.options).toEqual({ timeoutInSeconds: 3, maxRetries: 0, signal });
    expect(sent[0]?.request.body.annotator).toBe(2);
  });
  test("each action's params text comes from the table", () => {
    expect(Object.keys(actions.cache_labels.params)).toEqual(["control_tag", "custom_control_tag", "with_counters", "source"]);
    expect(() => loose(selection(1)).toRequest("cache_labels")).toThrow(
      "cache_labels needs params { control_tag, custom_control_tag?, with_counters?, source? }",
    );
  });
});

describe("selection.from: resuming the builder", () => {
  const body = {
    filters: {
      conjunction: "or",
      items: [
        { filter: "filter:tasks:id", operator: "greater", type: "Number", value: 42 },
        { filter: "filter:tasks:id", operator: "less", type: "Number", value: 3 },
      ],
    },
    ordering: ["-tasks:created_at"],
  };
  test("from a body: the same body back, then the builder's rules apply at run time", () => {
    const s = selection.from(1, body);
    expect(s.toJSON()).toEqual(body);
    expect(s.or("tasks:inner_id").equal(7).toJSON().filters?.items).toHaveLength(3);
    expect(() => loose(s).and("tasks:inner_id")).toThrow(rules.mixedAndAfterOr);
    expect(() => loose(s).orderBy("tasks:id")).toThrow(rules.orderedTwice);
  });
  test("from parseQuery's Query value, and from a selection (binding it to a client)", async () => {
    expect(selection.from(1, parseQuery(body)).toJSON()).toEqual(body);
    const { handle, sent } = recordingHandle(1);
    const built = selection(1).where("tasks:id").greater(1).all();
    await selection.from(handle, built).run("delete_tasks");
    expect(sent[0]?.request.body).toEqual({ ...built.toJSON() });
    expect(() => selection.from(recordingHandle(2).handle, built)).toThrow("project: the selection is of project 1, not 2");
  });
  test("a single line keeps the conjunction open, as a fresh where() does", () => {
    const one = selection.from(1, { filters: { conjunction: "or", items: [body.filters.items[0]] } });
    expect(one.and("tasks:inner_id").equal(1).toJSON().filters?.conjunction).toBe("and");
  });
  test("a resumed view's data with { context: 'view' }; ids resumed too", () => {
    const s = selection.from(
      1,
      { filters: { conjunction: "and", items: [] }, selectedItems: { all: false, included: [5] } },
      { context: "view" },
    );
    expect(() => loose(s).excluding([1])).toThrow(rules.excludingAfterIncluding);
    expect(s.where("tasks:id").greater(1).toRequest("delete_tasks").body.selectedItems).toEqual({ all: false, included: [5] });
  });
  test("a selection that only excludes ids is refused for a destructive action, in words that fit it", () => {
    for (const s of [selection(1).excluding([1, 2]), selection.from(1, { selectedItems: { all: true, excluded: [4] } })]) {
      expect(() => loose(s).toRequest("delete_tasks")).toThrow(`delete_tasks: ${rules.everyTaskExcluded}`);
    }
    expect(rules.everyTaskExcluded).not.toContain("no task ids");
    expect(selection(1).excluding([1]).all().toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [1] });
  });
  test(".all() is kept through a round trip: a body's selectedItems {all: true, excluded: []} (the UI's 'select all') reads as .all()", () => {
    const all = selection(1).all();
    expect(selection.from(1, all.toJSON()).toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [] });
    expect(selection.from(1, all.toQuery()).toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [] });
    // What the web UI posts for "select all" on a project without filters.
    const ui = selection.from(1, { selectedItems: { all: true, excluded: [] } });
    expect(ui.toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [] });
    // With excluded ids the body cannot tell .all().excluding(ids) from .excluding(ids): say .all() again.
    const body = selection(1).all().excluding([3]).toJSON();
    expect(() => loose(selection.from(1, body)).toRequest("delete_tasks")).toThrow(rules.everyTaskExcluded);
    expect(selection.from(1, body).all().toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [3] });
  });
  test("a resumed body that names no tasks (no filters, no selectedItems) is not 'every task'", () => {
    expect(() => loose(selection.from(1, {})).toRequest("delete_tasks")).toThrow(rules.everyTask);
    expect(() => loose(selection.from(1, { ordering: ["tasks:id"] })).toRequest("delete_tasks")).toThrow(rules.everyTask);
    expect(selection.from(1, {}).all().toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [] });
  });
  test("a selection keeps its view and its .all() when it is bound", () => {
    const { handle, sent } = recordingHandle(1);
    void selection.from(handle, selection(1).fromView(7)).run("delete_tasks");
    expect(sent[0]?.request.query).toEqual({ id: "delete_tasks", project: 1, view: 7 });
    expect(selection.from(handle, selection(1).all()).toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [] });
    expect(selection.from(handle, selection(1).all().excluding([3])).toRequest("delete_tasks").body.selectedItems).toEqual({
      all: true,
      excluded: [3],
    });
  });
  test("a misspelt key next to empty lists is the parser's finding, not dropped as if the body were a Query value", () => {
    const f = { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "equal", type: "Number", value: 1 }] };
    for (const [body, key] of [
      [{ ordering: [], filter: f }, "filter"],
      [{ filters: { conjunction: "and", items: [] }, selected_items: { all: false, included: [1] } }, "selected_items"],
      [{ filters: { conjunction: "and", items: [] }, query: { filters: f } }, "query"],
    ] as const) {
      expect(thrown(QueryParseError, () => selection.from(1, body as never)).issues.map((i) => [i.path, i.effect])).toEqual([
        [key, "ignored"],
      ]);
    }
    // A Query value still resumes as one, empty lists and all.
    for (const given of [{ filters: { conjunction: "and", items: [] }, ordering: [] }, { ordering: ["-tasks:id"] }, body]) {
      expect(selection.from(1, parseQuery(given)).toJSON()).toEqual(selection.from(1, given).toJSON());
    }
  });
  test("a body with issues throws QueryParseError; a bad project QueryBuildError", () => {
    expect(() => selection.from(1, { filters: { conjunction: "xor", items: [] } } as never)).toThrow(QueryParseError);
    expect(() => loose(selection.from)(0, {})).toThrow(QueryBuildError);
  });
});

describe("isOrderKey: an ordering key held in a string", () => {
  test.each([
    ["tasks:created_at", true],
    ["-tasks:data.score", true],
    ["tasks:nope", false],
    ["--tasks:id", false],
    ["created_at", false],
    ["tasks:data.", false],
    [3, false],
  ])("%s -> %s", (key, ok) => {
    expect(isOrderKey(key)).toBe(ok);
    if (ok)
      expect(
        selection(1)
          .orderBy(key as "tasks:id")
          .toJSON().ordering,
      ).toEqual([key]);
  });
});

describe("$if and $call", () => {
  test("$if applies the step only when the condition holds", () => {
    const base = selection(1).where("tasks:id").greater(1);
    const step = (s: typeof base) => s.and("tasks:total_annotations").equal(0);
    expect(base.$if(false, step).toJSON()).toEqual(base.toJSON());
    expect(base.$if(true, step).toJSON().filters?.items).toHaveLength(2);
  });
  test("$call runs a reusable step", () => {
    const onlyDone = (s: AndSelection) => s.and("tasks:total_annotations").greater(0);
    expect(selection(1).where("tasks:id").greater(1).$call(onlyDone).toJSON().filters?.items).toHaveLength(2);
    expect(() => loose(selection(1)).$call(3)).toThrow(QueryBuildError);
  });
});

describe("$if checks what its callback returns (issue #23)", () => {
  const base = selection(1).where("tasks:id").greater(1);
  test.each([
    ["a selection of another project", () => selection(2).where("tasks:id").equal(1), "a selection of project 2, not bound"],
    [
      "a bound selection for an unbound one",
      () => selection(recordingHandle().handle).where("tasks:id").equal(1),
      "a selection of project 1, bound to a client",
    ],
    ["a column without its operator", (s: typeof base) => loose(s).and("tasks:id"), "tasks:id without an operator"],
    ["not a selection", () => ({ filters: [] }), "object with keys filters"],
  ])("%s: QueryBuildError naming what was expected and found", (_name, then, found) => {
    const error = thrown(QueryBuildError, () => base.$if(true, loose(then)));
    expect(error.path).toBe("$if");
    expect(error.expected).toBe("a selection of project 1, not bound");
    expect(error.found).toBe(found);
    expect(error.message).toBe(`$if: the callback must return a selection of project 1, not bound (a step of this one), found ${found}`);
  });
  test("a step of the same selection passes, whatever its state", () => {
    expect(base.$if(true, (s) => s.orderBy("tasks:id").all()).toJSON().ordering).toEqual(["tasks:id"]);
  });
});

describe("a column left without its operator (issue #23)", () => {
  test("a selection member called on it throws QueryBuildError, not TypeError", () => {
    const c = condition("tasks:id").equal(1);
    const flag = Math.random() >= 0;
    // What the compiler refuses, reached through a cast: where() of a column returns its operators.
    const error = thrown(QueryBuildError, () =>
      loose(selection(1))
        .where(flag ? "tasks:id" : c)
        .and("tasks:inner_id"),
    );
    expect(error.path).toBe("filters.items[0]");
    expect(error.message).toBe(
      "filters.items[0]: tasks:id has no operator yet, so .and() cannot follow it: write .where(column).equal(value) (or another operator), or pass a condition",
    );
    expect(thrown(QueryBuildError, () => loose(selection(1).where("tasks:id")).toJSON()).found).toBe(".toJSON()");
  });
  test("a condition without its operator is refused where it is added", () => {
    const error = thrown(QueryBuildError, () => loose(selection(1)).where(loose(condition("tasks:total_annotations"))));
    expect(error.message).toBe(
      "filters.items[0]: tasks:total_annotations has no operator yet: a condition needs one, e.g. condition(column).equal(value)",
    );
  });
});

describe("whereAll and whereAny: optional filters (issue #23)", () => {
  const flag = false;
  test('skipped entries (false, null, undefined, 0, "") leave no line', () => {
    const s = selection(1).whereAll([
      condition("tasks:id").greater(1),
      flag && condition("tasks:inner_id").less(3),
      null,
      undefined,
      0,
      "",
      condition("tasks:total_annotations").equal(0),
    ]);
    expect(s.toJSON().filters).toEqual({
      conjunction: "and",
      items: [
        { filter: "filter:tasks:id", operator: "greater", type: "Number", value: 1 },
        { filter: "filter:tasks:total_annotations", operator: "equal", type: "Number", value: 0 },
      ],
    });
    expect(
      selection(1)
        .whereAny([condition("tasks:id").equal(1), condition("tasks:id").equal(2)])
        .toJSON().filters?.conjunction,
    ).toBe("or");
  });
  test("one present condition is a where(): either .and() or .or() may follow", () => {
    const one = selection(1).whereAny([flag && condition("tasks:id").equal(1), condition("tasks:id").equal(2)]);
    expect(loose(one).or("tasks:id").equal(3).toJSON().filters.conjunction).toBe("or");
    expect(loose(one).and("tasks:id").equal(3).toJSON().filters.conjunction).toBe("and");
  });
  test("none present: no filters, so a destructive action needs .all()", () => {
    const { handle } = recordingHandle();
    const none = selection(handle).whereAll([flag && condition("tasks:id").equal(1)]);
    expect(none.toJSON()).toEqual({});
    expect(() => loose(none).toRequest("delete_tasks")).toThrow(rules.everyTask);
    expect(loose(none).all().toRequest("delete_tasks").body.selectedItems).toEqual({ all: true, excluded: [] });
  });
  test("the rules of where(), and each entry checked with its path", () => {
    expect(() => loose(selection(1).where("tasks:id").equal(1)).whereAll([])).toThrow(`filters: ${rules.whereTwice}`);
    expect(() => loose(selection(1).fromView(2)).whereAny([])).toThrow(rules.viewIgnoresBody);
    const bad = thrown(QueryBuildError, () =>
      selection(1).whereAll([condition("tasks:id").equal(1), loose({ column: "tasks:completed_at", operator: "contains", value: "x" })]),
    );
    expect(bad.path).toBe("filters.items[1].operator");
    const column = thrown(QueryBuildError, () => selection(1).whereAll([flag, loose("tasks:id")]));
    expect(column.message).toBe(
      'filters.items[0]: whereAll() takes conditions, not columns: entry 1 is string "tasks:id"; write condition(column).equal(value)',
    );
    expect(thrown(QueryBuildError, () => loose(selection(1)).whereAny({})).path).toBe("filters");
  });
});

describe("inspect", () => {
  test("console.log shows the project and the body, never the client", () => {
    const secret = "tok_secret_123";
    const handle = { id: 3, token: secret, perform: async () => ({}) } as ProjectHandle;
    const s = selection(handle).where("tasks:id").greater(1).including([2]);
    const text = inspect(s, { depth: 5 });
    expect(text).toBe(`Selection<project 3, bound> ${inspect(s.toJSON(), { depth: 5 })}`);
    expect(text).not.toContain(secret);
    expect(inspect(selection(1).fromView(4))).toBe("Selection<project 1, view 4> {}");
  });

  test("the whole body at any depth option, and nested in other values: never [Object]", () => {
    const s = selection(1).where("tasks:id").greater(1).child("tasks:inner_id").less(9);
    const full = `Selection<project 1> ${inspect(s.toJSON(), { depth: null })}`;
    expect(inspect(s)).toBe(full);
    expect(full).toContain("filter: 'filter:tasks:inner_id'");
    // Nested as deep as Node's default shows a value at all.
    expect(inspect({ a: { b: s } })).toContain("filter: 'filter:tasks:inner_id'");
    expect(inspect(s, { depth: 0 })).not.toContain("[Object]");
  });
});
