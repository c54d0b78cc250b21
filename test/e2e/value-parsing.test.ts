import { describe, expect, test } from "vitest";
import { send, taskIds, withFixture } from "./fixture.js";

/**
 * Where the server reads values with ujson, Python's int() and strptime, the mock reads them the same way:
 * over HTTP, with the fixture's six tasks of project 1 (created at 00:00:01 … 00:00:06 on 2024-01-01).
 */

const listed = (body: { tasks: { id: number }[] }) => body.tasks.map((t) => t.id);
const query = (value: string) => `/api/tasks/?project=1&query=${encodeURIComponent(value)}`;

describe("ujson where the server uses it", () => {
  test("the query URL parameter: what ujson accepts and JSON does not (leading zeros, a trailing `.`)", async () => {
    await withFixture({}, async (server) => {
      const answer = await send(server, "GET", query('{"selectedItems": {"all": false, "included": [02, 4.]}}'));
      expect(answer.status).toBe(200);
      expect(listed(answer.body)).toEqual([2, 4]);
    });
  });

  test("the query URL parameter: ujson's error text is the 500's detail; strict mode names the parameter", async () => {
    await withFixture({}, async (server) => {
      const answer = await send(server, "GET", query('{"selectedItems": {"all": false, "included": [1,]}}'));
      expect(answer.status).toBe(500);
      expect(answer.body.detail).toBe("Unexpected character found when decoding array value (1)");
      expect(answer.body.exc_info).toContain("ujson.JSONDecodeError: Unexpected character found when decoding array value (1)");
    });
    await withFixture({ strict: true }, async (server) => {
      const answer = await send(server, "GET", query("[1] x"));
      expect(answer.status).toBe(400);
      expect(answer.body.validation_errors.query[0]).toContain("Trailing data");
    });
  });

  test("a selectedItems string: decoded with ujson, and any failure is the server's DataManagerException", async () => {
    await withFixture({}, async (server) => {
      const ok = await send(
        server,
        "POST",
        "/api/dm/actions/?id=delete_tasks&project=1",
        JSON.stringify({ selectedItems: '{"all": false, "included": [03]}' }),
        "application/json",
      );
      expect(ok.status).toBe(200);
      expect(taskIds(server)).toEqual([1, 2, 4, 5, 6]);
      const before = server.data();
      const bad = await send(
        server,
        "POST",
        "/api/dm/actions/?id=delete_tasks&project=1",
        JSON.stringify({ selectedItems: '{"all": false, "included": [4,]}' }),
        "application/json",
      );
      expect(bad.status).toBe(500);
      expect(bad.body.detail).toMatch(/^selectedItems must be JSON encoded string for dict: /);
      expect(server.data()).toEqual(before);
    });
  });

  test("`equal` on prediction results compares the ujson-decoded value as jsonb", async () => {
    const seed = {
      users: [{ id: 1, username: "ada", email: "ada@example.com" }],
      projects: [{ id: 1, title: "P" }],
      tasks: [
        { id: 1, project: 1, data: {} },
        { id: 2, project: 1, data: {} },
      ],
      predictions: [
        { id: 1, task: 1, result: [{ value: { x: 1 } }] },
        { id: 2, task: 2, result: [{ value: { x: 2 } }] },
      ],
    };
    await withFixture({ data: seed }, async (server) => {
      const filter = (value: string) =>
        JSON.stringify({
          filters: {
            conjunction: "and",
            items: [{ filter: "filter:tasks:predictions_results", operator: "equal", type: "String", value }],
          },
        });
      const ids = async (value: string) => listed((await send(server, "GET", query(filter(value)))).body);
      expect(await ids('[{"value": {"x": 01}}]')).toEqual([1]);
      expect(await ids('[{"value": {"x": 2.}}]')).toEqual([2]);
      // Text ujson refuses ends the whole query: no task.
      expect(await ids('[{"value": {"x": 1}},]')).toEqual([]);
    });
  });
});

describe("strptime, as lenient as Python's", () => {
  test("'%Y-%m-%dT%H:%M:%S.%fZ' matches T and Z in either case and Unicode digits outside %f", async () => {
    await withFixture({}, async (server) => {
      const greater = (value: string) =>
        JSON.stringify({
          filters: { conjunction: "and", items: [{ filter: "filter:tasks:created_at", operator: "greater", type: "Datetime", value }] },
        });
      const ids = async (value: string) => listed((await send(server, "GET", query(greater(value)))).body);
      expect(await ids("2024-01-01T00:00:03.5Z")).toEqual([4, 5, 6]);
      expect(await ids("2024-01-01t00:00:03.5z")).toEqual([4, 5, 6]);
      expect(await ids("٢٠٢٤-1-1T0:0:3.5Z")).toEqual([4, 5, 6]);
    });
  });
});

describe("int(), where int_from_request and the paginators read numbers", () => {
  test("project: spaces, underscores and Unicode digits read as Python reads them", async () => {
    await withFixture({}, async (server) => {
      expect((await send(server, "GET", "/api/dm/actions/?project=%D9%A1")).status).toBe(200);
      expect((await send(server, "GET", "/api/dm/actions/?project=%201%20")).status).toBe(200);
      expect((await send(server, "GET", "/api/dm/actions/?project=0_1")).status).toBe(200);
      const bad = await send(server, "GET", "/api/dm/actions/?project=1.0");
      expect(bad.status).toBe(400);
      expect(bad.body.validation_errors).toEqual({ project: 'Incorrect value in key "project" = "1.0". It should be digit string.' });
    });
  });

  test("a JSON body's view: true is the int 1 to Python; null is refused, printed as None", async () => {
    await withFixture({}, async (server) => {
      const refused = await send(
        server,
        "POST",
        "/api/dm/actions/?id=delete_tasks&project=1",
        JSON.stringify({ view: null }),
        "application/json",
      );
      expect(refused.status).toBe(400);
      expect(refused.body.validation_errors).toEqual({
        view: 'Incorrect value type in key "view" = "None". It should be digit string or integer.',
      });
      expect(taskIds(server)).toEqual([1, 2, 3, 4, 5, 6]);
      const viaView = await send(
        server,
        "POST",
        "/api/dm/actions/?id=delete_tasks&project=1",
        JSON.stringify({ view: true }),
        "application/json",
      );
      expect(viaView.status).toBe(200);
      expect(taskIds(server)).toEqual([3, 5]);
    });
  });

  test("page and page_size: an empty page is page 1; page_size reads like int()", async () => {
    await withFixture({}, async (server) => {
      const page = await send(server, "GET", "/api/tasks/?project=1&page_size=%D9%A2&page=");
      expect(page.status).toBe(200);
      expect(listed(page.body)).toEqual([1, 2]);
      const second = await send(server, "GET", "/api/tasks/?project=1&page_size=2&page=%202");
      expect(listed(second.body)).toEqual([3, 4]);
    });
  });
});
