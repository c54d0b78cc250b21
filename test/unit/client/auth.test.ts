import { decodeJwt } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { faults, passthrough, reply, type MockServer, type RouteKey } from "../../../mock-server/index.js";
import { ApiError, ClientConfigError, createClient } from "../../../src/client/index.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { LEGACY_KEY, mintJwt } from "./fixtures.js";
import { startMock } from "./on-mock.js";

/*
 * Authentication against the mock, which issues personal access tokens and access tokens as the
 * server does (mock-server/tokens.ts) and checks them on its own clock. What the client sends is
 * recorded by overrides that pass the request on (`mock.use`); answers the mock would not give (a
 * token without exp, a server clock an hour behind) are overrides too.
 */
const whoami = { id: 1, username: "u", email: "u@example.com", first_name: "", last_name: "" };

/** The mock's clock: it decides the tokens' iat and exp and when they expire. */
let serverClock: VirtualClock;
let mock: MockServer;
beforeAll(async () => {
  serverClock = new VirtualClock(Date.UTC(2030, 0, 1));
  mock = await startMock({ clock: serverClock, accessTokenLifetime: 300 });
});
afterAll(() => mock.close());
beforeEach(async () => {
  serverClock.set(Date.UTC(2030, 0, 1));
  await mock.reset();
});

interface Sent {
  readonly body: unknown;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
}

/** What the client sends on `route`, recorded as sent (credentials included); the mock answers as usual. */
function record(route: RouteKey): Sent[] {
  const sent: Sent[] = [];
  mock.use(route, (request) => {
    sent.push({ body: request.body, authorization: request.headers.authorization, contentType: request.headers["content-type"] });
    return passthrough();
  });
  return sent;
}
const bearers = (sent: readonly Sent[]) => sent.map((s) => s.authorization);
/** The access token in `Bearer <access>`. */
const tokenOf = (authorization: string | undefined) => authorization?.replace(/^Bearer /, "") ?? "";

describe("legacy token", () => {
  test("is sent as Authorization: Token <key>, with no exchange", async () => {
    const calls = record("GET /api/current-user/whoami");
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    expect(client.authMode).toBe("legacy token");
    await expect(client.users.whoami()).resolves.toMatchObject(whoami);
    expect(bearers(calls)).toEqual([`Token ${LEGACY_KEY}`]);
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/current-user/whoami"]);
  });

  test("a 401 is final: no refresh, no retry", async () => {
    const client = createClient({ baseUrl: mock.url, apiKey: "not-the-right-legacy-key" });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(401);
    expect(mock.requests).toHaveLength(1);
  });
});

