import { describe, expectTypeOf, test } from "vitest";
import type { ActionRequest, ProjectHandle, QueryBody } from "../../src/query/nodes.js";
import type { Refused, rules } from "../../src/query/rules.js";
import { selection } from "../../src/selection.js";

const date = new Date("2024-01-01T00:00:00Z");
declare const handle: ProjectHandle;

describe("the design-card chain", () => {
  test("compiles verbatim and runs on a client-bound selection", () => {
    const project = handle;
    const result = selection(project)
      .where("tasks:completed_at")
      .greater(date)
      .orderBy("-tasks:created_at")
      .excluding([1, 2])
      .run("delete_tasks");
    expectTypeOf(result).resolves.toEqualTypeOf<{ processed_items: number; reload: boolean; detail: string }>();
  });
  test("an unbound selection has toJSON and toRequest but no run", () => {
    const s = selection(1).where("tasks:completed_at").greater(date).orderBy("-tasks:created_at").excluding([1, 2]);
    expectTypeOf(s.toJSON()).toEqualTypeOf<QueryBody>();
    expectTypeOf(s.toRequest("delete_tasks")).toEqualTypeOf<ActionRequest>();
    expectTypeOf(s.run).toEqualTypeOf<Refused<typeof rules.notBound>>();
    // @ts-expect-error run() needs selection(client.project(id))
    void s.run("delete_tasks");
  });
});

describe("rule a: included / excluded", () => {
  test("including, excluding and all each pick one side; repeated calls accumulate", () => {
    selection(1).including([1]).including([2, 3]);
    selection(1).excluding([1]).excluding([2]).all();
    selection(1).all().excluding([4]);
  });
  test("after including, excluding and all are refused, and vice versa", () => {
    const inc = selection(1).including([1]);
    expectTypeOf(inc.excluding).toEqualTypeOf<Refused<typeof rules.excludingAfterIncluding>>();
    // @ts-expect-error excluding() after including(): the server would ignore the excluded ids
    inc.excluding([2]);
    // @ts-expect-error all() after including()
    inc.all();
    // @ts-expect-error including() after excluding(): the server uses only one list
    selection(1).excluding([2]).including([1]);
    // @ts-expect-error including() after all()
    selection(1).all().including([1]);
  });
  test("including needs a non-empty list (an empty one would select every task)", () => {
    // @ts-expect-error {all:false, included:[]} selects every task on the server
    selection(1).including([]);
    const ids: number[] = [1];
    // @ts-expect-error a number[] may be empty: narrow it with isNonEmpty first
    selection(1).including(ids);
    selection(1).excluding(ids);
  });
});

describe("rule b: one conjunction per filter set", () => {
  test("and-chains and or-chains", () => {
    selection(1).where("tasks:id").greater(1).and("tasks:inner_id").less(9).and("tasks:total_annotations").equal(0);
    selection(1).where("tasks:id").greater(1).or("tasks:inner_id").less(9).or("tasks:total_annotations").equal(0);
  });
  test("mixing is refused, with the rule in the type", () => {
    const or = selection(1).where("tasks:id").greater(1).or("tasks:inner_id").less(9);
    expectTypeOf(or.and).toEqualTypeOf<Refused<typeof rules.mixedAndAfterOr>>();
    // @ts-expect-error .and() cannot follow .or()
    or.and("tasks:id");
    // @ts-expect-error .or() cannot follow .and()
    selection(1).where("tasks:id").greater(1).and("tasks:inner_id").less(9).or("tasks:id");
  });
  test("where starts the set once; and/or need a where first", () => {
    // @ts-expect-error where() twice
    selection(1).where("tasks:id").greater(1).where("tasks:id");
    // @ts-expect-error and() before where()
    selection(1).and("tasks:id");
    // @ts-expect-error or() before where()
    selection(1).or("tasks:id");
  });
});

