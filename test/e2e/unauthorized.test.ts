import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { authMessages } from "../../mock-server/auth.js";
import type { MockServer } from "../../mock-server/index.js";
import { routes } from "../../mock-server/routes/index.js";
import { VirtualClock } from "../helpers/virtual-clock.js";
import { ADA_KEY, raw, startFixture } from "./fixture.js";

/**
 * Every route but the token exchange answers 401 to every credential that is missing, malformed,
 * unknown, expired or of the wrong kind, for every method (DRF authenticates before it looks at the
 * method), and the answer holds nothing but the error.
 */
const clock = new VirtualClock();
let server: MockServer;
const credentials: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  server = await startFixture({ clock, accessTokenLifetime: 60 });
  const exchange = async () =>
    (await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh: server.personalAccessToken } })).body.access as string;
  const expired = await exchange();
  clock.advance(60_000);
  const access = await exchange();
  const foreign = await new SignJWT({ token_type: "access", user_id: 1, jti: "f" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(clock.now() / 1000)
    .setExpirationTime(clock.now() / 1000 + 300)
    .sign(new Uint8Array(32));
  const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${Buffer.from(
    JSON.stringify({ token_type: "access", user_id: 1, jti: "n", exp: clock.now() / 1000 + 300 }),
  ).toString("base64url")}.`;
  Object.assign(credentials, {
    missing: {},
    "empty header": { authorization: "" },
    "scheme only": { authorization: "Token" },
    "key with a space": { authorization: `Token ${ADA_KEY} x` },
    "Bearer without token": { authorization: "Bearer" },
    "Basic credentials": { authorization: `Basic ${Buffer.from("ada:secret").toString("base64")}` },
    "unknown scheme": { authorization: `Key ${ADA_KEY}` },
    "unknown legacy key": { authorization: "Token 0000000000000000000000000000000000000000" },
    "unknown X-Api-Key (wins over a valid Authorization)": { "x-api-key": "nope", authorization: `Token ${ADA_KEY}` },
    "expired access token": { authorization: `Bearer ${expired}` },
    "legacy key as Bearer": { authorization: `Bearer ${ADA_KEY}` },
    "personal access (refresh) token as Bearer": { authorization: `Bearer ${server.personalAccessToken}` },
    "access token under Token": { authorization: `Token ${access}` },
    "access token of another server": { authorization: `Bearer ${foreign}` },
    "unsigned access token": { authorization: `Bearer ${unsigned}` },
    garbage: { authorization: "\u00ff\u00fe" },
  });
  // The valid one, to show the paths are real.
  expect((await raw(server, "GET", "/api/current-user/whoami", { key: null, headers: { authorization: `Bearer ${access}` } })).status).toBe(
    200,
  );
});
afterAll(() => server.close());

/** A concrete URL for a route pattern. */
const concrete = (pattern: string) => pattern.replace(/:\w+\([^)]*\)/g, "1").replace(/:action/g, "delete_tasks");
const guarded = routes.filter((r) => r.auth === undefined).map((r) => concrete(r.path));
/** Paths whose server pattern has no trailing slash: with one they are not routed (the 404 page comes before authentication). */
const slashless = new Set(routes.filter((r) => r.slash === false).map((r) => concrete(r.path)));
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const messages: readonly string[] = Object.values(authMessages);

/** A 401 in the server's shape and nothing else. */
function expectRefused(answer: Awaited<ReturnType<typeof raw>>, method: string, where: string): void {
  expect(answer.status, where).toBe(401);
  expect(answer.headers.get("www-authenticate"), where).toBe("Token");
  if (method === "HEAD") return;
  expect(Object.keys(answer.body).sort(), where).toEqual(["detail", "exc_info", "id", "status_code", "version"]);
  expect([answer.body.status_code, answer.body.exc_info], where).toEqual([401, null]);
  expect(messages, where).toContain(answer.body.detail);
}

const bodyFor = (method: string) => (["POST", "PUT", "PATCH"].includes(method) ? { body: { project: 1, title: "x", data: {} } } : {});

describe("every route answers 401 and no data", () => {
  test.each(guarded)("%s: to every bad credential (methods and path forms in turn), and to no credential with any method", async (path) => {
    const before = JSON.stringify(server.data());
    const slash = slashless.has(path) ? "" : "/";
    const forms = [path, `${path}${slash}`, `${path}${slash}?project=1&page_size=100`];
    let turn = 0;
    for (const [name, headers] of Object.entries(credentials)) {
      const method = METHODS[turn % METHODS.length] as string;
      const variant = forms[turn++ % forms.length] as string;
      expectRefused(
        await raw(server, method, variant, { key: null, headers, ...bodyFor(method) }),
        method,
        `${method} ${variant} with ${name}`,
      );
    }
    for (const method of METHODS) {
      expectRefused(
        await raw(server, method, `${path}${slash}`, { key: null, ...bodyFor(method) }),
        method,
        `${method} ${path}${slash} without credentials`,
      );
    }
    if (slash === "") expect((await raw(server, "GET", `${path}/`, { key: null })).status).toBe(404);
    expect(JSON.stringify(server.data())).toBe(before);
  });

  test("the token exchange needs no credential, but refuses a bad refresh token with 401", async () => {
    for (const refresh of ["x.y.z", ADA_KEY, server.personalAccessToken.slice(0, -2)]) {
      const answer = await raw(server, "POST", "/api/token/refresh/", { key: null, body: { refresh } });
      expect(answer.status).toBe(401);
      expect(Object.keys(answer.body).sort()).toEqual(["detail", "exc_info", "id", "status_code", "version"]);
    }
  });
});
