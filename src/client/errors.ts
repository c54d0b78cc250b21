import { errorFromAnswer, errorText, type ServerError } from "../emulation/error-answer.js";
import type { Secrets } from "./secrets.js";

/** Response headers as a plain object with lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/** What an `ApiError` is made of: the request, the answer's status, headers and body. */
export interface ApiErrorInit {
  readonly method: string;
  readonly path: string;
  readonly statusCode: number;
  readonly headers: ResponseHeaders;
  /** The parsed JSON body when it is JSON, else its text (undefined when there was none). */
  readonly body: unknown;
  /** What comes after `→ <status>: ` in the message; derived from the body when absent. */
  readonly detail?: string;
}

/**
 * A response with a non-2xx status, or a 2xx whose body is not what the call expects
 * (`UnexpectedResponseError`). The message reads `POST /api/dm/actions/ → 500: Can't find 'x' in
 * registered actions`. The client scrubs its key and tokens from every field before constructing one.
 */
export class ApiError extends Error {
  override readonly name: string = "ApiError";
  readonly statusCode: number;
  readonly headers: ResponseHeaders;
  readonly body: unknown;
  readonly method: string;
  /** The request path without the base URL and query string, e.g. `/api/dm/actions/`. */
  readonly path: string;
  /**
   * The server's error answer read back (`detail`, `validationErrors`, the exception of a 500, DRF's headers),
   * or undefined when the body is not one of the server's error bodies (an HTML page, a proxy's text).
   */
  readonly serverError: ServerError | undefined;

  constructor(init: ApiErrorInit) {
    super(`${init.method} ${init.path} → ${init.statusCode}: ${init.detail ?? detailOf(init.body)}`);
    this.serverError = errorFromAnswer(init.statusCode, init.body, init.headers);
    this.statusCode = init.statusCode;
    this.headers = init.headers;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
  }

  /** `JSON.stringify(error)` keeps the message (an Error's own `message` is not enumerable). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      method: this.method,
      path: this.path,
      statusCode: this.statusCode,
      headers: this.headers,
      body: this.body,
    };
  }
}

/** A 2xx response whose body is not the JSON the call expects (never an uncaught TypeError later). */
export class UnexpectedResponseError extends ApiError {
  override readonly name: string = "UnexpectedResponseError";
  constructor(
    init: Omit<ApiErrorInit, "detail">,
    /** Where in the body, e.g. `results[2].id` (empty for the whole body). */
    readonly where: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super({ ...init, detail: `expected ${where ? `${where} to be ` : ""}${expected}, found ${found}` });
  }
}

/** The request did not complete within its time limit. Not retried: the server may have acted. */
export class RequestTimeoutError extends Error {
  override readonly name: string = "RequestTimeoutError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutInSeconds: number,
  ) {
    super(`${method} ${path} timed out after ${timeoutInSeconds} s (raise the limit with the client's or this request's timeoutInSeconds)`);
  }
}

/** No HTTP response: connection refused, reset, DNS failure… after every allowed attempt. */
export class NetworkError extends Error {
  override readonly name: string = "NetworkError";
  constructor(
    readonly method: string,
    /** Origin and path, e.g. `http://127.0.0.1:8080/api/projects/` (no query string). */
    readonly url: string,
    readonly attempts: number,
    readonly reason: string,
    /** The system error code when there is one, e.g. `ECONNREFUSED`. */
    readonly code: string | undefined,
  ) {
    super(`${method} ${url} failed: ${reason} (${attempts} attempt${attempts === 1 ? "" : "s"})`);
  }
}

/** A list page that repeats only items of earlier pages: the server ignores `page`; stop, don't loop. */
export class PaginationError extends Error {
  override readonly name: string = "PaginationError";
  constructor(
    readonly path: string,
    readonly page: number,
  ) {
    super(`GET ${path} page ${page} holds only items of earlier pages: the server seems to ignore the page parameter`);
  }
}

/** Bad client configuration or call argument: names the field, what was expected and what was found. */
export class ClientConfigError extends TypeError {
  override readonly name: string = "ClientConfigError";
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly found: string,
    hint?: string,
  ) {
    super(`${field}: expected ${expected}, found ${found}${hint ? `; ${hint}` : ""}`);
  }
}

const MAX_DETAIL = 300;

/** The human part of an error body: DRF's `detail` (+ field errors), else the start of the text. */
export function detailOf(body: unknown): string {
  if (typeof body === "string") {
    const text = body.replace(/\s+/g, " ").trim();
    if (!text) return "(empty body)";
    // An HTML page (the server's 404 page for a path it does not route, or a proxy's): its title says it.
    if (/^(<!doctype html|<html)/i.test(text)) {
      const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
      if (title) return `an HTML page titled "${title}"`;
      const words = withoutTags(text).replace(/\s+/g, " ").trim();
      return words ? detailOf(`an HTML page: ${words}`) : "an HTML page";
    }
    return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
  }
  if (body === undefined || body === null) return "(no body)";
  const error = errorFromAnswer(0, body);
  return detailOf(error ? errorText(error) : JSON.stringify(body));
}

/** The text of an HTML page: every `<…>` replaced by a space (one pass; a regex would backtrack on `<<<…`). */
function withoutTags(html: string): string {
  let out = "";
  let inTag = false;
  for (const c of html) {
    if (c === "<") inTag = true;
    else if (c === ">" && inTag) {
      inTag = false;
      out += " ";
    } else if (!inTag) out += c;
  }
  return out;
}

/** Response headers as a plain lower-case record, scrubbed of secrets. */
export function headersRecord(headers: Headers, secrets: Secrets): ResponseHeaders {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = secrets.scrub(value);
  });
  return Object.freeze(out);
}
