import type { IncomingHttpHeaders } from "node:http";
import type { UserRecord } from "../src/contract/records.js";
import { HttpProblem } from "./errors.js";
import type { Store } from "./store/store.js";
import { looksLikeJwt, secretsEqual, type TokenService } from "./tokens.js";

/**
 * Authentication as the server does it (docs/reference/auth.md#credentials-the-server-accepts,
 * docs/reference/errors.md#authentication-errors):
 * 1. `X-Api-Key: <v>` replaces any Authorization header with `Token <v>` (XApiKeySupportMiddleware);
 * 2. `Bearer <jwt>` (two parts, JWT-shaped): a valid, unexpired *access* token of an existing user
 *    authenticates; anything else is swallowed and the request stays anonymous;
 * 3. DRF TokenAuthentication: `Token <key>` looked up among the users' legacy keys.
 * Every failure is a 401 with `WWW-Authenticate: Token` and DRF's message.
 */
export type Scheme = "Token" | "Bearer";
export interface Authenticated {
  readonly user: UserRecord;
  readonly scheme: Scheme;
}

export const authMessages = {
  notProvided: "Authentication credentials were not provided.",
  invalid: "Invalid token.",
  noCredentials: "Invalid token header. No credentials provided.",
  spaces: "Invalid token header. Token string should not contain spaces.",
} as const;

export function unauthorized(detail: string): HttpProblem {
  return new HttpProblem(401, detail, { headers: { "WWW-Authenticate": "Token" } });
}

/** The refusal of a request that carries no credentials DRF reads (an `AllowAny` view lets it in as anonymous). */
export function isNotProvided(error: unknown): boolean {
  return error instanceof HttpProblem && error.status === 401 && error.error.detail === authMessages.notProvided;
}

export async function authenticate(headers: IncomingHttpHeaders, store: Store, tokens: TokenService): Promise<Authenticated> {
  const apiKey = headers["x-api-key"];
  const header = typeof apiKey === "string" ? `Token ${apiKey}` : (headers.authorization ?? "");
  const parts = header.split(/\s+/).filter((p) => p.length > 0);
  const [scheme, credential] = parts;

  if (parts.length === 2 && scheme?.toLowerCase() === "bearer" && credential && looksLikeJwt(credential)) {
    const verified = await tokens.verify(credential, "access");
    const user = verified.ok ? store.find("users", verified.claims.user_id) : undefined;
    if (user) return { user, scheme: "Bearer" };
  }
  if (scheme?.toLowerCase() !== "token") throw unauthorized(authMessages.notProvided);
  if (parts.length === 1) throw unauthorized(authMessages.noCredentials);
  if (parts.length > 2) throw unauthorized(authMessages.spaces);
  const user = findByLegacyKey(store, credential as string);
  if (!user) throw unauthorized(authMessages.invalid);
  return { user, scheme: "Token" };
}

/** Compares against every user's key in constant time per key, without stopping at a match. */
function findByLegacyKey(store: Store, key: string): UserRecord | undefined {
  let found: UserRecord | undefined;
  for (const user of store.list("users")) {
    if (user.token !== undefined && secretsEqual(user.token, key) && !found) found = user;
  }
  return found;
}
