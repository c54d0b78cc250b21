import { describe, expect, test } from "vitest";
import { selection } from "../../src/index.js";
import { choice } from "../../testing/index.js";
import { useTarget } from "../../testing/vitest.js";
import { catalogue, remaining } from "./catalogue.js";

/*
 * Data Manager actions on equal selections, each test on a fresh catalogue project (actions change
 * it): the result body, then the state read back through the API.
 */
const ls = useTarget();

describe("listing", () => {
  test("the community actions a project offers, in the server's order", async () => {
    const seeded = await ls.seed();
    const ids = (await seeded.project.actions()).map((a) => a.id);
    expect(ids).toEqual([
      "retrieve_tasks_predictions",
      "predictions_to_annotations",
      "remove_duplicates",
      "delete_tasks",
      "delete_tasks_annotations",
      "delete_tasks_predictions",
    ]);
  });
});

describe("delete_tasks", () => {
  test("included ids", async () => {
    const seeded = await ls.seed(catalogue);
    const ids = seeded.ids.tasks.toServer(["t1", "t3"]) as [number, ...number[]];
    const result = await selection(seeded.project).including(ids).run("delete_tasks");
    expect(result).toEqual({ processed_items: 2, reload: false, detail: "Deleted 2 tasks" });
    expect(await remaining(seeded)).toEqual(["t2", "t4", "t5"]);
  });

  test("excluded ids under a filter", async () => {
    const seeded = await ls.seed(catalogue);
    const result = await selection(seeded.project)
      .where("tasks:total_annotations")
      .greater(0)
      .excluding([seeded.ids.tasks.get("t4")])
      .run("delete_tasks");
    expect(result.processed_items).toBe(2);
    expect(await remaining(seeded)).toEqual(["t3", "t4", "t5"]);
  });

  test("every task: the answer asks the UI to reload", async () => {
    const seeded = await ls.seed(catalogue);
    const result = await selection(seeded.project).all().run("delete_tasks");
    expect(result).toEqual({ processed_items: 5, reload: true, detail: "Deleted 5 tasks" });
    expect(await remaining(seeded)).toEqual([]);
  });
});

describe("annotations and predictions", () => {
  test("delete_tasks_annotations deletes cancelled annotations too", async () => {
    const seeded = await ls.seed(catalogue);
    const result = await selection(seeded.project).where("tasks:total_annotations").greater(0).run("delete_tasks_annotations");
    expect(result).toEqual({ processed_items: 4, detail: "Deleted 4 annotations" });
    const page = await seeded.project.tasks({ query: selection(seeded.project).orderBy("tasks:id") }).page(1);
    expect(page.tasks.map((t) => [t.total_annotations, t.cancelled_annotations])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  test("delete_tasks_annotations of one annotator", async () => {
    const seeded = await ls.seed(catalogue);
    const other = await selection(seeded.project)
      .all()
      .run("delete_tasks_annotations", { annotator: ls.target.user.id + 1000 });
    expect(other).toEqual({ processed_items: 0, detail: "Deleted 0 annotations" });
    const mine = await selection(seeded.project).all().run("delete_tasks_annotations", { annotator: ls.target.user.id });
    expect(mine.processed_items).toBe(4);
  });

  test("delete_tasks_predictions", async () => {
    const seeded = await ls.seed(catalogue);
    const ids = seeded.ids.tasks.toServer(["t2", "t3"]) as [number, ...number[]];
    const result = await selection(seeded.project).including(ids).run("delete_tasks_predictions");
    expect(result).toEqual({ processed_items: 3, detail: "Deleted 3 predictions" });
    const left = await ls.client.predictions.list({ project: seeded.id });
    expect(seeded.ids.predictions.toSpec(left.map((p) => p.id))).toEqual(["p1"]);
  });

  test("predictions_to_annotations: the predictions of one model version become annotations of the caller", async () => {
    const seeded = await ls.seed(catalogue);
    const result = await selection(seeded.project).all().run("predictions_to_annotations", { model_version: "m1" });
    expect(result).toEqual({ detail: "Created 2 annotations" });
    const t3 = await ls.client.annotations.list(seeded.ids.tasks.get("t3"));
    expect(t3.map((a) => [a.result, a.completed_by, a.parent_prediction])).toEqual([
      [choice("pos"), ls.target.user.id, seeded.ids.predictions.get("p3")],
    ]);
    const again = await selection(seeded.project).all().run("predictions_to_annotations", { model_version: "m1" });
    expect(again).toEqual({ detail: "Created 0 annotations" });
  });

  test("retrieve_tasks_predictions without an ML backend changes nothing", async () => {
    const seeded = await ls.seed(catalogue);
    const result = await selection(seeded.project).all().run("retrieve_tasks_predictions");
    expect(result).toEqual({ processed_items: 5, detail: "Retrieved 5 predictions" });
    expect((await ls.client.predictions.list({ project: seeded.id })).length).toBe(4);
  });
});

describe("remove_duplicates", () => {
  test("keeps the first of tasks with equal data, moving the annotations to it", async () => {
    const seeded = await ls.seed({
      tasks: [
        { id: "d1", data: { k: 1 } },
        { id: "d2", data: { k: 1 }, annotations: [{ id: "x", result: choice("pos") }] },
        { id: "u", data: { k: 2 } },
      ],
    });
    const result = await selection(seeded.project).all().run("remove_duplicates");
    expect(result).toEqual({});
    const left = await remaining(seeded);
    expect(left).toHaveLength(2);
    expect(left).toContain("u");
    const kept = seeded.ids.tasks.get(left.find((t) => t !== "u")!);
    expect((await ls.client.annotations.get(seeded.ids.annotations.get("x"))).task).toBe(kept);
  });
});
