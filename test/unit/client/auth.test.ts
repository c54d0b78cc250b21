import { decodeJwt } from "jose";
import { afterEach, describe, expect, test } from "vitest";
import { ApiError, ClientConfigError, createClient } from "../../../src/client/index.js";
import { errorBody, json, startTestServer, type TestServer } from "../../helpers/http-server.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { LEGACY_KEY, TokenAuthority, mintJwt, personalAccessToken } from "./fixtures.js";

const whoami = { id: 1, username: "ann", email: "ann@example.com", first_name: "Ann", last_name: "Lee" };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that answers whoami to accepted credentials and 401 otherwise. */
async function authServer(authority: TokenAuthority): Promise<TestServer> {
  server = await startTestServer(async (request, res) => {
    if (await authority.handleRefresh(request, res)) return;
    if (!authority.accepts(request)) return authority.reject(res);
    json(res, 200, whoami);
  });
  return server;
}

const apiCalls = (s: TestServer) => s.requests.filter((r) => r.path !== "/api/token/refresh/");

describe("legacy token", () => {
  test("is sent as Authorization: Token <key>, with no exchange", async () => {
    const s = await authServer(new TokenAuthority("unused"));
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    expect(client.authMode).toBe("legacy token");
    await expect(client.users.whoami()).resolves.toEqual(whoami);
    expect(s.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ["GET", "/api/current-user/whoami", `Token ${LEGACY_KEY}`],
    ]);
  });

  test("a 401 is final: no refresh, no retry", async () => {
    const s = await authServer(new TokenAuthority("unused"));
    const client = createClient({ baseUrl: s.url, apiKey: "not-the-right-legacy-key" });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(401);
    expect(s.requests).toHaveLength(1);
  });
});

