import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { faults, passthrough, reply, type MockServer } from "../../../mock-server/index.js";
import { customAction } from "../../../src/query/builder.js";
import { selection } from "../../../src/selection.js";
import { ApiError, ClientConfigError, createClient, type Client } from "../../../src/client/index.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import { LEGACY_KEY } from "./fixtures.js";
import { SEED, startMock } from "./on-mock.js";

/*
 * selection(client.project(id)).….run(action) end to end over HTTP, against the mock: five tasks,
 * each completed (annotated) in July 2024.
 */
const data = {
  ...SEED,
  tasks: [1, 2, 3, 4, 5].map((id) => ({ id, project: 1, data: { text: `t${id}` }, created_at: `2024-0${id}-01T00:00:00Z` })),
  annotations: [1, 2, 3, 4, 5].map((id) => ({ id, task: id, completed_by: 1, result: [], created_at: "2024-07-01T00:00:00Z" })),
};
let mock: MockServer;
let client: Client;

beforeAll(async () => {
  mock = await startMock({ data });
  client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, maxRetries: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const ids = () => mock.data().tasks.map((t) => t.id);

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
    expect(ids()).toEqual([1, 2]);
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/dm/actions/");
    expect(request?.query).toEqual({ id: "delete_tasks", project: "1" });
    expect(request?.body).toEqual({
      filters: {
        conjunction: "and",
        items: [{ filter: "filter:tasks:completed_at", operator: "greater", type: "Datetime", value: "2024-06-01T00:00:00.000Z" }],
      },
      ordering: ["-tasks:created_at"],
      selectedItems: { all: true, excluded: [1, 2] },
    });
    expect(request?.headers["authorization"]).toBe("Token [redacted]");
  });

  test("the key goes in the Authorization header", async () => {
    const sent: unknown[] = [];
    mock.use("POST /api/dm/actions/", (request) => (sent.push(request.headers.authorization), passthrough()));
    await selection(client.project(1)).including([5]).run("delete_tasks");
    expect(sent).toEqual([`Token ${LEGACY_KEY}`]);
  });

  test("the body equals the selection's own request (the client adds nothing)", async () => {
    const s = selection(client.project(1)).including([4]);
    await s.run("delete_tasks");
    expect(mock.requests[0]?.body).toEqual(s.toRequest("delete_tasks").body);
  });

  test("extra fields of known actions and the customAction escape hatch reach the server", async () => {
    // A plugin's action, which the mock (a community server) does not have.
    mock.use("POST /api/dm/actions/", (request) =>
      request.query["id"] === "my_plugin_action" ? reply(200, { plugin: true, echo: request.body as JsonValue }) : passthrough(),
    );
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
    mock.use("POST /api/dm/actions/", faults.delay(Infinity));
    await expect(selection(client.project(1)).all().run("delete_tasks", {}, { timeoutInSeconds: 0.2 })).rejects.toMatchObject({
      name: "RequestTimeoutError",
      timeoutInSeconds: 0.2,
    });
    expect(ids()).toEqual([1, 2, 3, 4, 5]);
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
    expect(mock.requests.map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query as Record<string, string>)}`)).toEqual([
      "GET /api/projects/1/?",
      "GET /api/tasks/?page_size=5&project=1&page=1",
      // Five tasks fill the first page: the second answers the server's 404 "Invalid page.", which ends the list.
      "GET /api/tasks/?page_size=5&project=1&page=2",
      "GET /api/dm/views/?project=1",
      "GET /api/dm/actions/?project=1",
      "POST /api/projects/1/import?",
    ]);
  });
});
