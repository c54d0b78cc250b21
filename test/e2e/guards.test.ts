import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { NOT_FOUND_PAGE, TIME_LIMIT_DETAIL } from "../../mock-server/guards.js";
import type { Clock, MockServer } from "../../mock-server/index.js";
import { VirtualClock } from "../helpers/virtual-clock.js";
import { clientFor, raw, startFixture, taskIds } from "./fixture.js";

let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

describe("a path the server does not route answers its 404 page", () => {
  // json-server's generic routes, unknown /api paths, ids that are not integers, traversal, static files.
  const paths = [
    "/",
    "/db",
    "/tasks",
    "/tasks/1",
    "/users",
    "/tasks?data.text_like=^(a%2B)%2B$",
    "/tasks?q=alpha",
    "/api",
    "/api/",
    "/api/unknown/",
    "/api/projects/abc/",
    "/api/projects/1/unknown",
    "/api/tasks/1/annotations/2/",
    "/api/tasks/..%2F..%2Fetc%2Fpasswd",
    "/api/tasks/1%2F..%2F2/",
    "/api/dm/views/-1/",
    "/api/current-user/whoami/extra",
    "/static/app.js",
    "/__proto__",
  ];
  const credentials: Record<string, Record<string, string>> = {
    none: {},
    valid: { authorization: "Token ada0000000000000000000000000000000000001" },
    invalid: { authorization: "Token nope" },
  };

  test("for every method, with or without credentials, and nothing changes", async () => {
    const before = JSON.stringify(server.data());
    for (const path of paths) {
      for (const method of METHODS) {
        for (const [name, headers] of Object.entries(credentials)) {
          const response = await raw(server, method, path, { key: null, headers, ...(method === "POST" ? { body: { id: 1 } } : {}) });
          const where = `${method} ${path} (${name} credentials)`;
          expect(response.status, where).toBe(404);
          expect(response.headers.get("content-type"), where).toBe("text/html; charset=utf-8");
          expect(response.body, where).toBe(method === "HEAD" ? undefined : NOT_FOUND_PAGE);
        }
      }
    }
    expect(JSON.stringify(server.data())).toBe(before);
    expect(server.requests.every((r) => r.status === 404)).toBe(true);
  });

  test("a backtracking pattern in a query string runs nowhere: the server answers at once and stays up", async () => {
    const slow = `/tasks?data.text_like=${encodeURIComponent("^(a+)+$")}&data.text=${"a".repeat(5000)}b`;
    expect((await raw(server, "GET", slow)).status).toBe(404);
    expect((await clientFor(server).users.whoami()).username).toBe("ada");
  });
});

