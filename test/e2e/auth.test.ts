import { decodeJwt } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ApiError } from "../../src/client/index.js";
import type { MockServer } from "../../mock-server/index.js";
import { VirtualClock } from "../helpers/virtual-clock.js";
import { BO_KEY, clientFor, raw, startFixture } from "./fixture.js";

let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const handlerBody = (status: number, detail: string) => ({
  id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  status_code: status,
  version: expect.any(String),
  detail,
  exc_info: null,
});

describe("legacy token", () => {
  test("the client's Token scheme reaches whoami; the journal shows the scheme, never the key", async () => {
    const client = clientFor(server);
    expect(client.authMode).toBe("legacy token");
    const me = await client.users.whoami();
    expect(me).toMatchObject({ id: 1, username: "ada", email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" });
    expect(me.permissions).toEqual(expect.arrayContaining(["projects.view", "tasks.delete", "predictions.any"]));
    const entry = server.requests.at(-1);
    expect(entry).toMatchObject({ method: "GET", path: "/api/current-user/whoami", status: 200 });
    expect(entry?.headers["authorization"]).toBe("Token [redacted]");
    expect(JSON.stringify(server.requests)).not.toContain(server.legacyToken);
  });

  test("another user's key, and X-Api-Key", async () => {
    expect((await clientFor(server, BO_KEY).users.whoami()).username).toBe("bo");
    const viaHeader = await raw(server, "GET", "/api/current-user/whoami", { key: null, headers: { "X-Api-Key": BO_KEY } });
    expect([viaHeader.status, viaHeader.body.username]).toEqual([200, "bo"]);
  });
});

describe("personal access token", () => {
  test("the startup PAT is a JWT refresh token with exp; the client exchanges it and sends Bearer", async () => {
    const claims = decodeJwt(server.personalAccessToken);
    expect(claims).toMatchObject({ token_type: "refresh", user_id: 1 });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 100 * 365 * 86400);
    const client = clientFor(server, server.personalAccessToken);
    expect(client.authMode).toBe("personal access token");
    expect((await client.users.whoami()).username).toBe("ada");
    expect((await client.projects.get(1)).title).toBe("Fixture");
    const paths = server.requests.map((r) => `${r.method} ${r.path} ${r.headers["authorization"] ?? "-"}`);
    expect(paths).toEqual([
      "POST /api/token/refresh/ -",
      "GET /api/current-user/whoami Bearer [redacted]",
      "GET /api/projects/1/ Bearer [redacted]",
    ]);
    expect(server.requests[0]?.body).toEqual({ refresh: "[redacted]" });
  });

  test("POST /api/token/ creates a PAT for the caller (201), a second one is a 409; list, rotate, blacklist", async () => {
    const created = await raw(server, "POST", "/api/token/", { body: {} });
    expect(created.status).toBe(201);
    const pat = created.body.token as string;
    expect(decodeJwt(pat)).toMatchObject({ token_type: "refresh", user_id: 1 });
    expect((await clientFor(server, pat).users.whoami()).username).toBe("ada");

    const again = await raw(server, "POST", "/api/token/");
    expect(again.status).toBe(409);
    expect(again.body).toEqual(handlerBody(409, "You already have a valid token. Please revoke it before creating a new one."));

    const listed = await raw(server, "GET", "/api/token/");
    expect(listed.body).toEqual([{ token: pat.split(".").slice(0, 2).join(".") }]);

    const rotated = await raw(server, "POST", "/api/token/rotate/", { body: { refresh: pat } });
    expect(rotated.status).toBe(200);
    const refreshOld = await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh: pat } });
    expect(refreshOld.status).toBe(401);
    expect(refreshOld.body.detail).toBe("Token is blacklisted");

    const revoke = await raw(server, "POST", "/api/token/blacklist/", { body: { refresh: rotated.body.refresh } });
    expect(revoke.status).toBe(204);
    const twice = await raw(server, "POST", "/api/token/blacklist/", { body: { refresh: rotated.body.refresh } });
    expect([twice.status, twice.body]).toEqual([404, { detail: "Token is invalid or already blacklisted." }]);
    expect((await raw(server, "GET", "/api/token/")).body).toEqual([]);
    expect((await raw(server, "POST", "/api/token/")).status).toBe(201);
  });

  test("refresh: an access JWT with a future exp; errors as simplejwt's", async () => {
    const ok = await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh: server.personalAccessToken } });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body)).toEqual(["access"]);
    const access = decodeJwt(ok.body.access);
    expect(access.token_type).toBe("access");
    expect(access.exp).toBeGreaterThan(Date.now() / 1000);

    const missing = await raw(server, "POST", "/api/token/refresh", { key: null, body: {} });
    expect([missing.status, missing.body.validation_errors]).toEqual([400, { refresh: ["This field is required."] }]);
    const garbage = await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh: "x.y.z" } });
    expect([garbage.status, garbage.body.detail]).toEqual([401, "Token is invalid"]);
    const wrongType = await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh: ok.body.access } });
    expect([wrongType.status, wrongType.body.detail]).toEqual([401, "Token has wrong type"]);
  });

  test("an access token past its exp no longer authenticates; the client refreshes before exp", async () => {
    // One virtual clock for the mock (token lifetimes) and the client: nothing waits.
    const clock = new VirtualClock();
    const shortLived = await startFixture({ accessTokenLifetime: 60, clock });
    try {
      const refresh = { refresh: shortLived.personalAccessToken };
      const { body } = await raw(shortLived, "POST", "/api/token/refresh/", { key: null, body: refresh });
      const bearer = { authorization: `Bearer ${body.access}` };
      clock.advance(59_999);
      expect((await raw(shortLived, "GET", "/api/current-user/whoami", { key: null, headers: bearer })).status).toBe(200);
      clock.advance(1);
      const stale = await raw(shortLived, "GET", "/api/current-user/whoami", { key: null, headers: bearer });
      expect([stale.status, stale.body.detail]).toEqual([401, "Authentication credentials were not provided."]);
      const client = clientFor(shortLived, shortLived.personalAccessToken, { clock });
      await client.users.whoami();
      clock.advance(61_000);
      await client.users.whoami();
      const paths = shortLived.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
      expect(paths.slice(3)).toEqual([
        "POST /api/token/refresh/ 200",
        "GET /api/current-user/whoami 200",
        "POST /api/token/refresh/ 200",
        "GET /api/current-user/whoami 200",
      ]);
    } finally {
      await shortLived.close();
    }
  });
});

