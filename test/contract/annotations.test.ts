import { describe, expect, test } from "vitest";
import { ApiError } from "../../src/index.js";
import { choice } from "../../testing/index.js";
import { useTarget } from "../../testing/vitest.js";

/* Annotations and predictions through their own routes: create, read, update, delete, and the defaults. */
const ls = useTarget();

describe("annotations", () => {
  test("a created annotation: the caller's, not ground truth, with the task's project", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {} }] });
    const task = seeded.ids.tasks.get("t");
    const created = await ls.client.annotations.create(task, { result: choice("pos"), lead_time: 3.5 });
    expect([created.task, created.project, created.completed_by, created.ground_truth, created.was_cancelled, created.lead_time]).toEqual([
      task,
      seeded.id,
      ls.target.user.id,
      false,
      false,
      3.5,
    ]);
    expect(created.result).toEqual(choice("pos"));
    expect((await ls.client.annotations.get(created.id)).result).toEqual(choice("pos"));
  });

  test("the task's list leaves cancelled annotations out; the counters count them apart", async () => {
    const seeded = await ls.seed({
      tasks: [
        {
          id: "t",
          data: {},
          annotations: [
            { id: "kept", result: choice("neg") },
            { id: "skipped", was_cancelled: true },
          ],
        },
      ],
    });
    const listed = await ls.client.annotations.list(seeded.ids.tasks.get("t"));
    expect(seeded.ids.annotations.toSpec(listed.map((a) => a.id))).toEqual(["kept"]);
    const task = await ls.client.tasks.get(seeded.ids.tasks.get("t"));
    expect([task.total_annotations, task.cancelled_annotations, task.is_labeled]).toEqual([1, 1, true]);
  });

  test("an imported annotation is ground truth unless told otherwise; one created through the API is not", async () => {
    const seeded = await ls.seed({
      tasks: [
        {
          id: "t",
          data: {},
          annotations: [
            { id: "imported", result: choice("pos") },
            { id: "imported-false", result: choice("pos"), ground_truth: false },
            { id: "api", result: choice("pos"), via: "api" },
          ],
        },
      ],
    });
    const read = async (spec: string) => (await ls.client.annotations.get(seeded.ids.annotations.get(spec))).ground_truth;
    expect([await read("imported"), await read("imported-false"), await read("api")]).toEqual([true, false, false]);
  });

  test("update and delete", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {}, annotations: [{ id: "a", result: choice("pos") }] }] });
    const id = seeded.ids.annotations.get("a");
    const updated = await ls.client.annotations.update(id, { result: choice("neg"), ground_truth: true });
    expect([updated.result, updated.ground_truth]).toEqual([choice("neg"), true]);
    await ls.client.annotations.delete(id);
    const gone = await ls.client.annotations.get(id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect((gone as ApiError).statusCode).toBe(404);
  });

  test("an annotation by a user id the server does not know is refused, and the import is refused whole", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {} }] });
    const create = await ls.client.annotations
      .create(seeded.ids.tasks.get("t"), { result: [], completed_by: 987654 })
      .catch((e: unknown) => e);
    expect([(create as ApiError).statusCode, Object.keys((create as ApiError).serverError?.validationErrors ?? {})]).toEqual([
      400,
      ["completed_by"],
    ]);
    const imported = await seeded.project
      .importTasks([{ data: {}, annotations: [{ result: [], completed_by: 987654 }] }])
      .catch((e: unknown) => e);
    expect((imported as ApiError).statusCode).toBe(400);
    expect((await seeded.project.tasks().page(1)).total).toBe(1);
  });
});

describe("predictions", () => {
  test("create, list by task and by project, update, delete", async () => {
    const seeded = await ls.seed({
      tasks: [
        { id: "a", data: {} },
        { id: "b", data: {}, predictions: [{ id: "old", result: choice("neg"), score: 0.1, model_version: "m0" }] },
      ],
    });
    const created = await ls.client.predictions.create({
      task: seeded.ids.tasks.get("a"),
      result: choice("pos"),
      score: 0.75,
      model_version: "m1",
    });
    expect([created.task, created.project, created.score, created.model_version, created.result]).toEqual([
      seeded.ids.tasks.get("a"),
      seeded.id,
      0.75,
      "m1",
      choice("pos"),
    ]);
    expect((await ls.client.predictions.list({ task: seeded.ids.tasks.get("a") })).map((p) => p.id)).toEqual([created.id]);
    const all = await ls.client.predictions.list({ project: seeded.id });
    expect(all.map((p) => p.id).sort((x, y) => x - y)).toEqual([seeded.ids.predictions.get("old"), created.id].sort((x, y) => x - y));
    const updated = await ls.client.predictions.update(created.id, { score: 0.5 });
    expect([updated.score, updated.model_version]).toEqual([0.5, "m1"]);
    await ls.client.predictions.delete(created.id);
    expect((await ls.client.predictions.list({ task: seeded.ids.tasks.get("a") })).length).toBe(0);
  });

  test("an imported prediction without a model version gets the server's placeholder, which the project takes on", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {}, predictions: [{ id: "p", result: choice("pos") }] }] });
    const prediction = await ls.client.predictions.get(seeded.ids.predictions.get("p"));
    expect([prediction.model_version, prediction.score]).toEqual(["undefined", null]);
    expect((await seeded.project.get()).model_version).toBe("undefined");
  });

  test("an imported prediction's model version becomes the project's when it has none", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {}, predictions: [{ result: choice("pos"), model_version: "m7" }] }] });
    expect((await seeded.project.get()).model_version).toBe("m7");
    const kept = await ls.seed({
      project: { model_version: "mine" },
      tasks: [{ id: "t", data: {}, predictions: [{ result: choice("pos"), model_version: "m7" }] }],
    });
    expect((await kept.project.get()).model_version).toBe("mine");
  });
});