describe("rule c: operator per column type", () => {
  test("each kind offers its catalog", () => {
    selection(1).where("tasks:completed_at").in({ min: date, max: "2024-02-01T00:00:00Z" });
    selection(1).where("tasks:draft_exists").equal(true);
    selection(1).where("tasks:annotators").contains([1, 2]);
    selection(1).where("tasks:updated_by").notContains(3);
    selection(1).where("tasks:id").inList([1, 2]);
    selection(1).where("tasks:total_predictions").notInList([0]);
    selection(1).where("tasks:data.label").inList(["a", "b"]);
    selection(1).where("tasks:file_upload").regex("^img_");
  });
  test("operators outside the catalog do not exist", () => {
    // @ts-expect-error contains on a Datetime column
    selection(1).where("tasks:completed_at").contains("2024");
    // @ts-expect-error greater on a Boolean column
    selection(1).where("tasks:draft_exists").greater(true);
    // @ts-expect-error annotators: only contains / notContains / empty
    selection(1).where("tasks:annotators").equal(1);
    // @ts-expect-error updated_by: only contains / notContains / empty
    selection(1).where("tasks:updated_by").inList([1]);
    // @ts-expect-error inList only on id, inner_id, counters and data.*
    selection(1).where("tasks:created_at").inList([date]);
    // @ts-expect-error inList not on predictions_score
    selection(1).where("tasks:predictions_score").inList([1]);
    // @ts-expect-error regex is not a Number operator
    selection(1).where("tasks:total_annotations").regex("1");
  });
});

describe("rule d: value per operator", () => {
  test("accepted values", () => {
    selection(1).where("tasks:created_at").greater("2024-01-01");
    selection(1).where("tasks:created_at").less("2024-01-01T10:00:00+02:00");
    selection(1).where("tasks:total_annotations").between({ min: 1, max: 3 });
    selection(1).where("tasks:id").notIn({ min: 1, max: 3 });
    selection(1).where("tasks:id").empty(false);
    selection(1)
      .where("tasks:annotations_results")
      .equal([{ value: { choices: ["A"] } }]);
  });
  test("refused values", () => {
    // @ts-expect-error Datetime takes a Date or an ISO string, not a number
    selection(1).where("tasks:created_at").greater(1704067200000);
    // @ts-expect-error not an ISO-8601 string
    selection(1).where("tasks:created_at").greater("yesterday");
    // @ts-expect-error Number takes a number
    selection(1).where("tasks:total_annotations").equal("2");
    // @ts-expect-error in takes {min, max} of the column's type
    selection(1).where("tasks:total_annotations").in({ min: "1", max: 2 });
    // @ts-expect-error in takes {min, max}, not a list
    selection(1).where("tasks:id").in([1, 2]);
    // @ts-expect-error inList takes an array
    selection(1).where("tasks:id").inList(1);
    // @ts-expect-error inList [] matches nothing: a non-empty array is required
    selection(1).where("tasks:id").inList([]);
    // @ts-expect-error empty takes a boolean
    selection(1).where("tasks:id").empty("yes");
    // @ts-expect-error user columns take user ids
    selection(1).where("tasks:annotators").contains("alice");
    // @ts-expect-error an empty id list drops the line on the server
    selection(1).where("tasks:annotators").contains([]);
  });
});

describe("rule e: columns", () => {
  test("unknown columns are refused; data keys are open", () => {
    // @ts-expect-error unknown column
    selection(1).where("tasks:completed");
    // @ts-expect-error the filter: prefix is added for you
    selection(1).where("filter:tasks:id");
    selection(1).where("tasks:data.anything").contains("x");
    selection(1).where("tasks:data.anything").greater(3);
    selection(1).where("tasks:data.anything", "Number").inList([1, 2]);
  });
  test("a task-data type types the data columns", () => {
    const typed = selection<{ score: number; text: string; ok: boolean }>(1);
    typed.where("tasks:data.score").greater(0.5);
    typed.where("tasks:data.text").contains("hello");
    typed.where("tasks:data.ok").equal(true);
    // @ts-expect-error score is a number: Number operators only
    typed.where("tasks:data.score").contains("5");
    // @ts-expect-error text is a string: no greater
    typed.where("tasks:data.text").greater(5);
    // @ts-expect-error not a key of the task data
    typed.where("tasks:data.missing");
    expectTypeOf(typed.where("tasks:data.score")).toHaveProperty("inList");
    expectTypeOf(typed.where("tasks:data.score")).not.toHaveProperty("regex");
  });
});

describe("rule f: ordering", () => {
  test("known columns and data keys, optional leading -", () => {
    selection(1).orderBy("tasks:created_at");
    selection(1).orderBy("-tasks:predictions_score");
    selection(1).orderBy("-tasks:data.score");
    selection<{ score: number }>(1).orderBy("tasks:data.score");
  });
  test("refused keys", () => {
    // @ts-expect-error unknown column
    selection(1).orderBy("tasks:nope");
    // @ts-expect-error a double negative is not a direction
    selection(1).orderBy("--tasks:id");
    // @ts-expect-error not a key of the task data
    selection<{ score: number }>(1).orderBy("tasks:data.other");
    // @ts-expect-error the server orders by the first key only
    selection(1).orderBy("tasks:id").orderBy("tasks:inner_id");
  });
});

