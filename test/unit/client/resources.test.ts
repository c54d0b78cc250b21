import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { passthrough, reply, type MockServer } from "../../../mock-server/index.js";
import { customAction } from "../../../src/query/builder.js";
import { selection } from "../../../src/selection.js";
import { ClientConfigError, createClient, type Client } from "../../../src/client/index.js";
import { LEGACY_KEY } from "./fixtures.js";
import { SEED, startMock } from "./on-mock.js";

/*
 * Every resource method against the mock: the method, path (with or without trailing slash, as the
 * real server routes it), query string and JSON body it sends (the mock's journal), and what it
 * returns (the mock's answer). Each test starts from the same data.
 */
const data = {
  users: SEED.users,
  projects: [{ id: 3, title: "Reviews", label_config: "<View/>" }],
  tasks: [{ id: 7, project: 3, data: { text: "t" } }],
  annotations: [{ id: 11, task: 7, result: [], completed_by: 1, lead_time: 1 }],
  predictions: [{ id: 13, task: 7, result: [], score: 0.5, model_version: "v1" }],
  views: [{ id: 5, project: 3, data: { title: "V" } }],
};

let mock: MockServer;
let client: Client;
beforeAll(async () => {
  mock = await startMock({ data });
  client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, maxRetries: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** A journal entry as the client sent it: method, path, query, body. */
const shown = (r: MockServer["requests"][number]) => ({ method: r.method, path: r.path, query: r.query, body: r.body });
/** The last request sent. */
const sent = () => shown(mock.requests.at(-1)!);
/** Every request sent since the last reset, as `METHOD /path`. */
const lines = () => mock.requests.map((r) => `${r.method} ${r.path}`);

describe("users, projects", () => {
  test("users.whoami", async () => {
    expect(await client.users.whoami()).toMatchObject({ id: 1, username: "u", email: "u@example.com" });
    expect(sent()).toEqual({ method: "GET", path: "/api/current-user/whoami", query: {}, body: undefined });
  });

  test("projects.create / get / update / delete", async () => {
    const created = await client.projects.create({ title: "Papers", label_config: "<View/>" });
    expect(created).toMatchObject({ title: "Papers", label_config: "<View/>" });
    expect(sent()).toEqual({ method: "POST", path: "/api/projects/", query: {}, body: { title: "Papers", label_config: "<View/>" } });
    expect(await client.projects.get(3)).toMatchObject({ id: 3, title: "Reviews" });
    expect(sent()).toMatchObject({ method: "GET", path: "/api/projects/3/" });
    expect(await client.projects.update(3, { title: "Quarterly" })).toMatchObject({ id: 3, title: "Quarterly" });
    expect(sent()).toEqual({ method: "PATCH", path: "/api/projects/3/", query: {}, body: { title: "Quarterly" } });
    await expect(client.projects.delete(3)).resolves.toBeUndefined();
    expect(sent()).toMatchObject({ method: "DELETE", path: "/api/projects/3/", body: undefined });
    expect(mock.data().projects.map((p) => p.id)).toEqual([created.id]);
  });

  test("projects.importTasks posts a JSON array to /import (no trailing slash)", async () => {
    const tasks = [{ data: { text: "a" } }, { data: { text: "b" }, predictions: [{ result: [], score: 0.1 }] }];
    expect(await client.projects.importTasks(3, tasks, { return_task_ids: true, preannotated_from_fields: ["x", "y"] })).toMatchObject({
      task_count: 2,
    });
    const r = mock.requests[0]!;
    expect([r.method, r.path, r.body]).toEqual(["POST", "/api/projects/3/import", tasks]);
    expect(r.query).toEqual({ return_task_ids: "true", preannotated_from_fields: ["x", "y"] });
    expect(String(r.headers["content-type"])).toMatch(/^application\/json/);
  });
});

describe("tasks, annotations, predictions", () => {
  test("tasks.create / get / update / delete", async () => {
    const task = await client.tasks.create({ project: 3, data: { text: "new" } });
    expect(task).toMatchObject({ project: 3, data: { text: "new" } });
    expect(sent()).toEqual({ method: "POST", path: "/api/tasks/", query: {}, body: { project: 3, data: { text: "new" } } });
    expect(await client.tasks.get(7)).toMatchObject({ id: 7, data: { text: "t" } });
    expect(sent()).toMatchObject({ method: "GET", path: "/api/tasks/7/" });
    expect(await client.tasks.update(7, { meta: { a: 1 } })).toMatchObject({ id: 7, meta: { a: 1 } });
    expect(sent()).toEqual({ method: "PATCH", path: "/api/tasks/7/", query: {}, body: { meta: { a: 1 } } });
    await client.tasks.delete(7);
    expect(sent()).toMatchObject({ method: "DELETE", path: "/api/tasks/7/" });
    expect(mock.data().tasks.map((t) => t.id)).toEqual([task.id]);
  });

  test("annotations live under their task for list/create, at /api/annotations/{id}/ otherwise", async () => {
    expect((await client.annotations.list(7)).map((a) => a.id)).toEqual([11]);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/tasks/7/annotations/" });
    const created = await client.annotations.create(7, { result: [{ type: "choices" }], lead_time: 2 });
    expect(created).toMatchObject({ task: 7, lead_time: 2 });
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/tasks/7/annotations/",
      query: {},
      body: { result: [{ type: "choices" }], lead_time: 2 },
    });
    await mock.reset();
    await client.annotations.get(11);
    expect(await client.annotations.update(11, { ground_truth: true })).toMatchObject({ id: 11, ground_truth: true });
    await client.annotations.delete(11);
    expect(lines()).toEqual(["GET /api/annotations/11/", "PATCH /api/annotations/11/", "DELETE /api/annotations/11/"]);
    expect(mock.requests[1]?.body).toEqual({ ground_truth: true });
  });

  test("predictions", async () => {
    expect((await client.predictions.list({ task: 7 })).map((p) => p.id)).toEqual([13]);
    expect(sent()).toEqual({ method: "GET", path: "/api/predictions/", query: { task: "7" }, body: undefined });
    await client.predictions.create({ task: 7, result: [], score: 0.25, model_version: "v2" });
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/predictions/",
      query: {},
      body: { task: 7, result: [], score: 0.25, model_version: "v2" },
    });
    await mock.reset();
    await client.predictions.get(13);
    expect(await client.predictions.update(13, { score: 1 })).toMatchObject({ id: 13, score: 1 });
    await client.predictions.delete(13);
    expect(lines()).toEqual(["GET /api/predictions/13/", "PATCH /api/predictions/13/", "DELETE /api/predictions/13/"]);
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
    expect(mock.requests).toHaveLength(0);
  });
});