describe("personal access token", () => {
  test("is exchanged at POST /api/token/refresh/ {refresh}, then sent as Bearer <access>", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    const s = await authServer(authority);
    const client = createClient({ baseUrl: s.url, apiKey: pat });
    expect(client.authMode).toBe("personal access token");

    await client.users.whoami();
    await client.users.whoami();

    expect(authority.refreshes).toHaveLength(1);
    const [refresh] = authority.refreshes;
    expect(refresh?.method).toBe("POST");
    expect(refresh?.body).toEqual({ refresh: pat });
    expect(refresh?.headers.authorization).toBeUndefined();
    expect(String(refresh?.headers["content-type"])).toMatch(/^application\/json/);
    const access = authority.issued[0];
    expect(apiCalls(s).map((r) => r.headers.authorization)).toEqual([`Bearer ${access}`, `Bearer ${access}`]);
  });

  test("the access token is refreshed shortly before its exp, never used after it", async () => {
    const clock = new VirtualClock(Date.UTC(2030, 0, 1));
    const start = new Date(clock.now());
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat, () => clock.now());
    authority.lifetimeSeconds = 300;
    const s = await authServer(authority);
    const client = createClient({ baseUrl: s.url, apiKey: pat, clock });

    await client.users.whoami();
    // Life 300 s from exp - iat, less 1 s for whole-second claims: 299 s; refreshed a tenth of that
    // (29.9 s, under the 30 s cap) early, i.e. 269.1 s after it arrived.
    clock.set(start.getTime() + 269_099); // cached
    await client.users.whoami();
    expect(authority.refreshes).toHaveLength(1);

    clock.set(start.getTime() + 269_100); // refreshed
    await client.users.whoami();
    expect(authority.refreshes).toHaveLength(2);
    const [first, second] = authority.issued;
    const calls = apiCalls(s);
    expect(calls.map((r) => r.headers.authorization)).toEqual([`Bearer ${first}`, `Bearer ${first}`, `Bearer ${second}`]);
    // The server saw the first token only while it was valid.
    expect(decodeJwt(first!).exp! * 1000).toBeGreaterThan(start.getTime() + 200_000);
  });

  test("a server clock an hour behind does not cause a refresh per request (lifetime from exp - iat)", async () => {
    const pat = await personalAccessToken();
    const refreshes: number[] = [];
    server = await startTestServer(async (request, res) => {
      if (request.path === "/api/token/refresh/") {
        refreshes.push(1);
        const iat = Math.floor(Date.now() / 1000) - 3600;
        return json(res, 200, { access: await mintJwt({ token_type: "access", iat, exp: iat + 300 }) });
      }
      json(res, 200, whoami);
    });
    const client = createClient({ baseUrl: server.url, apiKey: pat });
    for (let i = 0; i < 5; i++) await client.users.whoami();
    expect(refreshes).toHaveLength(1);
  });

  test("an access token without exp is kept until a 401 says otherwise", async () => {
    const pat = await personalAccessToken();
    let issued = 0;
    let reject = false;
    server = await startTestServer(async (request, res) => {
      if (request.path === "/api/token/refresh/") return json(res, 200, { access: `opaque-access-token-${++issued}` });
      if (reject && request.headers.authorization === "Bearer opaque-access-token-1") {
        return json(res, 401, { detail: "Authentication credentials were not provided." });
      }
      json(res, 200, whoami);
    });
    const client = createClient({ baseUrl: server.url, apiKey: pat });
    await client.users.whoami();
    await client.users.whoami();
    expect(issued).toBe(1);
    reject = true;
    await client.users.whoami();
    expect(issued).toBe(2);
    expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer opaque-access-token-2");
  });

  test("a 401 saying the access token is not accepted triggers one refresh and one resend", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    const s = await authServer(authority);
    const client = createClient({ baseUrl: s.url, apiKey: pat });
    await client.users.whoami();
    authority.revoked.add(authority.issued[0]!); // e.g. expired early on the server's clock

    await expect(client.users.whoami()).resolves.toEqual(whoami);
    expect(authority.refreshes).toHaveLength(2);
    const calls = apiCalls(s);
    expect(calls).toHaveLength(3);
    expect(calls[2]?.headers.authorization).toBe(`Bearer ${authority.issued[1]}`);
  });

  test("simplejwt's token_not_valid answer also triggers the refresh", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    let rejectOnce = true;
    server = await startTestServer(async (request, res) => {
      if (await authority.handleRefresh(request, res)) return;
      if (rejectOnce) {
        rejectOnce = false;
        return json(res, 401, { detail: "Given token not valid for any token type", code: "token_not_valid" });
      }
      json(res, 200, whoami);
    });
    const client = createClient({ baseUrl: server.url, apiKey: pat });
    await expect(client.users.whoami()).resolves.toEqual(whoami);
    expect(authority.refreshes).toHaveLength(2);
  });

  test("a second 401 after the refresh is final (no loop)", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    server = await startTestServer(async (request, res) => {
      if (await authority.handleRefresh(request, res)) return;
      authority.reject(res);
    });
    const client = createClient({ baseUrl: server.url, apiKey: pat });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("GET /api/current-user/whoami → 401: Authentication credentials were not provided.");
    expect(authority.refreshes).toHaveLength(2);
    expect(apiCalls(server)).toHaveLength(2);
  });

  test("other 401s (e.g. no organization) do not trigger a refresh", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    server = await startTestServer(async (request, res) => {
      if (await authority.handleRefresh(request, res)) return;
      json(res, 401, { detail: "User not found" });
    });
    const client = createClient({ baseUrl: server.url, apiKey: pat });
    await expect(client.users.whoami()).rejects.toMatchObject({ statusCode: 401 });
    expect(authority.refreshes).toHaveLength(1);
  });

  test("20 concurrent requests share one refresh", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    const s = await authServer(authority);
    const client = createClient({ baseUrl: s.url, apiKey: pat });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.users.whoami()));
    expect(results).toHaveLength(20);
    expect(authority.refreshes).toHaveLength(1);
    expect(new Set(apiCalls(s).map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${authority.issued[0]}`]));
  });

  test("20 concurrent requests rejected with the same stale token share one re-refresh", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    const s = await authServer(authority);
    const client = createClient({ baseUrl: s.url, apiKey: pat });
    await client.users.whoami();
    authority.revoked.add(authority.issued[0]!);
    await Promise.all(Array.from({ length: 20 }, () => client.users.whoami()));
    expect(authority.refreshes).toHaveLength(2);
  });

  test("a failed exchange is an ApiError of the refresh call, and the next request tries again", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    const s = await authServer(authority);
    authority.failNextRefresh = { status: 401, body: errorBody(401, "Token is blacklisted") };
    const client = createClient({ baseUrl: s.url, apiKey: pat });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("POST /api/token/refresh/ → 401: Token is blacklisted");
    expect(apiCalls(s)).toHaveLength(0);
    await expect(client.users.whoami()).resolves.toEqual(whoami);
  });

  test("a refresh answer without an access token is reported without showing the body", async () => {
    const pat = await personalAccessToken();
    server = await startTestServer((_request, res) => json(res, 200, { refresh: pat, acces: "x" }));
    const client = createClient({ baseUrl: server.url, apiKey: pat });
    const error = (await client.users.whoami().catch((e: unknown) => e)) as ApiError;
    expect(error.name).toBe("UnexpectedResponseError");
    expect(error.message).toBe("POST /api/token/refresh/ → 200: expected access to be a string, found nothing (undefined)");
    expect(JSON.stringify(error)).not.toContain(pat);
  });

  test("an expired personal access token is refused when the client is created", async () => {
    const pat = await mintJwt({ token_type: "refresh", exp: Math.floor(Date.parse("2020-05-01T00:00:00Z") / 1000) });
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", apiKey: pat })).toThrow(
      new ClientConfigError(
        "apiKey",
        "a personal access token that has not expired",
        "one that expired at 2020-05-01T00:00:00Z",
        "create a new personal access token on the server's Account & Settings page",
      ),
    );
  });

  test("a personal access token without exp is refused when the client is created", async () => {
    const pat = await mintJwt({ token_type: "refresh" });
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", apiKey: pat })).toThrow(
      "apiKey: expected a personal access token with an expiry (exp claim), found a JWT without exp",
    );
  });

  test("an access token given as the key is refused with a hint", async () => {
    const access = await mintJwt({ token_type: "access", exp: Math.floor(Date.now() / 1000) + 60 });
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", apiKey: access })).toThrow(
      /found a JWT with token_type "access"; .*pass the personal access token/,
    );
  });

  test("a personal access token that expires while the client lives is reported at the next exchange", async () => {
    const clock = new VirtualClock(Date.UTC(2030, 0, 1));
    const pat = await mintJwt({ token_type: "refresh", exp: clock.now() / 1000 + 600 });
    const authority = new TokenAuthority(pat, () => clock.now());
    const s = await authServer(authority);
    const client = createClient({ baseUrl: s.url, apiKey: pat, clock });
    await client.users.whoami();
    clock.set(Date.UTC(2030, 0, 1, 1));
    await expect(client.users.whoami()).rejects.toThrow("found one that expired at 2030-01-01T00:10:00Z");
    expect(authority.refreshes).toHaveLength(1);
  });
});
