import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { raw, startFixture } from "./fixture.js";

/*
 * `/api/projects/{id}/tasks/` (ProjectTaskListAPI), as a server answered it: the list is a bare
 * array of TaskSimpleSerializer tasks newest update first, cut by the deprecated paginator (50 by
 * default, `page`, `page_size`/`length`, `start`), and an empty page is a 404; POST creates a task in
 * the URL's project through TaskValidator. Project 1 of the fixture has tasks 1–6, project 2 task 7.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const ids = (body: { id: number }[]) => body.map((t) => t.id);

describe("GET /api/projects/{id}/tasks/", () => {
  test("the project's tasks, newest update first, with their annotations and predictions", async () => {
    await raw(server, "PATCH", "/api/tasks/3/", { body: { meta: { touched: true } } });
    const answer = await raw(server, "GET", "/api/projects/1/tasks/");
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual([3, 6, 5, 4, 2, 1]);
    const first = answer.body.find((t: { id: number }) => t.id === 1);
    expect(first.annotations.map((a: { id: number }) => a.id)).toEqual([1]);
    expect(first.predictions.map((p: { id: number }) => p.id)).toEqual([1, 2]);
    expect(first.project).toBe(1);
    expect(ids((await raw(server, "GET", "/api/projects/2/tasks")).body)).toEqual([7]);
  });

  test("page and page_size (or length), start as an offset, -1 for everything", async () => {
    const get = async (query: string) => ids((await raw(server, "GET", `/api/projects/1/tasks/?${query}`)).body);
    expect(await get("page_size=2")).toEqual([6, 5]);
    expect(await get("page_size=2&page=3")).toEqual([2, 1]);
    expect(await get("length=4")).toEqual([6, 5, 4, 3]);
    expect(await get("page_size=4&page=2")).toEqual([2, 1]);
    // start 0 → page 1; start 3 > page_size 2 → page int(3/2)+1 = 2; start 2 (not above 2) → page 3.
    expect(await get("page_size=2&start=0")).toEqual([6, 5]);
    expect(await get("page_size=2&start=3")).toEqual([4, 3]);
    expect(await get("page_size=2&start=2")).toEqual([2, 1]);
    expect(await get("page_size=-1")).toEqual([6, 5, 4, 3, 2, 1]);
  });

  test("an empty page is a 404 Not found.: past the end, page 0, page_size 0 or negative, an empty project", async () => {
    for (const query of ["page=2", "page_size=3&page=3", "page=0", "page_size=0", "page_size=-2"]) {
      const answer = await raw(server, "GET", `/api/projects/1/tasks/?${query}`);
      expect([answer.status, answer.body.detail], query).toEqual([404, "Not found."]);
    }
    const project = await raw(server, "POST", "/api/projects/", { body: { title: "empty" } });
    expect((await raw(server, "GET", `/api/projects/${project.body.id}/tasks/`)).status).toBe(404);
  });

  test("bad numbers: page the server's 400, page_size its 500", async () => {
    const page = await raw(server, "GET", "/api/projects/1/tasks/?page=x");
    expect([page.status, page.body.validation_errors]).toEqual([
      400,
      { page: 'Incorrect value in key "page" = "x". It should be digit string.' },
    ]);
    const size = await raw(server, "GET", "/api/projects/1/tasks/?page_size=abc");
    expect([size.status, size.body.detail]).toEqual([500, "invalid literal for int() with base 10: 'abc'"]);
  });

  test("an unknown project is a 404 naming the model", async () => {
    const answer = await raw(server, "GET", "/api/projects/99/tasks/");
    expect([answer.status, answer.body.detail]).toEqual([404, "No Project matches the given query."]);
  });
});

describe("POST /api/projects/{id}/tasks/", () => {
  test("creates the task in the URL's project and answers it as POST /api/tasks/ does", async () => {
    const answer = await raw(server, "POST", "/api/projects/2/tasks/", { body: { data: { text: "new" }, meta: { m: 1 } } });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ id: 8, project: 2, data: { text: "new" }, meta: { m: 1 }, inner_id: 2, is_labeled: false });
    expect(answer.body).not.toHaveProperty("annotations");
    // A `project` in the body must exist, but the URL's wins.
    const other = await raw(server, "POST", "/api/projects/2/tasks/", { body: { data: { text: "x" }, project: 1 } });
    expect([other.status, other.body.project]).toEqual([201, 2]);
  });

  test("TaskValidator checks the data against the project's config", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/tasks/", { body: { data: { txt: "no text key" } } });
    expect(answer.status).toBe(400);
    expect(answer.body.validation_errors).toEqual({
      non_field_errors: ['"text" key is expected in task data [assume: item["data"] = task root with values]'],
    });
  });

  test("a body project that does not exist, and an unknown URL project", async () => {
    const bad = await raw(server, "POST", "/api/projects/1/tasks/", { body: { data: { text: "x" }, project: 999 } });
    expect([bad.status, bad.body.validation_errors]).toEqual([400, { project: ['Invalid pk "999" - object does not exist.'] }]);
    const missing = await raw(server, "POST", "/api/projects/99/tasks/", { body: { data: { text: "x" } } });
    expect([missing.status, missing.body.detail]).toEqual([404, "No Project matches the given query."]);
    expect(server.data().tasks).toHaveLength(7);
  });
});
