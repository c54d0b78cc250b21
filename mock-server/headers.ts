import type { NextFunction, Request, Response } from "express";
import type { Method } from "./routes/index.js";

/**
 * The headers a Label Studio answer carries besides the body:
 * - DRF (`APIView.finalize_response`): `Allow` with the view's methods in DRF's order (HEAD where
 *   GET is, OPTIONS unless the view narrows `http_method_names`); one renderer, so no `Vary: Accept`;
 *   `JSONRenderer` sends `application/json` without a charset;
 * - django-cors-headers (CORS_ALLOW_ALL_ORIGINS): `Vary: origin` on every answer,
 *   `Access-Control-Allow-Origin: *` when the request has an `Origin`, and the preflight answer;
 * - Django's SecurityMiddleware defaults: `X-Content-Type-Options`, `Referrer-Policy`,
 *   `Cross-Origin-Opener-Policy`.
 */

const ORDER: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `Allow` for a view serving `methods` (DRF's order, HEAD with GET, OPTIONS). */
export function allowHeader(methods: readonly Method[], options = true): string {
  const sorted = ORDER.filter((m) => methods.includes(m as Method));
  return [...sorted, ...(sorted.includes("GET") ? ["HEAD"] : []), ...(options ? ["OPTIONS"] : [])].join(", ");
}

/** CORS_ALLOW_HEADERS / CORS_ALLOW_METHODS of the server (django-cors-headers defaults and core/settings/base.py). */
const CORS_ALLOW_HEADERS = "accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with";
const CORS_ALLOW_METHODS = "DELETE, GET, OPTIONS, PATCH, POST, PUT";
const PREFLIGHT_MAX_AGE = "86400";

/** Django's and django-cors-headers' headers, and the CORS preflight answer (before authentication, as there). */
export function serverHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Vary", "origin");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  if (req.headers.origin === undefined) return next();
  res.setHeader("Access-Control-Allow-Origin", "*");
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
    res.setHeader("Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
    res.setHeader("Access-Control-Allow-Methods", CORS_ALLOW_METHODS);
    res.setHeader("Access-Control-Max-Age", PREFLIGHT_MAX_AGE);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.status(200).end();
    return;
  }
  next();
}

/** DRF's JSONRenderer: compact JSON, U+2028/U+2029 escaped, `application/json` without a charset. */
export function sendJson(res: Response, body: unknown): void {
  const text = JSON.stringify(body).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  res.setHeader("Content-Type", "application/json");
  res.end(Buffer.from(text, "utf8"));
}
