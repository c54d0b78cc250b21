import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { raw, startFixture } from "./fixture.js";

/*
 * `/api/dm/columns/`, `/api/dm/project/` and `/api/projects/{id}/model-versions/`, as a server (1.22)
 * answered them. Fixture project 1: config data key `text`, tasks also hold `n`; predictions v1 ×3,
 * v2 ×2 (project model_version v2); 5 annotations, one cancelled. Users 1–3.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("GET /api/dm/columns/", () => {
  test("data keys first (the config's, then the others as Unknown), the task columns in the server's order, then data", async () => {
    const { status, body } = await raw(server, "GET", "/api/dm/columns/?project=1");
    expect(status).toBe(200);
    const ids = body.columns.map((c: { id: string }) => c.id);
    expect(ids).toEqual([
      "text",
      "n",
      "id",
      "inner_id",
      "completed_at",
      "total_annotations",
      "cancelled_annotations",
      "total_predictions",
      "annotators",
      "annotations_results",
      "annotations_ids",
      "predictions_score",
      "predictions_model_versions",
      "predictions_results",
      "file_upload",
      "storage_filename",
      "created_at",
      "updated_at",
      "updated_by",
      "avg_lead_time",
      "draft_exists",
      "data",
    ]);
    const [text, n] = body.columns;
    expect(text).toEqual({
      id: "text",
      title: "text",
      type: "String",
      target: "tasks",
      parent: "data",
      visibility_defaults: { explore: true, labeling: true },
      project_defined: true,
    });
    expect([n.type, n.visibility_defaults]).toEqual(["Unknown", { explore: true, labeling: false }]);
    const byId = (id: string) => body.columns.find((c: { id: string }) => c.id === id);
    expect(byId("annotators")).toEqual({
      id: "annotators",
      title: "Annotated by",
      type: "List",
      target: "tasks",
      help: "All users who completed the task",
      schema: { items: [1, 2, 3] },
      visibility_defaults: { explore: true, labeling: false },
      project_defined: false,
    });
    expect(byId("predictions_model_versions").schema).toEqual({ items: ["v1", "v2"], multiple: true });
    expect(byId("total_annotations").visibility_defaults).toEqual({ explore: true, labeling: true });
    expect(byId("data")).toEqual({
      id: "data",
      title: "data",
      type: "List",
      target: "tasks",
      children: ["text", "n"],
      project_defined: false,
    });
  });

  test("no project means project 1; a bad one is the server's 400, an unknown one a 404", async () => {
    expect((await raw(server, "GET", "/api/dm/columns/")).body.columns[0].id).toBe("text");
    const bad = await raw(server, "GET", "/api/dm/columns/?project=x");
    expect([bad.status, bad.body.validation_errors]).toEqual([
      400,
      { project: 'Incorrect value in key "project" = "x". It should be digit string.' },
    ]);
    const missing = await raw(server, "GET", "/api/dm/columns/?project=99");
    expect([missing.status, missing.body.detail]).toEqual([404, "No Project matches the given query."]);
  });
});

describe("GET /api/dm/project/", () => {
  test("the project without its counters, then the Data Manager's keys", async () => {
    const { body } = await raw(server, "GET", "/api/dm/project/?project=1");
    const project = (await raw(server, "GET", "/api/projects/1/")).body;
    expect(Object.keys(body)).toEqual([
      ...Object.keys(project),
      "can_delete_tasks",
      "can_manage_annotations",
      "can_manage_tasks",
      "source_syncing",
      "target_syncing",
      "task_count",
      "annotation_count",
    ]);
    expect([body.task_number, body.total_annotations_number, body.finished_task_number]).toEqual([null, null, null]);
    expect([body.task_count, body.annotation_count, body.can_delete_tasks, body.source_syncing]).toEqual([6, 5, true, false]);
    expect(body.parsed_label_config).toEqual(project.parsed_label_config);
  });

  test("an unknown project", async () => {
    expect((await raw(server, "GET", "/api/dm/project/?project=99")).status).toBe(404);
  });
});

describe("/api/projects/{id}/model-versions/", () => {
  test("GET counts predictions per version; extended lists them newest first", async () => {
    expect((await raw(server, "GET", "/api/projects/1/model-versions/")).body).toEqual({ v1: 3, v2: 2 });
    await raw(server, "PATCH", "/api/projects/2/", { body: { model_version: "" } });
    expect((await raw(server, "GET", "/api/projects/2/model-versions/")).body).toEqual({});
    await raw(server, "POST", "/api/predictions/", { body: { task: 3, result: [], model_version: "v3" } });
    const extended = await raw(server, "GET", "/api/projects/1/model-versions/?extended=1");
    expect(extended.body.live).toBeNull();
    expect(extended.body.static.map((s: { model_version: string; count: number }) => [s.model_version, s.count])).toEqual([
      ["v3", 1],
      ["v1", 3],
      ["v2", 2],
    ]);
    // Python's isoformat leaves the fraction out when the microseconds are 0 (a whole second of the wall clock).
    expect(extended.body.static[0].latest).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect((await raw(server, "GET", "/api/projects/1/model-versions/?extended=1&include_live_models=1")).body.live).toEqual([]);
  });

  test("the project's own version counts 0 when no prediction has it", async () => {
    await raw(server, "PATCH", "/api/projects/1/", { body: { model_version: "v1" } });
    for (const p of server.data().predictions.filter((p) => p.model_version === "v1"))
      await raw(server, "DELETE", `/api/predictions/${p.id}/`);
    expect((await raw(server, "GET", "/api/projects/1/model-versions/")).body).toEqual({ v2: 2, v1: 0 });
  });

  test("deleting the project's own version clears it (should_none_model_version; measured by dmq verify)", async () => {
    await raw(server, "PATCH", "/api/projects/1/", { body: { model_version: "v1" } });
    await raw(server, "DELETE", "/api/projects/1/model-versions/", { body: { model_version: "v1" } });
    expect((await raw(server, "GET", "/api/projects/1/model-versions/")).body).toEqual({ v2: 2 });
    expect(server.data().projects[0]!.model_version).toBeNull();
  });

  test("DELETE removes one version's predictions; model_version is required", async () => {
    const answer = await raw(server, "DELETE", "/api/projects/1/model-versions/", { body: { model_version: "v1" } });
    expect([answer.status, answer.body]).toEqual([200, { deleted_predictions: 3 }]);
    expect(server.data().predictions.map((p) => p.model_version)).toEqual(["v2", "v2"]);
    expect((await raw(server, "DELETE", "/api/projects/1/model-versions/", { body: { model_version: "nope" } })).body).toEqual({
      deleted_predictions: 0,
    });
    const missing = await raw(server, "DELETE", "/api/projects/1/model-versions/", { body: {} });
    expect([missing.status, missing.body.validation_errors]).toEqual([400, { non_field_errors: ["model_version param is required"] }]);
  });
});