describe("views", () => {
  test("views.create merges a selection's filters and ordering into data", async () => {
    const query = selection(3).where("tasks:id").greater(0).orderBy("tasks:id");
    expect(await client.views.create({ project: 3, data: { title: "W" }, query })).toMatchObject({
      project: 3,
      data: { title: "W", ordering: ["tasks:id"] },
    });
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/dm/views/",
      query: {},
      body: { project: 3, data: { title: "W", ...query.toJSON() } },
    });
  });

  test("views.create with a plain body; a field given twice or another project's selection is refused", async () => {
    await client.views.create({ project: 3, query: { ordering: ["-tasks:id"] } });
    expect(sent().body).toEqual({ project: 3, data: { ordering: ["-tasks:id"] } });
    await expect(client.views.create({ project: 3, data: { ordering: ["tasks:id"] }, query: { ordering: ["-tasks:id"] } })).rejects.toThrow(
      "body.data.ordering: expected to be given once, found it in both body.data and body.query",
    );
    await expect(client.views.create({ project: 3, query: selection(4).all() })).rejects.toBeInstanceOf(ClientConfigError);
    expect(mock.requests).toHaveLength(1);
  });

  test("views.list / get / update / delete", async () => {
    expect((await client.views.list(3)).map((v) => v.id)).toEqual([5]);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/dm/views/", query: { project: "3" } });
    await mock.reset();
    await client.views.get(5);
    await client.views.update(5, { data: { title: "W" }, query: selection(3).all() });
    await client.views.delete(5);
    expect(lines()).toEqual(["GET /api/dm/views/5/", "PATCH /api/dm/views/5/", "DELETE /api/dm/views/5/"]);
    // the server applies a view's selection from top-level selected_items only (data.selectedItems stays inert data)
    expect(mock.requests[1]?.body).toEqual({ data: { title: "W" }, selected_items: { all: true, excluded: [] } });
  });
});

