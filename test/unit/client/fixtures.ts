import { SignJWT, decodeJwt } from "jose";
import type { ServerResponse } from "node:http";
import { errorBody, json, type Received } from "../../helpers/http-server.js";

const secret = new TextEncoder().encode("dmq-client-tests-hs256-secret-0123456789");
let serial = 0;

/** A signed JWT with these claims (and a unique `jti`, so two tokens minted in one second differ). */
export function mintJwt(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ ...claims, jti: `t${++serial}` }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A personal access token as the server issues them: a refresh JWT living for years. */
export function personalAccessToken(extra: Record<string, unknown> = {}): Promise<string> {
  return mintJwt({ token_type: "refresh", iat: nowSeconds(), exp: nowSeconds() + 200 * 365 * 86400, user_id: 1, ...extra });
}

export const LEGACY_KEY = "0123456789abcdef0123456789abcdef01234567";

/**
 * The token side of a server: `POST /api/token/refresh/` issues access JWTs living `lifetimeSeconds`;
 * other routes accept `Bearer <access>` while unexpired and not revoked, or `Token <legacy>`, else
 * 401 like Label Studio.
 */
export class TokenAuthority {
  readonly refreshes: Received[] = [];
  readonly issued: string[] = [];
  readonly revoked = new Set<string>();
  lifetimeSeconds = 300;
  /** Applied to the next refresh answers (status + body), then back to issuing tokens. */
  failNextRefresh: { status: number; body: unknown } | undefined;

  /** `now` is the server's clock (milliseconds); tests share a virtual one with the client. */
  constructor(
    readonly pat: string,
    readonly now: () => number = Date.now,
  ) {}

  /** Handles the refresh route; returns true when it answered. */
  async handleRefresh(request: Received, res: ServerResponse): Promise<boolean> {
    if (request.path !== "/api/token/refresh/") return false;
    this.refreshes.push(request);
    if (this.failNextRefresh) {
      const { status, body } = this.failNextRefresh;
      this.failNextRefresh = undefined;
      json(res, status, body);
      return true;
    }
    const { refresh } = (request.body ?? {}) as { refresh?: string };
    if (refresh !== this.pat) {
      json(res, 401, errorBody(401, "Token is invalid or expired"));
      return true;
    }
    const iat = Math.floor(this.now() / 1000);
    const access = await mintJwt({ token_type: "access", iat, exp: iat + this.lifetimeSeconds, user_id: 1 });
    this.issued.push(access);
    json(res, 200, { access });
    return true;
  }

  /** Whether the request carries a credential the server would accept now. */
  accepts(request: Received): boolean {
    const header = String(request.headers.authorization ?? "");
    if (header === `Token ${LEGACY_KEY}`) return true;
    const [scheme, token] = header.split(" ");
    if (scheme !== "Bearer" || !token || !this.issued.includes(token) || this.revoked.has(token)) return false;
    return (decodeJwt(token).exp ?? 0) > this.now() / 1000;
  }

  reject(res: ServerResponse): void {
    json(res, 401, errorBody(401, "Authentication credentials were not provided."), { "www-authenticate": "Token" });
  }
}
