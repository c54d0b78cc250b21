import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { SignJWT, decodeJwt, errors as joseErrors, jwtVerify } from "jose";
import { systemClock, type Clock } from "../src/vocabulary/clock.js";
import { DEFAULT_ACCESS_LIFETIME_SECONDS } from "./options.js";

/**
 * JWTs as the server's simplejwt issues them
 * (docs/reference/auth.md#credentials-the-server-accepts): HS256 with a per-server secret, claims
 * `token_type` ("access" | "refresh"), `exp`, `iat`, `jti`, `user_id`. Personal access tokens are
 * refresh tokens (lifetime 200 years); access tokens live 5 minutes (simplejwt's default) unless
 * the server is started with another lifetime.
 */
export type TokenType = "access" | "refresh";

export interface TokenClaims {
  readonly token_type: TokenType;
  readonly user_id: number;
  readonly jti: string;
  readonly exp: number;
  readonly iat: number;
}

/** simplejwt's TokenError texts (>= 5.4), which the refresh view sends as the 401 `detail`. */
export const tokenErrors = {
  invalid: "Token is invalid",
  expired: "Token is expired",
  wrongType: "Token has wrong type",
  blacklisted: "Token is blacklisted",
} as const;
export type TokenFailure = keyof typeof tokenErrors;

export type Verified = { readonly ok: true; readonly claims: TokenClaims } | { readonly ok: false; readonly failure: TokenFailure };

const REFRESH_LIFETIME_SECONDS = 200 * 365 * 24 * 3600;

interface Outstanding {
  readonly token: string;
  readonly claims: TokenClaims;
}

export class TokenService {
  readonly #secret = new Uint8Array(randomBytes(32));
  readonly #blacklist = new Set<string>();
  /** Refresh tokens a user created through `POST /api/token/` or rotate (the server's OutstandingToken). */
  readonly #outstanding = new Map<number, Outstanding[]>();

  /** `clock` decides `iat`, `exp` and whether a token has expired. */
  constructor(
    readonly accessLifetimeSeconds = DEFAULT_ACCESS_LIFETIME_SECONDS,
    private readonly clock: Clock = systemClock,
  ) {}

  async issue(type: TokenType, userId: number): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    const lifetime = type === "access" ? this.accessLifetimeSeconds : REFRESH_LIFETIME_SECONDS;
    return new SignJWT({ token_type: type, user_id: userId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(now)
      .setExpirationTime(now + lifetime)
      .setJti(randomUUID().replaceAll("-", ""))
      .sign(this.#secret);
  }

  /** A refresh token recorded as the user's outstanding personal access token. */
  async createPersonal(userId: number): Promise<string> {
    const token = await this.issue("refresh", userId);
    const claims = decodeJwt(token) as unknown as TokenClaims;
    const list = this.#outstanding.get(userId) ?? [];
    list.push({ token, claims });
    this.#outstanding.set(userId, list);
    return token;
  }

  /** The user's valid (unexpired, not blacklisted) outstanding personal tokens. */
  activePersonal(userId: number): readonly Outstanding[] {
    const now = this.clock.now() / 1000;
    return (this.#outstanding.get(userId) ?? []).filter((t) => t.claims.exp > now && !this.#blacklist.has(t.claims.jti));
  }

  async verify(token: string, expected: TokenType): Promise<Verified> {
    let claims: TokenClaims;
    try {
      const { payload } = await jwtVerify(token, this.#secret, { algorithms: ["HS256"], currentDate: new Date(this.clock.now()) });
      claims = payload as unknown as TokenClaims;
    } catch (error) {
      return { ok: false, failure: error instanceof joseErrors.JWTExpired ? "expired" : "invalid" };
    }
    if (typeof claims.user_id !== "number" || typeof claims.jti !== "string") return { ok: false, failure: "invalid" };
    if (claims.token_type !== expected) return { ok: false, failure: "wrongType" };
    if (expected === "refresh" && this.#blacklist.has(claims.jti)) return { ok: false, failure: "blacklisted" };
    return { ok: true, claims };
  }

  blacklist(jti: string): void {
    this.#blacklist.add(jti);
  }

  /** Forget the outstanding-token list (after a data reset the users may be different people). */
  clearPersonal(): void {
    this.#outstanding.clear();
  }
}

/** Would PyJWT decode this without a signature check? (The server's middleware only then tries it.) */
export function looksLikeJwt(value: string): boolean {
  try {
    decodeJwt(value);
    return true;
  } catch {
    return false;
  }
}

/** `header.payload` without the signature, as `GET /api/token/` lists personal tokens. */
export function truncateToken(token: string): string {
  return token.split(".").slice(0, 2).join(".");
}

/** A random legacy API key in the server's format (40 hex characters, like DRF's authtoken). */
export function newLegacyKey(): string {
  return randomBytes(20).toString("hex");
}

/**
 * Constant-time equality of two secrets: both are hashed to the same length first, so neither
 * the content nor the length leaks through timing.
 */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}
