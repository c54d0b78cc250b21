/**
 * The errors the server would answer with. A 400 is a DRF ValidationError: the server's error body
 * then says `"detail": "Validation error"` and puts the message under `validation_errors` (a plain
 * string raised by the server lands in `non_field_errors`,
 * docs/reference/errors.md#the-error-body). A 500 is any other Python or Postgres exception:
 * `detail` is its text.
 */
import { apiError, pythonFailure, type ServerError, type ValidationErrors } from "../emulation/error-answer.js";
import { ServerException } from "../emulation/exceptions.js";
import type { JsonValue } from "../vocabulary/json.js";

/** The status the server would answer a query the engine refuses with. */
export type EvaluationStatus = 400 | 500;
export type { ValidationErrors } from "../emulation/error-answer.js";

const flatten = (v: JsonValue): string[] =>
  typeof v === "string"
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(flatten)
      : v !== null && typeof v === "object"
        ? Object.values(v).flatMap((x) => flatten(x as JsonValue))
        : [String(v)];

/** What an `EvaluationError` is made of. */
export interface EvaluationErrorInit {
  readonly status: EvaluationStatus;
  /** The server's `detail` (or the closest text we know). */
  readonly detail: string;
  /** For 400s: the server's `validation_errors`. */
  readonly validationErrors?: ValidationErrors;
  /** For 500s: the Python exception's class (the traceback's last line); "Exception" when unknown. */
  readonly exception?: string;
  /** Where in the query body the cause is, e.g. `filters.items[1].child_filters[0].value`. */
  readonly path: string;
  /** What the server expected there, in words. */
  readonly expected: string;
  /** What it found (a short, secret-free rendering). */
  readonly found: string;
  /**
   * True when the real server would answer, but this engine cannot reproduce the answer (e.g. a
   * regex with a backreference, which a linear-time engine cannot run). The status is then 500.
   */
  readonly unsupported?: boolean;
}

/** The server's answer for an error the engine predicts (`.error` is the emulation's one ServerError type). */
function answerFor(init: EvaluationErrorInit): ServerError {
  if (init.status === 500) return pythonFailure(init.exception ?? "Exception", init.detail);
  return init.validationErrors ? { status: 400, detail: init.detail, validationErrors: init.validationErrors } : apiError(400, init.detail);
}

/**
 * A query the server would refuse (400) or fail on (500), with the status, the server's `detail` and the path in the body.
 *
 * @example
 * ```ts
 * try { evaluate(dataset, query); } catch (e) { if (e instanceof EvaluationError) console.log(e.status, e.path); }
 * ```
 */
export class EvaluationError extends ServerException {
  override readonly name = "EvaluationError";
  readonly status: EvaluationStatus;
  readonly detail: string;
  readonly validationErrors: ValidationErrors | undefined;
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  readonly unsupported: boolean;

  constructor(init: EvaluationErrorInit) {
    super(answerFor(init));
    this.message = `${init.path}: expected ${init.expected}, found ${init.found} (the server answers ${init.status}: ${init.validationErrors ? flatten(init.validationErrors).join(" ") : init.detail})`;
    this.status = init.status;
    this.detail = init.detail;
    this.validationErrors = init.validationErrors;
    this.path = init.path;
    this.expected = init.expected;
    this.found = init.found;
    this.unsupported = init.unsupported ?? false;
  }
}

interface Where {
  readonly path: string;
  readonly expected: string;
  readonly found: string;
}

/** A DRF `ValidationError("<message>")` raised while filtering: 400, message under non_field_errors. */
export function rejected(where: Where, message: string): EvaluationError {
  return new EvaluationError({
    status: 400,
    detail: "Validation error",
    validationErrors: { non_field_errors: [message] },
    ...where,
  });
}

/** Any other exception: 500 with its text as `detail`. */
export function unhandled(where: Where, detail: string, unsupported = false): EvaluationError {
  return new EvaluationError({ status: 500, detail, ...where, unsupported });
}
