import { validationFailure } from "../src/emulation/error-answer.js";
import { PyException, ServerException } from "../src/emulation/exceptions.js";
import { QueryDict } from "../src/emulation/query-dict.js";
import type { UserRecord } from "../src/contract/records.js";
import type { Clock } from "../src/vocabulary/clock.js";
import { pyStr, pyType } from "../src/emulation/python-json.js";
import { parsePyInt } from "../src/emulation/python-text.js";
import { castBoolFromStr, PyError } from "../src/emulation/python.js";
import { describeValue, isPlainObject } from "../src/vocabulary/json.js";
import { fieldError, HttpProblem, INVALID_PAGE, type Strictness } from "./errors.js";
import type { Store } from "./store/store.js";
import type { Query } from "./query.js";
import type { TokenService } from "./tokens.js";

/** What every handler gets: the per-server state. Servers in one process share none of it. */
export interface MockContext {
  readonly store: Store;
  readonly tokens: TokenService;
  readonly strict: boolean;
  /** Where routes read the time they store (export file names, snapshot times); the system clock when absent. */
  readonly clock?: Clock;
}

export type { Query } from "./query.js";

export interface MockRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
  /**
   * DRF's `request.data` (mock-server/body.ts): `{}` without a body, the decoded JSON, or a QueryDict for
   * form and multipart bodies. Reading it throws what the server raises for a body it refuses (415, 400, …),
   * so a handler reads it where the server's view does.
   */
  readonly body: unknown;
  /** The authenticated user (the token refresh route is the only one without). */
  readonly user: UserRecord;
  /** `http://host:port` as the client addressed the server (for pagination links). */
  readonly origin: string;
  /** The request URL (path and query) as sent. */
  readonly url: string;
  /** The request's headers, names in lower case (the few views that read one: a download's `Range`). */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

export interface Reply {
  readonly status: number;
  /** JSON (DRF's renderer), or a file's bytes sent as they are (`headers` then give its type). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Keep the handler's changes although it answers an error (a view that saves, then raises). */
  readonly commit?: boolean;
}

/** A file's bytes as a reply body: sent as they are, never as JSON. */
export class FileBody {
  constructor(readonly bytes: Uint8Array) {}
}

export type Handler = (req: MockRequest, ctx: MockContext) => Reply | Promise<Reply>;

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

/** Does JSON text hold U+2028 or U+2029 (which DRF's JSONRenderer escapes)? */
export const holdsLineSeparator = (text: string): boolean => text.includes("\u2028") || text.includes("\u2029");

/**
 * A body already serialised as JSON (parts of it kept between requests, e.g. list items): sent as
 * it is. Anything that serialises a reply again gets the same value back through `toJSON`.
 */
