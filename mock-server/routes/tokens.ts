import { fieldError, HttpProblem, validationError } from "../errors.js";
import { bodyObject, noContent, ok, type Handler, type MockContext, type MockRequest } from "../http.js";
import { tokenErrors, truncateToken, type TokenClaims } from "../tokens.js";

/**
 * Token endpoints (docs/reference/auth.md#token-endpoints; jwt_auth/views.py): simplejwt's refresh
 * view, the personal access token list/create, blacklist and rotate.
 */

/** simplejwt's views answer token errors with their own authenticate header. */
const SIMPLEJWT_AUTH_HEADER = { "WWW-Authenticate": 'Bearer realm="api"' };
const INVALID_OR_BLACKLISTED = "Token is invalid or already blacklisted.";
const TOKEN_EXISTS = "You already have a valid token. Please revoke it before creating a new one.";

/** DRF CharField on `refresh`: required, not null, not blank; numbers are taken as text. */
function refreshField(req: MockRequest): string {
  const body = bodyObject(req);
  if (!("refresh" in body)) throw fieldError("refresh", "This field is required.");
  const value = body["refresh"];
  if (value === null) throw fieldError("refresh", "This field may not be null.");
  if (typeof value !== "string" && typeof value !== "number") throw fieldError("refresh", "Not a valid string.");
  const text = String(value).trim();
  if (text === "") throw fieldError("refresh", "This field may not be blank.");
  return text;
}

async function verifiedRefresh(ctx: MockContext, token: string): Promise<TokenClaims> {
  const verified = await ctx.tokens.verify(token, "refresh");
  if (!verified.ok) throw new HttpProblem(401, tokenErrors[verified.failure], { headers: SIMPLEJWT_AUTH_HEADER });
  return verified.claims;
}

/** `POST /api/token/refresh/` (no authentication): `{refresh}` → `{access}`. */
export const refresh: Handler = async (req, ctx) => {
  const claims = await verifiedRefresh(ctx, refreshField(req));
  return ok({ access: await ctx.tokens.issue("access", claims.user_id) });
};

/** `GET /api/token/`: the caller's valid personal tokens, without their signatures. */
export const listTokens: Handler = (req, ctx) => ok(ctx.tokens.activePersonal(req.user.id).map((t) => ({ token: truncateToken(t.token) })));

/** `POST /api/token/`: a new personal access token; 409 while the caller still has a valid one. */
export const createToken: Handler = async (req, ctx) => {
  if (ctx.tokens.activePersonal(req.user.id).length > 0) throw new HttpProblem(409, TOKEN_EXISTS);
  return ok({ token: await ctx.tokens.createPersonal(req.user.id) }, 201);
};

/** `POST /api/token/blacklist/`: 204, or a bare 404 for a bad or already blacklisted token. */
export const blacklist: Handler = async (req, ctx) => {
  const verified = await ctx.tokens.verify(refreshField(req), "refresh");
  if (!verified.ok) throw new HttpProblem(404, INVALID_OR_BLACKLISTED, { raw: true });
  ctx.tokens.blacklist(verified.claims.jti);
  return noContent();
};

/**
 * `POST /api/token/rotate/`: blacklists the given token and issues the caller a new one. A token that does not
 * verify is the serializer's 400 (LSAPITokenRotateSerializer.validate), not simplejwt's 401.
 */
export const rotate: Handler = async (req, ctx) => {
  const verified = await ctx.tokens.verify(refreshField(req), "refresh");
  if (!verified.ok) throw validationError({ non_field_errors: ["Invalid refresh token"] });
  const claims = verified.claims;
  ctx.tokens.blacklist(claims.jti);
  return ok({ refresh: await ctx.tokens.createPersonal(req.user.id) });
};
