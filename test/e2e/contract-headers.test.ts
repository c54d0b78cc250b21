import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { raw, startFixture } from "./fixture.js";

/**
 * The headers of the server's answers: DRF's `Allow` (every answer of a view, errors included) and
 * `application/json` without a charset (JSONRenderer); django-cors-headers' `Vary: origin` and
 * CORS answers; Django's SecurityMiddleware defaults. No cache headers.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());

describe("DRF and Django headers", () => {
  test("Content-Type is application/json without a charset, on answers and on errors", async () => {
    for (const path of ["/api/projects/1/", "/api/tasks/999/", "/api/dm/actions/?project=1"]) {
      expect((await raw(server, "GET", path)).headers.get("content-type"), path).toBe("application/json");
    }
  });

  test("Allow lists the view's methods in DRF's order, also on 404 and 405 answers", async () => {
    const allow = async (method: string, path: string) =>
      (await raw(server, method, path, method === "GET" ? {} : { body: {} })).headers.get("allow");
    expect(await allow("GET", "/api/projects/")).toBe("GET, POST, HEAD, OPTIONS");
    expect(await allow("GET", "/api/tasks/1/")).toBe("GET, PUT, PATCH, DELETE, HEAD, OPTIONS");
    expect(await allow("GET", "/api/tasks/999/")).toBe("GET, PUT, PATCH, DELETE, HEAD, OPTIONS");
    expect(await allow("POST", "/api/dm/views/order/")).toBe("POST, OPTIONS");
    expect(await allow("GET", "/api/current-user/whoami")).toBe("GET, HEAD, OPTIONS");
    expect(await allow("GET", "/api/users/")).toBe("GET, POST, HEAD");
    const wrong = await raw(server, "PUT", "/api/dm/actions/?project=1", { body: {} });
    expect([wrong.status, wrong.headers.get("allow"), wrong.body.detail]).toEqual([
      405,
      "GET, POST, HEAD, OPTIONS",
      'Method "PUT" not allowed.',
    ]);
  });

  test("Vary: origin and the security headers on every answer; no cache headers", async () => {
    const r = await raw(server, "GET", "/api/projects/1/");
    expect(r.headers.get("vary")).toBe("origin");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("referrer-policy")).toBe("same-origin");
    expect(r.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(r.headers.get("cache-control")).toBeNull();
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("CORS: any origin, no credentials; the preflight is answered before authentication", async () => {
    const r = await raw(server, "GET", "/api/projects/1/", { headers: { origin: "http://elsewhere.example" } });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    const preflight = await raw(server, "OPTIONS", "/api/projects/1/", {
      key: null,
      headers: { origin: "http://elsewhere.example", "access-control-request-method": "PATCH" },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("DELETE, GET, OPTIONS, PATCH, POST, PUT");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with",
    );
    expect(preflight.headers.get("access-control-max-age")).toBe("86400");
  });

  test("U+2028 and U+2029 are escaped in the JSON text, as DRF's JSONRenderer does", async () => {
    await raw(server, "PATCH", "/api/tasks/1/", { body: { meta: { note: "a\u2028b\u2029c" } } });
    const response = await fetch(`${server.url}/api/tasks/1/`, { headers: { authorization: `Token ${server.legacyToken}` } });
    const text = await response.text();
    expect(text).toContain("a\\u2028b\\u2029c");
    expect((JSON.parse(text) as { meta: { note: string } }).meta.note).toBe("a\u2028b\u2029c");
    // The list page is joined from kept item texts (and checked item by item): the same escape, read twice (the
    // second page from the kept texts).
    for (let read = 0; read < 2; read++) {
      const list = await fetch(`${server.url}/api/tasks/?project=1&page_size=100`, {
        headers: { authorization: `Token ${server.legacyToken}` },
      });
      const listText = await list.text();
      expect(listText).toContain("a\\u2028b\\u2029c");
      expect(listText).not.toMatch(/[\u2028\u2029]/);
    }
  });
});
