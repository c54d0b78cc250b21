import type { NextFunction, Request, Response } from "express";

/**
 * CORS as the server's django-cors-headers middleware answers it with Label Studio's settings
 * (`core/settings/base.py`: `CORS_ALLOW_ALL_ORIGINS` on, credentials off, `CORS_ALLOW_METHODS`):
 * a request with an `Origin` gets `Access-Control-Allow-Origin: *`; a preflight (OPTIONS with
 * `Access-Control-Request-Method`) is answered 200 with an empty body before URL resolution, so for
 * any path. A plain OPTIONS is an ordinary request (a route answers it, or the 404 page does).
 */
const ALLOW_HEADERS = "accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with";
const ALLOW_METHODS = "DELETE, GET, OPTIONS, PATCH, POST, PUT";

export function cors(req: Request, res: Response, next: NextFunction): void {
  if (req.headers.origin === undefined) {
    next();
    return;
  }
  res.setHeader("Access-Control-Allow-Origin", "*");
  if (req.method !== "OPTIONS" || req.headers["access-control-request-method"] === undefined) {
    next();
    return;
  }
  res.setHeader("Access-Control-Allow-Headers", ALLOW_HEADERS);
  res.setHeader("Access-Control-Allow-Methods", ALLOW_METHODS);
  res.setHeader("Access-Control-Max-Age", "86400");
  res.status(200).setHeader("Content-Length", "0");
  res.end();
}