describe("both schemes reach every resource", () => {
  const reads = [
    "/api/projects/",
    "/api/projects/1/",
    "/api/tasks/?project=1",
    "/api/tasks/1/",
    "/api/tasks/1/annotations/",
    "/api/annotations/1/",
    "/api/predictions/",
    "/api/predictions/1/",
    "/api/dm/views/?project=1",
    "/api/dm/views/1/",
    "/api/dm/actions/?project=1",
    "/api/dm/actions/predictions_to_annotations/form/?project=1",
    "/api/token/",
  ];
  test("legacy Token, X-Api-Key and Bearer access token give the same answers", async () => {
    const { body } = await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh: server.personalAccessToken } });
    const schemes = [
      { authorization: `Token ${server.legacyToken}` },
      { "x-api-key": server.legacyToken },
      { authorization: `Bearer ${body.access}` },
    ];
    for (const path of reads) {
      const answers = [];
      for (const headers of schemes) answers.push(await raw(server, "GET", path, { key: null, headers }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const strip = (b: unknown) => JSON.stringify(b).replace(/"created_ago":"[^"]*"/g, "");
      expect(new Set(answers.map((a) => strip(a.body))).size).toBe(1);
    }
    const write = await raw(server, "POST", "/api/dm/actions/?id=delete_tasks&project=1", {
      key: null,
      headers: { authorization: `Bearer ${body.access}` },
      body: { selectedItems: { all: false, included: [5] } },
    });
    expect(write.body).toEqual({ processed_items: 1, reload: false, detail: "Deleted 1 tasks" });
  });
});

describe("401s are the server's", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["no credentials", {}, "Authentication credentials were not provided."],
    ["an unknown key", { authorization: "Token nope" }, "Invalid token."],
    ["Token without a key", { authorization: "Token" }, "Invalid token header. No credentials provided."],
    ["a key with spaces", { authorization: "Token a b" }, "Invalid token header. Token string should not contain spaces."],
    ["a legacy key under Bearer", { authorization: `Bearer ${BO_KEY}` }, "Authentication credentials were not provided."],
  ];
  for (const [name, headers, detail] of cases) {
    test(name, async () => {
      const r = await raw(server, "GET", "/api/projects/", { key: null, headers });
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe("Token");
      expect(r.body).toEqual(handlerBody(401, detail));
    });
  }

  test("a PAT sent directly as Bearer needs real credentials", async () => {
    const pat = await raw(server, "GET", "/api/projects/", {
      key: null,
      headers: { authorization: `Bearer ${server.personalAccessToken}` },
    });
    expect(pat.status).toBe(401);
  });

  test("the client surfaces a 401 as ApiError without retrying", async () => {
    const client = clientFor(server, "not-a-key", { maxRetries: 2 });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(401);
    expect(server.requests).toHaveLength(1);
  });
});
