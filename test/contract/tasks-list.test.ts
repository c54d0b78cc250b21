import { beforeAll, describe, expect, test } from "vitest";
import { selection } from "../../src/index.js";
import type { SeededProject } from "../../testing/index.js";
import { useTarget } from "../../testing/vitest.js";
import { catalogue, listed } from "./catalogue.js";

/*
 * The Data Manager task list (`GET /api/tasks/?project=&query=`) on the catalogue: filters, both
 * conjunctions, child filters, ordering, selections and paging. Read-only: one project for the file.
 */
const ls = useTarget();
let seeded: SeededProject;
beforeAll(async () => {
  seeded = await ls.seed(catalogue);
});
const q = () => selection(seeded.project);

describe("filters", () => {
  test.each([
    ["annotated (cancelled annotations do not count)", () => q().where("tasks:total_annotations").greater(0), ["t1", "t2", "t4"]],
    ["with a cancelled annotation", () => q().where("tasks:cancelled_annotations").greater(0), ["t2"]],
    ["without predictions", () => q().where("tasks:total_predictions").equal(0), ["t4", "t5"]],
    ["with two predictions or more", () => q().where("tasks:total_predictions").greaterOrEqual(2), ["t3"]],
    ["data text contains, case-insensitive", () => q().where("tasks:data.text", "String").contains("BANANA"), ["t2"]],
    ["data text contains a non-ASCII letter", () => q().where("tasks:data.text", "String").contains("äp"), ["t4"]],
    ["a Number filter casts the stored text", () => q().where("tasks:data.n", "Number").greater(1), ["t1", "t2"]],
    ["a negative number", () => q().where("tasks:data.n", "Number").less(0), ["t3"]],
    ["a Number range", () => q().where("tasks:data.n", "Number").between({ min: 0, max: 6 }), ["t1", "t4"]],
    ["a key that is null or missing is empty", () => q().where("tasks:data.tag", "String").empty(true), ["t2", "t3", "t5"]],
    ["annotation results", () => q().where("tasks:annotations_results").contains("neutral"), ["t4"]],
    ["prediction results", () => q().where("tasks:predictions_results").contains("neutral"), ["t3"]],
    // The mean over the predictions of the project's model version (m2): t2 .2, t3 .7; t1 has none of m2.
    ["the mean prediction score", () => q().where("tasks:predictions_score").greater(0.65), ["t3"]],
    ["model versions", () => q().where("tasks:predictions_model_versions").contains("m1"), ["t1", "t3"]],
    ["and", () => q().where("tasks:total_predictions").greater(0).and("tasks:total_annotations").greater(0), ["t1", "t2"]],
    ["or", () => q().where("tasks:cancelled_annotations").greater(0).or("tasks:total_predictions").greaterOrEqual(2), ["t2", "t3"]],
  ])("%s", async (_name, query, expected) => {
    expect(await listed(seeded, { query: query().orderBy("tasks:id") })).toEqual(expected);
  });

  test("a child filter narrows its line (sent as the singular child_filter, the key every server version reads)", async () => {
    const item = (filter: string, operator: string, type: string, value: number | string) => ({
      filter: `filter:tasks:${filter}`,
      operator,
      type,
      value,
    });
    const query = {
      filters: {
        conjunction: "or" as const,
        items: [
          { ...item("total_predictions", "greater", "Number", 0), child_filter: item("total_annotations", "equal", "Number", 0) },
          item("data.tag", "equal", "String", "y"),
        ],
      },
      ordering: ["tasks:id"],
    };
    expect(await listed(seeded, { query })).toEqual(["t3", "t4"]);
  });

  test("ids by range, from the server's own ids", async () => {
    const ids = seeded.ids.tasks;
    const query = q()
      .where("tasks:id")
      .between({ min: ids.get("t2"), max: ids.get("t4") })
      .orderBy("tasks:id");
    expect(await listed(seeded, { query })).toEqual(["t2", "t3", "t4"]);
  });
});

