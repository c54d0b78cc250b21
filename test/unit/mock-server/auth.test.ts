import { decodeJwt, SignJWT } from "jose";
import { describe, expect, test } from "vitest";
import { authenticate, authMessages } from "../../../mock-server/auth.js";
import { HttpProblem } from "../../../mock-server/errors.js";
import { loadSeed } from "../../../src/contract/seed.js";
import { Store } from "../../../mock-server/store/store.js";
import { looksLikeJwt, secretsEqual, TokenService, truncateToken } from "../../../mock-server/tokens.js";

const KEY = "0123456789abcdef0123456789abcdef01234567";
function setup(accessLifetime?: number) {
  const store = new Store(
    loadSeed(
      {
        users: [
          { id: 1, username: "ada", token: KEY },
          { id: 2, username: "bo", token: "other-key" },
        ],
      },
      "2024-01-01T00:00:00.000000Z",
    ),
  );
  return { store, tokens: new TokenService(accessLifetime) };
}

async function failure(promise: Promise<unknown>): Promise<HttpProblem> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
  throw new Error("authenticated");
}

describe("tokens", () => {
  test("issued JWTs carry the server's claims and a future exp", async () => {
    const { tokens } = setup();
    const now = Date.now() / 1000;
    const access = decodeJwt(await tokens.issue("access", 1));
    const refresh = decodeJwt(await tokens.issue("refresh", 1));
    expect(access).toMatchObject({ token_type: "access", user_id: 1 });
    expect(refresh).toMatchObject({ token_type: "refresh", user_id: 1 });
    expect(access.exp).toBeGreaterThan(now + 290);
    expect(access.exp).toBeLessThan(now + 310);
    expect(refresh.exp).toBeGreaterThan(now + 199 * 365 * 86400);
    expect(access.jti).not.toBe(refresh.jti);
  });

  test("verification checks type, expiry, signature and the blacklist", async () => {
    const { tokens } = setup();
    const refresh = await tokens.issue("refresh", 1);
    expect((await tokens.verify(refresh, "refresh")).ok).toBe(true);
    expect(await tokens.verify(refresh, "access")).toEqual({ ok: false, failure: "wrongType" });
    const foreign = await new SignJWT({ token_type: "refresh", user_id: 1, jti: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new Uint8Array(32));
    expect(await tokens.verify(foreign, "refresh")).toEqual({ ok: false, failure: "invalid" });
    const expired = await new TokenService(-10).issue("access", 1);
    expect(await new TokenService().verify(expired, "access")).toEqual({ ok: false, failure: "invalid" });
    const { tokens: shortLived } = setup(-10);
    expect(await shortLived.verify(await shortLived.issue("access", 1), "access")).toEqual({ ok: false, failure: "expired" });
    tokens.blacklist(decodeJwt(refresh).jti as string);
    expect(await tokens.verify(refresh, "refresh")).toEqual({ ok: false, failure: "blacklisted" });
  });

  test("servers share no secret", async () => {
    const a = setup().tokens;
    const b = setup().tokens;
    expect((await b.verify(await a.issue("access", 1), "access")).ok).toBe(false);
  });

  test("personal tokens are listed until blacklisted; truncation drops the signature", async () => {
    const { tokens } = setup();
    const pat = await tokens.createPersonal(1);
    expect(tokens.activePersonal(1).map((t) => t.token)).toEqual([pat]);
    expect(tokens.activePersonal(2)).toEqual([]);
    expect(truncateToken(pat).split(".")).toHaveLength(2);
    expect(pat.startsWith(truncateToken(pat))).toBe(true);
    tokens.blacklist(decodeJwt(pat).jti as string);
    expect(tokens.activePersonal(1)).toEqual([]);
  });

  test("helpers", () => {
    expect(secretsEqual("abc", "abc")).toBe(true);
    expect(secretsEqual("abc", "abd")).toBe(false);
    expect(secretsEqual("abc", "abcd")).toBe(false);
    expect(looksLikeJwt(KEY)).toBe(false);
    expect(looksLikeJwt("a.b.c")).toBe(false);
  });
});

describe("authenticate, case by case (docs/reference/errors.md#authentication-errors)", () => {
  test("a legacy key under Token, and under X-Api-Key", async () => {
    const { store, tokens } = setup();
    expect(await authenticate({ authorization: `Token ${KEY}` }, store, tokens)).toMatchObject({ scheme: "Token", user: { id: 1 } });
    expect(await authenticate({ authorization: "token other-key" }, store, tokens)).toMatchObject({ user: { id: 2 } });
    expect(await authenticate({ "x-api-key": "other-key", authorization: `Token ${KEY}` }, store, tokens)).toMatchObject({
      user: { id: 2 },
    });
  });

  test("an access JWT under Bearer", async () => {
    const { store, tokens } = setup();
    const access = await tokens.issue("access", 2);
    expect(await authenticate({ authorization: `Bearer ${access}` }, store, tokens)).toMatchObject({ scheme: "Bearer", user: { id: 2 } });
    expect(await authenticate({ authorization: `bearer ${access}` }, store, tokens)).toMatchObject({ user: { id: 2 } });
  });

  const cases: [string, Record<string, string>, string][] = [
    ["no header", {}, authMessages.notProvided],
    ["unknown key", { authorization: "Token nope" }, authMessages.invalid],
    ["Token without key", { authorization: "Token" }, authMessages.noCredentials],
    ["Token with spaces", { authorization: "Token a b" }, authMessages.spaces],
    ["Bearer with a legacy key", { authorization: `Bearer ${KEY}` }, authMessages.notProvided],
    ["another scheme", { authorization: `Basic ${KEY}` }, authMessages.notProvided],
  ];
  for (const [name, headers, detail] of cases) {
    test(name, async () => {
      const { store, tokens } = setup();
      const problem = await failure(authenticate(headers, store, tokens));
      expect(problem.status).toBe(401);
      expect(problem.detail).toBe(detail);
      expect(problem.error.headers).toEqual({ "WWW-Authenticate": "Token" });
    });
  }

  test("JWTs in the wrong place: a PAT under Bearer, an access token under Token, an expired access token", async () => {
    const { store, tokens } = setup();
    const pat = await tokens.issue("refresh", 1);
    const access = await tokens.issue("access", 1);
    expect((await failure(authenticate({ authorization: `Bearer ${pat}` }, store, tokens))).detail).toBe(authMessages.notProvided);
    expect((await failure(authenticate({ authorization: `Token ${access}` }, store, tokens))).detail).toBe(authMessages.invalid);
    const { tokens: shortLived } = setup(-5);
    const stale = await shortLived.issue("access", 1);
    expect((await failure(authenticate({ authorization: `Bearer ${stale}` }, store, shortLived))).detail).toBe(authMessages.notProvided);
  });

  test("an access token of a user who no longer exists", async () => {
    const { store, tokens } = setup();
    const access = await tokens.issue("access", 2);
    store.removeWhere("users", (u) => u.id === 2);
    expect((await failure(authenticate({ authorization: `Bearer ${access}` }, store, tokens))).status).toBe(401);
  });
});
