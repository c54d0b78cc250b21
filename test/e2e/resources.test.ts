import { selection } from "../../src/selection.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ApiError } from "../../src/client/index.js";
import type { MockServer } from "../../mock-server/index.js";
import { clientFor, raw, startFixture, taskIds } from "./fixture.js";

let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const choice = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }];

describe("every route answers with and without its trailing slash", () => {
  const gets = [
    "/api/current-user/whoami",
    "/api/version",
    "/api/projects",
    "/api/projects/1",
    "/api/tasks?project=1",
    "/api/tasks/1",
    "/api/tasks/1/annotations",
    "/api/annotations/1",
    "/api/predictions",
    "/api/predictions/1",
    "/api/dm/views",
    "/api/dm/views/1",
    "/api/dm/actions?project=1",
    "/api/actions?project=1",
    "/api/dm/actions/delete_tasks_annotations/form?project=1",
    "/api/token",
  ];
  for (const path of gets) {
    test(path, async () => {
      const [bare, slashed] = [path, path.replace(/(\?|$)/, "/$1")];
      const a = await raw(server, "GET", bare);
      const b = await raw(server, "GET", slashed);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
    });
  }
  test("an unknown path and a wrong method", async () => {
    expect((await raw(server, "GET", "/api/nothing/")).status).toBe(404);
    const wrong = await raw(server, "PUT", "/api/dm/actions/?project=1", { body: {} });
    expect([wrong.status, wrong.body.detail]).toEqual([405, 'Method "PUT" not allowed.']);
  });
});

