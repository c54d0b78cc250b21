import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { customAction } from "../../../src/query/builder.js";
import { selection } from "../../../src/selection.js";
import { ClientConfigError, createClient, type Client } from "../../../src/client/index.js";
import { json, startTestServer, type Received, type TestServer } from "../../helpers/http-server.js";
import { LEGACY_KEY } from "./fixtures.js";

/*
 * Every resource method against a recording server: the method, path (with or without trailing
 * slash, as the real server routes it), query string and JSON body it sends, and what it returns.
 */
const user = { id: 1, username: "ann", email: "a@x", first_name: "A", last_name: "L" };
const project = { id: 3, title: "P", label_config: "<View/>" };
const task = { id: 7, project: 3, data: { text: "t" }, created_at: "2024-01-01T00:00:00Z", updated_at: "2024-01-01T00:00:00Z" };
const annotation = { id: 11, task: 7, result: [], was_cancelled: false, ground_truth: false, lead_time: 1, created_at: "", updated_at: "" };
const prediction = { id: 13, task: 7, result: [], score: 0.5, model_version: "v1", created_at: "" };
const view = { id: 5, project: 3, data: { title: "V" } };
const action = { id: "delete_tasks", title: "Delete Tasks", order: 100, permission: "tasks.delete" };
const form = [{ columnCount: 1, fields: [{ type: "select", name: "annotator", label: "Annotator" }] }];

/** What the server answers for a path pattern (ids replaced by :id). */
function answer(request: Received): [number, unknown] {
  const route = `${request.method} ${request.path.replace(/\/\d+(?=\/|$)/g, "/:id")}`;
  const table: Record<string, [number, unknown]> = {
    "GET /api/current-user/whoami": [200, user],
    "POST /api/projects/": [201, project],
    "GET /api/projects/:id/": [200, project],
    "PATCH /api/projects/:id/": [200, project],
    "DELETE /api/projects/:id/": [204, undefined],
    "POST /api/projects/:id/import": [201, { task_count: 2, annotation_count: 0, duration: 0.1 }],
    "POST /api/tasks/": [201, task],
    "GET /api/tasks/:id/": [200, task],
    "PATCH /api/tasks/:id/": [200, task],
    "DELETE /api/tasks/:id/": [204, undefined],
    "GET /api/tasks/:id/annotations/": [200, [annotation]],
    "POST /api/tasks/:id/annotations/": [201, annotation],
    "GET /api/annotations/:id/": [200, annotation],
    "PATCH /api/annotations/:id/": [200, annotation],
    "DELETE /api/annotations/:id/": [204, undefined],
    "GET /api/predictions/": [200, [prediction]],
    "POST /api/predictions/": [201, prediction],
    "GET /api/predictions/:id/": [200, prediction],
    "PATCH /api/predictions/:id/": [200, prediction],
    "DELETE /api/predictions/:id/": [204, undefined],
    "GET /api/dm/views/": [200, [view]],
    "POST /api/dm/views/": [201, view],
    "GET /api/dm/views/:id/": [200, view],
    "PATCH /api/dm/views/:id/": [200, view],
    "DELETE /api/dm/views/:id/": [204, undefined],
    "GET /api/dm/actions/": [200, [action]],
    "GET /api/actions": [200, [action]],
    "GET /api/dm/actions/delete_tasks_annotations/form/": [200, form],
    "GET /api/actions/delete_tasks_annotations/form": [200, form],
    "GET /api/dm/actions/my_plugin_action/form/": [200, []],
    "POST /api/dm/actions/": [200, { processed_items: 2, detail: "Deleted 2 tasks", reload: false }],
    "POST /api/actions": [200, { processed_items: 2, detail: "Deleted 2 tasks", reload: false }],
    "GET /api/token/": [200, [{ token: "eyJhbGciOiJIUzI1NiJ9.eyJ0b2tlbl90eXBlIjoicmVmcmVzaCJ9" }]],
    "POST /api/token/": [201, { token: "new-personal-access-token" }],
    "POST /api/token/refresh/": [200, { access: "new-access-token" }],
    "POST /api/token/blacklist/": [204, undefined],
    "POST /api/token/rotate/": [200, { refresh: "rotated-personal-access-token" }],
  };
  return table[route] ?? [404, { detail: `no route ${route}` }];
}

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer((request, res) => {
    const [status, body] = answer(request);
    if (body === undefined) {
      res.writeHead(status);
      return void res.end();
    }
    json(res, status, body);
  });
  client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** The one request the call made: method, path, query, body. */