export class JsonText {
  /** `separators`: the text may hold U+2028 or U+2029 (false when the maker checked its parts: no pass over the whole then). */
  constructor(
    readonly text: string,
    readonly separators = true,
  ) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
export const noContent = (): Reply => ({ status: 204 });

/** Django's `QueryDict.get`: the last value of a repeated key. */
export function param(query: Query, key: string): string | undefined {
  const value = query[key];
  return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
}

/** `ValidationError({key: message})`: DRF keeps a dict's string value a string (not a list, as a serializer's field errors are). */
const keyError = (key: string, message: string) => new ServerException(validationFailure({ [key]: message }));

/**
 * The server's `int_from_request` (`label_studio/core/utils/params.py`): a missing key gives `fallback`; a
 * string goes through Python's `int()` (spaces, `+`, `_` between digits, any Unicode digits) and is otherwise a
 * 400 naming the key; an int (a bool is one in Python: `True` is 1) passes; anything else, `None` included, is a
 * 400 printing the value as Python's `str()` does.
 */
function intFromRequest(present: boolean, raw: unknown, key: string, fallback: number): number {
  if (!present) return fallback;
  if (typeof raw === "string") {
    const n = parsePyInt(raw);
    if (n !== undefined) return n;
    throw keyError(key, `Incorrect value in key "${key}" = "${raw}". It should be digit string.`);
  }
  if (typeof raw === "boolean") return raw ? 1 : 0;
  if (typeof raw === "number" && Number.isInteger(raw)) return raw;
  throw keyError(key, `Incorrect value type in key "${key}" = "${pyStr(raw)}". It should be digit string or integer.`);
}

/**
 * `bool_from_request(request.GET, key, fallback)` (label_studio/core/utils/params.py): `cast_bool_from_str`'s words;
 * any other text is a 400 whose `validation_errors` holds the message as a string.
 */
export function boolFromQuery(query: Query, key: string, fallback: boolean): boolean {
  const raw = param(query, key);
  if (raw === undefined) return fallback;
  try {
    const cast = castBoolFromStr({ t: "str", v: raw });
    return cast.t === "bool" && cast.v;
  } catch (error) {
    if (error instanceof PyError) throw keyError(key, error.message);
    throw error;
  }
}

/**
 * `bool_from_request(request.data, key, fallback)`: `bool(int(value))`, a text through `cast_bool_from_str` first; a
 * form's values are texts, a JSON body's as sent (null, a list, an object: `int()`'s TypeError, a 400 naming the key).
 */
export function boolFromData(data: unknown, key: string, fallback: boolean): boolean {
  const value = data instanceof QueryDict ? data.get(key) : isPlainObject(data) ? data[key] : undefined;
  if (value === undefined) return fallback;
  if (typeof value === "string") return boolFromQuery({ [key]: value }, key, fallback);
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return Math.trunc(value) !== 0;
  throw keyError(key, `int() argument must be a string, a bytes-like object or a real number, not '${pyType(value)}'`);
}

/** `int_from_request(request.GET, key, fallback)`: the last value of a repeated key. */
export function intFromQuery(query: Query, key: string, fallback: number): number {
  const raw = param(query, key);
  return intFromRequest(raw !== undefined, raw, key, fallback);
}

/** `int_from_request(request.data, key, fallback)`: a JSON body's value as it is (a form's values are strings). */
export function intFromData(data: Readonly<Record<string, unknown>>, key: string, fallback: number): number {
  return intFromRequest(Object.hasOwn(data, key) && data[key] !== undefined, data[key], key, fallback);
}

/** DRF's `_positive_int(strict=True, cutoff)` over Python's `int()`: anything unusable falls back to the default. */
export function pageSize(query: Query, fallback: number, max: number | undefined): number {
  const raw = param(query, "page_size");
  const n = raw === undefined ? undefined : parsePyInt(raw);
  if (n === undefined || n <= 0) return fallback;
  return max === undefined ? n : Math.min(n, max);
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly number: number;
  readonly pages: number;
}

/**
 * Django's Paginator as DRF's PageNumberPagination drives it: `page` defaults to 1, `last` is the
 * last page, page 1 of nothing is an empty page, anything else out of range is 404 `Invalid page.`.
 */
export function paginate<T>(rows: readonly T[], query: Query, size: number): Page<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  // `query_params.get('page') or 1`, then Paginator.validate_number's int().
  const raw = param(query, "page") || "1";
  const number = raw === "last" ? pages : (parsePyInt(raw) ?? Number.NaN);
  if (!Number.isInteger(number) || number < 1 || number > pages) throw new HttpProblem(404, INVALID_PAGE);
  return { items: rows.slice((number - 1) * size, number * size), number, pages };
}

/** `PageNumberPagination.get_paginated_response`: the count of every row, the neighbouring pages' links, the page's results. */
export function pageBody<T>(req: MockRequest, page: Page<unknown>, count: number, results: readonly T[]) {
  return {
    count,
    next: page.number < page.pages ? pageLink(req, page.number + 1) : null,
    previous: page.number > 1 ? pageLink(req, page.number - 1) : null,
    results,
  };
}

/** DRF's `replace_query_param` / `remove_query_param` on the request URL. */
export function pageLink(req: MockRequest, page: number | undefined): string {
  const url = new URL(req.url, req.origin);
  if (page === undefined || page === 1) url.searchParams.delete("page");
  else url.searchParams.set("page", String(page));
  return url.toString();
}

/**
 * The body as a serializer reads it: a dict, a form's fields (their last values), or an empty dict for
 * anything else (the serializers report that themselves).
 */
export function bodyObject(req: MockRequest): Record<string, unknown> {
  const data = req.body;
  if (data instanceof QueryDict) return data.dict();
  return isPlainObject(data) ? data : {};
}

/**
 * `request.data` where a view calls `request.data.get(…)` (get_prepare_params, int_from_request, the
 * actions): a dict or a form's fields; any other JSON value raises Python's AttributeError, a 500 (strict: 400).
 */
export function bodyDict(req: MockRequest, mode: Strictness): Record<string, unknown> {
  const data = req.body;
  if (data instanceof QueryDict) return data.dict();
  if (isPlainObject(data)) return data;
  const message = `'${pyType(data)}' object has no attribute 'get'`;
  if (mode.strict) throw fieldError("body", `expected a JSON object, found ${describeValue(data)} (the server answers 500: ${message})`);
  throw new PyException("AttributeError", message);
}