describe("rule g: views", () => {
  test("a view selection only serialises and runs", () => {
    const v = selection(handle).fromView(7);
    expectTypeOf(v.where).toEqualTypeOf<Refused<typeof rules.viewIgnoresBody>>();
    // @ts-expect-error the server ignores body filters when ?view= is given
    v.where("tasks:id");
    // @ts-expect-error ordering is ignored too
    v.orderBy("tasks:id");
    // @ts-expect-error ids are ignored too
    v.excluding([1]);
    // @ts-expect-error and ignored
    v.including([1]);
    expectTypeOf(v.run("delete_tasks_predictions")).resolves.toEqualTypeOf<{ processed_items: number; detail: string }>();
  });
  test("fromView must come first", () => {
    // @ts-expect-error filters before fromView would be ignored
    selection(1).where("tasks:id").equal(1).fromView(7);
    // @ts-expect-error ids before fromView would be ignored
    selection(1).excluding([1]).fromView(7);
  });
});

describe("rule h: child filters", () => {
  test("a condition carries AND-ed children", () => {
    selection(1)
      .where("tasks:annotators")
      .contains([3])
      .child("tasks:completed_at")
      .greater(date)
      .child("tasks:total_annotations")
      .greater(1)
      .or("tasks:id")
      .equal(5)
      .child("tasks:inner_id")
      .less(3);
  });
  test("children need a condition", () => {
    // @ts-expect-error child() before where()
    selection(1).child("tasks:id");
  });
});

describe("actions", () => {
  test("known actions type their params; unknown ids need customAction", () => {
    const s = selection(handle).all();
    void s.run("predictions_to_annotations", { model_version: ["v1", "v2"] });
    void s.run("delete_tasks_annotations", { annotator: 3 }, { timeoutInSeconds: 30 });
    // @ts-expect-error model_version is a string or list of strings
    void s.run("predictions_to_annotations", { model_version: 3 });
    // @ts-expect-error delete_tasks takes no extra fields
    void s.run("delete_tasks", { annotator: 3 });
    // @ts-expect-error unknown action id: use customAction("…")
    void s.run("delete_everything");
    // @ts-expect-error propagate_annotations requires source_annotation_id
    void s.run("propagate_annotations");
    expectTypeOf(s.toRequest({ customAction: "x" }, { any: 1 })).toEqualTypeOf<ActionRequest>();
  });
});

describe("depth", () => {
  test("a 30-condition chain type-checks", () => {
    const s = selection(1)
      .where("tasks:id")
      .greater(1)
      .and("tasks:inner_id")
      .greater(2)
      .and("tasks:total_annotations")
      .greater(3)
      .and("tasks:cancelled_annotations")
      .less(4)
      .and("tasks:total_predictions")
      .less(5)
      .and("tasks:predictions_score")
      .less(6)
      .and("tasks:avg_lead_time")
      .greater(7)
      .and("tasks:completed_at")
      .greater(date)
      .and("tasks:created_at")
      .less(date)
      .and("tasks:updated_at")
      .empty(false)
      .and("tasks:draft_exists")
      .equal(false)
      .and("tasks:annotators")
      .contains(1)
      .and("tasks:updated_by")
      .notContains([2])
      .and("tasks:file_upload")
      .contains("a")
      .and("tasks:storage_filename")
      .regex("b")
      .and("tasks:annotations_results")
      .contains("c")
      .and("tasks:predictions_results")
      .notContains("d")
      .and("tasks:annotations_ids")
      .contains([1])
      .and("tasks:predictions_model_versions")
      .contains("v1")
      .and("tasks:data.a")
      .contains("x")
      .and("tasks:data.b")
      .greater(1)
      .and("tasks:data.c", "Number")
      .in({ min: 1, max: 2 })
      .and("tasks:data.d")
      .inList(["x"])
      .and("tasks:data.e")
      .empty(true)
      .and("tasks:id")
      .notInList([9])
      .and("tasks:inner_id")
      .lessOrEqual(8)
      .and("tasks:id")
      .greaterOrEqual(1)
      .and("tasks:id")
      .notEqual(5)
      .and("tasks:data.f")
      .notContains("z")
      .and("tasks:data.g", "Boolean")
      .equal(true)
      .orderBy("-tasks:id")
      .excluding([1]);
    expectTypeOf(s.toJSON()).toEqualTypeOf<QueryBody>();
  });
});