describe("projects", () => {
  test("list: {count,next,previous,results}, 30 per page, 404 Invalid page. past the end", async () => {
    const client = clientFor(server);
    for (let i = 0; i < 30; i++) await client.projects.create({ title: `Project ${i}` });
    const first = await raw(server, "GET", "/api/projects/");
    expect(first.body.count).toBe(32);
    expect(first.body.results).toHaveLength(30);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${server.url}/api/projects/?page=2`);
    const second = await raw(server, "GET", "/api/projects/?page=2");
    expect(second.body.results.map((p: { id: number }) => p.id)).toEqual([2, 1]);
    expect(second.body.previous).toBe(`${server.url}/api/projects/`);
    expect(second.body.next).toBeNull();
    const past = await raw(server, "GET", "/api/projects/?page=3");
    expect([past.status, past.body.detail, past.body.status_code]).toEqual([404, "Invalid page.", 404]);
    expect((await raw(server, "GET", "/api/projects/?page_size=500")).body.results).toHaveLength(32);
    const all = await client.projects.list({ page_size: 7 }).toArray();
    expect(all).toHaveLength(32);
    expect(server.requests.filter((r) => r.path === "/api/projects/" && r.method === "GET").at(-1)?.status).toBe(404);
  });

  test("page_size is capped at 100", async () => {
    const client = clientFor(server);
    for (let i = 0; i < 101; i++) await client.projects.create({ title: `Query ${i}` });
    expect((await raw(server, "GET", "/api/projects/?page_size=500")).body.results).toHaveLength(100);
  });

  test("create, get, patch, delete; counters; title filter", async () => {
    const client = clientFor(server);
    const created = await client.projects.create({ title: "New", label_config: "<View/>" });
    // A create's answer is not loaded with the counters: they are null (ProjectListAPI.perform_create).
    expect(created).toMatchObject({
      id: 3,
      title: "New",
      label_config: "<View/>",
      task_number: null,
      // UserSimpleSerializer: id, first_name, last_name, email, avatar (no username).
      created_by: { id: 1, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", avatar: null },
    });
    expect((await client.projects.get(3)).task_number).toBe(0);
    const fixture = await client.projects.get(1);
    expect(fixture).toMatchObject({
      task_number: 6,
      total_annotations_number: 4,
      skipped_annotations_number: 1,
      total_predictions_number: 5,
      num_tasks_with_annotations: 4,
      finished_task_number: 4,
    });
    expect((await client.projects.update(3, { title: "Renamed" })).title).toBe("Renamed");
    expect((await raw(server, "GET", "/api/projects/?title=renam")).body.results.map((p: { id: number }) => p.id)).toEqual([3]);
    await client.projects.delete(1);
    expect(server.data().tasks.map((t) => t.id)).toEqual([7]);
    expect(server.data().views.map((v) => v.id)).toEqual([2]);
    const gone = await raw(server, "GET", "/api/projects/1/");
    expect([gone.status, gone.body.detail]).toEqual([404, "No Project matches the given query."]);
    const long = await raw(server, "POST", "/api/projects/", { body: { title: "x".repeat(51) } });
    expect([long.status, long.body.validation_errors]).toEqual([400, { title: ["Ensure this field has no more than 50 characters."] }]);
  });

  test("import (no trailing slash, as the SDK sends it) with annotations and predictions; delete all tasks", async () => {
    const client = clientFor(server);
    const result = await client.projects.importTasks(
      2,
      [
        { data: { text: "one" }, annotations: [{ result: choice }], predictions: [{ result: choice, score: 0.4, model_version: "m" }] },
        { data: { text: "two" } },
      ],
      { return_task_ids: true },
    );
    expect(result).toMatchObject({ task_count: 2, annotation_count: 1, prediction_count: 1, data_columns: [], task_ids: [8, 9] });
    expect(server.requests.at(-1)?.path).toBe("/api/projects/2/import");
    const tasks = server.data().tasks.filter((t) => t.project === 2);
    expect(tasks.map((t) => [t.id, t.inner_id])).toEqual([
      [7, 1],
      [8, 2],
      [9, 3],
    ]);
    const plain = await raw(server, "POST", "/api/projects/2/import", { body: [{ text: "bare data" }] });
    expect(plain.status).toBe(201);
    expect(server.data().tasks.at(-1)?.data).toEqual({ text: "bare data" });
    expect((await raw(server, "DELETE", "/api/projects/2/tasks/")).status).toBe(204);
    expect(taskIds(server, 2)).toEqual([]);
    expect(taskIds(server, 1)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("tasks", () => {
  test("create (201, inner_id numbered per project), get with annotations and predictions, patch, delete", async () => {
    const client = clientFor(server);
    const task = await client.tasks.create({ project: 1, data: { text: "new" } });
    expect(task).toMatchObject({ id: 8, project: 1, inner_id: 7, total_annotations: 0, is_labeled: false, data: { text: "new" } });
    const one = await client.tasks.get(2);
    expect(one).toMatchObject({ id: 2, total_annotations: 1, cancelled_annotations: 1, total_predictions: 1, is_labeled: true });
    expect(one.annotators?.map((a) => [a.user_id, a.email, a.annotated])).toEqual([
      [2, "bo@example.com", true],
      [3, "cy@example.com", true],
    ]);
    expect(one.annotations?.map((a) => a.id)).toEqual([2, 3]);
    expect(one.predictions?.map((p) => p.id)).toEqual([3]);
    const patched = await client.tasks.update(8, { data: { text: "changed" } });
    expect(patched.data).toEqual({ text: "changed" });
    // TaskSimpleSerializer saves what is written: updated_by only when the write names it.
    expect(server.data().tasks.find((t) => t.id === 8)?.updated_by).toBeNull();
    await client.tasks.update(8, { updated_by: 2 });
    expect(server.data().tasks.find((t) => t.id === 8)?.updated_by).toBe(2);
    await client.tasks.delete(2);
    expect(server.data().annotations.some((a) => a.task === 2)).toBe(false);
    expect(server.data().predictions.some((p) => p.task === 2)).toBe(false);
  });

  test("create without a project: 400 naming the field; an unknown project is looked up first (404)", async () => {
    const r = await raw(server, "POST", "/api/tasks/", { body: { data: {} } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ detail: "Validation error", validation_errors: { project: ["This field is required."] } });
    // TaskListAPI.get_serializer_context: get_object_or_404(Project) before any field is read.
    const missing = await raw(server, "POST", "/api/tasks/", { body: { project: 99, data: "not even a dict" } });
    expect([missing.status, missing.body.detail]).toEqual([404, "No Project matches the given query."]);
    expect(taskIds(server, 1)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("the Data Manager list: envelope, totals, 100 per page, 404 past the end, fields=all", async () => {
    const page = await raw(server, "GET", "/api/tasks/?project=1");
    expect(Object.keys(page.body)).toEqual(["total_annotations", "total_predictions", "total", "tasks"]);
    expect(page.body).toMatchObject({ total: 6, total_annotations: 4, total_predictions: 5 });
    expect(page.body.tasks.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(page.body.tasks[0].annotations).toBeUndefined();
    const all = await raw(server, "GET", "/api/tasks/?project=1&fields=all&page_size=4&page=2");
    expect(all.body.tasks.map((t: { id: number }) => t.id)).toEqual([5, 6]);
    expect(all.body.tasks[0].predictions.map((p: { id: number }) => p.id)).toEqual([5]);
    // The list's annotations keep the author as an id; GET /api/tasks/{id}/ expands it.
    expect(all.body.tasks[1].annotations[0].completed_by).toBe(3);
    expect((await raw(server, "GET", "/api/tasks/6/")).body.annotations[0].completed_by).toMatchObject({
      id: 3,
      email: "cy@example.com",
      initials: "cy",
    });
    const past = await raw(server, "GET", "/api/tasks/?project=1&page_size=4&page=3");
    expect([past.status, past.body.detail]).toEqual([404, "Invalid page."]);
    const neither = await raw(server, "GET", "/api/tasks/");
    expect([neither.status, neither.body]).toEqual([404, { detail: "Neither project nor view id specified" }]);
    const bad = await raw(server, "GET", "/api/tasks/?project=abc");
    expect(bad.body.validation_errors).toEqual({ project: 'Incorrect value in key "project" = "abc". It should be digit string.' });
  });

  test("the list through the client: a query, a view, pages until the 404", async () => {
    const client = clientFor(server);
    const ones = await client.tasks
      .list({
        project: 1,
        query: {
          filters: { conjunction: "and", items: [{ filter: "filter:tasks:data.n", operator: "equal", type: "Number", value: 1 }] },
          ordering: ["-tasks:id"],
        },
      })
      .toArray();
    expect(ones.map((t) => t.id)).toEqual([6, 3, 1]);
    const viewed = await client.tasks.list({ project: 1, view: 1, page_size: 2 }).toArray();
    expect(viewed.map((t) => t.id)).toEqual([6, 4, 2, 1]);
    expect(server.requests.at(-1)).toMatchObject({ path: "/api/tasks/", status: 404, query: { page: "3", view: "1" } });
    const byView = await raw(server, "GET", "/api/tasks/?view=1");
    expect(byView.body.total).toBe(4);
  });
});

describe("annotations and predictions", () => {
  test("annotations: list (non-cancelled, by id), create 201 as the caller, get, patch, delete", async () => {
    const client = clientFor(server);
    expect((await client.annotations.list(2)).map((a) => a.id)).toEqual([2]);
    const created = await client.annotations.create(3, { result: choice, lead_time: 2.5 });
    expect(created).toMatchObject({ id: 7, task: 3, project: 1, completed_by: 1, was_cancelled: false, lead_time: 2.5, result: choice });
    expect((await client.annotations.get(7)).id).toBe(7);
    expect((await client.annotations.update(7, { ground_truth: true })).ground_truth).toBe(true);
    await client.annotations.delete(7);
    expect((await raw(server, "GET", "/api/annotations/7/")).status).toBe(404);
    const skipped = await raw(server, "POST", "/api/tasks/3/annotations/?was_cancelled=1", { body: { result: [] } });
    expect(skipped.body.was_cancelled).toBe(true);
    expect((await raw(server, "GET", "/api/tasks/3/")).body.cancelled_annotations).toBe(1);
    expect((await client.annotations.create(5, { result: choice, completed_by: 2 })).completed_by).toBe(2);
    await client.projects.update(1, { show_skip_button: false });
    const refused = await raw(server, "POST", "/api/tasks/5/annotations/", { body: { result: [], was_cancelled: true } });
    expect([refused.status, refused.body.validation_errors]).toEqual([400, { detail: ["This task cannot be skipped."] }]);
  });

  test("predictions: bare array filtered by task/project, create with the task's project, update, delete", async () => {
    const client = clientFor(server);
    expect((await raw(server, "GET", "/api/predictions/?task=1")).body.map((p: { id: number }) => p.id)).toEqual([1, 2]);
    expect((await raw(server, "GET", "/api/predictions/?project=2")).body).toEqual([]);
    const bad = await raw(server, "GET", "/api/predictions/?task=99");
    expect(bad.status).toBe(400);
    const created = await client.predictions.create({ task: 7, result: choice, score: 0.7, model_version: "m1" });
    expect(created).toMatchObject({ id: 6, task: 7, project: 2, score: 0.7, model_version: "m1" });
    expect((await client.predictions.update(6, { score: 0.1 })).score).toBe(0.1);
    await client.predictions.delete(6);
    expect(server.data().predictions.map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("views", () => {
  test("list (bare array), create (order max+1, user = caller), read back with filters inside data", async () => {
    const client = clientFor(server);
    expect((await client.views.list(1)).map((v) => v.id)).toEqual([1]);
    const created = await client.views.create({
      project: 1,
      data: { title: "Mine" },
      query: {
        filters: { conjunction: "or", items: [{ filter: "filter:tasks:id", operator: "greater", type: "Number", value: 4 }] },
        ordering: ["tasks:id"],
      },
    });
    expect(created).toMatchObject({ id: 3, project: 1, order: 1, user: 1 });
    expect(created.data).toEqual({
      title: "Mine",
      filters: {
        conjunction: "or",
        items: [{ filter: "filter:tasks:id", operator: "greater", type: "Number", value: 4, child_filters: [] }],
      },
      ordering: ["tasks:id"],
    });
    const listed = await raw(server, "GET", "/api/tasks/?view=3");
    expect(listed.body.tasks.map((t: { id: number }) => t.id)).toEqual([5, 6]);
  });

  test("a view created from a selection with ids applies them (sent as top-level selected_items)", async () => {
    const client = clientFor(server);
    const created = await client.views.create({
      project: 1,
      data: { title: "Picked" },
      query: selection(1).where("tasks:id").greater(1).including([2, 5, 7]),
    });
    expect(created.data?.selectedItems).toEqual({ all: false, included: [2, 5, 7] });
    const listed = await raw(server, "GET", `/api/tasks/?view=${created.id}`);
    // 7 belongs to project 2 and 1 fails the filter: only 2 and 5 remain
    expect(listed.body.tasks.map((t: { id: number }) => t.id)).toEqual([2, 5]);
  });

  test("legacy child_filter is stored as child_filters", async () => {
    const r = await raw(server, "POST", "/api/dm/views/", {
      body: {
        project: 1,
        data: {
          filters: {
            conjunction: "and",
            items: [
              {
                filter: "filter:tasks:id",
                operator: "greater",
                type: "Number",
                value: 0,
                child_filter: { filter: "filter:tasks:id", operator: "less", type: "Number", value: 3 },
              },
            ],
          },
        },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.data.filters.items[0].child_filters).toEqual([{ filter: "filter:tasks:id", operator: "less", type: "Number", value: 3 }]);
    expect((await raw(server, "GET", `/api/tasks/?view=${r.body.id}`)).body.tasks.map((t: { id: number }) => t.id)).toEqual([1, 2]);
  });

  test("writes are validated as the server does: prefix, __ traversal, in_list column and value", async () => {
    const bad = (filter: string, operator: string, value: unknown) =>
      raw(server, "POST", "/api/dm/views/", {
        body: { project: 1, data: { filters: { conjunction: "and", items: [{ filter, operator, type: "Number", value }] } } },
      });
    for (const r of [
      await bad("tasks:id", "equal", 1),
      await bad("filter:tasks:annotations__completed_by__email", "equal", 1),
      await bad("filter:tasks:created_at", "in_list", [1]),
      await bad("filter:tasks:id", "in_list", 1),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe("Validation error");
      expect(JSON.stringify(r.body.validation_errors)).toContain("filter_group");
    }
    expect(server.data().views).toHaveLength(2);
  });

  test("patch replaces data but keeps filters and ordering the write does not carry; delete; reset", async () => {
    const client = clientFor(server);
    const patched = await client.views.update(1, { data: { title: "Renamed" } });
    expect(patched.data?.title).toBe("Renamed");
    expect(patched.data?.filters?.items[0]?.filter).toBe("filter:tasks:total_annotations");
    expect(patched.data?.ordering).toEqual(["-tasks:id"]);
    const second = await client.views.create({ project: 1, data: { title: "Second" } });
    // ViewAPI.update_order answers Response(status=200), no body (measured by dmq verify on 1.22).
    const ordered = await raw(server, "POST", "/api/dm/views/order/", { body: { project: 1, ids: [second.id, 1] } });
    expect([ordered.status, ordered.body]).toEqual([200, undefined]);
    expect((await client.views.list(1)).map((v) => [v.id, v.order])).toEqual([
      [second.id, 0],
      [1, 1],
    ]);
    await client.views.delete(1);
    expect((await raw(server, "GET", "/api/dm/views/1/")).status).toBe(404);
    expect((await raw(server, "DELETE", "/api/dm/views/reset/?project=2")).status).toBe(204);
    expect(server.data().views.map((v) => v.id)).toEqual([second.id]);
    expect((await raw(server, "DELETE", "/api/dm/views/reset/", { body: { project: 1 } })).status).toBe(204);
    expect(server.data().views).toEqual([]);
  });
});

describe("errors reach the client as ApiError with the server's body", () => {
  test("404 for a missing task", async () => {
    const error = await clientFor(server)
      .tasks.get(999)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(404);
    expect((error as ApiError).body).toMatchObject({ detail: "No Task matches the given query.", status_code: 404 });
  });
});