describe("ordering", () => {
  test("by id, both directions", async () => {
    expect(await listed(seeded, { query: q().orderBy("tasks:id") })).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    expect(await listed(seeded, { query: q().orderBy("-tasks:id") })).toEqual(["t5", "t4", "t3", "t2", "t1"]);
  });

  test("by the mean prediction score: tasks without one (NULL) last in both directions, in no set order", async () => {
    const down = await listed(seeded, { query: q().orderBy("-tasks:predictions_score") });
    expect(down.slice(0, 2)).toEqual(["t3", "t2"]);
    expect(down.slice(2).sort()).toEqual(["t1", "t4", "t5"]);
    const up = await listed(seeded, { query: q().orderBy("tasks:predictions_score") });
    expect(up.slice(0, 2)).toEqual(["t2", "t3"]);
    expect(up.slice(2).sort()).toEqual(["t1", "t4", "t5"]);
  });

  test("by inner id, which follows the import order", async () => {
    expect(await listed(seeded, { query: q().orderBy("-tasks:inner_id") })).toEqual(["t5", "t4", "t3", "t2", "t1"]);
  });
});

describe("selections", () => {
  test("included ids, narrowed by the filters", async () => {
    const ids = seeded.ids.tasks.toServer(["t1", "t3", "t5"]);
    expect(
      await listed(seeded, {
        query: q()
          .including(ids as [number, ...number[]])
          .orderBy("tasks:id"),
      }),
    ).toEqual(["t1", "t3", "t5"]);
    const filtered = q()
      .where("tasks:total_predictions")
      .greater(0)
      .including(ids as [number, ...number[]])
      .orderBy("tasks:id");
    expect(await listed(seeded, { query: filtered })).toEqual(["t1", "t3"]);
  });

  test("excluded ids", async () => {
    const ids = seeded.ids.tasks.toServer(["t2", "t4"]) as [number, ...number[]];
    expect(await listed(seeded, { query: q().excluding(ids).orderBy("tasks:id") })).toEqual(["t1", "t3", "t5"]);
  });
});

describe("the list itself", () => {
  test("totals count the whole selection; pages split it", async () => {
    const first = await seeded.project.tasks({ page_size: 2, query: q().orderBy("tasks:id") }).page(1);
    expect([first.total, first.total_annotations, first.total_predictions]).toEqual([5, 3, 4]);
    expect(seeded.ids.tasks.toSpec(first.tasks.map((t) => t.id))).toEqual(["t1", "t2"]);
    const third = await seeded.project.tasks({ page_size: 2, query: q().orderBy("tasks:id") }).page(3);
    expect(seeded.ids.tasks.toSpec(third.tasks.map((t) => t.id))).toEqual(["t5"]);
  });

  test("fields=all carries each task's annotations (cancelled ones too) and predictions", async () => {
    const page = await seeded.project.tasks({ fields: "all", query: q().orderBy("tasks:id") }).page(1);
    const t2 = page.tasks[1]!;
    expect(seeded.ids.annotations.toSpec((t2.annotations ?? []).map((a) => a.id).sort((a, b) => a - b))).toEqual(["a2", "a3"]);
    expect(seeded.ids.predictions.toSpec((page.tasks[2]!.predictions ?? []).map((p) => p.id).sort((a, b) => a - b))).toEqual(["p3", "p4"]);
    expect(page.tasks.map((t) => [t.total_annotations, t.cancelled_annotations, t.total_predictions])).toEqual([
      [1, 0, 1],
      [1, 1, 1],
      [0, 0, 2],
      [1, 0, 0],
      [0, 0, 0],
    ]);
    expect(page.tasks.map((t) => t.data)).toEqual(catalogue.tasks.map((t) => t.data));
  });

  test("a task's detail", async () => {
    const task = await ls.client.tasks.get(seeded.ids.tasks.get("t1"));
    expect([task.project, task.data, task.total_annotations, task.total_predictions]).toEqual([
      seeded.id,
      { text: "apple pie", n: 5, tag: "x" },
      1,
      1,
    ]);
    expect(seeded.ids.annotations.toSpec(task.annotations.map((a) => a.id))).toEqual(["a1"]);
  });
});
