import { randomUUID } from "node:crypto";

/**
 * Error answers as the server sends them (server-api §2.1). Errors raised by the server's views go
 * through its exception handler and come back as `{id, status_code, version, detail, exc_info}`
 * (+ `validation_errors` for field errors); responses a view builds itself (the 422 for a missing
 * action id, the 404 for a task list without project or view) are a bare `{detail}`.
 */

/** The server version the handler body reports (the newest community release we follow). */
export const SERVER_VERSION = "1.23.2";

/** DRF-style field errors: a list of messages per field, or nested structures for nested serializers. */
export type ValidationErrors = { readonly [field: string]: ValidationErrorValue };
export type ValidationErrorValue = readonly string[] | ValidationErrors | readonly (ValidationErrors | Record<string, never>)[];

export interface ProblemOptions {
  readonly validationErrors?: ValidationErrors;
  /** Sent as `{detail}` only, not through the handler (views that build the Response themselves). */
  readonly raw?: boolean;
  /** For 500s: the server sends a traceback in `exc_info` (DEBUG_MODAL_EXCEPTIONS defaults to true). */
  readonly excInfo?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export class HttpProblem extends Error {
  override readonly name = "HttpProblem";
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: ProblemOptions = {},
  ) {
    super(`${status} ${detail}`);
  }
}

export interface HandlerBody {
  id: string;
  status_code: number;
  version: string;
  detail: string;
  exc_info: string | null;
  validation_errors?: ValidationErrors;
}

export function problemBody(problem: HttpProblem): HandlerBody | { detail: string } {
  if (problem.options.raw) return { detail: problem.detail };
  const body: HandlerBody = {
    id: randomUUID(),
    status_code: problem.status,
    version: SERVER_VERSION,
    detail: problem.detail,
    exc_info: problem.options.excInfo ?? null,
  };
  if (problem.options.validationErrors) body.validation_errors = problem.options.validationErrors;
  return body;
}

/** A 400 the way DRF reports serializer errors: `detail: "Validation error"` plus the fields. */
export function validationError(errors: ValidationErrors): HttpProblem {
  return new HttpProblem(400, "Validation error", { validationErrors: errors });
}

export function fieldError(field: string, message: string): HttpProblem {
  return validationError({ [field]: [message] });
}

/** DRF's NotFound for `get_object_or_404` (DRF >= 3.15 passes Django's Http404 message through). */
export function notFound(model: string): HttpProblem {
  return new HttpProblem(404, `No ${model} matches the given query.`);
}

export const INVALID_PAGE = "Invalid page.";

/**
 * A non-DRF exception: the server answers 500 with `str(exc)` and a traceback. The text is a
 * stand-in (the mock has no Python stack) that still names the exception class and message.
 */
export function serverError(exceptionClass: string, detail: string): HttpProblem {
  return new HttpProblem(500, detail, {
    excInfo: `Traceback (most recent call last):\n  (dmq mock server: no Python traceback)\n${exceptionClass}: ${detail}\n`,
  });
}

/**
 * Where the server answers 500 (or silently ignores input), strict mode answers 400 naming the
 * field. `strictMessage` says what was expected and what was found.
 */
export interface Strictness {
  readonly strict: boolean;
}

export function serverErrorOrStrict(
  mode: Strictness,
  exceptionClass: string,
  detail: string,
  field: string,
  strictMessage: string,
): HttpProblem {
  return mode.strict ? fieldError(field, strictMessage) : serverError(exceptionClass, detail);
}
