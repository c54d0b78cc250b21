import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { faults, passthrough, reply, type MockServer } from "../../../mock-server/index.js";
import { selection } from "../../../src/selection.js";
import { ApiError, PaginationError, createClient } from "../../../src/client/index.js";
import { LEGACY_KEY } from "./fixtures.js";
import { SEED, startMock } from "./on-mock.js";

/*
 * Lists against the mock: its pages end as the server's do, with 404 "Invalid page."; a server that
 * answers an empty page instead, or misbehaves, is the mock told so (`mock.use`).
 */
const projects = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, title: `P${i + 1}`, label_config: "<View/>" }));
/** The server lists projects newest first. */
const newestFirst = projects.map((p) => p.id).reverse();
const tasks = Array.from({ length: 5 }, (_, i) => ({ id: 100 + i, project: 1, data: { n: i } }));

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ data: { users: SEED.users, projects, tasks } });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** Past the last page the mock answers an empty page instead of the server's 404 "Invalid page." (servers differ). */
function emptyPastTheEnd(): void {
  mock.use("GET /api/projects/", (request) => {
    const page = Number(request.query["page"]);
    const size = Number(request.query["page_size"]);
    return (page - 1) * size >= projects.length && page > 1
      ? reply(200, { count: projects.length, next: null, previous: null, results: [] })
      : passthrough();
  });
  mock.use("GET /api/tasks/", (request) => {
    const page = Number(request.query["page"]);
    const size = Number(request.query["page_size"]);
    const empty = { tasks: [], total: tasks.length, total_annotations: 0, total_predictions: 0 };
    return (page - 1) * size >= tasks.length && page > 1 ? reply(200, empty) : passthrough();
  });
}

const pagesAsked = (path: string) => mock.requests.filter((r) => r.path === path).map((r) => Number(r.query["page"]));
const client = () => createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });

describe("iterating a list", () => {
  test("projects: every item of every page, ending on the server's 404 'Invalid page.'", async () => {
    const seen: number[] = [];
    for await (const project of client().projects.list({ page_size: 3 })) seen.push(project.id);
    expect(seen).toEqual(newestFirst);
    expect(pagesAsked("/api/projects/")).toEqual([1, 2, 3, 4]);
  });

  test("projects: ending on an empty page", async () => {
    emptyPastTheEnd();
    expect((await client().projects.list({ page_size: 3 }).toArray()).map((p) => p.id)).toEqual(newestFirst);
    expect(pagesAsked("/api/projects/")).toEqual([1, 2, 3, 4]);
  });

  test("tasks: both ends, with the items under `tasks`", async () => {
    for (const end of ["404", "empty"] as const) {
      await mock.reset();
      if (end === "empty") emptyPastTheEnd();
      expect((await client().tasks.list({ project: 1, page_size: 2 }).toArray()).map((t) => t.id)).toEqual(tasks.map((t) => t.id));
      expect(pagesAsked("/api/tasks/")).toEqual([1, 2, 3, 4]);
    }
  });

  test("pages() yields the envelopes; page(n) fetches one page", async () => {
    const envelopes = [];
    for await (const page of client().projects.list({ page_size: 3 }).pages()) envelopes.push(page);
    expect(envelopes.map((p) => p.results.length)).toEqual([3, 3, 1]);
    expect(envelopes[0]?.count).toBe(7);

    const second = await client().projects.list({ page_size: 3 }).page(2);
    expect(second.results.map((p) => p.id)).toEqual([4, 3, 2]);
    const error = await client()
      .projects.list({ page_size: 3 })
      .page(9)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("GET /api/projects/ → 404: Invalid page.");
  });

  test("iteration may start at a later page", async () => {
    expect((await client().projects.list({ page: 3, page_size: 3 }).toArray()).map((p) => p.id)).toEqual([1]);
    expect((await client().projects.list({ page: 5, page_size: 3 }).toArray()).map((p) => p.id)).toEqual([]);
  });

  test("a 404 on the first page that is not 'Invalid page.' is an error", async () => {
    mock.use("GET /api/tasks/", reply(404, { detail: "Neither project nor view id specified" }));
    await expect(client().tasks.list({ project: 1 }).toArray()).rejects.toThrow(
      "GET /api/tasks/ → 404: Neither project nor view id specified",
    );
  });

  test("other errors end the iteration with the error", async () => {
    mock.use("GET /api/projects/", faults.status(403, { detail: "no" }));
    mock.use("GET /api/projects/", passthrough(), { times: 1 });
    await expect(client().projects.list({ page_size: 3 }).toArray()).rejects.toMatchObject({ statusCode: 403 });
    expect(pagesAsked("/api/projects/")).toEqual([1, 2]);
  });

  test("a server that ignores `page` is detected instead of looping forever", async () => {
    mock.use("GET /api/projects/", reply(200, { count: 3, next: null, previous: null, results: projects.slice(0, 3) }));
    const error = await client()
      .projects.list()
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      "GET /api/projects/ page 2 holds only items of earlier pages: the server seems to ignore the page parameter",
    );
    expect(mock.requests).toHaveLength(2);
  });
});

