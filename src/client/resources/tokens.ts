import type { RequestOptions } from "../options.js";
import { arrayOf, object, string } from "../shape.js";
import type { Call, Send } from "../transport.js";
import type { AccessToken, RotatedToken, TokenCreated, TokenListItem } from "../types.js";
import { ClientConfigError } from "../errors.js";

/** Personal access tokens: create, list, rotate, blacklist, refresh. */
export interface TokensResource {
  /** The caller's personal access tokens, without signatures: `GET /api/token/`. */
  list(options?: RequestOptions): Promise<TokenListItem[]>;
  /** A new personal access token for the calling user: `POST /api/token/` (409 if one is valid). */
  create(options?: RequestOptions): Promise<TokenCreated>;
  /** Exchange a personal access token for an access token: `POST /api/token/refresh/` (no credential sent). */
  refresh(refresh: string, options?: RequestOptions): Promise<AccessToken>;
  /** Revoke a personal access token: `POST /api/token/blacklist/`. */
  blacklist(refresh: string, options?: RequestOptions): Promise<void>;
  /** Replace a personal access token by a new one: `POST /api/token/rotate/`. */
  rotate(refresh: string, options?: RequestOptions): Promise<RotatedToken>;
}

const tokenItem = object<TokenListItem>({ token: string });
const created = object<TokenCreated>({ token: string });
export const accessToken = object<AccessToken>({ access: string });
const rotated = object<RotatedToken>({ refresh: string });

/** The token exchange: no credential sent, never quoted in an error, safe to repeat. */
export function refreshCall(refresh: string): Call<AccessToken> {
  return {
    method: "POST",
    path: "/api/token/refresh/",
    body: { refresh },
    expect: accessToken,
    anonymous: true,
    sensitive: true,
    idempotent: true,
  };
}

/** The token itself must never be shown, not even in this error. */
function checkToken(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ClientConfigError(
      "refresh",
      "a personal access token (a non-empty string)",
      typeof value === "string" ? "an empty string" : typeof value,
    );
  }
  return value;
}

/** `remember` registers a token for scrubbing from later errors. */
export function tokensResource(send: Send, remember: (token: string) => void): TokensResource {
  const kept = <T extends object>(body: T): T => {
    for (const value of Object.values(body)) if (typeof value === "string") remember(value);
    return body;
  };
  return Object.freeze({
    async list(options?: RequestOptions) {
      const items = await send({ method: "GET", path: "/api/token/", expect: arrayOf(tokenItem), sensitive: true }, options);
      return items.map(kept);
    },
    async create(options?: RequestOptions) {
      return kept(await send({ method: "POST", path: "/api/token/", expect: created, sensitive: true }, options));
    },
    async refresh(refresh: string, options?: RequestOptions) {
      const token = checkToken(refresh);
      remember(token);
      return kept(await send(refreshCall(token), options));
    },
    async blacklist(refresh: string, options?: RequestOptions) {
      const body = { refresh: checkToken(refresh) };
      remember(body.refresh);
      return send<void>({ method: "POST", path: "/api/token/blacklist/", body, sensitive: true }, options);
    },
    async rotate(refresh: string, options?: RequestOptions) {
      const body = { refresh: checkToken(refresh) };
      remember(body.refresh);
      return kept(await send({ method: "POST", path: "/api/token/rotate/", body, expect: rotated, sensitive: true }, options));
    },
  });
}
