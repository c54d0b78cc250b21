import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { customAction } from "../../../src/query/builder.js";
import { selection } from "../../../src/selection.js";
import { ApiError, ClientConfigError, createClient, type Client } from "../../../src/client/index.js";
import { errorBody, json, startTestServer, type TestServer } from "../../helpers/http-server.js";
import { LEGACY_KEY } from "./fixtures.js";

/*
 * selection(client.project(id)).….run(action) end to end over HTTP, against a tiny server that
 * deletes from an in-memory task list the way delete_tasks does (only the selectedItems part).
 */
let ids: number[] = [];
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.path === "/api/dm/actions/" && request.method === "POST") {
      const id = request.query.get("id");
      if (id === "delete_tasks") {
        const sel = (request.body as { selectedItems?: { all: boolean; included?: number[]; excluded?: number[] } }).selectedItems;
        const doomed = ids.filter((t) => (sel?.all ? !sel.excluded?.includes(t) : sel?.included?.includes(t)));
        ids = ids.filter((t) => !doomed.includes(t));
        return json(res, 200, { processed_items: doomed.length, reload: ids.length === 0, detail: `Deleted ${doomed.length} tasks` });
      }
      if (id === "my_plugin_action") return json(res, 200, { plugin: true, echo: request.body });
      return json(res, 500, errorBody(500, `Can't find '${id}' in registered actions`));
    }
    if (request.path === "/api/tasks/") return json(res, 200, { tasks: [], total: 0, total_annotations: 0, total_predictions: 0 });
    if (request.path === "/api/dm/views/") return json(res, 200, []);
    if (request.path === "/api/dm/actions/") return json(res, 200, []);
    if (request.path === "/api/projects/1/") return json(res, 200, { id: 1, title: "P", label_config: "<View/>" });
    if (request.path === "/api/projects/1/import") return json(res, 201, { task_count: 1 });
    json(res, 404, errorBody(404, "Not found."));
  });
  client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  ids = [1, 2, 3, 4, 5];
  server.requests.length = 0;
});

describe("selection(client.project(id)).run()", () => {
  test("the design-card chain performs delete_tasks and returns its typed result", async () => {
    const date = new Date("2024-06-01T00:00:00Z");
    const result = await selection(client.project(1))
      .where("tasks:completed_at")
      .greater(date)
      .orderBy("-tasks:created_at")
      .excluding([1, 2])
      .run("delete_tasks");

    expect(result).toEqual({ processed_items: 3, reload: false, detail: "Deleted 3 tasks" });
    expect(ids).toEqual([1, 2]);
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/dm/actions/");
    expect(Object.fromEntries(request!.query)).toEqual({ id: "delete_tasks", project: "1" });
    expect(request?.body).toEqual({
      filters: {
        conjunction: "and",
        items: [{ filter: "filter:tasks:completed_at", operator: "greater", type: "Datetime", value: "2024-06-01T00:00:00.000Z" }],
      },
      ordering: ["-tasks:created_at"],
      selectedItems: { all: true, excluded: [1, 2] },
    });
    expect(request?.headers.authorization).toBe(`Token ${LEGACY_KEY}`);
  });

  test("the body equals the selection's own request (the client adds nothing)", async () => {
    const s = selection(client.project(1)).including([4]);
    await s.run("delete_tasks");
    expect(server.requests[0]?.body).toEqual(s.toRequest("delete_tasks").body);
  });

  test("extra fields of known actions and the customAction escape hatch reach the server", async () => {
    const result = await selection(client.project(1)).all().run(customAction("my_plugin_action"), { level: 2 });
    expect(result).toEqual({ plugin: true, echo: { level: 2, selectedItems: { all: true, excluded: [] } } });
  });

  test("an unknown id the server does not know: ApiError with the server's message", async () => {
    const error = await selection(client.project(1))
      .all()
      .run(customAction("x"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("POST /api/dm/actions/ → 500: Can't find 'x' in registered actions");
  });

  test("per-run timeoutInSeconds is passed through", async () => {
    const slow = await startTestServer(() => undefined);
    try {
      const c = createClient({ baseUrl: slow.url, apiKey: LEGACY_KEY });
      await expect(selection(c.project(1)).all().run("delete_tasks", {}, { timeoutInSeconds: 0.2 })).rejects.toMatchObject({
        name: "RequestTimeoutError",
        timeoutInSeconds: 0.2,
      });
    } finally {
      await slow.close();
    }
  });

  test("a handle refuses a request for another project", async () => {
    const request = selection(2).all().toRequest("delete_tasks");
    await expect(client.project(1).perform(request)).rejects.toBeInstanceOf(ClientConfigError);
  });
});

describe("project handle shortcuts", () => {
  test("fill in the project id", async () => {
    const handle = client.project(1);
    expect(handle.id).toBe(1);
    await handle.get();
    await handle.tasks({ page_size: 5 }).toArray();
    await handle.views();
    await handle.actions();
    await handle.importTasks([{ data: { text: "x" } }]);
    expect(server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      "GET /api/projects/1/?",
      "GET /api/tasks/?page_size=5&project=1&page=1",
      "GET /api/dm/views/?project=1",
      "GET /api/dm/actions/?project=1",
      "POST /api/projects/1/import?",
    ]);
  });
});
