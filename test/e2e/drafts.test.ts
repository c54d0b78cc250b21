import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { ADA_KEY, BO_KEY, raw, startFixture } from "./fixture.js";

/*
 * Annotation drafts, as a server (1.22) answered them: `/api/tasks/{id}/drafts`,
 * `/api/tasks/{id}/annotations/{aid}/drafts`, `/api/drafts/{id}/`, and
 * `/api/annotations/{id}/convert-to-draft`. Fixture: task 1 has annotation 1 (ada); no drafts.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const choice = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }];

describe("a task's drafts", () => {
  test("POST creates the caller's draft on the URL's task (and annotation); GET lists every user's", async () => {
    const mine = await raw(server, "POST", "/api/tasks/1/drafts", { key: ADA_KEY, body: { result: choice, lead_time: 2.5 } });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({
      id: 1,
      user: "ada@example.com",
      created_username: "Ada Lovelace ada@example.com, 1",
      created_ago: "0\u00a0minutes", // Django's timesince: a no-break space
      result: choice,
      lead_time: 2.5,
      was_postponed: false,
      import_id: null,
      task: 1,
      annotation: null,
    });
    const bos = await raw(server, "POST", "/api/tasks/1/annotations/1/drafts", {
      key: BO_KEY,
      body: { result: [], task: 3, annotation: 2 },
    });
    expect([bos.status, bos.body.user, bos.body.task, bos.body.annotation]).toEqual([201, "bo@example.com", 1, 1]);
    const list = await raw(server, "GET", "/api/tasks/1/drafts", { key: BO_KEY });
    expect(list.body.map((d: { id: number }) => d.id)).toEqual([1, 2]);
    expect((await raw(server, "GET", "/api/tasks/1/annotations/1/drafts")).body).toHaveLength(2);
    expect((await raw(server, "GET", "/api/tasks/99/drafts")).body).toEqual([]);
    // The Data Manager's task counts it.
    expect((await raw(server, "GET", "/api/tasks/1/", { key: ADA_KEY })).body.draft_exists).toBe(true);
  });

  test("result is required and not null; an unknown task or annotation is the server's 500", async () => {
    const missing = await raw(server, "POST", "/api/tasks/1/drafts", { body: {} });
    expect([missing.status, missing.body.validation_errors]).toEqual([400, { result: ["This field is required."] }]);
    const empty = await raw(server, "POST", "/api/tasks/1/drafts", { body: { result: null } });
    expect(empty.body.validation_errors).toEqual({ result: ["This field may not be null."] });
    const task = await raw(server, "POST", "/api/tasks/99/drafts", { body: { result: [] } });
    expect([task.status, task.body.detail]).toEqual([500, "Task matching query does not exist."]);
    const annotation = await raw(server, "POST", "/api/tasks/1/annotations/99/drafts", { body: { result: [] } });
    expect(annotation.status).toBe(500);
    expect(annotation.body.detail).toMatch(/^insert or update on table "tasks_annotationdraft" violates foreign key constraint/);
    expect(server.data().drafts).toEqual([]);
  });
});

describe("/api/drafts/{id}/", () => {
  test("GET, PATCH, PUT, DELETE; then 404 naming the model", async () => {
    await raw(server, "POST", "/api/tasks/1/drafts", { body: { result: choice } });
    expect((await raw(server, "GET", "/api/drafts/1/")).body.result).toEqual(choice);
    const patched = await raw(server, "PATCH", "/api/drafts/1/", { body: { lead_time: 9, was_postponed: true } });
    expect([patched.status, patched.body.lead_time, patched.body.was_postponed, patched.body.result]).toEqual([200, 9, true, choice]);
    const put = await raw(server, "PUT", "/api/drafts/1/", { body: { result: [] } });
    expect([put.status, put.body.result, put.body.lead_time]).toEqual([200, [], 9]);
    expect((await raw(server, "PUT", "/api/drafts/1/", { body: {} })).body.validation_errors).toEqual({
      result: ["This field is required."],
    });
    expect((await raw(server, "DELETE", "/api/drafts/1/")).status).toBe(204);
    const gone = await raw(server, "GET", "/api/drafts/1/");
    expect([gone.status, gone.body.detail]).toEqual([404, "No AnnotationDraft matches the given query."]);
  });

  test("the server's 500s: a user written as text, a result item that is a number", async () => {
    await raw(server, "POST", "/api/tasks/1/drafts", { body: { result: [] } });
    const user = await raw(server, "PATCH", "/api/drafts/1/", { body: { user: "x" } });
    expect([user.status, user.body.detail]).toEqual([500, 'Cannot assign "\'x\'": "AnnotationDraft.user" must be a "User" instance.']);
    const number = await raw(server, "PUT", "/api/drafts/1/", { body: { result: [1] } });
    expect([number.status, number.body.detail]).toEqual([500, "argument of type 'int' is not iterable"]);
    expect(server.data().drafts[0]!.result).toEqual([]);
  });
});

describe("POST /api/annotations/{id}/convert-to-draft", () => {
  test("the annotation becomes the caller's draft and is gone; GET is the view's 500", async () => {
    const answer = await raw(server, "POST", "/api/annotations/1/convert-to-draft", { key: BO_KEY, body: {} });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ user: "bo@example.com", task: 1, annotation: null, result: [{ ...choice[0] }] });
    expect((await raw(server, "GET", "/api/annotations/1/")).status).toBe(404);
    expect(server.data().annotations.some((a) => a.id === 1)).toBe(false);
    const get = await raw(server, "GET", "/api/annotations/2/convert-to-draft");
    expect(get.status).toBe(500);
    expect((await raw(server, "POST", "/api/annotations/99/convert-to-draft", { body: {} })).status).toBe(404);
  });

  test("deleting an annotation deletes its drafts (on_delete CASCADE)", async () => {
    await raw(server, "POST", "/api/tasks/1/annotations/1/drafts", { body: { result: [] } });
    await raw(server, "DELETE", "/api/annotations/1/");
    expect(server.data().drafts).toEqual([]);
  });
});
