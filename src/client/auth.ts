import { ClientConfigError } from "./errors.js";
import { formatExp, readJwt, type JwtClaims } from "./jwt.js";
import type { Secrets } from "./secrets.js";

/** What goes into `Authorization`; kept as an object so a 401 can name the token it refers to. */
export interface Credential {
  readonly scheme: "Token" | "Bearer";
  readonly token: string;
}

/** How the client authenticates: a legacy API key (`Token`) or a personal access token exchanged for short-lived JWTs (`Bearer`). */
export type AuthMode = "legacy token" | "personal access token";

export interface Auth {
  readonly mode: AuthMode;
  /** The credential for the next request; exchanges the personal access token when needed. */
  credential(): Promise<Credential>;
  /** A 401 said this access token is no longer valid: drop it unless a newer one already replaced it. */
  reject(credential: Credential): void;
}

/** `POST /api/token/refresh/ {refresh}` → the `access` token. */
export type Exchange = (refreshToken: string) => Promise<string>;

/** Refresh this long before `exp` at most… */
const MAX_LEEWAY_MS = 30_000;
/** …and at most this share of the token's life, so short-lived tokens are still used. */
const LEEWAY_SHARE = 0.1;
/** `iat` and `exp` are whole seconds: the token may be up to a second older than `iat` says. */
const ROUNDING_MS = 1_000;

/**
 * Legacy keys go out as `Token <key>`. A JWT key is a personal access token (a refresh token): it is
 * exchanged for a short-lived access token sent as `Bearer <access>`, cached until shortly before
 * its `exp` and refreshed by one shared exchange however many requests are waiting.
 */
export function createAuth(apiKey: string, secrets: Secrets, exchange: Exchange, now: () => number = Date.now): Auth {
  secrets.add(apiKey);
  const claims = readJwt(apiKey);
  if (!claims) {
    const credential: Credential = Object.freeze({ scheme: "Token", token: apiKey });
    return Object.freeze({
      mode: "legacy token" as const,
      credential: () => Promise.resolve(credential),
      reject: () => undefined,
    });
  }
  checkPersonalAccessToken(claims, now());

  let current: { credential: Credential; refreshAt: number } | undefined;
  let pending: Promise<Credential> | undefined;

  const refresh = (): Promise<Credential> => {
    pending ??= (async () => {
      try {
        checkPersonalAccessToken(claims, now());
        const access = await exchange(apiKey);
        secrets.add(access);
        const credential: Credential = Object.freeze({ scheme: "Bearer", token: access });
        current = { credential, refreshAt: refreshTime(readJwt(access), now()) };
        return credential;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };

  return Object.freeze({
    mode: "personal access token" as const,
    credential(): Promise<Credential> {
      if (current && now() < current.refreshAt) return Promise.resolve(current.credential);
      return refresh();
    },
    reject(credential: Credential): void {
      if (current?.credential.token === credential.token) current = undefined;
    },
  });
}

function checkPersonalAccessToken(claims: JwtClaims, nowMs: number): void {
  const hint = "create a new personal access token on the server's Account & Settings page";
  if (claims.token_type !== undefined && claims.token_type !== "refresh") {
    throw new ClientConfigError(
      "apiKey",
      'a legacy token or a personal access token (a JWT with token_type "refresh")',
      `a JWT with token_type ${JSON.stringify(claims.token_type.slice(0, 20))}`,
      "access tokens are short-lived and obtained by the client itself; pass the personal access token",
    );
  }
  if (claims.exp === undefined) {
    throw new ClientConfigError("apiKey", "a personal access token with an expiry (exp claim)", "a JWT without exp", hint);
  }
  if (claims.exp * 1000 <= nowMs) {
    throw new ClientConfigError(
      "apiKey",
      "a personal access token that has not expired",
      `one that expired at ${formatExp(claims.exp)}`,
      hint,
    );
  }
}

/**
 * When to stop using an access token received at `receivedAt`. With `iat` the lifetime comes from
 * the server's own clock (`exp - iat`), which survives a skewed local clock; without `exp` the token
 * is kept until a 401 says otherwise.
 */
function refreshTime(claims: JwtClaims | undefined, receivedAt: number): number {
  if (claims?.exp === undefined) return Number.POSITIVE_INFINITY;
  const lifetime =
    claims.iat !== undefined && claims.exp > claims.iat ? (claims.exp - claims.iat) * 1000 - ROUNDING_MS : claims.exp * 1000 - receivedAt;
  if (lifetime <= 0) return receivedAt;
  return receivedAt + lifetime - Math.min(MAX_LEEWAY_MS, lifetime * LEEWAY_SHARE);
}
