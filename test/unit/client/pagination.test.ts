import { afterEach, describe, expect, test } from "vitest";
import { selection } from "../../../src/selection.js";
import { ApiError, PaginationError, createClient } from "../../../src/client/index.js";
import { errorBody, json, startTestServer, type TestServer } from "../../helpers/http-server.js";
import { LEGACY_KEY } from "./fixtures.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const projects = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, title: `P${i + 1}`, label_config: "<View/>" }));
const tasks = Array.from({ length: 5 }, (_, i) => ({ id: 100 + i, project: 1, data: { n: i }, created_at: "", updated_at: "" }));

/** Pages of `size`; past the end either 404 "Invalid page." (Label Studio) or an empty page. */
async function pagedServer(end: "404" | "empty", size = 3): Promise<TestServer> {
  server = await startTestServer((request, res) => {
    const page = Number(request.query.get("page"));
    const slice = <T>(all: T[]) => all.slice((page - 1) * size, page * size);
    const past = (all: unknown[]) => (page - 1) * size >= all.length && page > 1;
    if (request.path === "/api/projects/") {
      if (past(projects) && end === "404") return json(res, 404, errorBody(404, "Invalid page."));
      return json(res, 200, { count: projects.length, next: null, previous: null, results: slice(projects) });
    }
    if (request.path === "/api/tasks/") {
      if (past(tasks) && end === "404") return json(res, 404, errorBody(404, "Invalid page."));
      return json(res, 200, { tasks: slice(tasks), total: tasks.length, total_annotations: 0, total_predictions: 0 });
    }
    json(res, 404, errorBody(404, "Not found."));
  });
  return server;
}

const pagesAsked = (s: TestServer, path: string) => s.requests.filter((r) => r.path === path).map((r) => Number(r.query.get("page")));

describe("iterating a list", () => {
  test("projects: every item of every page, ending on the server's 404 'Invalid page.'", async () => {
    const s = await pagedServer("404");
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const seen: number[] = [];
    for await (const project of client.projects.list()) seen.push(project.id);
    expect(seen).toEqual(projects.map((p) => p.id));
    expect(pagesAsked(s, "/api/projects/")).toEqual([1, 2, 3, 4]);
  });

  test("projects: ending on an empty page", async () => {
    const s = await pagedServer("empty");
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    expect((await client.projects.list().toArray()).map((p) => p.id)).toEqual(projects.map((p) => p.id));
    expect(pagesAsked(s, "/api/projects/")).toEqual([1, 2, 3, 4]);
  });

  test("tasks: both ends, with the items under `tasks`", async () => {
    for (const end of ["404", "empty"] as const) {
      const s = await pagedServer(end, 2);
      const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
      expect((await client.tasks.list({ project: 1 }).toArray()).map((t) => t.id)).toEqual(tasks.map((t) => t.id));
      expect(pagesAsked(s, "/api/tasks/")).toEqual([1, 2, 3, 4]);
      await s.close();
      server = undefined;
    }
  });

  test("pages() yields the envelopes; page(n) fetches one page", async () => {
    const s = await pagedServer("404");
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const envelopes = [];
    for await (const page of client.projects.list({ page_size: 3 }).pages()) envelopes.push(page);
    expect(envelopes.map((p) => p.results.length)).toEqual([3, 3, 1]);
    expect(envelopes[0]?.count).toBe(7);

    const second = await client.projects.list().page(2);
    expect(second.results.map((p) => p.id)).toEqual([4, 5, 6]);
    const error = await client.projects
      .list()
      .page(9)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("GET /api/projects/ → 404: Invalid page.");
  });

  test("iteration may start at a later page", async () => {
    const s = await pagedServer("404");
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    expect((await client.projects.list({ page: 3 }).toArray()).map((p) => p.id)).toEqual([7]);
    expect((await client.projects.list({ page: 5 }).toArray()).map((p) => p.id)).toEqual([]);
  });

  test("a 404 on the first page that is not 'Invalid page.' is an error", async () => {
    server = await startTestServer((_request, res) => json(res, 404, { detail: "Neither project nor view id specified" }));
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    await expect(client.tasks.list({ project: 1 }).toArray()).rejects.toThrow(
      "GET /api/tasks/ → 404: Neither project nor view id specified",
    );
  });

  test("other errors end the iteration with the error", async () => {
    let n = 0;
    server = await startTestServer((_request, res) =>
      n++ === 0
        ? json(res, 200, { count: 9, next: "x", previous: null, results: projects.slice(0, 3) })
        : json(res, 403, errorBody(403, "no")),
    );
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    await expect(client.projects.list().toArray()).rejects.toMatchObject({ statusCode: 403 });
  });

  test("a server that ignores `page` is detected instead of looping forever", async () => {
    server = await startTestServer((_request, res) =>
      json(res, 200, { count: 3, next: null, previous: null, results: projects.slice(0, 3) }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    const error = await client.projects
      .list()
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      "GET /api/projects/ page 2 holds only items of earlier pages: the server seems to ignore the page parameter",
    );
    expect(server.requests).toHaveLength(2);
  });
});

describe("list parameters", () => {
  test("tasks.list sends a selection as the JSON `query` parameter, plus project, view and flags", async () => {
    const s = await pagedServer("empty", 10);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const query = selection(1).where("tasks:data.text").contains("a+b & c=d #1 ü").orderBy("-tasks:created_at").excluding([3]);
    await client.tasks.list({ project: 1, query, page_size: 10, fields: "all", include: ["id", "data"], only_annotated: false }).toArray();
    const first = s.requests[0]!;
    expect(JSON.parse(first.query.get("query")!)).toEqual(query.toJSON());
    expect(Object.fromEntries([...first.query].filter(([k]) => k !== "query"))).toEqual({
      project: "1",
      page: "1",
      page_size: "10",
      fields: "all",
      include: "id,data",
      only_annotated: "false",
    });
  });

  test("a plain body works as the query too", async () => {
    const s = await pagedServer("empty", 10);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const body = { ordering: ["tasks:id"], selectedItems: { all: false as const, included: [101] } };
    await client.tasks.list({ project: 1, query: body }).toArray();
    expect(JSON.parse(s.requests[0]!.query.get("query")!)).toEqual(body);
  });

  test("a selection taken from a view sends ?view=; one of another project is refused", async () => {
    const s = await pagedServer("empty", 10);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    await client.tasks.list({ project: 1, query: selection(1).fromView(4) }).toArray();
    expect(s.requests[0]!.query.get("view")).toBe("4");
    expect(() => client.tasks.list({ project: 1, query: selection(2).all() })).toThrow(
      "params.query: expected a selection of project 1, found a selection of project 2",
    );
  });

  test("projects.list sends its filters, ids as a comma list", async () => {
    const s = await pagedServer("empty", 10);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    await client.projects.list({ title: "cats", ids: [1, 2], page_size: 50 }).toArray();
    expect(Object.fromEntries(s.requests[0]!.query)).toEqual({ title: "cats", ids: "1,2", page_size: "50", page: "1" });
  });
});