describe("actions and tokens", () => {
  test("actions.list and actions.form use the real Data Manager paths by default", async () => {
    expect((await client.actions.list(3)).map((a) => a.id)).toContain("delete_tasks");
    expect(sent()).toMatchObject({ method: "GET", path: "/api/dm/actions/", query: { project: "3" } });
    expect(await client.actions.form(3, "delete_tasks_annotations")).toMatchObject([{ fields: [{ type: "select", name: "annotator" }] }]);
    expect(sent()).toMatchObject({ method: "GET", path: "/api/dm/actions/delete_tasks_annotations/form/", query: { project: "3" } });
    // A plugin's action: the mock (a community server) has no form for it.
    mock.use("GET /api/dm/actions/{action_id}/form/", (request) =>
      request.params.action_id === "my_plugin_action" ? reply(200, []) : passthrough(),
    );
    await client.actions.form(3, customAction("my_plugin_action"));
    expect(sent().path).toBe("/api/dm/actions/my_plugin_action/form/");
    await expect(client.actions.form(3, "nope" as "delete_tasks")).rejects.toThrow(
      'action: expected a known action id or customAction("<id>"), found string "nope"',
    );
  });

  test("routes.actions switches to the published path", async () => {
    const published = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, routes: { actions: "/api/actions" } });
    await published.actions.list(3);
    await published.actions.form(3, "delete_tasks_annotations");
    await published.actions.perform(selection(3).including([7]).toRequest("delete_tasks"));
    expect(mock.requests.map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query as Record<string, string>)}`)).toEqual([
      "GET /api/actions?project=3",
      "GET /api/actions/delete_tasks_annotations/form?project=3",
      "POST /api/actions?id=delete_tasks&project=3",
    ]);
    expect(mock.data().tasks).toEqual([]);
  });

  test("actions.perform sends id, project, view in the query and the body as JSON", async () => {
    const request = selection(3)
      .fromView(5)
      .toRequest("predictions_to_annotations", { model_version: ["v1", "v2"] });
    expect(await client.actions.perform(request)).toEqual({ detail: "Created 1 annotations" });
    expect(sent()).toEqual({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "predictions_to_annotations", project: "3", view: "5" },
      body: { model_version: ["v1", "v2"] },
    });
  });

  test("actions.perform checks the request", async () => {
    await expect(client.actions.perform({ method: "GET" } as never)).rejects.toThrow('request.method: expected "POST", found string "GET"');
    const request = selection(3).all().toRequest("delete_tasks");
    await expect(client.actions.perform({ ...request, query: { id: "delete_tasks", project: 0 } })).rejects.toThrow(
      "request.query.project: expected a positive integer id, found number 0",
    );
    expect(mock.requests).toHaveLength(0);
  });

  test("a plain body's top-level key the server would not read is refused before anything is sent: views, actions, the task list", async () => {
    const filters = { conjunction: "and" as const, items: [] };
    const misspelt = 'found an unknown key "filter" (did you mean filters?), so the server applies no filter';
    const request = { ...selection(3).including([7]).toRequest("delete_tasks") };
    await expect(client.actions.perform({ ...request, body: { ...request.body, filter: filters } } as never)).rejects.toThrow(
      `request.body.filter: expected a key the server reads here (filters, ordering, selectedItems, columnsDisplayType, view), ${misspelt}`,
    );
    await expect(client.actions.perform({ ...request, body: { query: { filters } } } as never)).rejects.toThrow(
      'request.body.query: expected the selection\'s keys (filters, ordering, selectedItems) at the top level, not under "query"',
    );
    await expect(client.views.create({ project: 3, data: { title: "T", filter: filters } } as never)).rejects.toThrow(`body.data.filter: `);
    await expect(client.views.create({ project: 3, query: { Ordering: ["-tasks:id"] } } as never)).rejects.toThrow(
      'body.query.Ordering: expected a key the server reads in a view\'s data (filters, ordering, selectedItems, columnsDisplayType, hiddenColumns), found an unknown key "Ordering" (did you mean ordering?)',
    );
    await expect(client.views.update(5, { data: { selected_items: { all: false, included: [7] } } } as never)).rejects.toThrow(
      "body.data.selected_items: ",
    );
    expect(() => client.tasks.list({ project: 3, query: { filter: filters } as never })).toThrow(`params.query.filter: `);
    expect(mock.requests).toHaveLength(0);
    expect(mock.data().tasks.map((t) => t.id)).toEqual([7]);
    // What the server reads, the UI's own keys of a view, and project/id (the client puts them in the URL) go through.
    await client.views.create({ project: 3, data: { title: "T", columnsWidth: {}, filters } });
    await client.actions.perform({ ...request, body: { ...request.body, project: 3 } } as never);
    expect(mock.data().tasks).toEqual([]);
  });

  test("tokens: list, create, refresh (no credential), rotate, blacklist", async () => {
    expect(await client.tokens.list()).toEqual([]);
    const { token } = await client.tokens.create();
    expect(await client.tokens.list()).toHaveLength(1);
    expect((await client.tokens.refresh(token)).access).toMatch(/^ey/);
    const { refresh } = await client.tokens.rotate(token);
    expect(refresh).not.toBe(token);
    await expect(client.tokens.blacklist(refresh)).resolves.toBeUndefined();
    expect(await client.tokens.list()).toEqual([]);
    // The journal keeps the tokens out: `refresh` and the key are redacted.
    expect(mock.requests.map((r) => [r.method, r.path, r.body, r.headers["authorization"]])).toEqual([
      ["GET", "/api/token/", undefined, "Token [redacted]"],
      ["POST", "/api/token/", undefined, "Token [redacted]"],
      ["GET", "/api/token/", undefined, "Token [redacted]"],
      ["POST", "/api/token/refresh/", { refresh: "[redacted]" }, undefined],
      ["POST", "/api/token/rotate/", { refresh: "[redacted]" }, "Token [redacted]"],
      ["POST", "/api/token/blacklist/", { refresh: "[redacted]" }, "Token [redacted]"],
      ["GET", "/api/token/", undefined, "Token [redacted]"],
    ]);
  });

  test("a token handed out by tokens.* is scrubbed from the same client's later errors", async () => {
    mock.use("POST /api/token/", reply(201, { token: "new-personal-access-token" }));
    mock.use("GET /api/current-user/whoami", reply(400, { detail: "bad token new-personal-access-token" }));
    const own = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    const before = (await own.users.whoami().catch((e: unknown) => e)) as Error;
    expect(before.message).toBe("GET /api/current-user/whoami → 400: bad token new-personal-access-token");
    expect(await own.tokens.create()).toEqual({ token: "new-personal-access-token" });
    const after = (await own.users.whoami().catch((e: unknown) => e)) as Error;
    expect(after.message).toBe("GET /api/current-user/whoami → 400: bad token [redacted]");
  });
});

describe("uploaded files (projects.importFiles, files.*, projects.reimport, projects.importStatus)", () => {
  test("importFiles sends one multipart field per file; files.list/get/update/delete/deleteMany; reimport; importStatus's 404", async () => {
    const done = await client.projects.importFiles(
      3,
      [
        { name: "a.csv", content: "text\nx\ny\n" },
        { name: "b.json", content: new TextEncoder().encode('[{"text":"z"}]') },
      ],
      { return_task_ids: true },
    );
    expect(done).toMatchObject({ task_count: 3, found_formats: { ".csv": 1, ".json": 1 }, could_be_tasks_list: true });
    expect(done.task_ids).toHaveLength(3);
    const [a, b] = done.file_upload_ids as number[];
    expect(sent()).toMatchObject({ method: "POST", path: "/api/projects/3/import", query: { return_task_ids: "true" } });
    expect(Object.keys(sent().body as object)).toEqual(["file1", "file2"]);

    expect((await client.files.list(3)).map((f) => f.id)).toEqual([]);
    expect((await client.files.list(3, { ids: [b!] })).map((f) => f.id)).toEqual([b]);
    expect(sent().query).toEqual({ ids: `[${b}]` });
    expect((await client.files.list(3, { all: true })).map((f) => f.id)).toEqual([a, b]);
    const one = await client.files.get(a!);
    expect(one).toMatchObject({ id: a, size: 9 });
    expect(one.file).toMatch(/^upload\/3\/[0-9a-f]{8}-a\.csv$/);
    const downloaded = await client.files.download(one.file);
    expect(downloaded).toMatchObject({ filename: one.file.split("/").pop(), contentType: "text/csv" });
    expect(await downloaded.text()).toBe("text\nx\ny\n");
    expect(sent()).toMatchObject({ method: "GET", path: `/data/${one.file}` });
    const replaced = await client.files.update(a!, { name: "c.csv", content: "text\nw\n" });
    expect(replaced.file).toMatch(/^upload\/3\/[0-9a-f]{8}-c\.csv$/);
    expect(sent()).toMatchObject({ method: "PATCH", path: `/api/import/file-upload/${a}` });

    const again = await client.projects.reimport(3, { file_upload_ids: [a!] });
    expect(again).toMatchObject({ task_count: 1, file_upload_ids: [a], found_formats: { ".csv": 1 } });
    expect(sent()).toMatchObject({ method: "POST", path: "/api/projects/3/reimport", body: { file_upload_ids: [a] } });

    await expect(client.projects.importStatus(3, 1)).rejects.toMatchObject({ statusCode: 404 });
    expect(sent()).toMatchObject({ method: "GET", path: "/api/projects/3/imports/1/" });

    await client.files.delete(b!);
    expect(sent()).toMatchObject({ method: "DELETE", path: `/api/import/file-upload/${b}` });
    expect(await client.files.deleteMany(3, [a!])).toEqual({ deleted: 1 });
    expect(sent()).toMatchObject({ method: "DELETE", path: "/api/projects/3/file-uploads", body: { file_upload_ids: [a] } });
    expect(await client.files.deleteMany(3)).toEqual({ deleted: 0 });
  });

  test("refuses what it cannot send before any request", async () => {
    const before = mock.requests.length;
    await expect(client.projects.importFiles(3, [])).rejects.toThrow(ClientConfigError);
    await expect(client.projects.importFiles(3, [{ name: "", content: "x" }])).rejects.toThrow(/files\[0\]\.name/);
    await expect(client.projects.importFiles(3, [{ name: "a.csv", content: 5 as never }])).rejects.toThrow(/files\[0\]\.content/);
    await expect(client.files.list(3, { ids: [0] })).rejects.toThrow(/params\.ids\[0\]/);
    await expect(client.projects.reimport(3, { file_upload_ids: "1" as never })).rejects.toThrow(/file_upload_ids/);
    expect(mock.requests.length).toBe(before);
  });
});
