import { decodeJwt } from "jose/jwt/decode";

/** The claims the client reads. Signatures are never verified: only the server can do that. */
export interface JwtClaims {
  readonly exp?: number;
  readonly iat?: number;
  readonly token_type?: string;
}

/** The payload of a compact JWS, or undefined when the string is not one (e.g. a legacy token). */
export function readJwt(token: string): JwtClaims | undefined {
  try {
    const claims = decodeJwt(token);
    return {
      ...(typeof claims.exp === "number" ? { exp: claims.exp } : {}),
      ...(typeof claims.iat === "number" ? { iat: claims.iat } : {}),
      ...(typeof claims["token_type"] === "string" ? { token_type: claims["token_type"] } : {}),
    };
  } catch {
    return undefined;
  }
}

/** `2026-01-01T00:00:00Z` for a JWT `exp` (seconds since the epoch). */
export function formatExp(exp: number): string {
  return new Date(exp * 1000).toISOString().replace(/\.000Z$/, "Z");
}