describe("OPTIONS", () => {
  test("needs credentials on a route, as any method (DRF checks them first)", async () => {
    const anonymous = await raw(server, "OPTIONS", "/api/projects/", { key: null });
    expect([anonymous.status, anonymous.body.detail]).toEqual([401, "Authentication credentials were not provided."]);
    const authenticated = await raw(server, "OPTIONS", "/api/projects/");
    expect([authenticated.status, authenticated.headers.get("allow")]).toEqual([200, "GET, POST, HEAD, OPTIONS"]);
  });

  test("a CORS preflight is answered 200, empty, for any path and without credentials (django-cors-headers)", async () => {
    for (const path of ["/api/projects/", "/anything"]) {
      const preflight = await raw(server, "OPTIONS", path, {
        key: null,
        headers: { origin: "http://app.example", "access-control-request-method": "POST" },
      });
      expect([preflight.status, preflight.body], path).toEqual([200, undefined]);
      expect(preflight.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(preflight.headers.get("access-control-allow-methods"), path).toBe("DELETE, GET, OPTIONS, PATCH, POST, PUT");
    }
    const simple = await raw(server, "GET", "/api/projects/", { headers: { origin: "http://app.example" } });
    expect([simple.status, simple.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
    expect((await raw(server, "GET", "/api/projects/")).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("the request time budget", () => {
  /** A clock that moves `step` ms every time it is read: every handler seems to take that long. */
  const slowClock = (step: number): Clock => {
    const virtual = new VirtualClock();
    return {
      now: () => {
        virtual.set(virtual.now() + step);
        return virtual.now();
      },
      setTimeout: (callback, ms) => virtual.setTimeout(callback, ms),
      clearTimeout: (handle) => virtual.clearTimeout(handle),
    };
  };

  test("a handler that ran past the budget is answered 503 in the server's shape, and nothing it did is kept", async () => {
    const slow = await startFixture({ requestTimeLimit: 1, clock: slowClock(1001) });
    try {
      const before = JSON.stringify(slow.data());
      const action = await raw(slow, "POST", "/api/dm/actions/?id=delete_tasks&project=1", { body: {} });
      expect(action.status).toBe(503);
      expect(action.body).toMatchObject({ status_code: 503, detail: TIME_LIMIT_DETAIL, exc_info: null });
      expect(Object.keys(action.body).sort()).toEqual(["detail", "exc_info", "id", "status_code", "version"]);
      const remove = await raw(slow, "DELETE", "/api/tasks/1/");
      expect(remove.status).toBe(503);
      expect(JSON.stringify(slow.data())).toBe(before);
      expect(slow.requests.map((r) => r.status)).toEqual([503, 503]);
    } finally {
      await slow.close();
    }
  });

  test("just inside the budget, the request is done", async () => {
    const quick = await startFixture({ requestTimeLimit: 1, clock: slowClock(999) });
    try {
      expect((await raw(quick, "DELETE", "/api/tasks/1/")).status).toBe(204);
      expect(taskIds(quick)).toEqual([2, 3, 4, 5, 6]);
    } finally {
      await quick.close();
    }
  });

  test("a request whose body does not arrive in time is answered 503, the connection closed, and it is never handled", async () => {
    const clock = new VirtualClock();
    const waiting = await startFixture({ requestTimeLimit: 5, clock });
    try {
      const { port } = new URL(waiting.url);
      const socket = connect(Number(port), "127.0.0.1");
      const received: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => received.push(chunk));
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      const body = "{}";
      socket.write(
        [
          "POST /api/dm/actions/?id=delete_tasks&project=1 HTTP/1.1",
          "Host: localhost",
          `Authorization: Token ${waiting.legacyToken}`,
          "Content-Type: application/json",
          `Content-Length: ${body.length + 10}`,
          "",
          body,
        ].join("\r\n"),
      );
      while (waiting.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(clock.pending()).toEqual([5000]);
      clock.advance(5000);
      await closed;
      const answer = Buffer.concat(received).toString("utf8");
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toContain(TIME_LIMIT_DETAIL);
      expect(taskIds(waiting)).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await waiting.close();
    }
  });
});

describe("the journal is bounded", () => {
  test("a ring of journalCapacity entries that counts what it dropped; reset() empties both", async () => {
    const small = await startFixture({ journalCapacity: 3 });
    try {
      for (const id of [1, 2, 3, 4, 5]) await raw(small, "GET", `/api/tasks/${id}/`);
      expect(small.requests.map((r) => r.path)).toEqual(["/api/tasks/3/", "/api/tasks/4/", "/api/tasks/5/"]);
      expect(small.requestsDropped).toBe(2);
      await small.reset();
      expect([small.requests.length, small.requestsDropped]).toEqual([0, 0]);
    } finally {
      await small.close();
    }
  });

  test("a body longer than journalBodyLimit is kept as the start of its JSON text, with its full length", async () => {
    const small = await startFixture({ journalBodyLimit: 24 });
    try {
      await raw(small, "POST", "/api/tasks/", { body: { project: 1, data: { text: "x".repeat(100) } } });
      await raw(small, "POST", "/api/tasks/", { body: { project: 1, data: {} } });
      const [long, short] = small.requests;
      expect(long?.body).toBe('{"project":1,"data":{"te');
      expect(long?.truncatedFrom).toBe(JSON.stringify({ project: 1, data: { text: "x".repeat(100) } }).length);
      expect(short?.body).toEqual({ project: 1, data: {} });
      expect(short?.truncatedFrom).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  test("journalCapacity 0 keeps nothing; bad options are refused naming the option", async () => {
    const none = await startFixture({ journalCapacity: 0 });
    try {
      await raw(none, "GET", "/api/projects/");
      expect([none.requests.length, none.requestsDropped]).toEqual([0, 1]);
    } finally {
      await none.close();
    }
    await expect(startFixture({ journalCapacity: -1 })).rejects.toThrow(
      "options.journalCapacity: expected a whole number of entries ≥ 0, found number -1",
    );
    await expect(startFixture({ requestTimeLimit: 0 })).rejects.toThrow(/options\.requestTimeLimit: expected a positive number of seconds/);
    await expect(startFixture({ clock: { now: () => 0 } as never })).rejects.toThrow(/options\.clock: expected a clock/);
  });
});
