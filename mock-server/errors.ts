import { randomUUID } from "node:crypto";
import { apiError, bareResponse, errorAnswer, validationFailure, type ErrorBody } from "../src/emulation/error-answer.js";
import { PyException, ServerException } from "../src/emulation/exceptions.js";

/**
 * Error answers as the server sends them (docs/reference/errors.md#the-error-body). Errors raised
 * by the server's views go through its exception handler and come back as
 * `{id, status_code, version, detail, exc_info}` (+ `validation_errors` for field errors);
 * responses a view builds itself (the 422 for a missing action id, the 404 for a task list without
 * project or view) are a bare `{detail}`.
 */

/** The server version the handler body reports (the newest community release we follow). */
export const SERVER_VERSION = "1.23.2";

/** Field errors as the mock's serializers build them (typed: messages per field, nested for nested serializers); `ValidationErrors` is their JSON form. */
export type SerializerErrors = { readonly [field: string]: SerializerErrorValue };
/** A string alone where the view raised `ValidationError({field: "message"})` (DRF keeps it as it is). */
export type SerializerErrorValue = string | readonly string[] | SerializerErrors | readonly (SerializerErrors | Record<string, never>)[];

export interface ProblemOptions {
  readonly validationErrors?: SerializerErrors;
  /** Sent as `{detail}` only, not through the handler (views that build the Response themselves). */
  readonly raw?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An error answer by status and detail: a DRF APIException, field errors, or (`raw`) a view's own
 * `{"detail": …}`. The answer itself is the emulation's `ServerError`, rendered by `errorAnswer`.
 */
export class HttpProblem extends ServerException {
  override readonly name = "HttpProblem";
  constructor(status: number, detail: string, options: ProblemOptions = {}) {
    const headers = options.headers ? { headers: options.headers } : {};
    super(
      options.raw
        ? { ...bareResponse(status, detail), ...headers }
        : { status, detail, ...(options.validationErrors ? { validationErrors: options.validationErrors } : {}), ...headers },
    );
  }

  get status(): number {
    return this.error.status;
  }

  get detail(): string {
    return this.error.detail;
  }
}

/** The body the server answers an error with (a new `id` each time). */
export function problemBody(problem: ServerException): ErrorBody {
  return errorAnswer(problem.error, { id: randomUUID(), version: SERVER_VERSION }).body;
}

/** A 400 the way DRF reports serializer errors: `detail: "Validation error"` plus the fields. */
export function validationError(errors: SerializerErrors): ServerException {
  return new ServerException(validationFailure(errors));
}

export function fieldError(field: string, message: string): ServerException {
  return validationError({ [field]: [message] });
}

/** DRF's NotFound for `get_object_or_404` (DRF >= 3.15 passes Django's Http404 message through). */
export function notFound(model: string): ServerException {
  return new ServerException(apiError(404, `No ${model} matches the given query.`));
}

export const INVALID_PAGE = "Invalid page.";

/** A non-DRF exception: the server answers 500 with `str(exc)` and a traceback naming the class. */
export function pythonException(exceptionClass: string, detail: string): ServerException {
  return new PyException(exceptionClass, detail);
}

/**
 * Where the server answers 500 (or silently ignores input), strict mode answers 400 naming the
 * field. `strictMessage` says what was expected and what was found.
 */
export interface Strictness {
  readonly strict: boolean;
}

export function pythonExceptionOrStrict(
  mode: Strictness,
  exceptionClass: string,
  detail: string,
  field: string,
  strictMessage: string,
): ServerException {
  return mode.strict ? fieldError(field, strictMessage) : pythonException(exceptionClass, detail);
}