function sent(): { method: string; path: string; query: Record<string, string>; body: unknown } {
  expect(server.requests).toHaveLength(1);
  const r = server.requests[0]!;
  return { method: r.method, path: r.path, query: Object.fromEntries(r.query), body: r.body };
}

describe("users, projects", () => {
  test("users.whoami", async () => {
    expect(await client.users.whoami()).toEqual(user);
    expect(sent()).toEqual({ method: "GET", path: "/api/current-user/whoami", query: {}, body: undefined });
  });

  test("projects.create / get / update / delete", async () => {
    expect(await client.projects.create({ title: "P", label_config: "<View/>" })).toEqual(project);
    expect(sent()).toEqual({ method: "POST", path: "/api/projects/", query: {}, body: { title: "P", label_config: "<View/>" } });
    server.requests.length = 0;
    expect(await client.projects.get(3)).toEqual(project);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/projects/3/" });
    server.requests.length = 0;
    await client.projects.update(3, { title: "Q" });
    expect(sent()).toEqual({ method: "PATCH", path: "/api/projects/3/", query: {}, body: { title: "Q" } });
    server.requests.length = 0;
    await expect(client.projects.delete(3)).resolves.toBeUndefined();
    expect(sent()).toMatchObject({ method: "DELETE", path: "/api/projects/3/", body: undefined });
  });

  test("projects.importTasks posts a JSON array to /import (no trailing slash)", async () => {
    const tasks = [{ data: { text: "a" } }, { data: { text: "b" }, predictions: [{ result: [], score: 0.1 }] }];
    expect(await client.projects.importTasks(3, tasks, { return_task_ids: true, preannotated_from_fields: ["x", "y"] })).toMatchObject({
      task_count: 2,
    });
    const r = server.requests[0]!;
    expect([r.method, r.path, r.body]).toEqual(["POST", "/api/projects/3/import", tasks]);
    expect(r.query.get("return_task_ids")).toBe("true");
    expect(r.query.getAll("preannotated_from_fields")).toEqual(["x", "y"]);
    expect(String(r.headers["content-type"])).toMatch(/^application\/json/);
  });
});

