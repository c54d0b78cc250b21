import { SignJWT } from "jose";

const secret = new TextEncoder().encode("dmq-client-tests-hs256-secret-0123456789");
let serial = 0;

/**
 * A signed JWT with these claims (and a unique `jti`, so two tokens minted in one second differ):
 * tokens the mock would never issue (no exp, an expired one, a server clock an hour behind).
 */
export function mintJwt(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ ...claims, jti: `t${++serial}` }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
}

/** The legacy key of the user in the tests' seed (test/unit/client/on-mock.ts). */
export const LEGACY_KEY = "0123456789abcdef0123456789abcdef01234567";
