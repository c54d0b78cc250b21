import type { NextFunction, Request, Response } from "express";
import { holdsLineSeparator, JsonText } from "./http.js";
import type { Method } from "./routes/index.js";

/**
 * The headers a Label Studio answer carries besides the body:
 * - DRF (`APIView.finalize_response`): `Allow` with the view's methods in DRF's order (HEAD where
 *   GET is, OPTIONS unless the view narrows `http_method_names`); one renderer, so no `Vary: Accept`;
 *   `JSONRenderer` sends `application/json` without a charset;
 * - django-cors-headers: `Vary: origin` on every answer (its CORS answers are in cors.ts);
 * - Django's SecurityMiddleware defaults: `X-Content-Type-Options`, `Referrer-Policy`,
 *   `Cross-Origin-Opener-Policy`.
 */

const ORDER: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `Allow` for a view serving `methods` (DRF's order, HEAD with GET, OPTIONS). */
export function allowHeader(methods: readonly Method[], options = true): string {
  const sorted = ORDER.filter((m) => methods.includes(m as Method));
  return [...sorted, ...(sorted.includes("GET") ? ["HEAD"] : []), ...(options ? ["OPTIONS"] : [])].join(", ");
}

/**
 * Django's and django-cors-headers' headers on every answer: `Vary: origin` (the CORS middleware is
 * enabled for every URL) and SecurityMiddleware's defaults. CORS itself is answered in cors.ts.
 */
export function serverHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Vary", "origin");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  next();
}

/**
 * DRF's JSONRenderer: compact JSON, U+2028/U+2029 escaped, `application/json` without a charset.
 * A `JsonText` body is already JSON text (list items kept serialised).
 */
export function sendJson(res: Response, body: unknown): void {
  const json = body instanceof JsonText ? body.text : JSON.stringify(body);
  // Most answers hold neither separator: then no copy of the text is made (a list page's maker checked its items).
  const text =
    (!(body instanceof JsonText) || body.separators) && holdsLineSeparator(json)
      ? json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")
      : json;
  res.setHeader("Content-Type", "application/json");
  // The text as it is: Node encodes it and counts its bytes for Content-Length, one write with the head.
  res.end(text, "utf8");
}