describe("tasks, annotations, predictions", () => {
  test("tasks.create / get / update / delete", async () => {
    expect(await client.tasks.create({ project: 3, data: { text: "t" } })).toEqual(task);
    expect(sent()).toEqual({ method: "POST", path: "/api/tasks/", query: {}, body: { project: 3, data: { text: "t" } } });
    server.requests.length = 0;
    await client.tasks.get(7);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/tasks/7/" });
    server.requests.length = 0;
    await client.tasks.update(7, { meta: { a: 1 } });
    expect(sent()).toEqual({ method: "PATCH", path: "/api/tasks/7/", query: {}, body: { meta: { a: 1 } } });
    server.requests.length = 0;
    await client.tasks.delete(7);
    expect(sent()).toMatchObject({ method: "DELETE", path: "/api/tasks/7/" });
  });

  test("annotations live under their task for list/create, at /api/annotations/{id}/ otherwise", async () => {
    expect(await client.annotations.list(7)).toEqual([annotation]);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/tasks/7/annotations/" });
    server.requests.length = 0;
    await client.annotations.create(7, { result: [{ type: "choices" }], lead_time: 2 });
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/tasks/7/annotations/",
      query: {},
      body: { result: [{ type: "choices" }], lead_time: 2 },
    });
    server.requests.length = 0;
    await client.annotations.get(11);
    await client.annotations.update(11, { ground_truth: true });
    await client.annotations.delete(11);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/annotations/11/",
      "PATCH /api/annotations/11/",
      "DELETE /api/annotations/11/",
    ]);
    expect(server.requests[1]?.body).toEqual({ ground_truth: true });
  });

  test("predictions", async () => {
    expect(await client.predictions.list({ task: 7 })).toEqual([prediction]);
    expect(sent()).toEqual({ method: "GET", path: "/api/predictions/", query: { task: "7" }, body: undefined });
    server.requests.length = 0;
    await client.predictions.create({ task: 7, result: [], score: 0.5, model_version: "v1" });
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/predictions/",
      query: {},
      body: { task: 7, result: [], score: 0.5, model_version: "v1" },
    });
    server.requests.length = 0;
    await client.predictions.get(13);
    await client.predictions.update(13, { score: 1 });
    await client.predictions.delete(13);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/predictions/13/",
      "PATCH /api/predictions/13/",
      "DELETE /api/predictions/13/",
    ]);
  });
});