describe("personal access token", () => {
  test("is exchanged at POST /api/token/refresh/ {refresh}, then sent as Bearer <access>", async () => {
    const refreshes = record("POST /api/token/refresh/");
    const calls = record("GET /api/current-user/whoami");
    const pat = mock.personalAccessToken;
    const client = createClient({ baseUrl: mock.url, apiKey: pat, clock: serverClock });
    expect(client.authMode).toBe("personal access token");

    await client.users.whoami();
    await client.users.whoami();

    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({ body: { refresh: pat }, authorization: undefined });
    expect(String(refreshes[0]?.contentType)).toMatch(/^application\/json/);
    expect(mock.requests[0]).toMatchObject({ method: "POST", path: "/api/token/refresh/" });
    const access = tokenOf(calls[0]?.authorization);
    expect(decodeJwt(access).token_type).toBe("access");
    expect(bearers(calls)).toEqual([`Bearer ${access}`, `Bearer ${access}`]);
  });

  test("the access token is refreshed shortly before its exp, never used after it", async () => {
    const clock = new VirtualClock(serverClock.now());
    const start = clock.now();
    const refreshes = record("POST /api/token/refresh/");
    const calls = record("GET /api/current-user/whoami");
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock });

    await client.users.whoami();
    // Life 300 s from exp - iat, less 1 s for whole-second claims: 299 s; refreshed a tenth of that
    // (29.9 s, under the 30 s cap) early, i.e. 269.1 s after it arrived.
    clock.set(start + 269_099); // cached
    serverClock.set(start + 269_099);
    await client.users.whoami();
    expect(refreshes).toHaveLength(1);

    clock.set(start + 269_100); // refreshed
    serverClock.set(start + 269_100);
    await client.users.whoami();
    expect(refreshes).toHaveLength(2);
    const [first, , second] = calls.map((c) => tokenOf(c.authorization));
    expect(bearers(calls)).toEqual([`Bearer ${first}`, `Bearer ${first}`, `Bearer ${second}`]);
    expect(second).not.toBe(first);
    // The server saw the first token only while it was valid.
    expect(decodeJwt(first!).exp! * 1000).toBe(start + 300_000);
  });

  test("a server clock an hour behind does not cause a refresh per request (lifetime from exp - iat)", async () => {
    let refreshes = 0;
    mock.use("POST /api/token/refresh/", async () => {
      refreshes++;
      const iat = Math.floor(Date.now() / 1000) - 3600;
      return { access: await mintJwt({ token_type: "access", iat, exp: iat + 300 }) };
    });
    mock.use("GET /api/current-user/whoami", reply(200, whoami));
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken });
    for (let i = 0; i < 5; i++) await client.users.whoami();
    expect(refreshes).toBe(1);
  });

  test("an access token without exp is kept until a 401 says otherwise", async () => {
    let issued = 0;
    let reject = false;
    const seen: unknown[] = [];
    mock.use("POST /api/token/refresh/", () => ({ access: `opaque-access-token-${++issued}` }));
    mock.use("GET /api/current-user/whoami", (request) => {
      seen.push(request.headers.authorization);
      if (reject && request.headers.authorization === "Bearer opaque-access-token-1") {
        return reply(401, { detail: "Authentication credentials were not provided." });
      }
      return reply(200, whoami);
    });
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: serverClock });
    await client.users.whoami();
    await client.users.whoami();
    expect(issued).toBe(1);
    reject = true;
    await client.users.whoami();
    expect(issued).toBe(2);
    expect(seen.at(-1)).toBe("Bearer opaque-access-token-2");
  });

  test("a 401 saying the access token is not accepted triggers one refresh and one resend", async () => {
    const refreshes = record("POST /api/token/refresh/");
    const calls = record("GET /api/current-user/whoami");
    // The client's clock stays; the server's runs past the access token's 300 s: it expired early on the server's clock.
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: new VirtualClock(serverClock.now()) });
    await client.users.whoami();
    serverClock.advance(301_000);

    await expect(client.users.whoami()).resolves.toMatchObject(whoami);
    expect(refreshes).toHaveLength(2);
    expect(calls).toHaveLength(3);
    expect(mock.requests.map((r) => r.status)).toEqual([200, 200, 401, 200, 200]);
    expect(calls[2]?.authorization).not.toBe(calls[1]?.authorization);
  });

  test("simplejwt's token_not_valid answer also triggers the refresh", async () => {
    const refreshes = record("POST /api/token/refresh/");
    mock.use("GET /api/current-user/whoami", reply(401, { detail: "Given token not valid for any token type", code: "token_not_valid" }), {
      times: 1,
    });
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: serverClock });
    await expect(client.users.whoami()).resolves.toMatchObject(whoami);
    expect(refreshes).toHaveLength(2);
  });

  test("a second 401 after the refresh is final (no loop)", async () => {
    const refreshes = record("POST /api/token/refresh/");
    mock.use("GET /api/current-user/whoami", faults.status(401, { detail: "Authentication credentials were not provided." }));
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: serverClock });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("GET /api/current-user/whoami → 401: Authentication credentials were not provided.");
    expect(refreshes).toHaveLength(2);
    expect(mock.requests.filter((r) => r.path === "/api/current-user/whoami")).toHaveLength(2);
  });

  test("other 401s (e.g. no organization) do not trigger a refresh", async () => {
    const refreshes = record("POST /api/token/refresh/");
    mock.use("GET /api/current-user/whoami", reply(401, { detail: "User not found" }));
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: serverClock });
    await expect(client.users.whoami()).rejects.toMatchObject({ statusCode: 401 });
    expect(refreshes).toHaveLength(1);
  });

  test("20 concurrent requests share one refresh", async () => {
    const refreshes = record("POST /api/token/refresh/");
    const calls = record("GET /api/current-user/whoami");
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: serverClock });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.users.whoami()));
    expect(results).toHaveLength(20);
    expect(refreshes).toHaveLength(1);
    expect(new Set(bearers(calls)).size).toBe(1);
  });

  test("20 concurrent requests rejected with the same stale token share one re-refresh", async () => {
    const refreshes = record("POST /api/token/refresh/");
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: new VirtualClock(serverClock.now()) });
    await client.users.whoami();
    serverClock.advance(301_000);
    await Promise.all(Array.from({ length: 20 }, () => client.users.whoami()));
    expect(refreshes).toHaveLength(2);
  });

  test("a failed exchange is an ApiError of the refresh call, and the next request tries again", async () => {
    mock.use("POST /api/token/refresh/", faults.status(401, { detail: "Token is blacklisted" }), { times: 1 });
    const client = createClient({ baseUrl: mock.url, apiKey: mock.personalAccessToken, clock: serverClock });
    const error = await client.users.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("POST /api/token/refresh/ → 401: Token is blacklisted");
    expect(mock.requests.map((r) => r.path)).toEqual(["/api/token/refresh/"]);
    await expect(client.users.whoami()).resolves.toMatchObject(whoami);
  });

  test("a refresh answer without an access token is reported without showing the body", async () => {
    const pat = mock.personalAccessToken;
    mock.use("POST /api/token/refresh/", reply(200, { refresh: pat, acces: "x" }));
    const client = createClient({ baseUrl: mock.url, apiKey: pat, clock: serverClock });
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
    // A token that lives ten minutes: the mock's live for years, so this one is the test's own, and so are the answers to it.
    const pat = await mintJwt({ token_type: "refresh", exp: clock.now() / 1000 + 600 });
    mock.use("POST /api/token/refresh/", async () => ({
      access: await mintJwt({ token_type: "access", iat: clock.now() / 1000, exp: clock.now() / 1000 + 300 }),
    }));
    mock.use("GET /api/current-user/whoami", reply(200, whoami));
    const client = createClient({ baseUrl: mock.url, apiKey: pat, clock });
    await client.users.whoami();
    clock.set(Date.UTC(2030, 0, 1, 1));
    await expect(client.users.whoami()).rejects.toThrow("found one that expired at 2030-01-01T00:10:00Z");
    expect(mock.requests.filter((r) => r.path === "/api/token/refresh/")).toHaveLength(1);
  });
});
