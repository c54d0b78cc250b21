import { describe, expect, test } from "vitest";
import type { ActionRequest, ProjectHandle } from "../../../src/query/nodes.js";
import { QueryBuildError, rules } from "../../../src/query/rules.js";
import { customAction } from "../../../src/query/builder.js";
import { selection } from "../../../src/selection.js";
import { thrown } from "../../helpers/thrown.js";

const date = new Date("2024-01-01T00:00:00Z");
/** Call through `any`, as JavaScript callers (and casts) can: the runtime must refuse what the types refuse. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliberately past the types, to test the run-time checks
const loose = (value: unknown): any => value;

describe("the design-card body", () => {
  test("JSON.stringify gives exactly the documented body", () => {
    const s = selection(1).where("tasks:completed_at").greater(date).orderBy("-tasks:created_at").excluding([1, 2]);
    expect(JSON.stringify(s)).toBe(
      '{"filters":{"conjunction":"and","items":[{"filter":"filter:tasks:completed_at","operator":"greater","type":"Datetime","value":"2024-01-01T00:00:00.000Z"}]},"ordering":["-tasks:created_at"],"selectedItems":{"all":true,"excluded":[1,2]}}',
    );
  });
  test("toRequest puts id and project in the query and the selection in the body", () => {
    const req = selection(4).where("tasks:id").greater(10).including([11, 12]).toRequest("delete_tasks_annotations", { annotator: 2 });
    expect(req).toEqual({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "delete_tasks_annotations", project: 4 },
      body: {
        annotator: 2,
        filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "greater", type: "Number", value: 10 }] },
        selectedItems: { all: false, included: [11, 12] },
      },
    });
  });
  test("a view selection sends ?view= and an empty body", () => {
    expect(selection(4).fromView(9).toRequest("delete_tasks")).toEqual({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "delete_tasks", project: 4, view: 9 },
      body: {},
    });
  });
  test("a fresh selection has an empty body (the server then acts on every task)", () => {
    expect(selection(1).toJSON()).toEqual({});
  });
});

describe("immutability", () => {
  test("every call returns a new selection and leaves the old one as it was", () => {
    const a = selection(1);
    const b = a.where("tasks:id").greater(1);
    const c = b.and("tasks:inner_id").less(5);
    const d = c.excluding([3]);
    expect(a.toJSON()).toEqual({});
    expect(b.toJSON().filters?.items).toHaveLength(1);
    expect(c.toJSON().filters?.items).toHaveLength(2);
    expect(c.toJSON().selectedItems).toBeUndefined();
    expect(d.toJSON().selectedItems).toEqual({ all: true, excluded: [3] });
    expect(new Set([a, b, c, d]).size).toBe(4);
  });
  test("the Query value is frozen all the way down", () => {
    const q = selection(1)
      .where("tasks:annotators")
      .contains([1])
      .child("tasks:id")
      .greater(2)
      .orderBy("tasks:id")
      .including([5])
      .toQuery();
    expect(Object.isFrozen(q)).toBe(true);
    expect(Object.isFrozen(q.filters)).toBe(true);
    expect(Object.isFrozen(q.filters?.items)).toBe(true);
    expect(Object.isFrozen(q.filters?.items[0])).toBe(true);
    expect(Object.isFrozen(q.filters?.items[0]?.children)).toBe(true);
    expect(Object.isFrozen(q.filters?.items[0]?.value)).toBe(true);
    expect(Object.isFrozen(q.ordering)).toBe(true);
    expect(Object.isFrozen(q.selectedItems)).toBe(true);
  });
  test("branching from one base does not leak conditions between branches", () => {
    const base = selection(1).where("tasks:id").greater(1);
    const x = base.and("tasks:inner_id").equal(2);
    const y = base.or("tasks:inner_id").equal(3);
    expect(x.toJSON().filters).toMatchObject({ conjunction: "and", items: [{}, { value: 2 }] });
    expect(y.toJSON().filters).toMatchObject({ conjunction: "or", items: [{}, { value: 3 }] });
  });
});

describe("rule a: selected items", () => {
  test("including accumulates without duplicates", () => {
    expect(selection(1).including([1, 2]).including([2, 3]).toJSON().selectedItems).toEqual({ all: false, included: [1, 2, 3] });
  });
  test("excluding accumulates, all() keeps the excluded ids", () => {
    expect(selection(1).excluding([1]).all().excluding([4]).toJSON().selectedItems).toEqual({ all: true, excluded: [1, 4] });
    expect(selection(1).all().toJSON().selectedItems).toEqual({ all: true, excluded: [] });
  });
  test.each([
    ["excluding after including", () => loose(selection(1).including([1])).excluding([2]), rules.excludingAfterIncluding],
    ["all after including", () => loose(selection(1).including([1])).all(), rules.excludingAfterIncluding],
    ["including after excluding", () => loose(selection(1).excluding([1])).including([2]), rules.includingAfterExcluding],
    ["including an empty list", () => loose(selection(1)).including([]), rules.emptyIncluding],
  ])("%s is refused at run time too", (_name, call, message) => {
    expect(call).toThrow(QueryBuildError);
    expect(call).toThrow(message);
  });
  test("ids must be positive integers; the error names the element", () => {
    expect(() => loose(selection(1)).including([1, "2"])).toThrow(
      'selectedItems.included[1]: expected a positive integer task id, found string "2"',
    );
    expect(() => loose(selection(1)).excluding(5)).toThrow("selectedItems.excluded: expected an array of task ids, found number 5");
  });
});

describe("rule b: conjunctions", () => {
  test("a single condition is sent with the and conjunction; or() switches the set to or", () => {
    expect(selection(1).where("tasks:id").equal(1).toJSON().filters?.conjunction).toBe("and");
    expect(selection(1).where("tasks:id").equal(1).or("tasks:id").equal(2).toJSON().filters?.conjunction).toBe("or");
  });
  test.each([
    ["and after or", () => loose(selection(1).where("tasks:id").equal(1).or("tasks:id").equal(2)).and("tasks:id"), rules.mixedAndAfterOr],
    ["or after and", () => loose(selection(1).where("tasks:id").equal(1).and("tasks:id").equal(2)).or("tasks:id"), rules.mixedOrAfterAnd],
    ["where twice", () => loose(selection(1).where("tasks:id").equal(1)).where("tasks:id"), rules.whereTwice],
    ["and first", () => loose(selection(1)).and("tasks:id"), rules.conditionFirst],
    ["child first", () => loose(selection(1)).child("tasks:id"), rules.conditionFirst],
  ])("%s is refused", (_n, call, message) => {
    expect(call).toThrow(message);
  });
});

describe("rules c and d: operators and values", () => {
  test("an operator outside the column's catalog names the path, the column and what is allowed", () => {
    expect(() => loose(selection(1).where("tasks:id").equal(1)).and("tasks:completed_at").contains("2024")).toThrow(
      "filters.items[1].operator: contains is not allowed on tasks:completed_at (datetime column); allowed: equal, not_equal, less, greater, less_or_equal, greater_or_equal, in, not_in, empty",
    );
  });
  test("a value of the wrong shape names the path, what was expected and what was found", () => {
    const err = thrown(QueryBuildError, () =>
      loose(selection(1).where("tasks:id").equal(1).or("tasks:id").equal(2)).child("tasks:created_at").greater(1704067200000),
    );
    expect(err?.path).toBe("filters.items[1].child_filters[0].value");
    expect(err?.found).toBe("number 1704067200000");
    expect(err?.message).toContain(
      "greater on tasks:created_at expects a valid Date or an ISO-8601 string: a date (2024-01-31) or a date-time with a zone",
    );
  });
  test("datetimes are normalised to UTC with the server's format, keeping microseconds", () => {
    const value = (v: unknown) => loose(selection(1)).where("tasks:created_at").greater(v).toJSON().filters.items[0].value;
    expect(value("2024-01-01T02:00:00+02:00")).toBe("2024-01-01T00:00:00.000Z");
    expect(value("2024-01-01")).toBe("2024-01-01T00:00:00.000Z");
    expect(value("2024-03-10T12:30:45.123456Z")).toBe("2024-03-10T12:30:45.123456Z");
    expect(value("2024-03-10T12:30:45.123456-01:30")).toBe("2024-03-10T14:00:45.123456Z");
    expect(value(new Date(Date.UTC(2020, 1, 29, 23, 59, 59, 7)))).toBe("2020-02-29T23:59:59.007Z");
    expect(value("2024-03-10 12:30Z")).toBe("2024-03-10T12:30:00.000Z");
    expect(value("2024-03-10T12:30:45,5+0130")).toBe("2024-03-10T11:00:45.500Z");
    expect(() => value("2024-01-01T10:00:00")).toThrow(
      "2024-01-01T10:00:00: no zone: JavaScript reads it as local time (new Date() too), the server as UTC; add Z for UTC or an offset such as +02:00",
    );
    expect(() => value("2023-02-29")).toThrow("2023-02-29: day 29 does not exist in 2023-02");
    expect(() => value("2024-13-45")).toThrow("2024-13-45: month 13 does not exist");
    expect(() => value("2024-01-01T10:00:00.1234567Z")).toThrow("at most 6 fraction digits");
    expect(() => value(new Date("nope"))).toThrow("found an invalid Date");
  });
  test("ranges take {min, max} with min <= max", () => {
    const s = selection(1)
      .where("tasks:completed_at")
      .in({ min: "2024-01-01", max: new Date("2024-02-01T00:00:00Z") });
    expect(s.toJSON().filters?.items[0]?.value).toEqual({ min: "2024-01-01T00:00:00.000Z", max: "2024-02-01T00:00:00.000Z" });
    expect(() => selection(1).where("tasks:id").in({ min: 5, max: 1 })).toThrow(/min <= max/);
  });
  test("the day-range rule: a bare date as a range's max is the end of that day, so the range holds the whole day", () => {
    const value = (v: unknown) => loose(selection(1)).where("tasks:completed_at").in(v).toJSON().filters.items[0].value;
    expect(value({ min: "2024-01-01", max: "2024-01-31" })).toEqual({
      min: "2024-01-01T00:00:00.000Z",
      max: "2024-01-31T23:59:59.999999Z",
    });
    expect(value({ min: "2024-01-31", max: "2024-01-31" })).toEqual({
      min: "2024-01-31T00:00:00.000Z",
      max: "2024-01-31T23:59:59.999999Z",
    });
    // Only a bare date: a date-time or a Date is the instant it names.
    expect(value({ min: "2024-01-01", max: "2024-01-31T00:00:00Z" })).toEqual({
      min: "2024-01-01T00:00:00.000Z",
      max: "2024-01-31T00:00:00.000Z",
    });
    expect(value({ min: "2024-01-01", max: new Date("2024-01-31T00:00:00Z") }).max).toBe("2024-01-31T00:00:00.000Z");
    const not = loose(selection(1)).where("tasks:completed_at").notIn({ min: "2024-02-01", max: "2024-02-29" }).toJSON().filters
      .items[0].value;
    expect(not).toEqual({ min: "2024-02-01T00:00:00.000Z", max: "2024-02-29T23:59:59.999999Z" });
    // A single value is the start of its day, as Django reads a date.
    expect(loose(selection(1)).where("tasks:completed_at").less("2024-01-31").toJSON().filters.items[0].value).toBe(
      "2024-01-31T00:00:00.000Z",
    );
  });
  test("between/notBetween are the in/not_in operators", () => {
    const items = selection(1).where("tasks:id").between({ min: 1, max: 2 }).and("tasks:id").notBetween({ min: 5, max: 6 }).toJSON()
      .filters?.items;
    expect(items?.map((i) => i.operator)).toEqual(["in", "not_in"]);
  });
  test("user columns take one id or several and always send a list", () => {
    const items = selection(1).where("tasks:annotators").contains(3).and("tasks:updated_by").notContains([1, 2]).toJSON().filters?.items;
    expect(items?.map((i) => [i.type, i.value])).toEqual([
      ["List", [3]],
      ["List", [1, 2]],
    ]);
  });
  test("empty lists are refused where the server would surprise", () => {
    expect(() => loose(selection(1)).where("tasks:id").inList([])).toThrow(/non-empty array/);
    expect(() => loose(selection(1)).where("tasks:annotators").contains([])).toThrow(/non-empty array/);
  });
  test("results equality is sent as JSON text", () => {
    const v = selection(1)
      .where("tasks:annotations_results")
      .equal([{ choices: ["A"] }])
      .toJSON().filters?.items[0]?.value;
    expect(v).toBe('[{"choices":["A"]}]');
  });
});

describe("rule e: data columns", () => {
  test("untyped data columns send the type the value implies", () => {
    const items = selection(1)
      .where("tasks:data.n")
      .greater(5)
      .and("tasks:data.s")
      .contains("x")
      .and("tasks:data.b")
      .equal(true)
      .and("tasks:data.e")
      .empty(true)
      .and("tasks:data.l")
      .inList([1, 2])
      .and("tasks:data.m")
      .inList(["a", 1])
      .toJSON().filters?.items;
    expect(items?.map((i) => i.type)).toEqual(["Number", "String", "Boolean", "String", "Number", "String"]);
  });
  test("an explicit type wins, and only data columns take one", () => {
    expect(selection(1).where("tasks:data.n", "Unknown").equal(5).toJSON().filters?.items[0]?.type).toBe("Unknown");
    expect(() => loose(selection(1)).where("tasks:id", "Number")).toThrow(/only tasks:data.<key> columns take a type/);
    expect(() => loose(selection(1)).where("tasks:data.x", "Datetime")).toThrow(/expected a data column type/);
  });
  test("unknown columns and prefixes are refused", () => {
    expect(() => loose(selection(1)).where("tasks:nope")).toThrow(
      'filters.items[0].filter: expected a known column "tasks:<column>" or "tasks:data.<key>", found string "tasks:nope"',
    );
    expect(() => loose(selection(1)).where("filter:tasks:id")).toThrow(/expected a known column/);
    expect(() => loose(selection(1)).where("tasks:data.")).toThrow(/expected a known column/);
  });
  test("a refused column names the one it is near: a missing prefix, the wire's filter name, a misspelling", () => {
    const near = (column: string) =>
      thrown(QueryBuildError, () => loose(selection(1)).where(column)).message.match(/\(did you mean (.*)\?\)$/)?.[1];
    expect(near("id")).toBe('"tasks:id"');
    expect(near("data.score")).toBe('"tasks:data.score"');
    expect(near("filter:tasks:completed_at")).toBe('"tasks:completed_at"');
    expect(near("tasks:complted_at")).toBe('"tasks:completed_at"');
    expect(near("tasks:annotator")).toBe('"tasks:annotators"');
    expect(near("tasks:data.")).toBeUndefined();
    expect(near("tasks:annotatons")).toBe('"tasks:annotators"');
    // A part of several columns is no misspelling of a third ("annotations" is 2 edits from "annotators"): each is named.
    expect(thrown(QueryBuildError, () => loose(selection(1)).where("tasks:annotations")).message).toMatch(
      /found string "tasks:annotations" \(did you mean "tasks:annotations_results", "tasks:annotations_ids", "tasks:total_annotations" or "tasks:cancelled_annotations"\? a key of the task data is "tasks:data\.annotations"\)$/,
    );
    expect(thrown(QueryBuildError, () => loose(selection(1)).where("tasks:score")).message).toMatch(
      /found string "tasks:score" \(did you mean "tasks:predictions_score"\? a key of the task data is "tasks:data\.score"\)$/,
    );
    expect(thrown(QueryBuildError, () => loose(selection(1)).where("tasks:nope")).message).toMatch(
      /found string "tasks:nope" \(a key of the task data is "tasks:data\.nope"\)$/,
    );
    expect(thrown(QueryBuildError, () => loose(selection(1)).orderBy("-created_at")).message).toBe(
      'ordering[0]: expected a known column "tasks:<column>" or "tasks:data.<key>", found string "-created_at" (did you mean "-tasks:created_at"?)',
    );
  });
});

describe("rule f: ordering", () => {
  test("descending keys get a leading -", () => {
    expect(selection(1).orderBy("-tasks:data.score").toJSON().ordering).toEqual(["-tasks:data.score"]);
    expect(selection(1).orderBy("tasks:id").toQuery().ordering).toEqual([{ column: "id", descending: false }]);
  });
  test("bad keys and second keys are refused", () => {
    expect(() => loose(selection(1)).orderBy("--tasks:id")).toThrow(/ordering\[0\]: expected a known column/);
    expect(() => loose(selection(1).orderBy("tasks:id")).orderBy("tasks:id")).toThrow(rules.orderedTwice);
  });
});

describe("rule g: views", () => {
  test("a view selection refuses body parts at run time", () => {
    const v = loose(selection(1).fromView(3));
    for (const call of [() => v.where("tasks:id"), () => v.orderBy("tasks:id"), () => v.excluding([1]), () => v.including([1])]) {
      expect(call).toThrow(rules.viewIgnoresBody);
    }
    expect(() => loose(selection(1).excluding([1])).fromView(3)).toThrow(rules.fromViewFresh);
    expect(() => loose(selection(1)).fromView(0)).toThrow("view: expected a positive integer view id, found number 0");
  });
});

describe("rule h: children", () => {
  test("child() adds AND-ed children to the current line", () => {
    const items = selection(1)
      .where("tasks:annotators")
      .contains([3])
      .child("tasks:completed_at")
      .greater(date)
      .or("tasks:id")
      .equal(5)
      .child("tasks:inner_id")
      .less(3)
      .child("tasks:inner_id")
      .greater(1)
      .toJSON().filters?.items;
    // One child as child_filter (every server reads it), several as child_filters (servers from 1.23 read them).
    expect(items?.map((i) => [i.filter, i.child_filter?.filter, (i.child_filters ?? []).map((c) => c.filter)])).toEqual([
      ["filter:tasks:annotators", "filter:tasks:completed_at", []],
      ["filter:tasks:id", undefined, ["filter:tasks:inner_id", "filter:tasks:inner_id"]],
    ]);
  });
});

describe("run", () => {
  test("a client-bound selection performs its request through the handle", async () => {
    const seen: ActionRequest[] = [];
    const handle: ProjectHandle = {
      id: 7,
      perform: async (req) => (seen.push(req), { processed_items: 2, reload: false, detail: "Deleted 2 tasks" }),
    };
    const result = await selection(handle).including([1, 2]).run("delete_tasks");
    expect(result).toEqual({ processed_items: 2, reload: false, detail: "Deleted 2 tasks" });
    expect(seen).toEqual([
      {
        method: "POST",
        path: "/api/dm/actions/",
        query: { id: "delete_tasks", project: 7 },
        body: { selectedItems: { all: false, included: [1, 2] } },
      },
    ]);
  });
  test("unknown action ids need the customAction escape hatch", async () => {
    expect(() => loose(selection(1)).toRequest("delete_everything")).toThrow(
      "unknown action id delete_everything: for an action dmq does not know, use customAction(delete_everything)",
    );
    expect(() => loose(selection(1)).all().toRequest("delet_tasks")).toThrow(
      "unknown action id delet_tasks: for an action dmq does not know, use customAction(delet_tasks) (did you mean delete_tasks?)",
    );
    expect(selection(1).toRequest(customAction("my_plugin_action"), { x: 1 }).query.id).toBe("my_plugin_action");
  });
  test("run on an unbound selection rejects with the rule", async () => {
    await expect(loose(selection(1)).run("delete_tasks")).rejects.toThrow(rules.notBound);
  });
  test("project must be a positive integer or a handle", () => {
    expect(() => loose(selection)("1")).toThrow(
      'project: expected a positive integer project id or a client project handle, found string "1"',
    );
  });
});

describe("edge cases found by the round trip", () => {
  test("an untyped data inList of booleans is sent as String (Boolean has no in_list)", () => {
    expect(selection(1).where("tasks:data.flag").inList([true]).toJSON().filters?.items[0]?.type).toBe("String");
    expect(selection(1).where("tasks:data.flag").equal(true).toJSON().filters?.items[0]?.type).toBe("Boolean");
  });
  test("datetime ranges compare instants, not text", () => {
    const v = selection(1).where("tasks:created_at").in({ min: "2024-01-01T00:00:00.000Z", max: "2024-01-01T00:00:00.000500Z" });
    expect(v.toJSON().filters?.items[0]?.value).toEqual({ min: "2024-01-01T00:00:00.000Z", max: "2024-01-01T00:00:00.000500Z" });
    expect(() =>
      selection(1).where("tasks:created_at").in({ min: "2024-01-01T00:00:00.000500Z", max: "2024-01-01T00:00:00.000Z" }),
    ).toThrow(/min <= max/);
    selection(1).where("tasks:created_at").in({ min: "2024-01-01T01:00:00+01:00", max: "2024-01-01" });
  });
  test("Dates outside years 0000-9999 are refused (the server cannot parse them)", () => {
    expect(() =>
      selection(1)
        .where("tasks:created_at")
        .greater(new Date(Date.UTC(10000, 0, 1))),
    ).toThrow(/year out of range/);
  });
});