describe("get / update / delete of one record", () => {
  test("every resource checks the id, then the update body, before sending anything", async () => {
    for (const resource of [client.projects, client.tasks, client.annotations, client.predictions, client.views]) {
      await expect(resource.get(0)).rejects.toThrow("id: expected a positive integer id, found number 0");
      await expect(resource.update(1.5, "x" as never)).rejects.toThrow("id: expected a positive integer id, found number 1.5");
      await expect(resource.update(2, "x" as never)).rejects.toThrow('body: expected an object, found string "x"');
      await expect(resource.delete(-1)).rejects.toThrow("id: expected a positive integer id, found number -1");
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("views", () => {
  test("views.create merges a selection's filters and ordering into data", async () => {
    const query = selection(3).where("tasks:id").greater(0).orderBy("tasks:id");
    expect(await client.views.create({ project: 3, data: { title: "V" }, query })).toEqual(view);
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/dm/views/",
      query: {},
      body: { project: 3, data: { title: "V", ...query.toJSON() } },
    });
  });

  test("views.create with a plain body; a field given twice or another project's selection is refused", async () => {
    await client.views.create({ project: 3, query: { ordering: ["-tasks:id"] } });
    expect(sent().body).toEqual({ project: 3, data: { ordering: ["-tasks:id"] } });
    await expect(client.views.create({ project: 3, data: { ordering: ["tasks:id"] }, query: { ordering: ["-tasks:id"] } })).rejects.toThrow(
      "body.data.ordering: expected to be given once, found it in both body.data and body.query",
    );
    await expect(client.views.create({ project: 3, query: selection(4).all() })).rejects.toBeInstanceOf(ClientConfigError);
  });

  test("views.list / get / update / delete", async () => {
    expect(await client.views.list(3)).toEqual([view]);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/dm/views/", query: { project: "3" } });
    server.requests.length = 0;
    await client.views.get(5);
    await client.views.update(5, { data: { title: "W" }, query: selection(3).all() });
    await client.views.delete(5);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/dm/views/5/",
      "PATCH /api/dm/views/5/",
      "DELETE /api/dm/views/5/",
    ]);
    // the server applies a view's selection from top-level selected_items only (data.selectedItems stays inert data)
    expect(server.requests[1]?.body).toEqual({ data: { title: "W" }, selected_items: { all: true, excluded: [] } });
  });
});

describe("actions and tokens", () => {
  test("actions.list and actions.form use the real Data Manager paths by default", async () => {
    expect(await client.actions.list(3)).toEqual([action]);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/dm/actions/", query: { project: "3" } });
    server.requests.length = 0;
    expect(await client.actions.form(3, "delete_tasks_annotations")).toEqual(form);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/dm/actions/delete_tasks_annotations/form/", query: { project: "3" } });
    server.requests.length = 0;
    await client.actions.form(3, customAction("my_plugin_action"));
    expect(sent().path).toBe("/api/dm/actions/my_plugin_action/form/");
    await expect(client.actions.form(3, "nope" as "delete_tasks")).rejects.toThrow(
      'action: expected a known action id or customAction("<id>"), found string "nope"',
    );
  });

  test("routes.actions switches to the published path", async () => {
    const published = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, routes: { actions: "/api/actions" } });
    await published.actions.list(3);
    await published.actions.form(3, "delete_tasks_annotations");
    await published.actions.perform(selection(3).including([1, 2]).toRequest("delete_tasks"));
    expect(server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      "GET /api/actions?project=3",
      "GET /api/actions/delete_tasks_annotations/form?project=3",
      "POST /api/actions?id=delete_tasks&project=3",
    ]);
  });

  test("actions.perform sends id, project, view in the query and the body as JSON", async () => {
    const request = selection(3)
      .fromView(9)
      .toRequest("predictions_to_annotations", { model_version: ["v1", "v2"] });
    await client.actions.perform(request);
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "predictions_to_annotations", project: "3", view: "9" },
      body: { model_version: ["v1", "v2"] },
    });
  });

  test("actions.perform checks the request", async () => {
    await expect(client.actions.perform({ method: "GET" } as never)).rejects.toThrow('request.method: expected "POST", found string "GET"');
    const request = selection(3).all().toRequest("delete_tasks");
    await expect(client.actions.perform({ ...request, query: { id: "delete_tasks", project: 0 } })).rejects.toThrow(
      "request.query.project: expected a positive integer id, found number 0",
    );
    expect(server.requests).toHaveLength(0);
  });

  test("tokens: list, create, refresh (no credential), blacklist, rotate", async () => {
    expect(await client.tokens.list()).toHaveLength(1);
    expect(await client.tokens.create()).toEqual({ token: "new-personal-access-token" });
    expect(await client.tokens.refresh("some-personal-access-token")).toEqual({ access: "new-access-token" });
    await expect(client.tokens.blacklist("some-personal-access-token")).resolves.toBeUndefined();
    expect(await client.tokens.rotate("some-personal-access-token")).toEqual({ refresh: "rotated-personal-access-token" });
    expect(server.requests.map((r) => [r.method, r.path, r.body, r.headers.authorization])).toEqual([
      ["GET", "/api/token/", undefined, `Token ${LEGACY_KEY}`],
      ["POST", "/api/token/", undefined, `Token ${LEGACY_KEY}`],
      ["POST", "/api/token/refresh/", { refresh: "some-personal-access-token" }, undefined],
      ["POST", "/api/token/blacklist/", { refresh: "some-personal-access-token" }, `Token ${LEGACY_KEY}`],
      ["POST", "/api/token/rotate/", { refresh: "some-personal-access-token" }, `Token ${LEGACY_KEY}`],
    ]);
  });

  test("a token handed out by tokens.* is scrubbed from the same client's later errors", async () => {
    const echo = await startTestServer((request, res) =>
      request.path === "/api/token/"
        ? json(res, 201, { token: "new-personal-access-token" })
        : json(res, 400, { detail: "bad token new-personal-access-token" }),
    );
    try {
      const own = createClient({ baseUrl: echo.url, apiKey: LEGACY_KEY });
      const before = (await own.users.whoami().catch((e: unknown) => e)) as Error;
      expect(before.message).toBe("GET /api/current-user/whoami → 400: bad token new-personal-access-token");
      expect(await own.tokens.create()).toEqual({ token: "new-personal-access-token" });
      const after = (await own.users.whoami().catch((e: unknown) => e)) as Error;
      expect(after.message).toBe("GET /api/current-user/whoami → 400: bad token [redacted]");
    } finally {
      await echo.close();
    }
  });
});
