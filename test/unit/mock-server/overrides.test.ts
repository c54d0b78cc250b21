import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ApiError, NetworkError, UnexpectedResponseError, createClient, type Client } from "../../../src/client/index.js";
import { faults, passthrough, reply, startMockServer, type MockServer, type ReplyOf } from "../../../mock-server/index.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";

/*
 * `mock.use(route, handler)`: answers put in front of the mock's own, scoped until `reset()`. The
 * mock runs on a virtual clock (its `clock` option), so a delay is exact and nothing waits.
 */
let mock: MockServer;
let clock: VirtualClock;
let client: Client;
beforeAll(async () => {
  clock = new VirtualClock();
  mock = await startMockServer({ clock });
  client = createClient({ baseUrl: mock.url, apiKey: mock.legacyToken, maxRetries: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** A raw request (status, headers, text), so that what the mock sends is seen as sent. */
async function raw(method: string, path: string, body?: unknown) {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `Token ${mock.legacyToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("answers", () => {
  test("a declared reply, with the route's success status (201 for a create)", async () => {
    const project = await client.projects.get(1);
    mock.use("GET /api/projects/{pk}/", { ...project, title: "from the override" });
    expect((await client.projects.get(1)).title).toBe("from the override");
    const view = JSON.parse((await raw("GET", "/api/dm/views/1/")).text) as ReplyOf<"POST /api/dm/views/">;
    mock.use("POST /api/dm/views/", { ...view, id: 99 });
    const created = await raw("POST", "/api/dm/views/", { project: 1 });
    expect([created.status, JSON.parse(created.text).id]).toEqual([201, 99]);
    // The store did not change: the override answered, the mock's handler never ran.
    expect(mock.data().views.some((v) => v.id === 99)).toBe(false);
  });

  test("faults.status: the server's error body, the reason phrase as detail unless given", async () => {
    mock.use("GET /api/projects/{pk}/", faults.status(503));
    const answer = await raw("GET", "/api/projects/1/");
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toMatchObject({ status_code: 503, detail: "Service Unavailable", exc_info: null });
    expect(Object.keys(JSON.parse(answer.text)).sort()).toEqual(["detail", "exc_info", "id", "status_code", "version"]);
    mock.use("GET /api/projects/{pk}/", faults.status(500, { detail: "boom", headers: { "X-Trace": "t1" } }));
    const error = await client.projects.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 500, serverError: { detail: "boom" } });
    expect((await raw("GET", "/api/projects/1/")).headers.get("x-trace")).toBe("t1");
    expect(() => faults.status(302)).toThrow("faults.status: expected an error status from 400 to 599, found 302");
  });

  test("faults.rateLimited: 429, Retry-After and DRF's throttling message", async () => {
    mock.use("GET /api/tasks/", faults.rateLimited(30));
    const answer = await raw("GET", "/api/tasks/?project=1");
    expect([answer.status, answer.headers.get("retry-after")]).toEqual([429, "30"]);
    expect(JSON.parse(answer.text).detail).toBe("Request was throttled. Expected available in 30 seconds.");
    mock.use("GET /api/tasks/", faults.rateLimited(1));
    expect(JSON.parse((await raw("GET", "/api/tasks/?project=1")).text).detail).toBe(
      "Request was throttled. Expected available in 1 second.",
    );
  });

  test("faults.drop: the connection closes with no answer", async () => {
    mock.use("GET /api/current-user/whoami", faults.drop());
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(mock.requests.map((r) => [r.path, r.status])).toEqual([["/api/current-user/whoami", undefined]]);
  });

  test("faults.malformed: a 200 whose JSON is cut short, or any text and type", async () => {
    mock.use("GET /api/current-user/whoami", faults.malformed());
    const answer = await raw("GET", "/api/current-user/whoami");
    expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "application/json"]);
    expect(() => JSON.parse(answer.text)).toThrow();
    await expect(client.users.whoami()).rejects.toBeInstanceOf(UnexpectedResponseError);
    mock.use("GET /api/current-user/whoami", faults.malformed({ status: 502, text: "<html>Bad gateway</html>", contentType: "text/html" }));
    const page = await raw("GET", "/api/current-user/whoami");
    expect([page.status, page.headers.get("content-type"), page.text]).toEqual([502, "text/html", "<html>Bad gateway</html>"]);
  });

  test("faults.delay: the answer after that long on the mock's clock; Infinity never answers", async () => {
    mock.use("GET /api/current-user/whoami", faults.delay(2000));
    const before = clock.scheduled.length;
    const answer = raw("GET", "/api/current-user/whoami");
    await clock.whenScheduled(before + 2);
    // The request's own time limit (30 s) and the delay.
    expect(clock.pending()).toEqual([2000, 30_000]);
    clock.advance(2000);
    expect(JSON.parse((await answer).text).username).toBe("admin");

    mock.use("GET /api/current-user/whoami", faults.delay(500, faults.status(504)));
    const late = raw("GET", "/api/current-user/whoami");
    await clock.whenScheduled(clock.scheduled.length + 2);
    clock.advance(500);
    expect((await late).status).toBe(504);

    mock.use("GET /api/current-user/whoami", faults.delay(Infinity));
    const controller = new AbortController();
    const never = fetch(`${mock.url}/api/current-user/whoami`, {
      headers: { authorization: `Token ${mock.legacyToken}` },
      signal: controller.signal,
    });
    await clock.whenScheduled(clock.scheduled.length + 1);
    clock.advance(3_600_000);
    controller.abort();
    await expect(never).rejects.toThrow();
  });

  test("reply(): any status, body and headers; passthrough(): the mock's own answer", async () => {
    mock.use("DELETE /api/tasks/{pk}/", reply(204));
    expect((await raw("DELETE", "/api/tasks/1/")).status).toBe(204);
    expect(mock.data().tasks.some((t) => t.id === 1)).toBe(true);
    mock.use("DELETE /api/tasks/{pk}/", passthrough());
    expect((await raw("DELETE", "/api/tasks/1/")).status).toBe(204);
    expect(mock.data().tasks.some((t) => t.id === 1)).toBe(false);
  });
});

describe("scope", () => {
  test("a handler sees the request (params, query, headers, body, the call's number) and may pass some through", async () => {
    const seen: unknown[] = [];
    mock.use("PATCH /api/tasks/{pk}/", (request) => {
      const key = request.headers.authorization === `Token ${mock.legacyToken}` ? "the key" : "another key";
      seen.push([request.params.pk, request.query["fields"], request.body, key, request.call]);
      return request.params.pk === "2" ? faults.status(409, { detail: "locked" }) : passthrough();
    });
    expect((await raw("PATCH", "/api/tasks/2/?fields=all", { meta: { a: 1 } })).status).toBe(409);
    expect((await raw("PATCH", "/api/tasks/3/", { meta: { b: 2 } })).status).toBe(200);
    expect(seen).toEqual([
      ["2", "all", { meta: { a: 1 } }, "the key", 0],
      ["3", undefined, { meta: { b: 2 } }, "the key", 1],
    ]);
    expect(mock.data().tasks.find((t) => t.id === 3)?.meta).toEqual({ b: 2 });
  });

  test("times: the override steps aside after n requests; the newest override answers first", async () => {
    mock.use("GET /api/projects/{pk}/", faults.status(500));
    mock.use("GET /api/projects/{pk}/", faults.status(503), { times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw("GET", "/api/projects/1/")).status);
    expect(statuses).toEqual([503, 503, 500, 500]);
    expect(() => mock.use("GET /api/projects/{pk}/", faults.status(500), { times: 0 })).toThrow(
      "mock.use: options.times: expected a whole number ≥ 1, found 0",
    );
  });

  test("reset() drops every override; the journal records overridden requests as usual", async () => {
    mock.use("GET /api/projects/{pk}/", faults.status(503));
    expect((await raw("GET", "/api/projects/1/")).status).toBe(503);
    expect(mock.requests.map((r) => [r.method, r.path, r.status])).toEqual([["GET", "/api/projects/1/", 503]]);
    await mock.reset();
    expect((await raw("GET", "/api/projects/1/")).status).toBe(200);
  });

  test("an override answers before authentication; passthrough() hands the request on to it", async () => {
    mock.use("GET /api/projects/{pk}/", faults.status(503), { times: 1 });
    expect((await fetch(`${mock.url}/api/projects/1/`)).status).toBe(503);
    mock.use("GET /api/projects/{pk}/", passthrough(), { times: 1 });
    expect((await fetch(`${mock.url}/api/projects/1/`)).status).toBe(401);
  });

  test("a path the mock does not route is its 404 page, whatever the overrides", async () => {
    mock.use("GET /api/projects/{pk}/", faults.status(503));
    expect((await raw("GET", "/api/projects/x/")).status).toBe(404);
  });

  test("a route the mock does not serve is refused, with the methods its path has", () => {
    // @ts-expect-error not a route of the mock
    expect(() => mock.use("GET /api/project/{pk}/", faults.status(503))).toThrow(
      'mock.use: route: expected "<METHOD> <path>" of a route the mock serves, e.g. "GET /api/projects/{pk}/"; found string "GET /api/project/{pk}/"',
    );
    // @ts-expect-error the route has no POST
    expect(() => mock.use("POST /api/projects/{pk}/", faults.status(503))).toThrow(
      "of a route the mock serves: GET /api/projects/{pk}/, PUT /api/projects/{pk}/, PATCH /api/projects/{pk}/, DELETE /api/projects/{pk}/;",
    );
  });
});
