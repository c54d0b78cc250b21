import { isPlainObject, type JsonValue } from "../vocabulary/json.js";

/**
 * The server's error answers, one type and one converter. Label Studio routes every exception a view raises
 * through `custom_exception_handler` (`label_studio/core/utils/common.py`), which first asks DRF's
 * `exception_handler` (`rest_framework/views.py`): a DRF APIException keeps its status (and the
 * `WWW-Authenticate` / `Retry-After` headers DRF adds) and answers `{id, status_code, version, detail,
 * exc_info: null}` — with `detail: "Validation error"` and the fields under `validation_errors` when its detail
 * is a dict or a list; any other exception is a 500 whose `detail` is `str(exc)` and whose `exc_info` is the
 * traceback. A response a view builds itself is a bare `{"detail": …}`. The mock answers with `errorAnswer`,
 * the client reads answers back with `errorFromAnswer`, and the parser and the engine describe the errors
 * they predict with the same `ServerError`.
 */

/** DRF field errors: messages per field, nested for nested serializers (`{"non_field_errors": [...]}` for a list). */
export type ValidationErrors = { readonly [field: string]: JsonValue };

export interface ServerError {
  readonly status: number;
  /** The handler's `detail`: the message, "Validation error" for field errors, `str(exc)` for a 500. */
  readonly detail: string;
  /** DRF's field errors (`validation_errors`). */
  readonly validationErrors?: ValidationErrors;
  /** For a 500: the Python exception's class, as the traceback's last line names it. */
  readonly exception?: string;
  /** For a 500: the traceback the server sends as `exc_info` (`DEBUG_MODAL_EXCEPTIONS` is on by default). */
  readonly excInfo?: string;
  /** Headers DRF adds to the answer: `WWW-Authenticate` for a 401, `Retry-After` for a 429. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A response the view built itself: only `{"detail": …}`, not through the handler. */
  readonly bare?: boolean;
}

/** The handler's body. */
export interface HandlerBody {
  readonly id: string;
  readonly status_code: number;
  readonly version: string;
  readonly detail: string;
  readonly exc_info: string | null;
  readonly validation_errors?: ValidationErrors;
}

/** Every error body the server sends: the handler's, or a view's bare `{"detail": …}`. */
export type ErrorBody = HandlerBody | { readonly detail: string };

export interface ErrorAnswer {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
}

export const VALIDATION_DETAIL = "Validation error";

/** A DRF APIException with a message (NotFound, ParseError, UnsupportedMediaType, AuthenticationFailed, …). */
export function apiError(status: number, detail: string, headers?: Readonly<Record<string, string>>): ServerError {
  return headers ? { status, detail, headers } : { status, detail };
}

/** A DRF ValidationError: a dict of fields, or a list filed under `non_field_errors` by the handler. */
export function validationFailure(errors: ValidationErrors | readonly string[], status = 400): ServerError {
  const validationErrors = Array.isArray(errors) ? { non_field_errors: errors as readonly string[] } : (errors as ValidationErrors);
  return { status, detail: VALIDATION_DETAIL, validationErrors };
}

/** A traceback stand-in for `exc_info`: the mock has no Python stack, but its last line names the exception as Python's does. */
export function tracebackOf(exception: string, message: string): string {
  return `Traceback (most recent call last):\n  (dmq mock server: no Python traceback)\n${exception}: ${message}\n`;
}

/** Any other Python exception: a 500 with `str(exc)`. */
export function pythonFailure(exception: string, message: string): ServerError {
  return { status: 500, detail: message, exception, excInfo: tracebackOf(exception, message) };
}

/** A view's own `Response({"detail": …}, status=…)`. */
export function bareResponse(status: number, detail: string): ServerError {
  return { status, detail, bare: true };
}

/** `custom_exception_handler(exc)`: the status, body and headers the server answers an error with. */
export function errorAnswer(error: ServerError, context: { readonly id: string; readonly version: string }): ErrorAnswer {
  const headers = error.headers ?? {};
  if (error.bare) return { status: error.status, body: { detail: error.detail }, headers };
  const body: HandlerBody = {
    id: context.id,
    status_code: error.status,
    version: context.version,
    detail: error.detail,
    exc_info: error.excInfo ?? null,
    ...(error.validationErrors ? { validation_errors: error.validationErrors } : {}),
  };
  return { status: error.status, body, headers };
}

const HANDLER_KEYS = ["id", "status_code", "version", "detail", "exc_info"] as const;
const DRF_HEADERS = /^(?:www-authenticate|retry-after)$/i;

/**
 * The error an answer stands for, as a client reads one back: undefined when the body is neither the
 * handler's body nor a view's own `{"detail": "…", …}` (an HTML page, a proxy's text).
 */
export function errorFromAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): ServerError | undefined {
  if (!isPlainObject(body) || typeof body["detail"] !== "string") return undefined;
  const detail = body["detail"];
  const kept = Object.entries(headers).filter(([name]) => DRF_HEADERS.test(name));
  const withHeaders = (error: ServerError): ServerError => (kept.length > 0 ? { ...error, headers: Object.fromEntries(kept) } : error);
  if (!HANDLER_KEYS.every((key) => key in body)) return withHeaders(bareResponse(status, detail));
  const errors = body["validation_errors"];
  if (isPlainObject(errors)) return withHeaders({ status, detail, validationErrors: errors as ValidationErrors });
  const excInfo = body["exc_info"];
  if (typeof excInfo === "string") return { status, detail, exception: exceptionOf(excInfo), excInfo };
  return withHeaders(apiError(status, detail));
}

/** The exception class a traceback's last line names (`Class: message`), else "Exception". */
function exceptionOf(traceback: string): string {
  const last = traceback.trimEnd().split("\n").at(-1) ?? "";
  const colon = last.indexOf(":");
  const name = colon > 0 ? last.slice(0, colon) : "";
  return /^[A-Za-z_][\w.]*$/.test(name) ? name : "Exception";
}

/** One line for people: the detail, then each field with its messages (`Validation error; project: This field is required.`). */
export function errorText(error: ServerError): string {
  const fields = Object.entries(error.validationErrors ?? {}).map(([field, problems]) => `${field}: ${flatten(problems).join(" ")}`);
  return [error.detail, ...fields].join("; ");
}

function flatten(v: JsonValue): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(flatten);
  if (isPlainObject(v)) return Object.entries(v).flatMap(([k, x]) => flatten(x as JsonValue).map((m) => `${k}: ${m}`));
  return [String(v)];
}
