import { apiError, errorText, pythonFailure, type ServerError } from "./error-answer.js";

/**
 * The exceptions the server's code raises, each carrying the `ServerError` its exception handler answers
 * with (`label_studio/core/utils/common.py` `custom_exception_handler`): DRF's APIExceptions keep their
 * status and `detail`; every other Python exception is a 500 whose `detail` is `str(exc)`.
 */
export class ServerException extends Error {
  constructor(readonly error: ServerError) {
    super(errorText(error));
  }
}

/** A Python exception that is not a DRF APIException. `pyClass` is `type(exc).__name__`. */
export class PyException extends ServerException {
  constructor(
    readonly pyClass: string,
    message: string,
    /** Whether it is a ValueError (DRF's JSONParser turns those into a 400 parse error). */
    readonly isValueError = false,
  ) {
    super(pythonFailure(pyClass, message));
    this.name = pyClass;
  }
}

/** A DRF APIException with a text detail (ParseError, UnsupportedMediaType, NotFound, …). */
export class DrfApiException extends ServerException {
  override readonly name = "APIException";
  constructor(status: number, detail: string) {
    super(apiError(status, detail));
  }

  get status(): number {
    return this.error.status;
  }

  get detail(): string {
    return this.error.detail;
  }
}
