import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { demoData, startMockServer, type MockServer } from "../../../mock-server/index.js";
import { customAction } from "../../../src/query/builder.js";
import { selection } from "../../../src/selection.js";
import { ApiError, createClient } from "../../../src/client/index.js";

/*
 * The client against the project's mock server over real HTTP, on the demo data. Expectations come
 * from the store before and after (`mock.data()`), never from the client's own answers.
 */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ data: demoData() });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const taskIds = (project: number) =>
  mock
    .data()
    .tasks.filter((t) => t.project === project)
    .map((t) => t.id)
    .sort((a, b) => a - b);

describe("client ↔ mock server", () => {
  test("the design-card chain deletes what the server deleted and reports it", async () => {
    const client = createClient({ baseUrl: mock.url, apiKey: mock.legacyToken });
    const before = taskIds(1);
    const result = await selection(client.project(1))
      .where("tasks:completed_at")
      .greater(new Date("2024-03-02T00:00:00Z"))
      .orderBy("-tasks:created_at")
      .excluding([1, 2])
      .run("delete_tasks");
    const after = new Set(taskIds(1));
    const deleted = before.filter((id) => !after.has(id));
    expect(deleted.length).toBeGreaterThan(0);
    expect(result).toEqual({ processed_items: deleted.length, reload: after.size === 0, detail: `Deleted ${deleted.length} tasks` });
    expect(deleted).not.toContain(1);
    expect(deleted).not.toContain(2);
  });

  test("iterating every task page by page ends at the server's end, with every task once", async () => {
    const client = createClient({ baseUrl: mock.url, apiKey: mock.legacyToken });
    const ids = (await client.project(1).tasks({ page_size: 30 }).toArray()).map((t) => t.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(taskIds(1));
    expect(new Set(ids).size).toBe(ids.length);
    const pages = mock.requests.filter((r) => r.path === "/api/tasks/");
    // Label Studio answers 404 "Invalid page." past the last page; that ends the walk.
    expect(pages.map((r) => r.status)).toEqual([...Array(Math.ceil(ids.length / 30)).fill(200), 404]);
  });

  test("a personal access token works end to end (exchange, then Bearer)", async () => {
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken });
    const projects = await client.projects.list().toArray();
    expect(projects.map((p) => p.id).sort((a, b) => a - b)).toEqual(
      mock
        .data()
        .projects.map((p) => p.id)
        .sort((a, b) => a - b),
    );
    expect(mock.requests[0]?.path).toBe("/api/token/refresh/");
    expect(mock.requests.slice(1).every((r) => r.headers["authorization"] === "Bearer [redacted]")).toBe(true);
  });

  test("an action id the server does not know: its 500 as an ApiError, sent once with maxRetries 0", async () => {
    const client = createClient({ baseUrl: mock.url, apiKey: mock.legacyToken, maxRetries: 0 });
    const error = await selection(client.project(1))
      .all()
      .run(customAction("my_plugin_action"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("POST /api/dm/actions/ → 500: Can't find 'my_plugin_action' in registered actions");
    expect(mock.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});