describe("list parameters", () => {
  /** An empty page for any task list: what is checked here is the request. */
  beforeEach(() => mock.use("GET /api/tasks/", reply(200, { tasks: [], total: 0, total_annotations: 0, total_predictions: 0 })));
  const sent = () => mock.requests[0]!.query;

  test("tasks.list sends a selection as the JSON `query` parameter, plus project, view and flags", async () => {
    const query = selection(1).where("tasks:data.text").contains("a+b & c=d #1 ü").orderBy("-tasks:created_at").excluding([3]);
    await client()
      .tasks.list({ project: 1, query, page_size: 10, fields: "all", include: ["id", "data"], only_annotated: false })
      .toArray();
    const { query: sentQuery, ...rest } = sent();
    expect(JSON.parse(sentQuery as string)).toEqual(query.toJSON());
    expect(rest).toEqual({
      project: "1",
      page: "1",
      page_size: "10",
      fields: "all",
      include: "id,data",
      only_annotated: "false",
    });
  });

  test("a plain body works as the query too", async () => {
    const body = { ordering: ["tasks:id"], selectedItems: { all: false as const, included: [101] } };
    await client().tasks.list({ project: 1, query: body }).toArray();
    expect(JSON.parse(sent()["query"] as string)).toEqual(body);
  });

  test("a selection taken from a view sends ?view=; one of another project is refused", async () => {
    await client()
      .tasks.list({ project: 1, query: selection(1).fromView(4) })
      .toArray();
    expect(sent()["view"]).toBe("4");
    expect(() => client().tasks.list({ project: 1, query: selection(2).all() })).toThrow(
      "params.query: expected a selection of project 1, found a selection of project 2",
    );
  });

  test("a selection key or a near miss of a parameter is refused, not sent as a URL parameter the server ignores", () => {
    const filters = { conjunction: "and", items: [] };
    const list = (params: Record<string, unknown>) => () => client().tasks.list({ project: 1, ...params } as never);
    expect(list({ filters })).toThrow(
      "params.filters: expected the selection in params.query (the task list reads filters, ordering and selectedItems only " +
        "inside its query parameter), found filters as a URL parameter, which the server ignores",
    );
    for (const key of ["ordering", "selectedItems", "selected_items", "hiddenColumns"])
      expect(list({ [key]: [] })).toThrow(`params.${key}: `);
    expect(list({ filter: filters })).toThrow('found an unknown parameter "filter" (did you mean filters, inside params.query?)');
    expect(list({ page_sise: 5 })).toThrow('found an unknown parameter "page_sise" (did you mean page_size?), which the server ignores');
    expect(mock.requests).toEqual([]);
  });

  test("a parameter this version does not know and that resembles none is sent", async () => {
    await client()
      .tasks.list({ project: 1, interpolate_key_frames: true } as never)
      .toArray();
    expect(sent()["interpolate_key_frames"]).toBe("true");
  });

  test("projects.list sends its filters, ids as a comma list", async () => {
    await client()
      .projects.list({ title: "cats", ids: [1, 2], page_size: 50 })
      .toArray();
    expect(sent()).toEqual({ title: "cats", ids: "1,2", page_size: "50", page: "1" });
  });
});
